#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What `make demo` shows: load frec in the guest and look around.
. /frec/guest/lib.sh
echo "== guest kernel $(uname -r), $(nproc) CPUs"
echo "== insmod frec.ko"
frec_load
dmesg | grep -i frec | tail -n 5
echo "== ls -l $FREC_DEBUGFS"
ls -l "$FREC_DEBUGFS"
echo "== cat $FREC_DEBUGFS/version"
cat "$FREC_DEBUGFS/version"
echo "== rmmod frec"
frec_unload
echo "== demo done"
