#!/bin/sh
# description: black box on 6.12 with KASLR: a reserve_mem= range records a persisted ring and the guest resets (sysrq-b); in the next boot, if the range is at the same physical address (frec's load line names it) frec/previous/ shows the previous boot (frec-decode of raw prints the old dump's lines), if it moved info says no previous boot was found and shows nothing; says which
# kernels: 6.12 arm64-6.12
# can-run: 6.12 6.12-rt
# boot: twice
# cmdline: reserve_mem=1M:4096:frecbox
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS

# Where the region is in this boot (frec's load line), and the words of the
# phase page that carry phase 1's address into phase 2, at +256, past
# the runner's (run-tests.sh) and frec_phase_put_hex's (frec_blackbox_keep):
# only the two addresses tell a range that moved from a region frec failed
# to find where it was.
region_at() {
	dmesg | sed -n 's/.*frec: region: .* at physical \(0x[0-9a-f]*\) taken for this boot.*/\1/p' |
		tail -n 1
}
mark=$(frec_phase_mark)
[ -n "$mark" ] || fail "no frec_phase_mark= on the command line"

case $FREC_PHASE in
1)
	grep -qw nokaslr /proc/cmdline && fail "the guest boots with nokaslr"
	frec_load region_label=frecbox persist_rings=crash_test
	at=$(region_at)
	[ -n "$at" ] || fail "frec's load line names no physical address"
	echo "the reserve_mem= range is at $at"
	devmem $((mark + 256)) 32 $((at & 0xffffffff))
	devmem $((mark + 260)) 32 $((at >> 32))
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	sleep 1
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
2)
	frec_load region_label=frecbox
	at=$(region_at)
	was=$(printf '0x%x' $(($(devmem $((mark + 260)) 32) << 32 | $(devmem $((mark + 256)) 32))))
	echo "the reserve_mem= range is at $at, in phase 1 it was at $was"
	[ -n "$at" ] || fail "frec's load line names no physical address"
	[ "$((was))" != 0 ] || fail "phase 1's address did not come through the phase page"
	if [ "$((at))" != "$((was))" ]; then
		# Where it is now lies what the previous boot had there: no
		# magic, or an older region the header says was elsewhere.
		cat $D/previous/info
		grep -qE '^previous boot: none found: (not a frec region \(no magic\)|the region was written at another physical address \(moved\))' $D/previous/info ||
			fail "the range moved from $was to $at: info says neither no magic nor moved"
		grep -qE '^(ring|records recovered|end):' $D/previous/info && fail "a moved region's rings or records shown"
		echo "the reserve_mem= range moved: no previous boot found, nothing shown"
	else
		frec_blackbox_check crash_test "no end marked (a reset or a hang)"
		echo "the reserve_mem= range kept its address: the previous boot shown"
	fi
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
