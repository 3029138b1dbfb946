#!/bin/sh
# description: thousands of random writes to every control file (frozen too): no splat, refused or harmless, and no record lost
# kernels: 6.1 debug
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_hanoi.ko" disks=4 calls=1 || fail "insmod frec_hanoi.ko"
cat $D/dump > /tmp/before
files="$D/filter $D/enable $D/clear $D/control $D/frozen"
for r in $D/rings/*; do
	files="$files $r/enable $r/level $r/size $r/clear"
done
# Random bytes without digits or newlines: none of them can be a valid
# size or clear write, which would drop records on purpose.
head -c 200000 /dev/urandom | tr -d '0-9\n' > /tmp/pool
n=0
refused=0
for round in $(seq 1 ${FREC_FUZZ_ROUNDS:-110}); do
	for f in $files; do
		len=$((RANDOM % 48 + 1))
		# One write() of len bytes from a random place in the pool.
		if dd if=/tmp/pool of=$f bs=$len count=1 skip=$((RANDOM % 2000)) 2>/dev/null; then
			:
		else
			refused=$((refused + 1))
		fi
		n=$((n + 1))
	done
done
echo "# $n writes, $refused refused"
[ $refused -gt $((n / 2)) ] || fail "most random writes should be refused"
echo > $D/filter
echo 1 > $D/enable
cat $D/dump > /tmp/after
diff /tmp/before /tmp/after || fail "records changed"
rmmod frec_hanoi
frec_unload
