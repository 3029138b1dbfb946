#!/bin/sh
# description: black box: region= is taken only inside a memmap=SIZE$ADDR the kernel itself parsed from its command line: one after "--" (init's arguments), one inside another parameter's quoted value, one whose range a later memmap= gives a higher type (!: legacy persistent memory), one inside a SIZE$ADDR whose end wraps past 2^64 are refused, naming the range; memmap= lists (SIZE$ADDR,SIZE$ADDR) and a quoted memmap= parameter are taken
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: alone
# cmdline: memmap=1M$0x20000000,1M$0x20100000 "memmap=1M$0x20200000" memmap=1M$0x20300000 memmap=4K!0x20380000 frec_test_quoted="x memmap=1M$0x100000000 y" memmap=0xffffffffffffffff$0x200000000,4K%0x200000000 -- memmap=1M$0x100100000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
frec_reset
cat /proc/cmdline

# Taken: both items of a memmap= list, and a memmap= quoted whole.
for r in 1M@0x20000000 1M@0x20100000 1M@0x20200000; do
	frec_load region=$r
	frec_unload
	echo "region=$r: taken"
done

# Refused: the kernel never set these aside.  Above the 1 GiB guest's RAM
# (neither System RAM nor busy, as firmware's reserved ranges are not),
# part of 0x20300000's range made legacy persistent memory by memmap=4K!,
# and one inside a memmap=SIZE$ADDR whose end wraps past 2^64: e820 keeps
# its wrapped end, and the memmap=4K% remove of its first page takes the
# whole entry away, so the kernel reserves nothing there.
for r in 1M@0x100000000 1M@0x100100000 1M@0x20300000 1M@0x400000000; do
	insmod "$FREC_MODULES/frec.ko" region=$r 2> /dev/null && fail "region=$r loaded"
	frec_klog | grep -q "region=$r: no memmap=SIZE\$ADDR on this boot.s command line sets \[mem " ||
		fail "no log line naming region=$r as not set aside"
	frec_loaded && fail "frec loaded"
	grep -q 'frec region' /proc/iomem && fail "a frec region left in /proc/iomem"
	echo "region=$r: refused"
done
true
