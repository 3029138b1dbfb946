#!/bin/sh
# description: the Hanoi sample records into three static rings; dump shows them merged in time order, golden lines, and after rmmod
# kernels: 6.1 6.12 6.12-rt debug arm64-6.1 arm64-6.12
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 calls=1 || fail "insmod frec_hanoi.ko"
for r in hanoi_moves hanoi_calls hanoi_timing; do
	[ -d $D/rings/$r ] || fail "no rings/$r"
done
cat $D/dump > /tmp/dump || fail "cat dump"
head -n 2 /tmp/dump
head -n 1 /tmp/dump | grep -Eqx '# frec dump: clock=local order=time(-approximate)?' || fail "dump header"
# frec/order is the kernel's own verdict on local_clock(): on x86 time
# once the kernel logged "sched_clock: Marking stable" and not "unstable"
# since.  arm64's sched_clock is the architected counter, one system
# counter for every CPU: no such verdict is logged, and the order is
# always time (frec_order.c, frec_clock_synchronized()).
clock=$(dmesg | sed -nE 's/.*sched_clock: Marking (stable|unstable).*/\1/p' | tail -n 1)
want=time-approximate
[ "$clock" = stable ] && want=time
[ "$(frec_arch)" = arm64 ] && clock="arm64's architected counter" want=time
echo "# sched_clock: ${clock:-never marked stable}; frec/order: $(head -n 1 $D/order)"
[ "$(head -n 1 $D/order)" = $want ] || fail "frec/order is not $want (sched_clock: ${clock:-never marked stable})"
grep ' hanoi_' /tmp/dump
# Golden: the 7 moves of 3 disks, in order, each with its caller.
grep ' hanoi_moves: ' /tmp/dump | sed 's/^[0-9]* \[ *[0-9]*\.[0-9]*\] cpu[0-9]* [^ ]* //' > /tmp/moves
cat > /tmp/moves.golden <<'G'
hanoi_moves: hanoi_frec+0xXX/0xXX [frec_hanoi] move disk 1 from A to C
hanoi_moves: hanoi_frec+0xXX/0xXX [frec_hanoi] move disk 2 from A to B
hanoi_moves: hanoi_frec+0xXX/0xXX [frec_hanoi] move disk 1 from C to B
hanoi_moves: hanoi_frec+0xXX/0xXX [frec_hanoi] move disk 3 from A to C
hanoi_moves: hanoi_frec+0xXX/0xXX [frec_hanoi] move disk 1 from B to A
hanoi_moves: hanoi_frec+0xXX/0xXX [frec_hanoi] move disk 2 from B to C
hanoi_moves: hanoi_frec+0xXX/0xXX [frec_hanoi] move disk 1 from A to C
G
sed 's/+0x[0-9a-f]*\/0x[0-9a-f]*/+0xXX\/0xXX/' /tmp/moves | diff /tmp/moves.golden - || fail "moves differ from golden"
[ "$(grep -c ' hanoi_calls: .*\] > hanoi n=' /tmp/dump)" = 7 ] || fail "7 call entries"
[ "$(grep -c ' hanoi_calls: .*\] < hanoi n=' /tmp/dump)" = 7 ] || fail "7 call exits"
grep -q ' hanoi_calls: .*\] < hanoi n=3 moves=7$' /tmp/dump || fail "outermost call exit"
grep -q ' hanoi_timing: .* End recording Hanoi with 3 disks: 7 moves$' /tmp/dump || fail "timing record"
frec_check_order /tmp/dump || fail "not in merged order"
# Per-ring dump: only that ring.
cat $D/rings/hanoi_moves/dump | grep -v '^#' | grep -v ' hanoi_moves: ' && fail "rings/hanoi_moves/dump shows another ring"
[ "$(grep -c ' hanoi_moves: ' $D/rings/hanoi_moves/dump)" = 7 ] || fail "per-ring dump count"
# The module goes; its rings stay readable with the same text, callers
# named as they were (frec named them when the module went).
rmmod frec_hanoi || fail "rmmod frec_hanoi"
cat $D/dump > /tmp/dump2 || fail "cat dump after rmmod"
grep ' hanoi_' /tmp/dump > /tmp/a3
grep ' hanoi_' /tmp/dump2 > /tmp/b3
diff /tmp/a3 /tmp/b3 || fail "records changed after the module unloaded"
# Loading it again adopts the orphaned rings and appends to them.
insmod "$FREC_MODULES/frec_hanoi.ko" disks=2 || fail "insmod frec_hanoi.ko again"
[ "$(grep -c ' hanoi_moves: ' $D/dump)" = 10 ] || fail "adopted ring should hold 7 + 3 moves"
rmmod frec_hanoi || fail "rmmod frec_hanoi"
frec_unload
