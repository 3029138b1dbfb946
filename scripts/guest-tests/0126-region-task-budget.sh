#!/bin/sh
# description: black box task names: 150 tasks, each named apart, store a record into a persisted ring in a 128 KiB region; the sweeps name as many as the names' budget (an eighth of the region's text entries) and refuse and count the rest, and the %s and %ps texts recorded after that are still written; frec reloaded on the same region shows the load as previous/, whose records print as the live dump printed them and whose raw, and a dd of the region, name the first tasks with their own names and the refused ones "<...>" (frec-decode's JSON, comm-pid)
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: alone
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=128K@0x20000000
D=$FREC_DEBUGFS
T=/sys/module/frec_crash_test/parameters/trigger
N=150

frec_have_decoder || fail "no $FREC_DECODER: build tools first (make tools)"
# region_texts' line $1's count.
counted() {
	sed -n "s/^$1: //p" $D/region_texts
}

dmesg -c > /dev/null
frec_load region=$R persist_rings=crash_test
# A 128 KiB region's texts section: 16 KiB of entries, 512 (the load
# says); its parts, 32 KiB, hold crash_test's 16 KiB a CPU.
texts=$(frec_klog | sed -n 's/^frec: region: 128 KiB .* \([0-9]*\) texts, .*/\1/p')
[ -n "$texts" ] || fail "the load did not say how many texts the region holds"
budget=$((texts / 8))
echo "the region holds $texts texts: $budget task names"
insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
frec_klog | grep -q 'ring crash_test: recorded into the region' ||
	fail "crash_test was not taken into the region"

# Each task names itself (a subshell writes its own comm, with echo's
# builtin: an applet would write its own; -n: the kernel would keep a
# newline as part of the name), stores one
# record and waits on a FIFO no one writes: it lives until killed, so
# every sweep finds its name.
mkfifo /tmp/hold || fail "mkfifo"
: > /tmp/tasks
i=1
while [ $i -le $N ]; do
	(echo -n "frec-t$i" > /proc/self/comm && echo 'record 1' > $T && read -r x < /tmp/hold) &
	echo "$! frec-t$i" >> /tmp/tasks
	i=$((i + 1))
done
# The tasks' records in crash_test: $N or more once all have stored.
all_recorded() {
	[ "$(frec_ring_lines $D/dump crash_test | grep -c ' crash test 1 of 1 ')" -ge $N ]
}
frec_wait_for 600 all_recorded || fail "the $N tasks did not record within 60 s"
frec_texts_swept
cat $D/region_texts
[ "$(counted 'task names written')" = "$budget" ] ||
	fail "$(counted 'task names written') task names written, not the budget's $budget"
refused=$(counted 'refused (no room)')
[ "$refused" -ge $((N - budget)) ] ||
	fail "$refused names refused, fewer than the $((N - budget)) tasks past the budget"
texts0=$(counted 'texts written')

# Texts first pointed to now, with the names' budget spent: red, green,
# blue and two functions (%ps).
echo 'strings 6' > $T || fail "strings 6"
frec_texts_swept
cat $D/region_texts
[ "$(counted 'texts written')" = $((texts0 + 5)) ] ||
	fail "$(($(counted 'texts written') - texts0)) texts written after the budget ran out, not the 5 the records point to"
frec_ring_lines $D/dump crash_test > /tmp/old
grep -q ' crash test red ' /tmp/old || fail "no strings records in the dump"

kill $(cut -d ' ' -f 1 /tmp/tasks) 2> /dev/null
wait
rmmod frec_crash_test || fail "rmmod frec_crash_test"
frec_unload
# The region as frec-decode reads it with no kernel of that boot (and
# KernelShark's check, doc/testing.md, when the host shares /export).
dd if=/dev/mem of=/tmp/region bs=4096 skip=$((0x20000000 / 4096)) count=32 2> /dev/null ||
	fail "dd of the region from /dev/mem"
frec_export /tmp/region
# The same region, reloaded in the same boot: the earlier load is its
# previous boot (doc/blackbox.md).
frec_load region=$R
frec_ring_lines $D/previous/dump crash_test > /tmp/new
cmp -s /tmp/old /tmp/new || {
	diff /tmp/old /tmp/new | head -n 10
	fail "previous/dump's crash_test records differ from the dump's before the reload"
}
echo "previous/dump prints the $(grep -c . /tmp/new) crash_test records as the dump did"
grep -q '(efault)' /tmp/new && fail "previous/dump prints a string as unreadable"

# The tasks in the order their first records were stored: the sweeps name
# them in that order until the budget runs out.
sed -n 's/.* T\([0-9]*\) crash_test: .* crash test 1 of 1 cpu .*/\1/p' /tmp/new | awk '!s[$1]++' > /tmp/order
[ "$(grep -c . /tmp/order)" = $N ] || fail "previous/dump holds records of $(grep -c . /tmp/order) of the $N tasks"

# The tracks of frec-decode's JSON of $1 ("comm-pid"): the first $budget
# tasks named as they named themselves, the others and this shell (its
# strings came after the budget ran out) "<...>-pid".
check_names() {
	frec_decode "$1" -F json --json-track=task > /tmp/tasks.json 2> /dev/null ||
		fail "frec-decode -F json --json-track=task of $1 failed"
	grep -o '"[^"]*-[0-9][0-9]*"' /tmp/tasks.json | sort -u > /tmp/tracks
	# One awk, not a grep a task: 300 of those took 24 s under TCG.
	got=$(awk -v budget="$budget" -v f="$1" '
		FILENAME == "/tmp/tracks" { track[$0] = 1; next }
		FILENAME == "/tmp/tasks" { comm[$1] = $2; next }
		{
			k++
			pid = $1
			if (!(pid in comm)) {
				print "pid " pid " stored a record and is not one of the tasks"
				bad = 1
				exit
			}
			name = comm[pid] "-" pid
			if (("\"" name "\"") in track) {
				if (k > budget) {
					print f ": task " k ", " name ", named past the budget of " budget
					bad = 1
					exit
				}
				named++
			} else if (("\"<...>-" pid "\"") in track) {
				if (k <= budget) {
					print f ": task " k " (" name ") unnamed within the budget of " budget
					bad = 1
					exit
				}
				unnamed++
			} else {
				print f ": no track of task " name " in frec-decode'"'"'s JSON"
				bad = 1
				exit
			}
		}
		END { if (bad) exit 1; print named + 0, unnamed + 0 }' /tmp/tracks /tmp/tasks /tmp/order) ||
		fail "$got"
	grep -qx "\"<\.\.\.>-$$\"" /tmp/tracks || fail "$1: this shell (pid $$) is named past the budget"
	echo "$1 names the first ${got% *} tasks, and ${got#* } and this shell \"<...>\""
}
check_names $D/previous/raw
check_names /tmp/region
frec_unload
