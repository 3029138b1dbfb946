#!/bin/sh
# description: black box: region= refuses bad values with a log line; a memmap= region outlives an unload (end: clean unload) and a sysrq-b (end: none): the next boot's frec/previous/info names the boot that wrote it, raw is its image and frec-decode reads it
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=1M@0x20000000

# The boot id the newest "region: ... taken" line of the log names.
taken_id() {
	dmesg | sed -n 's/.*frec: region: .* taken for this boot, boot id \([0-9a-f]*\).*/\1/p' | tail -n 1
}

# refuse VALUE TEXT: insmod frec.ko region=VALUE fails, with TEXT logged.
refuse() {
	insmod "$FREC_MODULES/frec.ko" region="$1" 2> /dev/null && fail "region=$1 loaded"
	dmesg | grep -F "region=$1" | grep -q "$2" || { dmesg | tail -n 3; fail "region=$1: no log line saying '$2'"; }
	echo "region=$1 refused: $(dmesg | grep -F "region=$1" | tail -n 1 | sed 's/^\[[^]]*\] //')"
}

case $FREC_PHASE in
1)
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
	;;
2)
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
		frec_decode /tmp/raw > /tmp/decoded 2>&1
		echo "frec-decode exit $?:"
		head -n 20 /tmp/decoded
	fi
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
