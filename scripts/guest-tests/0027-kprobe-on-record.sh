#!/bin/sh
# description: a kprobe on __frec_record() whose handler records into another ring (armed after a failed registration, and not), while every CPU records from task and hard IRQ: no crash, the handler's records are stored, its recursion into frec is bounded
# kernels: 6.1 6.12-rt debug
# timeout: 200
. /frec/guest/lib.sh
# The kprobe is armed before the writers start and removed after they
# stop.  Armed while every CPU ran __frec_record(), it met QEMU's
# stale-int3 fault (guest-run.sh, stale_int3_death) on 6.12 and 6.12-rt
# in one run: a vCPU ran the int3 ftrace plants while it rewrites the
# __fentry__ site, after the rewrite was done; kprobe_int3_handler()
# took it for the kprobe's and single-stepped a copy an ftrace-based
# kprobe does not have: RIP 0.  Crashes on the 6.1 kernels looked the
# same ("RIP: 0010:0x0 ... kprobe_int3_handler", the debug kernel's
# Code: line showing no int3 left), and scripts/repro/kprobe-race/
# crashed there without frec, with the kprobe removed while another
# module called the function; on 6.1 it is skipped.
case $(uname -r) in
6.1.*) skip "kprobe arming and removal under TCG crash Debian 6.1 without frec (scripts/repro/kprobe-race/)" ;;
esac
frec_reset
frec_load
D=$FREC_DEBUGFS
for ff in 1 0; do
	insmod "$FREC_MODULES/frec_kprobe_test.ko" fail_first=$ff ||
		fail "insmod frec_kprobe_test.ko fail_first=$ff"
	insmod "$FREC_MODULES/frec_stress.ko" period_us=100 || fail "insmod frec_stress.ko"
	sleep 2
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
