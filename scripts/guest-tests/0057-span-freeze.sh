#!/bin/sh
# description: a threshold trigger on a span's end (control freeze>25ms) fires on the one slow span (50 ms, udelay) among hundreds of fast ones from kthreads, softirq and hard IRQ: the spans ring then holds the slow span's begin and end and the records before them, nothing stored after the freeze (frozen's time) on the slow span's CPU and at most one record in flight on the other, the refused ones counted as dropped_frozen; frozen names the site, the ring and the duration; the same site with dump>25ms prints the console dump, the slow end its CPU's newest record there but for interrupts' spans that came in before the dump
# kernels: 6.1 6.12-rt debug
# timeout: 180
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
C=$D/control
END='func frec_spans_inner format "< inner"'
SLOW_N=60
# spans MS: load frec_spans (its spans start MS ms after the load) in the
# background, with the slow inner span; wait until control lists it.
spans() {
	insmod "$FREC_MODULES/frec_spans.ko" loops=120 slow_us=50000 slow_n=$SLOW_N start_ms=$1 &
	pid=$!
	i=0
	until grep -q '\]frec_spans_inner .*".< inner' $C 2> /dev/null; do
		i=$((i + 1))
		# 20 s: under KASAN a load beside a busy host takes seconds
		[ $i -lt 400 ] || fail "frec_spans' sites not in control"
		sleep 0.05
	done
}
# slow_end FILE: the slow span's end line in a dump
slow_end() {
	grep " spans: .* < inner n=$SLOW_N dur=" "$1" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^dur=/) { d = $i; sub(/dur=/, "", d); sub(/ns/, "", d); if (d + 0 >= 40000000) print } }'
}

# 1. freeze
spans 3000
echo "$END freeze>25ms" > $C || fail "arm freeze>25ms"
wait $pid || fail "insmod frec_spans.ko"
cat $D/frozen
grep -q '^frozen rings: spans$' $D/frozen || fail "the spans ring is not frozen"
grep -q '^fired: site [0-9]* .*frec_spans.c:[0-9]* \[frec_spans\]frec_spans_inner$' $D/frozen ||
	fail "frozen does not name the inner span's end"
grep -q '^action: freeze>25ms$' $D/frozen || fail "action: $(grep action $D/frozen)"
dur=$(sed -n 's/^duration ns: //p' $D/frozen)
[ "$dur" -ge 40000000 ] || fail "fired on a span of $dur ns, not the slow one (50 ms of udelay)"
cat $D/rings/spans/dump > /tmp/ring
end=$(slow_end /tmp/ring)
[ -n "$end" ] || fail "the slow span's end is not in the ring"
echo "# the slow end: $end"
span=$(echo "$end" | sed 's/.* span=\([0-9]*\/[0-9]*\).*/\1/')
bcpu=${span%/*}
bseq=${span#*/}
grep -q "^$bseq \[[ 0-9.]*\] cpu$bcpu [^ ]* spans: .* > inner n=$SLOW_N\$" /tmp/ring || fail "the slow span's begin cpu$bcpu seq $bseq is not in the ring"
ecpu=$(echo "$end" | sed 's/^[0-9]* \[[ 0-9.]*\] cpu\([0-9]*\) .*/\1/')
eseq=${end%% *}
ets=$(echo "$end" | sed 's/^[0-9]* \[ *\([0-9]*\)\.\([0-9]*\)\].*/\1\2/')
# seq ts_ns cpu of every record in the ring
sed -n 's/^\([0-9]*\) \[ *\([0-9]*\)\.\([0-9]*\)\] cpu\([0-9]*\) .*/\1 \2\3 \4/p' /tmp/ring > /tmp/recs
# records before it, on its CPU: the fast spans of the loops before
before=$(awk -v c="$ecpu" -v s="$eseq" '$3 == c && $1 < s' /tmp/recs | grep -c .)
[ "$before" -gt 100 ] || fail "only $before records before the slow end on cpu$ecpu"
# frozen's time: local_clock() read after the freeze took effect
fts=$(sed -n 's/^time: *\([0-9]*\)\.\([0-9]*\)$/\1\2/p' $D/frozen)
[ -n "$fts" ] && [ "$fts" -ge "$ets" ] || fail "frozen's time ($fts) is not after the slow end ($ets)"
# Nothing was stored after the freeze on the slow end's CPU, which froze
# the ring; on the others at most one record each, one that was in flight
# as it froze (past the ring's stop word, its timestamp not yet taken).
# Between the slow end and the freeze, the freezing CPU's interrupts and
# the other CPUs may still record: under TCG a vCPU can be descheduled
# there for milliseconds, so the slow end's timestamp is not the bound.
awk -v c="$ecpu" -v s="$eseq" -v ts="$ets" -v fts="$fts" '
$3 == c && $1 > s { mine++ }
$3 == c && $2 + 0 > fts + 0 { mine_after++ }
$3 != c && $2 + 0 > fts + 0 { other[$3]++ }
$3 != c && $2 + 0 > ts + 0 { between[$3]++ }
END {
	if (mine_after) { print "FAIL: " mine_after " records after the freeze on its CPU" c; exit 1 }
	for (k in other) if (other[k] > 1) { print "FAIL: " other[k] " records after the freeze on cpu" k; exit 1 }
	printf "# after the slow end: %d on its CPU (interrupts before the freeze)", mine
	for (k in between) printf ", %d on cpu%s (%d after the freeze)", between[k], k, other[k]
	printf "; the freeze %.3f ms after the slow end\n", (fts - ts) / 1e6
}' /tmp/recs || fail "records stored after the freeze"
dropped=$(awk '$1 == "all" { for (i = 2; i <= NF; i++) if ($i ~ /^dropped_frozen=/) { split($i, kv, "="); print kv[2] } }' $D/rings/spans/stats)
echo "# dropped_frozen: $dropped; $before records before the slow end on cpu$ecpu"
[ "${dropped:-0}" -gt 100 ] || fail "dropped_frozen is ${dropped:-none}: $(cat $D/rings/spans/stats)"
echo 0 > $D/frozen || fail "clear frozen"
rmmod frec_spans || fail "rmmod frec_spans"

# 2. dump: the console dump shows the window, the slow end its CPU's newest
echo spans > $D/oops_rings || fail "oops_rings"
# The dump prints the newest oops_records of the ring, and the other
# CPU's thread goes on recording until the dump reads: the default 64
# left the slow end 50 records from the cut on the debug kernel
# (2026-11-29), and out of the block in a CI run.
echo 1024 > $D/oops_records || fail "oops_records"
echo 1 > $D/rings/spans/clear 2> /dev/null
dmesg -c > /dev/null
spans 2000
echo "$END dump>25ms" > $C || fail "arm dump>25ms"
wait $pid || fail "insmod frec_spans.ko"
frec_wait_klog 'frec dump end' || fail "no dump"
frec_klog > /tmp/klog
grep -q '^---\[ frec dump begin: trigger site [0-9]* frec_spans.c:[0-9]*' /tmp/klog ||
	fail "begin marker: $(grep 'frec dump begin' /tmp/klog)"
[ "$(grep -c 'frec dump begin' /tmp/klog)" = 1 ] || fail "$(grep -c 'frec dump begin' /tmp/klog) dumps"
frec_console_block < /tmp/klog > /tmp/block || fail "no whole block"
end=$(slow_end /tmp/block)
[ -n "$end" ] || fail "the slow end is not in the console dump"
ecpu=$(echo "$end" | sed 's/^[0-9]* \[[ 0-9.]*\] cpu\([0-9]*\) .*/\1/')
# the newest of its CPU but for interrupts' spans: the dump is printed
# in the slow span's thread, preemption off, interrupts on, so an
# hrtimer's or a timer's span (two records each) may come in before the
# dump reads that CPU; the thread itself records nothing more.  How many
# interrupts come in is the host's matter: a vCPU the host holds back
# for 50 ms takes six timer spans (20 seen on the debug kernel under a
# load of 8), so only their kind is checked.
grep " cpu$ecpu [^ ]* spans: " /tmp/block > /tmp/cpu.block
grep -qFx "$end" /tmp/cpu.block || fail "the slow end is not among cpu$ecpu's lines of the dump"
grep -A 1024 -F -x "$end" /tmp/cpu.block | tail -n +2 > /tmp/after
after=$(grep -c . /tmp/after)
grep -vE ' [<>] (irq|softirq) n=' /tmp/after > /tmp/after.other &&
	fail "records of the thread after the slow end on cpu$ecpu in the dump: $(head -n 2 /tmp/after.other)"
grep -q "^frozen rings" $D/frozen && fail "dump alone froze: $(cat $D/frozen)"
frec_console_expect_last /tmp/klog
echo "# dump: $(grep -c ' spans: ' /tmp/block) spans records in the block, $after after the slow end on cpu$ecpu"
rmmod frec_spans || fail "rmmod frec_spans"
frec_unload
