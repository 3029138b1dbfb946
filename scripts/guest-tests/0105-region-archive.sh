#!/bin/sh
# description: black box: after sysrq-b, the next boot's frec-archive (tools/frec-archive, run in busybox sh as the unit runs it) copies previous/info, raw and dump whole into ARCHIVE/BOOT_ID (the old boot's id, not this one's), prints how the boot ended and the records recovered and rejected as info counts them, frec-decode of the archived raw prints the archived dump, and a second run leaves the archive as it was
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000
A=/tmp/archive

case $FREC_PHASE in
1)
	frec_blackbox_fill $R
	frec_blackbox_sysrq_b
	;;
2)
	frec_load region=$R
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	p=$FREC_DEBUGFS/previous
	# what frec-archive.service's ConditionPathExists= looks for
	[ -f $p/info ] || fail "no $p/info"
	prog=/host$FREC_HOST_TREE/tools/frec-archive/frec-archive
	sh "$prog" -a $A > /tmp/fa.out 2> /tmp/fa.err ||
		{ rc=$?; cat /tmp/fa.err; fail "frec-archive exited $rc"; }
	cat /tmp/fa.out /tmp/fa.err
	id=$(sed -n 's/^previous boot: //p' $p/info)
	[ "$id" != "$(tr -d - < /proc/sys/kernel/random/boot_id)" ] ||
		fail "previous/info names this boot, $id"
	n=$(sed -n 's/^records recovered: //p' $p/info)
	want="frec-archive: boot $id ended: no end marked (a reset or a hang); $n records recovered, 0 rejected; archived in $A/$id"
	[ "$(cat /tmp/fa.out)" = "$want" ] || fail "frec-archive printed '$(cat /tmp/fa.out)', not '$want'"
	[ ! -s /tmp/fa.err ] || fail "frec-archive wrote to standard error"
	[ "$(ls -A $A)" = "$id" ] || fail "$A holds $(ls -A $A), not $id alone"
	for f in info raw dump; do
		cat $p/$f > /tmp/prev.$f
		cmp /tmp/prev.$f $A/$id/$f || fail "$A/$id/$f differs from previous/$f"
	done
	echo "$A/$id: info, raw ($(wc -c < $A/$id/raw) bytes), dump ($(grep -vc '^#' $A/$id/dump) records), as previous/ shows them"
	# the archive alone is enough: frec-decode of its raw prints its dump
	frec_decode $A/$id/raw > /tmp/fa.decoded 2> /dev/null || fail "frec-decode $A/$id/raw failed"
	cmp /tmp/fa.decoded $A/$id/dump || fail "frec-decode of the archived raw differs from the archived dump"
	md5sum $A/$id/* > /tmp/fa.sums
	sh "$prog" -a $A > /tmp/fa2.out 2>&1 || { rc=$?; cat /tmp/fa2.out; fail "the second run exited $rc"; }
	cat /tmp/fa2.out
	[ "$(cat /tmp/fa2.out)" = "frec-archive: boot $id is already archived in $A/$id: not overwritten" ] ||
		fail "the second run printed '$(cat /tmp/fa2.out)'"
	md5sum $A/$id/* | cmp - /tmp/fa.sums || fail "the second run changed the archive"
	[ "$(ls -A $A)" = "$id" ] || fail "after the second run $A holds $(ls -A $A)"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
