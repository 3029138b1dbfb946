#!/bin/sh
# description: black box texts: a persisted ring's records with %s and %ps arguments, of a module then unloaded (its records repointed at frec's copies), decode after sysrq-b to exactly the lines the old dump printed; frec/region_texts counts what the sweeps wrote; frec-decode's JSON of the region names the records' task (comm-pid), as the sweep saw it
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000
D=$FREC_DEBUGFS

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
	# and the name of the one task that stored them, this shell
	grep -q '^task names written: 1$' "$FREC_DEBUGFS/region_texts" ||
		fail "the region does not have the name of the task that stored the records"
	# Its records now name frec's copies of its formats and names: the
	# sweep at its unload writes those.
	rmmod frec_crash_test || fail "rmmod frec_crash_test"
	cat "$FREC_DEBUGFS/region_texts"
	frec_blackbox_sysrq_b
	;;
2)
	frec_load region=$R
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	# The task that stored the records, named as the sweep saw it: this
	# test's shell, the same program in both boots.
	pid=$(sed -n 's/.* T\([0-9]*\) crash_test: .*/\1/p' $D/previous/dump | sort -u)
	[ "$(echo "$pid" | wc -w)" = 1 ] || fail "crash_test's records name tasks '$pid', not one"
	comm=$(cat /proc/$$/comm)
	frec_decode $D/previous/raw -F json --json-track=task > /tmp/tasks.json ||
		fail "frec-decode -F json --json-track=task of previous/raw failed"
	grep -q "\"$comm-$pid\"" /tmp/tasks.json ||
		fail "no track '$comm-$pid' in frec-decode's JSON of previous/raw: $(grep -o '"[^"]*-'"$pid"'"' /tmp/tasks.json | head -n 1)"
	echo "the region named the records' task: $comm-$pid"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
