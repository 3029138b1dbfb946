#!/bin/sh
# description: black box: loads refused for a bad parameter (persist_rings=, oops_rings= with a glob frec refuses, sites_max=0) leave the previous boot's region as they found it: the next good load still shows the boot that was reset, its records and its end
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
	frec_blackbox_fill $R
	frec_blackbox_sysrq_b
	;;
2)
	for bad in persist_rings=bad.glob oops_rings=bad.glob sites_max=0; do
		dmesg -c > /dev/null
		if insmod "$FREC_MODULES/frec.ko" region="$R" persist_rings=crash_test "$bad" 2> /dev/null; then
			frec_unload
			fail "insmod frec.ko with $bad loaded"
		fi
		dmesg | grep -q "frec: ${bad%%=*}=" || { dmesg; fail "no log line names $bad"; }
		dmesg | grep 'frec: region' && fail "a load refused for $bad touched the region"
		echo "refused, without touching the region: $bad"
	done
	frec_load region="$R"
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
