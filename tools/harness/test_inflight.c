// SPDX-License-Identifier: GPL-2.0
/*
 * test_inflight.c - kmod/lib/frec_inflight.c on crafted records: which
 * spans it lists, certain or maybe, at the bounds its DOC block states,
 * and the exact text of its lines.
 *
 * A record is (ring, CPU, seq, timestamp, kind, end's name); records are
 * added in the order a dump lists them.  A begin's line is "L<ref>",
 * so that the list's own text is what is compared.
 */
#include <stdio.h>
#include <string.h>

#include "frec_inflight.h"
#include "harness_test.h"

#define B	FREC_SPAN_BEGIN
#define E	FREC_SPAN_END
#define N	FREC_SPAN_NONE

struct rec {
	u32 ring;
	u32 cpu;
	u64 seq;
	u64 ts;
	enum frec_span_kind kind;
	u64 end_id;	/* an end's begin's name */
	bool global;
};

static char text[4096];
static size_t text_len;

static void put(void *ctx, const char *s, size_t len)
{
	if (text_len + len < sizeof(text)) {
		memcpy(text + text_len, s, len);
		text_len += len;
		text[text_len] = '\0';
	}
}

static size_t line(void *ctx, u64 ref, char *buf, size_t size)
{
	return (size_t)snprintf(buf, size, "L%llu\n", (unsigned long long)ref);
}

/* The list of @recs, its text in @text. */
static void list(struct ht_case *c, const struct rec *recs, size_t n, struct frec_inflight *fi)
{
	const struct frec_text_sink sink = { put, NULL };
	char buf[256];
	size_t i;
	u64 k;

	memset(fi, 0, sizeof(*fi));
	for (i = 0; i < n; i++) {
		struct frec_inflight_rec r = {
			.ts = recs[i].ts, .seq = recs[i].seq, .ring = recs[i].ring,
			.cpu = recs[i].cpu, .global = recs[i].global, .kind = recs[i].kind,
			.end_id = recs[i].end_id, .ref = i,
		};

		HT_EXPECT_EQ(c, frec_inflight_add(fi, &r), 0);
	}
	HT_EXPECT_EQ(c, frec_inflight_done(fi), 0);
	text_len = 0;
	text[0] = '\0';
	for (k = 0; k < frec_inflight_lines(fi); k++)
		frec_inflight_line(fi, k, &sink, line, NULL, buf, sizeof(buf));
}

static void expect_text(struct ht_case *c, const char *want)
{
	HT_EXPECT(c, !strcmp(text, want), "got:\n%s\nwant:\n%s", text, want);
}

/* An end merged before its begin (stamped behind it) still pairs. */
static void inflight_pairs_whatever_the_order(struct ht_case *c)
{
	static const struct rec recs[] = {
		{ 1, 1, 1, 90, E, 1 << FREC_SPAN_ID_CPU_BITS | 0, false },
		{ 1, 0, 1, 100, B, 0, false },
		{ 1, 0, 2, 200, B, 0, false },
		{ 1, 1, 2, 250, N, 0, false },
	};
	struct frec_inflight fi;

	list(c, recs, 4, &fi);
	expect_text(c, "# in flight at the end [    0.000000250]: 1 of 2 spans begun never ended (1 certain, 0 maybe); 0 ends name a begin the dump lacks\n"
		    "# in flight span=0/2 certain age=50ns: L2\n");
	frec_inflight_free(&fi);
}

/*
 * CPU 0 lost its seqs 1-4 (its ring wrapped): what it lost is stamped at
 * or before its oldest, 100.  A span begun at 100 may have ended there;
 * one begun at 101 cannot.  Another ring's losses do not count.
 */
static void inflight_wrapped_cpu_bounds(struct ht_case *c)
{
	static const struct rec recs[] = {
		{ 1, 0, 5, 100, N, 0, false },
		{ 1, 1, 1, 100, B, 0, false },
		{ 1, 1, 2, 101, B, 0, false },
		{ 1, 0, 6, 150, N, 0, false },
		{ 2, 0, 9, 500, N, 0, false },
	};
	struct frec_inflight fi;

	list(c, recs, 5, &fi);
	expect_text(c, "# in flight at the end [    0.000000500]: 2 of 2 spans begun never ended (1 certain, 1 maybe); 0 ends name a begin the dump lacks\n"
		    "# in flight span=1/1 maybe age=400ns: L1\n"
		    "# in flight span=1/2 certain age=399ns: L2\n");
	HT_EXPECT_EQ(c, fi.nr_certain, 1);
	frec_inflight_free(&fi);
}

/* A gap in CPU 1's seqs: anything up to its newest (300) may be lost. */
static void inflight_gap_bounds_to_newest(struct ht_case *c)
{
	static const struct rec recs[] = {
		{ 1, 1, 1, 10, N, 0, false },
		{ 1, 1, 2, 20, N, 0, false },
		{ 1, 0, 1, 250, B, 0, false },
		{ 1, 1, 4, 300, N, 0, false },
		{ 1, 0, 2, 301, B, 0, false },
	};
	struct frec_inflight fi;

	list(c, recs, 5, &fi);
	expect_text(c, "# in flight at the end [    0.000000301]: 2 of 2 spans begun never ended (1 certain, 1 maybe); 0 ends name a begin the dump lacks\n"
		    "# in flight span=0/1 maybe age=51ns: L2\n"
		    "# in flight span=0/2 certain age=0ns: L4\n");
	frec_inflight_free(&fi);
}

/*
 * A global ring's seqs prove nothing: each CPU may have lost records
 * before its oldest, and a gap in one CPU's seqs is other CPUs' records
 * (read per CPU, CPU 0's gap 2-6 would make both spans maybe).
 */
static void inflight_global_ring(struct ht_case *c)
{
	static const struct rec recs[] = {
		{ 3, 0, 1, 10, N, 0, true },
		{ 3, 0, 2, 15, B, 0, true },
		{ 3, 1, 3, 20, N, 0, true },
		{ 3, 1, 4, 30, B, 0, true },
		{ 3, 0, 6, 40, N, 0, true },
	};
	struct frec_inflight fi;

	list(c, recs, 5, &fi);
	expect_text(c, "# in flight at the end [    0.000000040]: 2 of 2 spans begun never ended (1 certain, 1 maybe); 0 ends name a begin the dump lacks\n"
		    "# in flight span=0/2 maybe age=25ns: L1\n"
		    "# in flight span=1/4 certain age=10ns: L3\n");
	frec_inflight_free(&fi);
}

/*
 * Names are per ring: ring 2's end of (CPU 0, seq 1) ends ring 2's span,
 * not ring 1's.  An end whose begin is not there, and a second end of one
 * begin, name a begin the dump lacks.
 */
static void inflight_rings_apart_and_orphans(struct ht_case *c)
{
	static const struct rec recs[] = {
		{ 1, 0, 1, 10, B, 0, false },
		{ 2, 0, 1, 11, B, 0, false },
		{ 2, 0, 2, 12, E, 1 << FREC_SPAN_ID_CPU_BITS | 0, false },
		{ 2, 0, 3, 13, E, 1 << FREC_SPAN_ID_CPU_BITS | 0, false },
		{ 1, 0, 2, 14, E, 7ULL << FREC_SPAN_ID_CPU_BITS | 1, false },
	};
	struct frec_inflight fi;

	list(c, recs, 5, &fi);
	expect_text(c, "# in flight at the end [    0.000000014]: 1 of 2 spans begun never ended (1 certain, 0 maybe); 2 ends name a begin the dump lacks\n"
		    "# in flight span=0/1 certain age=4ns: L0\n");
	frec_inflight_free(&fi);
}

/* No span record: no list; all ended: the header alone. */
static void inflight_none_and_all_ended(struct ht_case *c)
{
	static const struct rec plain[] = {
		{ 1, 0, 1, 10, N, 0, false },
		{ 1, 1, 1, 20, N, 0, false },
	};
	static const struct rec ended[] = {
		{ 1, 0, 1, 1000000010ULL, B, 0, false },
		{ 1, 1, 1, 1000000020ULL, E, 1 << FREC_SPAN_ID_CPU_BITS | 0, false },
	};
	struct frec_inflight fi;

	list(c, plain, 2, &fi);
	HT_EXPECT_EQ(c, frec_inflight_lines(&fi), 0);
	expect_text(c, "");
	frec_inflight_free(&fi);
	list(c, ended, 2, &fi);
	expect_text(c, "# in flight at the end [    1.000000020]: 0 of 1 spans begun never ended (0 certain, 0 maybe); 0 ends name a begin the dump lacks\n");
	frec_inflight_free(&fi);
}

/* Many spans: the arrays and the sources' table grow; order kept. */
static void inflight_many(struct ht_case *c)
{
	static struct rec recs[30000];
	u64 seqs[97] = { 0 }, seq;
	struct frec_inflight fi;
	size_t i, n = 0;

	for (i = 0; i < 10000; i++) {
		/* span i begun on CPU i % 97, ended on the next CPU unless i % 3 */
		seq = ++seqs[i % 97];
		recs[n++] = (struct rec){ 1, i % 97, seq, 10 * i + 1, B, 0, false };
		if (i % 3)
			recs[n++] = (struct rec){ 1, (i + 1) % 97, ++seqs[(i + 1) % 97],
						  10 * i + 2, E, frec_span_id(seq, i % 97), false };
	}
	list(c, recs, n, &fi);
	HT_EXPECT_EQ(c, fi.nr_open, 3334);
	HT_EXPECT_EQ(c, fi.nr_certain, 3334);
	HT_EXPECT_EQ(c, fi.nr_orphans, 0);
	HT_EXPECT_EQ(c, frec_inflight_lines(&fi), 3335);
	HT_EXPECT(c, strstr(text, "# in flight span=0/1 certain age=99990ns: L0\n") == text +
		  strcspn(text, "\n") + 1, "first span listed: %.200s", text);
	frec_inflight_free(&fi);
}

static struct ht_case cases[] = {
	HT_CASE(inflight_pairs_whatever_the_order),
	HT_CASE(inflight_wrapped_cpu_bounds),
	HT_CASE(inflight_gap_bounds_to_newest),
	HT_CASE(inflight_global_ring),
	HT_CASE(inflight_rings_apart_and_orphans),
	HT_CASE(inflight_none_and_all_ended),
	HT_CASE(inflight_many),
};

int main(int argc, char **argv)
{
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
