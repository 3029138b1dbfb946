#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make demo`: the whole product in two guest boots of Debian's stock
# kernel (scripts/guest/demo.sh is what runs inside).  Boot 1: record with
# the Hanoi sample, dump, filter, stats, decode offline, ftrace and
# bpftrace agreeing.  Boot 2: an oops, and frec's block on its console.
# Needs make modules and make tools first (make demo does both).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
out=$FREC_BUILD/demo
mkdir -p "$out"
"$FREC_ROOT/scripts/guest-run.sh" -k stock -m demo -o "$out/boot1" || true
FREC_GUEST_CMDLINE="frec_demo=oops" \
	"$FREC_ROOT/scripts/guest-run.sh" -k stock -m demo -o "$out/boot2" || true
echo
echo "== the console of boot 2, from the oops to frec's end marker ($out/boot2/console.log)"
tr -d '\r' < "$out/boot2/console.log" | sed 's/^\[ *[0-9.]*\] //' |
	awk '/^(BUG:|Oops|RIP:)/ && !inb { print } /^---\[ frec dump begin/ { inb = 1 }
		inb { print } /^---\[ frec dump end/ { exit }' | head -n 40
