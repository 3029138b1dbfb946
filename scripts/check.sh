#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: every test frec has, on both kernels.
#
#   1. lint: checkpatch --strict, kernel-doc, sparse + W=1
#   2. build: frec.ko for Debian's stock kernel, the userspace tools, and
#      the client-API build checks (scripts/compile-fail.sh); frec refused
#      on a 32-bit kernel (scripts/arch-check.sh)
#   3. harness: userspace tests of kernel-shared code, native, under TSan
#      and under ASan/UBSan
#   4. guest-stock: the guest tests on Debian's linux-image-amd64 (QEMU TCG)
#   5. guest-debug: the guest tests and the KUnit suites on the debug kernel
#      (lockdep, atomic-sleep checks, KASAN), built once and cached
#
# Each check prints "PASS name", "FAIL name: why (see LOG)" or "SKIP name";
# the run ends with the failures again and the plain line
# "N passed, N failed" (", N skipped"), and exits non-zero on any failure.
# FREC_CHECK_PARTS="lint build compile-fail arch harness decode guest-stock guest-debug"
# picks parts.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$FREC_ROOT" || exit 1

parts=${FREC_CHECK_PARTS:-lint build compile-fail arch harness decode guest-stock guest-debug}
logs=$FREC_BUILD/logs
mkdir -p "$logs"
results=$logs/results.txt
: > "$results"
start=$(date +%s)

# Run a part whose stdout is PASS/FAIL/SKIP lines; a part that dies
# without saying why is itself a failure.
part() { # name command...
	local name=$1 rc t0=$SECONDS
	shift
	echo "== $name"
	"$@" 2>&1 | tee -a "$logs/$name.out" | grep -E '^(PASS|FAIL|SKIP) ' | tee -a "$results"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ] && ! grep -q "^FAIL " "$logs/$name.out"; then
		echo "FAIL $name: exited $rc (see $logs/$name.out)" | tee -a "$results"
	fi
	echo "   ($name: $((SECONDS - t0)) s)"
}

build_stock() {
	local log=$logs/build.log
	if make modules tools > "$log" 2>&1; then
		echo "PASS build"
	else
		echo "FAIL build: make modules tools (see $log)"
		return 1
	fi
}

# One line per harness case and flavour, from the runner's TAP.
harness() {
	local log=$logs/harness.log rc=0 f t bin
	make -C tools all > "$log" 2>&1 || { echo "FAIL harness-build: (see $log)"; return 1; }
	for f in native tsan asan; do
		for bin in "$FREC_BUILD"/tools/$f/test_*; do
			t=$(basename "$bin")
			"$bin" > "$logs/harness-$f-$t.log" 2>&1 || rc=1
			sed -nE "s/^ok [0-9]+ (.*)/PASS harness-$f-$t-\1/p;
				 s/^not ok [0-9]+ (.*)/FAIL harness-$f-$t-\1: (see ${logs//\//\\/}\/harness-$f-$t.log)/p" \
				"$logs/harness-$f-$t.log"
			grep -q '^[0-9]* passed, 0 failed$' "$logs/harness-$f-$t.log" ||
				echo "FAIL harness-$f-$t: did not finish cleanly (see $logs/harness-$f-$t.log)"
		done
	done
	return $rc
}

# The decoder's own checks (tools/frec-decode/decode.mk): unit tests,
# generated dumps, crafted bad inputs, a short fuzz run.  One line each.
decode_check() {
	local log=$logs/decode-check.log rc=0
	make -C tools decode-check > "$log" 2>&1 || rc=1
	awk -v l="$log" '/^== decode\// { if (name != "") print (bad ? "FAIL " : "PASS ") name (bad ? ": (see " l ")" : ""); name = substr($2, 8); bad = 0; next }
		/[1-9][0-9]* failed|FAIL|ERROR|error:/ { bad = 1 }
		END { if (name != "") print (bad ? "FAIL " : "PASS ") name (bad ? ": (see " l ")" : "") }' "$log" |
		sed 's/^\(PASS\|FAIL\) /\1 decode-/'
	[ $rc = 0 ] || echo "FAIL decode-check: make -C tools decode-check failed (see $log)"
	return $rc
}

guest() { # stock|debug
	local kind=$1 out=$logs/guest-$1
	if [ "$kind" = debug ]; then
		if ! "$FREC_ROOT/scripts/debug-kernel.sh" > "$logs/debug-kernel.log" 2>&1; then
			echo "FAIL debug-kernel: build failed (see $logs/debug-kernel.log)"
			return 1
		fi
		if ! make debug-modules > "$logs/debug-modules.log" 2>&1; then
			echo "FAIL debug-modules: (see $logs/debug-modules.log)"
			return 1
		fi
	fi
	"$FREC_ROOT/scripts/guest-run.sh" -k "$kind" -o "$out" | sed "s/^\(PASS\|FAIL\|SKIP\) /\1 $kind:/"
	local rc=${PIPESTATUS[0]}
	if [ "$kind" = debug ]; then
		kunit_results "$out" || rc=1
	fi
	return "$rc"
}

# KUnit cases from the debug guest's console, one line each, checked by
# the kernel's own KTAP parser too.
kunit_results() { # out_dir
	local out=$1 ktap=$1/kunit.ktap n
	"$FREC_ROOT/scripts/ktap-extract.sh" "$out/console.log" > "$ktap" 2> "$out/ktap-extract.log" || {
		echo "FAIL kunit: no KTAP in the console (see $out/console.log)"
		return 1
	}
	n=$(grep -cE '^    (not )?ok [0-9]+ ' "$ktap")
	[ "$n" -gt 0 ] || { echo "FAIL kunit: no KUnit case ran (see $out/console.log)"; return 1; }
	awk -v ktap="$ktap" '
		/^    # Subtest: / { suite = $3 }
		/^        # Subtest: / { next }
		/^    ok [0-9]+ .*# SKIP/ { print "SKIP kunit:" suite "." $3; next }
		/^    ok [0-9]+ / { print "PASS kunit:" suite "." $3 }
		/^    not ok [0-9]+ / { print "FAIL kunit:" suite "." $4 ": (see " ktap ")" }
		/^ok [0-9]+ |^not ok [0-9]+ / { suite = "" }
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

for p in $parts; do
	case $p in
	lint)		part lint scripts/lint.sh ;;
	build)		part build build_stock ;;
	compile-fail)	part compile-fail scripts/compile-fail.sh ;;
	arch)		part arch scripts/arch-check.sh ;;
	harness)	part harness harness ;;
	decode)		part decode decode_check ;;
	guest-stock)	part guest-stock guest stock ;;
	guest-debug)	part guest-debug guest debug ;;
	*)		echo "FAIL check: unknown part '$p'" | tee -a "$results" ;;
	esac
done

passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
skipped=$(grep -c '^SKIP ' "$results")
echo
echo "make check: $(( $(date +%s) - start )) s, logs in $logs"
if [ "$failed" -gt 0 ]; then
	echo "Failures:"
	grep '^FAIL ' "$results" | sed 's/^/  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
