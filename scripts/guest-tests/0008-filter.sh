#!/bin/sh
# description: filter narrows dump by ring glob, CPU, task pid, sequence, time and text; reading shows it; bad lines are refused and change nothing
# kernels: 6.1
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_hanoi.ko" disks=4 calls=1 || fail "insmod frec_hanoi.ko"
body() { grep -v '^#' "$@"; }
all=$(body $D/dump | wc -l)
[ "$all" -gt 40 ] || fail "expected the sample's records, got $all"
[ -z "$(cat $D/filter)" ] || fail "filter should start empty"

echo 'ring=hanoi_m*' > $D/filter || fail "ring glob refused"
[ "$(cat $D/filter)" = 'ring=hanoi_m*' ] || fail "filter reads back as '$(cat $D/filter)'"
body $D/dump | grep -v ' hanoi_moves: ' && fail "ring glob let another ring through"
[ "$(body $D/dump | wc -l)" = 15 ] || fail "15 moves of 4 disks"

echo 'ring=hanoi_calls,hanoi_timing text=moves=15' > $D/filter || fail "two globs + text refused"
body $D/dump
[ "$(body $D/dump | wc -l)" = 1 ] || fail "text filter: want the outermost call's exit only"
body $D/dump | grep -q ' hanoi_calls: .* < hanoi n=4 moves=15$' || fail "text filter: wrong record"

echo > $D/filter
first=$(body $D/rings/hanoi_moves/dump | head -n 1 | cut -d' ' -f1)
# Each CPU numbers its records of a ring: a seq range picks them per ring and CPU.
echo "ring=hanoi_moves seq=$first-$((first + 2))" > $D/filter || fail "seq range refused"
body $D/dump | cut -d' ' -f1 > /tmp/seqs
[ "$(cat /tmp/seqs | tr '\n' ' ')" = "$first $((first + 1)) $((first + 2)) " ] || fail "seq range gave $(cat /tmp/seqs)"

echo 'cpu=1' > $D/filter || fail "cpu refused"
body $D/dump | grep -v '\] cpu1 ' && fail "cpu filter let another CPU through"
echo 'cpu=0-1' > $D/filter || fail "cpu range refused"
[ "$(body $D/dump | wc -l)" = "$all" ] || fail "cpu=0-1 should show all"

# pid=: the records of the task that loaded the sample (insmod, T<pid>),
# and none of another task's.
echo > $D/filter
pid=$(body $D/dump | sed -n 's/^[0-9]* \[ *[0-9.]*\] cpu[0-9]* T\([0-9]*\) .*/\1/p' | head -n 1)
[ -n "$pid" ] || fail "no record names a task"
n=$(body $D/dump | grep -c "\] cpu[0-9]* T$pid ")
echo "pid=$pid" > $D/filter || fail "pid refused"
[ "$(cat $D/filter)" = "pid=$pid" ] || fail "pid reads back as '$(cat $D/filter)'"
[ "$(body $D/dump | wc -l)" = "$n" ] || fail "pid=$pid showed $(body $D/dump | wc -l) lines, not its $n"
body $D/dump | grep -v "\] cpu[0-9]* T$pid " && fail "pid filter let another task through"
echo "pid=$((pid + 1))" > $D/filter || fail "another pid refused"
[ "$(body $D/dump | grep -c " T$pid ")" = 0 ] || fail "pid=$((pid + 1)) showed T$pid's records"

echo 'time=0-0.000000001' > $D/filter || fail "time refused"
[ "$(body $D/dump | wc -l)" = 0 ] || fail "nothing was recorded in the first ns"
echo 'time=1.5-' > $D/filter || fail "open time range refused"
[ "$(cat $D/filter)" = 'time=1.500000000-' ] || fail "time reads back as '$(cat $D/filter)'"

echo 'ring=hanoi_moves seq=5-' > $D/filter
# time=1. and time=1.-2 were refused here, and now by frec-decode too;
# cpu=0, (an empty item) and cpu=0-1:1/2 (a stride) cpulist_parse() took,
# the filter language (N or A-B, comma-separated) does not.
for bad in 'ring=' 'ring=no_such_ring' 'ring=a/b' 'cpu=99' 'cpu=x' 'pid=x' 'pid=4194304' 'seq=9-3' 'seq=abc' \
	'seq=99999999999999999999999' 'time=1.0000000001-' 'time=5' 'bogus=1' 'ring=x ring=y' \
	'text=' 'noequals' 'seq=-' 'time=1.' 'time=1.-2' 'cpu=0,' 'cpu=0-1:1/2'; do
	if echo "$bad" > $D/filter 2>/dev/null; then
		fail "filter accepted '$bad'"
	fi
	[ "$(cat $D/filter)" = 'ring=hanoi_moves seq=5-' ] || fail "'$bad' changed the filter"
done
head -c 3000 /dev/zero | tr '\0' a > /tmp/long
if cat /tmp/long > $D/filter 2>/dev/null; then fail "overlong filter accepted"; fi
echo > $D/filter || fail "empty line refused"
[ -z "$(cat $D/filter)" ] || fail "empty line should clear the filter"
[ "$(body $D/dump | wc -l)" = "$all" ] || fail "records lost"

# frec-decode parses and matches the language with the same source: for
# the same line it prints what dump shows.
. /frec/run.conf
if frec_have_decoder; then
	cat $D/raw > /tmp/raw && cat $D/formats > /tmp/formats || fail "cat raw, formats"
	cat /proc/kallsyms > /tmp/kallsyms
	t=$(body $D/dump | sed -n '20s/^[0-9]* \[ *\([0-9.]*\)\].*/\1/p')
	for line in 'ring=hanoi_m*' 'ring=hanoi_calls,hanoi_timing text=moves=15' 'cpu=1 seq=5-' \
		'ring=hanoi_* cpu=0-1 text=disk 3' "time=-$t"; do
		echo "$line" > $D/filter || fail "filter '$line' refused"
		cat $D/dump > /tmp/fdump
		frec_decode -f /tmp/formats -k /tmp/kallsyms --filter "$line" /tmp/raw > /tmp/fdec ||
			fail "frec-decode --filter '$line' failed"
		echo "# '$line': $(body /tmp/fdump | wc -l) records"
		diff /tmp/fdump /tmp/fdec || fail "frec-decode --filter '$line' differs from dump"
	done
	echo > $D/filter
else
	echo "# $FREC_DECODER not built (make tools): frec-decode not compared"
fi
rmmod frec_hanoi
frec_unload
