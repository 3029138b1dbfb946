#!/bin/sh
# description: insmod/rmmod 50 times leaves no module, no debugfs entry and no leak
. /frec/guest/lib.sh
frec_reset

KMEMLEAK=/sys/kernel/debug/kmemleak

slab_kib() {
	sync
	echo 2 > /proc/sys/vm/drop_caches
	awk '/^Slab:/ { print $2 }' /proc/meminfo
}

# One warm-up cycle so that first-load allocations (module loader caches,
# debugfs inode cache) do not count as a leak.
frec_load
frec_unload
[ -w $KMEMLEAK ] && echo clear > $KMEMLEAK
before=$(slab_kib)
i=0
while [ $i -lt 50 ]; do
	frec_load
	[ -r "$FREC_DEBUGFS/version" ] || fail "cycle $i: no version file"
	frec_unload
	i=$((i + 1))
done
after=$(slab_kib)
frec_loaded && fail "frec still loaded"
[ -e "$FREC_DEBUGFS" ] && fail "$FREC_DEBUGFS left behind"

if [ -w $KMEMLEAK ]; then
	# Debug kernel: kmemleak reports objects unreferenced for 5 s; KASAN's
	# quarantine makes slab totals meaningless there.
	sleep 6
	echo scan > $KMEMLEAK
	echo scan > $KMEMLEAK
	leaks=$(cat $KMEMLEAK)
	if [ -n "$leaks" ]; then
		echo "$leaks" | head -40
		fail "kmemleak reports leaks after 50 load cycles"
	fi
	echo "kmemleak: no leak after 50 load cycles"
	exit 0
fi
grow=$((after - before))
echo "slab before ${before} KiB, after ${after} KiB, growth ${grow} KiB over 50 cycles"
# A leak of even one small object per cycle would show as 50 objects; allow
# for unrelated noise of an idle guest (per-CPU slab caches refilling).
[ $grow -le 200 ] || fail "slab grew by ${grow} KiB over 50 load cycles"
