#!/bin/sh
# description: black box: two resets in a row (sysrq-b twice): the second boot shows the first boot's records, the third shows the second boot's (frec-decode of previous/raw prints exactly the lines its dump printed, info names its boot id) and never the first boot's
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# phases: 3
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000
T=/sys/module/frec_crash_test/parameters/trigger

case $FREC_PHASE in
1)
	# Sequence A: "crash test I of 500".
	frec_blackbox_fill $R
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
2)
	# A is the previous boot's; then this boot persists sequence B,
	# "crash test I of 300", and hands phase 3 its md5, count and boot id.
	frec_load region=$R persist_rings=crash_test
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 300' > $T
	frec_blackbox_keep crash_test
	frec_phase_put_hex "$(frec_phase_get_hex)$(tr -d - < /proc/sys/kernel/random/boot_id)"
	sleep 1
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
3)
	frec_load region=$R
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	id=$(frec_phase_get_hex | cut -c41-72)
	grep -q "^previous boot: $id\$" $FREC_DEBUGFS/previous/info ||
		fail "info does not name the second boot ($id)"
	grep -q ' of 500 ' /tmp/new && fail "the first boot's records shown as the previous boot's"
	grep -q 'crash test 300 of 300 ' /tmp/new || fail "no record 300 of 300"
	echo "the second boot's records, none of the first's"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
