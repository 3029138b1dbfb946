#!/bin/sh
# description: black box, bad regions: a persisted ring's parts of random bytes load, records rejected by reason, none shown in previous/dump, counted in previous/stats; another layout version and garbage are "none found" with the reason, and previous/dump, sites, formats and stats are empty; a region copied to another address is "moved", nothing shown; region= smaller than the region written (cut mid-ring) keeps the header and rings, the rest "past the end of the image"; region= over System RAM, or over a range no memmap= on the command line set aside, is refused naming the value, nothing mapped; the region is damaged through frec_crash_test's phys parameter, so the debug kernel runs it too
# kernels: 6.1 debug
# boot: alone
# cmdline: memmap=2M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=1M@0x20000000
base=$((0x20000000))
other=$((0x20100000))
# The parts section follows block 0, the rings, sites, texts and pool.
parts=$(( (4 + 4 + 4096 * 80 / 1024 + 4096 * 32 / 1024 + 256) * 1024 ))
frec_reset

# No previous boot: dump, sites, formats and stats show nothing of the region.
frec_previous_empty() {
	for f in dump sites formats stats; do
		[ -z "$(cat $D/previous/$f)" ] || { head -n 3 $D/previous/$f; fail "previous/$f shows a region that is none"; }
	done
	echo "previous/dump, sites, formats, stats: empty"
}

# A region of this layout with ring crash_test's records, then unloaded.
frec_blackbox_fill $R
rmmod frec_crash_test
frec_unload
# A copy at another address, for the moved region below.
frec_phys copy $base $other 0x100000

# The region cut mid-ring: region= a block of parts past the tables,
# smaller than the region_bytes its header names.  The header and the
# ring entry are read; the slots past the cut are lost, counted.
frec_load region=$((parts + 4096))@$base
cat $D/previous/info
grep -q '^previous boot: [0-9a-f]\{32\}$' $D/previous/info || fail "a cut region not read"
grep -q '^ring: crash_test, ' $D/previous/info || fail "the cut region's ring entry is lost"
grep -q "^region cut short: $((parts + 4096)) of its 1048576 bytes read " $D/previous/info ||
	fail "the cut not reported"
grep -q '^records rejected: .*past the end of the image [1-9]' $D/previous/info ||
	fail "the slots past the cut not counted"
frec_unload

# The copy at another address: its header names the first.
frec_load region=1M@$other
cat $D/previous/info
grep -q '^previous boot: none found: the region was written at another physical address (moved)$' $D/previous/info ||
	fail "a moved region not reported"
grep -qE '^(ring|records recovered|end):' $D/previous/info && fail "a moved region's rings or records shown"
frec_unload

# The parts of crash_test (the first ring, at the start of the parts)
# overwritten with random bytes, in a new fill: the loads above took both
# ranges for themselves.
frec_blackbox_fill $R
rmmod frec_crash_test
frec_unload
frec_phys random $((base + parts)) 0x8000
start=$(date +%s)
frec_load region=$R
cat $D/previous/info
[ $(( $(date +%s) - start )) -lt 30 ] || fail "load took more than 30 s"
grep -q '^ring: crash_test, ' $D/previous/info || fail "the ring entry is lost"
grep -q '^records recovered: 0$' $D/previous/info || fail "random slots shown as records"
grep -q '^records rejected: [1-9]' $D/previous/info || fail "no random slot rejected"
# previous/dump shows none of them; stats counts them rejected
[ "$(grep -vc '^#' $D/previous/dump)" = 0 ] || { head -n 5 $D/previous/dump; fail "previous/dump shows random slots"; }
cat $D/previous/stats
grep -q '^all   recovered=0 ' $D/previous/stats || fail "stats: random slots recovered"
grep '^all ' $D/previous/stats | grep -qE ' (torn|bad_length|no_site)=[1-9]' ||
	fail "stats: no random slot rejected"
frec_unload

# Another layout version.
frec_phys word $((base + 16)) 5
frec_load region=$R
cat $D/previous/info
grep -q '^previous boot: none found: region layout version 5, this reader knows 2 to 4' $D/previous/info ||
	fail "another version not reported"
frec_previous_empty
frec_unload

# Garbage over block 0.
frec_phys random $base 4096
frec_load region=$R
cat $D/previous/info
grep -q '^previous boot: none found: not a frec region' $D/previous/info || fail "garbage not reported"
frec_previous_empty
frec_unload

# region= over System RAM (a 1 GiB guest's RAM holds 256 MiB): refused,
# the value named, nothing requested or mapped.
insmod "$FREC_MODULES/frec.ko" region=1M@0x10000000 2> /dev/null && fail "region= over System RAM loaded"
dmesg | grep -q 'region=1M@0x10000000: the range is System RAM' ||
	fail "no log line naming region=1M@0x10000000"
frec_loaded && fail "frec loaded"
grep -q 'frec region' /proc/iomem && fail "a frec region left in /proc/iomem"

# region= over a range that no memmap= set aside: above the guest's RAM,
# neither System RAM nor busy, as firmware's reserved ranges are not:
# refused, the range named, nothing requested or mapped.
insmod "$FREC_MODULES/frec.ko" region=1M@0x100000000 2> /dev/null && fail "region= not set aside loaded"
dmesg | grep -q 'region=1M@0x100000000: no memmap=SIZE\$ADDR on this boot.s command line sets \[mem 0x100000000-0x1000fffff\] aside' ||
	fail "no log line naming region=1M@0x100000000 as not set aside"
frec_loaded && fail "frec loaded"
grep -q 'frec region' /proc/iomem && fail "a frec region left in /proc/iomem"
true
