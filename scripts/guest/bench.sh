#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest half of scripts/bench.sh: run frec_bench.ko and print its
# figures ("frec-bench: ...") to the TAP stream.  FREC_BENCH in run.conf
# says which: "cost" (the cost table) or "dump" (fill a 64 MiB ring and the
# ftrace buffer with as many records, then time reading each back).
. /frec/guest/lib.sh
. /frec/run.conf
frec_load
case "${FREC_BENCH:-cost}" in
cost)
	insmod "$FREC_MODULES/frec_bench.ko" || fail "insmod frec_bench.ko"
	;;
dump)
	n=${FREC_BENCH_FILL:-1000000}
	T=/sys/kernel/tracing
	echo 65536 > $T/buffer_size_kb
	echo > $T/trace
	# Every record on one CPU, so that both buffers hold all of them.
	taskset -c 0 insmod "$FREC_MODULES/frec_bench.ko" fill=$n || fail "insmod frec_bench.ko fill"
	echo 0 > $T/tracing_on
	# busybox date has no %N: /proc/uptime's 10 ms steps will do.
	for f in $FREC_DEBUGFS/rings/bench_fill/dump $T/trace; do
		t0=$(cut -d' ' -f1 /proc/uptime)
		lines=$(cat $f | wc -l)
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "frec-bench: read $f $lines lines $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.0f", (b - a) * 1e9 }') ns" > /dev/kmsg
	done
	;;
esac
dmesg | sed -n 's/.*frec-bench: /frec-bench: /p'
rmmod frec_bench
frec_unload
