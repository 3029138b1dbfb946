#!/bin/sh
# description: the raw dump's clock entry (uapi/frec_raw.h, struct frec_raw_clock) right after the header holds local_clock() - trace_clock_local(): the kernel's own __sched_clock_offset that dmesg's "sched_clock: Marking stable" line prints, within the entry's measuring window, flagged constant
# kernels: 6.1 6.12 6.12-rt
# timeout: 60
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 calls=1 || fail "insmod frec_hanoi.ko"
cat $D/raw > /tmp/raw || fail "read raw"
# num TYPE OFFSET: one number of the raw dump, at byte OFFSET
num() {
	od -A n -t "$1" -j "$2" -N "${1#?}" /tmp/raw | tr -d ' '
}
[ "$(num u4 48)" = 4 ] || fail "no clock entry after the header: type $(num u4 48) at offset 48"
[ "$(num u4 52)" = 48 ] || fail "clock entry of $(num u4 52) bytes, expected 48"
offset=$(num d8 56)
window=$(num u8 64)
flags=$(num u4 72)
name=$(dd if=/tmp/raw bs=1 skip=80 count=16 2>/dev/null | tr -d '\0')
echo "# measured: offset $offset ns, window $window ns, flags $flags, trace clock $name"
[ "$name" = local ] || fail "trace clock \"$name\", expected local"
# printk(KERN_INFO "sched_clock: Marking stable (%lld, %lld)->(%lld, %lld)\n",
#        tick_gtod, __gtod_offset, tick_raw, __sched_clock_offset)
# (the boot's log, saved by init before the tests filled the buffer)
kernel=$({ cat /tmp/boot-dmesg 2> /dev/null; dmesg; } |
	sed -n 's/.*sched_clock: Marking stable ([-0-9]*, [-0-9]*)->([-0-9]*, \([-0-9]*\)).*/\1/p' | tail -n 1)
[ -n "$kernel" ] || skip "dmesg has no \"sched_clock: Marking stable\" line: the kernel never made local_clock() sched_clock() plus a constant"
echo "# the kernel's __sched_clock_offset: $kernel ns"
[ $((flags & 1)) = 1 ] || fail "the clock is stable, but the offset is not flagged constant (flags $flags)"
[ "$window" -lt 1000000 ] || fail "measuring window $window ns: the reads were not back to back"
diff=$((offset - kernel))
[ $diff -lt 0 ] && diff=$((-diff))
echo "# off by $diff ns (at most half the window, $((window / 2 + 1)) ns)"
[ $diff -le $((window / 2 + 1)) ] || fail "measured offset $offset ns is $diff ns from the kernel's $kernel ns, more than half the window $window ns"
rmmod frec_hanoi
frec_unload
