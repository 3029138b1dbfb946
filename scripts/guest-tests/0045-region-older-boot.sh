#!/bin/sh
# description: black box: the heartbeat keeps the region's last sign of life fresh (boot 1 records, waits, resets); a boot in between that does not load frec outlives the reboot bound (region_reboot_s=1) and resets; the third boot's frec/previous/info reports the region as an older boot's, with its times, shows none of it, and previous/raw still decodes to boot 1's lines
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# phases: 3
# cmdline: memmap=1M$0x20000000
# timeout: 120
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=1M@0x20000000
# Boot 1's reset time, in the phase word's page (run-tests.sh) past
# frec_phase_put_hex's words.
mark=$(frec_phase_mark)
reset_at=$((mark + 0x404))

case $FREC_PHASE in
1)
	frec_load region=$R persist_rings=crash_test region_reboot_s=1
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	frec_phase_put_hex "$(frec_phase_get_hex)$(tr -d '-' < /proc/sys/kernel/random/boot_id)"
	# Longer than a heartbeat and the bound (5 + 1 s): the region's last
	# sign of life must come from the heartbeat, not from the load.
	sleep 8
	devmem $reset_at 32 "$(date +%s)"
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
2)
	# Boot 2: no frec with the region; it lives longer than the bound
	# (5 s heartbeat + 1 s), then resets.
	echo "frec-test: boot 2 of 3, no frec, resets in 9 s" > /dev/kmsg
	sleep 9
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
3)
	kept=$(frec_phase_get_hex)
	id=$(echo "$kept" | cut -c41-72)
	insmod "$FREC_MODULES/frec.ko" region=$R region_reboot_s=0 2> /dev/null &&
		fail "region_reboot_s=0 loaded"
	dmesg | grep -q 'region_reboot_s=0: want 1 to ' || fail "no log line naming region_reboot_s=0"
	frec_load region=$R region_reboot_s=1
	cat $D/previous/info
	grep -q "^previous boot: none found: the region is an older boot's, last alive [0-9]* s before this boot started (more than 6 s)$" $D/previous/info ||
		fail "not reported as an older boot's"
	grep -q "^older boot: $id\$" $D/previous/info || fail "the older boot is not boot 1 ($id)"
	grep -q '^raw holds its image' $D/previous/info || fail "info does not say raw holds the image"
	grep -qE '^(ring|records recovered|end):' $D/previous/info && fail "the older boot's rings or records shown"
	# Its last sign of life: a heartbeat shortly before boot 1's reset.
	alive=$(sed -n 's/^older boot alive wall ns: \([0-9]*\)$/\1/p' $D/previous/info)
	reset=$(($(devmem $reset_at 32)))
	echo "boot 1 reset at $reset s, last alive at $((alive / 1000000000)) s"
	[ $((reset - alive / 1000000000)) -le 6 ] && [ $((alive / 1000000000 - reset)) -le 1 ] ||
		fail "the last sign of life is not a heartbeat within 6 s of the reset"
	# Forensics: raw still holds boot 1's image, which frec-decode reads.
	cat $D/previous/raw > /tmp/raw
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err || { cat /tmp/decode.err; fail "frec-decode failed"; }
	frec_ring_lines /tmp/decoded crash_test > /tmp/new
	[ "$(md5sum < /tmp/new | cut -c1-32)" = "$(echo "$kept" | cut -c1-32)" ] ||
		fail "raw does not decode to boot 1's lines"
	echo "raw decodes to boot 1's $(grep -c . /tmp/new) crash_test lines"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
