/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_hist_cases.h - the latency histogram (kmod/lib/frec_hist.c) case
 * by case: values and the bucket each falls in, worked out by hand from
 * the layout; the bucket boundaries around every power of two; and sets
 * of values, some added before a reset, with the text frec_hist_write()
 * must print for them.  One table for both compilations of frec_hist.c:
 * the userspace one by the harness (tools/harness/test_hist.c), the
 * kernel's by a KUnit suite.  Test data both sides include; frec.ko never
 * does.
 */
#ifndef _FREC_HIST_CASES_H
#define _FREC_HIST_CASES_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <stdio.h>
#include <string.h>
#endif

#include "frec_hist.h"

/**
 * struct frec_hist_bucket_case - a value and its bucket
 * @ns: the value.
 * @index: its bucket.
 * @low: the bucket's low bound.
 * @high: its high bound (U64_MAX: none).
 */
struct frec_hist_bucket_case {
	u64 ns;
	unsigned int index;
	u64 low;
	u64 high;
};

static const struct frec_hist_bucket_case frec_hist_bucket_cases[] = {
	{ 0, 0, 0, 1 },
	{ 1, 1, 1, 2 },
	{ 15, 15, 15, 16 },
	{ 16, 16, 16, 17 },
	{ 31, 31, 31, 32 },
	{ 32, 32, 32, 34 },
	{ 33, 32, 32, 34 },
	{ 34, 33, 34, 36 },
	{ 63, 47, 62, 64 },
	{ 64, 48, 64, 68 },
	{ 100, 57, 100, 104 },
	{ 1000, 111, 992, 1024 },
	{ 1023, 111, 992, 1024 },
	{ 1024, 112, 1024, 1088 },
	{ 1000000, 270, 983040, 1015808 },
	{ 0xffffffffffULL, 591, 0xf800000000ULL, 0x10000000000ULL },
	{ 0x10000000000ULL, 592, 0x10000000000ULL, U64_MAX },
	{ U64_MAX, 592, 0x10000000000ULL, U64_MAX },
};

/* One bucket case; false and @why filled in if it fails. */
static inline bool frec_hist_bucket_case_run(const struct frec_hist_bucket_case *c,
					     char *why, size_t n)
{
	unsigned int i = frec_hist_index(c->ns);

	if (i == c->index && frec_hist_low(i) == c->low && frec_hist_high(i) == c->high)
		return true;
	snprintf(why, n, "%llu: bucket %u [%llu, %llu), expected %u [%llu, %llu)",
		 (unsigned long long)c->ns, i, (unsigned long long)frec_hist_low(i),
		 (unsigned long long)frec_hist_high(i), c->index,
		 (unsigned long long)c->low, (unsigned long long)c->high);
	return false;
}

/* Does bucket @i hold @v? */
static inline bool frec_hist_case_holds(unsigned int i, u64 v)
{
	return frec_hist_low(i) <= v &&
	       (i == FREC_HIST_OVERFLOW || v < frec_hist_high(i));
}

/*
 * The layout's promises: buckets follow each other with no gap; below 32
 * each is one value wide, above at most 1/16 of its low bound; every power
 * of two and its neighbours fall in a bucket that holds them, the index
 * never decreasing.  False and @why filled in at the first that fails.
 */
static inline bool frec_hist_layout_check(char *why, size_t n)
{
	unsigned int i, k, prev = 0;
	u64 v, w, prev_v = 0;
	int d;

	for (i = 0; i < FREC_HIST_OVERFLOW; i++) {
		w = frec_hist_high(i) - frec_hist_low(i);
		if (frec_hist_high(i) != frec_hist_low(i + 1) ||
		    (i < 2 * FREC_HIST_SUB ? w != 1 : w * 16 > frec_hist_low(i))) {
			snprintf(why, n, "bucket %u [%llu, %llu), next from %llu", i,
				 (unsigned long long)frec_hist_low(i),
				 (unsigned long long)frec_hist_high(i),
				 (unsigned long long)frec_hist_low(i + 1));
			return false;
		}
	}
	if (frec_hist_low(FREC_HIST_OVERFLOW) != FREC_HIST_TOP) {
		snprintf(why, n, "last bucket from %llu",
			 (unsigned long long)frec_hist_low(FREC_HIST_OVERFLOW));
		return false;
	}
	for (k = 0; k < 64; k++) {
		for (d = -1; d <= 1; d++) {
			v = (1ULL << k) + d;
			if (!k && d < 0)
				v = 0;
			i = frec_hist_index(v);
			if (!frec_hist_case_holds(i, v) || (v >= prev_v && i < prev)) {
				snprintf(why, n, "2^%u%+d: bucket %u [%llu, %llu), previous %u",
					 k, d, i, (unsigned long long)frec_hist_low(i),
					 (unsigned long long)frec_hist_high(i), prev);
				return false;
			}
			prev = i;
			prev_v = v;
		}
	}
	if (frec_hist_index(U64_MAX) != FREC_HIST_OVERFLOW) {
		snprintf(why, n, "U64_MAX: bucket %u", frec_hist_index(U64_MAX));
		return false;
	}
	return true;
}

#define FREC_HIST_CASE_MAX_VALUES	8

/**
 * struct frec_hist_text_case - values, and the text they print
 * @name: the name printed.
 * @values: the values; the first @before are added before a reset.
 * @nr: how many.
 * @before: see @values.
 * @text: what frec_hist_write() prints after.
 */
struct frec_hist_text_case {
	const char *name;
	u64 values[FREC_HIST_CASE_MAX_VALUES];
	unsigned int nr;
	unsigned int before;
	const char *text;
};

static const struct frec_hist_text_case frec_hist_text_cases[] = {
	{ "1 empty.c:1 nothing", { 0 }, 0, 0,
	  "hist 1 empty.c:1 nothing\n  count=0\n" },
	{ "2 reset.c:9 all_gone", { 7, 1000 }, 2, 2,
	  "hist 2 reset.c:9 all_gone\n  count=0\n" },
	/*
	 * Only the values after the reset count; min, max and the
	 * percentiles are their buckets' midpoints.
	 */
	{ "3 drivers/foo.c:120 foo_irq", { 123456789, 5, 100, 1000, 1000 }, 5, 2,
	  "hist 3 drivers/foo.c:120 foo_irq\n"
	  "  count=3 sum=2100ns min=102ns mean=700ns p50=1008ns p90=1008ns p99=1008ns p99.9=1008ns max=1008ns\n"
	  "  [100, 104) 1\n"
	  "  [992, 1024) 2\n" },
	/*
	 * A value past the last bound: counted in the sum and the last
	 * bucket; max and p90 and up, in that bucket, print its low bound.
	 */
	{ "4 t.c:1 f", { 1000, 33, 0, 2199023255552ULL, 7, 33 }, 6, 0,
	  "hist 4 t.c:1 f\n"
	  "  count=6 sum=2199023256625ns min=0ns mean=366503876104ns p50=33ns p90=1099511627776ns p99=1099511627776ns p99.9=1099511627776ns max=1099511627776ns\n"
	  "  [0, 1) 1\n"
	  "  [7, 8) 1\n"
	  "  [32, 34) 2\n"
	  "  [992, 1024) 1\n"
	  "  [1099511627776, inf) 1\n" },
	{ NULL }
};

/**
 * struct frec_hist_case_scratch - what running a text case needs
 * @h: the histogram.
 * @cpu: its one CPU's copy.
 * @s: its summary.
 * @text: the text printed.
 * @len: its length.
 */
struct frec_hist_case_scratch {
	struct frec_hist h;
	struct frec_hist_cpu cpu;
	struct frec_hist_summary s;
	char text[1024];
	size_t len;
};

static inline struct frec_hist_cpu *frec_hist_case_cpu(void *ctx, unsigned int cpu)
{
	return &((struct frec_hist_case_scratch *)ctx)->cpu;
}

static inline void frec_hist_case_write(void *ctx, const char *s, size_t len)
{
	struct frec_hist_case_scratch *x = ctx;

	len = min(len, sizeof(x->text) - 1 - x->len);
	memcpy(x->text + x->len, s, len);
	x->len += len;
	x->text[x->len] = '\0';
}

/* One text case, in @x (any content); false and @why filled in if it fails. */
static inline bool frec_hist_text_case_run(const struct frec_hist_text_case *c,
					   struct frec_hist_case_scratch *x,
					   char *why, size_t n)
{
	const struct frec_hist_cpus cpus = { frec_hist_case_cpu, x, 1 };
	const struct frec_text_sink out = { frec_hist_case_write, x };
	unsigned int i;
	size_t at = 0;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < c->nr; i++) {
		if (i == c->before)
			frec_hist_reset(&x->h, &cpus);
		frec_hist_add(&x->cpu, c->values[i]);
	}
	if (c->before == c->nr)
		frec_hist_reset(&x->h, &cpus);
	frec_hist_read(&x->h, &cpus, &x->s);
	frec_hist_write(&x->s, c->name, &out);
	if (!strcmp(x->text, c->text))
		return true;
	while (x->text[at] && x->text[at] == c->text[at])
		at++;
	snprintf(why, n, "differs at byte %zu: printed \"%.60s\", expected \"%.60s\"",
		 at, x->text + at, c->text + at);
	return false;
}

#endif /* _FREC_HIST_CASES_H */
