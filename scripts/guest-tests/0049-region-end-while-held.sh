#!/bin/sh
# description: black box: an oops while another path holds the region's state (a heartbeat stopped half way through its write: test_fault region_hold) is still marked, by the holder when it lets go: the next load shows "end: oops"
# kernels: 6.1
# expect: splat
# boot: alone
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=1M@0x20000000
frec_reset
frec_crash_test_load region=$R fault_inject=1
echo region_hold > $D/test_fault || fail "test_fault region_hold"
echo oops > "$FREC_TRIGGER" || fail "oops trigger"
frec_wait_klog 'end trace' || fail "no end of the oops report"
echo region_release > $D/test_fault || fail "test_fault region_release"
rmmod frec_crash_test || fail "rmmod frec_crash_test"
frec_unload
frec_load region=$R
cat $D/previous/info
grep -q '^end: oops$' $D/previous/info || fail "the oops while the state was held is not marked"
frec_unload
