#!/bin/sh
# description: a span end's histogram goes back to the pool when its site id is given to a site that is not a span's end: frec_spans and frec_hanoi loaded together, in turn first, ten rounds (their sites taking each other's ids), with a pool of 12 histograms: every round the histograms in use are those hist lists, frec_spans' end sites, and none of their spans is "not counted"
# kernels: 6.1 debug
# timeout: 300
. /frec/guest/lib.sh
frec_reset
frec_load hist_sites=12
D=$FREC_DEBUGFS
i=0
while [ $i -lt 10 ]; do
	i=$((i + 1))
	# Which loads first alternates: each takes ids the other had.
	if [ $((i % 2)) = 0 ]; then
		insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 || fail "round $i: insmod frec_hanoi.ko"
	fi
	insmod "$FREC_MODULES/frec_spans.ko" loops=2 || fail "round $i: insmod frec_spans.ko"
	if [ $((i % 2)) = 1 ]; then
		insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 || fail "round $i: insmod frec_hanoi.ko"
	fi
	cat $D/hist > /tmp/hist || fail "round $i: cat hist"
	sed -n 2p /tmp/hist
	ends=$(grep -c '^hist .* \[frec_spans\]$' /tmp/hist)
	[ $i = 1 ] && first=$ends
	[ "$ends" -gt 0 ] && [ "$ends" = "$first" ] ||
		fail "round $i: hist lists $ends frec_spans end sites, $first in round 1"
	grep -q '^# [0-9]* of 12 histograms in use, 0 spans not counted (no histogram)$' /tmp/hist ||
		fail "round $i: $(sed -n 2p /tmp/hist)"
	# Every id is some loaded site's: a histogram in use is one listed.
	used=$(sed -n 's/^# \([0-9]*\) of 12 histograms in use.*/\1/p' /tmp/hist)
	[ "$used" = "$ends" ] || fail "round $i: $used histograms in use, $ends listed"
	rmmod frec_spans || fail "round $i: rmmod frec_spans"
	rmmod frec_hanoi || fail "round $i: rmmod frec_hanoi"
done
echo "# 10 rounds: $first frec_spans end sites, each with a histogram, and no other in use"
frec_unload
