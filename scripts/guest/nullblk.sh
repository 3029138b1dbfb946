# SPDX-License-Identifier: GPL-2.0
# null_blk under fio, for test 0110 and make bench's nullblk mode
# (scripts/guest/bench.sh): . /frec/guest/nullblk.sh after lib.sh.
#
# The workload (doc/speed.md, "null_blk under fio"): one null_blk device,
# blk-mq, a submission queue per CPU, completion by an hrtimer
# (irqmode=2) after NB_COMPLETION_NS; fio 4 KiB random reads, libaio,
# O_DIRECT, iodepth 32, two jobs.  fio, bpftrace and biolatency.bt are
# the host's, run over 9p with the host's loader.

NB_LD=/host/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
# fio links librbd, which needs libceph-common from ceph/.
NB_LIB=/host/usr/lib/x86_64-linux-gnu:/host/usr/lib/x86_64-linux-gnu/ceph
NB_COMPLETION_NS=${NB_COMPLETION_NS:-50000}

# nb_load stock|frec|tp: load the stock null_blk (from the initramfs),
# frec_null_blk or frec_null_blk_tp with the workload's parameters, and
# wait for /dev/nullb0.
nb_load() {
	set -- "$1" queue_mode=2 irqmode=2 completion_nsec=$NB_COMPLETION_NS \
		submit_queues=2 hw_queue_depth=64 nr_devices=1 gb=64
	# The stock null_blk's dependencies (configfs) are frec_null_blk's.
	for p in $(awk '$1 == "null_blk" { $1 = ""; print }' /frec/modules.test); do
		m=$(basename "$p" .ko)
		[ "$m" = null_blk ] || grep -q "^$m " /proc/modules || insmod "$p" || fail "insmod $p"
	done
	case $1 in
	stock) shift; frec_stock_modprobe null_blk "$@" ;;
	frec) shift; insmod "$FREC_MODULES/frec_null_blk.ko" "$@" || fail "insmod frec_null_blk.ko" ;;
	tp) shift; insmod "$FREC_MODULES/frec_null_blk_tp.ko" "$@" || fail "insmod frec_null_blk_tp.ko" ;;
	*) fail "nb_load: no driver $1" ;;
	esac
	i=0
	until [ -b /dev/nullb0 ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "no /dev/nullb0"
		sleep 0.1
	done
}

# nb_unload: whichever of the three is loaded.
nb_unload() {
	for m in null_blk frec_null_blk frec_null_blk_tp; do
		if grep -q "^$m " /proc/modules; then
			rmmod $m || fail "rmmod $m"
		fi
	done
}

# nb_fio SECONDS OUT [IODEPTH JOBS]: the workload for SECONDS (of the
# guest's clock), fio's JSON in OUT; IODEPTH (default 32) per job, JOBS
# (default 2) jobs.
nb_fio() {
	[ -x /host/usr/bin/fio ] || fail "no fio on the host (scripts/install-deps.sh installs it)"
	$NB_LD --library-path $NB_LIB /host/usr/bin/fio --name=randread --filename=/dev/nullb0 \
		--rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth="${3:-32}" --numjobs="${4:-2}" \
		--thread --group_reporting --time_based --runtime="$1" --norandommap \
		--output-format=json --output="$2" > "$2.log" 2>&1 ||
		{ cat "$2.log" "$2"; fail "fio"; }
}

# nb_fio_summary JSON: "iops=N mean=NS p50=NS p90=NS p99=NS p99.9=NS" of
# the read side's completion latency (clat_ns), fio's figures as printed.
nb_fio_summary() {
	awk '/"read" *:/ { rd = 1 } /"write" *:/ { rd = 0 }
		rd && /"iops" *:/ && !iops { v = $3; sub(/,/, "", v); iops = v }
		rd && /"clat_ns" *:/ { c = 1 }
		c && /"mean" *:/ && !mean { v = $3; sub(/,/, "", v); mean = v }
		c && /"50.000000"/ { v = $3; sub(/,/, "", v); p50 = v }
		c && /"90.000000"/ { v = $3; sub(/,/, "", v); p90 = v }
		c && /"99.000000"/ { v = $3; sub(/,/, "", v); p99 = v }
		c && /"99.900000"/ { v = $3; sub(/,/, "", v); p999 = v }
		c && /"lat_ns" *:/ { c = 0 }
		END { if (!iops) exit 1
			printf "iops=%d mean=%d p50=%d p90=%d p99=%d p99.9=%d\n", iops, mean, p50, p90, p99, p999 }' "$1"
}

# The tracepoint form of biolatency.bt (block_rq_issue to
# block_rq_complete, keyed by device and sector): its log2 histogram in us
# as the tool prints it (@usecs), and in ns (@nsecs) with their sum
# (@sum_ns).
NB_BIOLATENCY_TP='BEGIN { printf("Tracing block device I/O... Hit Ctrl-C to end.\n"); }
tracepoint:block:block_rq_issue { @start[args->dev, args->sector] = nsecs; }
tracepoint:block:block_rq_complete /@start[args->dev, args->sector]/ {
	$d = nsecs - @start[args->dev, args->sector];
	@usecs = hist($d / 1000); @nsecs = hist($d); @sum_ns = sum($d);
	delete(@start[args->dev, args->sector]);
}
END { clear(@start); }'

# nb_bt_start OUT [SCRIPT]: bpftrace running SCRIPT (a file; default the
# tracepoint form above) until sync(2), its output in OUT; returns once
# attached (the script's BEGIN printed biolatency.bt's first line), else
# returns 1 with bpftrace's errors in OUT.err.
nb_bt_start() {
	if [ -n "${2:-}" ]; then
		prog=$(grep -v '^#!' "$2")
	else
		prog=$NB_BIOLATENCY_TP
	fi
	: > "$1"
	frec_bpftrace -e "kprobe:ksys_sync /comm == \"sync\"/ { exit(); }
$prog" > "$1" 2> "$1.err" &
	nb_btpid=$!
	i=0
	until grep -q 'Tracing block device I/O' "$1"; do
		i=$((i + 1))
		[ $i -lt 1200 ] || { cat "$1.err"; fail "bpftrace did not start in 120 s"; }
		kill -0 $nb_btpid 2>/dev/null || { wait $nb_btpid; return 1; }
		sleep 0.1
	done
}

nb_bt_stop() {
	sync
	wait $nb_btpid
}

# nb_bt_hist MAP < OUT: bpftrace's histogram MAP as "LOW COUNT" lines,
# LOW the bucket's lower bound as a number (bpftrace prints 64K, 1M).
nb_bt_hist() {
	awk -v m="@$1:" '$1 == m { on = 1; next } on && !NF { on = 0 } on && /^\[/ {
		# "[64K, 128K) 8979 |@@|", or "[1] 5 |@|" for 0 and 1
		s = $1; gsub(/[^0-9KMG]/, "", s); n = ($1 ~ /]$/) ? $2 : $3
		k = 1; if (s ~ /K$/) k = 1024; else if (s ~ /M$/) k = 1048576; else if (s ~ /G$/) k = 1073741824
		sub(/[KMG]$/, "", s)
		print s * k, n }'
}

# nb_frec_hist: frec's histogram of the request span (its end's site in
# frec_null_blk) as "LOW HIGH COUNT" lines, then "sum SUM count COUNT".
nb_frec_hist() {
	awk '/^hist / { on = ($0 ~ /\[frec_null_blk\]/) }
		on && /count=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "sum") sum = kv[2]; if (kv[1] == "count") cnt = kv[2] } }
		on && /^  \[/ { lo = $1; sub(/\[/, "", lo); sub(/,/, "", lo); hi = $2; sub(/\)/, "", hi); print lo, hi, $3 }
		END { sub(/ns$/, "", sum); print "sum", sum, "count", cnt }' $FREC_DEBUGFS/hist
}

# nb_ftrace_hist on|off: ftrace's way to the same latency histogram, with
# hist triggers: block_rq_issue saves its timestamp by device and sector,
# block_rq_complete takes the difference and sends it to a synthetic
# event, whose hist trigger counts it per power of two of ns.
# nb_ftrace_hist show prints that histogram.
nb_ftrace_hist() {
	T=/sys/kernel/tracing
	case $1 in
	on)
		echo 'nb_lat u64 lat' > $T/synthetic_events || fail "synthetic event nb_lat"
		echo 'hist:keys=dev,sector:ts0=common_timestamp' > $T/events/block/block_rq_issue/trigger ||
			fail "hist trigger on block_rq_issue"
		echo 'hist:keys=dev,sector:lat=common_timestamp-$ts0:onmatch(block.block_rq_issue).trace(nb_lat,$lat)' \
			> $T/events/block/block_rq_complete/trigger || fail "hist trigger on block_rq_complete"
		echo 'hist:keys=lat.log2' > $T/events/synthetic/nb_lat/trigger || fail "hist trigger on nb_lat"
		;;
	show)
		cat $T/events/synthetic/nb_lat/hist
		;;
	off)
		echo '!hist:keys=lat.log2' > $T/events/synthetic/nb_lat/trigger
		echo '!hist:keys=dev,sector:lat=common_timestamp-$ts0:onmatch(block.block_rq_issue).trace(nb_lat,$lat)' \
			> $T/events/block/block_rq_complete/trigger
		echo '!hist:keys=dev,sector:ts0=common_timestamp' > $T/events/block/block_rq_issue/trigger
		echo '!nb_lat u64 lat' >> $T/synthetic_events
		;;
	esac
}
