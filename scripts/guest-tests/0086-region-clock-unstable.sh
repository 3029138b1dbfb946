#!/bin/sh
# description: black box: the TSC marked unstable after frec took the region (frec_crash_test tsc-unstable, as the clocksource watchdog does), then a panic: the next boot's frec/previous/info gives the old boot's offset from ftrace's clock as not constant, as the live raw dump said after the change (the state written at the end, not the one measured at load)
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# expect: splat
# cmdline: memmap=1M$0x20000000 panic=1
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000

# The live raw dump's clock entry flags (struct frec_raw_clock @flags).
raw_clock_flags() {
	dd if="$FREC_DEBUGFS/raw" of=/tmp/rawhead bs=128 count=1 2> /dev/null
	od -A n -t u4 -j 72 -N 4 /tmp/rawhead | tr -d ' '
}

case $FREC_PHASE in
1)
	frec_load region="$R"
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	frec_raw_trace_offset > /dev/null || fail "no clock entry in the raw dump"
	[ $(($(raw_clock_flags) & 1)) = 1 ] ||
		skip "the clock was not synchronised at load: nothing to change"
	echo tsc-unstable > /sys/module/frec_crash_test/parameters/trigger ||
		fail "tsc-unstable"
	dmesg | grep -i 'tsc.*unstable' | tail -n 2
	[ $(($(raw_clock_flags) & 1)) = 0 ] ||
		fail "the TSC is unstable, but the live raw dump still flags the offset constant"
	off=$(frec_raw_trace_offset)
	echo "the live raw dump: offset $off ns, not constant"
	frec_phase_put_hex "$(printf '%016x' "$off")"
	# a heartbeat (every 5 s) and then the panic write the state again
	sleep 6
	frec_blackbox_sysrq_c
	;;
2)
	frec_load region="$R"
	info=$FREC_DEBUGFS/previous/info
	cat "$info"
	grep -q '^end: panic$' "$info" || fail "the previous boot did not end: panic"
	grep -q '^trace clock offset ns: ' "$info" || fail "previous/info gives no trace clock offset"
	echo "the old boot's live raw dump after the change: offset $((0x$(frec_phase_get_hex))) ns"
	grep -q '^trace clock offset ns: -*[0-9]* (window [0-9]* ns, not constant)$' "$info" ||
		fail "the TSC went unstable before the panic, but the region flags the offset constant"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
