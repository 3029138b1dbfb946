#!/bin/sh
# description: sizes past the documented limit are refused at once; a ring the machine cannot spare is an -ENOMEM with a log line, never an OOM kill or an allocation splat; nothing recorded is lost
# kernels: 6.1 6.12 debug
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 || fail "insmod frec_hanoi.ko"
S=$D/rings/hanoi_moves/size
before=$(cat $S)
cat $D/dump > /tmp/before
# Above FREC_RING_MAX_BYTES (1 GiB per CPU): refused before any allocation.
for bytes in 9223372036854775808 1099511627776 2147483648; do
	if echo $bytes > $S 2>/dev/null; then fail "size $bytes accepted"; fi
done
# Within the limit, but more than this 1 GiB guest can spare (x 2 CPUs).
for bytes in 1073741824 536870912; do
	if echo $bytes > $S 2>/tmp/err; then fail "size $bytes accepted in a 1 GiB guest"; fi
	grep -q 'Cannot allocate memory' /tmp/err || fail "size $bytes: $(cat /tmp/err), want ENOMEM"
done
frec_klog | grep -q "ring hanoi_moves: 536870912 bytes per CPU x 2 CPUs = .* more than half of the .* available" ||
	fail "no log line names the size refused"
# Little memory left: a ring that would still fit in RAM but not in what
# is free is refused, and nothing is killed.
free=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
mkdir -p /tmp/hog && mount -t tmpfs -o size=90% tmpfs /tmp/hog
dd if=/dev/zero of=/tmp/hog/fill bs=1M count=$((free / 1024 - 48)) 2>/dev/null
echo "# MemAvailable $free kB before, $(awk '/MemAvailable/ { print $2 }' /proc/meminfo) kB after filling tmpfs"
if echo 67108864 > $S 2>/tmp/err; then fail "64 MiB per CPU accepted with 48 MiB left"; fi
grep -q 'Cannot allocate memory' /tmp/err || fail "64 MiB: $(cat /tmp/err), want ENOMEM"
rm -f /tmp/hog/fill
umount /tmp/hog
frec_klog | grep -Eq 'invoked oom-killer|Out of memory|vmalloc error|page allocation failure' &&
	fail "the OOM killer or an allocation failure splat ran"
[ "$(cat $S)" = "$before" ] || fail "size changed to $(cat $S)"
cat $D/dump > /tmp/after
diff /tmp/before /tmp/after || fail "records changed"
# And a size that fits still works.
echo 131072 > $S || fail "131072 refused"
rmmod frec_hanoi
frec_unload
