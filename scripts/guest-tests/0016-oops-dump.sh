#!/bin/sh
# description: an oops in a work item (panic_on_oops=0) prints the newest records of every ring between markers, in order, on the console itself (judge.sh); an oops inside a frec write skips the half-written record, gives the write up, and the CPU records on, after as many such oopses as records nest; the guest stays usable
# kernels: 6.1 6.12 6.12-rt debug arm64-6.1 arm64-6.12
# expect: splat
# boot: alone
. /frec/guest/lib.sh
frec_crash_test_load fault_inject=1
D=$FREC_DEBUGFS
T=$FREC_TRIGGER
[ "$(cat /proc/sys/kernel/panic_on_oops)" = 0 ] || fail "panic_on_oops is set"

# expect_block: the last console block is, per ring, the newest 64 records
# of rings/*/dump, in merged order.
expect_block() {
	frec_klog > /tmp/klog
	frec_console_block < /tmp/klog > /tmp/block || fail "$1: no complete frec block on the console"
	for r in $(ls $D/rings); do
		grep -v '^#' $D/rings/$r/dump | tail -n 64
	done | frec_sort_merged > /tmp/want
	tail -n +3 /tmp/block > /tmp/got
	diff /tmp/want /tmp/got > /tmp/diff || { head -20 /tmp/diff; fail "$1: console block differs"; }
	frec_console_expect_last /tmp/klog
	echo "# $1: $(wc -l < /tmp/got) records on the console, the newest 64 per ring"
}

# stats_cpu RING CPU FIELD
stats_cpu() {
	sed -n "s/^cpu$2 .* $3=\([0-9]*\).*/\1/p" $D/rings/$1/stats
}

# 1. An oops in a work item on CPU 1.
taskset -c 1 sh -c "echo 'record 300' > $T" || fail "record"
dmesg -c > /dev/null
taskset -c 1 sh -c "echo oops > $T" || fail "oops trigger"
frec_wait_klog 'frec dump end' || fail "oops: no frec dump"
frec_wait_klog 'end trace' || fail "oops: no end of the oops report"
expect_block oops
grep 'crash_test:' /tmp/got | tail -n 1 | grep -q 'about to oops$' ||
	fail "the record just before the oops is not the newest"
# The block is inside the oops report, before its end.
awk '/frec dump end/ { f = NR } /end trace/ { e = NR } END { exit !(f && e && f < e) }' /tmp/klog ||
	fail "the frec block is not inside the oops report"

# 2. An oops inside a write, between filling the slots and committing.
dmesg -c > /dev/null
echo filled > $D/test_fault || fail "arm test_fault"
taskset -c 1 sh -c "echo write > $T" || fail "write trigger"
frec_wait_klog 'frec dump end' || fail "mid-write: no frec dump"
frec_wait_klog 'end trace' || fail "mid-write: no end of the oops report"
expect_block mid-write
grep -q 'this write faults' /tmp/got && fail "the half-written record was printed"
grep -q 'this write faults' $D/dump && fail "the half-written record is readable"
grep -q 'ring crash_test: 1 write(s) in progress on CPU 1 given up' /tmp/klog ||
	fail "the dying write was not given up"
[ "$(stats_cpu crash_test 1 dropped_abandoned)" = 1 ] || fail "dropped_abandoned: $(cat $D/rings/crash_test/stats)"

# 3. More oopses inside writes on CPU 1 (no dump, to be quick): as many
# as records may nest on one CPU, each giving its write up.
echo 0 > $D/oops_dump || fail "oops_dump off"
for i in 2 3 4 5 6 7 8; do
	dmesg -c > /dev/null
	echo reserved > $D/test_fault || fail "arm test_fault"
	taskset -c 1 sh -c "echo write > $T" || fail "write trigger $i"
	frec_wait_klog 'end trace' || fail "oops $i: no end of the oops report"
	frec_wait_klog 'write(s) in progress on CPU 1 given up' || fail "oops $i: the write was not given up"
done
echo 1 > $D/oops_dump || fail "oops_dump on"
[ "$(stats_cpu crash_test 1 dropped_abandoned)" = 8 ] || fail "dropped_abandoned: $(cat $D/rings/crash_test/stats)"

# 4. CPU 1 records on: laps of the ring, none dropped, counts reconcile.
taskset -c 1 sh -c "echo 'record 2000' > $T" || fail "record after the oopses"
[ "$(stats_cpu crash_test 1 dropped_nest)" = 0 ] || fail "records dropped as nested after the oopses: $(grep '^cpu1' $D/rings/crash_test/stats)"
[ "$(stats_cpu crash_test 1 dropped_lap)" = 0 ] || fail "writes dropped after the oops: $(cat $D/rings/crash_test/stats)"
grep -q 'crash test 2000 of 2000 cpu 1$' $D/dump || fail "no record after the oopses on cpu 1"
awk '$1 == "cpu1" { for (i = 2; i <= NF; i++) { split($i, kv, "=");
	if (kv[1] == "written") w = kv[2]; else if (kv[1] != "seq") s += kv[2] } exit !(w == s) }' $D/rings/crash_test/stats ||
	fail "cpu1 counts do not reconcile: $(grep cpu1 $D/rings/crash_test/stats)"
echo "# $(grep '^cpu1' $D/rings/crash_test/stats)"
frec_reset
