#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: every benchmark; prints a table, writes build/bench/bench.csv
# and build/bench/kernel-cost.png.  Benchmarks print figures and never
# fail on them; this script fails only if a benchmark could not run.
#
#  1. In-kernel cost (kmod/samples/frec_bench.c) in a 1-vCPU guest under
#     QEMU -icount shift=1,sleep=off: the guest clock counts executed
#     instructions, so the figures repeat exactly; BENCH_ICOUNT_RUNS boots
#     (default 2) show that they do.
#  2. The same on 2 vCPUs without icount (tsc=reliable), BENCH_SMP_RUNS
#     boots (default 3): min / median / max, real time under TCG.
#  2b. Scaling in the guest, 2 vCPUs (tsc=reliable), BENCH_SMP_RUNS boots:
#     records/s with CPU 0 recording alone against CPUs 0 and 1 at once,
#     into a per-CPU-order ring and a global-order one (frec_bench scale=1).
#  3. Reading back: cat of a 64 MiB frec ring vs cat of the ftrace buffer
#     holding as many trace_printk() records (BENCH_FILL, default 1000000);
#     then, in the same guest, frec-decode on frec's raw dump vs
#     trace-cmd report on a trace.dat of the ftrace buffer.
#  4. The ring core natively, 1 and 2 writer threads (tools/, bench_ring).
#  5. frec-decode records/s (tools/, bench-decode).
#  6. null_blk under fio in a 1-vCPU guest under icount, BENCH_NULLBLK_RUNS
#     rounds (default 5) in one boot, each of six cases: the stock
#     null_blk; frec_null_blk with its sites off, and on (spans and their
#     histogram); its points as trace_printk(); the stock one with
#     biolatency.bt running, and with an ftrace hist trigger
#     (scripts/guest/bench.sh, doc/speed.md).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$FREC_BUILD/bench
mkdir -p "$out"
csv=$out/bench.csv
icount_runs=${BENCH_ICOUNT_RUNS:-2}
smp_runs=${BENCH_SMP_RUNS:-3}
nullblk_runs=${BENCH_NULLBLK_RUNS:-5}
echo "benchmark,case,run,value,unit" > "$csv"

make -C "$FREC_ROOT" modules > "$out/modules.log" 2>&1 || die "make modules failed (see $out/modules.log)"
# The guest runs the host's frec-decode (and trace-cmd, if installed).
make -C "$FREC_ROOT/tools" decode > "$out/decode-build.log" 2>&1 || die "make -C tools decode failed"

# guest_bench NAME SMP QEMU_ARGS CMDLINE: one boot; its frec-bench lines.
guest_bench() {
	FREC_GUEST_SMP=$2 FREC_GUEST_QEMU_ARGS=$3 FREC_GUEST_CMDLINE=$4 \
		"$FREC_ROOT/scripts/guest-run.sh" -k stock -m bench -o "$out/$1" -T 1200 \
		> "$out/$1.txt" 2> "$out/$1.err" || true
	grep -q '^frec-bench: ' "$out/$1.txt" || die "benchmark $1 printed nothing (see $out/$1.txt, $out/$1/console.log)"
	tr -d '\r' < "$out/$1.txt" | grep '^frec-bench: '
}

# cost lines -> CSV rows "kernel-NAME,case,run,ns_per_iter,ns"
cost_rows() { # benchmark run
	awk -v b="$1" -v r="$2" '$4 == "iterations" { printf "%s,%s,%s,%s,ns\n", b, $2, r, $7 }'
}

# The region scripts/guest/bench.sh gives frec for ring bench_persist.
persist_cmdline='memmap=2M$0x20000000'
note "1. in-kernel cost, 1 vCPU, icount ($icount_runs boots)"
for run in $(seq "$icount_runs"); do
	FREC_BENCH=cost guest_bench "icount-$run" 1 "-icount shift=1,sleep=off" "loglevel=1 $persist_cmdline" |
		cost_rows kernel-icount "$run" >> "$csv"
done
note "2. in-kernel cost, 2 vCPUs, no icount ($smp_runs boots)"
for run in $(seq "$smp_runs"); do
	FREC_BENCH=cost guest_bench "smp-$run" 2 "" "loglevel=1 $persist_cmdline" |
		cost_rows kernel-smp "$run" >> "$csv"
done
note "2b. scaling with CPUs, 2 vCPUs ($smp_runs boots)"
for run in $(seq "$smp_runs"); do
	FREC_BENCH=scale guest_bench "scale-$run" 2 "" "loglevel=1" |
		awk -v r="$run" '$2 == "scale" { printf "scale,%s,%s,%s,x\n", $3, r, substr($13, 1, length($13) - 1) }' >> "$csv"
done
note "3. reading a full ring back"
FREC_BENCH=dump FREC_BENCH_FILL=${BENCH_FILL:-1000000} guest_bench dump 2 "" "loglevel=1" |
	awk '$2 == "read" { what = ($3 ~ /frec/) ? "cat_frec_dump" : "cat_ftrace_trace";
		printf "dump,%s,1,%s,ns\n", what, $6; printf "dump,%s_lines,1,%s,lines\n", what, $4 }
	     $2 == "fill" { printf "dump,fill_%s,1,%s,ns\n", $3, $6 }
	     $2 == "decode" { printf "decode-guest,%s,1,%s,ns\n", $3, $6;
		printf "decode-guest,%s_lines,1,%s,lines\n", $3, $4 }' >> "$csv"
grep -q '^dump,cat_frec_dump,' "$csv" || die "dump benchmark: no reading figures (see $out/dump.txt)"
note "4. ring core, native"
make -C "$FREC_ROOT/tools" O="$FREC_BUILD/tools" bench > "$out/native.txt" 2>&1 || die "native bench failed (see $out/native.txt)"
awk -F, 'NR > 1 { gsub(/ /, "_", $1); printf "native,%s_1_thread,1,%s,ns\n", $1, $6;
	printf "native,%s_2_threads,1,%s,Mrecords/s\n", $1, $10;
	printf "native,%s_scaling,1,%s,x\n", $1, $12 }' \
	"$FREC_BUILD/tools/bench_ring.csv" >> "$csv"
note "5. decoder"
make -C "$FREC_ROOT/tools" O="$FREC_BUILD/tools" bench-decode > "$out/decode.txt" 2>&1 || die "decoder bench failed (see $out/decode.txt)"
awk -F, 'NR > 1 { printf "decode,%s,1,%s,records/s\n", $1, $5 }' \
	"$FREC_BUILD/tools/bench_decode.csv" >> "$csv"
note "6. null_blk under fio, 1 vCPU, icount ($nullblk_runs rounds)"
FREC_BENCH=nullblk FREC_BENCH_RUNS=$nullblk_runs guest_bench nullblk 1 "-icount shift=1,sleep=off" "loglevel=1" |
	awk '$2 == "nullblk" && $3 == "biolatency-form" { printf "nullblk,biolatency_form,1,%s,form\n", $4 }
	     $2 == "nullblk" && $5 ~ /^iops=/ { for (i = 5; i <= NF; i++) { split($i, kv, "=")
		printf "nullblk,%s_%s,%s,%s,%s\n", $3, kv[1], $4, kv[2], kv[1] == "iops" ? "iops" : "ns" } }' >> "$csv"
grep -q '^nullblk,a-stock_iops,' "$csv" || die "null_blk benchmark: no figures (see $out/nullblk.txt)"

# The table.
{
	echo
	echo "In-kernel cost, ns per call (loop included); icount: run 1 (runs agree: see below)"
	awk -F, '$1 == "kernel-icount" && $3 == 1 { v[$2] = $4; o[n++] = $2 }
		$1 == "kernel-smp" { s[$2] = s[$2] " " $4 }
		END {
			printf "  %-28s %12s %26s\n", "case", "icount 1 vCPU", "2 vCPUs min/median/max"
			for (i = 0; i < n; i++) {
				c = o[i]; m = split(s[c], a, " ")
				for (j = 2; j <= m; j++)	# insertion sort (mawk has no asort)
					for (k = j; k > 1 && a[k - 1] + 0 > a[k] + 0; k--) { x = a[k]; a[k] = a[k - 1]; a[k - 1] = x }
				printf "  %-28s %12.2f %8.1f/%8.1f/%8.1f\n", c, v[c], a[1], a[int((m + 1) / 2)], a[m]
			}
			e = v["empty_call"]; t = v["trace_printk_4_args"]; p = v["printk_4_args"]
			printf "\n  frec_record (4 args) / trace_printk: %.2fx   (target <= 0.10x)\n", v["frec_record_4_args"] / t
			printf "  frec_record (0 args) / trace_printk: %.2fx\n", v["frec_record_0_args"] / t
			printf "  persisted ring / ring (4 args):      %.2fx   (target 1x: the black box)\n", v["frec_record_4_args_persisted"] / v["frec_record_4_args"]
			printf "  frec_record (4 args) / printk:       %.3fx\n", v["frec_record_4_args"] / p
			printf "  frec_printk / trace_printk:          %.2fx   (target <= 0.5x)\n", v["frec_printk_short"] / t
			printf "  span (begin + end) / frec_record:    %.2fx   (target <= 2.2x with its histogram)\n", v["frec_span_begin_end"] / v["frec_record_4_args"]
			printf "  disabled ring / empty call:          %.2fx   (target <= 1.1x)\n", v["frec_record_disabled_ring"] / e
			printf "  site off / empty call:               %.2fx   (target <= 1.1x)\n", v["frec_record_site_off"] / e
			printf "  site off / disabled ring:            %.2fx\n", v["frec_record_site_off"] / v["frec_record_disabled_ring"]
		}' "$csv"
	echo
	awk -F, '$1 == "kernel-icount" { k = $2; if (k in lo) { if ($4 < lo[k]) lo[k] = $4; if ($4 > hi[k]) hi[k] = $4 }
			else lo[k] = hi[k] = $4; n[k]++ }
		END { for (k in lo) { d = (hi[k] - lo[k]) / lo[k]; if (d > m) m = d; r = n[k] }
			printf "icount: %d boots, the largest spread of a case between boots: %.4f%%\n", r, 100 * m }' "$csv"
	echo
	echo "null_blk under fio: 4 KiB random reads, libaio, iodepth 32, 2 jobs; completion by hrtimer"
	echo "after 50 us; 1 vCPU, icount; IOPS and fio's clat (us), min/median/max of the rounds"
	awk -F, '$1 == "nullblk" && $5 == "form" { form = $4 }
		$1 == "nullblk" && $5 != "form" { s[$2] = s[$2] " " $4; n[$2]++ }
		function stat(k, scale,   m, a, j, q, x) {
			m = split(s[k], a, " ")
			for (j = 2; j <= m; j++)
				for (q = j; q > 1 && a[q - 1] + 0 > a[q] + 0; q--) { x = a[q]; a[q] = a[q - 1]; a[q - 1] = x }
			lo = a[1] / scale; med = a[int((m + 1) / 2)] / scale; hi = a[m] / scale; return m
		}
		END {
			split("a-stock b-frec-off c-frec-on d-trace-printk e-biolatency f-ftrace-hist", c, " ")
			stat("a-stock_iops", 1); base = med
			printf "  %-16s %24s %8s %22s %22s\n", "case", "IOPS", "/ (a)", "clat p50", "clat p99"
			for (i = 1; i <= 6; i++) {
				r = stat(c[i] "_iops", 1); li = lo; mi = med; hh = hi
				stat(c[i] "_p50", 1000); p50 = sprintf("%.0f/%.0f/%.0f", lo, med, hi)
				stat(c[i] "_p99", 1000); p99 = sprintf("%.0f/%.0f/%.0f", lo, med, hi)
				printf "  %-16s %8d/%7d/%7d %7.2f%% %22s %22s\n", c[i], li, mi, hh, 100 * (mi / base - 1), p50, p99
			}
			printf "  (%d rounds; e is biolatency.bt %s)\n", r, form == "shipped" ? "as shipped" : "in its tracepoint form"
			stat("c-frec-on_iops", 1)
			printf "  frec_null_blk all on / stock null_blk: %.2f%% of the IOPS   (target: at most 1%% less)\n", 100 * (med / base - 1)
		}' "$csv"
	echo
	echo "Scaling, 2 vCPUs under TCG: records/s of CPUs 0 and 1 together / CPU 0 alone"
	awk -F, '$1 == "scale" { s[$2] = s[$2] " " $4 }
		END {
			for (c in s) {
				m = split(s[c], a, " ")
				for (j = 2; j <= m; j++)
					for (k = j; k > 1 && a[k - 1] + 0 > a[k] + 0; k--) { x = a[k]; a[k] = a[k - 1]; a[k - 1] = x }
				printf "  %-10s min %.2fx median %.2fx max %.2fx (%d boots)%s\n", c, a[1], a[int((m + 1) / 2)], a[m], m,
					c == "per-cpu" ? "   (target: median >= 1.8x)" : ""
			}
		}' "$csv"
	echo
	echo "Reading back (2 vCPUs, TCG):"
	awk -F, '$1 == "dump" && $5 == "ns" { printf "  %-28s %10.3f s\n", $2, $4 / 1e9 }
		$1 == "dump" && $5 == "lines" { printf "  %-28s %10d lines\n", $2, $4 }' "$csv"
	echo
	echo "Ring core, native (this machine):"
	sed -n '/^ring core/,$p' "$out/native.txt" | grep -v '^make' | sed 's/^/  /'
	echo
	echo "Decoder (this machine):"
	awk -F, '$1 == "decode" { printf "  %-8s %12s records/s\n", $2, $4 }' "$csv"
	echo
	echo "Decoding in the guest (2 vCPUs, TCG), the records of step 3:"
	awk -F, '$1 == "decode-guest" && $5 == "ns" { t[$2] = $4 } $1 == "decode-guest" && $5 == "lines" { l[$2] = $4 }
		END {
			for (k in t) printf "  %-12s %9d lines %8.2f s %10.0f lines/s\n", k, l[k "_lines"], t[k] / 1e9, l[k "_lines"] / (t[k] / 1e9)
			if (t["frec-decode"] && t["trace-cmd"])
				printf "  frec-decode / trace-cmd report: %.2fx the rate   (target >= 3x)\n",
					(l["frec-decode_lines"] / t["frec-decode"]) / (l["trace-cmd_lines"] / t["trace-cmd"])
		}' "$csv"
} | tee "$out/table.txt"

# The plot: icount ns per call, log scale.
if command -v gnuplot > /dev/null; then
	awk -F, '$1 == "kernel-icount" && $3 == 1 { print $2, $4 }' "$csv" > "$out/kernel-cost.dat"
	gnuplot <<-EOF
		set terminal png size 900,420 noenhanced
		set output "$out/kernel-cost.png"
		set title "frec: in-kernel cost per call (QEMU TCG, -icount, 1 vCPU, Debian 6.1)"
		set ylabel "ns per call (guest clock), log scale"
		set logscale y
		set style fill solid 0.6
		set boxwidth 0.6
		set xtics rotate by -25
		set grid ytics
		unset key
		plot "$out/kernel-cost.dat" using 0:2:xtic(1) with boxes, \
		     "" using 0:2:(sprintf("%.0f", \$2)) with labels offset 0,0.7
	EOF
	note "plot: $out/kernel-cost.png"
else
	note "no gnuplot (scripts/install-deps.sh installs gnuplot-nox): no plot"
fi
note "CSV: $csv"
