#!/bin/sh
# description: spans (frec_span_begin/end, frec_span_scoped) from kthreads on every CPU, nested, from softirq and hard IRQ, and from a kthread that moves between CPUs: each record names its context (hardirq, softirq, T<pid>), every span's begin and end are in the dump, paired by the end's span=CPU/SEQ, each end's dur= is its timestamp minus its begin's, the moved ones end on another CPU, an end whose begin was filtered records nothing; frec-decode of raw prints the dump
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
NCPU=$(grep -c '^processor' /proc/cpuinfo)
cat $D/dump > /tmp/dump || fail "cat dump"
head -n 1 /tmp/dump
# seq ts_ns cpu mark message, of the spans ring's records
sed -n 's/^\([0-9]*\) \[ *\([0-9]*\)\.\([0-9]*\)\] cpu\([0-9]*\) [^ ]* spans: .* \[frec_spans\] \([<>]\) \(.*\)$/\1 \2\3 \4 \5 \6/p' \
	/tmp/dump > /tmp/spans
grep ' spans: ' /tmp/dump | head -n 6
grep ' spans: .* migrate ' /tmp/dump | head -n 2
grep -c . /tmp/spans
[ "$(grep -c ' spans: ' /tmp/dump)" = "$(grep -c . /tmp/spans)" ] ||
	fail "a spans record is neither a begin nor an end"
grep -q filtered /tmp/spans && fail "an end whose begin was filtered recorded"
# Each line names the context its record was made in: the hrtimer's
# spans a hard IRQ, the timer's a softirq, the kthreads' their task.
for k in "irq hardirq" "softirq softirq" "thread T[1-9][0-9]*" "migrate T[1-9][0-9]*"; do
	kind=${k% *} ctx=${k#* }
	n=$(grep -cE " spans: .* \[frec_spans\] [<>] $kind n=" /tmp/dump)
	good=$(grep -cE "\] cpu[0-9]+ $ctx spans: .* \[frec_spans\] [<>] $kind n=" /tmp/dump)
	[ "$n" -gt 0 ] && [ "$good" = "$n" ] ||
		fail "$kind spans: $good of $n records name the context $ctx: $(grep -E " [<>] $kind n=" /tmp/dump | grep -vE "cpu[0-9]+ $ctx spans:" | head -n 1)"
done
# Both ends are call sites: control and sites list them, their kind in
# the format's first byte (0x1f), the scoped span's two included.
us=$(printf '\037')
for f in control sites; do
	for want in "$us> thread n=%u cpu=%d" "$us< thread n=%u" "$us> inner n=%u" "$us< inner n=%u"; do
		[ "$(grep -cF "\"$want\"" $D/$f)" = 1 ] || fail "$f does not list the site \"$want\" once"
	done
done
[ "$(cat /sys/module/frec_spans/parameters/ends_refused)" = $((LOOPS * NCPU)) ] ||
	fail "ends of filtered begins returned other than -ENOENT: $(cat /sys/module/frec_spans/parameters/ends_refused)"
awk -v loops=$LOOPS -v ncpu="$NCPU" '
function fail(m) { print "FAIL: " m; bad = 1; exit 1 }
$4 == ">" {
	key = $3 "/" $1
	if (key in bts) fail("two begins named " key)
	bts[key] = $2; bcpu[key] = $3; bkind[key] = $5; bn[key] = $6
	begins++
	next
}
$4 == "<" {
	dur = ""; span = ""; skew = ""
	for (i = 5; i <= NF; i++) {
		if ($i ~ /^dur=[0-9]+ns$/) { dur = substr($i, 5); sub(/ns$/, "", dur) }
		if ($i ~ /^skew=-[0-9]+ns$/) { skew = substr($i, 7); sub(/ns$/, "", skew) }
		if ($i ~ /^span=[0-9]+\/[0-9]+$/) span = substr($i, 6)
	}
	if (dur == "" || span == "") fail("end without dur= or span=: " $0)
	if (!(span in bts)) fail("end of a begin not in the dump: " $0)
	if (span in ended) fail("two ends of span " span)
	ended[span] = 1
	if ($5 != bkind[span] || $6 != bn[span]) fail("end " $0 " pairs with begin " bkind[span] " " bn[span])
	if (skew != "") {
		skews++
		if (dur != 0 || skew != bts[span] - $2) fail("skew of " $0 " is not begin - end: " bts[span] - $2)
	} else if (dur != $2 - bts[span]) {
		fail("dur of " $0 " is not end - begin: " $2 - bts[span])
	}
	kinds[$5]++
	if ($5 == "migrate") {
		split($7, to, "=")
		if ($3 != bcpu[span] && $3 == to[2]) moved++
	}
	if ($5 == "thread" || $5 == "inner") {
		k = $3 " " $6
		if (bcpu[span] != $3) fail("a bound thread span changed CPU: " $0)
		if ($5 == "thread") { tb[k] = bts[span]; te[k] = $2 } else { ib[k] = bts[span]; ie[k] = $2 }
	}
	next
}
{ fail("bad line: " $0) }
END {
	if (bad) exit 1
	for (k in bts) if (!(k in ended)) { print "FAIL: begin " k " " bkind[k] " " bn[k] " has no end"; exit 1 }
	want = loops * ncpu
	if (kinds["thread"] != want || kinds["inner"] != want || kinds["irq"] != want ||
	    kinds["softirq"] != want || kinds["migrate"] != loops) {
		print "FAIL: spans by kind: thread " kinds["thread"] " inner " kinds["inner"] " irq " kinds["irq"] \
			" softirq " kinds["softirq"] " migrate " kinds["migrate"] "; want " want " each, " loops " migrate"
		exit 1
	}
	for (k in ib)
		if (!(k in tb) || ib[k] <= tb[k] || ie[k] >= te[k]) { print "FAIL: inner " k " not inside its thread span"; exit 1 }
	if (moved != loops) { print "FAIL: " moved " of " loops " migrating spans ended on the CPU they moved to"; exit 1 }
	print "# " begins " spans paired, " moved " moved between CPUs, " skews + 0 " with the end clock behind"
}' /tmp/spans || fail "spans do not pair"
frec_decode_like_dump
echo "# frec-decode of raw prints the dump"
# JSON: one slice per span, those that moved between CPUs async (b/e)
frec_decode /tmp/dec.raw --formats /tmp/dec.formats --sites /tmp/dec.sites \
	--kallsyms /tmp/dec.kallsyms --format=json > /tmp/json || fail "json decode"
x=$(grep -o '"ph":"X"' /tmp/json | grep -c .)
b=$(grep -o '"ph":"b"' /tmp/json | grep -c .)
e=$(grep -o '"ph":"e"' /tmp/json | grep -c .)
spans=$(grep -c ' < ' /tmp/spans)
echo "# JSON: $x complete slices, $b async pairs, $spans spans"
[ $((x + b)) = "$spans" ] && [ "$b" = "$e" ] && [ "$b" -ge $LOOPS ] ||
	fail "JSON has $x complete and $b/$e async slices for $spans spans, $LOOPS of them moved"
rmmod frec_spans || fail "rmmod frec_spans"
frec_unload
