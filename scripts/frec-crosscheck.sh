#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# frec-crosscheck.sh - run a workload and check that frec's dump, ftrace's
# trace of frec's tracepoints and bpftrace's counts tell the same story.
# Runs as root on any machine with frec loaded (the guest tests run it in
# QEMU); POSIX sh and awk, busybox's included.
#
#   frec-crosscheck.sh [-b BPFTRACE_CMD] [-k] [-o DIR] -- WORKLOAD...
#
#   -b  run bpftrace (the command, e.g. "bpftrace") counting frec's
#       tracepoints per ring and CPU
#   -k  with -b: also count calls of __frec_record() and __frec_printk()
#       per CPU with kprobes.  The kprobes go when bpftrace exits, after
#       the workload: every writer must have stopped by then.  Removing a
#       kprobe from a function that another module is calling crashes
#       Debian's 6.1 kernel, frec or not (scripts/repro/kprobe-race/), and
#       frec's entry points are such functions; the script waits up to 30 s
#       for frec's written counts to stay still for a second before it
#       lets bpftrace go, and reports it if they never do.
#   -o  keep the views in DIR (default: a temporary directory)
#   -t  the most a trace timestamp may lag frec's, ns (default 50000000;
#       under QEMU TCG 96-99% lag <= 10 us; the largest seen was 0.5 ms on
#       Debian's kernel and 4.8 ms on the debug kernel, records whose code
#       TCG was still translating)
#
# It clears frec's rings, sets ftrace's clock to frec's (frec stamps with
# local_clock(), which is ftrace's "perf" clock; ftrace's "local" is raw
# sched_clock(), off from it by a constant of some ms), enables
# events/frec, starts bpftrace and waits for its BEGIN probe, runs
# WORKLOAD, and then joins the views by (ring, CPU, seq), the name of a
# record (each CPU numbers its own records of a ring):
#  - every record in frec's dump is in the trace with the same ring, CPU
#    and caller (ftrace names a caller when the trace is read: a caller
#    in code freed since, and not reused, prints as an address there and
#    is counted apart; one in code another module reused since would print
#    as that module's: load no module after one that recorded from its
#    init code); a record ring's text is the trace's text; an event's
#    message shows its integer arguments as the trace's args do;
#  - records in the trace but not in the dump are, per ring and CPU,
#    exactly the records frec counts as overwritten meanwhile;
#  - bpftrace's counts per ring and CPU equal the trace's; its kprobe
#    counts per CPU equal frec's written counts;
#  - each record's frec timestamp is at most the trace's (taken later, in
#    the tracepoint; ftrace prints microseconds, so up to 1 us before it)
#    and at most the -t bound behind it; how the gaps spread is printed.
# BPF skips a probe that fires while a BPF program runs on the same CPU (a
# hard-IRQ record interrupting another record's probe): use a workload
# that does not nest writers when passing -b.  Exit 0 if every view
# agrees, 1 with the first disagreements otherwise.
set -u

bt= kprobes= dir= bound=50000000
while getopts b:ko:t: opt; do
	case $opt in
	b) bt=$OPTARG ;;
	k) kprobes=1 ;;
	o) dir=$OPTARG ;;
	t) bound=$OPTARG ;;
	*) echo "usage: see the header of $0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || { echo "$0: no workload given" >&2; exit 2; }

F=/sys/kernel/debug/frec
T=/sys/kernel/tracing
[ -d $F ] || { echo "$0: frec is not loaded ($F)" >&2; exit 2; }
[ -d $T/events/frec ] || { echo "$0: no events/frec in $T" >&2; exit 2; }
if [ -z "$dir" ]; then
	dir=$(mktemp -d) || exit 2
fi
mkdir -p "$dir"
bad=0
problem() {
	echo "MISMATCH: $*"
	bad=1
}

# ring:cpuN written overwritten, for every ring
frec_counts() {
	for s in $F/rings/*/stats; do
		r=${s%/stats}
		r=${r##*/}
		awk -v r="$r" '$1 ~ /^cpu/ { w = o = 0; for (i = 2; i <= NF; i++) { split($i, kv, "=");
			if (kv[1] == "written") w = kv[2]; if (kv[1] == "overwritten") o = kv[2] }
			print r ":" $1, w, o }' "$s"
	done | sort
}

# Start clean: no old record can be overwritten during the run.
echo 1 > $F/clear || exit 2
echo > $F/filter
echo 0 > $T/tracing_on
echo perf > $T/trace_clock
echo > $T/trace
echo 1 > $T/events/frec/enable
frec_counts > "$dir/stats.before"

btpid=
if [ -n "$bt" ]; then
	prog='BEGIN { printf("frec-crosscheck-ready\n"); }
	tracepoint:frec:frec_record, tracepoint:frec:frec_printk { @tp[str(args->ring), args->cpu] = count(); }'
	[ -n "$kprobes" ] && prog="$prog
	kprobe:__frec_record, kprobe:__frec_printk { @calls[cpu] = count(); }"
	prog="$prog
	kprobe:ksys_sync /comm == \"sync\"/ { exit(); }"
	$bt -e "$prog" > "$dir/bpftrace.out" 2> "$dir/bpftrace.err" &
	btpid=$!
	i=0
	# bpftrace misses what fires before it is attached (seconds under TCG).
	until grep -q frec-crosscheck-ready "$dir/bpftrace.out"; do
		i=$((i + 1))
		if [ $i -gt 1200 ] || ! kill -0 $btpid 2> /dev/null; then
			cat "$dir/bpftrace.err"
			echo "$0: bpftrace did not start" >&2
			exit 2
		fi
		sleep 0.1
	done
fi

echo 1 > $T/tracing_on
"$@"
rc=$?
echo 0 > $T/tracing_on
echo 0 > $T/events/frec/enable
[ $rc = 0 ] || problem "the workload exited $rc"
if [ -n "$kprobes" ]; then
	i=0
	frec_counts > "$dir/still.1"
	while sleep 1; frec_counts > "$dir/still.2"; ! cmp -s "$dir/still.1" "$dir/still.2"; do
		i=$((i + 1))
		if [ $i -ge 30 ]; then
			problem "writers still recording 30 s after the workload: detaching kprobes under them"
			break
		fi
		mv "$dir/still.2" "$dir/still.1"
	done
fi
if [ -n "$btpid" ]; then
	sync	# bpftrace's exit()
	wait $btpid
fi
frec_counts > "$dir/stats.after"
cat $F/dump > "$dir/dump"
cat $T/trace > "$dir/trace"

# Both sides as "seq ring cpu caller ts_ns kind payload", tab-separated.
sed -nE 's/^([0-9]+) \[ *([0-9]+)\.([0-9]{9})\] cpu([0-9]+) [^ ]+ ([^:]+): ([^ ]+)( \[[^]]*\])? (.*)$/\1	\5	\4	\6	\2\3	-	\8/p' \
	"$dir/dump" | sort -n > "$dir/frec.tsv"
sed -nE 's/.* ([0-9]+)\.([0-9]{6}): frec_record: ring=([^ ]*) seq=([0-9]+) cpu=([0-9]+) caller=([^ ]+)( \[[^]]*\])? fmt=0x[0-9a-f]+ args=(.*)$/\4	\3	\5	\6	\1\2000	e	\8/p
	s/.* ([0-9]+)\.([0-9]{6}): frec_printk: ring=([^ ]*) seq=([0-9]+) cpu=([0-9]+) caller=([^ ]+)( \[[^]]*\])? text=(.*)$/\4	\3	\5	\6	\1\2000	t	\8/p' \
	"$dir/trace" | sort -n > "$dir/trace.tsv"
[ -s "$dir/trace.tsv" ] || problem "the trace holds no frec events"
lost=$(grep -c 'LOST' "$dir/trace")
[ "$lost" = 0 ] || problem "ftrace lost events ($lost LOST lines): give it a larger buffer_size_kb"

# Join by (ring, CPU, seq), which names a record (each CPU numbers the
# records of its part of a ring): one pass over the trace, with the dump
# in memory.
awk -F '\t' -v out="$dir" -v bound="$bound" '
function hex(s,   i, c, v) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}
NR == FNR { id = $2 ":cpu" $3 ":" $1; seen[id] = 1; ring[id] = $2; cpu[id] = $3; caller[id] = $4; ts[id] = $5; msg[id] = $7; nfrec++; next }
{
	ntrace++
	id = $2 ":cpu" $3 ":" $1
	key = $2 ":cpu" $3
	tp[key]++
	if (!(id in seen)) { missing[key]++; next }
	found[id] = 1
	# ftrace names a caller when the trace is read: one in code freed
	# since (an init function, an unloaded module) is an address there,
	# while frec named it when the code went; compare the rest.
	if ($4 ~ /^0x/ && caller[id] !~ /^0x/) { freed++; $4 = caller[id] }
	if (ring[id] != $2 || cpu[id] != $3 || caller[id] != $4) {
		if (nbad++ < 5) print "MISMATCH: " id ": dump ring " ring[id] " cpu " cpu[id] " caller " caller[id] ", trace ring " $2 " cpu " $3 " caller " $4
		next
	}
	d = $5 - ts[id]
	if ((d < -1000 || d > bound) && nbad++ < 5) print "MISMATCH: " id ": frec ts " ts[id] " ns, trace ts " $5 " ns"
	if (d > maxd) { maxd = d; maxid = id }
	if (d <= 10000) g10us++; else if (d <= 100000) g100us++; else if (d <= 1000000) g1ms++; else gmore++
	if ($6 == "t") {
		if (msg[id] != $7 && nbad++ < 5) print "MISMATCH: " id ": dump text \"" msg[id] "\", trace text \"" $7 "\""
		next
	}
	# The integers of the message are the arguments that are not kernel addresses, in order.
	n = split($7, a, ",")
	m = 0
	for (i = 1; i <= n; i++) {
		h = tolower(a[i])
		sub(/^0x/, "", h)
		if (length(h) < 16 || substr(h, 1, 4) != "ffff")
			args[++m] = hex(h)
	}
	s = msg[id]
	k = 0
	while (match(s, /(^|[^0-9A-Za-z_.])[0-9]+/)) {
		num = substr(s, RSTART, RLENGTH)
		sub(/^[^0-9]/, "", num)
		s = substr(s, RSTART + RLENGTH)
		k++
		if (k > m || num + 0 != args[k]) {
			if (nbad++ < 5) print "MISMATCH: " id ": message \"" msg[id] "\" shows " num " where the trace has args " $7
			break
		}
	}
}
END {
	for (q in seen) if (!(q in found) && nbad++ < 5) print "MISMATCH: " q " is in the dump, not in the trace"
	for (k in tp) print k, tp[k] + 0, missing[k] + 0 > (out "/trace.counts")
	printf "# %d records in the dump, %d frec events in the trace\n", nfrec, ntrace
	if (freed) printf "# %d callers in code freed since, which ftrace prints as an address and frec named\n", freed
	printf "# trace ts - frec ts: <= 10 us %d, <= 100 us %d, <= 1 ms %d, more %d; largest %d ns (%s), bound %d ns\n", g10us, g100us, g1ms, gmore, maxd, maxid, bound
	exit (nbad > 0)
}' "$dir/frec.tsv" "$dir/trace.tsv" || bad=1
sort -o "$dir/trace.counts" "$dir/trace.counts"

# Trace-only records are the ones overwritten meanwhile.
awk 'FILENAME == ARGV[1] { w0[$1] = $2; o0[$1] = $3; next }
	FILENAME == ARGV[2] { w[$1] = $2 - w0[$1]; o[$1] = $3 - o0[$1]; next }
	{ if ($3 != o[$1]) { print "MISMATCH: " $1 ": " $3 " records only in the trace, frec overwrote " o[$1]; bad = 1 }
	  tot += $3 }
	END { printf "# records only in the trace (overwritten in frec): %d, as frec counts them\n", tot; exit bad }' \
	"$dir/stats.before" "$dir/stats.after" "$dir/trace.counts" || bad=1

if [ -n "$bt" ]; then
	sed -nE 's/^@tp\[([^,]*), ([0-9]+)\]: ([0-9]+)$/\1:cpu\2 \3/p' "$dir/bpftrace.out" | sort > "$dir/bpftrace.counts"
	awk '{ print $1, $2 }' "$dir/trace.counts" | diff - "$dir/bpftrace.counts" > "$dir/bpftrace.diff" ||
		problem "bpftrace's counts differ from the trace's (ring:cpu count, - trace + bpftrace): $(head -6 "$dir/bpftrace.diff" | tr '\n' ' ')"
	echo "# bpftrace: $(wc -l < "$dir/bpftrace.counts") ring/CPU counts, $(awk '{ s += $2 } END { print s + 0 }' "$dir/bpftrace.counts") records"
	if [ -n "$kprobes" ]; then
		sed -nE 's/^@calls\[([0-9]+)\]: ([0-9]+)$/cpu\1 \2/p' "$dir/bpftrace.out" | sort > "$dir/calls"
		awk 'FILENAME == ARGV[1] { w0[$1] = $2; next }
			{ split($1, rc, ":"); w[rc[2]] += $2 - w0[$1] }
			END { for (c in w) if (w[c]) print c, w[c] }' "$dir/stats.before" "$dir/stats.after" |
			sort > "$dir/written"
		diff "$dir/written" "$dir/calls" > "$dir/calls.diff" ||
			problem "kprobe calls per CPU differ from frec's written: $(tr '\n' ' ' < "$dir/calls.diff")"
		echo "# kprobes: calls per CPU = frec's written: $(tr '\n' ' ' < "$dir/calls")"
	fi
fi
[ $bad = 0 ] && echo "# all views agree (files in $dir)"
exit $bad
