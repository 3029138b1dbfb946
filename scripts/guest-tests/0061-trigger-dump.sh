#!/bin/sh
# description: a dump trigger prints the console dump from the context of the record that fired it (hard IRQ, NMI): with freeze too, the block holds the firing record as its CPU's newest and the records before it, all of them the frozen ring's, and reaches the console itself (judge.sh); with dump alone, five arm/fire rounds of both CPUs hitting the site from hard IRQ print exactly one dump each; from NMI (frec_crash_test) the block holds the NMI's record
# timeout: 120
. /frec/guest/lib.sh
frec_crash_test_load
insmod "$FREC_MODULES/frec_stress.ko" threads=0 period_us=50 || fail "insmod frec_stress.ko"
D=$FREC_DEBUGFS
C=$D/control
SITE='func frec_stress_tick format check'
frozen_field() {
	sed -n "s/^$1: //p" $D/frozen
}
# trigger_block < LOG: the lines of the last dump a trigger printed.
trigger_block() {
	awk '/^---\[ frec dump begin: trigger site/ { n = 0; inb = 1; done = 0; next }
		/^---\[ frec dump end/ && inb { inb = 0; done = 1; next }
		inb { l[n++] = $0 }
		END { if (!done) exit 1; for (i = 0; i < n; i++) print l[i] }'
}
begins() {
	dmesg | grep -c 'frec dump begin: trigger site'
}

echo stress > $D/oops_rings || fail "oops_rings"
dmesg -c > /dev/null
echo "$SITE freeze dump" > $C || fail "arm freeze dump"
frec_wait_klog 'frec dump end' || fail "no dump"
frec_klog > /tmp/klog
grep -q '^---\[ frec dump begin: trigger site [0-9]* frec_stress.c:[0-9]*, newest 64 records per ring ]---$' /tmp/klog ||
	fail "begin marker: $(grep 'frec dump begin' /tmp/klog)"
trigger_block < /tmp/klog | tail -n +3 > /tmp/block || fail "no whole block"
cpu=$(frozen_field cpu)
seq=$(frozen_field seq)
grep -q '^action: freeze,dump$' $D/frozen || fail "action: $(cat $D/frozen)"
cat $D/rings/stress/dump > /tmp/ring
[ "$(wc -l < /tmp/block)" = 64 ] || fail "$(wc -l < /tmp/block) lines in the block"
grep -v -F -x -f /tmp/ring /tmp/block > /tmp/extra && fail "block lines not in the ring: $(head -3 /tmp/extra)"
fl=$(grep -n "^$seq \[[ 0-9.]*\] cpu$cpu [^ ]* stress: " /tmp/block | cut -d: -f1)
[ -n "$fl" ] || fail "the firing record cpu$cpu seq $seq is not in the block"
[ "$(grep " cpu$cpu [^ ]* stress: " /tmp/block | tail -n 1 | cut -d ' ' -f 1)" = "$seq" ] ||
	fail "the firing record is not cpu$cpu's newest in the block"
frec_after_freeze /tmp/block $fl
echo "# freeze dump: $FREC_AFTER_FREEZE"
frec_console_expect_last /tmp/klog
echo "# freeze dump: cpu$cpu seq $seq, line $fl of 64"
echo 0 > $D/frozen

# Dump alone, fire once: one dump per arming.
dmesg -c > /dev/null
r=1
while [ $r -le 5 ]; do
	echo "$SITE dump" > $C || fail "arm dump round $r"
	i=0
	until [ "$(begins)" -ge $r ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "round $r: no dump"
		sleep 0.05
	done
	frec_wait_klog 'frec dump end' || fail "round $r: no end marker"
	sleep 0.2
	[ "$(begins)" = $r ] || fail "round $r: $(begins) dumps"
	r=$((r + 1))
done
[ "$(cat $D/frozen)" = "not frozen" ] || fail "dump alone froze: $(cat $D/frozen)"
echo "# dump alone: 5 rounds, one dump each"

# From NMI.
echo crash_test > $D/oops_rings
dmesg -c > /dev/null
echo 'func frec_crash_test_nmi dump' > $C || fail "arm the NMI site"
echo nmi > $FREC_TRIGGER || fail "nmi trigger"
frec_wait_klog 'frec dump begin: frec_crash_test from NMI' || fail "no NMI dump"
frec_wait_klog 'frec dump begin: trigger site' || fail "no trigger dump from NMI"
frec_klog > /tmp/klog
trigger_block < /tmp/klog > /tmp/block || fail "no whole trigger block from NMI"
tail -n 1 /tmp/block | grep -q ' in NMI on cpu' || fail "the NMI record is not the newest: $(tail -n 1 /tmp/block)"
echo > $D/oops_rings

rmmod frec_stress
rmmod frec_crash_test
frec_unload
