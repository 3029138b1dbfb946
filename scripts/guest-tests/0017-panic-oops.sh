#!/bin/sh
# description: with oops=panic, an oops in a work item prints frec's newest records to the console before the kernel panics
# kernels: 6.1 6.12 6.12-rt arm64-6.1 arm64-6.12
# expect: panic
# cmdline: oops=panic
. /frec/guest/lib.sh
frec_crash_test_load
[ "$(cat /proc/sys/kernel/panic_on_oops)" = 1 ] || fail "oops=panic did not set panic_on_oops"
echo 'record 300' > $FREC_TRIGGER || fail "record"
# The oops adds one record: the newest 63 of each ring stay in the block.
{
	frec_expect_newest 63
	echo "frec-expect-last: about to oops"
	echo "frec-expect-block: oops"
} | frec_tap_now
sleep 1
echo oops > $FREC_TRIGGER
sleep 30
fail "the kernel did not panic"
