#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Judge one guest run from its logs.
#
#   judge.sh OUT_DIR
#
# OUT_DIR holds console.log (the kernel console, ttyS0), tap.log (the test
# runner's TAP, ttyS1), tests.list (the tests sent to the guest) and
# qemu.rc (QEMU's exit status; 124 means the host timeout hit).  Prints one
# line per test, "PASS name", "FAIL name: why" or "SKIP name", and exits
# non-zero if anything failed: a "not ok", a test without a result, a
# missing "# frec-guest-done" (timeout, panic, hang), QEMU failing, or a
# kernel splat on the console outside a test that declares "# expect:
# splat".
set -uo pipefail

dir=${1:?usage: judge.sh OUT_DIR}
console=$dir/console.log
tap=$dir/tap.log

# Kernel splats: warnings, BUGs, oopses, lockdep and KASAN reports, hung
# tasks, RCU stalls.  (Not a bare "lockdep" or "KASAN": the debug kernel
# names both at boot; their reports start with BUG: or WARNING:, and
# lockdep says it is turning itself off after its first report.)
SPLAT='BUG:|WARNING:|Oops|Call Trace|KASAN:|turning off the locking correctness validator|INFO: task .* blocked|INFO: rcu_.* (self-)?detected stall|general protection fault|Kernel panic|UBSAN:|kernel BUG at|possible circular locking|possible recursive locking|inconsistent lock state|sleeping function called from invalid context'

failed=0
fail() { echo "FAIL $1"; failed=1; }

# Which tests expect a splat, from their header.
declare -A expect_splat=()
while read -r t; do
	[ -n "$t" ] || continue
	grep -q '^# expect: splat' "$t" && expect_splat[$(basename "$t" .sh)]=1
done < "$dir/tests.list"

# Per-test results from the TAP stream.
declare -A result=()
while IFS= read -r line; do
	line=${line%$'\r'}
	case $line in
	"ok "*|"not ok "*)
		name=$(sed -E 's/^(not )?ok [0-9]+ ([^ ]+).*/\2/' <<< "$line")
		result[$name]=$line
		;;
	esac
done < <(cat "$tap" 2>/dev/null)

# Splats on the console, attributed to the test whose begin/end markers
# enclose them ("boot" before the first test).
declare -A splat_in=()
current=boot
while IFS= read -r line; do
	case $line in
	*"frec-test: begin "*) current=${line##*frec-test: begin } ;;
	*"frec-test: end "*) current=between ;;
	esac
	if [[ $line =~ $SPLAT ]] && [[ $line != *"frec-test: "* ]]; then
		[ -n "${splat_in[$current]:-}" ] || splat_in[$current]=$line
	fi
done < <(tr -d '\r' < "$console" 2>/dev/null)

while read -r t; do
	[ -n "$t" ] || continue
	name=$(basename "$t" .sh)
	r=${result[$name]:-}
	if [ -z "$r" ]; then
		fail "$name: no result (guest died or timed out; see $console)"
	elif [[ $r == "not ok"* ]]; then
		fail "$name: ${r#not ok } (see $tap)"
	elif [ -n "${splat_in[$name]:-}" ] && [ -z "${expect_splat[$name]:-}" ]; then
		fail "$name: kernel splat: ${splat_in[$name]} (see $console)"
	elif [[ $r == *"# SKIP"* ]]; then
		echo "SKIP $name: ${r##*# SKIP }"
	else
		echo "PASS $name"
	fi
done < "$dir/tests.list"

for where in boot between; do
	[ -n "${splat_in[$where]:-}" ] &&
		fail "guest-$where: kernel splat outside any test: ${splat_in[$where]} (see $console)"
done
grep -q '^# frec-guest-done' "$tap" 2>/dev/null ||
	fail "guest: runner did not finish (see $console and $tap)"
rc=$(cat "$dir/qemu.rc" 2>/dev/null || echo missing)
case $rc in
0) ;;
124) fail "guest: timed out after ${FREC_GUEST_TIMEOUT:-?}s (see $console)" ;;
*) fail "guest: QEMU exited with status $rc, a guest panic exits 1 (see $console)" ;;
esac
exit $failed
