#!/bin/sh
# description: frec_printk() stores its arguments (strings copied) and formats them when read: for a table of formats covering every conversion, each dump line is what vsnprintf() printed at the call, a string freed right after the call included; the raw dump carries the same text
# kernels: 6.1 6.12 debug
# expect: splat
. /frec/guest/lib.sh
frec_reset
frec_load
# vsnprintf() warns (once a boot) at a length it does not take (%j):
# the only splat this test may cause.
echo "frec-0033: recording" > /dev/kmsg
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_printk_test.ko" || fail "insmod frec_printk_test.ko"
echo 1 > /sys/module/frec_printk_test/parameters/record || fail "record"
grep ' printk_test: ' $D/dump |
	sed 's/^[0-9]* \[ *[0-9.]*\] cpu[0-9]* [^ ]* printk_test: frec_printk_test_cases+0x[0-9a-f]*\/0x[0-9a-f]* \[frec_printk_test\] //' > /tmp/msgs
cut -c1-120 /tmp/msgs
n=0
while IFS= read -r got && IFS= read -r ref; do
	n=$((n + 1))
	[ "= $got" = "$ref" ] || fail "case $n: the record reads '$got', vsnprintf() printed '${ref#= }'"
done < /tmp/msgs
[ "$n" = 25 ] || fail "want 25 cases, read $n"
grep -qx 'freed \[a string freed right after the call\]' /tmp/msgs || fail "the freed string is not printed as it was"
grep -qx 'bad str \[(null)\] \[(efault)\] \[(efault)\] \[  (null)\]' /tmp/msgs || fail "bad strings print otherwise"
grep -qx 'a=' /tmp/msgs || fail "a length vsnprintf() stops at is printed past it"
frec_klog | sed -n '/frec-0033: recording/,$p' |
	grep -E 'BUG:|WARNING:|Oops|KASAN:|UBSAN:' | grep -v 'WARNING: .* format_decode+' &&
	fail "a splat other than vsnprintf()'s warning at %j"
echo "# $n cases: every record prints what vsnprintf() printed"
rmmod frec_printk_test || fail "rmmod frec_printk_test"
# After the module went, the records (now only sites' copies) read the same.
grep ' printk_test: ' $D/dump |
	sed 's/^[0-9]* \[ *[0-9.]*\] cpu[0-9]* [^ ]* printk_test: frec_printk_test_cases+0x[0-9a-f]*\/0x[0-9a-f]* \[frec_printk_test\] //' |
	cmp -s - /tmp/msgs || fail "the records read otherwise after rmmod"
frec_unload
