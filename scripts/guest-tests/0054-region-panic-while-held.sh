#!/bin/sh
# description: black box: a panic while another path holds the region's state for good (a heartbeat on a CPU panic() stopped half way through its write: test_fault region_hold) still marks "panic", and the next boot shows the old dump's lines
# kernels: 6.12-rt
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# expect: splat
# cmdline: memmap=1M$0x20000000 panic=1
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000

case $FREC_PHASE in
1)
	frec_blackbox_fill $R fault_inject=1
	echo region_hold > "$FREC_DEBUGFS/test_fault" || fail "test_fault region_hold"
	frec_blackbox_sysrq_c
	;;
2)	frec_blackbox_previous $R crash_test panic ;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
