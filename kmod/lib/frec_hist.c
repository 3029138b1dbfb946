// SPDX-License-Identifier: GPL-2.0
/*
 * frec_hist.c - latency histograms: bucket bounds, summing the CPUs'
 * copies, reset, and the text both the module and frec-decode print.
 *
 * Compiled into the module and, unchanged, into tools/; see frec_hist.h
 * for the API.
 */

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#else
#include <stdio.h>
#include <string.h>
#endif

#include "frec_hist.h"

/**
 * DOC: frec latency histogram
 *
 * Bucket layout
 * -------------
 * Log-linear, as HdrHistogram's: with S = FREC_HIST_SUB_BITS = 4, a value
 * v >= 16 whose highest set bit is e falls in bucket
 * ((e - 4) << 4) + (v >> (e - 4)), one of the 16 buckets of width
 * 2^(e - 4) that cut [2^e, 2^(e+1)); below 32 every value has a bucket of
 * its own (the formula gives v for v < 32, and so for v < 16 once e is
 * taken as at least 4)::
 *
 *   bucket   0 .. 31     [v, v + 1)            exact
 *   bucket  32 .. 47     [32, 34) .. [62, 64)  width 2
 *   bucket  48 .. 63     [64, 68) .. [124, 128)  width 4
 *   ...
 *   bucket 576 .. 591    [2^39, 2^39 + 2^35) .. [2^40 - 2^35, 2^40)
 *   bucket 592           [2^40, infinity)      2^40 ns = 18 min 19.5 s
 *
 * A bucket of width w >= 2 starts at low >= 16 w, so its midpoint
 * low + w / 2 is within w / 2 <= low / 32 of every value in it: a value
 * reported by its bucket's midpoint is within 1/32 (3.125 %) of the true
 * value, and values below 32 ns are exact.  min, max and the percentiles
 * are reported so: min the midpoint of the lowest bucket counted, max of
 * the highest, a percentile of the bucket holding the value of its rank
 * (nearest rank); each is within 1/32 of the exact figure of the values
 * counted, and min <= every percentile <= max.  The last bucket has no
 * midpoint: a figure that falls in it is reported as FREC_HIST_TOP, its
 * low bound.  count, sum and mean (sum / count, rounded down) are exact.
 * The index needs no division and no loop: one __fls() (a BSR or LZCNT),
 * a shift and an add; the last bucket's values, past the end of the
 * others, are counted out of line.
 *
 * Why min and max are not kept exactly: an exact min and max cost every
 * add a load, a compare and sometimes a cmpxchg for each, and, for a
 * reset that never writes a CPU's copy, a generation tag in both words:
 * twenty-odd instructions, half the cost of an add.  The records
 * themselves hold every exact duration (frec-decode prints them).
 *
 * Memory: 593 64-bit buckets and the sum: 4752 bytes per CPU per
 * histogram; the readers' share, struct frec_hist, another 4.8 KiB per
 * histogram, not per CPU.
 *
 * Writers
 * -------
 * frec_hist_add() writes only the current CPU's copy, struct
 * frec_hist_cpu, and reads nothing another CPU writes; an interrupt or
 * NMI on the same CPU may add to the same copy in the middle of an add.
 * Its two writes are each one CPU-local read-modify-write of one word
 * (local_t: on x86 an instruction without LOCK prefix, which an
 * interrupt cannot split), so nested adds never lose each other's
 * counts::
 *
 *   task:  inc bucket[i]   add sum
 *                        |
 *   NMI:                 +-- inc bucket[j]   add sum
 *
 * Readers and reset
 * -----------------
 * frec_hist_read() sums every CPU's copy and subtracts struct frec_hist's
 * base, the counts summed at the last reset; frec_hist_reset() takes that
 * sum as the new base.  Reset never writes a CPU's copy, so it needs no
 * lock against writers: the counters are monotonic modulo 2^64, and a
 * counter read minus its reading at reset is exactly the increments made
 * after the reset's load of it (the caller serializes reads and resets of
 * one histogram, e.g. with a mutex, which also orders a read's loads
 * after the last reset's).
 *
 * What a read sees while writers run: each word is read once, whole (no
 * torn count), at its own instant.  count is the sum of the buckets read,
 * so count, the buckets, min, max and the percentiles always agree with
 * each other.  sum (and so mean) may differ from them by the adds a CPU
 * made while its copy was being read (a few hundred loads), those counted
 * in a bucket read before them or the reverse.  A reset takes its
 * baseline the same way, so an add made meanwhile may be counted in
 * either epoch, its sum in the other.
 *
 * Memory ordering
 * ---------------
 * None is needed beyond the caller's serialization of reads and resets:
 * every claim above rests only on each word being written and read whole
 * (local_t) and on each counter only growing.
 */

static_assert(FREC_HIST_SUB == 1U << FREC_HIST_SUB_BITS);
static_assert(FREC_HIST_TOP == 1ULL << FREC_HIST_TOP_BITS);

const unsigned int frec_hist_pct[FREC_HIST_NR_PCT] = { 5000, 9000, 9900, 9990 };
static const char * const frec_hist_pct_name[FREC_HIST_NR_PCT] = {
	"p50", "p90", "p99", "p99.9"
};

/**
 * frec_hist_low() - the least value a bucket holds
 * @i: the bucket, 0 .. FREC_HIST_OVERFLOW.
 *
 * Context: any.
 * Return: its low bound, ns.
 */
u64 frec_hist_low(unsigned int i)
{
	unsigned int shift;

	if (i < 2 * FREC_HIST_SUB)
		return i;
	shift = (i >> FREC_HIST_SUB_BITS) - 1;
	return (u64)(FREC_HIST_SUB + (i & (FREC_HIST_SUB - 1))) << shift;
}

/**
 * frec_hist_high() - the bound past a bucket's values
 * @i: the bucket, 0 .. FREC_HIST_OVERFLOW.
 *
 * Context: any.
 * Return: the least value above the bucket, ns; U64_MAX for the last
 * bucket, which has no bound.
 */
u64 frec_hist_high(unsigned int i)
{
	if (i >= FREC_HIST_OVERFLOW)
		return U64_MAX;
	if (i < 2 * FREC_HIST_SUB)
		return i + 1;
	return frec_hist_low(i) + (1ULL << ((i >> FREC_HIST_SUB_BITS) - 1));
}

/* The value min, max or a percentile in bucket @i is reported as. */
static u64 frec_hist_mid(unsigned int i)
{
	if (i >= FREC_HIST_OVERFLOW)
		return FREC_HIST_TOP;
	return frec_hist_low(i) + ((frec_hist_high(i) - frec_hist_low(i)) >> 1);
}

/**
 * frec_hist_add_overflow() - frec_hist_add() of a value from FREC_HIST_TOP up
 * @c: the current CPU's copy.
 * @ns: the value.
 *
 * Context: as frec_hist_add().
 */
void frec_hist_add_overflow(struct frec_hist_cpu *c, u64 ns)
{
	local_inc(&c->bucket[FREC_HIST_OVERFLOW]);
	local_add((long)ns, &c->sum);
}

/* The CPUs' raw counts into @s: sum and buckets, the rest zero. */
static void frec_hist_sum_cpus(const struct frec_hist_cpus *cpus,
			       struct frec_hist_summary *s)
{
	const struct frec_hist_cpu *c;
	unsigned int cpu, i;

	memset(s, 0, sizeof(*s));
	for (cpu = 0; cpu < cpus->nr; cpu++) {
		c = cpus->get(cpus->ctx, cpu);
		if (!c)
			continue;
		for (i = 0; i < FREC_HIST_BUCKETS; i++)
			s->bucket[i] += (u64)local_read(&c->bucket[i]);
		s->sum += (u64)local_read(&c->sum);
	}
}

/* Ceiling of @count * @pct / 10000, without overflowing. */
static u64 frec_hist_rank(u64 count, unsigned int pct)
{
	u64 q = count;
	unsigned int rem = do_div(q, 10000);

	return q * pct + (rem * pct + 9999) / 10000;
}

/**
 * frec_hist_read() - sum a histogram's CPUs since its last reset
 * @h: the histogram.
 * @cpus: its per-CPU copies.
 * @s: the summary, filled in whole.
 *
 * Not serialized against frec_hist_add(): see the DOC block for what a
 * read may see while values are added.  @min, @max and the percentiles
 * are their buckets' midpoints (the DOC block).
 *
 * Context: any; it does not sleep, and reads 594 words per CPU.  The
 * caller serializes it against frec_hist_reset() of @h.
 */
void frec_hist_read(const struct frec_hist *h, const struct frec_hist_cpus *cpus,
		    struct frec_hist_summary *s)
{
	unsigned int i, lo = FREC_HIST_BUCKETS, hi = 0, p = 0;
	u64 seen = 0;

	frec_hist_sum_cpus(cpus, s);
	s->sum -= h->base.sum;
	for (i = 0; i < FREC_HIST_BUCKETS; i++) {
		s->bucket[i] -= h->base.bucket[i];
		s->count += s->bucket[i];
		if (s->bucket[i]) {
			lo = min(lo, i);
			hi = i;
		}
	}
	if (!s->count)
		return;

	s->min = frec_hist_mid(lo);
	s->max = frec_hist_mid(hi);
	s->mean = div64_u64(s->sum, s->count);
	for (i = 0; i < FREC_HIST_BUCKETS && p < FREC_HIST_NR_PCT; i++) {
		seen += s->bucket[i];
		while (p < FREC_HIST_NR_PCT && seen >= frec_hist_rank(s->count, frec_hist_pct[p]))
			s->pct[p++] = frec_hist_mid(i);
	}
}

/**
 * frec_hist_reset() - start counting a histogram afresh
 * @h: the histogram.
 * @cpus: its per-CPU copies.
 *
 * Writes no CPU's copy, so adds go on meanwhile; an add in flight may be
 * counted before or after the reset.
 *
 * Context: any; it does not sleep, and reads 594 words per CPU.  The
 * caller serializes it against frec_hist_read() and frec_hist_reset() of
 * @h.
 */
void frec_hist_reset(struct frec_hist *h, const struct frec_hist_cpus *cpus)
{
	frec_hist_sum_cpus(cpus, &h->base);
}

static void frec_hist_puts(const struct frec_text_sink *out, const char *s)
{
	out->write(out->ctx, s, strlen(s));
}

/**
 * frec_hist_write() - print a histogram summary as text
 * @s: the summary, from frec_hist_read().
 * @name: what the histogram counts (a site), printed as given.
 * @out: where the text goes.
 *
 * Prints "hist NAME", the statistics line and a line per bucket not
 * empty, in this order, every value in ns, as decimal integers::
 *
 *   hist NAME
 *     count=N sum=Sns min=Ans mean=Mns p50=Pns p90=Pns p99=Pns p99.9=Pns max=Bns
 *     [LOW, HIGH) N
 *
 * An empty histogram prints "count=0" and no buckets.  The last bucket
 * prints its high bound as "inf".
 *
 * Context: any the sink allows.
 */
void frec_hist_write(const struct frec_hist_summary *s, const char *name,
		     const struct frec_text_sink *out)
{
	char line[96];
	unsigned int i;

	frec_hist_puts(out, "hist ");
	frec_hist_puts(out, name);
	snprintf(line, sizeof(line), "\n  count=%llu", (unsigned long long)s->count);
	frec_hist_puts(out, line);
	if (!s->count) {
		frec_hist_puts(out, "\n");
		return;
	}
	snprintf(line, sizeof(line), " sum=%lluns min=%lluns mean=%lluns",
		 (unsigned long long)s->sum, (unsigned long long)s->min,
		 (unsigned long long)s->mean);
	frec_hist_puts(out, line);
	for (i = 0; i < FREC_HIST_NR_PCT; i++) {
		snprintf(line, sizeof(line), " %s=%lluns", frec_hist_pct_name[i],
			 (unsigned long long)s->pct[i]);
		frec_hist_puts(out, line);
	}
	snprintf(line, sizeof(line), " max=%lluns\n", (unsigned long long)s->max);
	frec_hist_puts(out, line);

	for (i = 0; i < FREC_HIST_BUCKETS; i++) {
		if (!s->bucket[i])
			continue;
		if (i == FREC_HIST_OVERFLOW)
			snprintf(line, sizeof(line), "  [%llu, inf) %llu\n",
				 (unsigned long long)frec_hist_low(i),
				 (unsigned long long)s->bucket[i]);
		else
			snprintf(line, sizeof(line), "  [%llu, %llu) %llu\n",
				 (unsigned long long)frec_hist_low(i),
				 (unsigned long long)frec_hist_high(i),
				 (unsigned long long)s->bucket[i]);
		frec_hist_puts(out, line);
	}
}
