#!/bin/sh
# description: black box of a real driver: frec_null_blk's ring persisted, the guest reset by sysrq-b in the middle of fio's 4k random reads (iodepth 32, two jobs); the next boot's previous/dump shows the last requests of each CPU and lists the requests in flight at the reset (spans begun, never ended: at least one, at most fio's 64, each one a request of the last second), and frec-decode of previous/raw lists the same ones
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=4M$0x20000000
# timeout: 300
#
# The ring is 256 KiB a CPU (4096 events): fio fills it several times
# over in the seconds before the reset, so its oldest spans lost their
# ends to the wrap; those are counted as "maybe" or as ends without a
# begin, and only the certain ones are checked.
. /frec/guest/lib.sh
. /frec/run.conf
. /frec/guest/nullblk.sh
R=4M@0x20000000

case $FREC_PHASE in
1)
	nb_unload
	frec_load region="$R" persist_rings=null_blk
	nb_load frec
	nb_fio 60 /tmp/fio.json &
	sleep 3
	n=$(awk '$1 == "all" { for (i = 2; i <= NF; i++) if ($i ~ /^written=/) { split($i, kv, "="); print kv[2] } }' \
		$FREC_DEBUGFS/rings/null_blk/stats)
	echo "# null_blk records before the reset: ${n:-none}"
	[ "${n:-0}" -gt 1000 ] || fail "fio made only ${n:-no} records: $(cat $FREC_DEBUGFS/rings/null_blk/stats)"
	frec_blackbox_sysrq_b
	;;
2)
	frec_load region="$R"
	info=$FREC_DEBUGFS/previous/info
	cat "$info"
	grep -q "^ring: null_blk, " "$info" || fail "no null_blk ring in the previous boot's region"
	grep -q "^end: no end marked (a reset or a hang)$" "$info" || fail "the previous boot's end: $(grep '^end:' "$info")"
	cat $FREC_DEBUGFS/previous/dump > /tmp/pdump || fail "cat previous/dump"
	# the last requests of each CPU
	for c in 0 1; do
		last=$(grep -v "^#" /tmp/pdump | grep " cpu$c [^ ]* null_blk: " | tail -n 1)
		[ -n "$last" ] || fail "previous/dump has no null_blk record of cpu$c"
		echo "# cpu$c's last: $last"
	done
	grep '^# in flight at the end' /tmp/pdump || fail "previous/dump lists no spans in flight"
	certain=$(sed -n 's/^# in flight at the end \[ *[0-9.]*\]: [0-9]* of [0-9]* spans begun never ended (\([0-9]*\) certain, [0-9]* maybe).*/\1/p' /tmp/pdump)
	[ -n "$certain" ] && [ "$certain" -ge 1 ] && [ "$certain" -le 64 ] ||
		fail "${certain:-no} requests certainly in flight, not 1 to 64 (fio's iodepth 32, two jobs)"
	# each a request span's begin, begun in the last second
	grep '^# in flight span=[0-9]*/[0-9]* certain ' /tmp/pdump > /tmp/certain
	bad=$(awk '{ a = $6; sub(/^age=/, "", a); sub(/ns:$/, "", a)
		if (a + 0 < 0 || a + 0 > 1000000000 || $0 !~ / null_blk: .* > rq tag [0-9]+ op 0 sector [0-9]+ sectors 8$/) print }' /tmp/certain | head -n 2)
	[ -z "$bad" ] || fail "not a read of the last second in flight: $bad"
	awk '{ print $4 }' /tmp/certain | sort > /tmp/certain.ids
	echo "# $certain requests in flight at the reset, the first: $(head -n 1 /tmp/certain)"
	# frec-decode of previous/raw lists the same ones
	cat $FREC_DEBUGFS/previous/raw > /tmp/raw || fail "cat previous/raw"
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err ||
		{ cat /tmp/decode.err; fail "frec-decode failed"; }
	grep '^# in flight span=[0-9]*/[0-9]* certain ' /tmp/decoded | awk '{ print $4 }' | sort > /tmp/decoded.ids
	cmp -s /tmp/certain.ids /tmp/decoded.ids ||
		fail "frec-decode lists other spans in flight: $(diff /tmp/certain.ids /tmp/decoded.ids | head -n 4)"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
