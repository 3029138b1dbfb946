#!/bin/sh
# description: insmod frec.ko creates /sys/kernel/debug/frec with a version file
# kernels: 6.1 6.12 6.12-rt arm64-6.1 arm64-6.12
. /frec/guest/lib.sh
frec_reset
frec_load
frec_loaded || fail "frec not in /proc/modules after insmod"
[ -d "$FREC_DEBUGFS" ] || fail "$FREC_DEBUGFS missing"
v=$(cat "$FREC_DEBUGFS/version") || fail "cannot read version"
echo "version: $v"
case $v in
"frec api "[0-9]*.[0-9]*" raw-format "[0-9]*) ;;
*) fail "unexpected version line: $v" ;;
esac
mode=$(stat -c %a "$FREC_DEBUGFS/version")
[ "$mode" = 400 ] || fail "version mode is $mode, want 400"
frec_unload
