#!/bin/sh
# description: black box: a persisted ring whose parts take more than half of the region's free parts (README's 1 MiB region, crash_test resized to over half of what crash_test_text leaves) stays in the region through a resize to its size, a clear and two order changes (no "no room" in the log), and after sysrq-b the next boot shows exactly the records it held at the reset; crash_test_text, persisted beside it and recorded into before the changes, keeps every record
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000
D=$FREC_DEBUGFS/rings/crash_test
T=/sys/module/frec_crash_test/parameters/trigger

case $FREC_PHASE in
1)
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
	echo $((per * 1024)) > $D/size || fail "resize to $per KiB"
	echo "record 40" > $T
	echo $((per * 1024)) > $D/size || fail "resize to $per KiB again"
	echo "record 40" > $T
	echo 1 > $D/clear || fail "clear"
	echo "record 40" > $T
	echo global > $D/order || fail "order global"
	echo "record 40" > $T
	echo cpu > $D/order || fail "order cpu"
	echo "record 40" > $T
	frec_blackbox_taken 6
	echo "record 500" > $T
	frec_blackbox_keep crash_test
	frec_blackbox_sysrq_b
	;;
2)
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
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
