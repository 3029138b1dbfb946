#!/bin/sh
# description: a freeze trigger armed through control on a site both CPUs record at from hard IRQ (frec_stress's hrtimers) fires once: its ring then holds the firing record (frozen names its ring, CPU and seq) as that CPU's newest and the records before it, nothing newer stored however long the site goes on (counted as dropped_frozen in stats), another ring records on; clearing frozen resumes recording; freeze=all freezes every ring; twenty arm/fire rounds each fire exactly once (no later freeze); from NMI (frec_crash_test) too
# kernels: 6.1 6.12-rt debug
# timeout: 120
. /frec/guest/lib.sh
frec_crash_test_load
insmod "$FREC_MODULES/frec_stress.ko" threads=0 period_us=50 || fail "insmod frec_stress.ko"
D=$FREC_DEBUGFS
C=$D/control
SITE='func frec_stress_tick format check'

# stat RING FIELD: the "all" line's FIELD of rings/RING/stats.
stat() {
	awk -v f="$2" '$1 == "all" { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' \
		$D/rings/$1/stats
}
# frozen_field NAME: a "NAME: value" line of frozen.
frozen_field() {
	sed -n "s/^$1: //p" $D/frozen
}
wait_frozen() {
	i=0
	until grep -q '^fired: ' $D/frozen; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "the trigger did not fire: $(cat $D/frozen)"
		sleep 0.05
	done
}

[ "$(cat $D/frozen)" = "not frozen" ] || fail "frozen at load: $(cat $D/frozen)"
echo "$SITE freeze" > $C || fail "arm freeze"
wait_frozen
cat $D/frozen > /tmp/frozen
cat /tmp/frozen
grep -q '^frozen rings: stress$' /tmp/frozen || fail "frozen rings: $(head -1 /tmp/frozen)"
grep -q '^fired: site [0-9]* /.*frec_stress.c:[0-9]* \[frec_stress\]frec_stress_tick$' /tmp/frozen ||
	fail "fired: $(grep fired /tmp/frozen)"
grep -q '^action: freeze$' /tmp/frozen || fail "action: $(grep action /tmp/frozen)"
[ "$(frozen_field ring)" = stress ] || fail "ring $(frozen_field ring)"
[ "$(frozen_field 'later freezes')" = 0 ] || fail "later freezes $(frozen_field 'later freezes')"
cpu=$(frozen_field cpu)
seq=$(frozen_field seq)
[ -n "$seq" ] && [ "$seq" -gt 0 ] || fail "no seq"
# Fired once: the site is no longer armed.
grep 'frec_stress_tick info stress =r "irq tick' $C > /dev/null || fail "control lost the site"
grep -q 'frec_stress_tick info stress =r,freeze' $C && fail "still armed after it fired"

cat $D/rings/stress/dump > /tmp/d1
text1=$(stat stress_text written)
frozen1=$(stat stress dropped_frozen)
sleep 0.5
cat $D/rings/stress/dump > /tmp/d2
cmp -s /tmp/d1 /tmp/d2 || fail "the frozen ring changed: $(diff /tmp/d1 /tmp/d2 | head -5)"
frozen2=$(stat stress dropped_frozen)
[ "$frozen2" -gt "$frozen1" ] || fail "dropped_frozen did not grow: $frozen1 -> $frozen2"
[ "$(stat stress_text written)" -gt "$text1" ] || fail "stress_text stopped recording"
[ "$(stat stress_text dropped_frozen)" = 0 ] || fail "stress_text counted frozen drops"
# The firing record is its CPU's newest; what follows it is checked by
# frec_after_freeze.
fl=$(grep -n "^$seq \[[ 0-9.]*\] cpu$cpu [^ ]* stress: " /tmp/d2 | cut -d: -f1)
[ -n "$fl" ] || fail "the firing record cpu$cpu seq $seq is not in the ring"
last=$(grep " cpu$cpu [^ ]* stress: " /tmp/d2 | tail -n 1 | cut -d ' ' -f 1)
[ "$last" = "$seq" ] || fail "cpu$cpu's newest is seq $last, not the firing $seq"
frec_after_freeze /tmp/d2 $fl
before=$(head -n $((fl - 1)) /tmp/d2 | grep -c "irq tick")
[ "$before" -gt 100 ] || fail "only $before records before the firing one"
echo "# freeze: cpu$cpu seq $seq fired; $before records before it, $FREC_AFTER_FREEZE; dropped_frozen $frozen1 -> $frozen2"

# Clearing resumes recording; other writes are refused.
for v in 1 yes 'clear all' 00; do
	printf '%s' "$v" > $D/frozen 2>/dev/null && fail "frozen took '$v'"
done
dmesg | grep -q 'frozen: refused "yes": not 0 or clear' || fail "no log line naming the bad word"
grep -q '^frozen rings: stress$' $D/frozen || fail "a refused write unfroze"
echo clear > $D/frozen || fail "clear frozen"
[ "$(cat $D/frozen)" = "not frozen" ] || fail "after clear: $(cat $D/frozen)"
f3=$(stat stress dropped_frozen)
sleep 0.2
[ "$(tail -n 1 $D/rings/stress/dump)" != "$(tail -n 1 /tmp/d2)" ] || fail "recording did not resume"
[ "$(stat stress dropped_frozen)" = "$f3" ] || fail "still dropping as frozen after clear"

# freeze=all: every ring.
echo "$SITE freeze=all" > $C || fail "arm freeze=all"
wait_frozen
rings=$(ls $D/rings | sort | tr '\n' ' ')
got=$(sed -n 's/^frozen rings: //p' $D/frozen | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$got" = "$rings" ] || fail "freeze=all froze '$got', rings are '$rings'"
t1=$(stat stress_text written)
d1=$(stat stress_text dropped_frozen)
sleep 0.3
[ "$(stat stress_text dropped_frozen)" -gt "$d1" ] || fail "stress_text not frozen"
echo 0 > $D/frozen || fail "clear with 0"

# Fire once: both CPUs hit the armed site from hard IRQ; each round must
# note exactly one firing.
r=0
while [ $r -lt 20 ]; do
	echo "$SITE freeze" > $C || fail "arm round $r"
	wait_frozen
	[ "$(frozen_field 'later freezes')" = 0 ] || fail "round $r fired more than once: $(cat $D/frozen)"
	c=$(frozen_field cpu)
	eval "n$c=\$((n$c + 1))"
	echo 0 > $D/frozen
	r=$((r + 1))
done
echo "# fire once: 20 rounds, fired on cpu0 ${n0:-0} cpu1 ${n1:-0} times"

# From NMI: frec_crash_test's NMI record fires it.
echo 'func frec_crash_test_nmi freeze' > $C || fail "arm the NMI site"
echo crash_test > $D/oops_rings
echo nmi > $FREC_TRIGGER || fail "nmi trigger"
grep -q '^frozen rings: crash_test$' $D/frozen || fail "NMI: $(cat $D/frozen)"
grep -q '^fired: .*\]frec_crash_test_nmi$' $D/frozen || fail "NMI fired: $(cat $D/frozen)"
seq=$(frozen_field seq)
tail -n 1 $D/rings/crash_test/dump | grep -q "^$seq .* in NMI on cpu" || fail "NMI record is not the newest"
echo 0 > $D/frozen
echo > $D/oops_rings

rmmod frec_stress
rmmod frec_crash_test
frec_unload
