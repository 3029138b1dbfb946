#!/bin/sh
# description: frec's KUnit suites pass (debug kernel with KUnit)
# kernels: debug
# can-run: debug
# requires: kunit
# timeout: 300
. /frec/guest/lib.sh
frec_reset
frec_load
found=0
for ko in "$FREC_MODULES"/*_kunit.ko; do
	[ -e "$ko" ] || continue
	insmod "$ko" || fail "insmod $ko"
	found=$((found + 1))
done
[ $found -gt 0 ] || fail "no KUnit modules in $FREC_MODULES"
rc=0
n=0
for r in /sys/kernel/debug/kunit/frec*/results; do
	[ -r "$r" ] || continue
	n=$((n + 1))
	cat "$r"
	grep -q '^not ok' "$r" && rc=1
	grep -q '^    not ok' "$r" && rc=1
done
[ $n -gt 0 ] || fail "no frec suite results in /sys/kernel/debug/kunit"
for ko in "$FREC_MODULES"/*_kunit.ko; do
	rmmod "$(basename "$ko" .ko)" || fail "rmmod $ko"
done
frec_unload
exit $rc
