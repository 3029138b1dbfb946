#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tracedat-timeline-check.sh - check that frec-decode's trace.dat of a
# recording and an ftrace recording made at the same time (trace-cmd, the
# default "local" clock, with sched:sched_switch and frec's own
# tracepoints) lie on one timeline, as `trace-cmd report -i ftrace.dat -i
# frec.dat` merges them.  POSIX sh and awk, busybox's included (the guest
# tests run it in QEMU).
#
#   tracedat-timeline-check.sh [-t TRACE_CMD] [-b BOUND_NS] [-s SHIFT_NS]
#                              [-o DIR] [-r REPORT] FTRACE.DAT FREC.DAT DUMP
#
#   -t  the trace-cmd command (default "trace-cmd"; the guest runs the
#       host's with the host's loader)
#   -b  the most a frec:* tracepoint event's timestamp may lag the frec
#       record it reports, ns (default 10000000: under QEMU TCG on this
#       2-core host the median lag is 0.3-0.7 us, the 99th percentile 4-9
#       us, and the largest seen 2.5 ms, a text record's on 6.12-rt: a
#       vCPU the host did not run, or an interrupt, between the record
#       and its tracepoint; doc/testing.md gives the measurements.  A
#       clock offset left in also fails (c), which sees 20 us)
#   -s  add SHIFT_NS to every timestamp of FREC.DAT before checking: a
#       trace.dat off by that much must fail (the checks' own test)
#   -o  keep the report and the working files in DIR (default: a
#       temporary directory)
#   -r  read REPORT, the report an earlier run kept in its DIR, instead of
#       running trace-cmd (the file names must be the same)
#
# DUMP is frec's dump read when the raw dump FREC.DAT was decoded from
# was read.  Records are named by (ring, CPU, seq).  Checks:
#  (a) every record of DUMP is in FREC.DAT exactly once, on its CPU, with
#      the message DUMP prints, and FREC.DAT holds no other; FREC.DAT's
#      timestamps differ from DUMP's (local_clock(), dmesg's scale) by one
#      constant, the clock offset frec-decode removed (printed);
#  (b) each record's own tracepoint event (frec:frec_record or
#      frec:frec_printk, same ring, CPU and seq) is in FTRACE.DAT once, on
#      the same CPU, at most BOUND_NS after the record and not before it;
#      the lags' minimum, median, 99th percentile and maximum are printed;
#  (c) each record falls after the sched_switch on its CPU that switched
#      in the task its tracepoint event names (common_pid; in hard IRQ the
#      interrupted task) and before the next sched_switch on that CPU,
#      which switches that task out; records before the CPU's first
#      sched_switch are counted and skipped.
# FTRACE.DAT must have lost no event.  Prints the counts of each check;
# exit 0 if all hold, 1 with the first failures (at most 10 each).
set -u

tc=trace-cmd bound=10000000 shift=0 dir= report=
while getopts t:b:s:o:r: opt; do
	case $opt in
	t) tc=$OPTARG ;;
	b) bound=$OPTARG ;;
	s) shift=$OPTARG ;;
	o) dir=$OPTARG ;;
	r) report=$OPTARG ;;
	*) echo "usage: see the header of $0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 3 ] || { echo "usage: see the header of $0" >&2; exit 2; }
ftrace=$1 frec=$2 dump=$3
case $bound$shift in
*[!0-9-]*) echo "bad -b $bound or -s $shift: ns expected" >&2; exit 2 ;;
esac
if [ -z "$dir" ]; then
	dir=$(mktemp -d) || exit 2
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir" || exit 2

# -N: no plugins, the events' own print formats (name=value; -R would
# print frec_printk's text as a byte array); -t: nanoseconds.  Two input
# files: each line starts with its file's name.
if [ -n "$report" ]; then
	cp "$report" "$dir/report" || exit 2
else
	# shellcheck disable=SC2086  # $tc: a command with its arguments
	$tc report -N -t -i "$ftrace" -i "$frec" > "$dir/report" 2> "$dir/report.err" ||
		{ echo "trace-cmd report failed:"; head -n 5 "$dir/report.err"; exit 1; }
fi
fname=${frec##*/}
tname=${ftrace##*/}
[ "$fname" != "$tname" ] || { echo "$ftrace and $frec have the same name: the report cannot tell them apart"; exit 2; }

awk -v F="$fname" -v T="$tname" -v bound="$bound" -v shift="$shift" \
	-v dump="$dump" -v lags="$dir/lags" '
# ns SECONDS.FRACTION as a number: the fraction read as decimal (busybox
# awk takes a 0-led number for octal), padded to 9 digits.
function ns(s,   p, f) {
	split(s, p, ".")
	f = substr(p[2] "000000000", 1, 9)
	sub(/^0+/, "", f)
	return p[1] * 1000000000 + f
}
function field(s, name,   i, r) {
	i = index(s, " " name "=")
	if (!i)
		return ""
	r = substr(s, i + length(name) + 2)
	sub(/ .*/, "", r)
	return r
}
function bad(check, msg) {
	nbad[check]++
	if (nbad[check] <= 10)
		print "FAIL (" check ") " msg
}
BEGIN {
	# The dump: "seq [seconds] cpuN context ring: caller message".
	while ((getline l < dump) > 0) {
		if (l ~ /^#/ || l == "")
			continue
		split(l, w, " ")
		if (!match(l, /\[ *[0-9]+\.[0-9]+\]/)) {
			bad("a", "a dump line without a timestamp: " l)
			continue
		}
		t = substr(l, RSTART + 1, RLENGTH - 2)
		sub(/^ +/, "", t)
		rest = substr(l, RSTART + RLENGTH + 1)
		split(rest, w2, " ")
		cpu = substr(w2[1], 4)
		ring = w2[2] ~ /^(T[0-9]+|softirq|hardirq|nmi)$/ ? w2[3] : w2[2]
		sub(/:$/, "", ring)
		k = ring " " cpu " " w[1]
		if (k in dline)
			bad("a", "the dump holds " k " twice")
		dline[k] = l
		dts[k] = ns(t)
		ndump++
	}
}
{
	# FILE: COMM-PID [CPU] SECONDS: EVENT: FIELDS, the file names
	# right-aligned.
	sub(/^ +/, "")
	if (substr($0, 1, length(F) + 1) == F ":")
		file = "frec"
	else if (substr($0, 1, length(T) + 1) == T ":")
		file = "ftrace"
	else
		next
	if ($0 ~ /LOST [0-9]+ EVENTS/) {
		if (file == "ftrace")
			bad("b", "ftrace lost events: " $0)
		else
			frec_lost++
		next
	}
	if (!match($0, /-[0-9]+ +\[[0-9]+\] +[0-9]+\.[0-9]+: [a-z_0-9]+: /))
		next
	comm = substr($0, 1, RSTART - 1)
	sub(/^[^:]*: +/, "", comm)
	split(substr($0, RSTART + 1, RLENGTH - 1), h, " ")
	pid = h[1]
	cpu = h[2]
	gsub(/[][]/, "", cpu)
	cpu += 0
	t = h[3]
	sub(/:$/, "", t)
	t = ns(t)
	ev = h[4]
	sub(/:$/, "", ev)
	f = " " substr($0, RSTART + RLENGTH)
	if (file == "ftrace" && ev == "sched_switch") {
		n = ++nsw[cpu]
		swt[cpu, n] = t
		swnext[cpu, n] = field(f, "next_pid")
		swprev[cpu, n] = field(f, "prev_pid")
		nswitch++
		next
	}
	if (ev != "frec_record" && ev != "frec_printk")
		next
	k = field(f, "ring") " " field(f, "cpu") " " field(f, "seq")
	if (field(f, "cpu") != cpu)
		bad(file == "frec" ? "a" : "b", "cpu field " field(f, "cpu") " on CPU " cpu ": " $0)
	if (file == "ftrace") {
		if (k in tpt)
			bad("b", "two tracepoint events of " k)
		tpt[k] = t
		tppid[k] = pid
		tpcomm[k] = comm
		ntp++
		next
	}
	t += shift
	nrec++
	if (k in rt) {
		bad("a", k " twice in " F)
		next
	}
	rt[k] = t
	order[nrec] = k
	msgf = ev == "frec_record" ? "msg" : "text"
	i = index(f, " " msgf "=")
	msg[k] = i ? substr(f, i + length(msgf) + 2) : ""
}
END {
	# (a) frec.dat against the dump.
	for (i = 1; i <= nrec; i++) {
		k = order[i]
		if (!(k in dline)) {
			bad("a", k " is in " F " but not in the dump")
			continue
		}
		l = dline[k]
		m = msg[k]
		if (substr(l, length(l) - length(m)) != " " m)
			bad("a", k ": message \"" m "\", dump: " l)
		d = rt[k] - dts[k]
		if (!have_off) {
			off = d
			have_off = 1
		} else if (d != off) {
			bad("a", k ": " F " - dump = " d " ns, not " off " as before")
		}
		seen++
	}
	for (k in dline)
		if (!(k in rt))
			bad("a", k " is in the dump but not in " F)
	printf "# (a) %d records in the dump, %d in %s (%d lost-event marks), %d matched; %s - dump: %s ns\n",
		ndump, nrec, F, frec_lost, seen, F, have_off ? off : "-"

	# (b) each record beside its tracepoint event.
	for (i = 1; i <= nrec; i++) {
		k = order[i]
		if (!(k in tpt)) {
			bad("b", k ": no tracepoint event in " T)
			continue
		}
		lag = tpt[k] - rt[k]
		print lag, k > lags
		if (lag < 0)
			bad("b", k ": tracepoint event " (-lag) " ns before the record")
		else if (lag > bound)
			bad("b", k ": tracepoint event " lag " ns after the record, bound " bound)
		else
			inb++
	}
	close(lags)
	for (k in tpt)
		if (!(k in rt))
			tponly++
	printf "# (b) %d of %d records beside their tracepoint event (bound %d ns); %d tracepoint events with no record in %s\n",
		inb, nrec, bound, tponly, F

	# (c) each record inside its task run on its CPU.
	for (i = 1; i <= nrec; i++) {
		k = order[i]
		if (!(k in tpt))
			continue
		split(k, kk, " ")
		c = kk[2] + 0
		t = rt[k]
		lo = 1
		hi = nsw[c]
		if (!hi || swt[c, 1] > t) {
			before++
			continue
		}
		# the last switch on c at or before t
		while (lo < hi) {
			mid = int((lo + hi + 1) / 2)
			if (swt[c, mid] <= t)
				lo = mid
			else
				hi = mid - 1
		}
		p = tppid[k]
		if (swnext[c, lo] != p)
			bad("c", k " at " t " ns: task " p " recorded it, but sched_switch at " swt[c, lo] " ns switched in " swnext[c, lo])
		else if (lo < nsw[c] && swprev[c, lo + 1] != p)
			bad("c", k ": the next sched_switch at " swt[c, lo + 1] " ns switches out " swprev[c, lo + 1] ", not " p)
		else {
			inrun++
			bytask[tpcomm[k]]++
		}
	}
	printf "# (c) %d records inside the run of their task among %d sched_switch events; %d before their CPU'"'"'s first switch; by task:",
		inrun, nswitch, before
	for (c in bytask)
		printf " %s %d", c, bytask[c]
	printf "\n"
	for (c in nbad)
		failed = 1
	if (!nrec) {
		print "FAIL (a) no record in " F
		failed = 1
	}
	exit failed
}' "$dir/report"
rc=$?
sort -n "$dir/lags" 2> /dev/null | awk 'NF { v[++n] = $1; k[n] = $2 " " $3 " " $4 }
	END { if (!n) exit
		printf "# lag of the tracepoint event, ns: min %d median %d p99 %d max %d (%d records); the largest:",
			v[1], v[int((n + 1) / 2)], v[int((n * 99 + 99) / 100)], v[n], n
		for (i = n; i > 0 && i > n - 3; i--)
			printf " %d (%s)", v[i], k[i]
		printf "\n" }'
exit $rc
