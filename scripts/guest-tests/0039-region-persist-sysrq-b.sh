#!/bin/sh
# description: black box: a ring persist_rings= names records into the memmap= region; after sysrq-b the next boot's frec/previous/info counts its records and frec-decode of previous/raw prints exactly the lines the old boot's dump printed for that ring
# kernels: 6.1
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=1M@0x20000000

# The records of ring crash_test in a dump's text: "seq [s] cpu ring: ...".
ring_lines() {
	grep -v '^#' "$1" | grep ' crash_test: '
}

case $FREC_PHASE in
1)
	frec_load region=$R persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	cat $D/dump > /tmp/dump || fail "cat dump"
	ring_lines /tmp/dump > /tmp/old
	n=$(grep -c . /tmp/old)
	[ "$n" -gt 100 ] || fail "only $n crash_test records in the dump"
	echo "$n crash_test records in the dump, the newest:"
	tail -n 3 /tmp/old
	sum=$(md5sum < /tmp/old | cut -c1-32)
	frec_phase_put_hex "$sum$(printf '%08x' "$n")"
	echo "md5 of those lines: $sum"
	sleep 1
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
2)
	[ -x "$(frec_decoder)" ] || fail "no $(frec_decoder): build tools first (make tools)"
	kept=$(frec_phase_get_hex)
	want_sum=$(echo "$kept" | cut -c1-32)
	want_n=$((0x$(echo "$kept" | cut -c33-40)))
	frec_load region=$R
	cat $D/previous/info
	grep -q "^ring: crash_test, " $D/previous/info || fail "no crash_test ring in the previous boot's region"
	grep -q "^records recovered: $want_n\$" $D/previous/info ||
		fail "info does not count the $want_n records the old dump printed"
	grep -q '^records rejected: 0$' $D/previous/info || fail "records rejected"
	cat $D/previous/raw > /tmp/raw
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err || { cat /tmp/decode.err; fail "frec-decode failed"; }
	cat /tmp/decode.err
	ring_lines /tmp/decoded > /tmp/new
	echo "$(grep -c . /tmp/new) crash_test records decoded, the newest:"
	tail -n 3 /tmp/new
	sum=$(md5sum < /tmp/new | cut -c1-32)
	echo "md5 of those lines: $sum; the old dump's: $want_sum"
	[ "$sum" = "$want_sum" ] || { head -n 5 /tmp/new; fail "decoded lines differ from the old dump's"; }
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
