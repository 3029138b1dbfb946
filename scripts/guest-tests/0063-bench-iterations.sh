#!/bin/sh
# description: frec_bench.ko refuses an iterations= too small for its cost table (under 10: the printk case runs a tenth of them, and each figure divides by its count) with -EINVAL and a log line naming the value, with no oops; with iterations=10 it prints every row of the table
# kernels: 6.1
# timeout: 120
. /frec/guest/lib.sh
. /frec/run.conf
frec_reset
frec_load
for n in 0 3 9; do
	dmesg -c > /dev/null
	insmod "$FREC_MODULES/frec_bench.ko" iterations=$n 2> /tmp/err && {
		rmmod frec_bench
		fail "iterations=$n was accepted"
	}
	cat /tmp/err
	dmesg | grep -q "frec-bench: iterations=$n refused" ||
		fail "no log line naming iterations=$n: $(dmesg | tail -n 3)"
	! dmesg | grep -q -e 'divide error' -e 'Oops' || fail "iterations=$n: $(dmesg | grep -m 1 -e 'divide error' -e Oops)"
	grep -q '^frec_bench ' /proc/modules && fail "frec_bench stayed loaded"
done
dmesg -c > /dev/null
insmod "$FREC_MODULES/frec_bench.ko" iterations=10 || fail "iterations=10 refused: $(dmesg | tail -n 3)"
dmesg > /tmp/log
rmmod frec_bench || fail "rmmod frec_bench"
grep 'frec-bench: ' /tmp/log | sed 's/^.*frec-bench/frec-bench/'
for c in empty_loop frec_record_4_args frec_span_begin_end trace_printk_4_args; do
	grep -q "frec-bench: $c 10 iterations" /tmp/log || fail "no row $c of 10 iterations"
done
grep -q 'frec-bench: printk_4_args 1 iterations' /tmp/log || fail "no printk row of 1 iteration"
! grep -q -e 'divide error' -e 'Oops' /tmp/log || fail "an oops: $(grep -m 1 -e 'divide error' -e Oops /tmp/log)"
frec_unload
