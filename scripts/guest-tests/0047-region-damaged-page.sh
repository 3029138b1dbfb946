#!/bin/sh
# description: black box, a valid header with damaged pages: after a reset, one page of the persisted ring's parts overwritten loses only that page's 64 records (the rest shown, frec-decode of raw prints them); the site table's page holding the ring's site overwritten loses that site's records, the ring entry kept; region= cut mid-ring keeps the records before the cut
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=2M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
R=1M@0x20000000
base=$((0x20000000))
copy=$((0x20100000))
# Block 0, the rings (a block), the sites (4096 x 80 B), texts (4096 x
# 32 B) and pool (256 KiB), then the parts: crash_test's CPU 0 part first.
sites=$((8 * 1024))
parts=$(( (4 + 4 + 4096 * 80 / 1024 + 4096 * 32 / 1024 + 256) * 1024 ))

case $FREC_PHASE in
1)
	frec_load region=$R persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	# On CPU 0: its part is the first, past the ring's length (wrapped).
	taskset -c 0 sh -c "echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger"
	frec_blackbox_keep crash_test
	id=$(grep -m 1 '"crash test %u of %u cpu %d"$' $D/sites | cut -d ' ' -f 1)
	[ -n "$id" ] || fail "no crash test site in sites"
	frec_phase_put_hex "$(frec_phase_get_hex)$(printf '%08x' "$id")"
	sleep 1
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
2)
	kept=$(frec_phase_get_hex)
	n=$((0x$(echo "$kept" | cut -c33-40)))
	id=$((0x$(echo "$kept" | cut -c41-48)))
	echo "$n records in the old dump, site id $id"
	frec_phys copy $base $copy 0x100000

	# One page of CPU 0's part (its slots 64 to 127) overwritten.
	frec_phys random $((base + parts + 4096)) 4096
	frec_load region=$R
	cat $D/previous/info
	grep -q '^ring: crash_test, ' $D/previous/info || fail "the ring entry is lost"
	grep -q "^records recovered: $((n - 64))\$" $D/previous/info ||
		fail "not exactly the page's 64 of the $n records lost"
	grep -q '^records rejected: [1-9]' $D/previous/info || fail "the page's slots not rejected"
	cat $D/previous/raw > /tmp/raw
	# Exit 3: decoded to the end, with warnings (the rejected records).
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err
	[ $? = 3 ] || { cat /tmp/decode.err; fail "frec-decode did not exit 3 (warnings)"; }
	tail -n 1 /tmp/decode.err
	frec_ring_lines /tmp/decoded crash_test > /tmp/new
	[ "$(grep -c ' crash test [0-9]* of 500 cpu 0$' /tmp/new)" = $((n - 64)) ] ||
		fail "frec-decode does not print the $((n - 64)) records left"
	frec_unload

	# The site table's page holding the ring's site overwritten.
	frec_phys copy $copy $base 0x100000
	frec_phys random $((base + sites + id * 80 / 4096 * 4096)) 4096
	frec_load region=$R
	cat $D/previous/info
	grep -q '^ring: crash_test, ' $D/previous/info || fail "the ring entry is lost"
	grep -q '^records recovered: 0$' $D/previous/info || fail "records of a lost site shown"
	grep -q "^records rejected: $n, names no valid site $n\$" $D/previous/info ||
		fail "the $n records not rejected as naming no valid site"
	frec_unload

	# region= two blocks of parts: CPU 0's slots 0 to 127 are read.
	frec_phys copy $copy $base 0x100000
	frec_load region=$((parts + 8192))@$base
	cat $D/previous/info
	grep -q "^records recovered: 128\$" $D/previous/info || fail "not the 128 records before the cut"
	grep -q "^region cut short: $((parts + 8192)) of its 1048576 bytes read " $D/previous/info ||
		fail "the cut not reported"
	grep -q '^records rejected: .*past the end of the image [1-9]' $D/previous/info ||
		fail "the slots past the cut not counted"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
