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
#
# A test that declares "# expect: panic" runs alone in its boot
# (guest-run.sh) and ends the guest.  It passes if it printed no failure
# before the panic, the console shows "Kernel panic", and the console's
# frec dump block whose begin marker names the reason it printed as
# "frec-expect-block: REASON" is whole (begin and end markers) and holds,
# in order, every line it printed as "frec-expect: LINE" (and, if it printed
# "frec-expect-last: TEXT", ends with a record containing TEXT).
#
# Any other test may print "frec-console-block: LINES MD5 BEGIN-MARKER"
# (guest lib.sh, frec_console_expect): a dump block, markers included, that
# the guest saw in its kernel log.  The test fails unless the console
# itself, between the test's "frec-test: begin" and "end" lines, holds each
# such block whole (same lines, same md5), in the order printed: dmesg
# reads the kernel's ring, the console is what an operator's serial log
# gets, and the two part when a console falls behind (nbcon consoles print
# from a thread, and a ring that laps them drops lines).
#
# FREC_JUDGE_CUT (set by guest-run.sh) says the boot died of an emulator
# fault after the tests in tests.list: the splats from that fault on and
# the missing "# frec-guest-done" are then not failures.
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

# judge_panic NAME: the verdict of a test that ends in a panic.
judge_panic() {
	local name=$1 reason block got want last
	if grep -q "^not ok .* $name\b\|^# FAIL: " "$tap" 2>/dev/null; then
		fail "$name: failed before its panic: $(grep -m1 '^# FAIL: ' "$tap") (see $tap)"
		return
	fi
	reason=$(sed -n 's/^# frec-expect-block: //p' "$tap" | tr -d '\r' | tail -n 1)
	[ -n "$reason" ] || { fail "$name: did not reach its panic (see $tap)"; return; }
	tr -d '\r' < "$console" | sed 's/^\[ *[0-9.]*\] //' > "$dir/console.txt"
	grep -q '^Kernel panic' "$dir/console.txt" ||
		{ fail "$name: no kernel panic on the console (see $console)"; return; }
	# The block: an oops prints it before "Kernel panic", the panic
	# notifier after; either way it must be whole.
	block=$(awk -v r="$reason" '
		index($0, "---[ frec dump begin: " r ",") == 1 { inb = 1; n = 0; next }
		inb && /^---\[ frec dump end/ { inb = 0; end = NR; next }
		inb { l[n++] = $0 }
		END { if (!end) exit 1; for (i = 0; i < n; i++) print l[i] }
	' "$dir/console.txt") ||
		{ fail "$name: no complete frec block \"$reason\" on the console (see $console)"; return; }
	printf '%s\n' "$block" > "$dir/block.txt"
	sed -n 's/^# frec-expect: //p' "$tap" | tr -d '\r' > "$dir/want.txt"
	# Every wanted line, in order.
	if ! awk 'BEGIN { i = 0 } NR == FNR { w[n++] = $0; next } i < n && $0 == w[i] { i++ }
		END { if (i < n) { print "missing: " w[i]; exit 1 } }' \
		"$dir/want.txt" "$dir/block.txt" > "$dir/missing.txt"; then
		fail "$name: console block lacks $(cat "$dir/missing.txt") (see $dir/block.txt)"
		return
	fi
	last=$(sed -n 's/^# frec-expect-last: //p' "$tap" | tr -d '\r' | tail -n 1)
	if [ -n "$last" ] && ! tail -n 1 "$dir/block.txt" | grep -qF -- "$last"; then
		fail "$name: the block's last record lacks \"$last\" (see $dir/block.txt)"
		return
	fi
	got=$(grep -c '^[0-9]' "$dir/block.txt")
	echo "PASS $name ($got records in the console block \"$reason\", $(wc -l < "$dir/want.txt") expected ones in order, then Kernel panic)"
}

# Which tests expect a splat, from their header.
declare -A expect_splat=() expect_panic=()
while read -r t; do
	[ -n "$t" ] || continue
	grep -q '^# expect: splat' "$t" && expect_splat[$(basename "$t" .sh)]=1
	grep -q '^# expect: panic' "$t" && expect_panic[$(basename "$t" .sh)]=1
done < "$dir/tests.list"
if [ ${#expect_panic[@]} -gt 0 ]; then
	for name in "${!expect_panic[@]}"; do
		judge_panic "$name"
	done
	exit $failed
fi

# Per-test results from the TAP stream, and the console blocks each test
# expects (its diagnostics come before its result line).
declare -A result=() console_want=()
want=
while IFS= read -r line; do
	line=${line%$'\r'}
	case $line in
	"# frec-console-block: "*)
		want+=${line#\# frec-console-block: }$'\n'
		;;
	"ok "*|"not ok "*)
		name=$(sed -E 's/^(not )?ok [0-9]+ ([^ ]+).*/\2/' <<< "$line")
		result[$name]=$line
		[ -n "$want" ] && console_want[$name]=$want
		want=
		;;
	esac
done < <(cat "$tap" 2>/dev/null)

# console_check NAME: does the console hold, whole and in order, the
# blocks NAME expects?  If not, prints why.  The blocks of NAME's part of
# the console go to OUT_DIR/console-NAME/ (block.K, markers included).
console_check() {
	local name=$1 bdir=$dir/console-$1 n sum begin k from=0 found got dropped
	local -a blocks=()
	rm -rf "$bdir" && mkdir -p "$bdir"
	[ -f "$dir/console.txt" ] ||
		tr -d '\r' < "$console" | sed 's/^\[ *[0-9.]*\] //' > "$dir/console.txt"
	awk -v b="frec-test: begin $name" -v e="frec-test: end $name" '
		$0 == b { on = 1; next }
		index($0, e) == 1 { on = 0 }
		on' "$dir/console.txt" > "$bdir/part.txt"
	# One file per block; a block cut short (no end marker) is kept too.
	awk -v d="$bdir" '
		/^---\[ frec dump begin/ { if (f) close(f); f = d "/block." ++k }
		f { print > f }
		/^---\[ frec dump end/ { if (f) close(f); f = "" }' "$bdir/part.txt"
	for ((k = 1; k <= $(grep -c '^---\[ frec dump begin' "$bdir/part.txt"); k++)); do
		blocks+=("$(wc -l < "$bdir/block.$k") $(md5sum < "$bdir/block.$k" | cut -d ' ' -f 1)")
	done
	while read -r n sum begin; do
		[ -n "$n" ] || continue
		found=
		for ((k = from; k < ${#blocks[@]}; k++)); do
			if [ "${blocks[$k]}" = "$n $sum" ]; then
				found=$k
				break
			fi
		done
		if [ -n "$found" ]; then
			from=$((found + 1))
			continue
		fi
		got=
		for ((k = from; k < ${#blocks[@]}; k++)); do
			if [ "$(head -n 1 "$bdir/block.$((k + 1))")" = "$begin" ]; then
				got="the console's block $bdir/block.$((k + 1)) has ${blocks[$k]%% *} lines"
				tail -n 1 "$bdir/block.$((k + 1))" | grep -q '^---\[ frec dump end' ||
					got+=" and no end marker"
				break
			fi
		done
		[ -n "$got" ] || got="the console has no such begin marker after the blocks matched so far"
		dropped=$(awk '/^\*\* [0-9]+ printk messages dropped \*\*$/ { n++; s += $2 }
			END { if (n) printf "%d \"** N printk messages dropped **\" lines, %d messages in all", n, s }' \
			"$bdir/part.txt")
		echo "the console lacks the block of $n lines the kernel log had (\"$begin\"): $got${dropped:+; the console says $dropped}"
		return
	done <<< "${console_want[$name]}"
}

# Splats on the console, attributed to the test whose begin/end markers
# enclose them ("boot" before the first test).  A boot that guest-run.sh
# found cut short by an emulator fault (FREC_JUDGE_CUT says which) is
# judged up to that fault's first splat: the tests from there on run again
# in another boot.
# The first splat's RIP line goes with it, so that a failure says where.
declare -A splat_in=() splat_rip=()
current=boot
while IFS= read -r line; do
	# A cut boot's first splat is the fault that cut it (guest-run.sh).
	[ -n "${FREC_JUDGE_CUT:-}" ] && [[ $line =~ $SPLAT ]] && [[ $line != *"frec-test: "* ]] && break
	case $line in
	*"frec-test: begin "*) current=${line##*frec-test: begin } ;;
	*"frec-test: end "*) current=between ;;
	esac
	if [[ $line =~ $SPLAT ]] && [[ $line != *"frec-test: "* ]]; then
		[ -n "${splat_in[$current]:-}" ] || splat_in[$current]=$line
	elif [[ $line == "RIP: "* ]] && [ -n "${splat_in[$current]:-}" ] &&
		[ -z "${splat_rip[$current]:-}" ]; then
		splat_rip[$current]=", ${line%% RSP*}"
	fi
done < <(tr -d '\r' < "$console" 2>/dev/null | sed -E 's/^\[ *[0-9.]+\] //')

while read -r t; do
	[ -n "$t" ] || continue
	name=$(basename "$t" .sh)
	r=${result[$name]:-}
	if [ -z "$r" ]; then
		fail "$name: no result (guest died or timed out${splat_in[$name]:+: ${splat_in[$name]}${splat_rip[$name]:-}}; see $console)"
	elif [[ $r == "not ok"* ]]; then
		fail "$name: ${r#not ok } (see $tap)"
	elif [ -n "${splat_in[$name]:-}" ] && [ -z "${expect_splat[$name]:-}" ]; then
		fail "$name: kernel splat: ${splat_in[$name]}${splat_rip[$name]:-} (see $console)"
	elif [ -n "${console_want[$name]:-}" ] && why=$(console_check "$name") && [ -n "$why" ]; then
		fail "$name: $why (see $console)"
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
rc=$(cat "$dir/qemu.rc" 2>/dev/null || echo missing)
if [ -n "${FREC_JUDGE_CUT:-}" ] && [ "$rc" != 124 ]; then
	echo "NOTE guest: this boot was cut short by an emulator fault: $FREC_JUDGE_CUT"
	exit $failed
fi
if ! grep -q '^# frec-guest-done' "$tap" 2>/dev/null; then
	panicked=$(tr -d '\r' < "$console" 2>/dev/null | grep -m1 -o 'Kernel panic - not syncing: .*')
	# CI keeps only what make check prints: the first report's opening
	# lines go with the failure, so a death seen only there can be read.
	# CI shows only a window of that output and its end, so the
	# failure line itself carries the report's gist: its first line,
	# RIP, and the first functions of its call trace.
	report_re='Oops|BUG:|WARNING:|Kernel panic|rcu: INFO|general protection fault|traps: '
	tr -d '\r' < "$console" 2>/dev/null |
		awk -v re="$report_re" '!on && $0 ~ re { on = 1 }
			on && n++ < 40 { print "NOTE console| " $0 }'
	gist=$(tr -d '\r' < "$console" 2>/dev/null |
		awk -v re="$report_re" '!on && $0 ~ re { on = 1; sub(/^\[[ 0-9.]*\] /, ""); g = $0; next }
			on && !oops && /Oops: |BUG: / { oops = 1; sub(/^\[[ 0-9.]*\] /, ""); g = g "; " $0; next }
			on && /RIP: 0010:/ && !rip { rip = 1; sub(/.*RIP: 0010:/, ""); g = g "; RIP " $0; next }
			on && /Call Trace:/ { ct = 1; g = g "; trace"; next }
			on && ct && nf < 8 && /^\[[ 0-9.]*\]  [^ <?]/ { sub(/^\[[ 0-9.]*\]  /, ""); g = g " < " $1; nf++ }
			END { print g }')
	fail "guest: runner did not finish${panicked:+ ($panicked)}${gist:+; first report: $gist} (see $console and $tap)"
fi
case $rc in
0) ;;
124) fail "guest: timed out after ${FREC_GUEST_TIMEOUT:-?}s (see $console)" ;;
*) fail "guest: QEMU exited with status $rc (see $dir/qemu.log)" ;;
esac
exit $failed
