#!/bin/sh
# description: causality litmus: CPU 0 records "a i" then publishes i, CPU 1 waits for i and records "b i", and back; in the merged raw dump every record comes after the one it waited for: 0 inversions over 1,000,000 pairs, rings in per-CPU and global order, with and without hard-IRQ writers on both CPUs
# kernels: 6.1 6.12 6.12-rt arm64-6.1 arm64-6.12
# timeout: 600
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
[ "$(grep -c ^processor /proc/cpuinfo)" -ge 2 ] || skip "needs two CPUs"
order=$(head -n 1 $D/order) || fail "no frec/order"
echo "# order: $order; dump: $(head -n 1 $D/dump)"
case $order in time | time-approximate) ;; *) fail "frec/order reads '$order'" ;; esac
[ "$(head -n 1 $D/dump)" = "# frec dump: clock=local order=$order" ] || fail "the dump's header disagrees with frec/order"
# Across CPUs the order follows happens-before only on a synchronised clock.
[ "$order" = time ] || skip "the clock is not synchronised across CPUs here: the order is approximate"
# The default ring in global order too: in the rounds whose litmus ring is
# a global-order one, every ring is, and raw merges by the global seq.
echo global > $D/rings/default/order || fail "rings/default/order refused global"
[ "$(cat $D/rings/default/order)" = global ] || fail "rings/default/order reads $(cat $D/rings/default/order)"
# Asking again for the order it has keeps what the ring holds; a bad
# value is refused and changes nothing.
insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 || fail "insmod frec_hanoi.ko"
echo cpu > $D/rings/hanoi_moves/order || fail "rings/hanoi_moves/order refused cpu"
[ "$(grep -c ' hanoi_moves: ' $D/dump)" = 7 ] || fail "writing the order a ring has cleared it"
for bad in global2 CPU '' 1 'cpu global'; do
	echo "$bad" > $D/rings/hanoi_moves/order 2> /dev/null && fail "order '$bad' accepted"
done
[ "$(cat $D/rings/hanoi_moves/order)" = cpu ] || fail "a bad order changed the order"
[ "$(grep -c ' hanoi_moves: ' $D/dump)" = 7 ] || fail "a bad order lost records"
rmmod frec_hanoi || fail "rmmod frec_hanoi"
echo 1 > $D/clear
start=$(cut -d' ' -f1 /proc/uptime)
# Rounds of 25,000 pairs cycle through: per-CPU order, global order, and
# both again with a hard-IRQ writer on each CPU every 100 us.
insmod "$FREC_MODULES/frec_litmus.ko" pairs=${FREC_LITMUS_PAIRS:-1000000} round=25000 \
	orders=cpu,global irq_us=100 || fail "insmod frec_litmus.ko"
end=$(cut -d' ' -f1 /proc/uptime)
P=/sys/module/frec_litmus/parameters
checked=$(cat $P/checked)
inv=$(cat $P/inversions)
lost=$(cat $P/lost)
echo "# $checked pairs checked in $(cat $P/rounds) rounds, $inv inversions, $lost records lost ($start s to $end s)"
rmmod frec_litmus || fail "rmmod frec_litmus"
[ "$lost" = 0 ] || fail "$lost records of the litmus rounds were not read back"
[ "$checked" -ge "${FREC_LITMUS_PAIRS:-1000000}" ] || fail "only $checked pairs checked"
[ "$inv" = 0 ] || fail "$inv records came before the record they waited for"
frec_unload
