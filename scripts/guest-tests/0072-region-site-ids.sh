#!/bin/sh
# description: black box: every site id frec can give has its entry in the region's site table: with README's 1 MiB region frec gives no id past the table (frec/sites' room, the load's log line naming the limit); an 8 MiB region holds every id of the default sites_max; an unload writes back block 0 and the parts in use only, not the whole region
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# cmdline: memmap=8M$0x20000000
# boot: alone
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf

# The ids of the region's site table (uapi/frec_region.h: the header's
# sect[FREC_REGION_SITES].nr_entries, at byte 176 + 24 + 20) of the
# region frec took on its load before: previous/raw, after a reload.
table_ids() {
	frec_load region="$1"
	od -A n -t u4 -j 220 -N 4 "$FREC_DEBUGFS/previous/raw" | tr -d ' '
	frec_unload
}

for r in 1M 8M; do
	dmesg -c > /dev/null
	frec_load region=$r@0x20000000
	room=$(sed -n 's/^# frec sites: .*room for \([0-9]*\)$/\1/p' "$FREC_DEBUGFS/sites")
	frec_unload
	entries=$(table_ids $r@0x20000000)
	echo "region=$r: frec/sites has room for $room ids, the region's site table $entries entries (id 0 unused)"
	[ -n "$room" ] && [ -n "$entries" ] || fail "no room or no table count"
	[ "$room" -lt "$entries" ] ||
		fail "region=$r: ids up to $room, the region's site table holds ids below $entries"
	if [ $r = 1M ]; then
		dmesg | grep "frec: .*sites_max=16384" ||
			fail "region=1M: no log line says sites_max=16384 is more than the region holds"
	else
		[ "$room" = 16384 ] || fail "region=8M: room for $room ids, not the default sites_max 16384"
	fi
done

# An end writes back what can be dirty: the parts rings took (none here:
# no persist_rings=) and block 0, not all 8 MiB (an oops or a panic
# writes the same as an unload, in a dying kernel).
dmesg -c > /dev/null
frec_load region=8M@0x20000000
frec_unload
wb=$(dmesg | sed -n 's/.*frec: region: clean unload marked, \([0-9]*\) KiB written back$/\1/p')
echo "region=8M, no ring persisted: the unload wrote back $wb KiB"
[ -n "$wb" ] || fail "no log line says what the unload wrote back"
[ "$wb" -le 4 ] || fail "the unload wrote back $wb KiB of an 8 MiB region with no ring in it"

