#!/bin/sh
# description: black box: a triple fault (frec_crash_test loads an empty IDT and raises an exception; reboot=t) resets the guest; the next boot's frec/previous/info counts the persisted ring's records, no end marked, and frec-decode of previous/raw prints exactly the lines the old boot's dump printed for that ring
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000 reboot=t
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000

case $FREC_PHASE in
1)
	frec_blackbox_fill $R
	echo triple-fault > /sys/module/frec_crash_test/parameters/trigger
	sleep 10
	fail "the triple fault did not reset"
	;;
2)
	frec_load region=$R
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
