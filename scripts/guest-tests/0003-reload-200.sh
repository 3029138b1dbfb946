#!/bin/sh
# description: insmod/rmmod 200 times leaves no module, no debugfs entry and no slab growth
# kernels: 6.1
# timeout: 300
. /frec/guest/lib.sh
frec_reset

# Slab in use, in KiB, after dropping caches and shrinking every slab cache
# (which also empties KASAN's quarantine of freed objects on the debug
# kernel, so that what is left is what is really allocated).
# Frees deferred by RCU land within a grace period: wait for them, and take
# the smallest of three readings.
slab_kib() {
	min=
	for r in 1 2 3; do
		sleep 1
		sync
		echo 3 > /proc/sys/vm/drop_caches
		for s in /sys/kernel/slab/*/shrink; do
			echo 1 > "$s" 2>/dev/null
		done
		v=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
		[ -z "$min" ] || [ "$v" -lt "$min" ] && min=$v
	done
	echo "$min"
}

cycle() {
	frec_load
	[ -r "$FREC_DEBUGFS/version" ] || fail "cycle $1: no version file"
	frec_unload
}

# Warm-up cycles so that first-load allocations (module loader, debugfs
# inode and dentry caches) do not count as a leak.
cycle w1
cycle w2
before=$(slab_kib)
i=0
while [ $i -lt 200 ]; do
	cycle $i
	i=$((i + 1))
done
after=$(slab_kib)
frec_loaded && fail "frec still loaded"
[ -e "$FREC_DEBUGFS" ] && fail "$FREC_DEBUGFS left behind"
grow=$((after - before))
echo "slab before ${before} KiB, after ${after} KiB, growth ${grow} KiB over 200 cycles"
# Slab totals of an idle guest move by about +-100 KiB with no cycle at
# all (measured on the stock kernel), so this catches leaks of about
# 1.3 KiB or more per load cycle; smaller ones are below the noise.
[ $grow -le 256 ] || fail "slab grew by ${grow} KiB over 200 load cycles"
