#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A kernel bug frec's tests ran into, reduced to three small modules and no
# frec: removing an ftrace-based kprobe from a function while another
# module calls that function (from hard IRQ and from a kthread) jumps to
# address 0 ("BUG: kernel NULL pointer dereference ... RIP: 0010:0x0",
# kprobe_int3_handler on the stack).  It looks as if an int3 ftrace plants
# while it rewrites the call site were taken for the kprobe's own, and the
# kprobe, being ftrace-based, has no out-of-line copy to step (its
# ainsn.insn is NULL); that is a reading of the traces, not a proof.
# Calls from inside the probed function's own module did not trigger it
# (12 rounds, 140,000 hits each); calls from another module did, at the
# first or second removal, in every run.
#
#   scripts/repro/kprobe-race/run.sh [ROUNDS]
#
# FREC_KP_NESTED=1: the pre-handler calls the probed function itself (as
# frec_kprobe_test's records into frec), which met "RIP: 0010:0x0" while
# the kprobe was being armed on 6.12.
#
# Builds the modules against FREC_KVER's headers (6.1 by default; 6.12 and
# 6.12-rt as scripts/lib.sh names them), boots that stock guest (scripts/guest-run.sh), loads kp_lib and
# kp_caller, then loads and unloads kp_probe ROUNDS times (default 12) with
# 2 s between.  Prints "crashed in round N" or "no crash in N rounds".
# Not part of make check: on an affected kernel the guest dies.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"

rounds=${1:-12}
kdir=$(stock_kdir)
out=$FREC_BUILD/repro-kprobe-race-$(stock_kver)
mkdir -p "$out/src"
cp "$here"/*.c "$here"/*.h "$here/Kbuild" "$out/src/"
make -C "$kdir" M="$out/src" modules > "$out/build.log" 2>&1 || die "build failed (see $out/build.log)"
cat > "$out/9999-kprobe-race.sh" <<TEST
#!/bin/sh
# description: kprobe removal while another module calls the probed function
# timeout: $((rounds * 3 + 60))
. /frec/guest/lib.sh
D=/host$out/src
insmod \$D/kp_lib.ko || fail kp_lib
insmod \$D/kp_caller.ko || fail kp_caller
for i in \$(seq 1 $rounds); do
	echo "kprobe-race: round \$i" > /dev/kmsg
	insmod \$D/kp_probe.ko nested=${FREC_KP_NESTED:-0} || fail kp_probe
	sleep 2
	rmmod kp_probe || fail "rmmod kp_probe"
done
echo "kprobe-race: done" > /dev/kmsg
TEST
# The guest wants a frec.ko for its kernel; kp_lib stands in (frec is not loaded).
mkdir -p "$out/ko" && cp "$out/src/kp_lib.ko" "$out/ko/frec.ko"
"$FREC_ROOT/scripts/guest-run.sh" -k stock -M "$out/ko" -o "$out/guest" "$out/9999-kprobe-race.sh" > "$out/guest.out" 2>&1 || true
console=$out/guest/console.log
if grep -q 'RIP: 0010:0x0' "$console"; then
	echo "crashed in $(grep -o 'kprobe-race: round [0-9]*' "$console" | tail -n 1) of $rounds (see $console)"
elif grep -q 'kprobe-race: done' "$console"; then
	echo "no crash in $rounds rounds"
else
	echo "the guest did not finish (see $console)"
fi
