#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make list-tests`: every test frec has, one line each, under the name
# `make check` prints for it, with the file that holds it:
#
#   NAME<TAB>FILE<TAB>WHAT
#
# The naming rule (doc/testing.md): a result is WHERE:WHAT[:CASE].
#   WHERE  where it ran: a guest kernel (stock-6.1, stock-6.12,
#          stock-6.12-rt, debug-6.12), a harness flavour (harness-native,
#          harness-tsan, harness-asan), or a part (decode, compile-fail,
#          arch)
#   WHAT   the file's stem (a guest test's NNNN-name, a harness file's
#          test_name, a compile-fail case's name) or, for KUnit, the suite
#   CASE   the case inside it (a harness case, a KUnit case)
# Guest tests run on the kernels their "# kernels:" header names (every
# kernel without one), and in the full matrix (FREC_MATRIX=full) on those
# "# can-run:" names; KUnit suites in the debug guest.  This list shows
# each once, with KERNEL and FLAVOUR for WHERE, and both lists of kernels.
set -euo pipefail
cd "$(dirname "$0")/.."

# Guest tests: one script each; the description is its header line.
for t in scripts/guest-tests/*.sh; do
	k=$(sed -n 's/^# kernels: //p' "$t")
	c=$(sed -n 's/^# can-run: //p' "$t")
	printf 'KERNEL:%s\t%s\t[%s; full matrix: %s] %s\n' "$(basename "$t" .sh)" "$t" "${k:-all}" "${c:-all}" \
		"$(sed -n 's/^# description: //p' "$t" | cut -c1-100)"
done

# The debug kernel's version, from the linux-source package it is built
# from (scripts/debug-kernel.sh).
dver=$(sed -n 's/^pkg=${FREC_LINUX_SOURCE_PKG:-linux-source-\([0-9.]*\)}$/\1/p' scripts/debug-kernel.sh)

# KUnit: the cases each suite lists; a suite's table may live in a
# header shared with the harness (kunit/frec_rb_cases.h: RBC_CASE).
for f in kunit/*.c; do
	awk -v file="$f" '
		/^static struct kunit_case [a-z_0-9]+\[\]/ {
			tab = $4; sub(/\[\]$/, "", tab); intab = 1; next }
		intab && /KUNIT_CASE[A-Z_]*\(/ {
			c = $0; sub(/.*KUNIT_CASE[A-Z_]*\(/, "", c); sub(/[,)].*/, "", c)
			cases[tab] = cases[tab] " " c }
		intab && /^};/ { intab = 0 }
		/\.name = "/ { n = $0; sub(/.*\.name = "/, "", n); sub(/".*/, "", n) }
		/\.test_cases = / { tc = $0; sub(/.*= /, "", tc); sub(/,.*/, "", tc)
			suite[tc] = n }
		END { for (t in suite) print suite[t] "\t" t "\t" cases[t] }
	' "$f" | while IFS=$'\t' read -r suite tab cases; do
		if [ -z "$cases" ]; then
			# The table comes from a shared header: its RBC_CASE() lines.
			hdr=$(grep -l "$tab\[\]" kunit/*.h | head -n 1)
			cases=$(sed -nE 's/^\tRBC_CASE\(([a-z_0-9]+)\),?/\1/p' "$hdr" | tr '\n' ' ')
			f2=$hdr
		else
			f2=$f
		fi
		for c in $cases; do
			printf 'debug-%s:kunit:%s:%s\t%s\tKUnit case\n' "$dver" "$suite" "$c" "$f2"
		done
	done
done

# Harness: the cases[] table of each tools/harness/test_*.c, plus the
# shared ring cases it includes.
for f in tools/harness/test_*.c; do
	t=$(basename "$f" .c)
	{
		sed -nE 's/^\t\{ *"([^"]+)".*/\1/p; s/^\tHT_CASE\(([a-z_0-9]+)\).*/\1/p' "$f"
		if grep -q 'frec_rb_cases.h' "$f"; then
			sed -nE 's/^\tRBC_CASE\(([a-z_0-9]+)\),?/\1/p' kunit/frec_rb_cases.h
		fi
	} | while read -r c; do
		printf 'FLAVOUR:%s:%s\t%s\tharness case\n' "$t" "$c" "$f"
	done
done

# The decoder's checks, the client-API build checks, the architecture
# check, frec-archive's checks.
sed -nE 's/.*echo "== decode\/([a-z_-]+).*/\1/p' tools/frec-decode/decode.mk |
	while read -r c; do
		printf 'decode:%s\ttools/frec-decode/decode.mk\tdecoder check\n' "$c"
	done
for f in scripts/compile-fail/*.c; do
	printf 'compile-fail:%s\t%s\t%s\n' "$(basename "$f" .c)" "$f" \
		"expect $(sed -n 's|^// expect: ||p' "$f" | head -n 1): $(sed -n '3s|^// ||p' "$f")"
done
printf 'arch:32-bit-refused\tscripts/arch-check.sh\tfrec refuses a 32-bit kernel\n'
grep -oE '\<pass [a-z-]+' scripts/archive-check.sh | sort -u | while read -r _ c; do
	printf 'archive:%s\tscripts/archive-check.sh\tfrec-archive on a debugfs directory of files\n' "$c"
done
# The bench's own checks (make check's guest-retry part).
grep -oE 'PASS guest-retry:[a-z0-9-]+' scripts/check.sh | sort -u | while read -r _ c; do
	printf '%s\tscripts/check.sh\tthe bench: guest_retry, check_interrupt\n' "$c"
done
