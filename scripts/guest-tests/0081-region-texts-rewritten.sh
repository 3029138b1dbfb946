#!/bin/sh
# description: black box texts of a rewritten buffer: records with a %s of one buffer, written "first" for 100 records and then "second" for 120 (a texts sweep after each), decode after sysrq-b each with the text the buffer held when it was recorded, in previous/dump and in frec-decode of previous/raw
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000
T=/sys/module/frec_crash_test/parameters/trigger

# count FILE WORD N: the lines of FILE of the buffer holding WORD, N records.
count() {
	grep -c " crash test buffer $2 [0-9]* of $3\$" "$1"
}

# check FILE: every record shows the text of its time.
check() {
	first=$(count "$1" first 100) second=$(count "$1" second 120)
	echo "$1: $first records of 'first', $second of 'second'"
	grep 'crash test buffer' "$1" | sed -n '1p;100,101p;$p'
	[ "$first" = 100 ] && [ "$second" = 120 ] ||
		fail "$1: records of the rewritten buffer do not show the text of their time"
	grep -c 'crash test buffer' "$1" | grep -qx 220 ||
		fail "$1: records of the buffer besides the 220"
}

case $FREC_PHASE in
1)
	frec_load region=$R persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'buffer first 100' > $T || fail "buffer first"
	frec_texts_swept
	echo 'buffer second 120' > $T || fail "buffer second"
	frec_texts_swept
	cat "$FREC_DEBUGFS/region_texts"
	# The live dump reads the buffer now: every record says "second".
	grep -c 'crash test buffer second' "$FREC_DEBUGFS/dump"
	frec_blackbox_sysrq_b
	;;
2)
	[ -x "$(frec_decoder)" ] || fail "no $(frec_decoder): build tools first (make tools)"
	frec_load region=$R
	cat "$FREC_DEBUGFS/previous/info"
	cat "$FREC_DEBUGFS/previous/formats"
	cat "$FREC_DEBUGFS/previous/dump" > /tmp/pdump || fail "cat previous/dump"
	check /tmp/pdump
	cat "$FREC_DEBUGFS/previous/raw" > /tmp/raw
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err ||
		{ cat /tmp/decode.err; fail "frec-decode failed"; }
	check /tmp/decoded
	diff /tmp/pdump /tmp/decoded > /dev/null ||
		{ diff /tmp/pdump /tmp/decoded | head -n 5; fail "previous/dump differs from frec-decode of previous/raw"; }
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
