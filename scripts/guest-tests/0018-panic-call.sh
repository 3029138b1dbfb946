#!/bin/sh
# description: panic() called directly prints frec's newest records from frec's panic notifier, which runs before pvpanic's when frec registers first
# expect: panic
. /frec/guest/lib.sh
frec_reset
frec_load
insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
frec_pvpanic_after_frec
echo 'record 300' > /sys/module/frec_crash_test/parameters/trigger || fail "record"
{
	frec_expect_newest 63
	echo "frec-expect-last: about to panic"
	echo "frec-expect-block: panic"
} | frec_tap_now
sleep 1
echo panic > /sys/module/frec_crash_test/parameters/trigger
sleep 30
fail "the kernel did not panic"
