#!/bin/sh
# description: a million records in one format: formats lists their %s literal once (no E2BIG), sites their site once; a dump whose filter rejects everything never holds the ring lock for long (clear and resize go through) and dies at once when killed
# kernels: 6.1
# timeout: 400
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
# 32 MiB per CPU: 524288 slots each, filled with one format.
insmod "$FREC_MODULES/frec_stress.ko" period_us=100000 threads=0 ring_kib=32768 fill=600000 ||
	fail "insmod frec_stress.ko"
grep all $D/rings/stress_big/stats

# formats: one %s literal for a million records (a million addresses
# before they are told apart); the format is its site's, in sites, once.
cat $D/formats > /tmp/formats || fail "cat formats: $(dmesg | tail -n 1)"
grep -c ': "filled"$' /tmp/formats | grep -qx 1 || fail "the %s literal is not listed exactly once"
grep -q 'fill %lu' /tmp/formats && fail "formats lists the format of a site that has an id"
cat $D/sites > /tmp/sites || fail "cat sites"
grep -c ' "fill %lu cpu %d check %lu %s"$' /tmp/sites | grep -qx 1 ||
	fail "the fill site is not listed exactly once in sites: $(grep -c 'fill %lu' /tmp/sites)"

# now: seconds since boot with centiseconds, as one integer.
now() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }
echo 'ring=stress_big text=no record says this' > $D/filter || fail "filter"
t0=$(now)
cat $D/dump > /tmp/nothing || fail "cat dump"
t1=$(now)
scan=$((t1 - t0))
echo "# a dump that rejects all $((2 * 524288)) records takes $scan cs"
[ "$(grep -vc '^#' /tmp/nothing)" = 0 ] || fail "the filter let records through"
[ $scan -ge 200 ] || skip "the scan took only $scan cs: too fast to tell a long lock hold"

# Killed half-way: gone at once, not after the scan.
cat $D/dump > /dev/null &
pid=$!
sleep 1
t0=$(now)
kill -9 $pid
wait $pid 2>/dev/null
t1=$(now)
echo "# SIGKILL ended the scan in $((t1 - t0)) cs"
[ $((4 * (t1 - t0))) -lt $scan ] || fail "SIGKILL took $((t1 - t0)) cs, the whole scan $scan cs"

# A resize of another ring during the scan waits for one batch, not the scan.
cat $D/dump > /dev/null &
pid=$!
sleep 1
t0=$(now)
echo 32768 > $D/rings/stress/size || fail "resize"
t1=$(now)
echo "# a resize during the scan took $((t1 - t0)) cs"
kill -0 $pid 2>/dev/null || fail "the scan ended before the resize was timed"
wait $pid
[ $((4 * (t1 - t0))) -lt $scan ] || fail "resize took $((t1 - t0)) cs, the whole scan $scan cs"
echo > $D/filter
rmmod frec_stress
frec_unload
