#!/bin/sh
# description: black box: QEMU's system_reset, sent by the host to QEMU's monitor when the guest asks, resets the guest; the next boot's frec/previous/info counts the persisted ring's records, no end marked, and frec-decode of previous/raw prints exactly the lines the old boot's dump printed for that ring
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
	frec_host_system_reset
	sleep 30
	fail "the host's system_reset did not come"
	;;
2)
	frec_load region=$R
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
