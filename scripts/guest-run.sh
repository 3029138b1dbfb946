#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a QEMU guest (TCG, no KVM) with frec's modules and run the guest
# tests or the demo in it.  Never loads anything into this machine's kernel.
#
#   guest-run.sh [-k stock|debug] [-m test|demo|shell] [-o OUT_DIR]
#                [-T TIMEOUT_S] [-M KO_DIR] [-x EXPORT_DIR] [TEST.sh ...]
#
#   -k  kernel: a stock Debian kernel (default) or the debug kernel built by
#       debug-kernel.sh (KUnit, lockdep, KASAN).  The stock kernel is
#       linux-image-amd64's unless FREC_KVER names another: 6.1, 6.12,
#       6.12-rt or a release (scripts/lib.sh, stock_kver_of), fetched by
#       stock-kernel.sh
#   -M  the modules (.ko, .ko.xz) to send: default, the stock kernel's
#       built in the tree (make modules), the debug kernel's in
#       build/debug/ko (make debug-modules); for another stock kernel,
#       scripts/build-modules.sh's OUT_DIR/ko
#   -x  export EXPORT_DIR (created if missing) to the guest, writable, at
#       /export: a second 9p share (QEMU -virtfs, mount tag "export",
#       security_model=none: the guest's files are created as the user
#       who runs this script).  The host's root stays read-only at /host;
#       /export is how the guest hands files to the host (make demo's
#       recording)
#   -m  test (default): run the tests and judge the logs; demo: run
#       scripts/guest/demo.sh and print its output; bench: run
#       scripts/guest/bench.sh (FREC_BENCH=cost|dump) and print its output;
#       shell: interactive
#
# FREC_GUEST_SMP (default 2) sets the vCPUs, FREC_GUEST_QEMU_ARGS adds
# QEMU options (scripts/bench.sh: -icount), FREC_GUEST_CMDLINE boot
# arguments.
#   -T  seconds the whole boot may take (FREC_GUEST_TIMEOUT, default
#       1500); each test has its own, shorter timeout (run-tests.sh); a
#       "# boot: twice" test's later boots must reach their runner within
#       FREC_GUEST_REBOOT_TIMEOUT (default 60) seconds (below)
#   TEST.sh  tests to run (default: all of scripts/guest-tests/*.sh); one
#            that declares "# expect: panic" (judge.sh) or "# boot: alone"
#            boots alone
#
# frec's modules must already be built for that kernel (make modules, or
# make debug-modules).  Logs: OUT_DIR/console.log (kernel console) and
# OUT_DIR/tap.log (test output); the verdict comes from judge.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kind=stock mode=test out= timeout_s=${FREC_GUEST_TIMEOUT:-1500} kodir_opt=
export_opt=() virtfs_export=()
while getopts k:m:o:T:M:x: opt; do
	case $opt in
	k) kind=$OPTARG ;;
	m) mode=$OPTARG ;;
	o) out=$OPTARG ;;
	T) timeout_s=$OPTARG ;;
	M) kodir_opt=$(cd "$OPTARG" && pwd) || die "no module directory $OPTARG" ;;
	x)
		mkdir -p "$OPTARG" || die "cannot create $OPTARG"
		export_opt=(-x "$(cd "$OPTARG" && pwd)")
		virtfs_export=(-virtfs "local,path=${export_opt[1]},mount_tag=export,security_model=none")
		;;
	*) die "usage: see the header of $0" ;;
	esac
done
shift $((OPTIND - 1))
out=${out:-$FREC_BUILD/guest-$kind-$mode}
mkdir -p "$out"
out=$(cd "$out" && pwd)

arch=x86
case $kind in
stock)
	stock=$("$FREC_ROOT/scripts/stock-kernel.sh")
	kernel=$stock/vmlinuz
	arch=$(stock_arch "$(ls "$stock/lib/modules")")
	kodir=$FREC_ROOT/kmod
	extra=(-s "$stock")
	;;
debug)
	kdir=$("$FREC_ROOT/scripts/debug-kernel.sh" | tail -n 1)
	kernel=$kdir/arch/x86/boot/bzImage
	kodir=$FREC_BUILD/debug/ko
	# The guest finds kernel headers here (bpftrace: no BTF in this kernel).
	extra=(-K "$kdir")
	;;
*)	die "unknown kernel '$kind' (stock or debug)" ;;
esac
[ -f "$kernel" ] || die "no kernel image at $kernel"

# Every .ko the build made for this kernel goes to the guest's /frec/modules.
if [ -n "$kodir_opt" ]; then
	kodir=$kodir_opt
elif [ "$kind" = stock ]; then
	kodir=$out/ko
	rm -rf "$kodir"
	mkdir -p "$kodir"
	find "$FREC_ROOT/kmod" "$FREC_ROOT/kunit" "$FREC_BUILD/null_blk" -name '*.ko' \
		-exec cp {} "$kodir/" \; 2>/dev/null || true
fi
frec_ko=$(ls "$kodir"/frec.ko* 2>/dev/null | head -n 1)
[ -n "$frec_ko" ] ||
	die "frec.ko for the $kind kernel is not built (make modules / make debug-modules)"
if [ "$kind" = stock ]; then
	# A module built for another kernel would only fail in the guest.
	kver=$(ls "$stock/lib/modules")
	vermagic=$(modinfo -F vermagic "$frec_ko")
	[ "${vermagic%% *}" = "$kver" ] ||
		die "$frec_ko is built for ${vermagic%% *}, the guest boots $kver (FREC_KVER, -M)"
fi

if [ $# -eq 0 ]; then
	set -- "$FREC_ROOT"/scripts/guest-tests/*.sh
fi

# A test that ends in a panic ("# expect: panic"), or that leaves the
# kernel unfit for the tests after it ("# boot: alone", e.g. an oops that
# killed a workqueue worker), or that needs the guest to reset and boot
# again ("# boot: twice", below), gets a boot of its own, with its
# "# cmdline:" added to the kernel's command line and its "# qemu:" (say,
# a device) to QEMU's; its logs go to OUT_DIR/NAME/.
alone_re='^# (expect: panic|boot: (alone|twice))$'
if [ "$mode" = test ] && [ -z "${FREC_GUEST_ALONE:-}" ] &&
	grep -lE "$alone_re" "$@" > /dev/null 2>&1; then
	normal=() alone=() rc=0
	for t in "$@"; do
		if grep -qE "$alone_re" "$t"; then alone+=("$t"); else normal+=("$t"); fi
	done
	if [ ${#normal[@]} -gt 0 ]; then
		"$0" -k "$kind" -m test -o "$out" -T "$timeout_s" -M "$kodir" "${export_opt[@]}" "${normal[@]}" || rc=1
	fi
	for t in "${alone[@]}"; do
		FREC_GUEST_ALONE=1 \
		FREC_GUEST_CMDLINE="${FREC_GUEST_CMDLINE:-} $(sed -n 's/^# cmdline: //p' "$t")" \
		FREC_GUEST_QEMU_ARGS="${FREC_GUEST_QEMU_ARGS:-} $(sed -n 's/^# qemu: //p' "$t")" \
			"$0" -k "$kind" -m test -o "$out/$(basename "$t" .sh)" -T "$timeout_s" \
				-M "$kodir" "${export_opt[@]}" "$t" || rc=1
	done
	exit $rc
fi
: > "$out/tests.list"
targs=()
if [ "$mode" = test ]; then
	for t in "$@"; do
		[ -f "$t" ] || die "no test $t"
		echo "$t" >> "$out/tests.list"
		targs+=(-t "$t")
	done
fi

"$FREC_ROOT/scripts/mkinitramfs.sh" -o "$out/initramfs.cpio.gz" -k "$kind" -m "$mode" \
	-M "$kodir" "${extra[@]}" "${targs[@]}"

# tsc=reliable: with 2 vCPUs under TCG the guest otherwise marks the TSC
# unstable and falls back to HPET.  panic=-1 with -no-reboot turns a panic
# into a QEMU exit once the kernel has flushed its console.  No pvpanic
# device: its panic notifier runs first in the chain (priority INT_MAX),
# before panic() flushes the consoles, and QEMU's exit on its event cut
# the console short: a guest that died in 0009 on 6.12 left neither its
# oops nor "Kernel panic" on the console (judge.sh finds a panic on the
# console).  softlockup_panic=1: a CPU held for 20 s (a vCPU spinning on
# a stale int3, stale_int3_death below) ends the boot at once, not at the
# boot's timeout.  no_timer_check: the kernel's check that the timer
# interrupt works counts ticks over a delay loop, and a TCG vCPU slowed by
# a loaded host misses them: "IO-APIC + timer doesn't work!" panicked 2
# of 4 boots of 0046 on 2026-11-29 while two module builds ran beside it;
# QEMU's timer does work.
cmdline="console=ttyS0 panic=-1 softlockup_panic=1 tsc=reliable no_timer_check loglevel=7 ${FREC_GUEST_CMDLINE:-}"
serial_tap=(-serial "file:$out/tap.log")
qemu=(qemu-system-x86_64)
# An arm64 kernel (FREC_KVER=arm64-6.1, arm64-6.12) boots in QEMU's virt
# machine: GICv3, a Cortex-A57 (ARMv8.0: what TCG runs fastest; "max"
# adds pointer authentication, which TCG computes in software), its one
# serial port (PL011, ttyAMA0) the kernel console's, the TAP on a virtio
# console port (/dev/hvc0 in the guest, FREC_TAP in run.conf).  The 9p
# shares are virtio-pci, as on x86.
if [ "$arch" = arm64 ]; then
	cmdline="console=ttyAMA0 panic=-1 softlockup_panic=1 loglevel=7 ${FREC_GUEST_CMDLINE:-}"
	# shellcheck disable=SC2054  # QEMU's option syntax: commas inside a word
	serial_tap=(-device virtio-serial-pci -chardev "file,id=frectap,path=$out/tap.log"
		-device virtconsole,chardev=frectap)
	# shellcheck disable=SC2054  # as above
	qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu cortex-a57)
fi
[ "$mode" = shell ] && serial_tap=()
# console.txt is judge.sh's text of console.log: a run in a directory
# used before must not be judged by the last run's console.
rm -f "$out/console.log" "$out/tap.log" "$out/console.txt"
set +e
if [ "$mode" = shell ]; then
	"${qemu[@]}" -accel tcg -m 1024 -smp 2 -nodefaults -no-user-config \
		-kernel "$kernel" -initrd "$out/initramfs.cpio.gz" -append "$cmdline" \
		-display none -serial mon:stdio -no-reboot \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		"${virtfs_export[@]}"
	exit
fi
# One guest at a time on this machine: two TCG guests on two cores run
# slowly enough to time out.  Anything else booting guests (another clone,
# make bench) takes the same lock; FREC_GUEST_LOCK names it.
exec 8> "${FREC_GUEST_LOCK:-/tmp/frec-guest-inner.lock}"
if ! flock -n 8; then
	note "waiting for another guest to finish"
	flock 8
fi
# boot_died_early DIR: did the boot whose logs are in DIR die before its
# first test began?  True if no test began (no "frec-test: begin" on the
# console, no result in the TAP) and the kernel oopsed or panicked, or the
# test runner never started; prints what killed it.  Such a death is not
# frec's: no test had loaded it (e.g. the 6.12 stock kernel, one boot in
# 18 under TCG: "Oops: int3" in sched_clock_cpu() at 2.7 s, a code-patching
# race), and the boot is tried once more.
boot_died_early() {
	local d=$1 why t rip
	grep -q 'frec-test: begin' "$d/console.log" 2>/dev/null && return 1
	grep -qE '^(not )?ok [0-9]|^# frec-guest-done' "$d/tap.log" 2>/dev/null && return 1
	why=$(tr -d '\r' < "$d/console.log" 2>/dev/null |
		grep -m1 -E 'Oops|BUG:|Kernel panic|general protection fault|kernel BUG at')
	if [ -n "$why" ]; then
		t=$(sed -nE 's/^\[ *([0-9]+\.[0-9]).*/\1/p' <<< "$why")
		rip=$(tr -d '\r' < "$d/console.log" | grep -m1 -oE 'RIP: [0-9]+:[^ ]+|RIP: [^ ]+\+0x[0-9a-f]+' | sed -E 's/^RIP: [0-9]+:/RIP: /')
		why=$(sed -E 's/^\[ *[0-9.]+\] //' <<< "$why")
		echo "${why:0:100}${t:+ at $t s}${rip:+, $rip}"
	elif ! grep -q '^TAP version' "$d/tap.log" 2>/dev/null; then
		echo "the test runner never started; QEMU exited $(cat "$d/qemu.rc")"
	else
		return 1
	fi
}

# A boot can also hang before its runner starts (seen on the debug
# kernel: virtio-pci left without an interrupt, "PCI INT A: no GSI", and
# /init waiting on the 9p mount for ever): a boot whose runner has not
# written its first line within FREC_GUEST_START_TIMEOUT seconds (default
# 300 for the debug kernel, 60 for a stock one, which reaches its runner
# in about 4 s; seen on 6.1 on 2026-11-29: a boot stopped at 2.2 s,
# "Loading compiled-in X.509 certificates", both vCPUs at one RIP with
# interrupts off, and waited the whole 300 s) is killed and counts as one
# that died early.
start_default=300
[ "$kind" = stock ] && start_default=60
start_timeout=${FREC_GUEST_START_TIMEOUT:-$start_default}
# The page of a "# boot: twice" test's phase word: in the guest's RAM
# (-m 1024), away from where QEMU loads the kernel and the initramfs (its
# top); a test's own memmap= must not overlap it.
phase_mark=0x1ff00000
# On arm64 (RAM at 0x40000000 on virt) the first page above mem=1023M,
# in the last MiB of the guest's RAM; QEMU loads the kernel, the DTB and
# the initramfs near RAM's start.
phase_mark_arm64=0x7ff00000
# A "# boot: twice" test's later boots (a reset, then the kernel again)
# must reach their runner within FREC_GUEST_REBOOT_TIMEOUT seconds
# (default 60; a boot takes about 3 s to its runner under TCG here), or
# the run counts as hung and is booted once more from its first phase.
# Seen on 6.1: after 0041's panic=1 reboot the second boot stopped at
# 0.96 s with both vCPUs spinning, and only the boot's timeout ended it.
reboot_timeout=${FREC_GUEST_REBOOT_TIMEOUT:-60}

# monitor_cmd CMD...: each CMD to the QEMU monitor of a "# boot: twice"
# test's QEMU (its socket, monitor_sock), in one session; prints the
# answers.
monitor_cmd() {
	python3 - "$monitor_sock" "$@" <<-'PY'
	import socket, sys, time
	s = socket.socket(socket.AF_UNIX)
	s.connect(sys.argv[1])
	s.settimeout(2)
	for cmd in sys.argv[2:]:
	    s.sendall(cmd.encode() + b"\n")
	    time.sleep(0.5)
	out = b""
	try:
	    while True:
	        b = s.recv(65536)
	        if not b:
	            break
	        out += b
	except socket.timeout:
	    pass
	sys.stdout.write(out.decode(errors="replace"))
	PY
}

# twice_watch: one look at a running "# boot: twice" test (globals of the
# loop below).  Sends QEMU's system_reset for each "frec-host:
# system_reset" line the guest wrote to the TAP port (a test of that way
# down asks for it so), and fails (sets hung) when a boot after the first
# has not started its runner within reboot_timeout seconds, or when the
# guest booted more often than the test has phases (a panic in its last
# phase, which would start phase 1 again).
twice_watch() {
	local n b r last
	# The serial port ends the guest's lines with \r\n.
	n=$(tr -d '\r' < "$out/tap.log" | grep -c '^# frec-host: system_reset$')
	if [ "$n" -gt "$resets_sent" ]; then
		monitor_cmd system_reset > /dev/null ||
			note "could not send system_reset to $monitor_sock"
		resets_sent=$n
	fi
	b=$(tr -d '\r' < "$out/console.log" | grep -c '^\[ *0\.000000\] Linux version ')
	r=$(tr -d '\r' < "$out/tap.log" | grep -cE '^# phase [0-9]+ of ')
	if [ "$b" -gt "$phases" ]; then
		hung="the guest booted $b times, the test has $phases phases" looped=1
	elif [ "$b" -gt "$r" ] && [ "$b" -gt 1 ]; then
		[ "$boot_began" = "$b" ] || { boot_began=$b began_at=$waited; }
		[ $((waited - began_at)) -lt "$reboot_timeout" ] && return
		last=$(tr -d '\r' < "$out/console.log" | grep -v '^$' | tail -n 1)
		hung="its boot $b had not started the runner after $reboot_timeout s; last console line: ${last:0:100}"
	fi
}
rerun=${FREC_GUEST_RERUN:-0}	# which rerun this is (below)
boot=1
rm -rf "$out/boot1" "$out/boots.log"
while :; do
	rm -f "$out/console.log" "$out/tap.log" "$out/qemu.rc" "$out/console.txt"
	bootline=$cmdline
	# Only to test the retry itself: boot 1 panics before /init.
	[ $boot = 1 ] && [ -n "${FREC_GUEST_TEST_EARLY_DEATH:-}" ] && bootline="$cmdline rdinit=/frec-none"
	# Only to test the rerun: boot 1's first test dies as a stale int3 does.
	[ $boot = 1 ] && [ -n "${FREC_GUEST_TEST_STALE_INT3:-}" ] && [ "$rerun" = 0 ] &&
		bootline="$cmdline frec_test_stale_int3"
	# Only to test the rerun after a soft lockup on a stale int3: boot 1's
	# first test logs one and holds its CPU.
	# watchdog_thresh=2: the watchdog calls it a soft lockup after 4 s,
	# not 20.
	[ $boot = 1 ] && [ -n "${FREC_GUEST_TEST_INT3_SPIN:-}" ] && [ "$rerun" = 0 ] &&
		bootline="$cmdline frec_test_int3_spin watchdog_thresh=2"
	# Only to test that a panic's lines reach the console: boot 1's first
	# test panics in an NMI.
	[ $boot = 1 ] && [ -n "${FREC_GUEST_TEST_NMI_PANIC:-}" ] && bootline="$cmdline frec_test_nmi_panic"
	# Only to test the check of a later boot that hangs: the runner of
	# boot 1's second boot (a "# boot: twice" test's) never starts.
	[ $boot = 1 ] && [ -n "${FREC_GUEST_TEST_REBOOT_HANG:-}" ] && bootline="$bootline frec_test_reboot_hang"
	# A "# boot: twice" test (alone in its boot) resets the guest in its
	# phase 1 (sysrq-b, a panic with panic=N, ...) and checks in phase 2,
	# in the boot that follows, what memory kept: QEMU keeps guest RAM
	# across a reset the guest causes, so this QEMU must not exit on it
	# (no -no-reboot).  The guest tells the boots apart by a word in a
	# page memmap= keeps out of its RAM (run-tests.sh), which a fresh
	# QEMU's zeroed RAM starts at 0, and ends phase 2 with a power-off.
	# Its QEMU has a monitor on a socket: the host sends
	# system_reset when the guest asks (twice_watch), and reads the vCPUs'
	# registers when a boot hangs.
	noreboot=(-no-reboot) monitor=(-monitor none) twice= phases=1
	if [ -n "${FREC_GUEST_ALONE:-}" ] && [ "$mode" = test ] &&
		grep -q '^# boot: twice$' "$1"; then
		noreboot=() twice=1
		phases=$(sed -n 's/^# phases: \([0-9][0-9]*\)$/\1/p' "$1")
		phases=${phases:-2}
		rm -f "$out/hang-registers.log"
		# In /tmp: a socket's path has at most 107 bytes, OUT_DIR's
		# may be longer.
		monitor_sock=$(mktemp -u /tmp/frec-monitor.XXXXXX)
		monitor=(-monitor "unix:$monitor_sock,server,nowait")
		if [ "$arch" = arm64 ]; then
			# arm64 has no memmap=: mem= ends RAM (which starts at
			# 1 GiB on virt) 1 MiB below its top, where the page is.
			bootline="$bootline mem=1023M frec_phase_mark=$phase_mark_arm64"
		else
			bootline="$bootline memmap=4K\$${phase_mark} frec_phase_mark=$phase_mark"
		fi
	fi
	start=$(date +%s.%N)
	# shellcheck disable=SC2086  # FREC_GUEST_QEMU_ARGS: words on purpose
	{
		timeout --foreground -k 10 "$timeout_s" "${qemu[@]}" -accel tcg -m 1024 \
			-smp "${FREC_GUEST_SMP:-2}" ${FREC_GUEST_QEMU_ARGS:-} \
			-nodefaults -no-user-config \
			-kernel "$kernel" -initrd "$out/initramfs.cpio.gz" -append "$bootline" \
			-display none "${monitor[@]}" "${noreboot[@]}" \
			-serial "file:$out/console.log" "${serial_tap[@]}" \
			-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
			"${virtfs_export[@]}" \
			> "$out/qemu.log" 2>&1 < /dev/null
		echo $? > "$out/qemu.rc"
	} &
	qemu_job=$!
	waited=0 hung= looped= resets_sent=0 boot_began=1 began_at=0
	while kill -0 "$qemu_job" 2>/dev/null; do
		if [ ! -s "$out/tap.log" ]; then
			if [ "$waited" -ge "$start_timeout" ]; then
				last=$(tr -d '\r' < "$out/console.log" 2>/dev/null | grep -v '^$' | tail -n 1)
				hung="the runner had not started after $start_timeout s; last console line: ${last:0:100}"
			fi
		elif [ -n "$twice" ]; then
			twice_watch
		else
			break
		fi
		if [ -n "$hung" ]; then
			# Where the vCPUs were, for the note below.
			if [ -n "$twice" ]; then
				monitor_cmd 'info registers -a' 'cpu 0' 'x/12i $pc' \
					'x/16gx $rsp' 'cpu 1' 'x/12i $pc' 'x/16gx $rsp' \
					> "$out/hang-registers.log" 2>&1
				# Each vCPU's RIP, whether it takes
				# interrupts (RFLAGS.IF, 0x200) and halted.
				hung="$hung; vCPUs: $(tr -d '\r' < "$out/hang-registers.log" | sed -nE \
					's/^RIP=([0-9a-f]+) RFL=([0-9a-f]+) .* HLT=([01]).*/\1 \2 \3/p' |
					while read -r rip rfl hlt; do
						printf 'RIP %s IF=%d HLT=%s, ' "$rip" $(((0x$rfl >> 9) & 1)) "$hlt"
					done | sed 's/, $//')"
			fi
			pkill -f -- "-initrd $out/initramfs.cpio.gz" 2>/dev/null
			break
		fi
		sleep 1
		waited=$((waited + 1))
	done
	wait "$qemu_job"
	[ -z "$twice" ] || rm -f "$monitor_sock"
	end=$(date +%s.%N)
	note "$kind guest ran in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s (logs in $out)"
	[ "$mode" = test ] || break
	if [ -n "$hung" ]; then
		why=$hung
	else
		why=$(boot_died_early "$out") || break
	fi
	# Said on stdout as a NOTE line (check.sh shows it), and kept in
	# OUT_DIR/boots.log; the dead boot's logs go to OUT_DIR/boot1/.
	# A "# boot: twice" test whose later boot hung had begun: it is run
	# again from its first phase, in a fresh QEMU.
	what="died before the first test"
	[ -n "$twice" ] && [ -n "$hung" ] && [ "$boot_began" -gt 1 ] && what="hung"
	if [ -n "$looped" ]; then
		echo "NOTE guest: $why: a failure" | tee -a "$out/boots.log"
		break
	fi
	if [ $boot = 1 ]; then
		rm -rf "$out/boot1" && mkdir "$out/boot1"
		mv "$out/console.log" "$out/tap.log" "$out/qemu.log" "$out/qemu.rc" "$out/boot1/"
		[ ! -f "$out/hang-registers.log" ] || mv "$out/hang-registers.log" "$out/boot1/"
		echo "NOTE guest: boot 1 $what ($why): retrying (see $out/boot1/console.log)" |
			tee -a "$out/boots.log"
		boot=2
		continue
	fi
	echo "NOTE guest: boot 2 $what too ($why): a failure" | tee -a "$out/boots.log"
	break
done
set -e

if [ "$mode" = demo ] || [ "$mode" = bench ]; then
	cat "$out/tap.log"
	exit "$(cat "$out/qemu.rc")"
fi

# stale_int3_death DIR: did the boot in DIR die of an int3 that memory no
# longer holds?  True if the console's first splat is "Oops: int3", or is
# an oops with exc_int3 on its stack (an int3 taken for a kprobe's, below),
# and the byte before that int3's RIP on its "Code:" line (the kernel
# reads it from memory when it prints the oops) is not int3 (0xcc); prints
# what it saw.
#
# That is QEMU's TCG running a translation of kernel text made before the
# kernel's text poker (text_poke_bp(): int3, the new bytes, then the first
# byte, each step followed by a serializing IPI to every CPU) rewrote it:
# the vCPU executes an int3 the poker had already replaced and stopped
# handling.  Real x86 CPUs cannot do that after the IPI; nothing frec does
# writes kernel text.  The kernel then dies one of two ways:
# - no handler claims the int3: "Oops: int3 ... Kernel panic - not
#   syncing: Fatal exception" (seen on 6.12 and 6.12-rt, RIP in
#   __schedule() or sched_clock_cpu(), while static keys, tracepoints or
#   kprobes were switched);
# - the int3 sits at a function's __fentry__ site that an ftrace-based
#   kprobe watches (0027 arms one on __frec_record() while every CPU
#   calls it): kprobe_int3_handler() takes it for the kprobe's, runs the
#   pre-handler and single-steps the kprobe's out-of-line copy, which an
#   ftrace-based kprobe does not have: "BUG: kernel NULL pointer
#   dereference ... RIP: 0010:0x0", exc_int3 and kprobe_int3_handler on
#   the stack, and the int3's own "RIP: __frec_record+0x5" and "Code:"
#   after asm_exc_int3 (seen on 6.12 and 6.12-rt, both in one run);
# - the int3's handler finds nothing to do and returns to the int3, which
#   the vCPU runs again, for ever, while the poker on another vCPU waits
#   for it to take its IPI: "soft lockup" on the poker's CPU (the boot's
#   softlockup_panic=1 turns it into a panic), and the stall reports'
#   NMI backtraces show the spinning vCPU in exc_int3 at the same
#   "RIP: __schedule+0x1bd" with "Code: ... 0f <1f> 44 00 00" twice or
#   more (seen on 6.1, 0021 disabling ftrace events).
# The tests that had no result in such a boot run again in a new one
# (below).
stale_int3_death() {
	local d=$1 text block first frame code byte rip
	text=$(tr -d '\r' < "$d/console.log" 2>/dev/null | sed 's/^\[ *[0-9.]*\] //')
	# The first splat, up to the end of its report.
	block=$(awk '!on && /Oops|BUG:|WARNING:|Kernel panic|general protection fault|kernel BUG at/ { on = 1 }
		on { print }
		on && (/^---\[ end trace/ || /^Kernel panic/) { exit }' <<< "$text")
	first=$(head -n 1 <<< "$block")
	if [[ $first == "Oops: int3"* ]]; then
		# The int3's registers are the oops's own.
		frame=$block
	elif [[ $first == *"soft lockup"* ]]; then
		# A vCPU spinning on the int3 (its handler returns, the int3 is
		# run again) while another waits in the poker's IPI for it: the
		# stall reports' NMI backtraces show that vCPU in exc_int3, at
		# the same int3, again and again.
		frame=$(awk '/^ +asm_exc_int3\+/ { on = 1; next }
			on && /^RIP: / { rip = $0 }
			on && /^Code: / { n[rip]++; code[rip] = $0; on = 0 }
			END { for (r in n) if (n[r] >= 2) { print r; print code[r]; exit } }' <<< "$text")
		[ -n "$frame" ] || return 1
	elif grep -qE '^ +asm_exc_int3\+' <<< "$block"; then
		# The int3's registers follow asm_exc_int3 in the trace.
		frame=$(awk '/^ +asm_exc_int3\+/ { on = 1 } on' <<< "$block")
	else
		return 1
	fi
	code=$(grep -m1 '^Code: ' <<< "$frame")
	rip=$(grep -m1 -oE 'RIP: [0-9]+:[^ ]+' <<< "$frame" | sed -E 's/^RIP: [0-9]+://')
	# The int3 is the byte before RIP (the trap's frame) or, once a
	# handler has set RIP back to the int3 to run what replaced it, the
	# byte at RIP; memory holding int3 at neither is the stale int3.
	byte=$(sed -nE 's/.* ([0-9a-f]{2}) <([0-9a-f]{2})>.*/\1 \2/p' <<< "$code")
	[ -n "$byte" ] && [[ " $byte " != *" cc "* ]] || return 1
	echo "${first:0:60}: an int3 at $rip, where memory holds 0x${byte/ /, 0x}, not int3 (0xcc)"
}

# A boot that died of a stale int3 is judged on the tests that finished in
# it (OUT_DIR/tests.list; OUT_DIR/tests.sent keeps what was sent), and the
# tests without a result boot again, in OUT_DIR/rerunN/.  At most
# FREC_GUEST_MAX_RERUNS (default 2) reruns per run; any other death stays
# the failure of the test it happened in.
if why=$(stale_int3_death "$out"); then
	left=() done_list=()
	while read -r t; do
		[ -n "$t" ] || continue
		if grep -qE "^(not )?ok [0-9]+ $(basename "$t" .sh)( |$)" "$out/tap.log" 2>/dev/null; then
			done_list+=("$t")
		else
			left+=("$t")
		fi
	done < "$out/tests.list"
	if [ ${#left[@]} -gt 0 ] && [ "$rerun" -lt "${FREC_GUEST_MAX_RERUNS:-2}" ]; then
		rerun=$((rerun + 1))
		cp "$out/tests.list" "$out/tests.sent"
		printf '%s\n' "${done_list[@]}" | grep -v '^$' > "$out/tests.list" || true
		echo "NOTE guest: died in $(basename "${left[0]}" .sh) of an emulator fault ($why): the ${#left[@]} tests from $(basename "${left[0]}" .sh) on run again in a new boot (see $out/console.log, $out/rerun$rerun)" |
			tee -a "$out/boots.log"
		rc=0
		FREC_JUDGE_CUT=$why FREC_GUEST_TIMEOUT=$timeout_s "$FREC_ROOT/scripts/judge.sh" "$out" || rc=1
		exec 8>&-	# the rerun takes the guest lock itself
		FREC_GUEST_RERUN=$rerun FREC_GUEST_ALONE=1 "$0" -k "$kind" -m test -o "$out/rerun$rerun" \
			-T "$timeout_s" -M "$kodir" "${left[@]}" || rc=1
		exit $rc
	fi
fi
FREC_GUEST_TIMEOUT=$timeout_s "$FREC_ROOT/scripts/judge.sh" "$out"
