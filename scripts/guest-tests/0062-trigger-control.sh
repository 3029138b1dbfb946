#!/bin/sh
# description: control's trigger words: freeze, freeze=all and dump with thresholds in ns, us, ms, s are listed in the flags column of a span's end as control spells them (=r,freeze>500us,dump>500us; the largest unit that divides the threshold) and disarmed by -freeze and -dump; a threshold on a site that is not a span's end (a record's, a span's begin) is refused naming the site; bad trigger words and thresholds (leading zeros are taken; no number, no unit, a bad unit, overflow, negative, 0, twice, two thresholds, arm and disarm at once) are refused with the word in the log and change nothing
# kernels: 6.1 debug
. /frec/guest/lib.sh
frec_crash_test_load
insmod "$FREC_MODULES/frec_spans.ko" loops=5 || fail "insmod frec_spans.ko"
D=$FREC_DEBUGFS
C=$D/control
NMI='func frec_crash_test_nmi'
# The scoped inner span's end (its format starts with the end's mark and "< ").
END='func frec_spans_inner format "< inner"'
# flags: the flags column of the inner span's end site.
flags() {
	grep '\]frec_spans_inner .*".< inner' $C | awk '{ print $5 }'
}
nmi_flags() {
	grep '\]frec_crash_test_nmi ' $C | awk '{ print $5 }'
}
[ "$(grep -c '\]frec_spans_inner .*".< inner' $C)" = 1 ] || fail "not one inner span end site in control"
[ "$(flags)" = '=r' ] || fail "flags at load: $(flags)"
arm() {
	echo "$END $1" > $C || fail "control refused '$1'"
	[ "$(flags)" = "$2" ] || fail "'$1' lists as $(flags), not $2"
}
arm 'freeze>500us dump>500us' '=r,freeze>500us,dump>500us'
arm 'freeze=all>2000ms' '=r,freeze=all>2s'
arm 'dump>1500ns' '=r,dump>1500ns'
arm 'dump>3000000ns freeze>3ms' '=r,freeze>3ms,dump>3ms'
arm '-dump' '=r,freeze>3ms'
arm 'freeze>1s dump>1s freeze=all>1s' '=r,freeze>1s,freeze=all>1s,dump>1s'
arm '-freeze' '=r,dump>1s'
arm '-dump' '=r'
# Leading zeros say nothing, however many there are.
arm 'freeze>000000000000000000001ns' '=r,freeze>1ns'
arm 'dump>0000000000000000000000000000000000002ms' '=r,dump>2ms'
arm '-dump' '=r'
arm '-r freeze' '=_,freeze'
arm '+r -freeze' '=r'
arm 'dump>2305843009213693951ns' '=r,dump>2305843009213693951ns'
arm 'freeze>1ms' '=r,freeze>1ms'
echo "$NMI -r freeze" > $C || fail "control refused freeze on the NMI site"
[ "$(nmi_flags)" = '=_,freeze' ] || fail "the NMI site lists as $(nmi_flags)"
echo "$NMI +r -freeze" > $C || fail "control refused -freeze on the NMI site"

# A threshold only fires where a span's end passes its duration: on any
# other site (a record's, a span's begin) it is refused, naming the site.
cat $C > /tmp/c0
for sel in "$NMI" 'func frec_spans_inner format "> inner"' 'func frec_spans_inner'; do
	dmesg -c > /dev/null
	echo "$sel freeze>1ms" > $C 2>/dev/null && fail "control took a threshold on '$sel'"
	cmp -s /tmp/c0 $C || fail "'$sel freeze>1ms' changed control"
	dmesg | grep -q "control: refused \"[0-9]* frec_.*\.c:[0-9]*\": a threshold trigger on a site that is not a span's end" ||
		fail "'$sel freeze>1ms': no log line naming the site: $(dmesg | tail -n 2)"
done
sleep 5		# the log's rate limit (10 lines in 5 s), for the words below

# Bad words: refused, named in the log, nothing changed.
cat $C > /tmp/c0
bad() {
	dmesg -c > /dev/null
	printf '%s' "$END $1" > $C 2>/dev/null && fail "control took '$1'"
	cmp -s /tmp/c0 $C || fail "'$1' changed control: $(flags)"
	[ -z "$2" ] || dmesg | grep -q -F "control: refused \"$2\"" ||
		fail "'$1': no log line naming '$2': $(dmesg | tail -n 2)"
}
# The log is rate-limited (10 lines in 5 s): the first nine name their word.
bad 'freeze>' 'freeze>'
bad 'freeze>abc' 'freeze>abc'
bad 'freeze>5xs' 'freeze>5xs'
bad 'freeze>18446744073709551615s' 'freeze>18446744073709551615s'
bad 'freeze>-5ms' 'freeze>-5ms'
bad 'dump>0ms' 'dump>0ms'
bad 'dump>500' 'dump>500'
bad 'freez' 'freez'
bad 'freeze>1ms dump>2ms' 'dump>2ms'
bad 'freeze freeze'
bad 'freeze -dump'
bad '-freeze>5ms'
bad 'freeze=ring'
bad 'freeze>2305843009213693952ns'
bad 'freeze>123456789012345678901234ms'
bad 'freeze>5 ms'
bad 'dump>1.5ms'
bad 'freeze; line 1-2 freeze>x'
[ "$(flags)" = '=r,freeze>1ms' ] || fail "flags after the bad words: $(flags)"
echo "$END -freeze" > $C

rmmod frec_spans
rmmod frec_crash_test
frec_unload
