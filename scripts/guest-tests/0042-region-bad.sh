#!/bin/sh
# description: black box: a region whose persisted ring's parts are random bytes loads, its records rejected and counted by reason, none shown in previous/dump, counted in previous/stats; another layout version and a region of garbage are "none found" with the reason, and previous/dump, sites, formats and stats are empty; nothing crashes
# kernels: 6.1 6.12 6.12-rt
# boot: alone
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=1M@0x20000000
base=$((0x20000000))
[ -c /dev/mem ] || skip "no /dev/mem (the debug kernel): the region is damaged through it"
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
# The parts of crash_test (the first ring: at the start of the parts
# section, which follows block 0, the rings, sites, texts and pool)
# overwritten with random bytes, through /dev/mem (frec gave the range back).
off=$(( (4 + 4 + 4096 * 80 / 1024 + 4096 * 32 / 1024 + 256) * 1024 ))
dd if=/dev/urandom of=/dev/mem bs=4096 seek=$(( (base + off) / 4096 )) count=8 2> /dev/null ||
	fail "cannot write the region through /dev/mem"
start=$(date +%s)
frec_load region=$R
cat $D/previous/info
[ $(( $(date +%s) - start )) -lt 30 ] || fail "load took more than 30 s"
grep -q '^ring: crash_test, ' $D/previous/info || fail "the ring entry is lost"
# (Its records named sites of a module that went: frec rewrote their
# site words to its kept copies, which the region cannot name; README.)
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
devmem $((base + 16)) 32 2
frec_load region=$R
cat $D/previous/info
grep -q '^previous boot: none found: region layout version 2, this reader knows 1' $D/previous/info ||
	fail "another version not reported"
frec_previous_empty
frec_unload

# Garbage over block 0.
dd if=/dev/urandom of=/dev/mem bs=4096 seek=$((base / 4096)) count=1 2> /dev/null
frec_load region=$R
cat $D/previous/info
grep -q '^previous boot: none found: not a frec region' $D/previous/info || fail "garbage not reported"
frec_previous_empty
frec_unload
