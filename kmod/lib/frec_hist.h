/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_hist.h - latency histograms: one copy per CPU, added to from any
 * context on its own CPU with no lock and no shared write, summed when
 * read, printed as text.
 *
 * Compiled into the module and, unchanged, into tools/ (the harness and
 * frec-decode), so that the debugfs file and the decoder print the same
 * bytes for the same counts.  frec_hist.c's DOC block gives the layout,
 * its error and the concurrency design.
 *
 *   struct frec_hist_cpu      one CPU's counts; frec_hist_add() writes
 *                             the current CPU's copy only
 *   struct frec_hist          what the histogram's readers share: the
 *                             counts at the last reset
 *   struct frec_hist_summary  the CPUs summed since the last reset, with
 *                             the statistics frec_hist_write() prints
 *
 * All-zero memory is an empty histogram: a pool of copies allocated
 * zeroed needs no initialisation.
 */
#ifndef _FREC_HIST_H
#define _FREC_HIST_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <asm/local.h>
#else
#include "frec_user.h"
#endif

#include "frec_text_sink.h"

/*
 * Bucket layout: values below 2 << FREC_HIST_SUB_BITS (32 ns) have a
 * bucket each; above, every power of two [2^e, 2^(e+1)) is cut into
 * 1 << FREC_HIST_SUB_BITS (16) buckets of width 2^(e - 4), up to
 * FREC_HIST_TOP (2^40 ns, 18 min 19.5 s); the last bucket holds every
 * value from FREC_HIST_TOP up.
 */
#define FREC_HIST_SUB_BITS	4
#define FREC_HIST_SUB		16U		/* 2^FREC_HIST_SUB_BITS */
#define FREC_HIST_TOP_BITS	40
#define FREC_HIST_TOP		0x10000000000ULL	/* 2^FREC_HIST_TOP_BITS */
/* Index of the last bucket, [FREC_HIST_TOP, infinity). */
#define FREC_HIST_OVERFLOW	((FREC_HIST_TOP_BITS - FREC_HIST_SUB_BITS + 1) << \
				 FREC_HIST_SUB_BITS)
#define FREC_HIST_BUCKETS	(FREC_HIST_OVERFLOW + 1)

/* The percentiles printed, in parts per 10000: p50, p90, p99, p99.9. */
#define FREC_HIST_NR_PCT	4
extern const unsigned int frec_hist_pct[FREC_HIST_NR_PCT];

/* The first line of a file of histograms: how to read the rest. */
#define FREC_HIST_HEADER \
	"# frec hist: values in ns; buckets [low, high) count; min, max and percentiles exact below 32 ns, else within 1/32\n"

/**
 * struct frec_hist_cpu - one CPU's counts of one histogram
 * @sum: the sum of the values added, modulo 2^64.
 * @bucket: values added per bucket, modulo 2^64.
 *
 * Written only by frec_hist_add() on its own CPU (any context, nested);
 * read by frec_hist_read() and frec_hist_reset() from any CPU.
 * sizeof() is 4752 bytes.
 */
struct frec_hist_cpu {
	local_t sum;
	local_t bucket[FREC_HIST_BUCKETS];
};

/**
 * struct frec_hist_summary - a histogram since its last reset, all CPUs
 * @count: values counted (the sum of @bucket).
 * @sum: their sum, ns.
 * @min: the least, ns: its bucket's midpoint (frec_hist.c).
 * @max: the greatest, ns: likewise.
 * @mean: @sum / @count, rounded down.
 * @pct: the percentiles frec_hist_pct[] names, ns.
 * @bucket: values per bucket.
 *
 * Large (4.8 KiB): allocate it, do not put it on a kernel stack.
 */
struct frec_hist_summary {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	u64 mean;
	u64 pct[FREC_HIST_NR_PCT];
	u64 bucket[FREC_HIST_BUCKETS];
};

/**
 * struct frec_hist - what the readers of one histogram share
 * @base: the CPUs' raw counts (@sum and @bucket) summed at the last reset.
 *
 * Writers never read it.
 */
struct frec_hist {
	struct frec_hist_summary base;
};

/**
 * struct frec_hist_cpus - where one histogram's per-CPU copies are
 * @get: the copy of CPU @cpu, or NULL for a CPU that has none.
 * @ctx: passed to @get.
 * @nr: the CPUs asked for are 0 .. @nr - 1.
 */
struct frec_hist_cpus {
	struct frec_hist_cpu *(*get)(void *ctx, unsigned int cpu);
	void *ctx;
	unsigned int nr;
};

/*
 * The bucket of @ns, unclamped: FREC_HIST_OVERFLOW and above for a value
 * from FREC_HIST_TOP up.
 */
static __always_inline u64 frec_hist_index_unclamped(u64 ns)
{
	/* The highest bit set, at least FREC_HIST_SUB_BITS. */
	unsigned int shift = __fls((unsigned long)(ns | FREC_HIST_SUB)) -
			     FREC_HIST_SUB_BITS;

	return ((u64)shift << FREC_HIST_SUB_BITS) + (ns >> shift);
}

/**
 * frec_hist_index() - the bucket a value falls in
 * @ns: the value.
 *
 * Context: any.
 * Return: 0 .. FREC_HIST_OVERFLOW, never decreasing as @ns grows.
 */
static __always_inline unsigned int frec_hist_index(u64 ns)
{
	return min_t(u64, frec_hist_index_unclamped(ns), FREC_HIST_OVERFLOW);
}

void frec_hist_add_overflow(struct frec_hist_cpu *c, u64 ns);

/**
 * frec_hist_add_below_top() - count one value in this CPU's copy, unless
 *	it is FREC_HIST_TOP or more
 * @c: the current CPU's copy of the histogram.
 * @ns: the value.
 *
 * frec_hist_add() without its out-of-line case, for a caller that has an
 * out-of-line path of its own for values that large (a span's end: a
 * clock skew's duration word is one).
 *
 * Context: as frec_hist_add().
 * Return: true if counted; false, and nothing written, if @ns is
 * FREC_HIST_TOP or more.
 */
static __always_inline bool frec_hist_add_below_top(struct frec_hist_cpu *c, u64 ns)
{
	u64 i = frec_hist_index_unclamped(ns);

	/* FREC_HIST_OVERFLOW itself is the first index of a value >= TOP. */
	if (unlikely(i >= FREC_HIST_OVERFLOW))
		return false;
	local_inc(&c->bucket[i]);
	local_add((long)ns, &c->sum);
	return true;
}

/**
 * frec_hist_add() - count one value in this CPU's copy
 * @c: the current CPU's copy of the histogram.
 * @ns: the value.
 *
 * Two CPU-local writes (the bucket's count, the sum), no lock, no
 * division, no loop, no load of anything shared; an interrupt or NMI on
 * this CPU may add to the same copy in the middle of it.  A value from
 * FREC_HIST_TOP up (18 minutes) is counted out of line, so that the
 * common case has no clamp.
 *
 * Context: any, NMI included, with preemption disabled (@c must stay this
 * CPU's for the whole call).
 */
static __always_inline void frec_hist_add(struct frec_hist_cpu *c, u64 ns)
{
	if (unlikely(!frec_hist_add_below_top(c, ns)))
		frec_hist_add_overflow(c, ns);
}

u64 frec_hist_low(unsigned int i);
u64 frec_hist_high(unsigned int i);
void frec_hist_read(const struct frec_hist *h, const struct frec_hist_cpus *cpus,
		    struct frec_hist_summary *s);
void frec_hist_reset(struct frec_hist *h, const struct frec_hist_cpus *cpus);
void frec_hist_write(const struct frec_hist_summary *s, const char *name,
		     const struct frec_text_sink *out);

#endif /* _FREC_HIST_H */
