// SPDX-License-Identifier: GPL-2.0
/*
 * write_hist.c - -F hist: a latency histogram per span-end site, printed
 * as the module's debugfs frec/hist prints its own.
 *
 * Every span end printed (frec_span_end(): a fixed-size event whose
 * format starts with FREC_SPAN_END_FMT) adds its duration,
 * frec_span_dur_ns() of its duration word (0 ns for an end behind its
 * begin's clock), to the histogram of its site id, with the module's
 * own code (kmod/lib/frec_hist.c: one struct frec_hist_cpu per site is
 * enough here).  As the module does, an end whose site has no id (its
 * records hold their format's address: the sites table was full) is in
 * no histogram, only counted; and every span-end site of the sites file
 * has a histogram, count=0 if it never ended.  At the end, the output is
 *
 *   FREC_HIST_HEADER
 *   # from INPUT: N span ends in M sites (K skewed, counted as 0 ns),
 *     L not counted (no site id)                            (one line)
 *   frec_hist_write() of each site, in id order, named
 *     "ID FILE:LINE FUNCTION [MODULE]" as the module names it
 *
 * so that, when the rings held every span since frec/hist was last reset
 * and the module's pool had a histogram for every span end (its "# N of
 * M histograms in use" below M), the lines not starting with '#' are the
 * module's frec/hist byte for byte.  An event whose format is in neither
 * the sites nor the formats file cannot be told to be a span end: it is
 * left out and counted in a warning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"
#include "frec_hist.h"
#include "frec_span.h"

/* Bytes of a site's name; a longer one is cut. */
#define HIST_NAME_MAX	512

/**
 * struct frec_hist_site - the histogram of one site id
 * @key: the site id.
 * @site: the site, NULL if the sites file has none of that id.
 * @counts: the counts (one "CPU": all the records').
 */
struct frec_hist_site {
	u64 key;
	const struct frec_site *site;
	struct frec_hist_cpu *counts;
};

/**
 * struct frec_hist_table - -F hist's state
 * @slots: the sites, by site word (open addressing; @counts NULL: free).
 * @cap: its size, a power of two.
 * @nr: sites in it.
 * @ends: span ends counted.
 * @skewed: of them, those whose end was behind its begin's clock.
 * @noid: span ends of sites without an id, in no histogram.
 * @unknown: events left out, their format unknown.
 * @lost: span ends left out for want of memory.
 */
struct frec_hist_table {
	struct frec_hist_site *slots;
	size_t cap;
	size_t nr;
	unsigned long long ends;
	unsigned long long skewed;
	unsigned long long noid;
	unsigned long long unknown;
	unsigned long long lost;
};

/* Every site's histogram is read with no reset: no base. */
static const struct frec_hist hist_never_reset;

static size_t hist_slot(size_t cap, u64 key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

static struct frec_hist_site *hist_lookup(struct frec_hist_site *slots, size_t cap,
					  u64 key)
{
	size_t i = hist_slot(cap, key);

	while (slots[i].counts && slots[i].key != key)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* Double the table; false if out of memory. */
static bool hist_grow(struct frec_hist_table *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64, i;
	struct frec_hist_site *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return false;
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].counts)
			*hist_lookup(slots, cap, t->slots[i].key) = t->slots[i];
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return true;
}

/* The histogram of site id @key, made if new; NULL if out of memory. */
static struct frec_hist_site *hist_site(struct frec_hist_table *t, u64 key,
					const struct frec_site *site)
{
	struct frec_hist_site *s;

	if (t->cap) {
		s = hist_lookup(t->slots, t->cap, key);
		if (s->counts)
			return s;
	}
	if (2 * (t->nr + 1) > t->cap && !hist_grow(t))
		return NULL;
	s = hist_lookup(t->slots, t->cap, key);
	s->counts = calloc(1, sizeof(*s->counts));
	if (!s->counts)
		return NULL;
	s->key = key;
	s->site = site;
	t->nr++;
	return s;
}

/* A histogram, empty if new, for every span-end site of the sites file. */
static void hist_all_sites(struct frec_decoder *d, struct frec_hist_table *t)
{
	const struct frec_site *site;
	size_t i;

	for (i = 0; d->sites && i < d->sites->nr; i++) {
		site = &d->sites->sites[i];
		if (frec_span_kind(site->format) == FREC_SPAN_END &&
		    !hist_site(t, site->key.addr, site))
			frec_warn(d, "out of memory: site %llu has no histogram",
				  (unsigned long long)site->key.addr);
	}
}

static void hist_begin(struct frec_decoder *d)
{
	frec_hist_free(d);
	d->hist = calloc(1, sizeof(*d->hist));
}

static void hist_record(struct frec_decoder *d, const struct frec_decoded *r)
{
	struct frec_hist_table *t = d->hist;
	struct frec_hist_site *s;
	u64 word;

	if (!t || !r->event)
		return;
	if (!r->rec.fmt) {
		t->unknown++;
		return;
	}
	if (frec_span_kind(r->rec.fmt) != FREC_SPAN_END)
		return;
	word = r->rec.args[FREC_SPAN_END_DUR];
	/* The module has no histogram for a site without an id either. */
	if (r->site >= FREC_SITE_ID_LIMIT) {
		t->noid++;
		return;
	}
	s = hist_site(t, r->site, d->site);
	if (!s) {
		t->lost++;
		return;
	}
	frec_hist_add(s->counts, frec_span_dur_ns(word));
	t->ends++;
	t->skewed += !!(word & FREC_SPAN_DUR_SKEW);
}

static int hist_cmp(const void *a, const void *b)
{
	const struct frec_hist_site *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The name frec/hist gives a site. */
static void hist_name(char *buf, size_t size, const struct frec_hist_site *s)
{
	if (s->site)
		snprintf(buf, size, "%u %s:%u %s [%s]", (unsigned int)s->key,
			 s->site->file, s->site->line, s->site->function,
			 s->site->module);
	else
		snprintf(buf, size, "%u ? ? [?]", (unsigned int)s->key);
}

/* The one copy of a site's counts. */
static struct frec_hist_cpu *hist_get(void *ctx, unsigned int cpu)
{
	return ctx;
}

static void hist_put(void *ctx, const char *s, size_t len)
{
	fwrite(s, 1, len, ctx);
}

/* The input's name on one line: a control byte in it as '?'. */
static void hist_put_name(FILE *out, const char *name)
{
	for (; *name; name++)
		fputc((unsigned char)*name < 0x20 ? '?' : *name, out);
}

static void hist_end(struct frec_decoder *d)
{
	const struct frec_text_sink sink = { hist_put, d->out };
	struct frec_hist_table *t = d->hist;
	struct frec_hist_summary *sum;
	struct frec_hist_cpus cpus;
	char name[HIST_NAME_MAX];
	size_t i, n = 0;

	if (!t) {
		frec_warn(d, "out of memory: no histograms");
		return;
	}
	sum = malloc(sizeof(*sum));
	if (!sum) {
		frec_warn(d, "out of memory: no histograms");
		return;
	}
	hist_all_sites(d, t);
	/* Sorted in place: the table is not looked up again. */
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].counts)
			t->slots[n++] = t->slots[i];
	if (t->cap)
		memset(t->slots + n, 0, (t->cap - n) * sizeof(*t->slots));
	if (n)
		qsort(t->slots, n, sizeof(*t->slots), hist_cmp);
	fputs(FREC_HIST_HEADER, d->out);
	fputs("# from ", d->out);
	hist_put_name(d->out, d->in_name);
	fprintf(d->out, ": %llu span ends in %zu sites (%llu skewed, counted as 0 ns), "
		"%llu not counted (no site id)\n", t->ends, n, t->skewed, t->noid);
	for (i = 0; i < n; i++) {
		cpus = (struct frec_hist_cpus){ hist_get, t->slots[i].counts, 1 };
		frec_hist_read(&hist_never_reset, &cpus, sum);
		hist_name(name, sizeof(name), &t->slots[i]);
		frec_hist_write(sum, name, &sink);
	}
	free(sum);
	if (t->unknown)
		frec_warn(d, "%llu events of unknown format left out of the histograms",
			  t->unknown);
	if (t->lost)
		frec_warn(d, "out of memory: %llu span ends left out of the histograms",
			  t->lost);
}

/**
 * frec_hist_free() - free -F hist's state
 * @d: the decoder.
 *
 * Context: userspace.
 */
void frec_hist_free(struct frec_decoder *d)
{
	size_t i;

	if (!d->hist)
		return;
	for (i = 0; i < d->hist->cap; i++)
		free(d->hist->slots[i].counts);
	free(d->hist->slots);
	free(d->hist);
	d->hist = NULL;
}

const struct frec_writer frec_write_hist = {
	.begin = hist_begin,
	.record = hist_record,
	.end = hist_end,
};
