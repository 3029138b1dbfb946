// SPDX-License-Identifier: GPL-2.0
/*
 * test_ring.c - the ring core (kmod/frec_rb.c) under real threads.
 *
 * Unit cases pin down single-threaded behaviour (empty ring, exact wrap,
 * largest record, bad sizes, stop-when-full, nesting at exact points via
 * the test hook).  The stress cases run N writer threads, each a simulated
 * CPU, interrupted by signal handlers that write too (the userspace analog
 * of an IRQ, and of an NMI nested in it), while reader threads validate
 * every record they see: a checksum of (writer, counter), counters that
 * only go forward per writer, seq increasing per CPU.  When the writers
 * stop, the counts must reconcile exactly:
 *   written == readable + overwritten + dropped
 *
 * FREC_STRESS_MS sets how long each stress case runs (default 300).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness_test.h"
#include "sim_cpu.h"
#include "frec_rb.h"
#include "frec_ring_testdata.h"

#define MAX_CPUS	16
#define ALL_ARGS(a)	((unsigned long[FREC_EVENT_MAX_ARGS]){ (a), (a) + 1, (a) + 2, (a) + 3 })

struct tring {
	struct frec_rb ring;
	struct frec_rb_cpu cpu[MAX_CPUS];
	int ncpu;
};

static int tring_setup(struct tring *t, int ncpu, unsigned long nr_slots,
		       unsigned int max_len, bool stop_when_full)
{
	int i, err;

	memset(t, 0, sizeof(*t));
	err = frec_rb_init(&t->ring, nr_slots, max_len, stop_when_full);
	if (err)
		return err;
	t->ncpu = ncpu;
	for (i = 0; i < ncpu; i++) {
		struct frec_slot *s = aligned_alloc(64, nr_slots * sizeof(*s));

		if (!s)
			abort();
		frec_rb_cpu_init(&t->cpu[i], s, &t->ring);
	}
	return 0;
}

static void tring_free(struct tring *t)
{
	int i;

	for (i = 0; i < t->ncpu; i++)
		free(t->cpu[i].slots);
}

static int event(struct tring *t, int cpu, unsigned long fmt,
		 unsigned long caller, const unsigned long *args)
{
	sim_set_cpu(cpu);
	return frec_rb_write_event(&t->ring, &t->cpu[cpu], fmt, caller, args, NULL);
}

struct cpu_counts {
	long written, overwritten, dropped, readable, raced;
};

/* Read all of one CPU's part (writers stopped) and count. */
static struct cpu_counts tring_counts(struct tring *t, int cpu)
{
	struct frec_rb_cpu *rc = &t->cpu[cpu];
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	struct cpu_counts c = { 0 };
	static unsigned char buf[1 << 16];
	int i;

	frec_rb_cursor_init(&t->ring, rc, &cur);
	while (frec_rb_cursor_next(&t->ring, rc, &cur, &ent, buf, sizeof(buf)))
		c.readable++;
	c.raced = cur.raced;
	c.written = local_read(&rc->written);
	c.overwritten = local_read(&rc->overwritten);
	for (i = 0; i < FREC_DROP_NR; i++)
		c.dropped += local_read(&rc->dropped[i]);
	return c;
}

static void expect_reconciled(struct ht_case *c, struct tring *t)
{
	int cpu;

	for (cpu = 0; cpu < t->ncpu; cpu++) {
		struct cpu_counts n = tring_counts(t, cpu);

		HT_EXPECT(c, n.written == n.readable + n.overwritten + n.dropped,
			  "cpu %d: written %ld != readable %ld + overwritten %ld + dropped %ld",
			  cpu, n.written, n.readable, n.overwritten, n.dropped);
		HT_EXPECT(c, n.raced == 0, "cpu %d: %ld raced with no writer",
			  cpu, n.raced);
	}
}

/* Read one CPU's part into arrays of seq and fmt; returns the count. */
static int read_all(struct tring *t, int cpu, u64 *seqs, unsigned long *fmts,
		    int max)
{
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	unsigned char buf[4096];
	int n = 0;

	frec_rb_cursor_init(&t->ring, &t->cpu[cpu], &cur);
	while (n < max && frec_rb_cursor_next(&t->ring, &t->cpu[cpu], &cur,
					      &ent, buf, sizeof(buf))) {
		if (seqs)
			seqs[n] = ent.seq;
		if (fmts)
			fmts[n] = ent.fmt;
		n++;
	}
	return n;
}

/* ---- unit cases --------------------------------------------------- */

static void empty_ring_reads_nothing(struct ht_case *c)
{
	struct tring t;

	HT_EXPECT_EQ(c, tring_setup(&t, 2, 8, 0, false), 0);
	HT_EXPECT_EQ(c, read_all(&t, 0, NULL, NULL, 100), 0);
	HT_EXPECT_EQ(c, read_all(&t, 1, NULL, NULL, 100), 0);
	expect_reconciled(c, &t);
	tring_free(&t);
}

static void one_event_reads_back_whole(struct ht_case *c)
{
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	struct tring t;
	u64 before = local_clock();
	int i;

	tring_setup(&t, 1, 8, 0, false);
	HT_EXPECT_EQ(c, event(&t, 0, 0x1000, 0x2000, ALL_ARGS(7)), 0);
	frec_rb_cursor_init(&t.ring, &t.cpu[0], &cur);
	HT_EXPECT(c, frec_rb_cursor_next(&t.ring, &t.cpu[0], &cur, &ent, NULL, 0),
		  "no record");
	HT_EXPECT_EQ(c, ent.fmt, 0x1000);
	HT_EXPECT_EQ(c, ent.caller, 0x2000);
	for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
		HT_EXPECT_EQ(c, ent.args[i], 7 + i);
	HT_EXPECT(c, ent.seq > 0, "seq 0");
	HT_EXPECT(c, ent.ts >= before && ent.ts <= local_clock(), "timestamp %llu",
		  (unsigned long long)ent.ts);
	HT_EXPECT_EQ(c, ent.len, 0);
	HT_EXPECT(c, !frec_rb_cursor_next(&t.ring, &t.cpu[0], &cur, &ent, NULL, 0),
		  "a second record");
	expect_reconciled(c, &t);
	tring_free(&t);
}

static void exact_wrap_overwrites_oldest(struct ht_case *c)
{
	unsigned long fmts[16];
	struct tring t;
	int i, n;

	tring_setup(&t, 1, 8, 0, false);
	for (i = 0; i < 8; i++)
		event(&t, 0, 100 + i, 0, ALL_ARGS(0));
	n = read_all(&t, 0, NULL, fmts, 16);
	HT_EXPECT_EQ(c, n, 8);
	HT_EXPECT_EQ(c, fmts[0], 100);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].overwritten), 0);
	event(&t, 0, 108, 0, ALL_ARGS(0));
	n = read_all(&t, 0, NULL, fmts, 16);
	HT_EXPECT_EQ(c, n, 8);
	HT_EXPECT_EQ(c, fmts[0], 101);
	HT_EXPECT_EQ(c, fmts[7], 108);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].overwritten), 1);
	expect_reconciled(c, &t);
	tring_free(&t);
}

static void reading_is_not_destructive(struct ht_case *c)
{
	u64 a[32], b[32];
	struct tring t;
	int i, na, nb;

	tring_setup(&t, 1, 16, 0, false);
	for (i = 0; i < 21; i++)
		event(&t, 0, i, 0, ALL_ARGS(i));
	na = read_all(&t, 0, a, NULL, 32);
	nb = read_all(&t, 0, b, NULL, 32);
	HT_EXPECT_EQ(c, na, 16);
	HT_EXPECT_EQ(c, nb, 16);
	HT_EXPECT(c, !memcmp(a, b, sizeof(u64) * 16), "second read differs");
	for (i = 1; i < na; i++)
		HT_EXPECT(c, a[i] > a[i - 1], "seq not increasing at %d", i);
	tring_free(&t);
}

static void reader_skips_what_writers_overwrite_meanwhile(struct ht_case *c)
{
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	struct tring t;
	u64 last = 0;
	int i, n = 0;

	tring_setup(&t, 1, 8, 0, false);
	for (i = 0; i < 10; i++)
		event(&t, 0, i, 0, ALL_ARGS(0));
	/* The read covers positions 2..9; then 3 newer events reuse the
	 * slots of 2, 3 and 4.
	 */
	frec_rb_cursor_init(&t.ring, &t.cpu[0], &cur);
	for (i = 10; i < 13; i++)
		event(&t, 0, i, 0, ALL_ARGS(0));
	while (frec_rb_cursor_next(&t.ring, &t.cpu[0], &cur, &ent, NULL, 0)) {
		HT_EXPECT_EQ(c, ent.fmt, 5 + n);
		HT_EXPECT(c, ent.seq > last, "seq order");
		last = ent.seq;
		n++;
	}
	HT_EXPECT_EQ(c, n, 5);
	HT_EXPECT_EQ(c, cur.raced, 3);
	tring_free(&t);
}

static void fill_pattern(unsigned char *p, unsigned int len, unsigned int salt)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(salt * 131 + i * 7 + (i >> 8));
}

static void record_of_max_size_reads_back(struct ht_case *c)
{
	unsigned char in[1000], out[1000];
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	struct tring t;
	unsigned int len;

	HT_EXPECT_EQ(c, tring_setup(&t, 1, 64, 1000, false), 0);
	for (len = 1; len <= 1000; len += 111) {
		fill_pattern(in, len, len);
		HT_EXPECT_EQ(c, frec_rb_write_record(&t.ring, &t.cpu[0], 5, 6, in, len, NULL), 0);
	}
	fill_pattern(in, 1000, 1000);
	HT_EXPECT_EQ(c, frec_rb_write_record(&t.ring, &t.cpu[0], 5, 6, in, 1000, NULL), 0);
	/* 1000 bytes take 1 + ceil(976 / 56) = 19 slots: only the newest 3 fit. */
	HT_EXPECT_EQ(c, frec_rb_record_slots(1000), 19);
	frec_rb_cursor_init(&t.ring, &t.cpu[0], &cur);
	len = 0;
	while (frec_rb_cursor_next(&t.ring, &t.cpu[0], &cur, &ent, out, sizeof(out)))
		len = ent.len;
	HT_EXPECT_EQ(c, len, 1000);
	HT_EXPECT(c, !memcmp(in, out, 1000), "payload differs");
	HT_EXPECT_EQ(c, ent.fmt, 5);
	HT_EXPECT_EQ(c, ent.caller, 6);
	expect_reconciled(c, &t);
	tring_free(&t);
}

static void records_wrap_around_the_slot_array(struct ht_case *c)
{
	unsigned char in[300], out[300];
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	struct tring t;
	unsigned int i, n = 0, bad = 0;

	tring_setup(&t, 1, 16, 300, false);
	/* 100-byte records take 3 slots: they straddle the end of 16 slots. */
	for (i = 0; i < 40; i++) {
		fill_pattern(in, 100, i);
		frec_rb_write_record(&t.ring, &t.cpu[0], i, 0, in, 100, NULL);
	}
	frec_rb_cursor_init(&t.ring, &t.cpu[0], &cur);
	while (frec_rb_cursor_next(&t.ring, &t.cpu[0], &cur, &ent, out, sizeof(out))) {
		fill_pattern(in, 100, ent.fmt);
		bad += ent.len != 100 || memcmp(in, out, 100);
		n++;
	}
	HT_EXPECT_EQ(c, bad, 0);
	/* The newest 5 whole records fit in 16 slots. */
	HT_EXPECT_EQ(c, n, 5);
	expect_reconciled(c, &t);
	tring_free(&t);
}

static void oversized_record_is_dropped_and_counted(struct ht_case *c)
{
	unsigned char in[301] = { 0 };
	struct tring t;

	tring_setup(&t, 1, 16, 300, false);
	HT_EXPECT_EQ(c, frec_rb_write_record(&t.ring, &t.cpu[0], 0, 0, in, 301, NULL), -E2BIG);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].dropped[FREC_DROP_SIZE]), 1);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].written), 1);
	HT_EXPECT_EQ(c, frec_rb_write_record(&t.ring, &t.cpu[0], 0, 0, in, 300, NULL), 0);
	expect_reconciled(c, &t);
	tring_free(&t);
}

static void bad_sizes_are_rejected(struct ht_case *c)
{
	struct frec_rb r;

	HT_EXPECT_EQ(c, frec_rb_init(&r, 0, 0, false), -EINVAL);
	HT_EXPECT_EQ(c, frec_rb_init(&r, 1, 0, false), -EINVAL);
	HT_EXPECT_EQ(c, frec_rb_init(&r, 24, 0, false), -EINVAL);
	HT_EXPECT_EQ(c, frec_rb_init(&r, 1000, 0, false), -EINVAL);
	/* A record larger than the ring: 1000 bytes need 19 slots. */
	HT_EXPECT_EQ(c, frec_rb_init(&r, 16, 1000, false), -EINVAL);
	HT_EXPECT_EQ(c, frec_rb_init(&r, 32, 1000, false), 0);
	HT_EXPECT_EQ(c, frec_rb_init(&r, 2, 0, false), 0);
}

static void kinds_are_not_mixed(struct ht_case *c)
{
	struct tring ev, rec;

	tring_setup(&ev, 1, 8, 0, false);
	tring_setup(&rec, 1, 8, 100, false);
	HT_EXPECT_EQ(c, frec_rb_write_record(&ev.ring, &ev.cpu[0], 0, 0, "x", 1, NULL), -EINVAL);
	HT_EXPECT_EQ(c, frec_rb_write_event(&rec.ring, &rec.cpu[0], 0, 0, ALL_ARGS(0), NULL),
		     -EINVAL);
	tring_free(&ev);
	tring_free(&rec);
}

/*
 * Where cmpxchg is not NMI-safe (the kernel's ARCH_HAVE_NMI_SAFE_CMPXCHG
 * unset), a write from NMI context is refused before it touches the head,
 * and counted; elsewhere, and outside NMI, writes go on as usual.
 */
static void nmi_writes_are_refused_where_cmpxchg_is_not_nmi_safe(struct ht_case *c)
{
	struct tring t;

	tring_setup(&t, 1, 8, 100, false);
	frec_user_nmi_unsafe = true;
	frec_user_in_nmi = true;
	HT_EXPECT_EQ(c, frec_rb_write_record(&t.ring, &t.cpu[0], 0, 0, "nmi", 3, NULL),
		     -ENOSPC);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].dropped[FREC_DROP_NMI]), 1);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].written), 1);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].nest), 0);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].head), 0);
	frec_user_in_nmi = false;
	HT_EXPECT_EQ(c, frec_rb_write_record(&t.ring, &t.cpu[0], 0, 0, "task", 4, NULL), 0);
	frec_user_nmi_unsafe = false;
	frec_user_in_nmi = true;
	HT_EXPECT_EQ(c, frec_rb_write_record(&t.ring, &t.cpu[0], 0, 0, "nmi", 3, NULL), 0);
	frec_user_in_nmi = false;
	HT_EXPECT_EQ(c, read_all(&t, 0, NULL, NULL, 8), 2);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].written), 3);
	tring_free(&t);
}

static void stop_when_full_keeps_the_first(struct ht_case *c)
{
	unsigned long fmts[16];
	struct tring t;
	int i;

	tring_setup(&t, 1, 8, 0, true);
	for (i = 0; i < 12; i++)
		HT_EXPECT_EQ(c, event(&t, 0, i, 0, ALL_ARGS(0)), i < 8 ? 0 : -ENOSPC);
	HT_EXPECT_EQ(c, read_all(&t, 0, NULL, fmts, 16), 8);
	HT_EXPECT_EQ(c, fmts[0], 0);
	HT_EXPECT_EQ(c, fmts[7], 7);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].dropped[FREC_DROP_FULL]), 4);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].overwritten), 0);
	expect_reconciled(c, &t);
	tring_free(&t);
}

/* ---- nesting at exact points (the test hook) ------------------------- */

static struct tring *hook_ring;
static enum frec_rb_hook hook_at;
static int hook_nested_writes;
static _Thread_local int hook_depth;

static void nest_hook(enum frec_rb_hook where)
{
	int i;

	if (where != hook_at || hook_depth)
		return;
	hook_depth++;
	for (i = 0; i < hook_nested_writes; i++)
		frec_rb_write_event(&hook_ring->ring, &hook_ring->cpu[0],
				    1000 + i, 0, ALL_ARGS(1000 + i), NULL);
	hook_depth--;
}

static void run_nested(struct ht_case *c, enum frec_rb_hook at,
		       unsigned long nr_slots, int nested, int prefill,
		       int want_readable, int want_lap)
{
	unsigned long fmts[64];
	u64 seqs[64];
	struct tring t;
	int i, n;

	tring_setup(&t, 1, nr_slots, 0, false);
	for (i = 0; i < prefill; i++)
		event(&t, 0, 500 + i, 0, ALL_ARGS(0));
	hook_ring = &t;
	hook_at = at;
	hook_nested_writes = nested;
	frec_rb_test_hook = nest_hook;
	HT_EXPECT_EQ(c, event(&t, 0, 1, 0, ALL_ARGS(1)), 0);
	frec_rb_test_hook = NULL;

	n = read_all(&t, 0, seqs, fmts, 64);
	HT_EXPECT_EQ(c, n, want_readable);
	for (i = 0; i < n; i++)
		if (fmts[i] == 1)
			break;
	HT_EXPECT(c, i < n, "the interrupted writer's record is gone");
	for (i = 1; i < n; i++)
		HT_EXPECT(c, seqs[i] > seqs[i - 1], "seq order broken at %d", i);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].dropped[FREC_DROP_LAP]), want_lap);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].nest), 0);
	expect_reconciled(c, &t);
	tring_free(&t);
}

static void nested_writer_after_fill_keeps_both(struct ht_case *c)
{
	/* 3 nested events inside the outer one, all kept. */
	run_nested(c, FREC_RB_HOOK_FILLED, 16, 3, 0, 4, 0);
}

static void nested_writer_after_reserve_on_wrapped_ring(struct ht_case *c)
{
	/* Ring already full: the outer slot holds an old record when the
	 * nested writers run; all 16 newest are kept.
	 */
	run_nested(c, FREC_RB_HOOK_RESERVED, 16, 5, 20, 16, 0);
}

static void nested_writer_never_laps_the_interrupted_one(struct ht_case *c)
{
	/* 4 slots: 3 nested fit beside the pending outer one, 7 are dropped. */
	run_nested(c, FREC_RB_HOOK_FILLED, 4, 10, 6, 4, 7);
	run_nested(c, FREC_RB_HOOK_RESERVED, 4, 10, 6, 4, 7);
}

static void recurse_hook(enum frec_rb_hook where)
{
	if (where != FREC_RB_HOOK_FILLED || hook_depth > 2 * FREC_RB_MAX_NEST)
		return;
	hook_depth++;
	frec_rb_write_event(&hook_ring->ring, &hook_ring->cpu[0], 2000 + hook_depth,
			    0, ALL_ARGS(0), NULL);
	hook_depth--;
}

static void nesting_deeper_than_the_limit_is_dropped_and_counted(struct ht_case *c)
{
	struct tring t;

	/* Each write nests another from inside itself, like IRQ in IRQ;
	 * the one past FREC_RB_MAX_NEST is dropped, which ends the chain.
	 */
	tring_setup(&t, 1, 32, 0, false);
	hook_ring = &t;
	frec_rb_test_hook = recurse_hook;
	HT_EXPECT_EQ(c, event(&t, 0, 1, 0, ALL_ARGS(0)), 0);
	frec_rb_test_hook = NULL;
	HT_EXPECT_EQ(c, read_all(&t, 0, NULL, NULL, 64), FREC_RB_MAX_NEST);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].dropped[FREC_DROP_NEST]), 1);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].nest), 0);
	expect_reconciled(c, &t);
	tring_free(&t);
}

/* A writer that dies inside its write, as an oops kills its task. */
static jmp_buf die_jmp;
static enum frec_rb_hook die_at;

static void die_hook(enum frec_rb_hook where)
{
	if (where == die_at)
		longjmp(die_jmp, 1);
}

static void run_died_mid_write(struct ht_case *c, enum frec_rb_hook at)
{
	struct cpu_counts n;
	struct tring t;
	u64 seqs[64];
	int i, got;

	tring_setup(&t, 1, 16, 0, false);
	for (i = 0; i < 20; i++)
		event(&t, 0, 500 + i, 0, ALL_ARGS(0));
	die_at = at;
	frec_rb_test_hook = die_hook;
	if (!setjmp(die_jmp))
		event(&t, 0, 1, 0, ALL_ARGS(1));
	frec_rb_test_hook = NULL;
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].nest), 1);
	/*
	 * The dying record is never read, nor the old one in the slot it
	 * reserved (reused by a newer position); the rest come in order.
	 */
	got = read_all(&t, 0, seqs, NULL, 64);
	HT_EXPECT_EQ(c, got, 15);
	for (i = 1; i < got; i++)
		HT_EXPECT(c, seqs[i] > seqs[i - 1], "seq order broken at %d", i);
	HT_EXPECT_EQ(c, frec_rb_abandon_writes(&t.cpu[0]), 1);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].nest), 0);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].dropped[FREC_DROP_ABANDONED]), 1);
	/* Without the abandon, these would all be dropped as laps. */
	for (i = 0; i < 50; i++)
		HT_EXPECT_EQ(c, event(&t, 0, 700 + i, 0, ALL_ARGS(0)), 0);
	HT_EXPECT_EQ(c, local_read(&t.cpu[0].dropped[FREC_DROP_LAP]), 0);
	HT_EXPECT_EQ(c, read_all(&t, 0, NULL, NULL, 64), 16);
	n = tring_counts(&t, 0);
	HT_EXPECT(c, n.written == n.readable + n.overwritten + n.dropped,
		  "written %ld != readable %ld + overwritten %ld + dropped %ld",
		  n.written, n.readable, n.overwritten, n.dropped);
	tring_free(&t);
}

static void writer_dying_mid_write_is_skipped_then_abandoned(struct ht_case *c)
{
	run_died_mid_write(c, FREC_RB_HOOK_FILLED);
	run_died_mid_write(c, FREC_RB_HOOK_RESERVED);
}

/* ---- stress: writer threads, signal-handler nesting, readers --------- */

struct stress {
	struct tring t;
	unsigned int max_len;	/* 0: event ring */
	int burst;		/* writes per signal */
	int stop_writers;
	int stop_readers;
	long bad;		/* records failing validation */
	long reads;		/* records validated */
	long signals;
};

static struct stress *st;
static _Thread_local unsigned long level_counter[FREC_TEST_LEVELS];

static void stress_write(enum frec_test_level level)
{
	int cpu = raw_smp_processor_id();
	unsigned long w = frec_test_writer(cpu, level), n = ++level_counter[level];

	if (st->max_len) {
		u8 p[256];
		unsigned int len = frec_test_payload(p, st->max_len, w, n);

		frec_rb_write_record(&st->t.ring, &st->t.cpu[cpu], w, n, p, len, NULL);
	} else {
		unsigned long args[FREC_EVENT_MAX_ARGS];

		frec_test_args(args, cpu, w, n);
		frec_rb_write_event(&st->t.ring, &st->t.cpu[cpu], w, n, args, NULL);
	}
}

static void stress_signal(int sig)
{
	int i;

	for (i = 0; i < st->burst; i++)
		stress_write(sig == SIGUSR1 ? FREC_TEST_IRQ : FREC_TEST_NMI);
}

static sigset_t stress_sigs;

static void *stress_writer(void *arg)
{
	/* Interrupts on: only once this thread is "on" its CPU. */
	sim_set_cpu((int)(long)arg);
	pthread_sigmask(SIG_UNBLOCK, &stress_sigs, NULL);
	while (!__atomic_load_n(&st->stop_writers, __ATOMIC_RELAXED))
		stress_write(FREC_TEST_TASK);
	return NULL;
}

static void *stress_reader(void *arg)
{
	unsigned long last[MAX_CPUS * FREC_TEST_LEVELS];
	struct frec_rb_cursor cur;
	struct frec_rb_entry e;
	unsigned char buf[256];
	int cpu;

	(void)arg;
	while (!__atomic_load_n(&st->stop_readers, __ATOMIC_RELAXED)) {
		memset(last, 0, sizeof(last));
		for (cpu = 0; cpu < st->t.ncpu; cpu++) {
			u64 last_seq = 0;

			frec_rb_cursor_init(&st->t.ring, &st->t.cpu[cpu], &cur);
			while (frec_rb_cursor_next(&st->t.ring, &st->t.cpu[cpu],
						   &cur, &e, buf, sizeof(buf))) {
				bool valid = frec_test_valid(&e, cpu, st->max_len);
				bool ordered = e.seq > last_seq;
				/* Per writer, counters only go forward. */
				bool forward = valid && e.caller > last[e.fmt];

				if ((!valid || !ordered || !forward) &&
				    __atomic_fetch_add(&st->bad, 1, __ATOMIC_RELAXED) < 5)
					printf("# bad record: cpu %d pos %lu seq %llu (last %llu) writer %lu counter %lu (last %lu): %s\n",
					       cpu, cur.pos, (unsigned long long)e.seq,
					       (unsigned long long)last_seq, e.fmt, e.caller,
					       valid ? last[e.fmt] : 0,
					       !valid ? "checksum" : !ordered ? "seq order" :
					       "counter went back");
				if (valid)
					last[e.fmt] = e.caller;
				last_seq = e.seq;
				__atomic_fetch_add(&st->reads, 1, __ATOMIC_RELAXED);
			}
		}
	}
	return NULL;
}

static int stress_ms(void)
{
	const char *s = getenv("FREC_STRESS_MS");

	return s ? atoi(s) : 300;
}

static void run_stress(struct ht_case *c, int writers, bool records,
		       unsigned long nr_slots, int burst)
{
	pthread_t wt[MAX_CPUS], rt[2];
	struct sigaction sa;
	long deadline, i, lap = 0, written = 0;
	struct stress s;
	int cpu;

	memset(&s, 0, sizeof(s));
	s.max_len = records ? 200 : 0;
	tring_setup(&s.t, writers, nr_slots, s.max_len, false);
	s.burst = burst;
	st = &s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stress_signal;
	sigemptyset(&sa.sa_mask);
	/* The "IRQ" handler can be interrupted by the "NMI" one, not itself. */
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	/* Threads start with both blocked; writers unblock them. */
	sigemptyset(&stress_sigs);
	sigaddset(&stress_sigs, SIGUSR1);
	sigaddset(&stress_sigs, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &stress_sigs, NULL);

	for (cpu = 0; cpu < writers; cpu++)
		pthread_create(&wt[cpu], NULL, stress_writer, (void *)(long)cpu);
	for (i = 0; i < 2; i++)
		pthread_create(&rt[i], NULL, stress_reader, NULL);

	/* This thread is the interrupt controller. */
	deadline = (long)(local_clock() / 1000000) + stress_ms();
	for (i = 0; (long)(local_clock() / 1000000) < deadline; i++) {
		pthread_kill(wt[i % writers], (i & 3) == 3 ? SIGUSR2 : SIGUSR1);
		s.signals++;
		usleep(50);
	}
	__atomic_store_n(&s.stop_writers, 1, __ATOMIC_RELAXED);
	for (cpu = 0; cpu < writers; cpu++)
		pthread_join(wt[cpu], NULL);
	__atomic_store_n(&s.stop_readers, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		pthread_join(rt[i], NULL);

	for (cpu = 0; cpu < writers; cpu++) {
		lap += local_read(&s.t.cpu[cpu].dropped[FREC_DROP_LAP]);
		written += local_read(&s.t.cpu[cpu].written);
	}
	printf("# %d writers, %s, %lu slots/cpu, burst %d: %ld signals, %ld written, %ld lap drops, %ld records validated, %ld bad\n",
	       writers, records ? "records" : "events", nr_slots, burst,
	       s.signals, written, lap, s.reads, s.bad);
	HT_EXPECT_EQ(c, s.bad, 0);
	HT_EXPECT(c, s.reads > 0, "readers validated nothing");
	for (cpu = 0; cpu < writers; cpu++)
		HT_EXPECT_EQ(c, local_read(&s.t.cpu[cpu].nest), 0);
	expect_reconciled(c, &s.t);
	tring_free(&s.t);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	pthread_sigmask(SIG_UNBLOCK, &stress_sigs, NULL);
}

static void stress_events_2_writers(struct ht_case *c)
{
	run_stress(c, 2, false, 256, 1);
}

static void stress_events_4_writers(struct ht_case *c)
{
	run_stress(c, 4, false, 256, 1);
}

static void stress_events_16_writers(struct ht_case *c)
{
	run_stress(c, 16, false, 256, 1);
}

static void stress_records_2_writers(struct ht_case *c)
{
	run_stress(c, 2, true, 512, 1);
}

static void stress_records_4_writers(struct ht_case *c)
{
	run_stress(c, 4, true, 512, 1);
}

static void stress_records_16_writers(struct ht_case *c)
{
	run_stress(c, 16, true, 512, 1);
}

static void stress_tiny_ring_nested_bursts(struct ht_case *c)
{
	/* Bursts of 12 per signal into 8 slots: nested writers hit the lap
	 * rule, and readers race with overwrites all the time.
	 */
	run_stress(c, 2, false, 8, 12);
	run_stress(c, 2, true, 16, 12);
}

static struct ht_case cases[] = {
	HT_CASE(empty_ring_reads_nothing),
	HT_CASE(one_event_reads_back_whole),
	HT_CASE(exact_wrap_overwrites_oldest),
	HT_CASE(reading_is_not_destructive),
	HT_CASE(reader_skips_what_writers_overwrite_meanwhile),
	HT_CASE(record_of_max_size_reads_back),
	HT_CASE(records_wrap_around_the_slot_array),
	HT_CASE(oversized_record_is_dropped_and_counted),
	HT_CASE(bad_sizes_are_rejected),
	HT_CASE(kinds_are_not_mixed),
	HT_CASE(nmi_writes_are_refused_where_cmpxchg_is_not_nmi_safe),
	HT_CASE(stop_when_full_keeps_the_first),
	HT_CASE(nested_writer_after_fill_keeps_both),
	HT_CASE(nested_writer_after_reserve_on_wrapped_ring),
	HT_CASE(nested_writer_never_laps_the_interrupted_one),
	HT_CASE(nesting_deeper_than_the_limit_is_dropped_and_counted),
	HT_CASE(writer_dying_mid_write_is_skipped_then_abandoned),
	HT_CASE(stress_events_2_writers),
	HT_CASE(stress_events_4_writers),
	HT_CASE(stress_events_16_writers),
	HT_CASE(stress_records_2_writers),
	HT_CASE(stress_records_4_writers),
	HT_CASE(stress_records_16_writers),
	HT_CASE(stress_tiny_ring_nested_bursts),
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
