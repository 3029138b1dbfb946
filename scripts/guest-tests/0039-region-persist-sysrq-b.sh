#!/bin/sh
# description: black box: a ring persist_rings= names records into the memmap= region; after sysrq-b the next boot's frec/previous/info counts its records and frec-decode of previous/raw prints exactly the lines the old boot's dump printed for that ring, as does previous/dump; previous/sites, formats and stats agree with frec-decode; info gives the old boot's offset from ftrace's clock, the one its raw dump carried; spans begun on two CPUs, some ended on the other, the rest left open: previous/dump and frec-decode of previous/raw (and of the old boot's raw, --in-flight) list exactly the open ones as in flight
# kernels: 6.1 6.12 6.12-rt
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000

case $FREC_PHASE in
1)
	# frec_blackbox_fill, with spans left in flight after the records (the
	# ring holds 256 a CPU: spans begun before would be overwritten on the
	# CPU that recorded, listed "maybe")
	frec_load region="$R" persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	frec_spans_leave_open
	frec_blackbox_keep crash_test
	# the live raw dump's spans in flight, as frec-decode --in-flight lists
	# them (callers named by the sites: no kallsyms to read under TCG)
	cat $FREC_DEBUGFS/raw > /tmp/dec.raw
	cat $FREC_DEBUGFS/formats > /tmp/dec.formats
	cat $FREC_DEBUGFS/sites > /tmp/dec.sites
	frec_decode --in-flight -n /tmp/dec.raw --formats /tmp/dec.formats --sites /tmp/dec.sites \
		> /tmp/dec.inflight || fail "frec-decode --in-flight failed"
	frec_spans_in_flight_check /tmp/dec.inflight
	sleep 1
	off=$(frec_raw_trace_offset) || fail "no clock entry in the raw dump"
	echo "the raw dump's trace clock offset: $off ns"
	frec_phase_put_hex "$(frec_phase_get_hex)$(printf '%016x' "$off")"
	frec_blackbox_sysrq_b
	;;
2)
	frec_load region="$R"
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	# (frec_blackbox_check found the two the same, lists included)
	frec_spans_in_flight_check /tmp/pdump
	frec_spans_in_flight_check /tmp/decoded
	want=$((0x$(frec_phase_get_hex | cut -c41-56)))
	got=$(sed -n 's/^trace clock offset ns: \(-*[0-9]*\) (window [0-9]* ns)$/\1/p' \
		"$FREC_DEBUGFS/previous/info")
	[ -n "$got" ] || fail "previous/info gives no constant trace clock offset"
	echo "previous/info's trace clock offset: $got ns; the old boot's raw dump's: $want ns"
	d=$((got - want))
	[ $d -le 1000 ] && [ $d -ge -1000 ] || fail "offsets $got and $want ns differ by more than 1 us"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
