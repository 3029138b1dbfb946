#!/bin/sh
# description: a kprobe on __frec_record() whose handler records into another ring (armed after a failed registration, and not), while every CPU records from task and hard IRQ: no crash, the handler's records are stored, its recursion into frec is bounded; writers stop before the kprobe goes (the kernel's own bug, see doc)
# timeout: 200
. /frec/guest/lib.sh
# Debian's 6.1 kernel has the bug scripts/repro/kprobe-race/ reproduces
# without frec: with an ftrace-based kprobe armed on a function other
# modules call, ftrace's code patching (a kprobe going, a module going)
# can send the caller to address 0.  This test met it on the 6.1 debug
# kernel ("RIP: 0010:0x0", kprobe_int3_handler, while frec_stress went);
# the reproducer runs clean on 6.12, where this test runs.
case $(uname -r) in
6.1.*) skip "Debian 6.1's kprobe/ftrace patching bug (scripts/repro/kprobe-race/), not frec's" ;;
esac
frec_reset
frec_load
D=$FREC_DEBUGFS
for ff in 1 0; do
	insmod "$FREC_MODULES/frec_stress.ko" period_us=100 || fail "insmod frec_stress.ko"
	insmod "$FREC_MODULES/frec_kprobe_test.ko" fail_first=$ff ||
		fail "insmod frec_kprobe_test.ko fail_first=$ff"
	sleep 2
	# Removing a kprobe while another module calls the probed function
	# crashes Debian's 6.1 kernel, frec or not: stop the writers first.
	rmmod frec_stress || fail "rmmod frec_stress"
	hits=$(cat /sys/module/frec_kprobe_test/parameters/hits)
	rmmod frec_kprobe_test || fail "rmmod frec_kprobe_test"
	echo "# fail_first=$ff: $hits probe hits"
	[ "$hits" -gt 100 ] || fail "the probe ran only $hits times"
done
n=$(grep -c ' kprobe_probe: .* probe hit on cpu' $D/dump)
echo "# $n records from the probe handler kept"
[ "$n" -gt 0 ] || fail "no record from the probe handler"
grep -q ' stress: ' $D/dump || fail "no record from the writers"
frec_unload
