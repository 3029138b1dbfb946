#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# frec-archive's logic, natively, on a debugfs directory of files: the
# unit runs it once a boot as root, where a mistake costs a boot's black
# box (overwritten, pruned, half written) that nobody sees until it is
# needed.  The guest test 0105 (a step of 0038) runs it on a real
# frec/previous/ after a reset; this covers the cases a boot cannot
# cheaply make.
#
#   archive-check.sh [DECODE_DIR]   (default $FREC_BUILD/tools/decode,
#                                    built by make tools if missing)
#
# previous/raw is a region image frec-gen writes, previous/dump
# frec-decode's --previous=dump of it, previous/info in the kernel's
# format (kmod/blackbox/frec_previous.c) with the boot id, end and counts
# frec-decode reports for that image.  Prints "PASS archive:x" or "FAIL
# archive:x: why" lines; exits non-zero on any failure.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

dec_dir=${1:-$FREC_BUILD/tools/decode}
if [ ! -x "$dec_dir/frec-gen" ] || [ ! -x "$dec_dir/frec-decode" ]; then
	[ $# = 0 ] || die "no frec-gen and frec-decode in $dec_dir"
	nice -n 19 make -s -C "$FREC_ROOT/tools" O="$FREC_BUILD/tools" decode > /dev/null ||
		die "make -C tools O=$FREC_BUILD/tools decode failed"
fi
prog=$FREC_ROOT/tools/frec-archive/frec-archive
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
rc=0
pass() { echo "PASS archive:$1"; }
fail() { echo "FAIL archive:$1: $2"; rc=1; }

# The image and what frec-decode says of it.
"$dec_dir/frec-gen" -n 40 -c 2 --region --no-expected "$t/g" > /dev/null ||
	die "frec-gen failed"
"$dec_dir/frec-decode" "$t/g.region" > /dev/null 2> "$t/report" || die "frec-decode of the image failed"
"$dec_dir/frec-decode" --previous=dump "$t/g.region" > "$t/g.dump" 2> /dev/null ||
	die "frec-decode --previous=dump failed"
report=$(cat "$t/report")
# "region of boot 5eedb007-1d00-..., kernel R, ended: E; N records recovered, M rejected"
re='region of boot ([0-9a-f-]+), kernel ([^,]+), ended: ([^;]+); ([0-9]+) records recovered, ([0-9]+) rejected'
[[ $report =~ $re ]] || die "frec-decode's report has no region line: $report"
gen_id=${BASH_REMATCH[1]//-/} rel=${BASH_REMATCH[2]} end=${BASH_REMATCH[3]}
recovered=${BASH_REMATCH[4]} rejected=${BASH_REMATCH[5]}

# debugfs DIR ID WALL [REJECTED]: DIR/previous/ as frec shows the image,
# under boot ID started at WALL ns.
debugfs() {
	mkdir -p "$1/previous"
	cp "$t/g.region" "$1/previous/raw"
	cp "$t/g.dump" "$1/previous/dump"
	cat > "$1/previous/info" <<-EOF
	previous boot: $2
	release: $rel
	boot wall ns: $3
	end: $end
	alive wall ns: $(($3 + 5000000000))
	ring: log, 2 cpus, 64 slots each
	rings: 1, rejected 0
	records recovered: $recovered
	records rejected: ${4:-$rejected}
	EOF
}

# run NAME: frec-archive with the arguments after NAME, its standard
# output in $t/NAME.out, standard error in $t/NAME.err, exit code in $ex.
run() {
	local n=$1
	shift
	ex=0
	"$prog" "$@" > "$t/$n.out" 2> "$t/$n.err" || ex=$?
}

# --- made: info, raw and dump copied whole, the summary line, no leftovers
a=$t/arch
debugfs "$t/d1" "$gen_id" 1000000000000000000
run made -d "$t/d1" -a "$a"
want="frec-archive: boot $gen_id ended: $end; $recovered records recovered, $rejected rejected; archived in $a/$gen_id"
if [ $ex != 0 ]; then
	fail made "exit $ex: $(cat "$t/made.err")"
elif [ "$(cat "$t/made.out")" != "$want" ]; then
	fail made "printed '$(cat "$t/made.out")', not '$want'"
elif ! cmp -s "$t/d1/previous/raw" "$a/$gen_id/raw" || ! cmp -s "$t/d1/previous/dump" "$a/$gen_id/dump" ||
	! cmp -s "$t/d1/previous/info" "$a/$gen_id/info"; then
	fail made "the archive's files differ from previous/'s"
elif [ "$(ls -A "$a")" != "$gen_id" ]; then
	fail made "the archive directory holds $(ls -A "$a" | tr '\n' ' '), not $gen_id alone"
elif [ "$(stat -c %a "$a/$gen_id")" != 700 ]; then
	fail made "$a/$gen_id has mode $(stat -c %a "$a/$gen_id"), not 700"
else
	pass made
fi

# --- kept: a second run for the same boot changes nothing
echo "changed since" >> "$t/d1/previous/dump"
run again -d "$t/d1" -a "$a"
if [ $ex != 0 ]; then
	fail not-overwritten "exit $ex: $(cat "$t/again.err")"
elif ! grep -q "already archived in $a/$gen_id: not overwritten" "$t/again.out"; then
	fail not-overwritten "printed '$(cat "$t/again.out")'"
elif ! cmp -s "$t/g.dump" "$a/$gen_id/dump"; then
	fail not-overwritten "the archived dump changed"
else
	pass not-overwritten
fi

# --- rejected records: the count and, in brackets, the reasons
id=00112233445566778899aabbccddeeff
debugfs "$t/d2" $id 900000000000000000 "5, torn 3, cut 2"
run rejected -d "$t/d2" -a "$t/arch2"
if [ $ex != 0 ] || ! grep -q "; $recovered records recovered, 5 rejected (torn 3, cut 2); " "$t/rejected.out"; then
	fail rejected "exit $ex, printed '$(cat "$t/rejected.out")'"
else
	pass rejected
fi

# --- keep N: archived in an order unlike the boots' (wall) order; the
# oldest boots go, the one just archived stays, and a directory without a
# boot start is left alone
k=$t/keep
mkdir -p "$k/cafe0000000000000000000000000000"	# no info: not pruned
i=0
for w in 300 100 400 200; do
	i=$((i + 1))
	debugfs "$t/k$i" "$(printf 'b%031d' $i)" "$w"
	run keep$i -d "$t/k$i" -a "$k" -k 3 || true
done
# boots 1 (300), 3 (400), 4 (200, just archived) stay; 2 (100) goes
got=$(cd "$k" && ls | tr '\n' ' ')
want="b0000000000000000000000000000001 b0000000000000000000000000000003 b0000000000000000000000000000004 cafe0000000000000000000000000000 "
if [ "$got" != "$want" ]; then
	fail keep "kept $got, not $want"
elif ! grep -q "^frec-archive: pruned $k/b0000000000000000000000000000002 " "$t/keep4.out"; then
	fail keep "the fourth run did not say it pruned boot 2: $(cat "$t/keep4.out")"
else
	pass keep
fi
# FREC_ARCHIVE_KEEP (the unit's /etc/default/frec-archive) sets it too
debugfs "$t/k5" "$(printf 'b%031d' 5)" 500
FREC_ARCHIVE_KEEP=1 run keep5 -d "$t/k5" -a "$k"
got=$(cd "$k" && ls | tr '\n' ' ')
if [ "$got" != "b0000000000000000000000000000005 cafe0000000000000000000000000000 " ]; then
	fail keep-env "FREC_ARCHIVE_KEEP=1 kept $got"
else
	pass keep-env
fi

# --- disk full (a file size limit; writes past it fail with EFBIG, as
# on a full disk with ENOSPC): the file named, exit 1, no half-written
# archive or temporary directory left, the next run archives whole
for lim in 0 1; do
	# Its output through a pipe, which the limit does not cover.
	out=$( (trap '' XFSZ; ulimit -f $lim; exec "$prog" -d "$t/d1" -a "$t/full$lim" 2>&1) )
	ex=$?
	if [ $ex != 1 ] || ! grep -Eq "^frec-archive: cannot (write|copy) .*$t/full$lim/" <<< "$out"; then
		fail disk-full "with $lim blocks: exit $ex, '$out'"
	elif [ -n "$(ls -A "$t/full$lim")" ]; then
		fail disk-full "with $lim blocks: left $(ls -A "$t/full$lim" | tr '\n' ' ')"
	else
		run full-again -d "$t/d1" -a "$t/full$lim"
		if [ $ex != 0 ] || ! cmp -s "$t/d1/previous/raw" "$t/full$lim/$gen_id/raw"; then
			fail disk-full "after $lim blocks, the next run: exit $ex, '$(cat "$t/full-again.err")'"
		else
			pass disk-full
		fi
	fi
done

# --- killed mid-copy (the unit stopped: TERM to its whole cgroup), here
# while cat waits on a previous/raw that is a FIFO: nothing left
debugfs "$t/d6" "$gen_id" 1
rm "$t/d6/previous/raw"
mkfifo "$t/d6/previous/raw"
setsid "$prog" -d "$t/d6" -a "$t/killed" > /dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do
	[ -n "$(ls -A "$t/killed" 2> /dev/null)" ] && break
	sleep 0.1
done
kill -TERM -- -$pid
wait $pid
ex=$?
if [ $ex = 0 ] || [ -n "$(ls -A "$t/killed")" ]; then
	fail killed "exit $ex, left $(ls -A "$t/killed" | tr '\n' ' ')"
else
	pass killed
fi

# --- no previous boot: said so, exit 0, nothing written
mkdir -p "$t/none"
ok=1
run nodir -d "$t/none" -a "$t/arch3"
[ $ex = 0 ] && grep -q "^frec-archive: no previous boot: $t/none/previous/info does not exist" "$t/nodir.out" ||
	{ fail no-previous "without previous/: exit $ex, '$(cat "$t/nodir.out" "$t/nodir.err")'"; ok=0; }
mkdir -p "$t/none/previous"
echo "previous boot: none found: not a frec region (at byte 0)" > "$t/none/previous/info"
run nonefound -d "$t/none" -a "$t/arch3"
[ $ex = 0 ] && grep -q "^frec-archive: no previous boot: $t/none/previous/info says: not a frec region (at byte 0)$" "$t/nonefound.out" ||
	{ fail no-previous "none found: exit $ex, '$(cat "$t/nonefound.out" "$t/nonefound.err")'"; ok=0; }
[ ! -e "$t/arch3" ] || { fail no-previous "$t/arch3 was created"; ok=0; }
[ $ok = 0 ] || pass no-previous

# --- bad input: each named, nothing written
ok=1
while IFS='|' read -r want_ex want args; do
	# shellcheck disable=SC2086
	run bad -a "$t/arch4" $args
	[ "$ex" = "$want_ex" ] && grep -qF -- "$want" "$t/bad.err" ||
		{ fail bad-input "$args: exit $ex, '$(cat "$t/bad.err")', wanted exit $want_ex and '$want'"; ok=0; }
done <<-EOF
2|-k 0: not a whole number of boots of at least 1|-k 0
2|--keep 1x: not a whole number|--keep 1x
2|unknown argument '--kep'|--kep 3
2|-d needs a value|-d
1|no directory $t/nowhere: frec is not loaded|-d $t/nowhere
1|no readable vmcore file '$t/nowhere'|--vmcore $t/nowhere
EOF
debugfs "$t/d5" "0123-not-hex" 1
run badid -d "$t/d5" -a "$t/arch4"
[ $ex = 1 ] && grep -qF "names the previous boot '0123-not-hex', not 32 hex digits" "$t/badid.err" ||
	{ fail bad-input "boot id 0123-not-hex: exit $ex, '$(cat "$t/badid.err")'"; ok=0; }
[ ! -e "$t/arch4" ] || { fail bad-input "$t/arch4 was created"; ok=0; }
[ $ok = 0 ] || pass bad-input

# --- --vmcore: a compressed kdump of the image's pages, as makedumpfile -c
# writes one (tools/frec-decode/tests/check_vmcore.py builds it, with a
# newer directory copy whose checksum is bad: frec-decode warns, exit 3),
# and the same in makedumpfile's flattened format (-F), which is what
# kdump-tools saves.  The archived dump is what frec-decode --vmcore
# prints of the kdump; never overwritten; a file that is no vmcore is
# refused, and nothing is left.
python3 - "$FREC_ROOT/tools/frec-decode/tests" "$t/g.region" "$t" <<'PY' ||
import struct, sys
sys.path.insert(0, sys.argv[1])
import check_vmcore
core = check_vmcore.kdump(check_vmcore.region_pages(open(sys.argv[2], "rb").read()))[0]
open(sys.argv[3] + "/dump.202611301200", "wb").write(core)
# flattened: a 4096-byte header, then (offset, size) big-endian and the bytes
flat = (b"makedumpfile".ljust(16, b"\0") + struct.pack(">qq", 1, 1)).ljust(4096, b"\0")
for off in range(0, len(core), 65536):
    flat += struct.pack(">qq", off, len(core[off:off + 65536])) + core[off:off + 65536]
open(sys.argv[3] + "/dump.202611301201", "wb").write(flat + struct.pack(">qq", -1, -1))
PY
	die "cannot make the kdump files"
ex=0
"$dec_dir/frec-decode" --vmcore "$t/dump.202611301200" > "$t/k.dump" 2> /dev/null || ex=$?
[ $ex = 3 ] && [ -s "$t/k.dump" ] || die "frec-decode --vmcore of the kdump: exit $ex"
FREC_DECODE=$dec_dir/frec-decode run vm1 --vmcore "$t/dump.202611301200" -a "$t/arch5"
FREC_DECODE=$dec_dir/frec-decode run vm2 --vmcore "$t/dump.202611301200" -a "$t/arch5"
v=$t/arch5/vmcore-dump.202611301200
if [ $ex != 0 ] || ! cmp -s "$t/k.dump" "$v/dump" ||
	[ "$(cat "$v/source" 2>&1)" != "$t/dump.202611301200" ]; then
	fail vmcore "$v: $(ls -A "$v" 2>&1); $(cat "$t/vm1.out" "$t/vm1.err")"
elif ! grep -q "already archived in $v: not overwritten" "$t/vm2.out"; then
	fail vmcore "the second run printed '$(cat "$t/vm2.out" "$t/vm2.err")'"
else
	pass vmcore
fi
if command -v makedumpfile > /dev/null; then
	FREC_DECODE=$dec_dir/frec-decode run vm3 --vmcore "$t/dump.202611301201" -a "$t/arch5"
	v=$t/arch5/vmcore-dump.202611301201
	if [ $ex = 0 ] && cmp -s "$t/k.dump" "$v/dump" && [ -z "$(ls -A "$v" | grep -v -e '^dump$' -e '^decode.log$' -e '^source$')" ]; then
		pass vmcore-flattened
	else
		fail vmcore-flattened "exit $ex: $(cat "$t/vm3.out" "$t/vm3.err"); $(ls -A "$v" 2>&1)"
	fi
else
	echo "NOTE archive:vmcore-flattened: makedumpfile is not installed (scripts/install-deps.sh installs it): not checked"
fi
echo "not a vmcore" > "$t/dump.202611301202"
FREC_DECODE=$dec_dir/frec-decode run vm0 --vmcore "$t/dump.202611301202" -a "$t/arch6"
if [ $ex = 1 ] && grep -q "frec-decode --vmcore $t/dump.202611301202 failed: .*offset 0: " "$t/vm0.err" &&
	[ -z "$(ls -A "$t/arch6" 2>/dev/null)" ]; then
	pass vmcore-refused
else
	fail vmcore-refused "exit $ex, '$(cat "$t/vm0.err")', left $(ls -A "$t/arch6" 2>&1)"
fi
exit $rc
