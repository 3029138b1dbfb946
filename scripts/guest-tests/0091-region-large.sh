#!/bin/sh
# description: black box, a region of half the guest's memory (512 MiB of 1 GiB): it loads, and so does the next load, which keeps only what it reads of the previous boot's region (tables and the persisted ring's parts, MemAvailable falls by far less than the region), shows every record the old dump printed, and previous/raw is the region's size, its records where frec-decode reads them
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: alone
# cmdline: memmap=512M$0x10000000
# timeout: 600
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=512M@0x10000000
frec_reset

avail() {
	sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo
}

# This boot's records in ring crash_test of the region.
frec_load region=$R persist_rings=crash_test
insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
cat $D/dump > /tmp/dump || fail "cat dump"
frec_ring_lines /tmp/dump crash_test > /tmp/old
n=$(grep -c . /tmp/old)
[ "$n" -gt 100 ] || fail "only $n crash_test records in the dump"
rmmod frec_crash_test
frec_unload

# The next load keeps the previous boot's region: its memory is what the
# records need, not the region's 512 MiB.
before=$(avail)
frec_load region=$R
after=$(avail)
echo "MemAvailable: $before kB before the load, $after kB after"
[ $((before - after)) -lt $((64 * 1024)) ] || fail "the load took $((before - after)) kB"
cat $D/previous/info
grep -q '^previous boot: [0-9a-f]\{32\}$' $D/previous/info || fail "no previous boot"
grep -q '^end: clean unload$' $D/previous/info || fail "no clean unload"
grep -q "^records recovered: $n\$" $D/previous/info || fail "not the $n records the old dump printed"
grep -q '^records rejected: 0$' $D/previous/info || fail "records rejected"
grep -q 'region cut short' $D/previous/info && fail "the region said cut short"
cat $D/previous/dump > /tmp/pdump || fail "cat previous/dump"
frec_ring_lines /tmp/pdump crash_test > /tmp/new
cmp -s /tmp/old /tmp/new || { diff /tmp/old /tmp/new | head -n 5; fail "previous/dump differs from the old dump"; }
echo "previous/dump: the $n lines the old dump printed"

# raw: the region's size; what frec-decode reads lies in its first 16 MiB
# (the tables and the ring's parts), zeros after it.
size=$(wc -c < $D/previous/raw)
[ "$size" = $((512 << 20)) ] || fail "previous/raw is $size bytes"
echo "previous/raw: $size bytes"
if frec_have_decoder; then
	head -c $((16 << 20)) $D/previous/raw > /tmp/raw
	# 3: decoded to the end, warning only that the image is cut short.
	rc=0
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err || rc=$?
	cat /tmp/decode.err
	[ $rc = 3 ] && [ "$(grep -c 'warning\|offset' /tmp/decode.err)" = 1 ] &&
		grep -q 'image: ends before the region does' /tmp/decode.err ||
		fail "frec-decode of raw's first 16 MiB: exit $rc"
	frec_ring_lines /tmp/decoded crash_test > /tmp/dec
	cmp -s /tmp/old /tmp/dec || { diff /tmp/old /tmp/dec | head -n 5; fail "frec-decode of raw differs from the old dump"; }
	echo "frec-decode of raw's first 16 MiB: the $n lines the old dump printed"
fi
frec_unload
true
