#!/bin/sh
# description: bpftrace (the host's; on arm64 Debian's arm64 one, scripts/arm64-sysroot.sh; run in the guest) counts frec's tracepoints per ring and CPU exactly as frec's stats count stored records; with nested writers it may only see fewer
# kernels: 6.12-rt arm64-6.12
# timeout: 300
#
# Phase 1 records from process context (frec_hanoi) and from hard IRQ
# alone (frec_stress threads=0): no record is written while another
# record's BPF program runs on its CPU, and bpftrace's counts must equal
# frec's.  Phase 2 adds a kthread writer per CPU, so hard-IRQ records nest
# inside task records: BPF skips a program that fires while a BPF program
# already runs on the CPU (6.1's trace_call_bpf counts no miss for it), so
# there bpftrace may see fewer, never more, and the gap is printed.
. /frec/guest/lib.sh
frec_reset
D=$FREC_DEBUGFS
RINGS="hanoi_moves hanoi_calls hanoi_timing stress stress_text"

# bt_start OUT: count both tracepoints per ring and CPU until sync(2)
# (a background job ignores SIGINT here); returns once attached.
bt_start() {
	frec_bpftrace -e 'BEGIN { printf("frec-bpftrace-ready\n"); }
	tracepoint:frec:frec_record, tracepoint:frec:frec_printk { @[str(args->ring), args->cpu] = count(); }
	kprobe:ksys_sync /comm == "sync"/ { exit(); }' > $1.out 2> $1.err &
	btpid=$!
	i=0
	until grep -q frec-bpftrace-ready $1.out; do
		i=$((i + 1))
		[ $i -lt 1200 ] || { cat $1.err; fail "bpftrace did not start in 120 s"; }
		kill -0 $btpid 2>/dev/null || { cat $1.err; fail "bpftrace exited"; }
		sleep 0.1
	done
}

# bt_stop OUT: "ring:cpuN count" lines, sorted, in OUT
bt_stop() {
	sync
	wait $btpid
	sed -nE 's/^@\[([^,]*), ([0-9]+)\]: ([0-9]+)$/\1:cpu\2 \3/p' $1.out | sort > $1
}

# frec_stored OUT: records stored (written - dropped) per ring and CPU
frec_stored() {
	for r in $RINGS; do
		[ -r $D/rings/$r/stats ] || continue
		awk -v r=$r '$1 ~ /^cpu/ { s = 0; w = 0; for (i = 2; i <= NF; i++) {
			split($i, kv, "="); if (kv[1] == "written") w = kv[2];
			else if (kv[1] ~ /^dropped/) s += kv[2] }
			print r ":" $1, w - s }' $D/rings/$r/stats
	done | sort > $1
}

# compare FREC_BEFORE FREC_AFTER BT EXACT: what frec stored in between
# against bpftrace's counts; EXACT=1 wants equality, else bpftrace <= frec.
compare() {
	awk -v exact=$4 '
	FILENAME == ARGV[1] { before[$1] = $2; next }
	FILENAME == ARGV[2] { frec[$1] = $2 - before[$1]; next }
	{ bt[$1] = $2 }
	END {
		for (k in bt) if (!(k in frec)) { print "bpftrace saw " k ", frec has no such ring/CPU"; bad = 1 }
		for (k in frec) {
			if (frec[k] < bt[k] || (exact && frec[k] != bt[k])) {
				print k ": frec stored " frec[k] ", bpftrace saw " bt[k] + 0; bad = 1
			}
			gap += frec[k] - bt[k]; total += frec[k]; if (frec[k]) n++
		}
		printf "# %d ring/CPU pairs, %d records stored, bpftrace saw %d fewer\n", n, total, gap
		if (!total) { print "nothing was recorded"; bad = 1 }
		exit bad
	}' $1 $2 $3
}

frec_load
: > /tmp/frec0
# Phase 1: process context, then hard IRQ only.
bt_start /tmp/bt1
insmod "$FREC_MODULES/frec_hanoi.ko" disks=6 calls=1 || fail "insmod frec_hanoi.ko"
insmod "$FREC_MODULES/frec_stress.ko" period_us=500 threads=0 || fail "insmod frec_stress.ko"
sleep 1
rmmod frec_stress || fail "rmmod frec_stress"
bt_stop /tmp/bt1
frec_stored /tmp/frec1
compare /tmp/frec0 /tmp/frec1 /tmp/bt1 1 || fail "phase 1: bpftrace and frec's stats disagree"
grep -q '^stress:' /tmp/bt1 || fail "phase 1: no hard-IRQ records"

# Phase 2: hard IRQ nested in kthread writers.
bt_start /tmp/bt2
insmod "$FREC_MODULES/frec_stress.ko" period_us=500 || fail "insmod frec_stress.ko"
sleep 1
rmmod frec_stress || fail "rmmod frec_stress"
bt_stop /tmp/bt2
frec_stored /tmp/frec2
compare /tmp/frec1 /tmp/frec2 /tmp/bt2 0 || fail "phase 2: bpftrace saw records frec did not store"
rmmod frec_hanoi
frec_unload
