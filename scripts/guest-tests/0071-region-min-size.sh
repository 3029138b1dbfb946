#!/bin/sh
# description: black box: the smallest region doc/blackbox.md states (region=, "at least N KiB") loads, and so do larger ones up to doc/blackbox.md's 1 MiB; a region one block smaller is refused with a log line naming the smallest size frec takes
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# cmdline: memmap=1M$0x20000000
# boot: alone
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf

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
