#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest half of scripts/bench.sh: run frec_bench.ko and print its
# figures ("frec-bench: ...") to the TAP stream.  FREC_BENCH in run.conf
# says which: "cost" (the cost table), "scale" (1 CPU recording against 2
# at once), "dump" (fill a 64 MiB ring and the ftrace buffer with as
# many records, then time reading each back) or "nullblk" (fio on
# null_blk, stock and with frec, trace_printk(), bpftrace, ftrace;
# FREC_BENCH_RUNS rounds).
. /frec/guest/lib.sh
. /frec/run.conf
case "${FREC_BENCH:-cost}" in
nullblk)
	. /frec/guest/nullblk.sh
	# A first line at once: guest-run.sh wants output within a minute.
	echo "# nullblk: ${FREC_BENCH_RUNS:-5} rounds of six fio runs"
	frec_load
	# One fio run: "frec-bench: nullblk CASE ROUND iops=.. mean=.. p50=.. ...".
	nb_run() {
		nb_fio "${FREC_BENCH_SECONDS:-2}" /tmp/fio.json
		echo "frec-bench: nullblk $1 $2 $(nb_fio_summary /tmp/fio.json)" >> /tmp/bench.out
	}
	: > /tmp/bench.out
	# biolatency.bt as Debian ships it (kprobes on blk_account_io_*), or
	# its tracepoint form (nullblk.sh) where those do not attach, or
	# attach and see no request (6.1: the functions a kprobe finds are
	# not those the I/O path calls), decided in the first round.
	bt=/host/usr/sbin/biolatency.bt
	r=1
	while [ $r -le "${FREC_BENCH_RUNS:-5}" ]; do
		nb_load stock; nb_run a-stock $r
		if [ ! -e /tmp/bt.form ]; then
			echo tracepoint > /tmp/bt.form
			if nb_bt_start /tmp/bt $bt; then
				nb_fio 1 /tmp/fio.json
				nb_bt_stop
				grep -q '^@usecs' /tmp/bt && echo shipped > /tmp/bt.form
			fi
			echo "frec-bench: nullblk biolatency-form $(cat /tmp/bt.form)" >> /tmp/bench.out
		fi
		if [ "$(cat /tmp/bt.form)" = shipped ]; then
			nb_bt_start /tmp/bt $bt || { cat /tmp/bt.err; fail "biolatency.bt"; }
		else
			nb_bt_start /tmp/bt || { cat /tmp/bt.err; fail "biolatency.bt, tracepoint form"; }
		fi
		nb_run e-biolatency $r
		nb_bt_stop
		nb_ftrace_hist on; nb_run f-ftrace-hist $r; nb_ftrace_hist off
		nb_unload
		nb_load frec
		echo 'module frec_null_blk -r' > $FREC_DEBUGFS/control || fail "sites off"
		nb_run b-frec-off $r
		echo 'module frec_null_blk +r' > $FREC_DEBUGFS/control || fail "sites on"
		nb_run c-frec-on $r
		nb_unload
		nb_load tp; nb_run d-trace-printk $r; nb_unload
		r=$((r + 1))
	done
	cat /tmp/bench.out
	frec_unload
	exit 0
	;;
cost)
	# Ring bench_persist in the black box region (bench.sh's memmap=).
	frec_load region=2M@0x20000000 persist_rings=bench_persist
	insmod "$FREC_MODULES/frec_bench.ko" || fail "insmod frec_bench.ko"
	# Was the ring in the region?  The next load's frec/previous/ says
	# (the printk case has flooded frec's log line out of dmesg).
	dmesg | sed -n 's/.*frec-bench: /frec-bench: /p' > /tmp/bench.out
	rmmod frec_bench
	frec_unload
	frec_load region=2M@0x20000000
	grep -q '^ring: bench_persist,' $FREC_DEBUGFS/previous/info ||
		echo "frec-bench: ring bench_persist was not in the region: its row measures an ordinary ring" >> /tmp/bench.out
	cat /tmp/bench.out
	frec_unload
	exit 0
	;;
scale)
	frec_load
	# 4,000,000 records per CPU: a second or more per run, so that the
	# host's other work weighs less.
	insmod "$FREC_MODULES/frec_bench.ko" scale=1 iterations=4000000 || fail "insmod frec_bench.ko scale=1"
	;;
dump)
	frec_load
	n=${FREC_BENCH_FILL:-1000000}
	T=/sys/kernel/tracing
	echo 65536 > $T/buffer_size_kb
	echo > $T/trace
	# Every record on one CPU, so that both buffers hold all of them.
	taskset -c 0 insmod "$FREC_MODULES/frec_bench.ko" fill=$n || fail "insmod frec_bench.ko fill"
	echo 0 > $T/tracing_on
	# busybox date has no %N: /proc/uptime's 10 ms steps will do.
	now() { cut -d' ' -f1 /proc/uptime; }
	ns() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1e9 }'; }
	for f in $FREC_DEBUGFS/rings/bench_fill/dump $T/trace; do
		t0=$(now)
		lines=$(cat $f | wc -l)
		t1=$(now)
		echo "frec-bench: read $f $lines lines $(ns $t0 $t1) ns" > /dev/kmsg
	done
	# Decoding offline, in this guest, with the host's binaries: frec-decode
	# on frec's raw dump, trace-cmd report on a trace.dat of the ftrace
	# buffer (the same number of records).
	ld=/host/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
	lib=/host/usr/lib/x86_64-linux-gnu
	dec=/host$FREC_HOST_TREE/build/tools/decode/frec-decode
	if [ -x "$dec" ]; then
		cat $FREC_DEBUGFS/raw > /tmp/raw
		cat $FREC_DEBUGFS/formats > /tmp/formats
		cat $FREC_DEBUGFS/sites > /tmp/sites
		cat /proc/kallsyms > /tmp/kallsyms
		t0=$(now)
		lines=$($ld --library-path $lib "$dec" --ring bench_fill /tmp/raw --formats /tmp/formats \
			--sites /tmp/sites --kallsyms /tmp/kallsyms | wc -l)
		t1=$(now)
		echo "frec-bench: decode frec-decode $lines lines $(ns $t0 $t1) ns" > /dev/kmsg
		rm -f /tmp/raw
	fi
	tc=/host/usr/bin/trace-cmd
	if [ -x $tc ]; then
		(cd /tmp && $ld --library-path $lib $tc extract -o /tmp/trace.dat > /tmp/tc.log 2>&1)
		t0=$(now)
		lines=$($ld --library-path $lib $tc report -i /tmp/trace.dat 2> /dev/null | wc -l)
		t1=$(now)
		echo "frec-bench: decode trace-cmd $lines lines $(ns $t0 $t1) ns" > /dev/kmsg
	fi
	;;
esac
dmesg | sed -n 's/.*frec-bench: /frec-bench: /p'
rmmod frec_bench
frec_unload
