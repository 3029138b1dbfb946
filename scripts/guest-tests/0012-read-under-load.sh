#!/bin/sh
# description: dump read on both CPUs while hard-IRQ and thread writers run: whole lines in time order, no seq repeated; resize and clear under load; stats reconcile exactly
# kernels: 6.1 6.12-rt debug arm64-6.1 arm64-6.12
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_stress.ko" period_us=50 || fail "insmod frec_stress.ko"
sleep 1
# The stress module records from a hard hrtimer (HRTIMER_MODE_*_HARD, a
# hard interrupt on PREEMPT_RT too) and from a kthread per CPU: each line
# names the context it was recorded in.
line_re='^[0-9]+ \[ *[0-9]+\.[0-9]{9}\] cpu[0-9]+ (hardirq stress(_text)?: [^ ]+( \[frec_stress\])? irq tick|T[1-9][0-9]* stress(_text)?: [^ ]+( \[frec_stress\])? task) [0-9]+'
check() {
	grep -v '^#' "$1" > "$1.body"
	grep -Evc "$line_re" "$1.body" | grep -qx 0 || { grep -Ev "$line_re" "$1.body" | head -n 3; return 1; }
	frec_check_order "$1.body" || return 1
	# Self-check: "check" is twice the count.
	awk '/check/ { for (i = 1; i < NF; i++) if ($i == "check") if ($(i + 1) != 2 * $(i - 3)) { print; exit 1 } }' "$1.body"
}
for round in 1 2 3; do
	taskset -c 0 cat $D/dump > /tmp/d0 &
	p0=$!
	taskset -c 1 cat $D/dump > /tmp/d1 &
	p1=$!
	wait $p0 || fail "cat dump on cpu0"
	wait $p1 || fail "cat dump on cpu1"
	check /tmp/d0 || fail "round $round: bad dump on cpu0"
	check /tmp/d1 || fail "round $round: bad dump on cpu1"
	echo "# round $round: $(wc -l < /tmp/d0.body) and $(wc -l < /tmp/d1.body) lines"
	[ "$(wc -l < /tmp/d0.body)" -gt 100 ] || fail "too few records"
done
# Resize and clear while the writers go on.
echo 32768 > $D/rings/stress/size || fail "resize"
[ "$(cat $D/rings/stress/size)" = 32768 ] || fail "size reads $(cat $D/rings/stress/size)"
cat $D/dump > /tmp/d2
check /tmp/d2 || fail "bad dump after resize"
echo 1 > $D/rings/stress_text/clear || fail "clear"
echo 4096 > $D/rings/stress/size || fail "resize down"
for bad in 0 100 3000 abc -1 99999999999999999999 2147483648; do
	echo $bad > $D/rings/stress/size 2>/dev/null && fail "size $bad accepted"
done
[ "$(cat $D/rings/stress/size)" = 4096 ] || fail "a bad size changed the size"
rmmod frec_stress || fail "rmmod frec_stress"
# Writers stopped: every record offered is accounted for, per CPU.
for r in stress stress_text; do
	cat $D/rings/$r/stats
	awk '{ w = 0; s = 0; for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "written") w = kv[2]; else if (kv[1] != "seq") s += kv[2] }
	       if (w != s) { print "unbalanced: " $0; bad = 1 } if ($1 == "all" && w == 0) bad = 1 } END { exit bad }' $D/rings/$r/stats ||
		fail "$r: written != readable + overwritten + dropped + cleared"
	grep -q 'cleared=[1-9]' $D/rings/$r/stats || fail "$r: resize or clear counted nothing"
done
[ "$(grep -c ' stress: ' $D/dump)" = "$(awk '$1 == "all" { split($3, kv, "="); print kv[2] }' $D/rings/stress/stats)" ] ||
	fail "dump and stats disagree on readable records"
frec_unload
