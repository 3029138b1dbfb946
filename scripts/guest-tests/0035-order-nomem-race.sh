#!/bin/sh
# description: two order writes racing while store allocations fail leave the ring's order as it was, and a later clear keeps it (test_fault hold, nomem)
# kernels: 6.1 debug
. /frec/guest/lib.sh
frec_reset
frec_load fault_inject=1
D=$FREC_DEBUGFS
R=$D/rings/default
[ "$(cat $R/order)" = cpu ] || fail "default ring is not cpu-order"
dmesg -c > /dev/null
# The first write changes the order and holds, with the ring lock, in its
# store allocation; the second, to the same order, waits for the lock.
echo hold > $D/test_fault || fail "arm hold"
echo global > $R/order &
first=$!
frec_wait_klog 'test_fault: holding a store allocation' || fail "the first order write did not hold"
echo global > $R/order &
second=$!
frec_wait_blocked $second || fail "the second order write did not wait for the ring lock"
# Both allocations fail: both writes must leave the order as it was.
echo nomem > $D/test_fault || fail "arm nomem"
echo release > $D/test_fault || fail "release"
wait $first && fail "the first order write succeeded without memory"
wait $second && fail "the second order write succeeded without memory"
echo off > $D/test_fault || fail "test_fault off"
[ "$(cat $R/order)" = cpu ] || fail "after two failed writes the order is $(cat $R/order)"
echo 1 > $R/clear || fail "clear"
[ "$(cat $R/order)" = cpu ] || fail "a clear changed the order to $(cat $R/order): a failed order write restored a stale order"
echo 1 > $R/clear || fail "clear"
frec_reset
