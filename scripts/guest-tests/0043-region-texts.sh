#!/bin/sh
# description: black box texts: a persisted ring's records with %s and %ps arguments, of a module then unloaded (its records repointed at frec's copies), decode after sysrq-b to exactly the lines the old dump printed; frec/region_texts counts what the sweeps wrote
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000

case $FREC_PHASE in
1)
	frec_load region=$R persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 100' > /sys/module/frec_crash_test/parameters/trigger
	echo 'strings 300' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	frec_texts_swept
	cat "$FREC_DEBUGFS/region_texts"
	# red, green, blue and the two functions of the %ps; the callers are
	# their sites'.
	grep -q '^texts written: 5$' "$FREC_DEBUGFS/region_texts" ||
		fail "the region does not have the 5 texts the records point to"
	# Its records now name frec's copies of its formats and names: the
	# sweep at its unload writes those.
	rmmod frec_crash_test || fail "rmmod frec_crash_test"
	cat "$FREC_DEBUGFS/region_texts"
	frec_blackbox_sysrq_b
	;;
2)	frec_blackbox_previous $R crash_test "no end marked (a reset or a hang)" ;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
