#!/bin/sh
# description: frec_null_blk under fio: the request span's hist counts per power of two what biolatency.bt's tracepoint form counts, its p50/p90 are fio's clat p50/p90 less fio's own part, within their errors; a failed request is recorded; polled and throttled requests begin and end their span once
# kernels: 6.1 6.12 6.12-rt
# can-run: 6.1 6.12 6.12-rt
# timeout: 300
# boot: alone
# qemu: -smp 1 -icount shift=1,sleep=off
#
# Under icount, one vCPU (make bench's setting): the guest clock counts
# instructions, so what fio adds is the same for every request.
#
# Phase 1, make bench's load (4 KiB random reads, iodepth 32, two jobs,
# completion by hrtimer after 50 us): frec's histogram of the request
# span against bpftrace's, biolatency.bt in its tracepoint form, in the
# same run.  The points differ: bpftrace's interval begins at
# block_rq_issue (in blk_mq_start_request(), before the span's begin in
# null_queue_rq()) and ends at block_rq_complete (in blk_mq_end_request(),
# after the span's end), and its programs run inside it; so every request
# is longer to bpftrace, by delta (the difference of the two exact sums,
# per request: 4 us on 6.1, 15 us on 6.12 under icount), and bpftrace
# skips a program that fires while another runs on the CPU (an hrtimer's
# completion in the middle of an issue's program): it may count fewer.
# Checked: bpftrace counts at most 1% fewer; below every power of two it
# counts no more than frec (its intervals contain frec's), and no fewer
# than frec below the power of two less 2 delta, less the requests it
# missed and 1% (requests whose own delta was longer: an interrupt
# between the two points).
#
# Phase 2, one request at a time (iodepth 1, one job): fio's completion
# latency (clat) of a request is frec's span plus what fio adds: the
# submission's path to null_queue_rq(), the completion's from the span's
# end to io_getevents() returning, and fio's own code.  Measured as the
# difference of the two exact means (fio's mean, frec's sum / count),
# and taken off fio's p50 and p90, they must be frec's p50 and p90 within
# frec's error (1/32) and fio's (its histogram's buckets, 1/64).  p99 and
# p99.9 are printed, not checked: the tick lands in fio's part of some
# requests, not in the span (whose max stays within 1/32 of its p50).
. /frec/guest/lib.sh
. /frec/run.conf
. /frec/guest/nullblk.sh
frec_reset
nb_unload
frec_load
nb_load frec

# Phase 1.
echo 0 > $FREC_DEBUGFS/hist || fail "reset hist"
nb_bt_start /tmp/bt || { cat /tmp/bt.err; fail "bpftrace exited"; }
nb_fio 2 /tmp/fio1.json
nb_bt_stop
nb_frec_hist > /tmp/frec1
nb_bt_hist nsecs < /tmp/bt > /tmp/bt1
nb_bt_hist usecs < /tmp/bt > /tmp/bt1us
bt_sum=$(sed -n 's/^@sum_ns: //p' /tmp/bt)
[ -n "$bt_sum" ] && [ -s /tmp/bt1 ] || { cat /tmp/bt /tmp/bt.err; fail "no histogram from bpftrace"; }
echo "# fio: $(nb_fio_summary /tmp/fio1.json)"
awk -v bsum="$bt_sum" '
	# frec: "LOW HIGH COUNT" buckets, then "sum S count N"; bpftrace: "LOW COUNT"
	FILENAME == ARGV[1] && $1 == "sum" { fsum = $2; fn = $4; next }
	FILENAME == ARGV[1] { hi[++nf] = $2; fc[nf] = $3
		o = 1; while (o * 2 <= $1) o *= 2; F[o] += $3; seen[o] = 1; next }
	{ B[$1] += $2; bn += $2; seen[$1] = 1 }
	# below(y): frec requests in buckets wholly below y ns
	function below(y,   i, c) { c = 0; for (i = 1; i <= nf; i++) if (hi[i] <= y) c += fc[i]; return c }
	END {
		if (!fn || !bn) { print "frec counted " fn + 0 " requests, bpftrace " bn + 0; exit 1 }
		miss = fn - bn; delta = bsum / bn - fsum / fn
		printf "# requests: frec %d, bpftrace %d (%d fewer); delta %.0f ns a request\n", fn, bn, miss, delta
		if (miss < 0 || miss > fn / 100) { print "bpftrace counted " bn " requests, frec " fn; bad = 1 }
		if (delta < 0) { print "bpftrace'"'"'s requests are shorter than frec'"'"'s spans"; bad = 1; delta = 0 }
		printf "# %-14s %10s %10s\n", "ns from", "frec", "bpftrace"
		fb = 0; bb = 0
		for (o = 1; o <= 1099511627776; o *= 2) {
			# Below o, bpftrace counts no more than frec (its intervals
			# contain frec'"'"'s), and no fewer than frec below o - 2 delta,
			# less what it missed and 1% (requests with a longer delta).
			if (bb > fb) { print "below " o " ns: bpftrace " bb ", frec " fb; bad = 1 }
			lo = below(o - 2 * delta) - miss - fn / 100
			if (bb < lo) { print "below " o " ns: bpftrace " bb ", frec " below(o - 2 * delta) " below " o - 2 * delta; bad = 1 }
			if (o in seen) printf "# %-14d %10d %10d\n", o, F[o], B[o]
			fb += F[o]; bb += B[o]
		}
		exit bad
	}' /tmp/frec1 /tmp/bt1 || fail "frec's histogram and bpftrace's disagree"
echo "# biolatency.bt's own unit, us:"
sed 's/^/#   /' /tmp/bt1us

# Phase 2.
echo 0 > $FREC_DEBUGFS/hist || fail "reset hist"
nb_fio 2 /tmp/fio2.json 1 1
fio2=$(nb_fio_summary /tmp/fio2.json) || fail "no figures from fio"
line=$(grep -A1 '\[frec_null_blk\]' $FREC_DEBUGFS/hist | tail -n 1)
echo "# frec:$line"
echo "# fio:  $fio2"
echo "$line | $fio2" | awk '{
	# NAME=VALUE words: the hist line, a bar, the fio figures
	for (i = 1; i <= NF; i++) { if ($i == "|") { fio = 1; continue }
		split($i, kv, "="); v = kv[2]; sub(/ns$/, "", v)
		if (fio) g[kv[1]] = v; else f[kv[1]] = v }
	}
	END {
		if (!f["count"]) { print "frec counted no request"; exit 1 }
		u = g["mean"] - f["sum"] / f["count"]
		printf "# fio adds %.0f ns a request (its mean %d, the span'"'"'s %.0f)\n", u, g["mean"], f["sum"] / f["count"]
		n = split("p50 p90 p99 p99.9", p, " ")
		for (i = 1; i <= n; i++) {
			want = g[p[i]] - u; got = f[p[i]]; tol = got / 32 + g[p[i]] / 64
			d = got - want; if (d < 0) d = -d
			printf "# %-6s frec %8d  fio %8d - %.0f = %8.0f  off %5.1f%% (allowed %4.1f%%)%s\n",
				p[i], got, g[p[i]], u, want, 100 * d / want, 100 * tol / want, (i > 2 ? ", not checked" : "")
			if (i <= 2 && d > tol) bad = 1
		}
		exit bad
	}' || fail "frec's percentiles are not fio's less what fio adds"

# Phase 3: a failed request.  A second disk, made through configfs, its
# first sectors bad: a read of them ends in an error record (level err)
# and a span end with error 10 (BLK_STS_IOERR).  (Debian's kernels have
# no fault injection for the requeue and timeout records.)
mount -t configfs none /sys/kernel/config 2>/dev/null
C=/sys/kernel/config/nullb/nullb_bad
mkdir $C || fail "mkdir $C"
echo +0-7 > $C/badblocks || fail "badblocks"
echo 1 > $C/power || fail "power on"
# The disk takes the configfs directory's name.
dev=/dev/nullb_bad
i=0
until [ -b $dev ]; do i=$((i + 1)); [ $i -lt 100 ] || fail "no $dev"; sleep 0.1; done
dd if=$dev of=/dev/null bs=4096 count=1 2> /tmp/dd.err && fail "a read of bad sectors succeeded"
grep -v '^#' $FREC_DEBUGFS/rings/null_blk/dump | grep ' error 10' > /tmp/err
cat /tmp/err
grep -q 'null_frec_end.* rq tag [0-9]* error 10$' /tmp/err || fail "no error record"
grep -q 'null_frec_end.* < rq tag [0-9]* error 10 dur=' /tmp/err || fail "no span end with the error"
echo 0 > $C/power
rmdir $C

# Phase 4: every request's span begins once and ends once, also on the
# paths the workload does not take: polled reads (pvsync2 with RWF_HIPRI,
# no completion batch: 6.1's null_poll() hands the request to end_cmd())
# and a throttled disk (mbps=1: 6.1 refuses the request after its
# begin, and blk-mq queues it again; 4 KiB reads: the throttle gives a
# 1 MB/s disk 20 KiB a tick, and refuses a larger request for ever).  Once the reads are done, frec-decode
# --in-flight of the ring lists no span in flight and no end without its
# begin (a second end of one begin counts as one).
nb_unload
insmod "$FREC_MODULES/frec_null_blk.ko" queue_mode=2 irqmode=0 poll_queues=1 \
	submit_queues=2 nr_devices=1 gb=1 || fail "insmod frec_null_blk.ko poll_queues=1"
i=0
until [ -b /dev/nullb0 ]; do i=$((i + 1)); [ $i -lt 100 ] || fail "no /dev/nullb0"; sleep 0.1; done
# only this phase's records: none whose begin or end the earlier load overwrote
echo 1 > $FREC_DEBUGFS/clear || fail "clear"
$NB_LD --library-path $NB_LIB /host/usr/bin/fio --name=poll --filename=/dev/nullb0 --rw=randread \
	--bs=4k --direct=1 --ioengine=pvsync2 --hipri=1 --number_ios=200 --thread \
	--output=/tmp/fio-poll.log > /dev/null 2>&1 || { cat /tmp/fio-poll.log; fail "fio, polled"; }
C=/sys/kernel/config/nullb/nullb_slow
mkdir $C || fail "mkdir $C"
echo 1 > $C/mbps || fail "mbps"
echo 1 > $C/power || fail "power on"
i=0
until [ -b /dev/nullb_slow ]; do i=$((i + 1)); [ $i -lt 100 ] || fail "no /dev/nullb_slow"; sleep 0.1; done
dd if=/dev/nullb_slow of=/dev/null bs=4k count=256 iflag=direct 2> /dev/null || fail "read of the throttled disk"
echo 0 > $C/power
rmdir $C
cat $FREC_DEBUGFS/raw > /tmp/nb.raw
cat $FREC_DEBUGFS/formats > /tmp/nb.formats
cat $FREC_DEBUGFS/sites > /tmp/nb.sites
frec_decode --in-flight -n /tmp/nb.raw --formats /tmp/nb.formats --sites /tmp/nb.sites \
	> /tmp/nb.inflight || fail "frec-decode --in-flight failed"
grep '^# in flight' /tmp/nb.inflight | head -n 5
grep -c 'throttled, sent back' /tmp/nb.inflight | sed 's/^/# throttled requests sent back: /'
grep -q '^# in flight at the end .*: 0 of [1-9][0-9]* spans begun never ended .*; 0 ends name a begin the dump lacks$' /tmp/nb.inflight ||
	fail "after the polled and throttled reads, spans are in flight or ends lack their begin"
nb_unload
frec_unload
