#!/bin/sh
# description: frec.ko carries the version of the tree that built it (VERSION, MODULE_VERSION), in /sys/module/frec/version and modinfo
# kernels: 6.1
# requires: 9p
. /frec/guest/lib.sh
. /frec/run.conf
frec_reset
want=$(cat "/host$FREC_HOST_TREE/VERSION") || fail "cannot read VERSION over 9p"
[ -n "$want" ] || fail "VERSION is empty"
frec_load
got=$(cat /sys/module/frec/version) || fail "no /sys/module/frec/version"
echo "VERSION $want, /sys/module/frec/version $got, kernel $(uname -r)"
[ "$got" = "$want" ] || fail "frec.ko says $got, the tree says $want"
frec_unload
