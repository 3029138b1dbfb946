#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make demo`: the whole product in guest boots of Debian's stock
# kernel (scripts/guest/demo.sh is what runs inside).  Boot 1: record with
# the Hanoi sample, dump, filter, stats, decode offline, ftrace and
# bpftrace agreeing, and a recording beside trace-cmd's that the guest
# leaves in OUT/export (guest-run.sh -x).  Boot 2: an oops, and frec's
# block on its console.  Boots 3 and 4, guest test 0125: frec_null_blk
# under fio, its ring in the black box region, the request span's
# histogram, sysrq-b in the middle of fio, and the requests in flight at
# the reset as the next boot reads them.  Then the host writes boot 1's
# recording as a trace.dat on ftrace's clock (frec-decode -F trace-dat),
# checks it against ftrace.dat (tracedat-timeline-check.sh) and prints
# the commands that open the two.  Needs make modules and make tools
# first (make demo does both); boots 3 and 4 need frec_null_blk.ko
# (make modules builds it where linux-source is installed) and fio.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
out=$FREC_BUILD/demo
mkdir -p "$out"
rm -rf "$out/export" "$out/frec.dat" "$out/ftrace.dat"
"$FREC_ROOT/scripts/guest-run.sh" -k stock -m demo -o "$out/boot1" -x "$out/export" || true
FREC_GUEST_CMDLINE="frec_demo=oops" \
	"$FREC_ROOT/scripts/guest-run.sh" -k stock -m demo -o "$out/boot2" || true
echo
echo "== the console of boot 2, from the oops to frec's end marker ($out/boot2/console.log)"
tr -d '\r' < "$out/boot2/console.log" | sed 's/^\[ *[0-9.]*\] //' |
	awk '/^(BUG:|Oops|RIP:)/ && !inb { print } /^---\[ frec dump begin/ { inb = 1 }
		inb { print } /^---\[ frec dump end/ { exit }' | head -n 40

echo
echo "== 9. null_blk under fio, its ring in the black box; sysrq-b mid-fio; the next boot's requests in flight (boots 3 and 4: guest test 0125, $out/nullblk)"
rm -rf "$out/nullblk"
nb_test=$FREC_ROOT/scripts/guest-tests/0125-nullblk-reset-in-flight.sh
"$FREC_ROOT/scripts/guest-run.sh" -k stock -o "$out/nullblk" "$nb_test" | grep -E '^(PASS|FAIL|SKIP)' || true
tap=$out/nullblk/$(basename "$nb_test" .sh)/tap.log
if [ -f "$tap" ]; then
	tr -d '\r' < "$tap" | sed -n 's/^# //p' | grep -v '^frec-guest-done' | cut -c1-200
else
	echo "no log of the null_blk run ($out/nullblk)"
fi

echo
echo "== One timeline: boot 1's recording as frec.dat, on ftrace's clock, beside trace-cmd's ftrace.dat"
e=$out/export
if [ ! -s "$e/raw" ] || [ ! -s "$e/ftrace.dat" ]; then
	echo "boot 1 left no recording in $e (see $out/boot1/tap.log)"
	exit 1
fi
"$FREC_BUILD/tools/decode/frec-decode" -S "$e/sites" -f "$e/formats" -k "$e/kallsyms" \
	-F trace-dat -o "$out/frec.dat" "$e/raw"
cp "$e/ftrace.dat" "$out/ftrace.dat"
command -v trace-cmd > /dev/null || { echo "no trace-cmd here (scripts/install-deps.sh)"; exit 1; }
verdict="on one timeline (scripts/tracedat-timeline-check.sh):"
sh "$FREC_ROOT/scripts/tracedat-timeline-check.sh" -o "$out/timeline" \
	"$out/ftrace.dat" "$out/frec.dat" "$e/dump" > "$out/timeline.log" ||
	verdict="NOT on one timeline (scripts/tracedat-timeline-check.sh, $out/timeline.log):"
echo "frec.dat and ftrace.dat are $verdict"
{ grep -m 3 '^FAIL' "$out/timeline.log" || true; grep -v '^FAIL' "$out/timeline.log"; } | cut -c1-240
echo
echo "A kthread switched in, and its records (frec.dat) beside their tracepoint events (ftrace.dat):"
{ trace-cmd report -i "$out/ftrace.dat" -i "$out/frec.dat" 2> /dev/null || true; } |
	awk 'n { print; if (++n > 10) exit; next }
		sw && /^ *frec\.dat:/ { print sw; print; n = 2; next }
		{ sw = "" } /sched_switch:/ && /==> frec_stress/ { sw = $0 }' | cut -c1-160
echo
rel=${out#"$PWD/"}
echo "Open them:"
echo "  trace-cmd report -i $rel/ftrace.dat -i $rel/frec.dat"
echo "  kernelshark $rel/ftrace.dat -a $rel/frec.dat"
