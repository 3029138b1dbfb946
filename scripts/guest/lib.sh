# SPDX-License-Identifier: GPL-2.0
# Helpers for guest tests: . /frec/guest/lib.sh

FREC_DEBUGFS=/sys/kernel/debug/frec
FREC_MODULES=/frec/modules

# A chained test's step (frec_chain) names itself in FREC_PART: its
# failure says which former test's check it was.
fail() {
	echo "FAIL: ${FREC_PART:+$FREC_PART: }$*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 4
}

frec_loaded() {
	grep -q '^frec ' /proc/modules
}

frec_load() {
	insmod "$FREC_MODULES/frec.ko" "$@" || fail "insmod frec.ko $*"
}

frec_unload() {
	rmmod frec || fail "rmmod frec"
}

# Check that dump lines (FILE, "#" lines left out) are in frec's merged
# order: timestamps never go back, and no (ring, CPU) repeats a seq (seqs
# may step back where an interrupt took its seq before the record it
# interrupted: lib/frec_rb.c).
# Prints the first line out of order and fails.
frec_check_order() {
	grep -v '^#' "$1" | awk '{ match($0, /\[ *[0-9]+\.[0-9]+\]/); t = substr($0, RSTART + 1, RLENGTH - 2)
		# ns compared as 9-digit strings: busybox awk reads 0-led numbers as octal.
		sub(/^ +/, "", t); split(t, p, "."); s = p[1] + 0; ns = "n" p[2]
		if (s < ls || (s == ls && ns < lns)) { print "out of time order:"; print prev; print $0; exit 1 }
		ls = s; lns = ns; prev = $0
		rest = substr($0, RSTART + RLENGTH + 1); split(rest, w, " ")
		# w[2] is the context column, or the ring in an older dump
		k = w[1] " " (w[2] ~ /^(T[0-9]+|softirq|hardirq|nmi)$/ ? w[3] : w[2])
		if ((k in last) && $1 + 0 == last[k]) { print "seq " $1 " twice in a row on " k; exit 1 }
		last[k] = $1 + 0 }'
}

# Unload frec if a previous test left it loaded.
frec_reset() {
	for m in frec_hanoi frec_stress frec_spans frec_bench frec_crash_test frec_test_user frec_test_lib frec_litmus; do
		grep -q "^$m " /proc/modules && rmmod $m
	done
	if frec_loaded; then
		rmmod frec || fail "cannot unload frec left by an earlier test"
	fi
}

# The kernel log without dmesg's "[ seconds] " prefixes.
frec_klog() {
	dmesg | sed 's/^\[ *[0-9.]*\] //'
}

# frec_console_block < LOG: the lines of the last console dump in LOG,
# between its begin and end markers (header lines included).
frec_console_block() {
	awk '/^---\[ frec dump begin/ { n = 0; inb = 1; done = 0; next }
		/^---\[ frec dump end/ { inb = 0; done = 1; next }
		inb { l[n++] = $0 }
		END { if (!done) exit 1; for (i = 0; i < n; i++) print l[i] }'
}

# frec_console_whole < LOG: the last complete console dump in LOG, its
# begin and end markers included.
frec_console_whole() {
	awk '/^---\[ frec dump begin/ { n = 0; inb = 1; done = 0 }
		inb { l[n++] = $0 }
		/^---\[ frec dump end/ && inb { inb = 0; done = 1 }
		END { if (!done) exit 1; for (i = 0; i < n; i++) print l[i] }'
}

# frec_console_expect FILE: FILE, a whole dump block (begin marker to end
# marker) that the kernel log shows, must have reached the console itself
# (ttyS0, which only the host sees): says so to judge.sh as a
# "frec-console-block: LINES MD5 BEGIN-MARKER" line of the test's output.
# judge.sh finds the blocks on the console between this test's begin and
# end lines, and fails the test unless each expected block is there, whole
# and in order (a console that fell behind and dropped lines, seen on
# nbcon consoles, fails here although the kernel log is complete).
frec_console_expect() {
	head -n 1 "$1" | grep -q '^---\[ frec dump begin' || fail "expected block $1 has no begin marker"
	tail -n 1 "$1" | grep -q '^---\[ frec dump end' || fail "expected block $1 has no end marker"
	echo "frec-console-block: $(wc -l < "$1") $(md5sum < "$1" | cut -d ' ' -f 1) $(head -n 1 "$1")"
}

# frec_console_expect_last LOG: the last whole dump block in LOG (a kernel
# log, frec_klog) must have reached the console (frec_console_expect).
frec_console_expect_last() {
	frec_console_whole < "$1" > /tmp/.frec-whole || fail "no whole dump block in $1"
	frec_console_expect /tmp/.frec-whole
}

# frec_console_expect_dump RINGS LOG: the console must hold the last
# dump_to_console dump in LOG, of every record of RINGS (ring=a,b; so
# oops_records 1048576, oops_rings RINGS), a dump larger than the kernel
# log (128 KiB), which holds only its newest lines: the begin marker, the
# dump file's lines, the end marker LOG has.  LOG's newest records must be
# the dump file's last ones.
frec_console_expect_dump() {
	grep -q '^---\[ frec dump begin' "$2" && fail "the kernel log holds the whole dump: use frec_console_expect_last"
	echo "ring=$1" > $FREC_DEBUGFS/filter || fail "filter ring=$1"
	{
		echo "---[ frec dump begin: dump_to_console, newest 1048576 records per ring ]---"
		cat $FREC_DEBUGFS/dump
		grep '^---\[ frec dump end' "$2" | tail -n 1
	} > /tmp/.frec-whole
	echo > $FREC_DEBUGFS/filter
	awk '/^---\[ frec dump end/ { exit } /^[0-9]/' "$2" | tail -n 100 > /tmp/.frec-tail
	[ "$(wc -l < /tmp/.frec-tail)" = 100 ] || fail "the kernel log holds $(wc -l < /tmp/.frec-tail) of the dump's lines"
	tail -n 101 /tmp/.frec-whole | head -n 100 | diff - /tmp/.frec-tail > /dev/null ||
		fail "the kernel log's newest dump lines are not the dump file's"
	frec_console_expect /tmp/.frec-whole
}

# frec_wait_klog PATTERN [TENTHS]: wait until the kernel log has PATTERN.
frec_wait_klog() {
	i=0
	until dmesg | grep -q -- "$1"; do
		i=$((i + 1))
		[ $i -lt "${2:-300}" ] || return 1
		sleep 0.1
	done
}

# frec_sort_merged: dump lines on stdin, in frec's merged order on stdout:
# by timestamp, then CPU, then seq, then ring (lib/frec_merge.c).
frec_sort_merged() {
	awk '{ match($0, /\[ *[0-9]+\.[0-9]+\]/); t = substr($0, RSTART + 1, RLENGTH - 2)
		sub(/^ +/, "", t); split(t, p, "."); rest = substr($0, RSTART + RLENGTH + 1)
		split(rest, w, " "); cpu = w[1]; sub(/^cpu/, "", cpu)
		printf "%012d %s %06d %020d %s\t%s\n", p[1], p[2], cpu, $1, w[2], $0 }' |
		sort | cut -f 2-
}

# frec_expect_newest N: print, as "frec-expect:" lines for judge.sh, the
# newest N records of every ring, in merged order.
frec_expect_newest() {
	for r in $(ls $FREC_DEBUGFS/rings); do
		grep -v '^#' $FREC_DEBUGFS/rings/$r/dump | tail -n "$1"
	done | frec_sort_merged | sed 's/^/frec-expect: /'
}

# frec_after_freeze FILE LINE: check the records FILE holds after its
# LINE, the firing record of a freeze.  They are the other CPUs' records
# stored before the freeze took effect (frozen's time: local_clock() read
# after it), and at most one a CPU in flight as it froze.  How many came
# before the freeze is the host's matter: a vCPU held back between its
# record and the freeze lets the other CPU's ticks in (2 seen on 6.12
# under TCG and on the debug kernel, 2026-11-29).  Sets FREC_AFTER_FREEZE
# to how many came after the firing record and how many of them after the
# freeze (not printed: a failure must not be caught in a $(...)).
frec_after_freeze() {
	fts=$(sed -n 's/^time: *\([0-9]*\)\.\([0-9]*\)$/\1\2/p' $FREC_DEBUGFS/frozen)
	[ -n "$fts" ] || fail "frozen gives no time: $(cat $FREC_DEBUGFS/frozen)"
	tail -n +$(($2 + 1)) "$1" |
		sed -n 's/^[0-9]* \[ *\([0-9]*\)\.\([0-9]*\)\] cpu\([0-9]*\) .*/\1\2 \3/p' > /tmp/later
	[ "$(grep -c . /tmp/later)" = "$(tail -n +$(($2 + 1)) "$1" | grep -c .)" ] ||
		fail "unreadable lines after the firing one: $(tail -n +$(($2 + 1)) "$1" | head -3)"
	late=$(awk -v f="$fts" '$1 + 0 > f + 0 { n[$2]++ } END { for (c in n) if (n[c] > 1) print "cpu" c ": " n[c] }' /tmp/later)
	[ -z "$late" ] || fail "records after the freeze (frozen's time), more than one in flight: $late"
	FREC_AFTER_FREEZE="$(grep -c . /tmp/later) after the firing record, $(awk -v f="$fts" '$1 + 0 > f + 0' /tmp/later | grep -c .) of them after the freeze"
}

# frec_tap_now: stdin to the TAP stream at once, as diagnostics.  A test
# that ends in a panic writes its expectations this way: the runner's
# pipe would still hold them when the guest dies.
frec_tap_now() {
	[ -n "${FREC_TAP:-}" ] || . /frec/run.conf
	tap=${FREC_TAP:-/dev/ttyS1}
	[ -c $tap ] || tap=/dev/console
	sed 's/^/# /' > $tap
}

# frec_crash_test_load [FREC_PARAMS...]: frec afresh and the crash-test
# client; FREC_TRIGGER is its trigger file.
FREC_TRIGGER=/sys/module/frec_crash_test/parameters/trigger
frec_crash_test_load() {
	frec_reset
	frec_load "$@"
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
}

# frec_bpftrace ARGS...: the host's bpftrace (over 9p), run with the host's
# loader; FREC_BPFTRACE is the same as one command string.  Without BTF
# (the debug kernel) bpftrace reads that kernel's headers.
# On arm64 it is Debian's bpftrace:arm64 in the host's cache
# (scripts/arm64-sysroot.sh), with its own loader and libraries.
FREC_BPFTRACE="/host/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path /host/usr/lib/x86_64-linux-gnu:/host/usr/lib/x86_64-linux-gnu/bpftrace /host/usr/bin/bpftrace"
frec_bpftrace_env() {
	. /frec/run.conf
	if [ "${FREC_ARCH:-x86}" = arm64 ]; then
		s=/host$FREC_ARM64_SYSROOT
		[ -x $s/usr/bin/bpftrace ] || fail "no $s/usr/bin/bpftrace (scripts/arm64-sysroot.sh)"
		FREC_BPFTRACE="$s/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1 --library-path $s/lib/aarch64-linux-gnu:$s/usr/lib/aarch64-linux-gnu $s/usr/bin/bpftrace"
	else
		[ -x /host/usr/bin/bpftrace ] || fail "no bpftrace on the host (scripts/install-deps.sh installs it)"
	fi
	if [ ! -e /sys/kernel/btf/vmlinux ] && [ -n "${FREC_KERNEL_TREE:-}" ]; then
		export BPFTRACE_KERNEL_SOURCE=/host$(readlink /host$FREC_KERNEL_TREE/source)
		export BPFTRACE_KERNEL_BUILD=/host$FREC_KERNEL_TREE
	fi
}
frec_bpftrace() {
	frec_bpftrace_env
	$FREC_BPFTRACE "$@"
}

# The host's trace-cmd (over 9p, with the host's loader and its
# libtracecmd, libtracefs and libtraceevent), as one command string.
FREC_TRACECMD="/host/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path /host/usr/lib/x86_64-linux-gnu /host/usr/bin/trace-cmd"

# frec_tracecmd_record DIR: with frec loaded, record with trace-cmd on
# ftrace's default "local" clock (sched_switch, irq_handler_entry and
# frec's tracepoints; 16 MiB of buffer per CPU, nothing lost) while frec
# records from kthreads and hard IRQ on every CPU (frec_stress, rings
# stress_big*) and from process context (frec_hanoi); then stop both and
# leave in DIR frec's raw, dump, sites and formats, /proc/kallsyms, and
# trace-cmd's ftrace.dat.  The samples are unloaded, frec is not.
frec_tracecmd_record() {
	[ -x /host/usr/bin/trace-cmd ] || fail "no trace-cmd on the host (scripts/install-deps.sh installs it)"
	$FREC_TRACECMD start -C local -b 16384 -e sched:sched_switch -e irq:irq_handler_entry -e frec \
		> /tmp/tracecmd.log 2>&1 || { cat /tmp/tracecmd.log; fail "trace-cmd start"; }
	insmod "$FREC_MODULES/frec_stress.ko" period_us=1000 ring_kib=1024 ||
		fail "insmod frec_stress.ko"
	insmod "$FREC_MODULES/frec_hanoi.ko" disks=6 calls=1 || fail "insmod frec_hanoi.ko"
	# The kthreads and timers record on until unloaded: stop their rings
	# (the records stay), then ftrace.
	echo 0 > $FREC_DEBUGFS/rings/stress_big/enable
	echo 0 > $FREC_DEBUGFS/rings/stress_big_text/enable
	$FREC_TRACECMD stop > /dev/null 2>&1 || fail "trace-cmd stop"
	for f in raw dump sites formats; do
		cat $FREC_DEBUGFS/$f > "$1/$f" || fail "cat $f"
	done
	cat /proc/kallsyms > "$1/kallsyms"
	# Before the samples go: ftrace.dat keeps /proc/kallsyms, which names
	# their callers.
	$FREC_TRACECMD extract -o "$1/ftrace.dat" > /tmp/tracecmd.log 2>&1 ||
		{ tail -n 5 /tmp/tracecmd.log; fail "trace-cmd extract"; }
	rmmod frec_hanoi frec_stress
	$FREC_TRACECMD reset > /dev/null 2>&1
}

# frec_wait_blocked PID [TENTHS]: wait until process PID sleeps
# uninterruptibly (state D: a mutex, a debugfs removal), and print its
# wchan; fails if it ends or does not block in time.
frec_wait_blocked() {
	i=0
	until [ "$(awk '{ print $3 }' /proc/$1/stat 2> /dev/null)" = D ]; do
		[ -d /proc/$1 ] || return 1
		i=$((i + 1))
		[ $i -lt "${2:-300}" ] || return 1
		sleep 0.1
	done
	echo "# pid $1 blocked in $(cat /proc/$1/wchan 2> /dev/null)"
}

# frec_wait_for TENTHS COMMAND...: run COMMAND every tenth of a second
# until it succeeds; 1 if it has not within TENTHS tries.
frec_wait_for() {
	n=$1
	shift
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -lt "$n" ] || return 1
		sleep 0.1
	done
}

# frec_wait_gone PID [TENTHS]: wait until process PID has ended.
frec_wait_gone() {
	i=0
	while [ -d /proc/$1 ] && [ "$(awk '{ print $3 }' /proc/$1/stat 2> /dev/null)" != Z ]; do
		i=$((i + 1))
		[ $i -lt "${2:-300}" ] || return 1
		sleep 0.1
	done
}

# frec_export FILE...: each FILE into guest-run.sh -x's writable share
# (/export), prefixed with the test's name (and a chained test's step,
# FREC_PART), when there is one.
frec_export() {
	[ -d /export ] || return 0
	for f in "$@"; do
		cp "$f" "/export/$(basename "$0" .sh)${FREC_PART:+.$FREC_PART}.$(basename "$f")" ||
			fail "cannot export $f"
	done
}

# frec_arch: the guest's architecture, as the bench built it (run.conf's
# FREC_ARCH): x86 or arm64.
frec_arch() {
	[ -n "${FREC_ARCH:-}" ] || . /frec/run.conf
	echo "${FREC_ARCH:-x86}"
}

# The host's frec-decode (make tools), run with the host's loader and
# libraries over 9p (/host is read-only): frec_have_decoder says whether
# it is there (and sets FREC_DECODER, its path: run.conf gives the tree),
# frec_decode runs it with the arguments given.
FREC_HOST_LIB=/host/usr/lib/x86_64-linux-gnu

# On arm64 it is the cross-built one (check.sh's build part: build/tools-arm64),
# run with the host's arm64 loader and libraries (libc6:arm64 and
# zlib1g:arm64, which install-deps.sh's zlib1g-dev:arm64 brings).
frec_have_decoder() {
	if [ "$(frec_arch)" = arm64 ]; then
		FREC_DECODER=/host$FREC_HOST_TREE/build/tools-arm64/decode/frec-decode
		FREC_DECODER_LIB=/host/usr/lib/aarch64-linux-gnu
		FREC_DECODER_LD=$FREC_DECODER_LIB/ld-linux-aarch64.so.1
	else
		FREC_DECODER=/host$FREC_HOST_TREE/build/tools/decode/frec-decode
		FREC_DECODER_LIB=$FREC_HOST_LIB
		FREC_DECODER_LD=$FREC_HOST_LIB/ld-linux-x86-64.so.2
	fi
	[ -x "$FREC_DECODER" ]
}

frec_decode() {
	frec_have_decoder || fail "no $FREC_DECODER: build tools first (make tools)"
	"$FREC_DECODER_LD" --library-path "$FREC_DECODER_LIB" "$FREC_DECODER" "$@"
}

# frec_decode_like_dump: frec-decode of raw, formats, sites and kallsyms
# read now prints what dump prints; fails naming the first lines that
# differ.  Returns 1, doing nothing, when the host's decoder is not there
# (no 9p).
frec_decode_like_dump() {
	frec_have_decoder || return 1
	cat $FREC_DEBUGFS/raw > /tmp/dec.raw
	cat $FREC_DEBUGFS/formats > /tmp/dec.formats
	cat $FREC_DEBUGFS/sites > /tmp/dec.sites
	cat /proc/kallsyms > /tmp/dec.kallsyms
	cat $FREC_DEBUGFS/dump > /tmp/dec.dump
	frec_decode /tmp/dec.raw --formats /tmp/dec.formats --sites /tmp/dec.sites \
		--kallsyms /tmp/dec.kallsyms > /tmp/dec.out || fail "frec-decode failed"
	diff /tmp/dec.dump /tmp/dec.out > /tmp/dec.diff ||
		{ head -n 10 /tmp/dec.diff; fail "decoded text differs from dump"; }
}

# frec_chain STEP:PHASES...: a "# boot: twice" test made of several
# black box tests that take the same command line, chained so that one
# QEMU and fewer boots run them all.  STEP is a former test's number
# (its phases are the test's functions tNNNN_1 to tNNNN_PHASES, each but
# the last ending its boot with a reset); a step's last phase and the
# next step's first share a boot, the check first: N tests of two boots
# take N + 1 boots, not 2N.  The test's "# phases:" must be 1 + the sum
# of each step's PHASES - 1.  Each phase runs with FREC_PART naming its
# step (fail's message) and says so in the log, for a splat's owner.
frec_chain() {
	[ -n "${FREC_PHASE:-}" ] || fail "run as a '# boot: twice' test (guest-run.sh)"
	# Names of their own: a step's code sets first, k, p and s.
	chain_first=1
	for chain_s in "$@"; do
		chain_k=${chain_s#*:}
		chain_s=${chain_s%%:*}
		chain_p=$((FREC_PHASE - chain_first + 1))
		if [ "$chain_p" -ge 1 ] && [ "$chain_p" -le "$chain_k" ]; then
			FREC_PART=$chain_s
			echo "frec-test: chain step $chain_s, phase $chain_p of $chain_k" | tee /dev/kmsg
			# A step without this phase's function would pass unseen.
			type "t${chain_s}_$chain_p" > /dev/null 2>&1 ||
				fail "no function t${chain_s}_$chain_p for phase $chain_p of step $chain_s"
			"t${chain_s}_$chain_p"
		fi
		chain_first=$((chain_first + chain_k - 1))
	done
	FREC_PART=
	# $0: the test (run-tests.sh runs it with sh)
	chain_n=$(sed -n 's/^# phases: //p' "$0")
	[ "$chain_n" = "$chain_first" ] && [ "$FREC_PHASE" -le "$chain_n" ] ||
		fail "phase $FREC_PHASE of $0, which says '# phases: $chain_n', its steps take $chain_first"
}

# A "# boot: twice" test hands phase 2 a hex string (at most 256 digits)
# through the page of the phase word (run-tests.sh), which the reset
# keeps: frec_phase_put_hex HEX in phase 1, frec_phase_get_hex in phase 2.
frec_phase_mark() {
	sed -n 's/.*frec_phase_mark=\(0x[0-9a-f]*\).*/\1/p' /proc/cmdline
}

frec_phase_put_hex() {
	mark=$(frec_phase_mark) h=$1 i=0
	devmem $((mark + 8)) 32 $((${#h} / 8))
	while [ -n "$h" ]; do
		devmem $((mark + 16 + 4 * i)) 32 "0x$(echo "$h" | cut -c1-8)"
		h=$(echo "$h" | cut -c9-)
		i=$((i + 1))
	done
}

frec_phase_get_hex() {
	mark=$(frec_phase_mark) i=0
	n=$(($(devmem $((mark + 8)) 32)))
	[ "$n" -le 32 ] || return
	while [ $i -lt "$n" ]; do
		printf '%08x' "$(devmem $((mark + 16 + 4 * i)) 32)"
		i=$((i + 1))
	done
}

# The live raw dump's clock entry (uapi/frec_raw.h, struct frec_raw_clock,
# right after the 48-byte header): its offset, local_clock() less ftrace's
# clock, in ns.  Returns 1 if the dump has none.
frec_raw_trace_offset() {
	dd if="$FREC_DEBUGFS/raw" of=/tmp/rawhead bs=128 count=1 2> /dev/null
	[ "$(od -A n -t u4 -j 48 -N 4 /tmp/rawhead | tr -d ' ')" = 4 ] || return 1
	od -A n -t d8 -j 56 -N 8 /tmp/rawhead | tr -d ' '
}

# The path of the host's frec-decode (frec_decode above runs it).
frec_decoder() {
	frec_have_decoder
	echo "$FREC_DECODER"
}

# The records of ring $2 in the dump text $1 ("seq [s] cpuN context ring: ...").
frec_ring_lines() {
	grep -v '^#' "$1" | grep " $2: "
}

# A "# boot: twice" test of the black box.  Phase 1, after recording into
# the persisted ring RING: hand phase 2 the md5 and count of the lines
# frec/dump prints for RING now (RING --all: every record line of the
# dump, RING's more than 100 of them).
frec_blackbox_keep() {
	cat "$FREC_DEBUGFS/dump" > /tmp/dump || fail "cat dump"
	if [ "${2:-}" = --all ]; then
		grep -v '^#' /tmp/dump > /tmp/old
	else
		frec_ring_lines /tmp/dump "$1" > /tmp/old
	fi
	n=$(frec_ring_lines /tmp/old "$1" | grep -c .)
	[ "$n" -gt 100 ] || fail "only $n $1 records in the dump"
	n=$(grep -c . /tmp/old)
	echo "$n records kept, the newest:"
	tail -n 3 /tmp/old
	sum=$(md5sum < /tmp/old | cut -c1-32)
	frec_phase_put_hex "$sum$(printf '%08x' "$n")"
	echo "md5 of those lines: $sum"
}

# Phase 1 of a kdump test: kexec -p loads the guest's own kernel and
# initramfs (the host's kexec, run with the host's loader and libraries)
# as the capture kernel, one CPU, its devices reset, the same command line
# otherwise (the phase word, a region's memmap=); then an oops that
# panics (sysrq-c, panic_on_oops), as 0041: no record after the dump's
# lines.
frec_kdump_panic() {
	append=$(sed -e 's/crashkernel=[^ ]*//' -e 's/crash_kexec_post_notifiers//' /proc/cmdline)
	/host/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 \
		--library-path /host/usr/lib/x86_64-linux-gnu /host/usr/sbin/kexec \
		-p "/host$FREC_HOST_KERNEL" --initrd="/host$FREC_HOST_INITRD" \
		--append="$append nr_cpus=1 reset_devices" || fail "kexec -p"
	[ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ] || fail "no capture kernel loaded"
	echo 1 > /proc/sys/kernel/panic_on_oops
	echo c > /proc/sysrq-trigger
	sleep 20
	fail "the panic did not boot the capture kernel"
}

# Phase 2, frec loaded with the region: frec/previous/info shows RING and
# the end END ("panic", ...), counts as recovered the records phase 1's
# dump printed (plus OTHER, 0 if not given: other rings' records) and
# rejects none, and frec-decode of frec/previous/raw
# prints exactly those lines; so does frec/previous/dump, whose text is
# frec-decode's; previous/sites and formats are those frec-decode makes
# of raw, and previous/stats counts the records, none rejected.
frec_blackbox_check() {
	[ -x "$(frec_decoder)" ] || fail "no $(frec_decoder): build tools first (make tools)"
	kept=$(frec_phase_get_hex)
	want_sum=$(echo "$kept" | cut -c1-32)
	want_n=$((0x$(echo "$kept" | cut -c33-40)))
	info=$FREC_DEBUGFS/previous/info
	cat "$info"
	grep -q "^ring: $1, " "$info" || fail "no $1 ring in the previous boot's region"
	grep -q "^end: $2\$" "$info" || fail "the previous boot did not end: $2"
	grep -q "^records recovered: $((want_n + ${3:-0}))\$" "$info" ||
		fail "info does not count the $want_n records the old dump printed (and ${3:-0} of other rings)"
	grep -q '^records rejected: 0$' "$info" || fail "records rejected"
	cat "$FREC_DEBUGFS/previous/raw" > /tmp/raw
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err ||
		{ cat /tmp/decode.err; fail "frec-decode failed"; }
	cat /tmp/decode.err
	frec_ring_lines /tmp/decoded "$1" > /tmp/new
	echo "$(grep -c . /tmp/new) $1 records decoded, the newest:"
	tail -n 3 /tmp/new
	sum=$(md5sum < /tmp/new | cut -c1-32)
	echo "md5 of those lines: $sum; the old dump's: $want_sum"
	[ "$sum" = "$want_sum" ] || { head -n 5 /tmp/new; fail "decoded lines differ from the old dump's"; }
	# frec/previous/dump: the old dump's lines for the ring, and exactly
	# what frec-decode printed of raw (header and every ring)
	cat "$FREC_DEBUGFS/previous/dump" > /tmp/pdump || fail "cat previous/dump"
	frec_export /tmp/raw /tmp/pdump
	frec_ring_lines /tmp/pdump "$1" > /tmp/pnew
	sum=$(md5sum < /tmp/pnew | cut -c1-32)
	echo "previous/dump: $(grep -c . /tmp/pnew) $1 lines, md5 $sum"
	[ "$sum" = "$want_sum" ] || { head -n 5 /tmp/pnew; fail "previous/dump's lines differ from the old dump's"; }
	diff /tmp/pdump /tmp/decoded > /dev/null ||
		{ diff /tmp/pdump /tmp/decoded | head -n 5; fail "previous/dump differs from frec-decode of previous/raw"; }
	# previous/sites and formats: what frec-decode's region path makes of raw
	for f in sites formats; do
		cat "$FREC_DEBUGFS/previous/$f" > /tmp/p$f || fail "cat previous/$f"
		frec_decode --previous=$f /tmp/raw > /tmp/d$f 2> /dev/null ||
			fail "frec-decode --previous=$f failed"
		# (the region holds texts only for what its records need: none yet)
		[ $f = formats ] || [ "$(grep -vc '^#' /tmp/p$f)" -gt 0 ] ||
			fail "previous/$f lists nothing"
		diff /tmp/p$f /tmp/d$f > /dev/null ||
			{ diff /tmp/p$f /tmp/d$f | head -n 5; fail "previous/$f differs from frec-decode's"; }
		echo "previous/$f: $(grep -vc '^#' /tmp/p$f) lines, as frec-decode makes them"
	done
	# previous/stats: the ring's records recovered, none rejected
	cat "$FREC_DEBUGFS/previous/stats"
	sed -n "/^ring $1\$/,/^all /p" "$FREC_DEBUGFS/previous/stats" |
		grep -q "^all   recovered=$want_n torn=0 bad_length=0 no_site=0 cut=0 " ||
		fail "previous/stats does not count the $want_n records of $1, none rejected"
}

# Wait until the black box's texts sweep ran twice more: the texts of what
# was recorded before are in the region.
frec_texts_swept() {
	n0=$(sed -n 's/^sweeps: //p' "$FREC_DEBUGFS/region_texts")
	i=0
	until [ "$(sed -n 's/^sweeps: //p' "$FREC_DEBUGFS/region_texts")" -ge $((n0 + 2)) ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "the texts sweep did not run in 30 s"
		sleep 0.1
	done
}

# Phase 1 of a test that replaces crash_test's store (clears, resizes,
# order changes): the ring was taken into the region $1 times (its first
# store and each new one) and never went out of it.
frec_blackbox_taken() {
	frec_klog | grep 'no room in the region' &&
		fail "crash_test went out of the region"
	n=$(frec_klog | grep -c 'ring crash_test: recorded into the region')
	echo "crash_test taken into the region $n times"
	[ "$n" = "$1" ] || fail "crash_test recorded into the region $n times, not $1"
}

# Phase 2 of such a test, after a sysrq-b: frec with region= $1 shows
# crash_test's records at the reset (frec_blackbox_check, $2: records of
# other rings), and the ring once, none of its cleared stores.  frec
# stays loaded.
frec_blackbox_check_once() {
	frec_load region="$1"
	frec_blackbox_check crash_test "no end marked (a reset or a hang)" "${2:-0}"
	n=$(grep -c '^ring: crash_test, ' "$FREC_DEBUGFS/previous/info")
	[ "$n" = 1 ] || fail "previous/info lists crash_test $n times"
}

# Phase 1's end by sysrq-b: an immediate reset, nothing flushed or marked.
frec_blackbox_sysrq_b() {
	sleep 1
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
}

# Phase 1's end by an oops that panics (panic_on_oops, sysrq-c).
frec_blackbox_sysrq_c() {
	echo 1 > /proc/sys/kernel/panic_on_oops
	echo c > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-c did not panic"
}

# Phase 2 of a black box test: frec loaded with region= $1 finds ring $2
# of the previous boot, which ended: $3 (frec_blackbox_check).
frec_blackbox_previous() {
	frec_load region="$1"
	frec_blackbox_check "$2" "$3"
	frec_unload
}

# Spans of crash_test left in flight (frec_crash_test's spans and
# span-end): three begun on CPU 0 (1-3), three on CPU 1 (4-6); 1 ended on
# CPU 1, 5 and 3 on CPU 0: 2, 4 and 6 stay open.
frec_spans_leave_open() {
	t=/sys/module/frec_crash_test/parameters/trigger
	for c in "0 spans 3" "1 spans 3" "1 span-end 1" "0 span-end 5" "0 span-end 3"; do
		taskset -c "${c%% *}" sh -c "echo '${c#* }' > $t" || fail "crash_test: ${c#* } on cpu ${c%% *}"
	done
}

# frec_spans_in_flight_check FILE: the text FILE (a dump with its list of
# spans in flight) lists exactly frec_spans_leave_open()'s open spans, each
# certain, named by its begin's line, none of another ring.
frec_spans_in_flight_check() {
	grep '^# in flight' "$1"
	grep -q '^# in flight at the end \[ *[0-9]*\.[0-9]*\]: 3 of 6 spans begun never ended (3 certain, 0 maybe); 0 ends name a begin the dump lacks$' "$1" ||
		fail "$1: no list of 3 spans in flight of 6, all certain"
	got=$(sed -n 's/^# in flight span=\([0-9]*\)\/\([0-9]*\) certain age=[0-9]*ns: \([0-9]*\) \[[ 0-9.]*\] cpu\([0-9]*\) T[0-9]* crash_test: .* > crash test span \([0-9]*\) cpu \([0-9]*\)$/\1 \2 \3 \4 \5 \6/p' "$1" |
		awk '$1 == $4 && $2 == $3 && $4 == $6 { print $5 "@" $4 }' | tr '\n' ' ')
	[ "$got" = "2@0 4@1 6@1 " ] || fail "$1: spans in flight '$got', not '2@0 4@1 6@1 '"
	[ "$(grep -c '^# in flight span=' "$1")" = 3 ] || fail "$1: more spans in flight than crash_test's"
}

# Phase 1 of the black box tests (frec_blackbox_fill REGION [PARAMS...]):
# frec with region= REGION (and PARAMS) keeping ring
# crash_test, 500 records written into it, its dump lines handed over.
frec_blackbox_fill() {
	r=$1
	shift
	frec_load region="$r" persist_rings=crash_test "$@"
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	sleep 1
}

# frec_phys CMD: write physical memory through frec_crash_test's test-only
# phys parameter ("random ADDR LEN", "word ADDR VALUE", "copy FROM TO
# LEN"), on any kernel, /dev/mem or not.  frec is loaded without a region
# for it (frec_crash_test needs frec), so nothing holds the range; both
# are unloaded after.
frec_phys() {
	frec_load
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo "$*" > /sys/module/frec_crash_test/parameters/phys || fail "phys=$*"
	rmmod frec_crash_test
	frec_unload
}

# frec_stock_modprobe NAME [PARAM=VALUE ...]: loads a module of the stock
# kernel that mkinitramfs.sh ships for tests (/frec/modules.test), after
# its dependencies, with PARAMs.
frec_stock_modprobe() {
	m=$1
	shift
	paths=$(awk -v m="$m" '$1 == m { $1 = ""; print }' /frec/modules.test 2> /dev/null)
	[ -n "$paths" ] || fail "no stock module $m in the initramfs"
	for p in $paths; do
		if [ "$(basename "$p" .ko)" = "$m" ]; then
			insmod "$p" "$@" || fail "insmod $p $*"
		else
			grep -q "^$(basename "$p" .ko) " /proc/modules || insmod "$p" ||
				fail "insmod $p"
		fi
	done
}

# Phase N of a "# boot: twice" test of QEMU's system_reset: asks the host
# for one.  guest-run.sh watches the TAP port (where run-tests.sh streams
# a phase's output, each line after "# ") for this line and sends
# system_reset to QEMU's monitor.
frec_host_system_reset() {
	echo "frec-host: system_reset"
}

# frec_tie_rule_check: the tie rule (kmod/lib/frec_rb.c, "Order") on the
# clock this guest has: frec/order's tick and the raw clock entry's, the
# kernel's sched_clock resolution on arm64, then frec_stress recording on
# every CPU in rounds all CPUs leave at once (meet=1), hard-IRQ writers
# nesting, into two rings; the merged dump must never give one CPU's
# timestamp or a ring's seq of a CPU twice, must break a tie across CPUs
# by CPU and give a CPU's event before the text it stored next.  Leaves
# the tick in /tmp/tick, the ties across CPUs in /tmp/ties and the
# timestamps raised above their CPU's last in /tmp/raises.
frec_tie_rule_check() {
	# The clock's tick, as the kernel printed it when it registered
	# sched_clock (arm64: the architected counter; x86's TSC prints none).
	# The boot's log as init saved it: tests before this one may have
	# pushed the line out of the kernel's buffer (0120 on arm64-6.1).
	tick=$({ cat /tmp/boot-dmesg 2> /dev/null; dmesg; } |
		sed -n 's/.*sched_clock: .* resolution \([0-9]*\)ns.*/\1/p' | tail -n 1)
	echo "# sched_clock resolution: ${tick:-not printed} ns; frec/order:"
	sed 's/^/# /' $FREC_DEBUGFS/order
	# frec/order's second line and the raw dump's clock entry (right after
	# the 48-byte header: type 4 at 48, tick_ns at 76) give the tick.
	said=$(sed -n 's/^tick \([0-9]*\) ns: records of two CPUs less than a tick apart may tie, and a tie comes by CPU; .*/\1/p' $FREC_DEBUGFS/order)
	[ -n "$said" ] || fail "frec/order does not give the tick and the tie rule"
	head -c 80 $FREC_DEBUGFS/raw > /tmp/rawhead || fail "cat raw"
	[ "$(od -A n -t u4 -j 48 -N 4 /tmp/rawhead | tr -d ' ')" = 4 ] || fail "no clock entry after the raw header"
	raw_tick=$(od -A n -t u4 -j 76 -N 4 /tmp/rawhead | tr -d ' ')
	[ "$raw_tick" = "$said" ] || fail "the raw clock entry's tick $raw_tick is not frec/order's $said"
	if [ "$(uname -m)" = aarch64 ]; then
		[ "$said" = "$tick" ] || fail "frec/order's tick $said ns is not sched_clock's resolution ${tick:-(not printed)} ns"
	fi
	# Every CPU: a kthread recording in rounds that all CPUs' threads
	# leave at once (meet), into stress_big (and every 64th record a text
	# into stress_big_text), a hard-IRQ writer every ms into both, nesting
	# inside the thread's writes (more often, TCG spends the CPUs on the
	# timer).
	# 1 MiB a CPU: the rings fill and wrap within the 2 s; reading and
	# checking what they hold (about 175,000 records at 4 MiB, 100 s on
	# arm64 under TCG) is most of the test's time.
	insmod "$FREC_MODULES/frec_stress.ko" period_us=1000 ring_kib=1024 meet=1 || fail "insmod frec_stress.ko"
	sleep 2
	# Both CPUs' last records at one moment: a ring switched off stops its
	# writers on every CPU at once, where stop ends one CPU's kthread after
	# the other's (then the rings' windows, a few ms each, need not overlap).
	echo 0 > $FREC_DEBUGFS/rings/stress_big/enable || fail "switch stress_big off"
	echo 0 > $FREC_DEBUGFS/rings/stress_big_text/enable || fail "switch stress_big_text off"
	echo 1 > /sys/module/frec_stress/parameters/stop || fail "stop the writers"
	grep -e ' stress_big: ' -e ' stress_big_text: ' $FREC_DEBUGFS/dump > /tmp/dump || fail "no stress records in dump"
	rmmod frec_stress || fail "rmmod frec_stress"
	# Lines: SEQ [ S.NNNNNNNNN] cpuC CONTEXT RING: CALLER MESSAGE.  awk's
	# doubles hold a ns count exactly up to 104 days.
	sed -E 's/^([0-9]+) \[ *([0-9]+)\.([0-9]+)\] cpu([0-9]+) [^ ]+ ([a-z_]+): [^ ]+( \[[^]]*\])? (.*)$/\1 \2\3 \4 \5 \7/' \
		/tmp/dump > /tmp/keys
	awk -v tick="$said" '
		NF < 5 || $2 !~ /^[0-9]+$/ { print "# unparsed: " $0; bad++; next }
		{
			seq = $1; ts = $2 + 0; cpu = $3 + 0; ring = $4; n++
			if (n > 1 && ts < last_ts) { print "# line " n ": time goes back: " $0; bad++ }
			if (n > 1 && ts == last_ts) {
				if (cpu == last_cpu) { print "# line " n ": cpu" cpu " gave timestamp " $2 " twice"; bad++ }
				else if (cpu < last_cpu) { print "# line " n ": a tie on " $2 " not broken by CPU"; bad++ }
				else ties++
			}
			# A seq names one record of a CPU in a ring.  (Not in
			# store order: an interrupt between the reservation of a
			# write and its numbering takes the seq before it;
			# test_ring.c checks as much.)
			k = cpu " " ring " " seq
			if (k in seen) { print "# line " n ": seq " seq " of cpu" cpu " " ring " twice"; bad++ }
			seen[k] = 1
			# A raise is one ns above the last timestamp; two clock
			# values are a tick apart (give or take the rounding of
			# the conversion to ns).
			if (tick >= 4 && (cpu in prev) && ts - prev[cpu] < tick / 2)
				raises++
			prev[cpu] = ts
			last_ts = ts; last_cpu = cpu
			if (!(cpu in first)) first[cpu] = $2
			final[cpu] = $2
			# The thread stores "task N cpu C" in stress_big, then "task N"
			# in stress_big_text when 64 divides N.
			if (ring == "stress_big" && $5 == "task" && $7 == "cpu") event[$8 " " $6] = n
			if (ring == "stress_big_text" && $5 == "task" && NF == 6) text[cpu " " $6] = n
		}
		END {
			for (k in text) {
				if (!(k in event))
					continue
				pairs++
				if (event[k] > text[k]) { print "# cpu/task " k ": the text came before the event stored first"; bad++ }
			}
			for (c in first)
				printf "# cpu%s: records from %s ns to %s ns\n", c, first[c], final[c]
			printf "# %d records, %d ties across CPUs, %d timestamps raised above the last of their CPU, %d event/text pairs of one CPU checked\n", n, ties, raises, pairs
			print ties + 0 > "/tmp/ties"
			print raises + 0 > "/tmp/raises"
			print pairs + 0 > "/tmp/pairs"
			exit bad > 0
		}' /tmp/keys || fail "the merged order breaks the tie rule"
	[ "$(cat /tmp/pairs)" -gt 0 ] || fail "no event/text pair of one CPU to check"
	echo "$said" > /tmp/tick
}
