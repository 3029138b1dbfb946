// SPDX-License-Identifier: GPL-2.0
/*
 * frec_bench.c - what a record costs in the kernel, against trace_printk()
 * and printk().  A benchmark: it prints figures ("frec-bench: ..." lines in
 * the kernel log) and never fails.  scripts/bench.sh runs it in a guest;
 * under QEMU's -icount the guest clock counts executed instructions, so
 * the figures repeat exactly from boot to boot.
 *
 *   insmod frec_bench.ko [iterations=1000000]          the cost table
 *   insmod frec_bench.ko fill=1000000 fill_bytes=...   fill ring bench_fill
 *                        and the ftrace buffer with as many records, for
 *                        the dump-reading benchmark
 *   insmod frec_bench.ko scale=1 [iterations=N]       records per second
 *                        with CPU 0 recording alone, then CPUs 0 and 1 at
 *                        once, into a ring of each order: how recording
 *                        scales with CPUs
 *
 * Each case runs its call in a loop and reports ns per iteration, loop
 * included; "empty loop" is the loop alone, "empty call" a call of a
 * function with frec_record()'s arguments that does nothing: the floor
 * for any call.  It is __noipa: otherwise GCC sees the arguments unused
 * and drops them (IPA constant propagation), and the floor would be a
 * call without arguments.  "persisted" records into ring bench_persist,
 * which the black box region holds when frec is loaded with region= and
 * persist_rings=bench_persist (scripts/guest/bench.sh does).  "span" is a
 * frec_span_begin() and its frec_span_end(): two records and the
 * duration.  printk runs a
 * tenth of the iterations (it is slow); boot with a quiet console.
 */
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/sched/clock.h>

#include <frec.h>

#include "frec_sample.h"

FREC_SAMPLE_PARAM(iterations, ulong, 1000000,
		  "iterations per case (at least 10: printk runs a tenth)");

/* The least iterations= with a printk case of one call at least. */
#define FREC_BENCH_MIN_ITERATIONS	10

FREC_SAMPLE_PARAM(fill, ulong, 0,
		  "instead of the cost table: records to put into ring bench_fill and ftrace");

FREC_SAMPLE_PARAM(scale, bool, false,
		  "instead of the cost table: 1 CPU recording against 2 at once");

FREC_SAMPLE_PARAM(fill_bytes, ulong, 64UL << 20, "size per CPU of ring bench_fill");

FREC_DEFINE_RING(bench_events, FREC_RING_EVENTS, 64 * 1024, 0);
FREC_DEFINE_RING(bench_text, FREC_RING_RECORDS, 64 * 1024, 128);
FREC_DEFINE_RING(bench_off, FREC_RING_EVENTS, 4 * 1024, 0);
/* In the black box region when frec has persist_rings=bench_persist. */
FREC_DEFINE_RING(bench_persist, FREC_RING_EVENTS, 64 * 1024, 0);

static struct frec_ring *frec_bench_fill_ring;

#define FREC_BENCH_CONTROL	"/sys/kernel/debug/frec/control"

/* The floor: a call with frec_record()'s arguments that does nothing. */
static __noipa void frec_bench_empty(struct frec_ring *ring,
				     const char *fmt, unsigned long a, int b,
				     int c, int d)
{
	barrier();
}

enum frec_bench_case {
	FREC_BENCH_LOOP,
	FREC_BENCH_EMPTY,
	FREC_BENCH_CLOCK,
	FREC_BENCH_RECORD0,
	FREC_BENCH_RECORD4,
	FREC_BENCH_RECORD4_PERSIST,
	FREC_BENCH_PRINTK_FREC,
	FREC_BENCH_SPAN,
	FREC_BENCH_DISABLED,
	FREC_BENCH_SITE_OFF,
	FREC_BENCH_TRACE_PRINTK,
	FREC_BENCH_PRINTK,
	FREC_BENCH_NR
};

static const char * const frec_bench_names[FREC_BENCH_NR] = {
	[FREC_BENCH_LOOP] = "empty_loop",
	[FREC_BENCH_EMPTY] = "empty_call",
	[FREC_BENCH_CLOCK] = "local_clock",
	[FREC_BENCH_RECORD0] = "frec_record_0_args",
	[FREC_BENCH_RECORD4] = "frec_record_4_args",
	[FREC_BENCH_RECORD4_PERSIST] = "frec_record_4_args_persisted",
	[FREC_BENCH_PRINTK_FREC] = "frec_printk_short",
	[FREC_BENCH_SPAN] = "frec_span_begin_end",
	[FREC_BENCH_DISABLED] = "frec_record_disabled_ring",
	[FREC_BENCH_SITE_OFF] = "frec_record_site_off",
	[FREC_BENCH_TRACE_PRINTK] = "trace_printk_4_args",
	[FREC_BENCH_PRINTK] = "printk_4_args",
};

static u64 frec_bench_run(enum frec_bench_case which, unsigned long n)
{
	struct frec_ring *ring = FREC_RING(bench_events);
	unsigned long i;
	u64 t0 = ktime_get_ns();

	switch (which) {
	case FREC_BENCH_LOOP:
		for (i = 0; i < n; i++)
			barrier();
		break;
	case FREC_BENCH_EMPTY:
		for (i = 0; i < n; i++)
			frec_bench_empty(ring, "bench %lu %d %d %d", i, 2, 3, 4);
		break;
	case FREC_BENCH_CLOCK:
		/* The clock a record reads: its share of a record's cost. */
		for (i = 0; i < n; i++)
			local_clock();
		break;
	case FREC_BENCH_RECORD0:
		for (i = 0; i < n; i++)
			frec_record(ring, "bench");
		break;
	case FREC_BENCH_RECORD4:
		for (i = 0; i < n; i++)
			frec_record(ring, "bench %lu %d %d %d", i, 2, 3, 4);
		break;
	case FREC_BENCH_RECORD4_PERSIST:
		for (i = 0; i < n; i++)
			frec_record(FREC_RING(bench_persist), "bench %lu %d %d %d", i, 2, 3, 4);
		break;
	case FREC_BENCH_PRINTK_FREC:
		for (i = 0; i < n; i++)
			frec_printk(FREC_RING(bench_text), "bench %lu %d %d %d", i, 2, 3, 4);
		break;
	case FREC_BENCH_SPAN:
		/* A span: a begin of 4 arguments, an end of 2 (two records). */
		for (i = 0; i < n; i++) {
			struct frec_span s;

			s = frec_span_begin(ring, "bench %lu %d %d %d", i, 2, 3, 4);
			frec_span_end(ring, &s, "bench %lu %d", i, 2);
		}
		break;
	case FREC_BENCH_DISABLED:
		for (i = 0; i < n; i++)
			frec_record(FREC_RING(bench_off), "bench %lu %d %d %d", i, 2, 3, 4);
		break;
	case FREC_BENCH_SITE_OFF:
		/* An enabled ring; the site is off (frec_bench_site_off()). */
		for (i = 0; i < n; i++)
			frec_record(ring, "bench site off %lu %d %d %d", i, 2, 3, 4);
		break;
	case FREC_BENCH_TRACE_PRINTK:
		for (i = 0; i < n; i++)
			trace_printk("bench %lu %d %d %d\n", i, 2, 3, 4);
		break;
	case FREC_BENCH_PRINTK:
		for (i = 0; i < n; i++)
			printk(KERN_DEBUG "bench %lu %d %d %d\n", i, 2, 3, 4);
		break;
	default:
		break;
	}
	return ktime_get_ns() - t0;
}

/* Switch the site-off case's site off, as a user would: frec/control. */
static int frec_bench_site_off(void)
{
	static const char cmd[] = "module frec_bench format \"bench site off\" -r";
	struct file *f = filp_open(FREC_BENCH_CONTROL, O_WRONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f)) {
		pr_err("frec-bench: %s: %pe\n", FREC_BENCH_CONTROL, f);
		return PTR_ERR(f);
	}
	n = kernel_write(f, cmd, sizeof(cmd) - 1, &pos);
	filp_close(f, NULL);
	if (n != sizeof(cmd) - 1) {
		pr_err("frec-bench: %s refused '%s': %zd\n", FREC_BENCH_CONTROL, cmd, n);
		return n < 0 ? n : -EIO;
	}
	return 0;
}

static void frec_bench_table(void)
{
	u64 ns[FREC_BENCH_NR];
	unsigned long n[FREC_BENCH_NR];
	int c;

	frec_ring_set_enabled(FREC_RING(bench_off), false);
	if (frec_bench_site_off())
		return;
	for (c = 0; c < FREC_BENCH_NR; c++) {
		n[c] = c == FREC_BENCH_PRINTK ? iterations / 10 : iterations;
		/* A warm-up pass of a tenth, then the measured one. */
		frec_bench_run(c, n[c] / 10);
		ns[c] = frec_bench_run(c, n[c]);
	}
	/* At the end: the printk case floods the log buffer. */
	for (c = 0; c < FREC_BENCH_NR; c++)
		pr_emerg("frec-bench: %s %lu iterations %llu ns %llu.%02llu ns/iter\n",
			 frec_bench_names[c], n[c], ns[c], div64_u64(ns[c], n[c]),
			 div64_u64(ns[c] * 100, n[c]) % 100);
}

static int frec_bench_fill(void)
{
	unsigned long i;
	u64 t0;

	frec_bench_fill_ring = frec_ring_create("bench_fill", FREC_RING_EVENTS, fill_bytes, 0);
	if (IS_ERR(frec_bench_fill_ring))
		return PTR_ERR(frec_bench_fill_ring);
	t0 = ktime_get_ns();
	for (i = 0; i < fill; i++)
		frec_record(frec_bench_fill_ring, "fill %lu of %lu on cpu %d", i, fill,
			    raw_smp_processor_id());
	pr_emerg("frec-bench: fill frec %lu records %llu ns\n", fill, ktime_get_ns() - t0);
	t0 = ktime_get_ns();
	for (i = 0; i < fill; i++)
		trace_printk("fill %lu of %lu on cpu %d\n", i, fill, raw_smp_processor_id());
	pr_emerg("frec-bench: fill trace_printk %lu records %llu ns\n", fill, ktime_get_ns() - t0);
	return 0;
}

/* The scaling case: writers started together, each on its own CPU. */
struct frec_bench_scale {
	struct frec_ring *ring;
	atomic_t ready;
	unsigned int writers;
	struct completion go, done[2];
	u64 ns[2];
};

static int frec_bench_scale_writer(void *data)
{
	struct frec_bench_scale *sc = data;
	int cpu = raw_smp_processor_id();
	unsigned long i;
	u64 t0;

	atomic_inc(&sc->ready);
	wait_for_completion(&sc->go);
	t0 = ktime_get_ns();
	for (i = 0; i < iterations; i++)
		frec_record(sc->ring, "bench %lu %d %d %d", i, cpu, 3, 4);
	sc->ns[cpu] = ktime_get_ns() - t0;
	complete(&sc->done[cpu]);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* @writers CPUs (0, or 0 and 1) record @iterations each; the slowest's ns. */
static u64 frec_bench_scale_run(struct frec_ring *ring, unsigned int writers)
{
	struct frec_bench_scale sc = { .ring = ring, .writers = writers };
	struct task_struct *t[2];
	unsigned int w;
	u64 ns = 0;

	init_completion(&sc.go);
	for (w = 0; w < writers; w++) {
		init_completion(&sc.done[w]);
		t[w] = kthread_create_on_cpu(frec_bench_scale_writer, &sc, w, "frec_bench/%u");
		if (IS_ERR(t[w]))
			return 0;
		wake_up_process(t[w]);
	}
	while (atomic_read(&sc.ready) < writers)
		schedule_timeout_interruptible(1);
	complete_all(&sc.go);
	for (w = 0; w < writers; w++) {
		wait_for_completion(&sc.done[w]);
		kthread_stop(t[w]);
		ns = max(ns, sc.ns[w]);
	}
	return ns;
}

static int frec_bench_scaling(void)
{
	static const char * const names[] = { "per-cpu", "global" };
	struct frec_ring *ring;
	u64 one, two;
	int order;

	if (!cpu_online(1))
		return -ENODEV;
	for (order = 0; order < 2; order++) {
		ring = frec_ring_create("bench_scale", FREC_RING_EVENTS |
					(order ? FREC_RING_GLOBAL_ORDER : 0), 64 * 1024, 0);
		if (IS_ERR(ring))
			return PTR_ERR(ring);
		frec_bench_scale_run(ring, 1);	/* warm-up */
		one = frec_bench_scale_run(ring, 1);
		two = frec_bench_scale_run(ring, 2);
		frec_ring_destroy(ring);
		if (!one || !two)
			return -ENOMEM;
		/* Aggregate rate, 2 CPUs against 1: (2n / two) / (n / one). */
		pr_emerg("frec-bench: scale %s 1cpu %llu ns 2cpus %llu ns %lu records/cpu scaling %llu.%02llux\n",
			 names[order], one, two, iterations, div64_u64(2 * one, two),
			 div64_u64(200 * one, two) % 100);
	}
	return 0;
}

static int __init frec_bench_init(void)
{
	/* Every figure is divided by its case's count, never 0. */
	if (!fill && iterations < FREC_BENCH_MIN_ITERATIONS) {
		pr_err("frec-bench: iterations=%lu refused: at least %u (printk runs a tenth)\n",
		       iterations, FREC_BENCH_MIN_ITERATIONS);
		return -EINVAL;
	}
	if (fill)
		return frec_bench_fill();
	if (scale)
		return frec_bench_scaling();
	frec_bench_table();
	return 0;
}

static void __exit frec_bench_exit(void)
{
	frec_ring_destroy(frec_bench_fill_ring);
}

module_init(frec_bench_init);
module_exit(frec_bench_exit);

MODULE_DESCRIPTION("frec benchmark: frec_record() against trace_printk() and printk()");
MODULE_LICENSE("GPL");
