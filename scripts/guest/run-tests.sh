#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every test in /frec/tests inside the guest and prints TAP.
#
# A test is a small shell script (one file per test, like the kernel's
# tools/testing/selftests/ftrace) with header lines:
#   # description: what it checks            (required)
#   # requires: kunit|9p                     (optional; else SKIP)
#   # expect: splat                          (optional; a kernel splat inside
#                                             this test is expected)
#   # timeout: SECONDS                       (optional; default
#                                             FREC_TEST_TIMEOUT, 120)
#   # boot: twice                            (optional; runs alone, twice:
#                                             FREC_PHASE=1 in the first boot,
#                                             which the test ends with a
#                                             reset, FREC_PHASE=2 in the boot
#                                             after it; guest-run.sh)
#   # phases: N                              (optional, with boot: twice:
#                                             N boots, FREC_PHASE=1 to N;
#                                             default 2)
# It passes by exiting 0, fails by exiting non-zero, and is skipped by
# exiting 4 (like kselftest's KSFT_SKIP); after its timeout it is killed
# and fails.  Its output becomes TAP
# diagnostics.  Begin and end markers go to the kernel log so that the host
# can tell which test a splat on the console belongs to.
. /frec/run.conf

timeout_s=${FREC_TEST_TIMEOUT:-120}
# Only to test the bench's rerun after an emulator fault (guest-run.sh,
# FREC_GUEST_TEST_STALE_INT3): the first test of this boot dies as a
# stale int3 kills a guest, with the oops's first lines in the log, while
# another task floods the log.
fake_stale_int3=
grep -qw frec_test_stale_int3 /proc/cmdline && fake_stale_int3=1
# Only to test that a panic's lines reach the console (guest-run.sh,
# FREC_GUEST_TEST_NMI_PANIC): the first test of this boot panics in an
# NMI, where printk only stores its lines for panic()'s console flush.
nmi_panic=
grep -qw frec_test_nmi_panic /proc/cmdline && nmi_panic=1
# Only to test the rerun after the spinning form of that fault
# (FREC_GUEST_TEST_INT3_SPIN): the first test of this boot logs a stall
# report's backtrace of a vCPU in an int3 memory no longer holds, twice,
# and then holds its CPU until the watchdog panics (softlockup_panic=1).
int3_spin=
grep -qw frec_test_int3_spin /proc/cmdline && int3_spin=1
# A "# boot: twice" test: which boot this is, from the words guest-run.sh's
# memmap= keeps in a page out of RAM (0 in a fresh QEMU): the magic
# 0x46524543 at the page's start once phase 1 began, and at +4 the
# number of the last phase begun.  A test of N boots ("# phases: N",
# default 2) runs phases 1 to N; every phase but the last ends its boot
# with a reset.  Those phases' output is streamed, as their reset leaves
# no time to print it after, and their boots print no TAP header: the
# last phase's run gives the test's result.  Each phase says "# phase K
# of TEST" when it begins: the host counts these against the boots the
# console shows, to find a boot that hung before its runner started.
phase_mark=$(sed -n 's/.*frec_phase_mark=\(0x[0-9a-f]*\).*/\1/p' /proc/cmdline)
export FREC_PHASE=
if [ -n "$phase_mark" ] && [ ! -c /dev/mem ]; then
	# A kernel without /dev/mem (the debug one) cannot keep the word.
	echo "TAP version 13"
	echo "1..1"
	t=$(echo /frec/tests/*.sh)
	echo "not ok 1 $(basename "$t" .sh) - # no /dev/mem for the phase word of a '# boot: twice' test"
	echo "# frec-guest-done"
	: > /tmp/.frec-poweroff
	exit 0
fi
phase_last=
if [ -n "$phase_mark" ]; then
	t=$(echo /frec/tests/*.sh)
	phases=$(sed -n 's/^# phases: \([0-9][0-9]*\)$/\1/p' "$t")
	phases=${phases:-2}
	if [ "$(devmem "$phase_mark" 32)" = 0x46524543 ]; then
		FREC_PHASE=$(($(devmem $((phase_mark + 4)) 32) + 1))
	else
		FREC_PHASE=1
		devmem "$phase_mark" 32 0x46524543
	fi
	devmem $((phase_mark + 4)) 32 "$FREC_PHASE"
	# Only to test the host's check of a later boot that hangs
	# (guest-run.sh, FREC_GUEST_TEST_REBOOT_HANG): this runner never
	# starts, as if the kernel had hung before it.
	if [ "$FREC_PHASE" -gt 1 ] && grep -qw frec_test_reboot_hang /proc/cmdline; then
		echo "frec-test: hanging the runner of phase $FREC_PHASE (frec_test_reboot_hang)" > /dev/kmsg
		while :; do sleep 1; done
	fi
	if [ "$FREC_PHASE" -ge "$phases" ]; then
		phase_last="# phase $FREC_PHASE of $(basename "$t" .sh), the last"
		devmem "$phase_mark" 32 0
		# No further boot: init powers off, which ends QEMU.
		: > /tmp/.frec-poweroff
	else
		echo "# phase $FREC_PHASE of $(basename "$t" .sh)"
		# The begin marker names the test alone: a splat here is its.
		echo "frec-test: begin $(basename "$t" .sh)" > /dev/kmsg
		# Kept too: a phase that failed says why on its result line.
		# Under the test's timeout as its last phase is: a chained
		# test (frec_chain) checks a step in each phase, and a check
		# that hangs must end, and say where, before the boot's own
		# timeout ends QEMU.
		limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$t")
		(cd /tmp && timeout "${limit:-$timeout_s}" sh "$t"; echo "$?" > /tmp/.frec-test.rc) 2>&1 |
			tee /tmp/.frec-test.out | while IFS= read -r l; do echo "# $l"; done
		why=$(grep '^FAIL: ' /tmp/.frec-test.out | tail -n 1)
		[ "$(cat /tmp/.frec-test.rc)" = 143 ] && why="timed out after ${limit:-$timeout_s}s"
		echo "# phase $FREC_PHASE of $(basename "$t" .sh) returned without a reset"
		echo "not ok 1 $(basename "$t" .sh) - phase $FREC_PHASE did not reset the guest${why:+: $why}"
		echo "# frec-guest-done"
		: > /tmp/.frec-poweroff
		exit 0
	fi
fi
set -- /frec/tests/*.sh
echo "TAP version 13"
echo "1..$#"
echo "# kernel: $(uname -r) ($FREC_KERNEL), cpus: $(nproc)"
[ -z "$phase_last" ] || echo "$phase_last"
i=0
for t in "$@"; do
	i=$((i + 1))
	name=$(basename "$t" .sh)
	desc=$(sed -n 's/^# description: //p' "$t")
	reqs=$(sed -n 's/^# requires: //p' "$t")
	limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$t")
	limit=${limit:-$timeout_s}
	missing=
	for r in $reqs; do
		case $r in
		kunit)	[ -d /sys/kernel/debug/kunit ] || missing="$missing kunit" ;;
		9p)	[ -d /host/usr ] || missing="$missing 9p" ;;
		*)	missing="$missing $r" ;;
		esac
	done
	if [ -n "$missing" ]; then
		echo "ok $i $name # SKIP needs$missing"
		continue
	fi
	echo "frec-test: begin $name" > /dev/kmsg
	if [ -n "$nmi_panic" ]; then
		insmod /frec/modules/frec.ko
		insmod /frec/modules/frec_crash_test.ko
		echo nmi-panic > /sys/module/frec_crash_test/parameters/trigger
	fi
	if [ -n "$int3_spin" ]; then
		for n in 1 2; do
			echo "NMI backtrace for cpu 1 (made by run-tests.sh)" > /dev/kmsg
			echo " asm_exc_int3+0x35/0x40" > /dev/kmsg
			echo "RIP: 0010:frec_fake_spin+0x0/0x10" > /dev/kmsg
			echo "Code: 90 90 90 <0f> 1f 44 00 00" > /dev/kmsg
		done
		insmod /frec/modules/frec.ko
		insmod /frec/modules/frec_crash_test.ko
		echo lockup > /sys/module/frec_crash_test/parameters/trigger
	fi
	if [ -n "$fake_stale_int3" ]; then
		# The console kept busy meanwhile, as 0009's refusals kept it:
		# a death must still leave its oops on the console.
		(i=0; while :; do
			echo "frec-test: console load $i, a line as long as a refusal's ........................" > /dev/kmsg
			i=$((i + 1))
		done) &
		sleep 1
		echo "Oops: int3: 0000 [#1] SMP NOPTI (made by run-tests.sh)" > /dev/kmsg
		echo "RIP: 0010:frec_fake_site+0x1/0x10" > /dev/kmsg
		echo "Code: 90 90 e9 <3a> 02 00 00" > /dev/kmsg
		echo 1 > /proc/sys/kernel/panic_on_oops
		echo c > /proc/sysrq-trigger
	fi
	# Into a file, not a pipe: a process the test left behind (say, one
	# stuck in D state after a timeout) would hold a pipe open, and the
	# whole run would wait for it.
	(cd /tmp && timeout "$limit" sh "$t") > /tmp/.frec-test.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/.frec-test.out
	if [ $rc = 143 ]; then
		# What the test left (not kernel threads), then kill it.
		left=$(ps -o pid,stat,args | awk \
			'NR > 1 && $3 !~ /^\[/ && $1 != 1 && !/run-tests\.sh/')
		echo "# timed out; killing what it left:"
		echo "$left" | sed 's/^/#   /'
		for pid in $(echo "$left" | awk '{ print $1 }'); do
			kill -KILL "$pid" 2> /dev/null
		done
	fi
	echo "frec-test: end $name rc=$rc" > /dev/kmsg
	case $rc in
	0)	echo "ok $i $name - $desc" ;;
	4)	echo "ok $i $name # SKIP $desc" ;;
	143)	echo "not ok $i $name - $desc # TIMEOUT after ${limit}s" ;;
	*)	# The test's own reason goes on the result line, which is
		# all a CI summary shows of a failure.
		why=$(grep '^FAIL: ' /tmp/.frec-test.out | tail -n 1)
		echo "not ok $i $name - $desc # exit $rc${why:+: $why}" ;;
	esac
done
echo "# frec-guest-done"
