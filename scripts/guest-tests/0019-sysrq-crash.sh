#!/bin/sh
# description: echo c > /proc/sysrq-trigger (a panic() in 6.1) leaves frec's newest records on the console before the panic
# kernels: 6.12 6.12-rt
# expect: panic
. /frec/guest/lib.sh
frec_crash_test_load
echo 'record 300' > $FREC_TRIGGER || fail "record"
{
	frec_expect_newest 64
	echo "frec-expect-block: panic"
} | frec_tap_now
sleep 1
echo c > /proc/sysrq-trigger
sleep 30
fail "the kernel did not panic"
