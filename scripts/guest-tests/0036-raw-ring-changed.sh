#!/bin/sh
# description: a raw dump opened before a ring is cleared, resized or re-ordered, and read after, still decodes (the host's frec-decode) to what dump shows: the changed ring's entry whole and without records, every other ring's records all there
# kernels: 6.1 debug
. /frec/guest/lib.sh
. /frec/run.conf
frec_reset
frec_have_decoder || fail "no $FREC_DECODER: build tools first (make tools)"
frec_load
D=$FREC_DEBUGFS
R=$D/rings/hanoi_calls
insmod "$FREC_MODULES/frec_hanoi.ko" disks=5 calls=1 || fail "insmod frec_hanoi.ko"
cat /proc/kallsyms > /tmp/kallsyms
for change in clear size order; do
	exec 3< $D/raw || fail "open raw"
	case $change in
	clear) echo 1 > $R/clear ;;
	size) echo 131072 > $R/size ;;
	order) echo global > $R/order ;;
	esac || fail "$change hanoi_calls"
	cat <&3 > /tmp/raw || fail "$change: read raw"
	exec 3<&-
	cat $D/formats > /tmp/formats || fail "cat formats"
	cat $D/sites > /tmp/sites || fail "cat sites"
	grep -v '^#' $D/dump > /tmp/want
	frec_decode /tmp/raw --sites /tmp/sites --formats /tmp/formats --kallsyms /tmp/kallsyms \
		> /tmp/decoded 2> /tmp/err ||
		fail "$change: frec-decode refused the raw dump: $(head -n 1 /tmp/err)"
	grep -v '^#' /tmp/decoded | diff /tmp/want - > /tmp/diff ||
		{ head -n 10 /tmp/diff; fail "$change: decoded text differs from dump"; }
	[ "$(grep -c ' hanoi_moves: ' /tmp/decoded)" -gt 30 ] || fail "$change: hanoi_moves records lost"
	grep -q ' hanoi_calls: ' /tmp/decoded && fail "$change: records of the changed ring decoded"
	echo "# $change: $(grep -c . /tmp/want) records decoded, none of hanoi_calls"
	rmmod frec_hanoi
	insmod "$FREC_MODULES/frec_hanoi.ko" disks=5 calls=1 || fail "insmod frec_hanoi.ko"
done
rmmod frec_hanoi
frec_unload
