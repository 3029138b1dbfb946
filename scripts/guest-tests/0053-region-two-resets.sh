#!/bin/sh
# description: black box steps 0053 0045 0051 0052 0070 0095 0047 (ten boots of one QEMU, each checking a step and setting up the next): 0053 two resets in a row (sysrq-b twice): the second boot shows the first boot's records, the third shows the second boot's (frec-decode of previous/raw prints exactly the lines its dump printed, info names its boot id) and never the first boot's; 0045 the heartbeat keeps the region's last sign of life fresh (a boot records, waits, resets); a boot in between that does not load frec outlives the reboot bound (region_reboot_s=1) and resets; the boot after reports the region as an older boot's, with its times, shows none of it, and previous/raw still decodes to the recording boot's lines; 0051 QEMU's system_reset, sent by the host to QEMU's monitor when the guest asks, resets the guest; the next boot's frec/previous/info counts the persisted ring's records, no end marked, and frec-decode of previous/raw prints exactly the lines the old boot's dump printed for that ring; 0052 a hard hang (every CPU spinning with interrupts off while it records) ended by the i6300esb watchdog's reset; the next boot's frec/previous/ holds each CPU's newest records with no gap, none missing at the end of those it stored, every line well formed, and info's counts reconcile; 0070 a persisted static ring whose module is reloaded 40 times (each load adopts the orphan and gives its own store back), then cleared 25 times, resized twice and its order changed twice, in README's 1 MiB region, keeps recording into the region (no "no room" in the log); after sysrq-b the next boot lists the ring once and recovers exactly the records it held at the reset, none of the cleared ones; 0095 a persisted ring whose parts take more than half of the region's free parts (README's 1 MiB region, crash_test resized to over half of what crash_test_text leaves) stays in the region through a resize to its size, a clear and two order changes (no "no room" in the log), and after sysrq-b the next boot shows exactly the records it held at the reset; crash_test_text, persisted beside it and recorded into before the changes, keeps every record; 0047 a valid header with damaged pages: after a reset, one page of the persisted ring's parts overwritten loses only that page's 64 records (the rest shown, frec-decode of raw prints them); the site table's page holding the ring's site overwritten loses that site's records, the ring entry kept; region= cut mid-ring keeps the records before the cut
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# phases: 10
# cmdline: memmap=2M$0x20000000
# qemu: -device i6300esb -action watchdog=reset
# timeout: 300
#
# The steps, in the order they run (frec_chain): each was a test of its
# own, of two boots (0053 and 0045: three).  A check runs first in its
# boot, then the next step's setup: 0070's and 0095's count their ring's
# takings in the log, which a check, loading no crash_test, adds none
# to (0047's check loads crash_test, for frec_phys: it comes after
# them).  0045's middle boot loads no frec: nothing else runs in it.
# memmap= keeps 2 MiB: 0047 copies the 1 MiB region into the second;
# the others take the first.  The steps' names say which one failed
# (FREC_PART).
#
# 0052's first phase arms the watchdog (heartbeat 1 s: the i6300esb
# resets after its two stages, about 2 s) and makes frec_crash_test hang
# every CPU: each records "hang I cpu C", I = 1, 2, ..., into the
# persisted ring crash_test and after each record stores I in the phase
# page (kept out of RAM like the region), so its check knows the last
# record each CPU stored.  The check wants each CPU's records
# consecutive (seq and I together, no gap) up to that last one, at most
# MAX_MISSING missing at the end: 0 here, as QEMU's TCG has no CPU
# caches, so what a CPU stored is in memory when the watchdog resets the
# machine.  On real hardware a reset may drop dirty cache lines: the
# records written in the last moments before it, up to a few cache
# lines' worth per CPU (doc/blackbox.md).  The record each CPU was
# writing when the reset came may be there, or rejected as torn (at most
# one per CPU); it is never shown.  The watchdog is armed only there:
# until a boot opens /dev/watchdog the device does nothing.
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000
T=/sys/module/frec_crash_test/parameters/trigger
# 0070's and 0095's ring
RC=$FREC_DEBUGFS/rings/crash_test
# 0045: its recording boot's reset time, in the phase word's page
# (run-tests.sh) past frec_phase_put_hex's words; 0052's words are at
# +2048.
reset_at=$(($(frec_phase_mark) + 0x404))
MAX_MISSING=0
# 0047: the region, a copy of it in the second MiB memmap= keeps, and
# where its sites and parts begin: block 0, the rings (a block), the
# sites (4096 x 80 B), texts (4096 x 32 B) and pool (256 KiB), then the
# parts: crash_test's CPU 0 part first.
base=$((0x20000000))
copy=$((0x20100000))
sites_at=$((8 * 1024))
parts_at=$(( (4 + 4 + 4096 * 80 / 1024 + 4096 * 32 / 1024 + 256) * 1024 ))

# 0070: record N: N records into crash_test.
record() {
	echo "record $1" > $T || fail "record $1"
}

t0053_1() {
	# Sequence A: "crash test I of 500".
	frec_blackbox_fill $R
	frec_blackbox_sysrq_b
}

t0053_2() {
	# A is the previous boot's; then this boot persists sequence B,
	# "crash test I of 300", and hands phase 3 its md5, count and boot id.
	frec_load region=$R persist_rings=crash_test
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 300' > $T
	frec_blackbox_keep crash_test
	frec_phase_put_hex "$(frec_phase_get_hex)$(tr -d - < /proc/sys/kernel/random/boot_id)"
	frec_blackbox_sysrq_b
}

t0053_3() {
	frec_load region=$R
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	id=$(frec_phase_get_hex | cut -c41-72)
	grep -q "^previous boot: $id\$" $FREC_DEBUGFS/previous/info ||
		fail "info does not name the second boot ($id)"
	grep -q ' of 500 ' /tmp/new && fail "the first boot's records shown as the previous boot's"
	grep -q 'crash test 300 of 300 ' /tmp/new || fail "no record 300 of 300"
	echo "the second boot's records, none of the first's"
	frec_unload
}

t0045_1() {
	frec_load region=$R persist_rings=crash_test region_reboot_s=1
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	frec_phase_put_hex "$(frec_phase_get_hex)$(tr -d '-' < /proc/sys/kernel/random/boot_id)"
	# Longer than a heartbeat and the bound (5 + 1 s): the region's last
	# sign of life must come from the heartbeat, not from the load.
	sleep 8
	devmem $reset_at 32 "$(date +%s)"
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
}

t0045_2() {
	# Boot 2: no frec with the region; it lives longer than the bound
	# (5 s heartbeat + 1 s), then resets.
	echo "frec-test: boot 2 of 3, no frec, resets in 9 s" > /dev/kmsg
	# frec_blackbox_sysrq_b waits 1 s more
	sleep 8
	frec_blackbox_sysrq_b
}

t0045_3() {
	kept=$(frec_phase_get_hex)
	id=$(echo "$kept" | cut -c41-72)
	insmod "$FREC_MODULES/frec.ko" region=$R region_reboot_s=0 2> /dev/null &&
		fail "region_reboot_s=0 loaded"
	dmesg | grep -q 'region_reboot_s=0: want 1 to ' || fail "no log line naming region_reboot_s=0"
	frec_load region=$R region_reboot_s=1
	cat $FREC_DEBUGFS/previous/info
	grep -q "^previous boot: none found: the region is an older boot's, last alive [0-9]* s before this boot started (more than 6 s)$" $FREC_DEBUGFS/previous/info ||
		fail "not reported as an older boot's"
	grep -q "^older boot: $id\$" $FREC_DEBUGFS/previous/info || fail "the older boot is not boot 1 ($id)"
	grep -q '^raw holds its image' $FREC_DEBUGFS/previous/info || fail "info does not say raw holds the image"
	grep -qE '^(ring|records recovered|end):' $FREC_DEBUGFS/previous/info && fail "the older boot's rings or records shown"
	# Its last sign of life: a heartbeat shortly before boot 1's reset.
	alive=$(sed -n 's/^older boot alive wall ns: \([0-9]*\)$/\1/p' $FREC_DEBUGFS/previous/info)
	reset=$(($(devmem $reset_at 32)))
	echo "boot 1 reset at $reset s, last alive at $((alive / 1000000000)) s"
	[ $((reset - alive / 1000000000)) -le 6 ] && [ $((alive / 1000000000 - reset)) -le 1 ] ||
		fail "the last sign of life is not a heartbeat within 6 s of the reset"
	# Forensics: raw still holds boot 1's image, which frec-decode reads.
	cat $FREC_DEBUGFS/previous/raw > /tmp/raw
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err || { cat /tmp/decode.err; fail "frec-decode failed"; }
	frec_ring_lines /tmp/decoded crash_test > /tmp/new
	[ "$(md5sum < /tmp/new | cut -c1-32)" = "$(echo "$kept" | cut -c1-32)" ] ||
		fail "raw does not decode to boot 1's lines"
	echo "raw decodes to boot 1's $(grep -c . /tmp/new) crash_test lines"
	frec_unload
}

t0051_1() {
	frec_blackbox_fill $R
	frec_host_system_reset
	sleep 30
	fail "the host's system_reset did not come"
}

t0051_2() {
	frec_load region=$R
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	frec_unload
}

t0052_1() {
	frec_load region=$R persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	frec_stock_modprobe i6300esb heartbeat=1
	[ -c /dev/watchdog ] || fail "no /dev/watchdog"
	# Opening the device starts the watchdog; it is never pinged again.
	exec 3> /dev/watchdog
	echo "hanging $(nproc) cpus, watchdog armed"
	echo "hang $(printf '%x' $(($(frec_phase_mark) + 2048)))" > \
		/sys/module/frec_crash_test/parameters/trigger
	fail "the hang returned"
}

t0052_2() {
	frec_load region=$R
	[ -x "$(frec_decoder)" ] || fail "no $(frec_decoder): build tools first (make tools)"
	info=$FREC_DEBUGFS/previous/info
	cat "$info"
	grep -q '^ring: crash_test, ' "$info" || fail "no crash_test ring in the previous boot's region"
	grep -q '^end: no end marked (a reset or a hang)$' "$info" || fail "the end is not a reset or a hang"
	cat "$FREC_DEBUGFS/previous/raw" > /tmp/raw
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err ||
		{ cat /tmp/decode.err; fail "frec-decode failed"; }
	cat /tmp/decode.err
	frec_ring_lines /tmp/decoded crash_test > /tmp/new
	n=$(grep -c . /tmp/new)
	# Every line: "SEQ [TIME] cpuC CONTEXT crash_test: CALLER [frec_crash_test] hang I cpu C".
	bad=$(grep -cvE '^[0-9]+ \[ *[0-9]+\.[0-9]{9}\] cpu([0-9]+) [^ ]+ crash_test: [a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+ \[frec_crash_test\] hang [0-9]+ cpu [0-9]+$' /tmp/new)
	[ "$bad" = 0 ] || { grep -vE ' hang [0-9]+ cpu [0-9]+$' /tmp/new | head -n 3; fail "$bad lines not hang records"; }
	grep -q "^records recovered: $n\$" "$info" ||
		fail "info does not count the $n records decoded"
	rej=$(sed -n 's/^records rejected: \([0-9]*\).*/\1/p' "$info")
	[ "$rej" -le "$(nproc)" ] || fail "$rej records rejected, more than one per cpu"
	[ "$rej" = 0 ] || grep -qE "^records rejected: $rej, torn or partly overwritten $rej\$" "$info" ||
		fail "records rejected for other reasons than a write in flight"
	cpu=0
	while [ $cpu -lt "$(nproc)" ]; do
		last=$(($(devmem $(($(frec_phase_mark) + 2048 + 4 * cpu)) 32)))
		[ "$last" -gt 0 ] || fail "cpu $cpu stored no hang record"
		grep -E "\] cpu$cpu [^ ]+ crash_test: " /tmp/new > /tmp/cpu$cpu
		# seq and I step by one together; the message's cpu is the record's.
		awk -v c=$cpu '{ i = $(NF - 2); if ($NF != c) { print "cpu " $NF " in a record of cpu " c; exit 1 }
			if (NR > 1 && ($1 != seq + 1 || i != prev + 1)) { print "gap after " prev ": " $0; exit 1 }
			seq = $1; prev = i }' /tmp/cpu$cpu || fail "cpu $cpu: records not consecutive"
		k=$(grep -c . /tmp/cpu$cpu)
		newest=$(tail -n 1 /tmp/cpu$cpu | awk '{ print $(NF - 2) }')
		echo "cpu $cpu: stored $last records, the newest kept: hang $newest, $k kept in a row"
		[ "$k" -gt 100 ] || fail "cpu $cpu: only $k records"
		[ "$newest" -ge $((last - MAX_MISSING)) ] ||
			fail "cpu $cpu: $((last - newest)) records missing at the end, at most $MAX_MISSING"
		[ "$newest" -le $((last + 1)) ] || fail "cpu $cpu: record $newest after the last stored, $last"
		cpu=$((cpu + 1))
	done
	frec_unload
}

t0070_1() {
	frec_load region="$R" persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	# Reloads of the ring's module: each load allocates a persisted store
	# for its static ring, then adopts the orphan the last unload left
	# and gives that store's entry and parts back.
	i=0
	while [ $i -lt 40 ]; do
		rmmod frec_crash_test || fail "rmmod frec_crash_test, reload $i"
		insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko, reload $i"
		i=$((i + 1))
	done
	frec_klog | grep 'not persisted' && fail "a reload of frec_crash_test left the region without room"
	i=0
	while [ $i -lt 25 ]; do
		record 50
		echo 1 > $RC/clear || fail "clear $i"
		i=$((i + 1))
	done
	record 50
	echo 8192 > $RC/size || fail "resize to 8192"
	record 50
	echo 16384 > $RC/size || fail "resize to 16384"
	record 50
	echo global > $RC/order || fail "order global"
	record 50
	echo cpu > $RC/order || fail "order cpu"
	# One per load (41), clear (25), resize (2) and order change (2).
	frec_blackbox_taken 70
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	frec_blackbox_sysrq_b
}

t0070_2() {
	frec_blackbox_check_once "$R"
	frec_unload
}

t0095_1() {
	frec_load region="$R" persist_rings=crash_test,crash_test_text
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	# The region's parts; crash_test (16 KiB a CPU) is at their start,
	# crash_test_text (16 KiB a CPU) after it, the rest is free.
	parts=$(frec_klog | sed -n 's/.*region: .* \([0-9]*\) KiB of parts$/\1/p' | tail -n 1)
	cpus=$(($(sed 's/.*-//' /sys/devices/system/cpu/possible) + 1))
	[ -n "$parts" ] || fail "no log line says the region's parts"
	left=$((parts - 32 * cpus))
	# The largest power of two a CPU that fits in what is left: more than
	# half of it, so that a new store of that size and the old one never
	# fit together (nor in the old 16 KiB a CPU crash_test leaves).
	per=1
	while [ $((per * 2 * cpus)) -le "$left" ]; do per=$((per * 2)); done
	echo "parts $parts KiB, $cpus CPUs, $left KiB after the two rings: crash_test gets $per KiB a CPU"
	[ $((per * cpus * 2)) -gt "$left" ] && [ "$per" -gt 16 ] ||
		fail "$per KiB a CPU is not more than half of $left KiB"
	# 50 records of crash_test_text (one per 8 of crash_test), before the changes
	echo "record 400" > $T || fail "record 400"
	# fits beside the old store; every change after needs the old one's parts
	echo $((per * 1024)) > $RC/size || fail "resize to $per KiB"
	echo "record 40" > $T
	echo $((per * 1024)) > $RC/size || fail "resize to $per KiB again"
	echo "record 40" > $T
	echo 1 > $RC/clear || fail "clear"
	echo "record 40" > $T
	echo global > $RC/order || fail "order global"
	echo "record 40" > $T
	echo cpu > $RC/order || fail "order cpu"
	echo "record 40" > $T
	frec_blackbox_taken 6
	echo "record 500" > $T
	frec_blackbox_keep crash_test
	frec_blackbox_sysrq_b
}

t0095_2() {
	# crash_test_text: 400 / 8 + 5 * 40 / 8 + 500 / 8 records, all kept
	want=$((50 + 25 + 62))
	frec_blackbox_check_once "$R" $want
	sed -n '/^ring crash_test_text$/,/^all /p' "$FREC_DEBUGFS/previous/stats" |
		grep -q "^all   recovered=$want torn=0 bad_length=0 no_site=0 cut=0 " ||
		fail "previous/stats does not count the $want records of crash_test_text, none rejected"
	got=$(grep -c 'crash test text 400 of 400$' "$FREC_DEBUGFS/previous/dump")
	[ "$got" = 1 ] || fail "previous/dump shows crash_test_text's record 400 of 400 $got times"
	echo "crash_test_text: $want records recovered, none rejected"
	frec_unload
}

t0047_1() {
	frec_load region=$R persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	# On CPU 0: its part is the first, past the ring's length (wrapped).
	taskset -c 0 sh -c "echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger"
	frec_blackbox_keep crash_test
	id=$(grep -m 1 '"crash test %u of %u cpu %d"$' $FREC_DEBUGFS/sites | cut -d ' ' -f 1)
	[ -n "$id" ] || fail "no crash test site in sites"
	frec_phase_put_hex "$(frec_phase_get_hex)$(printf '%08x' "$id")"
	frec_blackbox_sysrq_b
}

t0047_2() {
	kept=$(frec_phase_get_hex)
	n=$((0x$(echo "$kept" | cut -c33-40)))
	id=$((0x$(echo "$kept" | cut -c41-48)))
	echo "$n records in the old dump, site id $id"
	frec_phys copy $base $copy 0x100000

	# One page of CPU 0's part (its slots 64 to 127) overwritten.
	frec_phys random $((base + parts_at + 4096)) 4096
	frec_load region=$R
	cat $FREC_DEBUGFS/previous/info
	grep -q '^ring: crash_test, ' $FREC_DEBUGFS/previous/info || fail "the ring entry is lost"
	grep -q "^records recovered: $((n - 64))\$" $FREC_DEBUGFS/previous/info ||
		fail "not exactly the page's 64 of the $n records lost"
	grep -q '^records rejected: [1-9]' $FREC_DEBUGFS/previous/info || fail "the page's slots not rejected"
	cat $FREC_DEBUGFS/previous/raw > /tmp/raw
	# Exit 3: decoded to the end, with warnings (the rejected records).
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err
	[ $? = 3 ] || { cat /tmp/decode.err; fail "frec-decode did not exit 3 (warnings)"; }
	tail -n 1 /tmp/decode.err
	frec_ring_lines /tmp/decoded crash_test > /tmp/new
	[ "$(grep -c ' crash test [0-9]* of 500 cpu 0$' /tmp/new)" = $((n - 64)) ] ||
		fail "frec-decode does not print the $((n - 64)) records left"
	frec_unload

	# The site table's page holding the ring's site overwritten.
	frec_phys copy $copy $base 0x100000
	frec_phys random $((base + sites_at + id * 80 / 4096 * 4096)) 4096
	frec_load region=$R
	cat $FREC_DEBUGFS/previous/info
	grep -q '^ring: crash_test, ' $FREC_DEBUGFS/previous/info || fail "the ring entry is lost"
	grep -q '^records recovered: 0$' $FREC_DEBUGFS/previous/info || fail "records of a lost site shown"
	grep -q "^records rejected: $n, names no valid site $n\$" $FREC_DEBUGFS/previous/info ||
		fail "the $n records not rejected as naming no valid site"
	frec_unload

	# region= two blocks of parts: CPU 0's slots 0 to 127 are read.
	frec_phys copy $copy $base 0x100000
	frec_load region=$((parts_at + 8192))@$base
	cat $FREC_DEBUGFS/previous/info
	grep -q "^records recovered: 128\$" $FREC_DEBUGFS/previous/info || fail "not the 128 records before the cut"
	grep -q "^region cut short: $((parts_at + 8192)) of its 1048576 bytes read " $FREC_DEBUGFS/previous/info ||
		fail "the cut not reported"
	grep -q '^records rejected: .*past the end of the image [1-9]' $FREC_DEBUGFS/previous/info ||
		fail "the slots past the cut not counted"
	frec_unload
}

frec_chain 0053:3 0045:3 0051:2 0052:2 0070:2 0095:2 0047:2
