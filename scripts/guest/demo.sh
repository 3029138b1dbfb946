#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What `make demo` shows: frec and the Hanoi sample client in a guest.
. /frec/guest/lib.sh
D=$FREC_DEBUGFS
echo "== guest kernel $(uname -r), $(nproc) CPUs"
echo "== insmod frec.ko; insmod frec_hanoi.ko disks=4 calls=1"
frec_load
insmod "$FREC_MODULES/frec_hanoi.ko" disks=4 calls=1 || fail "insmod frec_hanoi.ko"
dmesg | grep -i frec_hanoi | tail -n 2
echo "== ls $D $D/rings"
ls "$D" "$D/rings"
echo "== cat $D/dump"
cat "$D/dump"
echo "== echo 'ring=hanoi_moves text=disk 4' > $D/filter; cat $D/dump"
echo 'ring=hanoi_moves text=disk 4' > "$D/filter"
cat "$D/dump"
echo > "$D/filter"
echo "== cat $D/rings/hanoi_moves/stats"
cat "$D/rings/hanoi_moves/stats"
echo "== head -n 3 $D/formats"
head -n 3 "$D/formats"
echo "== rmmod frec_hanoi; the records stay"
rmmod frec_hanoi
grep -c hanoi_moves "$D/dump"
frec_unload
echo "== demo done"
