#!/bin/sh
# description: a client's formats and %s literals outlive the client module (KUnit checks the records)
# kernels: debug
# can-run: debug
# requires: kunit
. /frec/guest/lib.sh
frec_reset
frec_load
insmod "$FREC_MODULES/frec_test_client.ko" || fail "insmod frec_test_client.ko"
rmmod frec_test_client || fail "rmmod frec_test_client"
touch /tmp/frec_test_client.gone
insmod "$FREC_MODULES/frec_kunit.ko" torture_ms=100 || fail "insmod frec_kunit.ko"
rm -f /tmp/frec_test_client.gone
r=/sys/kernel/debug/kunit/frec_unload/results
[ -r $r ] || fail "no frec_unload results"
cat $r
grep -q '^    ok [0-9]* unload_client_strings_outlive_the_client$' $r ||
	fail "unload_client_strings_outlive_the_client did not pass"
rmmod frec_kunit || fail "rmmod frec_kunit"
frec_unload
