#!/bin/sh
# description: a console dump a task asks for (dump_to_console) of 32,000 records prints every one in batches, to the console itself (judge.sh), and another task on the same CPU keeps running meanwhile (no long preemption-off stretch)
# kernels: 6.1 6.12 6.12-rt
# timeout: 300
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
# fill= records 16,000 per CPU; ticks=1 stops the timer's records after one.
insmod "$FREC_MODULES/frec_stress.ko" period_us=1000 threads=0 ticks=1 ring_kib=1024 fill=16000 ||
	fail "insmod frec_stress.ko"
sleep 1
echo stress_big > $D/oops_rings || fail "oops_rings"
echo 1048576 > $D/oops_records || fail "oops_records"
want=$(grep -vc '^#' $D/rings/stress_big/dump)
echo "# $want records to print"
[ "$want" -gt 30000 ] || fail "only $want records"

# A task on CPU 0 that wakes every 50 ms and notes the time.
taskset -c 0 sh -c 'while :; do cat /proc/uptime; sleep 0.05; done' > /tmp/ticks &
probe=$!
sleep 1
dmesg -c > /dev/null
t0=$(awk '{ print $1 }' /proc/uptime)
taskset -c 0 sh -c "echo 1 > $D/dump_to_console" || fail "dump_to_console"
t1=$(awk '{ print $1 }' /proc/uptime)
kill $probe
wait $probe 2>/dev/null
frec_klog > /tmp/klog
end=$(grep '^---\[ frec dump end' /tmp/klog)
echo "# $end"
echo "$end" | grep -q "^---\[ frec dump end: $want records, 1 rings, [0-9]* bytes ]---$" ||
	fail "the dump did not print all $want records: $end"
# judge.sh: every one of them reached the console itself.
frec_console_expect_dump stress_big /tmp/klog
gap=$(awk -v a=$t0 -v b=$t1 '$1 >= a && $1 <= b { if (last != "" && $1 - last > max) max = $1 - last; last = $1 }
	END { printf "%.2f\n", max }' /tmp/ticks)
took=$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.2f\n", b - a }')
echo "# the dump took $took s; the longest the other task on its CPU waited: $gap s"
awk -v t=$took 'BEGIN { exit !(t >= 2) }' || skip "the dump took only $took s: too fast to tell"
awk -v g=$gap -v t=$took 'BEGIN { exit !(4 * g < t) }' ||
	fail "the other task waited $gap s of the dump's $took s"
rmmod frec_stress
frec_unload
