#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Decode speed: generate a dump of $BENCH_RECORDS records with frec-gen,
# decode it to /dev/null as text, JSON and CSV, $BENCH_RUNS times each
# (at least 5: a machine shared with other work varies from run to run),
# and print records/s, the slowest, median and fastest run's; the same
# table goes to CSV_OUT.  Prints figures, never fails on them.
#
#   bench.sh BUILD_DIR CSV_OUT
set -eu
dir=$1
csv=$2
n=${BENCH_RECORDS:-3000000}
runs=${BENCH_RUNS:-5}
work=$dir/bench
mkdir -p "$work"
echo "generating $n records..."
"$dir/frec-gen" -n "$n" -c 4 --no-expected "$work/bench"
bytes=$(stat -c %s "$work/bench.raw")
echo "output,records,raw_bytes,runs,min_records_per_second,median_records_per_second,max_records_per_second,median_mib_per_second" > "$csv"
for fmt in text json csv; do
	times=
	run=0
	while [ "$run" -lt "$runs" ]; do
		t0=$(date +%s%N)
		"$dir/frec-decode" -F "$fmt" -f "$work/bench.formats" \
			-S "$work/bench.sites" -k "$work/bench.kallsyms" \
			"$work/bench.raw" > /dev/null
		t1=$(date +%s%N)
		times="$times $((t1 - t0))"
		run=$((run + 1))
	done
	# slowest, median and fastest run, as records/s and MiB/s of raw dump
	set -- $(echo $times | tr ' ' '\n' | sort -n | awk -v n="$n" -v b="$bytes" '
		{ t[NR] = $1 }
		END {
			m = t[int((NR + 1) / 2)]
			printf "%d %d %d %.3f %d\n", n * 1e9 / t[NR], n * 1e9 / m,
				n * 1e9 / t[1], m / 1e9, b * 1e9 / m / 1048576
		}')
	printf '%-5s %d records, %d runs: %d / %d / %d records/s (min / median / max; median %s s, %d MiB/s of raw dump)\n' \
		"$fmt" "$n" "$runs" "$1" "$2" "$3" "$4" "$5"
	echo "$fmt,$n,$bytes,$runs,$1,$2,$3,$5" >> "$csv"
done
rm -f "$work/bench.raw"
echo "wrote $csv"
