#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Decode speed: generate a dump of $BENCH_RECORDS records with frec-gen,
# decode it to /dev/null as text, JSON and CSV (best of 3 runs each), and
# print records/s; the same table goes to CSV_OUT.  Prints figures, never
# fails on them.
#
#   bench.sh BUILD_DIR CSV_OUT
set -eu
dir=$1
csv=$2
n=${BENCH_RECORDS:-3000000}
work=$dir/bench
mkdir -p "$work"
echo "generating $n records..."
"$dir/frec-gen" -n "$n" -c 4 --no-expected "$work/bench"
bytes=$(stat -c %s "$work/bench.raw")
echo "output,records,raw_bytes,best_seconds,records_per_second,mib_per_second" > "$csv"
for fmt in text json csv; do
	best=
	for run in 1 2 3; do
		t0=$(date +%s%N)
		"$dir/frec-decode" -F "$fmt" -f "$work/bench.formats" \
			-s "$work/bench.sites" -k "$work/bench.kallsyms" \
			"$work/bench.raw" > /dev/null
		t1=$(date +%s%N)
		ns=$((t1 - t0))
		if [ -z "$best" ] || [ "$ns" -lt "$best" ]; then best=$ns; fi
	done
	rate=$((n * 1000000000 / best))
	mibs=$((bytes * 1000 / best * 1000000 / 1048576))
	secs=$(awk "BEGIN { printf \"%.3f\", $best / 1e9 }")
	printf '%-5s %d records in %s s: %d records/s (%d MiB/s of raw dump)\n' \
		"$fmt" "$n" "$secs" "$rate" "$mibs"
	echo "$fmt,$n,$bytes,$secs,$rate,$mibs" >> "$csv"
done
rm -f "$work/bench.raw"
echo "wrote $csv"
