#!/bin/sh
# description: black box: a hard hang (every CPU spinning with interrupts off while it records) ended by the i6300esb watchdog's reset; the next boot's frec/previous/ holds each CPU's newest records with no gap, none missing at the end of those it stored, every line well formed, and info's counts reconcile
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# qemu: -device i6300esb -action watchdog=reset
# timeout: 300
#
# Phase 1 arms the watchdog (heartbeat 1 s: the i6300esb resets after its
# two stages, about 2 s) and makes frec_crash_test hang every CPU: each
# records "hang I cpu C", I = 1, 2, ..., into the persisted ring
# crash_test and after each record stores I in the phase page (kept out
# of RAM like the region), so phase 2 knows the last record each CPU
# stored.  Phase 2 wants each CPU's records consecutive (seq and I
# together, no gap) up to that last one, at most MAX_MISSING missing at
# the end: 0 here, as QEMU's TCG has no CPU caches, so what a CPU stored
# is in memory when the watchdog resets the machine.  On real hardware a
# reset may drop dirty cache lines: the records written in the last
# moments before it, up to a few cache lines' worth per CPU (doc/blackbox.md).
# The record each CPU was writing when the reset came may be there, or
# rejected as torn (at most one per CPU); it is never shown.
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000
MAX_MISSING=0

case $FREC_PHASE in
1)
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
	;;
2)
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
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
