#!/bin/sh
# description: echo c > /proc/sysrq-trigger (a panic() in 6.1) leaves frec's newest records on the console before the panic
# expect: panic
. /frec/guest/lib.sh
frec_reset
frec_load
insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
frec_pvpanic_after_frec
echo 'record 300' > /sys/module/frec_crash_test/parameters/trigger || fail "record"
{
	frec_expect_newest 64
	echo "frec-expect-block: panic"
} | frec_tap_now
sleep 1
echo c > /proc/sysrq-trigger
sleep 30
fail "the kernel did not panic"
