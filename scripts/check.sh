#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: every test frec has, each on the kernels it is for.
#
#   In the foreground, in this order:
#   - build: frec.ko for Debian's stock kernel in the tree (make modules),
#     frec-decode and frec-gen (the harness part builds the rest of
#     tools/) and frec's modules for the first stock kernel
#     (build/stock-NAME/ko), at the machine's nice (the guests wait for
#     it); for every stock and arm64 kernel, and the arm64 frec-decode,
#     when no part runs in the background (below)
#   - kernelshark: KernelShark opens frec-decode's trace.dat under Xvfb
#     and draws its events (scripts/kernelshark-check.sh; skipped without
#     it)
#   - guest-stock-NAME: the guest tests on each of Debian's stock kernels
#     (FREC_STOCK_KERNELS: 6.1 = linux-image-amd64, 6.12 and 6.12-rt,
#     scripts/lib.sh), QEMU TCG; each test on the kernels its
#     "# kernels:" header names, else on all (lib.sh, guest_tests_for);
#     then Debian's arm64 6.1 and 6.12 in an aarch64 TCG guest
#     (FREC_ARM64_KERNELS: guest-stock-arm64-6.1, guest-stock-arm64-6.12),
#     the tests that name them only (doc/arm64.md)
#   - dkms: the user's path: both packages installed with dpkg on this
#     machine (root; DKMS builds frec for each installed kernel), the
#     Hanoi sample built as an outside driver against what they
#     installed, and both loaded in the guest (scripts/dkms-check.sh)
#   - guest-retry: the bench's own checks (a boot dying before its first
#     test is booted again, one dying of a stale int3 runs its unfinished
#     tests again, ..., make check interrupted leaves nothing running),
#     each said so
#   - guest-debug: the KUnit suites and the guest tests that name the
#     debug kernel (lockdep, atomic-sleep checks, KASAN), built once and
#     cached (in the background from the start when it is not)
#   In the background, once the build part has ended, when a guest part
#   or dkms is asked for too (else in the foreground, before them):
#   - build-kernels (with the build part): frec's modules for the other
#     stock and arm64 kernels, frec-decode for the arm64 guest; the later
#     guest parts and guest-retry wait for it
#   - package: frec-dkms and frec-tools (amd64, and arm64 cross-built)
#     built with dpkg-deb, lintian, systemd-analyze verify of
#     frec-archive.service (scripts/package.sh); frec-archive's logic on
#     a debugfs directory of files (scripts/archive-check.sh)
#   - lint: checkpatch --strict, kernel-doc, sparse + W=1 (frec and the
#     samples) against each stock kernel's headers (in build/lint)
#   - compile-fail: the client API's build checks; arch: frec refused on
#     a 32-bit kernel
#   - harness: userspace tests of kernel-shared code, native, under TSan
#     and under ASan/UBSan; decode: frec-decode's checks
#   They run as a make check of their own (FREC_CHECK_BACKGROUND=1) in a
#   session of their own at nice 19, as the debug kernel's build, beside
#   the guests, which leave about a core idle; their lines are printed
#   after the other parts (background.out has them as they came).
#
# Each check prints "PASS name", "FAIL name: why (see LOG)" or "SKIP name"
# (guest tests as KERNEL:TEST, e.g. "PASS stock-6.12-rt:0007-hanoi-dump");
# a guest boot retried prints a NOTE line.  The run ends with a budget
# table (each part's seconds, and the cold total against FREC_BUDGET_S,
# 45 minutes: budget_table), the failures and the skipped checks again
# and the plain line "N passed, N failed", and exits non-zero on any
# failure, or when nothing passed.
# FREC_MATRIX=full runs every guest test on every kernel it can run on
# (lib.sh, guest_tests_for), for a release.  FREC_CHECK_PARTS="lint build compile-fail
# arch harness decode kernelshark package guest-stock dkms guest-retry guest-debug" picks
# parts; guest-stock is every stock kernel, guest-stock-6.12 one.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$FREC_ROOT" || exit 1

parts=${FREC_CHECK_PARTS:-lint build compile-fail arch harness decode kernelshark package guest-stock dkms guest-retry guest-debug}
logs=$FREC_BUILD/logs
mkdir -p "$logs"
# FREC_CHECK_BACKGROUND=1: this run is the background half of another
# (the background parts, below): its own results and times, no debug
# kernel, no table.
background=${FREC_CHECK_BACKGROUND:-}
results=$logs/results${background:+-background}.txt
: > "$results"
times=$logs/part-times${background:+-background}.txt
: > "$times"
start=$(date +%s)
debug_started=

# CI's limit is 90 minutes for .ci/run; make check keeps a cold run
# (nothing installed, nothing cached) within 45 of them, apt included,
# and prints where its time went at the end (budget_table).
FREC_BUDGET_S=${FREC_BUDGET_S:-2700}

# The debug kernel, when it is not cached, builds in the background from
# the start (nice 19, scripts/debug-kernel.sh): lint and build leave a core
# idle, and a TCG guest waiting in a test leaves both; guest-debug waits
# for it.  About 16 CPU-minutes cold, which run after the other parts
# would add its whole time to the run.
debug_build_pid=
debug_build_t0=
bg_pid=
# Interrupted or not, make check ends what it started in sessions of
# their own, which a terminal's Ctrl-C does not reach: the debug kernel's
# build and the background parts (below).  INT and TERM become an exit,
# after the foreground pipeline they killed has ended.
# A session is killed only while its leader, this shell's child, runs
# (jobs -r): once reaped, its number may be another process's.
stop_sessions() {
	local pid running
	running=" $(jobs -rp | tr '\n' ' ') "
	for pid in $debug_build_pid $bg_pid; do
		[[ $running == *" $pid "* ]] || continue
		# Not yet in its own session (setsid), it is killed alone.
		kill -- "-$pid" 2> /dev/null || kill "$pid" 2> /dev/null
	done
}
trap stop_sessions EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -z "$background" ] && [[ " $parts " == *" guest-debug "* ]] &&
	! "$FREC_ROOT/scripts/debug-kernel.sh" --cached 2>/dev/null; then
	debug_build_t0=$SECONDS
	# Its own session (killed as a group), whose autogroup gets nice 19
	# too: with CONFIG_SCHED_AUTOGROUP a session's nice counts only
	# inside it, and a build in a session of its own took half the
	# cores from the guests (0031's litmus ran 114 s instead of 4).
	setsid bash -c 'echo 19 > /proc/self/autogroup 2> /dev/null
		"$1" --source > /dev/null && exec nice -n 19 "$1"' _ \
		"$FREC_ROOT/scripts/debug-kernel.sh" > "$logs/debug-kernel.log" 2>&1 < /dev/null &
	debug_build_pid=$!
	echo "== debug kernel: building in the background (log $logs/debug-kernel.log)"
fi

# Run a part whose stdout is PASS/FAIL/SKIP lines; a part that dies
# without saying why is itself a failure.
part() { # name command...
	local name=$1 rc t0=$SECONDS
	shift
	: > "$logs/$name.out"
	echo "== $name"
	"$@" 2>&1 | tee -a "$logs/$name.out" | grep -E '^(PASS|FAIL|SKIP|NOTE) ' | tee -a "$results"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ] && ! grep -q "^FAIL " "$logs/$name.out"; then
		echo "FAIL $name: exited $rc (see $logs/$name.out)" | tee -a "$results"
	fi
	echo "   ($name: $((SECONDS - t0)) s)"
	echo "$name $((SECONDS - t0))" >> "$times"
}

# build_stock all|first|rest: the build part.  first (when the other
# kernels' modules build in the background, build-kernels): in-tree
# frec.ko, frec-decode and frec-gen, and the first stock kernel's modules,
# what the first guest part needs; rest: every other kernel's, and
# frec-decode for the arm64 guests.
build_stock() {
	local log=$logs/build.log rc=0 n first=${FREC_STOCK_KERNELS%% *}
	# The tools the guests, kernelshark and archive-check run: frec-decode
	# and frec-gen.  The harness part builds the rest of tools/ (its test
	# flavours, under TSan and ASan), beside the guests.
	if [ "$1" = rest ]; then
		:
	elif nice -n "${FREC_NICE:-19}" make -j"$(nproc)" modules > "$log" 2>&1 &&
		nice -n "${FREC_NICE:-19}" make -j"$(nproc)" -C tools O="$FREC_BUILD/tools" decode >> "$log" 2>&1; then
		echo "PASS build"
	else
		echo "FAIL build: make modules, make -C tools decode (see $log)"
		rc=1
	fi
	for n in $FREC_STOCK_KERNELS $FREC_ARM64_KERNELS; do
		[ "$1" = first ] && [ "$n" != "$first" ] && continue
		[ "$1" = rest ] && [ "$n" = "$first" ] && continue
		build_for "$n" || rc=1
	done
	[ "$1" = first ] && return $rc
	# README's `FREC_KVER=arm64-6.1 make`: every kbuild line of `make
	# modules`, and build-null-blk.sh's, gets the cross compiler for an
	# arm64 tree, as build-modules.sh does (they got none, and kbuild ran
	# the host's gcc with arm64's flags).  make -n with MAKE=echo prints them
	# without building; a KDIR given to make check is not passed on.
	local arm64 lines bad
	for arm64 in $FREC_ARM64_KERNELS; do
		lines=$(env -u KDIR -u MAKEFLAGS -u MAKELEVEL FREC_KVER="$arm64" \
			make -n --no-print-directory MAKE=echo modules 2>&1 |
			grep -E '^(echo -C|scripts/build-null-blk.sh) ')
		bad=$(grep -v 'ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-' <<< "$lines")
		if [ "$(grep -c . <<< "$lines")" -ge 4 ] && [ -z "$bad" ]; then
			echo "PASS build-make-$arm64: FREC_KVER=$arm64 make modules gives kbuild and build-null-blk.sh ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
		else
			echo "FAIL build-make-$arm64: FREC_KVER=$arm64 make modules: ${bad:-no kbuild lines}$([ -n "$bad" ] && echo ': no ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-') (see Makefile, KDIR_ARGS)" | tr '\n' ' '
			echo
			rc=1
		fi
	done
	# The arm64 guest's frec-decode, cross-built (guest lib.sh runs it
	# with the host's arm64 loader and libraries, over 9p).
	if nice -n "${FREC_NICE:-19}" make -C tools O="$FREC_BUILD/tools-arm64" CC=aarch64-linux-gnu-gcc \
		"$FREC_BUILD/tools-arm64/decode/frec-decode" > "$logs/build-tools-arm64.log" 2>&1; then
		echo "PASS build-tools-arm64"
	else
		echo "FAIL build-tools-arm64: (see $logs/build-tools-arm64.log)"
		rc=1
	fi
	return $rc
}

# build_for NAME: frec's modules for stock kernel NAME in
# build/stock-NAME/ko (scripts/build-modules.sh).
build_for() {
	local n=$1 kdir log=$logs/build-stock-$1.log
	if kdir=$(stock_kdir "$n" 2> "$log") &&
		"$FREC_ROOT/scripts/build-modules.sh" "$kdir" "$FREC_BUILD/stock-$n" >> "$log" 2>&1; then
		echo "PASS build-stock-$n"
	else
		echo "FAIL build-stock-$n: (see $log and $FREC_BUILD/stock-$n/build.log)"
		return 1
	fi
}

# One line per harness case and flavour, from the runner's TAP.
harness() {
	local log=$logs/harness.log rc=0 f t bin
	# Built where the loop below runs them: $FREC_BUILD, not tools/'s default.
	make -j"$(nproc)" -C tools O="$FREC_BUILD/tools" all > "$log" 2>&1 || { echo "FAIL harness-build: (see $log)"; return 1; }
	for f in native tsan asan; do
		for bin in "$FREC_BUILD"/tools/$f/test_*; do
			t=$(basename "$bin")
			"$bin" > "$logs/harness-$f-$t.log" 2>&1 || rc=1
			sed -nE "s/^ok [0-9]+ (.*)/PASS harness-$f:$t:\1/p;
				 s/^not ok [0-9]+ (.*)/FAIL harness-$f:$t:\1: (see ${logs//\//\\/}\/harness-$f-$t.log)/p" \
				"$logs/harness-$f-$t.log"
			grep -q '^[0-9]* passed, 0 failed$' "$logs/harness-$f-$t.log" ||
				echo "FAIL harness-$f:$t: did not finish cleanly (see $logs/harness-$f-$t.log)"
		done
	done
	return $rc
}

# The decoder's own checks (tools/frec-decode/decode.mk): unit tests,
# generated dumps, crafted bad inputs, a short fuzz run.  One line each.
decode_check() {
	local log=$logs/decode-check.log rc=0
	make -j"$(nproc)" -C tools O="$FREC_BUILD/tools" decode-check > "$log" 2>&1 || rc=1
	awk -v l="$log" '/^== decode\// { if (name != "") print (bad ? "FAIL " : "PASS ") name (bad ? ": (see " l ")" : ""); name = substr($2, 8); bad = 0; next }
		/[1-9][0-9]* failed|FAIL|ERROR|error:/ { bad = 1 }
		END { if (name != "") print (bad ? "FAIL " : "PASS ") name (bad ? ": (see " l ")" : "") }' "$log" |
		sed 's/^\(PASS\|FAIL\) /\1 decode:/'
	[ $rc = 0 ] || echo "FAIL decode-check: make -C tools decode-check failed (see $log)"
	return $rc
}

# guest stock NAME | guest debug
guest() {
	local kind=$1 out=$logs/guest-$1 label=$1 ko=() tests=()
	if [ "$kind" = stock ]; then
		label=stock-$2
		out=$logs/guest-$label
		# Its modules, unless the build part made them in this run, or
		# build-kernels in the background (all but the first kernel's).
		[ "$2" = "${FREC_STOCK_KERNELS%% *}" ] || wait_background_part build-kernels
		if [ ! -f "$FREC_BUILD/stock-$2/ko/frec.ko" ] || [[ " $parts " != *" build "* ]]; then
			build_for "$2" || return 1
		fi
		ko=(-M "$FREC_BUILD/stock-$2/ko" -x "$out/export")
		rm -rf "$out/export"
		export FREC_KVER=$2
		mapfile -t tests < <(guest_tests_for "$2")
	fi
	if [ "$kind" = debug ]; then
		# part() runs this in a subshell, which cannot wait for the
		# main shell's child: poll it.
		if [ -n "$debug_build_pid" ]; then
			echo "== debug kernel: waiting for its background build" >&2
			while kill -0 "$debug_build_pid" 2> /dev/null; do
				sleep 5
			done
			echo "debug-kernel-build $(sed -n 's/^seconds=//p' \
				"$FREC_CACHE/debug-kernel-$("$FREC_ROOT/scripts/debug-kernel.sh" --print-key)/.frec-built" \
				2> /dev/null) (in the background, beside the parts above)" >> "$times"
		fi
		if ! "$FREC_ROOT/scripts/debug-kernel.sh" >> "$logs/debug-kernel.log" 2>&1; then
			echo "FAIL debug-kernel: build failed (see $logs/debug-kernel.log)"
			return 1
		fi
		label=$(debug_label "$(tail -n 1 "$logs/debug-kernel.log")")
		if ! make debug-modules > "$logs/debug-modules.log" 2>&1; then
			echo "FAIL $label:modules: (see $logs/debug-modules.log)"
			return 1
		fi
		mapfile -t tests < <(guest_tests_for debug)
	fi
	# The full matrix's debug boot runs every test the debug kernel can
	# run, about 45: guest-run.sh's 1500 s cut it short at the 38th
	# (2026-11-29); CI's list takes about 450 s of it.
	local boot_timeout=()
	[ "$kind" = debug ] && [ "${FREC_MATRIX:-ci}" = full ] && boot_timeout=(-T 3600)
	"$FREC_ROOT/scripts/guest-run.sh" -k "$kind" "${ko[@]}" "${boot_timeout[@]}" -o "$out" "${tests[@]}" |
		sed "s/^\(PASS\|FAIL\|SKIP\|NOTE\) /\1 $label:/"
	local rc=${PIPESTATUS[0]}
	# KernelShark with a real ftrace recording and frec's trace.dat of the
	# same seconds beside it (0055 exports both).
	if [ "$kind" = stock ] && [ -f "$out/export/ftrace.dat" ] && [ -f "$out/export/frec.dat" ]; then
		nice -n 19 "$FREC_ROOT/scripts/kernelshark-check.sh" -n "ftrace-$label" \
			-i "$out/export/ftrace.dat" "$out/export/frec.dat" || rc=1
	fi
	if [ "$kind" = debug ]; then
		kunit_results "$out" | sed "s/^\(PASS\|FAIL\|SKIP\) /\1 $label:/"
		[ "${PIPESTATUS[0]}" = 0 ] || rc=1
	fi
	if [[ $label == stock-arm64-* ]]; then
		host_decode "$out/export" "$label" || rc=1
	fi
	return "$rc"
}

# host_decode EXPORT_DIR LABEL: this machine's frec-decode (x86_64) on the
# files an arm64 guest exported: 0013's raw dump (with its sites, formats
# and kallsyms) and 0046's black box region image print what the guest's
# dump and previous/dump printed.  One line each.
host_decode() {
	local e=$1 label=$2 dec=$FREC_BUILD/tools/decode/frec-decode rc=0
	make -C tools O="$FREC_BUILD/tools" "$dec" > "$logs/host-decode-$label.log" 2>&1 ||
		{ echo "FAIL $label:host-decode: cannot build frec-decode (see $logs/host-decode-$label.log)"; return 1; }
	if [ -f "$e/0013-decode-matches-dump.raw" ]; then
		if "$dec" "$e/0013-decode-matches-dump.raw" --sites "$e/0013-decode-matches-dump.sites" \
			--formats "$e/0013-decode-matches-dump.formats" \
			--kallsyms "$e/0013-decode-matches-dump.kallsyms" > "$e/host.raw.txt" 2>> "$logs/host-decode-$label.log" &&
			cmp -s "$e/host.raw.txt" "$e/0013-decode-matches-dump.dump"; then
			echo "PASS $label:host-decode-raw"
		else
			echo "FAIL $label:host-decode-raw: x86_64 frec-decode of the arm64 raw dump differs from its dump (see $e)"
			rc=1
		fi
	fi
	if [ -f "$e/0046-region-kaslr.raw" ]; then
		if "$dec" "$e/0046-region-kaslr.raw" > "$e/host.region.txt" 2>> "$logs/host-decode-$label.log" &&
			cmp -s "$e/host.region.txt" "$e/0046-region-kaslr.pdump"; then
			echo "PASS $label:host-decode-region"
		else
			echo "FAIL $label:host-decode-region: x86_64 frec-decode of the arm64 region image differs from previous/dump (see $e)"
			rc=1
		fi
	fi
	return $rc
}

# The debug kernel's name in the results, so that each line says which
# kernel the test ran on: debug-VERSION, plus -rt for PREEMPT_RT, e.g.
# "PASS debug-6.12:0005-kunit".
debug_label() { # kdir
	local rel rt=
	rel=$(cat "$1/include/config/kernel.release" 2>/dev/null) || rel=unknown
	grep -qx 'CONFIG_PREEMPT_RT=y' "$1/.config" 2>/dev/null && rt=-rt
	echo "debug-$(echo "$rel" | cut -d. -f1,2)$rt"
}

# KUnit cases from the debug guest's console, one line each, checked by
# the kernel's own KTAP parser too.
kunit_results() { # out_dir
	local out=$1 ktap=$1/kunit.ktap n
	# The boot's console, then those of its reruns after an emulator
	# fault (guest-run.sh: OUT_DIR/rerun1/, rerun1/rerun2/), in order.
	{ echo "$out/console.log"; find "$out" -name console.log -path '*rerun*' | sort; } |
		xargs -d '\n' cat 2> /dev/null |
		"$FREC_ROOT/scripts/ktap-extract.sh" > "$ktap" 2> "$out/ktap-extract.log" || {
		echo "FAIL kunit: no KTAP in the console (see $out/console.log)"
		return 1
	}
	n=$(grep -cE '^    (not )?ok [0-9]+ ' "$ktap")
	[ "$n" -gt 0 ] || { echo "FAIL kunit: no KUnit case ran (see $out/console.log)"; return 1; }
	# A suite runs each time its module is loaded (0005 loads every KUnit
	# module, 0006 frec_kunit.ko again, where the unload case does not
	# skip): one line per case, FAIL if any run failed, else PASS if any
	# passed, else SKIP.
	awk -v ktap="$ktap" '
		function see(name, v) {
			if (!(name in got)) { order[n++] = name; got[name] = v }
			else if (v == "FAIL" || (v == "PASS" && got[name] == "SKIP")) got[name] = v
		}
		/^    # Subtest: / { suite = $3 }
		/^        # Subtest: / { next }
		/^    ok [0-9]+ .*# SKIP/ { see("kunit:" suite ":" $3, "SKIP"); next }
		/^    ok [0-9]+ / { see("kunit:" suite ":" $3, "PASS") }
		/^    not ok [0-9]+ / { see("kunit:" suite ":" $4, "FAIL") }
		/^ok [0-9]+ |^not ok [0-9]+ / { suite = "" }
		END {
			for (i = 0; i < n; i++)
				print got[order[i]] " " order[i] (got[order[i]] == "FAIL" ? ": (see " ktap ")" : "")
		}
	' "$ktap" || { echo "FAIL kunit: cannot read $ktap"; return 1; }
	local kunit_py
	kunit_py=$(ls "$FREC_CACHE"/linux-source-*/tools/testing/kunit/kunit.py 2>/dev/null | head -n 1)
	if [ -n "$kunit_py" ]; then
		if ! python3 "$kunit_py" parse "$ktap" > "$out/kunit-parse.log" 2>&1; then
			echo "FAIL kunit-parse: kunit.py parse reports failures (see $out/kunit-parse.log)"
			return 1
		fi
	fi
	! grep -q '^    not ok' "$ktap"
}

# The bench's own recoveries (guest-run.sh), each on a boot made to die:
# - a boot that dies before its first test (FREC_GUEST_TEST_EARLY_DEATH:
#   a panic before /init) is booted again, and the run says so;
# - a boot that dies of a stale int3 in a test (FREC_GUEST_TEST_STALE_INT3:
#   the first test logs such an oops and crashes the kernel) runs that
#   test and the ones after it again in a new boot, and says so;
# - a boot whose CPU is held by a vCPU spinning on a stale int3
#   (FREC_GUEST_TEST_INT3_SPIN: the first test logs such a stall report's
#   backtrace and holds its CPU) panics at the soft lockup, and its tests
#   run again in a new boot;
# - a "# boot: twice" test whose second boot hangs before its runner
#   (FREC_GUEST_TEST_REBOOT_HANG: the runner of that boot never starts)
#   is found hung within FREC_GUEST_REBOOT_TIMEOUT (20 s here) and run
#   again from its first boot, and the run says so;
# - a panic's lines reach the console and the failure quotes it
#   (FREC_GUEST_TEST_NMI_PANIC: the first test panics in an NMI, where
#   printk leaves its lines to panic()'s console flush);
# - a console test run twice in one output directory (make check run
#   twice in one tree) is judged each time by its own console.
guest_retry() {
	local out=$logs/guest-retry n=${FREC_STOCK_KERNELS%% *} rc bad=0
	# 6.12 when it is tested: its boots take about half 6.1's under TCG,
	# and these eleven boots test the bench, not a kernel.
	[[ " $FREC_STOCK_KERNELS " == *" 6.12 "* ]] && n=6.12
	local t1=$FREC_ROOT/scripts/guest-tests/0001-insmod.sh t2=$FREC_ROOT/scripts/guest-tests/0002-rmmod.sh
	wait_background_part build-kernels
	[ -f "$FREC_BUILD/stock-$n/ko/frec.ko" ] || build_for "$n" > /dev/null || return 1
	FREC_KVER=$n FREC_GUEST_TEST_EARLY_DEATH=1 "$FREC_ROOT/scripts/guest-run.sh" -k stock \
		-M "$FREC_BUILD/stock-$n/ko" -o "$out" "$t1" > "$out.log" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -q '^NOTE guest: boot 1 died before the first test (Kernel panic' "$out.log" &&
		grep -q '^PASS 0001-insmod' "$out.log"; then
		echo "PASS guest-retry:early-death: $(grep -m1 "^NOTE" "$out.log")"
	else
		echo "FAIL guest-retry:early-death: boot 1 not retried, or boot 2 failed (see $out.log)"
		bad=1
	fi
	# A boot that dies of an emulator fault in 0001: both tests run again.
	rerun_case() { # name env-var NOTE-pattern
		FREC_KVER=$n env "$2=1" "$FREC_ROOT/scripts/guest-run.sh" -k stock \
			-M "$FREC_BUILD/stock-$n/ko" -o "$out-$1" -T 300 "$t1" "$t2" > "$out-$1.log" 2>&1 &&
			grep -q "^NOTE guest: died in 0001-insmod of an emulator fault ($3" "$out-$1.log" &&
			[ "$(grep -c '^PASS 000[12]-' "$out-$1.log")" = 2 ]
	}
	if rerun_case int3 FREC_GUEST_TEST_STALE_INT3 'Oops: int3: .*: an int3 at frec_fake_site+0x1/0x10, where memory holds 0xe9'; then
		echo "PASS guest-retry:stale-int3: $(grep -m1 "^NOTE guest: died" "$out-int3.log")"
	else
		echo "FAIL guest-retry:stale-int3: 0001 and 0002 not run again after boot 1 died, or the rerun failed (see $out-int3.log)"
		bad=1
	fi
	if rerun_case spin FREC_GUEST_TEST_INT3_SPIN 'watchdog: BUG: soft lockup.*: an int3 at frec_fake_spin+0x0/0x10, where memory holds 0x90, 0x0f'; then
		echo "PASS guest-retry:int3-spin: $(grep -m1 "^NOTE guest: died" "$out-spin.log")"
	else
		echo "FAIL guest-retry:int3-spin: 0001 and 0002 not run again after boot 1's soft lockup on a stale int3, or the rerun failed (see $out-spin.log)"
		bad=1
	fi
	FREC_KVER=$n FREC_GUEST_TEST_REBOOT_HANG=1 FREC_GUEST_REBOOT_TIMEOUT=20 \
		"$FREC_ROOT/scripts/guest-run.sh" -k stock -M "$FREC_BUILD/stock-$n/ko" -o "$out-reboot" \
		-T 300 "$FREC_ROOT/scripts/guest-tests/0039-region-persist-sysrq-b.sh" > "$out-reboot.log" 2>&1
	if grep -q "^NOTE guest: boot 1 hung (its boot 2 had not started the runner after 20 s" "$out-reboot.log" &&
		grep -q '^PASS 0039-region-persist-sysrq-b' "$out-reboot.log"; then
		echo "PASS guest-retry:reboot-hang: $(grep -m1 "^NOTE guest: boot 1 hung" "$out-reboot.log")"
	else
		echo "FAIL guest-retry:reboot-hang: boot 1's hung second boot not found, or the run again failed (see $out-reboot.log)"
		bad=1
	fi
	# make check run twice in one tree: a console test judged in the
	# directory of an earlier run is judged by its own console.
	local t28=$FREC_ROOT/scripts/guest-tests/0028-console-no-raw-addresses.sh
	FREC_KVER=$n "$FREC_ROOT/scripts/guest-run.sh" -k stock -M "$FREC_BUILD/stock-$n/ko" \
		-o "$out-again" "$t28" > "$out-again.log" 2>&1
	FREC_KVER=$n "$FREC_ROOT/scripts/guest-run.sh" -k stock -M "$FREC_BUILD/stock-$n/ko" \
		-o "$out-again" "$t28" >> "$out-again.log" 2>&1
	if [ "$(grep -c '^PASS 0028-console-no-raw-addresses' "$out-again.log")" = 2 ]; then
		echo "PASS guest-retry:same-dir: a console test run twice in one directory passes twice"
	else
		echo "FAIL guest-retry:same-dir: the second run of 0028 in the first's directory failed (see $out-again.log)"
		bad=1
	fi
	FREC_KVER=$n FREC_GUEST_TEST_NMI_PANIC=1 "$FREC_ROOT/scripts/guest-run.sh" -k stock \
		-M "$FREC_BUILD/stock-$n/ko" -o "$out-panic" "$t1" > "$out-panic.log" 2>&1
	if grep -q '^FAIL guest: runner did not finish (Kernel panic - not syncing: frec_crash_test: panic in NMI); first report: Kernel panic .*; trace < ' "$out-panic.log"; then
		echo "PASS guest-retry:panic-console: a panic in an NMI left its line on the console, and the run names it with its trace"
	else
		echo "FAIL guest-retry:panic-console: the console lacks the panic of boot 1's NMI (see $out-panic.log)"
		bad=1
	fi
	check_interrupt || bad=1
	return $bad
}

# check_interrupt: make check, interrupted as a terminal's Ctrl-C does
# (SIGINT to its process group) while guest-debug waits for the debug
# kernel it builds, leaves no process behind: that build runs in a session
# of its own, which went on building for a quarter of an hour before
# stop_sessions.  A run of its own (its own build/ and an empty cache), so
# the debug kernel is not cached there; no guest boots.
check_interrupt() {
	local dir=$FREC_BUILD/interrupt pid i p building= waiting= left=
	rm -rf "$dir"
	mkdir -p "$dir/cache"
	# The processes of that run: the cache is in their environment.
	interrupt_run_pids() {
		grep -lzFx "FREC_CACHE=$dir/cache" /proc/[0-9]*/environ 2> /dev/null | cut -d/ -f3
	}
	# That run is a session of its own, which this one's Ctrl-C does not
	# reach: interrupted, this check takes it along.
	trap 'kill -9 $(interrupt_run_pids) 2> /dev/null' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	# Started from a script, a command gets SIGINT ignored; a terminal's
	# job does not.
	FREC_BUILD=$dir/build FREC_CACHE=$dir/cache FREC_CHECK_PARTS=guest-debug python3 -c \
		'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.setsid(); os.execv(sys.argv[1], sys.argv[1:])' \
		"$FREC_ROOT/scripts/check.sh" > "$dir/check.log" 2>&1 < /dev/null &
	pid=$!
	# Until guest-debug waits and the build runs (debug-kernel.sh, which
	# extracts linux-source first): a build that died at once is no test.
	for i in $(seq 120); do
		building= waiting=
		for p in $(interrupt_run_pids); do
			grep -qsF debug-kernel.sh "/proc/$p/cmdline" && building=1
		done
		grep -qs '^== debug kernel: waiting' "$dir/build/logs/guest-debug.out" && waiting=1
		[ -n "$building" ] && [ -n "$waiting" ] && break
		sleep 0.5
	done
	if [ -z "$building" ] || [ -z "$waiting" ] ||
		[[ " $(jobs -rp | tr '\n' ' ') " != *" $pid "* ]]; then
		echo "FAIL guest-retry:interrupt: the run did not come to wait for a debug kernel's build${waiting:+ (it waited, but no build ran)} (see $dir/check.log, $dir/build/logs/)"
		return 1
	fi
	kill -INT -- "-$pid"
	# Its EXIT trap ends the build's session: give it 30 s.
	for i in $(seq 60); do
		left=$(interrupt_run_pids | tr '\n' ' ')
		[ -z "$left" ] && break
		sleep 0.5
	done
	if [ -n "$left" ]; then
		echo "FAIL guest-retry:interrupt: processes left 30 s after SIGINT:$(for i in $left; do
			printf ' %s' "$(tr '\0\n' '  ' 2> /dev/null < "/proc/$i/cmdline" | cut -c1-60)"; done) (see $dir/check.log)"
		return 1
	fi
	trap - EXIT INT TERM
	echo "PASS guest-retry:interrupt: make check interrupted while the debug kernel built left no process"
	rm -rf "$dir"
}

package_check() {
	local rc=0
	scripts/package.sh -o "$FREC_BUILD/deb" || rc=1
	# frec-tools for arm64, cross-built: its lines named package-arm64-*.
	scripts/package.sh -a arm64 -o "$FREC_BUILD/deb-arm64" |
		sed 's/^\(PASS\|FAIL\) package-/\1 package-arm64-/'
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
	scripts/archive-check.sh || rc=1
	return $rc
}

dkms_check() {
	# The packages the package part builds beside the guests.
	wait_background_part package
	if [ ! -f "$FREC_BUILD/deb/frec-dkms_$(cat VERSION)_all.deb" ]; then
		scripts/package.sh -o "$FREC_BUILD/deb" || return 1
	fi
	scripts/dkms-check.sh "$FREC_BUILD/deb"
}

run_part() { # name
	local p=$1
	# The background parts start when the build part has ended: it makes
	# in-tree Module.symvers (compile-fail) and build/tools (harness,
	# decode and archive-check build there too: two makes in one tree
	# would race), and fetches the first stock kernel (stock-kernel.sh's
	# cache, built by one process at a time); build-kernels, the first of
	# them, fetches the others lint builds against.
	[ -z "$background" ] || wait_foreground_part build
	[ "$p" != guest-debug ] || debug_started=$SECONDS
	case $p in
	lint)		part lint scripts/lint.sh ;;
	build)		part build build_stock "$([ -n "$bg_parts" ] && echo first || echo all)" ;;
	build-kernels)	part build-kernels build_stock rest ;;
	compile-fail)	part compile-fail scripts/compile-fail.sh ;;
	arch)		part arch scripts/arch-check.sh ;;
	harness)	part harness harness ;;
	decode)		part decode decode_check ;;
	kernelshark)	part kernelshark nice -n 19 scripts/kernelshark-check.sh ;;
	guest-stock)
		for n in $FREC_STOCK_KERNELS $FREC_ARM64_KERNELS; do
			part "guest-stock-$n" guest stock "$n"
		done ;;
	guest-stock-*)	part "$p" guest stock "${p#guest-stock-}" ;;
	guest-retry)	part guest-retry guest_retry ;;
	package)	part package package_check ;;
	dkms)		part dkms dkms_check ;;
	guest-debug)	part guest-debug guest debug ;;
	*)		echo "FAIL check: unknown part '$p'" | tee -a "$results" ;;
	esac
	if [ -n "$background" ]; then
		touch "$logs/.background-done-$p"
	else
		touch "$logs/.foreground-done-$p"
	fi
}

# wait_foreground_part NAME (in the background run): until the main run's
# part NAME has ended, if it runs that part at all; a main run gone ends
# this one.
wait_foreground_part() {
	[[ " ${FREC_CHECK_MAIN_PARTS:-} " == *" $1 "* ]] || return 0
	while [ ! -e "$logs/.foreground-done-$1" ]; do
		kill -0 "$FREC_CHECK_MAIN_PID" 2> /dev/null || exit 1
		sleep 2
	done
}

# The parts that boot no guest run beside those that do, when both are
# asked for: TCG guests leave about a core idle on average (a test waiting
# or sleeping, a boot on one vCPU; the debug kernel's 16 CPU-minutes of
# build fit in what the parts before guest-debug leave), and these parts
# are about 400 s of the run.  They run as a make check of their own
# (FREC_CHECK_BACKGROUND) in a session of their own whose autogroup, and
# they, get nice 19: with CONFIG_SCHED_AUTOGROUP a nice value counts only
# inside its session (as the debug kernel's build, above).  Their lines
# are printed when they end, before the table.  build-kernels goes first
# (the later guest parts wait for it), then package: dkms installs its
# packages (wait_background_part).
background_set=" package lint compile-fail arch harness decode "
fg_parts= bg_parts=
if [ -z "$background" ] && [[ " $parts " == *" guest-"* || " $parts " == *" dkms "* ]]; then
	for p in package $parts; do
		if [[ $background_set == *" $p "* ]]; then
			[[ " $parts " == *" $p "* ]] && [[ " $bg_parts " != *" $p "* ]] && bg_parts+=" $p"
		elif [ "$p" != package ]; then
			fg_parts+=" $p"
		fi
	done
	# The other kernels' modules build first in the background: the
	# first guest part needs only its own.
	[ -z "$bg_parts" ] || [[ " $parts " != *" build "* ]] || bg_parts=" build-kernels$bg_parts"
else
	fg_parts=$parts
fi
[ -n "$background" ] || rm -f "$logs"/.background-done-* "$logs"/.foreground-done-* \
	"$logs/results-background.txt" "$logs/part-times-background.txt"
if [ -n "$bg_parts" ]; then
	# Without the build part, what the guests run from build/tools is
	# built now, not by decode's make beside them.
	[[ " $fg_parts " == *" build "* ]] ||
		make -j"$(nproc)" -C tools O="$FREC_BUILD/tools" decode > "$logs/build-decode.log" 2>&1 ||
		echo "FAIL build-decode: (see $logs/build-decode.log)" | tee -a "$results"
	echo "== beside the guests, at nice 19:$bg_parts (log $logs/background.out)"
	setsid bash -c 'echo 19 > /proc/self/autogroup 2> /dev/null
		FREC_CHECK_BACKGROUND=1 FREC_CHECK_PARTS=$1 FREC_CHECK_MAIN_PARTS=$2 \
		FREC_CHECK_MAIN_PID=$3 exec nice -n 19 "$4"' _ \
		"$bg_parts" "$fg_parts" "$$" "$FREC_ROOT/scripts/check.sh" \
		> "$logs/background.out" 2>&1 < /dev/null &
	bg_pid=$!
fi

# wait_background_part NAME: until the background part NAME has ended (or
# the background run has).
wait_background_part() {
	[ -n "$bg_pid" ] && [[ " $bg_parts " == *" $1 "* ]] || return 0
	while [ ! -e "$logs/.background-done-$1" ] && kill -0 "$bg_pid" 2> /dev/null; do
		sleep 2
	done
}

# The build part runs at the machine's nice: the guests wait for it.
for p in $fg_parts; do
	if [ "$p" = build ]; then export FREC_NICE=0; else export FREC_NICE=19; fi
	run_part "$p"
done
[ -z "$background" ] || exit 0

# The background parts' lines, their times (marked) and results.
if [ -n "$bg_pid" ]; then
	bg_t0=$SECONDS
	wait "$bg_pid"
	echo "background-wait $((SECONDS - bg_t0)) (after the other parts)" >> "$times"
	echo "== beside the guests:$bg_parts (waited $((SECONDS - bg_t0)) s for them after the other parts)"
	grep -E '^(==|PASS|FAIL|SKIP|NOTE) |^   \(' "$logs/background.out"
	cat "$logs/results-background.txt" >> "$results"
	sed 's/$/ (beside the guests)/' "$logs/part-times-background.txt" >> "$times"
	for p in $bg_parts; do
		[ -e "$logs/.background-done-$p" ] ||
			echo "FAIL $p: the background run ended before this part did (see $logs/background.out)" |
			tee -a "$results"
	done
fi

# Where the time went, and the cold total against the budget.  A warm run
# (packages installed, kernels cached) adds what the cache saved it: what
# a cold run's background build of the debug kernel (as timed when it was
# cached) would leave to wait for after the parts before guest-debug, and
# the setup .ci/run timed before make check (FREC_SETUP_S; apt-get is
# about 190 s cold).
budget_table() {
	local wall=$1 setup=${FREC_SETUP_S:-} dk cached=0 cold build before
	echo
	echo "Budget (seconds; CI allows 5400 for .ci/run, make check keeps a cold run within $FREC_BUDGET_S):"
	awk '{ printf "  %-24s %6d", $1, $2; for (i = 3; i <= NF; i++) printf " %s", $i; print "" }' "$times"
	printf "  %-24s %6d\n" "make check (wall)" "$wall"
	if [[ " $parts " == *" guest-debug "* ]] && ! grep -q '^debug-kernel-build ' "$times" &&
		"$FREC_ROOT/scripts/debug-kernel.sh" --cached 2>/dev/null; then
		dk=$("$FREC_ROOT/scripts/debug-kernel.sh" 2>/dev/null | tail -n 1)
		build=$(cat "$dk/.frec-build-seconds" 2>/dev/null || echo 0)
		# A cold run builds it in the background from the start, beside
		# the parts before guest-debug, which then waits for it: only
		# what is left of the build when they end adds to the total.
		before=${debug_started:-$SECONDS}
		cached=$((build > before ? build - before : 0))
		printf "  %-24s %6d  (cached: built in %d s, beside the %d s of parts before guest-debug)\n" \
			"+ debug kernel build" "$cached" "$build" "$before"
	fi
	if [ -n "$setup" ]; then
		printf "  %-24s %6d  (.ci/run: install-deps.sh)\n" "+ setup" "$setup"
	else
		setup=190
		printf "  %-24s %6d  (not timed in this run: a cold apt-get's, 2026-11-28)\n" "+ setup" "$setup"
	fi
	cold=$((wall + cached + setup))
	if [ "$cold" -le "$FREC_BUDGET_S" ]; then
		echo "  cold total (estimate)    $cold of $FREC_BUDGET_S: within the budget"
	else
		echo "  cold total (estimate)    $cold of $FREC_BUDGET_S: OVER THE BUDGET by $((cold - FREC_BUDGET_S)) s (doc/testing.md, \"The time budget\")"
	fi
}

passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
skipped=$(grep -c '^SKIP ' "$results")
echo
stop_sessions
[ -z "$debug_build_pid" ] || wait "$debug_build_pid" 2> /dev/null
budget_table "$(( $(date +%s) - start ))"
echo "make check: $(( $(date +%s) - start )) s, logs in $logs"
if [ "$failed" -gt 0 ]; then
	echo "Failures:"
	grep '^FAIL ' "$results" | sed 's/^/  /'
fi
if [ "$skipped" -gt 0 ]; then
	echo "Skipped ($skipped):"
	grep '^SKIP ' "$results" | sed 's/^/  /'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
