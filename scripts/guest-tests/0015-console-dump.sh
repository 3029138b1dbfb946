#!/bin/sh
# description: dump_to_console prints the dump's lines between markers: whole rings equal dump, oops_records keeps the newest N per ring, oops_rings picks rings, from NMI too on x86 (its record's context column nmi); bad knob writes change nothing; every block reaches the console itself (judge.sh), not just the kernel log
# kernels: 6.1 6.12 6.12-rt debug arm64-6.1 arm64-6.12
. /frec/guest/lib.sh
frec_crash_test_load
D=$FREC_DEBUGFS
T=$FREC_TRIGGER
echo 'record 500' > $T || fail "record"

[ "$(cat $D/oops_dump)" = 1 ] || fail "oops_dump is not on by default"
[ "$(cat $D/oops_records)" = 64 ] || fail "oops_records default is not 64"
[ "$(cat $D/oops_rings)" = '*' ] || fail "oops_rings default is not *"

# Whole rings: the console block is the dump with the same rings.
echo crash_test,crash_test_text > $D/oops_rings || fail "set oops_rings"
[ "$(cat $D/oops_rings)" = crash_test,crash_test_text ] || fail "oops_rings reads $(cat $D/oops_rings)"
echo 100000 > $D/oops_records || fail "set oops_records"
dmesg -c > /dev/null
echo 1 > $D/dump_to_console || fail "dump_to_console"
frec_klog > /tmp/klog
frec_console_block < /tmp/klog > /tmp/block || fail "no complete block on the console"
grep -q '^---\[ frec dump begin: dump_to_console, newest 100000 records per ring ]---$' /tmp/klog ||
	fail "begin marker: $(grep 'frec dump begin' /tmp/klog)"
echo 'ring=crash_test,crash_test_text' > $D/filter
cat $D/dump > /tmp/dump
echo > $D/filter
diff /tmp/dump /tmp/block > /tmp/diff || { head -20 /tmp/diff; fail "console block differs from dump"; }
n=$(($(wc -l < /tmp/block) - 2))
[ $n -gt 300 ] || fail "only $n records"
grep -q "^---\[ frec dump end: $n records, 2 rings, $(tail -n +3 /tmp/block | wc -c) bytes ]---$" /tmp/klog ||
	fail "end marker: $(grep 'frec dump end' /tmp/klog)"
frec_console_expect_last /tmp/klog
echo "# whole rings: $n records, console == dump"

# Newest 10 per ring, in merged order.
echo 10 > $D/oops_records
dmesg -c > /dev/null
echo 1 > $D/dump_to_console || fail "dump_to_console"
frec_klog > /tmp/klog
frec_console_block < /tmp/klog > /tmp/block || fail "no block"
for r in crash_test crash_test_text; do
	tail -n 10 $D/rings/$r/dump
done | frec_sort_merged > /tmp/want
tail -n +3 /tmp/block > /tmp/got
diff /tmp/want /tmp/got > /tmp/diff || { head -20 /tmp/diff; fail "newest 10 per ring differ"; }
[ "$(wc -l < /tmp/got)" = 20 ] || fail "$(wc -l < /tmp/got) lines, not 20"
frec_console_expect_last /tmp/klog

# Bad writes are refused and change nothing.
for v in 0 -1 abc 1048577 ' 5' 5x 0x10 '5 5'; do
	printf '%s' "$v" > $D/oops_records 2>/dev/null && fail "oops_records took '$v'"
done
for v in 'a b' 'ring=x' 'a,,b' "$(head -c 2000 /dev/zero | tr '\0' a)"; do
	printf '%s' "$v" > $D/oops_rings 2>/dev/null && fail "oops_rings took '$v'"
done
for v in 2 yes 11 ' 1'; do
	printf '%s' "$v" > $D/oops_dump 2>/dev/null && fail "oops_dump took '$v'"
	printf '%s' "$v" > $D/dump_to_console 2>/dev/null && fail "dump_to_console took '$v'"
done
echo 0 > $D/dump_to_console 2>/dev/null && fail "dump_to_console took 0"
[ "$(cat $D/oops_records)" = 10 ] || fail "oops_records changed to $(cat $D/oops_records)"
# '' (an empty write) selects all rings again, like the filter.
echo crash_test > $D/oops_rings
[ "$(cat $D/oops_rings)" = crash_test ] || fail "oops_rings did not stay crash_test"
echo > $D/oops_rings
[ "$(cat $D/oops_rings)" = '*' ] || fail "an empty oops_rings write did not select all"

# From NMI context: the block is there and holds the NMI's own record.
# x86 only: the crash test raises its NMI with the local APIC; Debian's
# arm64 kernels have no CONFIG_ARM64_PSEUDO_NMI, so no NMI at all.
if [ "$(frec_arch)" = arm64 ]; then
	echo "# no NMI on arm64 (Debian's kernel has no CONFIG_ARM64_PSEUDO_NMI): the NMI block not checked"
	rmmod frec_crash_test
	frec_unload
	exit 0
fi
echo crash_test > $D/oops_rings
dmesg -c > /dev/null
echo nmi > $T || fail "nmi trigger"
frec_wait_klog 'frec dump end' || fail "no dump from NMI"
frec_klog > /tmp/klog
grep -q '^---\[ frec dump begin: frec_crash_test from NMI' /tmp/klog || fail "NMI begin marker"
frec_console_block < /tmp/klog > /tmp/block || fail "no NMI block"
tail -n 1 /tmp/block | grep -q ' in NMI on cpu' || fail "NMI record is not the newest: $(tail -n 1 /tmp/block)"
# Its context column names the NMI (uapi/frec_raw.h, "The caller word").
tail -n 1 /tmp/block | grep -Eq ' cpu[0-9]+ nmi crash_test: ' ||
	fail "NMI record's context is not nmi: $(tail -n 1 /tmp/block)"
[ "$(tail -n +3 /tmp/block | wc -l)" = 10 ] || fail "NMI block has $(tail -n +3 /tmp/block | wc -l) lines"
frec_console_expect_last /tmp/klog
echo > $D/oops_rings
rmmod frec_crash_test
frec_unload
