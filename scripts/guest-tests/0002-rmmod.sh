#!/bin/sh
# description: rmmod frec removes /sys/kernel/debug/frec and everything in it
. /frec/guest/lib.sh
frec_reset
frec_load
[ -d "$FREC_DEBUGFS" ] || fail "$FREC_DEBUGFS missing after insmod"
frec_unload
frec_loaded && fail "frec still in /proc/modules after rmmod"
[ -e "$FREC_DEBUGFS" ] && fail "$FREC_DEBUGFS still there after rmmod"
exit 0
