#!/bin/sh
# description: panic() called directly prints frec's newest records from frec's panic notifier
# kernels: 6.1 6.12-rt
# expect: panic
. /frec/guest/lib.sh
frec_crash_test_load
echo 'record 300' > $FREC_TRIGGER || fail "record"
{
	frec_expect_newest 63
	echo "frec-expect-last: about to panic"
	echo "frec-expect-block: panic"
} | frec_tap_now
sleep 1
echo panic > $FREC_TRIGGER
sleep 30
fail "the kernel did not panic"
