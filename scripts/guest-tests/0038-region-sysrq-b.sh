#!/bin/sh
# description: black box steps 0038 0043 0081 0044 0105 0064 0071 (seven boots of one QEMU, each checking a step and setting up the next): 0038 region= refuses bad values with a log line; a memmap= region outlives an unload (end: clean unload) and a sysrq-b (end: none): the next boot's frec/previous/info names the boot that wrote it, raw is its image and frec-decode reads it; 0043 a persisted ring's records with %s and %ps arguments, of a module then unloaded (its records repointed at frec's copies), decode after sysrq-b to exactly the lines the old dump printed; frec/region_texts counts what the sweeps wrote; frec-decode's JSON of the region names the records' task (comm-pid), as the sweep saw it; 0081 records with a %s of one buffer, written "first" for 100 records and then "second" for 120 (a texts sweep after each), decode after sysrq-b each with the text the buffer held when it was recorded, in previous/dump and in frec-decode of previous/raw; 0044 a persisted ring of frec_printk() records, stored as arguments and formatted when read, shows after sysrq-b exactly the lines the old dump printed (previous/dump and frec-decode of previous/raw); 0105 after sysrq-b, the next boot's frec-archive (tools/frec-archive, run in busybox sh as the unit runs it) copies previous/info, raw and dump whole into ARCHIVE/BOOT_ID (the old boot's id, not this one's), prints how the boot ended and the records recovered and rejected as info counts them, frec-decode of the archived raw prints the archived dump, and a second run leaves the archive as it was; 0064 loads refused for a bad parameter (persist_rings=, oops_rings= with a glob frec refuses, sites_max=0) leave the previous boot's region as they found it: the next good load still shows the boot that was reset, its records and its end; 0071 the smallest region doc/blackbox.md states (region=, "at least N KiB") loads, and so do larger ones up to doc/blackbox.md's 1 MiB; a region one block smaller is refused with a log line naming the smallest size frec takes
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# phases: 7
# cmdline: memmap=1M$0x20000000
# timeout: 300
#
# The steps, in the order they run (frec_chain): each was a test of two
# boots of its own.  0038 comes first: its first boot wants the region
# fresh ("none found"), as only a new QEMU has it.  A check runs first
# in its boot: 0038's counts the loads of the boot, 0064's the log lines
# of the region.  0071, a test of one boot, runs last, after 0064's
# check.  The steps' names say which one failed (FREC_PART).
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=1M@0x20000000
T=/sys/module/frec_crash_test/parameters/trigger
A=/tmp/archive

# 0038: the boot id the newest "region: ... taken" line of the log names.
taken_id() {
	dmesg | sed -n 's/.*frec: region: .* taken for this boot, boot id \([0-9a-f]*\).*/\1/p' | tail -n 1
}

# 0038: refuse VALUE TEXT: insmod frec.ko region=VALUE fails, with TEXT
# logged.
refuse() {
	insmod "$FREC_MODULES/frec.ko" region="$1" 2> /dev/null && fail "region=$1 loaded"
	dmesg | grep -F "region=$1" | grep -q "$2" || { dmesg | tail -n 3; fail "region=$1: no log line saying '$2'"; }
	echo "region=$1 refused: $(dmesg | grep -F "region=$1" | tail -n 1 | sed 's/^\[[^]]*\] //')"
}

# 0081: buffer_count FILE WORD N: the lines of FILE of the buffer holding WORD,
# N records.
buffer_count() {
	grep -c " crash test buffer $2 [0-9]* of $3\$" "$1"
}

# 0081: buffer_check FILE: every record shows the text of its time.
buffer_check() {
	first=$(buffer_count "$1" first 100) second=$(buffer_count "$1" second 120)
	echo "$1: $first records of 'first', $second of 'second'"
	grep 'crash test buffer' "$1" | sed -n '1p;100,101p;$p'
	[ "$first" = 100 ] && [ "$second" = 120 ] ||
		fail "$1: records of the rewritten buffer do not show the text of their time"
	grep -c 'crash test buffer' "$1" | grep -qx 220 ||
		fail "$1: records of the buffer besides the 220"
}

t0038_1() {
	grep -i 'reserved\|frec' /proc/iomem | sed 's/^/iomem: /'
	grep -q '20000000-200fffff : Reserved' /proc/iomem || fail "memmap= did not reserve 0x20000000"
	refuse 1M@0x20000800 "multiples of"
	refuse 1M@0x1000000 "System RAM"
	refuse 16K@0x20000000 "want"
	refuse 1M "SIZE@ADDR"
	frec_load region=$R
	grep -q 'frec region' /proc/iomem || fail "region not requested"
	grep -q 'none found: not a frec region' $D/previous/info || { cat $D/previous/info; fail "a fresh region is not 'none found'"; }
	insmod "$FREC_MODULES/frec.ko" region=$R 2> /dev/null && fail "loaded twice"
	first=$(taken_id)
	[ "$first" = "$(tr -d '-' < /proc/sys/kernel/random/boot_id)" ] ||
		fail "boot id $first is not the kernel's $(cat /proc/sys/kernel/random/boot_id)"
	frec_unload
	grep -q 'frec region' /proc/iomem && fail "region not released at unload"
	frec_load region=$R
	cat $D/previous/info
	grep -q "^previous boot: $first\$" $D/previous/info || fail "previous is not the unloaded one ($first)"
	grep -q '^end: clean unload$' $D/previous/info || fail "an unload is not a clean end"
	echo "boot id of the load sysrq-b ends: $(taken_id)"
	frec_phase_put_hex "$(taken_id)"
	sleep 1
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
}

t0038_2() {
	frec_load region=$R
	cat $D/previous/info
	want=$(dmesg | grep -c 'frec: region: .* taken')
	[ "$want" = 1 ] || fail "more than one load this boot"
	grep -q "^release: $(uname -r)\$" $D/previous/info || fail "no release line"
	grep -q "^end: no end marked (a reset or a hang)$" $D/previous/info || fail "sysrq-b is not end none"
	grep -q '^records recovered: 0$' $D/previous/info || fail "records counted in an image with no rings"
	id=$(sed -n 's/^previous boot: //p' $D/previous/info)
	echo "previous boot: $id, phase 1 said $(frec_phase_get_hex)"
	[ -n "$id" ] || fail "no previous boot found"
	[ "$id" = "$(frec_phase_get_hex)" ] || fail "previous is not the boot sysrq-b ended"
	[ "$id" != "$(taken_id)" ] || fail "previous boot is this boot"
	[ "$(taken_id)" = "$(tr -d '-' < /proc/sys/kernel/random/boot_id)" ] || fail "this boot's id is not the kernel's"
	[ "$(wc -c < $D/previous/raw)" = 1048576 ] || fail "raw is not the 1 MiB image"
	cat $D/previous/raw > /tmp/raw
	if [ -x "$(frec_decoder)" ]; then
		frec_decode /tmp/raw > /tmp/decoded 2>&1 ||
			fail "frec-decode of previous/raw failed: $(tail -n 3 /tmp/decoded)"
		head -n 20 /tmp/decoded
		grep -q "region of boot $(echo "$id" | sed 's/^\(........\)\(....\)\(....\)\(....\)/\1-\2-\3-\4-/')" /tmp/decoded ||
			fail "frec-decode does not name the boot $id: $(grep 'region of boot' /tmp/decoded)"
	fi
	frec_unload
}

t0043_1() {
	frec_load region=$R persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 100' > /sys/module/frec_crash_test/parameters/trigger
	echo 'strings 300' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	frec_texts_swept
	cat "$FREC_DEBUGFS/region_texts"
	# red, green, blue and the two functions of the %ps; the callers are
	# their sites'.
	grep -q '^texts written: 5$' "$FREC_DEBUGFS/region_texts" ||
		fail "the region does not have the 5 texts the records point to"
	# and the name of the one task that stored them, this shell
	grep -q '^task names written: 1$' "$FREC_DEBUGFS/region_texts" ||
		fail "the region does not have the name of the task that stored the records"
	# Its records now name frec's copies of its formats and names: the
	# sweep at its unload writes those.
	rmmod frec_crash_test || fail "rmmod frec_crash_test"
	cat "$FREC_DEBUGFS/region_texts"
	frec_blackbox_sysrq_b
}

t0043_2() {
	frec_load region=$R
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	# The task that stored the records, named as the sweep saw it: this
	# test's shell, the same program in both boots.
	pid=$(sed -n 's/.* T\([0-9]*\) crash_test: .*/\1/p' $D/previous/dump | sort -u)
	[ "$(echo "$pid" | wc -w)" = 1 ] || fail "crash_test's records name tasks '$pid', not one"
	comm=$(cat /proc/$$/comm)
	frec_decode $D/previous/raw -F json --json-track=task > /tmp/tasks.json ||
		fail "frec-decode -F json --json-track=task of previous/raw failed"
	grep -q "\"$comm-$pid\"" /tmp/tasks.json ||
		fail "no track '$comm-$pid' in frec-decode's JSON of previous/raw: $(grep -o '"[^"]*-'"$pid"'"' /tmp/tasks.json | head -n 1)"
	echo "the region named the records' task: $comm-$pid"
	frec_unload
}

t0081_1() {
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
}

t0081_2() {
	[ -x "$(frec_decoder)" ] || fail "no $(frec_decoder): build tools first (make tools)"
	frec_load region=$R
	cat "$FREC_DEBUGFS/previous/info"
	cat "$FREC_DEBUGFS/previous/formats"
	cat "$FREC_DEBUGFS/previous/dump" > /tmp/pdump || fail "cat previous/dump"
	buffer_check /tmp/pdump
	cat "$FREC_DEBUGFS/previous/raw" > /tmp/raw
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err ||
		{ cat /tmp/decode.err; fail "frec-decode failed"; }
	buffer_check /tmp/decoded
	diff /tmp/pdump /tmp/decoded > /dev/null ||
		{ diff /tmp/pdump /tmp/decoded | head -n 5; fail "previous/dump differs from frec-decode of previous/raw"; }
	frec_unload
}

t0044_1() {
	frec_load region=$R persist_rings=crash_test_text
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	# Every 8th record is a frec_printk() "crash test text I of N".
	echo 'record 2000' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test_text
	frec_blackbox_sysrq_b
}

t0044_2() {
	frec_blackbox_previous $R crash_test_text "no end marked (a reset or a hang)"
}

t0105_1() {
	frec_blackbox_fill $R
	frec_blackbox_sysrq_b
}

t0105_2() {
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
}

t0064_1() {
	frec_blackbox_fill $R
	frec_blackbox_sysrq_b
}

t0064_2() {
	for bad in persist_rings=bad.glob oops_rings=bad.glob sites_max=0; do
		dmesg -c > /dev/null
		if insmod "$FREC_MODULES/frec.ko" region="$R" persist_rings=crash_test "$bad" 2> /dev/null; then
			frec_unload
			fail "insmod frec.ko with $bad loaded"
		fi
		dmesg | grep -q "frec: ${bad%%=*}=" || { dmesg; fail "no log line names $bad"; }
		dmesg | grep 'frec: region' && fail "a load refused for $bad touched the region"
		echo "refused, without touching the region: $bad"
	done
	frec_load region="$R"
	frec_blackbox_check crash_test "no end marked (a reset or a hang)"
	frec_unload
}

t0071_1() {
	min=24
	readme=/host$FREC_HOST_TREE/doc/blackbox.md
	if [ -r "$readme" ]; then
		min=$(sed -n 's/^| `region=SIZE@ADDR` |.*at least \([0-9]*\) KiB.*/\1/p' "$readme")
		[ -n "$min" ] || fail "doc/blackbox.md's region= row states no minimum in KiB"
		echo "doc/blackbox.md states a region of at least $min KiB"
	fi
	for k in $min 64 256 700 712 1024; do
		[ $k -ge "$min" ] || continue
		dmesg -c > /dev/null
		insmod "$FREC_MODULES/frec.ko" region=${k}K@0x20000000 persist_rings=crash_test ||
			{ dmesg | grep 'frec:'; fail "region=${k}K refused"; }
		frec_unload
		echo "region=${k}K taken"
	done
	small=$((min - 4))
	dmesg -c > /dev/null
	if insmod "$FREC_MODULES/frec.ko" region=${small}K@0x20000000 2> /dev/null; then
		frec_unload
		fail "region=${small}K, below the $min KiB doc/blackbox.md states, was taken"
	fi
	dmesg | grep 'frec:'
	dmesg | grep -q "frec: region=${small}K@0x20000000: .*$((min * 1024))" ||
		fail "region=${small}K refused without naming the smallest region, $((min * 1024)) bytes"
}

frec_chain 0038:2 0043:2 0081:2 0044:2 0105:2 0064:2 0071:1
