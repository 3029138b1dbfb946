#!/bin/sh
# description: black box on 6.12 with KASLR: a reserve_mem= range records a persisted ring and the guest resets (sysrq-b); in the next boot, if the range is at the same physical address frec/previous/ shows the previous boot (frec-decode of raw prints the old dump's lines), if it moved info says no previous boot was found and shows nothing; says which
# kernels: 6.12 arm64-6.12
# can-run: 6.12 6.12-rt
# boot: twice
# cmdline: reserve_mem=1M:4096:frecbox
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS

case $FREC_PHASE in
1)
	grep -qw nokaslr /proc/cmdline && fail "the guest boots with nokaslr"
	frec_load region_label=frecbox persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	sleep 1
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
2)
	frec_load region_label=frecbox
	if grep -q '^previous boot: none found: the region was written at another physical address (moved)$' $D/previous/info; then
		cat $D/previous/info
		grep -qE '^(ring|records recovered|end):' $D/previous/info && fail "a moved region's rings or records shown"
		echo "the reserve_mem= range moved: reported as moved, nothing shown"
	else
		frec_blackbox_check crash_test "no end marked (a reset or a hang)"
		echo "the reserve_mem= range kept its address: the previous boot shown"
	fi
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
