#!/bin/sh
# description: with 256 possible CPUs and 130 rings, a dump's merge state (rings x possible CPUs) is megabytes: it is allocated without a splat and the dump shows every ring's record
# kernels: 6.1 6.12
# can-run: 6.1 6.12 6.12-rt
# cmdline: possible_cpus=256
# boot: alone
. /frec/guest/lib.sh
frec_reset
frec_load default_ring_bytes=4096
D=$FREC_DEBUGFS
echo "# possible CPUs: $(cat /sys/devices/system/cpu/possible)"
[ "$(cat /sys/devices/system/cpu/possible)" = 0-255 ] || skip "possible_cpus=256 not honoured"
insmod "$FREC_MODULES/frec_stress.ko" period_us=1000 threads=0 ticks=1 extra_rings=128 ||
	fail "insmod frec_stress.ko"
cat $D/dump > /tmp/dump || fail "cat dump"
[ "$(grep -c ' stress_extra_[0-9]*: .* extra ring [0-9]*$' /tmp/dump)" = 128 ] ||
	fail "$(grep -c ' stress_extra_' /tmp/dump) of 128 extra rings' records"
cat $D/raw > /tmp/raw || fail "cat raw"
cat $D/formats > /tmp/formats || fail "cat formats"
rmmod frec_stress
frec_unload
