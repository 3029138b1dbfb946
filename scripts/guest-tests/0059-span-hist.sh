#!/bin/sh
# description: latency histograms per span end (debugfs frec/hist, rings/NAME/hist) after frec_spans' spans from kthreads, softirq, hard IRQ and a kthread moving between CPUs: each end site's count, sum and mean are its ends' dur= in the dump exactly, min, max and p50/p90/p99/p99.9 the bucket midpoints of the exact figures (nearest rank) and within 1/32 of them, every printed bucket holds exactly the durations in its bounds; frec-decode -F hist of raw prints the same lines, the end site that never ended (count=0) too, rings/spans/hist too, other rings' none; a write of 0 resets them all, other writes are refused naming the word
# kernels: 6.1 6.12-rt debug arm64-6.1 arm64-6.12
# timeout: 180
. /frec/guest/lib.sh
. /frec/run.conf
frec_reset
frec_have_decoder || fail "no $FREC_DECODER: build tools first (make tools)"
frec_load
D=$FREC_DEBUGFS
LOOPS=40
insmod "$FREC_MODULES/frec_spans.ko" loops=$LOOPS || fail "insmod frec_spans.ko"
cat $D/dump > /tmp/dump || fail "cat dump"
cat $D/hist > /tmp/hist || fail "cat hist"
head -n 2 /tmp/hist
grep -A 1 '^hist ' /tmp/hist | grep -v '^--' | head -n 10
# kind dur_ns, of the spans' ends in the dump ("< KIND n=... dur=Nns ...")
sed -n 's/^.* spans: .* \[frec_spans\] < \([a-z]*\) .* dur=\([0-9]*\)ns .*$/\1 \2/p' /tmp/dump > /tmp/durs
n=$(grep -c . /tmp/durs)
echo "# $n span ends in the dump"
[ "$n" -gt $((LOOPS * 4)) ] || fail "only $n span ends in the dump"
awk '
function fail(m) { print "FAIL: " m; bad = 1; exit 1 }
# what hist reports for a figure x: the midpoint of its bucket (frec_hist.c)
function mid(x,   p, w) {
	if (x < 32) return x
	if (x >= 1099511627776) return 1099511627776
	for (p = 1; p * 2 <= x; p *= 2) ;
	w = p / 16
	return int(x / w) * w + w / 2
}
# got is the bucket midpoint of exact, and within 1/32 of it
function check(k, what, got, exact,   d) {
	d = got - exact; if (d < 0) d = -d
	if (got != mid(exact)) fail(k ": " what " " got ", the midpoint of the bucket of the exact " exact " is " mid(exact))
	if (d * 32 > exact) fail(k ": " what " " got " is more than 1/32 from the exact " exact)
	if (d / (exact ? exact : 1) > maxerr) maxerr = d / (exact ? exact : 1)
}
# the function each kind of span ends in (kmod/samples/frec_spans.c)
BEGIN {
	fn["thread"] = "frec_spans_thread"; fn["inner"] = "frec_spans_inner"
	fn["irq"] = "frec_spans_hrtimer"; fn["softirq"] = "frec_spans_timer"
	fn["migrate"] = "frec_spans_migrate"
	pct[1] = 5000; pct[2] = 9000; pct[3] = 9900; pct[4] = 9990
	pname[1] = "p50"; pname[2] = "p90"; pname[3] = "p99"; pname[4] = "p99.9"
}
FILENAME == "/tmp/durs" {
	k = fn[$1]
	if (k == "") fail("an end of unknown kind " $1)
	nv[k]++; v[k, nv[k]] = $2 + 0; sum[k] += $2
	next
}
/^hist / { site = $4; next }
# the ends of filtered begins never stored one: an empty histogram
/^  count=0$/ { empty++; site = ""; next }
/^  count=/ {
	if (site in seen) fail("two histograms of " site)
	seen[site] = 1
	for (i = 1; i <= NF; i++) { split($i, kv, "="); val = kv[2]; sub(/ns$/, "", val); h[site, kv[1]] = val + 0 }
	next
}
/^  \[/ {
	lo = $1; sub(/^\[/, "", lo); sub(/,$/, "", lo); hi = $2; sub(/\)$/, "", hi)
	nb[site]++; blo[site, nb[site]] = lo + 0; bhi[site, nb[site]] = hi == "inf" ? "inf" : hi + 0
	bc[site, nb[site]] = $3 + 0
	next
}
END {
	if (bad) exit 1
	for (k in nv) {
		if (!(k in seen)) fail("no histogram of " k)
		n = nv[k]
		# insertion sort of the exact values
		for (i = 1; i <= n; i++) s[i] = v[k, i]
		for (i = 2; i <= n; i++) { x = s[i]; for (j = i - 1; j >= 1 && s[j] > x; j--) s[j + 1] = s[j]; s[j + 1] = x }
		if (h[k, "count"] != n) fail(k ": count " h[k, "count"] ", " n " ends in the dump")
		if (h[k, "sum"] != sum[k]) fail(k ": sum " h[k, "sum"] ", the dump says " sum[k])
		if (h[k, "mean"] != int(sum[k] / n)) fail(k ": mean " h[k, "mean"] ", the dump says " int(sum[k] / n))
		check(k, "min", h[k, "min"], s[1])
		check(k, "max", h[k, "max"], s[n])
		for (p = 1; p <= 4; p++)
			check(k, pname[p], h[k, pname[p]], s[int((n * pct[p] + 9999) / 10000)])
		total = 0
		for (b = 1; b <= nb[k]; b++) {
			c = 0
			for (i = 1; i <= n; i++) if (s[i] >= blo[k, b] && (bhi[k, b] == "inf" || s[i] < bhi[k, b])) c++
			if (c != bc[k, b]) fail(k ": bucket [" blo[k, b] ", " bhi[k, b] ") counts " bc[k, b] ", the dump has " c)
			total += bc[k, b]
		}
		if (total != n) fail(k ": buckets count " total ", " n " ends")
		sites++; ends += n
	}
	if (empty != 1) fail(empty + 0 " empty histograms: one, of the filtered ends, was expected")
	printf "# %d end sites, %d spans: counts, sums, means exact; min, max and percentiles their buckets midpoints, at most %.4f off (1/32 = 0.03125)\n", sites, ends, maxerr
}' /tmp/durs /tmp/hist || fail "hist does not agree with the dump's durations"
# frec-decode computes the same histograms from the raw dump
cat $D/raw > /tmp/raw && cat $D/sites > /tmp/sites && cat $D/formats > /tmp/formats || fail "read raw, sites, formats"
frec_decode -S /tmp/sites -f /tmp/formats -n -F hist /tmp/raw > /tmp/dhist 2> /tmp/dhist.err ||
	{ cat /tmp/dhist.err; fail "frec-decode -F hist failed"; }
# Every line not starting with '#', the end site that never ended
# (count=0) too: frec-decode lists the span ends of the sites file.
grep -q '^  count=0$' /tmp/hist || fail "hist lists no end site that never ended"
grep -v '^#' /tmp/hist > /tmp/h0
grep -v '^#' /tmp/dhist > /tmp/d0
diff /tmp/h0 /tmp/d0 > /tmp/hdiff || { head -n 8 /tmp/hdiff; fail "frec-decode -F hist differs from frec/hist"; }
echo "# frec-decode -F hist of raw: the same $(grep -c '^hist ' /tmp/d0) histograms, $(grep -c '^  count=0$' /tmp/d0) of them empty"
# (a ring's hist lists the span ends whose first record went into it:
# not those that never recorded)
nonempty() {
	awk '/^#/ { next } /^hist / { h = $0; next } /^  count=0$/ { h = ""; next }
		h != "" { print h; h = "" } /^  / { print }' "$1"
}
nonempty /tmp/hist > /tmp/h1
# rings/spans/hist: the same (every span went into spans; an end that
# never recorded has no ring); other rings' none
cat $D/rings/spans/hist > /tmp/rhist || fail "cat rings/spans/hist"
nonempty /tmp/rhist > /tmp/rh
diff /tmp/h1 /tmp/rh > /tmp/rhdiff || { head -n 6 /tmp/rhdiff; fail "rings/spans/hist differs from hist"; }
for r in $D/rings/*; do
	[ "${r##*/}" = spans ] && continue
	[ "$(grep -c '^hist ' $r/hist)" = 0 ] || fail "${r##*/}/hist lists span ends of spans"
done
echo "# rings/spans/hist: the same $(grep -c '^hist ' /tmp/rh) histograms; $(ls $D/rings | grep -vc '^spans$') other rings: none"
# a write of 0 resets; anything else is refused, naming it
# (rings/spans/hist's 0 resets the spans ring's span ends: all of them)
echo 0 > $D/rings/spans/hist || fail "write 0 to rings/spans/hist"
[ "$(grep -c '^  count=0$' $D/hist)" = "$(grep -c '^hist ' /tmp/hist)" ] || fail "rings/spans/hist not reset: $(grep count= $D/hist | head -n 2)"
echo 0 > $D/hist || fail "write 0 to hist"
[ "$(grep -c '^  count=0$' $D/hist)" = "$(grep -c '^hist ' /tmp/hist)" ] || fail "hist not reset: $(grep count= $D/hist | head -n 2)"
dmesg -c > /dev/null
for w in 1 clear "0 1"; do
	echo "$w" > $D/hist 2> /dev/null && fail "hist took '$w'"
	dmesg | grep -q "hist: \"$w\" refused" || fail "no log line naming '$w': $(dmesg | tail -n 1)"
done
rmmod frec_spans || fail "rmmod frec_spans"
frec_unload
