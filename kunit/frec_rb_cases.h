/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_rb_cases.h - the ring core's single-threaded cases, written once and
 * run both by the KUnit suite (kunit/frec_ring_test.c) and by the
 * userspace harness (tools/harness/test_ring.c).
 *
 * Each case writes to a ring of its own from one thread, with hooks
 * (FREC_RB_TEST_HOOKS) nesting writers at exact points inside a write, and
 * checks what the ring keeps, returns and counts.  What only one side can
 * do stays in that side's file: the KUnit torture cases (kthreads, timers,
 * hard IRQs and NMIs), the harness's threaded stress cases and its
 * simulated NMI on a kernel whose cmpxchg is not NMI-safe.
 *
 * A fragment, not a translation unit: it compiles only inside a file that
 * first supplies the little it needs of that file's test framework.  It is
 * a header so that neither Kbuild nor tools/Makefile builds it alone, and
 * both rebuild their tests when it changes (Kbuild's dependency files,
 * tools/Makefile's kunit/ header prerequisite).
 *
 * Before including it, define:
 *
 *   RBC_TEST			the test context type, as in RBC_TEST *test
 *   RBC_EXPECT(test, cond, fmt, ...)
 *				check @cond; if false, fail the case with the
 *				printf message and go on
 *   RBC_EXPECT_EQ(test, a, b)	check a == b (integers) likewise
 *   RBC_CASE_T			the case table's entry type
 *   RBC_CASE(fn)		a case table entry for case function @fn
 *
 * and define, before or after it, the functions declared under "From the
 * includer" below.  It defines the table of its cases, frec_rb_cases[].
 *
 * A case's ring is not tied to real CPUs: the case is its only writer, so
 * it writes part 0 from its one thread, bracketed as a writer on its own
 * CPU is (rbc_writer_enter, rbc_writer_exit).
 */
#ifndef _FREC_RB_CASES_H
#define _FREC_RB_CASES_H

#include "frec_caller_word.h"
#include "frec_rb.h"

/* A test ring: the ring and its parts, as frec.ko holds them per CPU. */
struct rbc_ring {
	struct frec_rb ring;
	struct frec_rb_cpu *cpu;
	int nr_cpus;
};

/* ---- From the includer ------------------------------------------------ */

/*
 * A ring with @nr_cpus parts of @nr_slots slots (frec_rb_init() and
 * frec_rb_cpu_init()), freed by rbc_ring_free() or when the case ends.
 * On failure it fails the case and returns NULL, or ends the case.
 */
static struct rbc_ring *rbc_ring_new(RBC_TEST *test, int nr_cpus,
				     unsigned long nr_slots,
				     unsigned int max_len, bool stop_when_full);
static void rbc_ring_free(RBC_TEST *test, struct rbc_ring *t);

/* Around every write: what a writer on its own CPU runs with. */
static void rbc_writer_enter(void);
static void rbc_writer_exit(void);

/*
 * Start an event write (format 1) on part 0 of @t, and have its writer
 * die at hook point @at, as an oops kills its task; returns once it has.
 */
static void rbc_write_and_die(RBC_TEST *test, struct rbc_ring *t,
			      enum frec_rb_hook at);

/* ---- Helpers ---------------------------------------------------------- */

/* Cases run one at a time, on one thread: scratch space for them. */
static u8 rbc_buf[4096];
static u8 rbc_in[1024];

/*
 * The context every write here stores: a task's largest pid, under a
 * hard interrupt, so that every bit of the word is seen to come back.
 */
#define RBC_CONTEXT	(FREC_CTX_PID_MASK | FREC_CTX_HARDIRQ << FREC_CTX_KIND_SHIFT)

/* Write an event with arguments @a, @a + 1, ... on part 0 of @t. */
static int rbc_event(struct rbc_ring *t, unsigned long fmt,
		     unsigned long caller, unsigned long a)
{
	unsigned long args[FREC_EVENT_MAX_ARGS];
	int i, ret;

	for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
		args[i] = a + i;
	rbc_writer_enter();
	ret = frec_rb_write_event(&t->ring, &t->cpu[0], fmt,
				  frec_caller_word(caller, FREC_CALLER_BASE, RBC_CONTEXT),
				  args, NULL);
	rbc_writer_exit();
	return ret;
}

/* Write a record of @len bytes from @p on part 0 of @t. */
static int rbc_record(struct rbc_ring *t, unsigned long fmt,
		      unsigned long caller, const void *p, unsigned int len)
{
	int ret;

	rbc_writer_enter();
	ret = frec_rb_write_record(&t->ring, &t->cpu[0], fmt,
				   frec_caller_word(caller, FREC_CALLER_BASE, RBC_CONTEXT),
				   p, len, NULL);
	rbc_writer_exit();
	return ret;
}

struct rbc_counts {
	long written, overwritten, dropped, readable, raced;
};

/* Read all of part @cpu (writers stopped) and count. */
static struct rbc_counts rbc_count(struct rbc_ring *t, int cpu)
{
	struct frec_rb_cpu *rc = &t->cpu[cpu];
	struct rbc_counts c = { 0 };
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	int i;

	frec_rb_cursor_init(&t->ring, rc, &cur);
	while (frec_rb_cursor_next(&t->ring, rc, &cur, &ent, rbc_buf, sizeof(rbc_buf)))
		c.readable++;
	c.raced = cur.raced;
	c.written = local_read(&rc->written);
	c.overwritten = local_read(&rc->overwritten);
	for (i = 0; i < FREC_DROP_NR; i++)
		c.dropped += local_read(&rc->dropped[i]);
	return c;
}

/* written == readable + overwritten + dropped, nothing raced, every part. */
static void rbc_expect_reconciled(RBC_TEST *test, struct rbc_ring *t)
{
	struct rbc_counts n;
	int cpu;

	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		n = rbc_count(t, cpu);
		RBC_EXPECT(test, n.written == n.readable + n.overwritten + n.dropped,
			   "cpu %d: written %ld != readable %ld + overwritten %ld + dropped %ld",
			   cpu, n.written, n.readable, n.overwritten, n.dropped);
		RBC_EXPECT(test, n.raced == 0, "cpu %d: %ld raced with no writer",
			   cpu, n.raced);
	}
}

/* Read part @cpu into arrays of seq and fmt (either may be NULL); returns
 * how many records it read, @max at most.
 */
static int rbc_read(struct rbc_ring *t, int cpu, u64 *seqs,
		    unsigned long *fmts, int max)
{
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	int n = 0;

	frec_rb_cursor_init(&t->ring, &t->cpu[cpu], &cur);
	while (n < max && frec_rb_cursor_next(&t->ring, &t->cpu[cpu], &cur,
					      &ent, rbc_buf, sizeof(rbc_buf))) {
		if (seqs)
			seqs[n] = ent.seq;
		if (fmts)
			fmts[n] = ent.site;
		n++;
	}
	return n;
}

/* Check that @n seqs only go up. */
static void rbc_expect_seq_order(RBC_TEST *test, const u64 *seqs, int n)
{
	int i;

	for (i = 1; i < n; i++)
		RBC_EXPECT(test, seqs[i] > seqs[i - 1], "seq order broken at %d", i);
}

static void rbc_fill_pattern(u8 *p, unsigned int len, unsigned int salt)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(salt * 131 + i * 7 + (i >> 8));
}

/* ---- Cases ------------------------------------------------------------ */

static void empty_ring_reads_nothing(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 2, 8, 0, false);

	if (!t)
		return;
	RBC_EXPECT_EQ(test, rbc_read(t, 0, NULL, NULL, 100), 0);
	RBC_EXPECT_EQ(test, rbc_read(t, 1, NULL, NULL, 100), 0);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

static void one_event_reads_back_whole(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 8, 0, false);
	u64 before = local_clock();
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	bool got;
	int i;

	if (!t)
		return;
	/* A caller as x86_64 has them: in the top 2 GiB. */
	RBC_EXPECT_EQ(test, rbc_event(t, 0x1000, 0xffffffffc0a01234UL, 7), 0);
	frec_rb_cursor_init(&t->ring, &t->cpu[0], &cur);
	got = frec_rb_cursor_next(&t->ring, &t->cpu[0], &cur, &ent, NULL, 0);
	RBC_EXPECT(test, got, "no record");
	if (got) {
		RBC_EXPECT_EQ(test, ent.site, 0x1000UL);
		RBC_EXPECT_EQ(test, ent.caller, 0xffffffffc0a01234ULL);
		RBC_EXPECT_EQ(test, ent.context, RBC_CONTEXT);
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			RBC_EXPECT_EQ(test, ent.args[i], 7UL + i);
		RBC_EXPECT(test, ent.seq > 0, "seq 0");
		RBC_EXPECT(test, ent.ts >= before && ent.ts <= local_clock(),
			   "timestamp %llu, before %llu", (unsigned long long)ent.ts,
			   (unsigned long long)before);
		RBC_EXPECT_EQ(test, ent.len, 0U);
		RBC_EXPECT(test, !frec_rb_cursor_next(&t->ring, &t->cpu[0], &cur,
						      &ent, NULL, 0),
			   "a second record");
	}
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

static void exact_wrap_overwrites_oldest(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 8, 0, false);
	unsigned long fmts[16];
	int i;

	if (!t)
		return;
	for (i = 0; i < 8; i++)
		rbc_event(t, 100 + i, 0, 0);
	RBC_EXPECT_EQ(test, rbc_read(t, 0, NULL, fmts, 16), 8);
	RBC_EXPECT_EQ(test, fmts[0], 100UL);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].overwritten), 0);
	rbc_event(t, 108, 0, 0);
	RBC_EXPECT_EQ(test, rbc_read(t, 0, NULL, fmts, 16), 8);
	RBC_EXPECT_EQ(test, fmts[0], 101UL);
	RBC_EXPECT_EQ(test, fmts[7], 108UL);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].overwritten), 1);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

static void reading_is_not_destructive(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 16, 0, false);
	u64 a[32], b[32];
	int i, na, nb;

	if (!t)
		return;
	for (i = 0; i < 21; i++)
		rbc_event(t, i, 0, i);
	na = rbc_read(t, 0, a, NULL, 32);
	nb = rbc_read(t, 0, b, NULL, 32);
	RBC_EXPECT_EQ(test, na, 16);
	RBC_EXPECT_EQ(test, nb, 16);
	RBC_EXPECT(test, na == nb && !memcmp(a, b, sizeof(u64) * na),
		   "second read differs");
	rbc_expect_seq_order(test, a, na);
	rbc_ring_free(test, t);
}

static void reader_skips_what_writers_overwrite_meanwhile(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 8, 0, false);
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	u64 last = 0;
	int i, n = 0;

	if (!t)
		return;
	for (i = 0; i < 10; i++)
		rbc_event(t, i, 0, 0);
	/* The read covers positions 2..9; then 3 newer events reuse the
	 * slots of 2, 3 and 4.
	 */
	frec_rb_cursor_init(&t->ring, &t->cpu[0], &cur);
	for (i = 10; i < 13; i++)
		rbc_event(t, i, 0, 0);
	while (frec_rb_cursor_next(&t->ring, &t->cpu[0], &cur, &ent, NULL, 0)) {
		RBC_EXPECT_EQ(test, ent.site, 5UL + n);
		RBC_EXPECT(test, ent.seq > last, "seq order at record %d", n);
		last = ent.seq;
		n++;
	}
	RBC_EXPECT_EQ(test, n, 5);
	RBC_EXPECT_EQ(test, cur.raced, 3UL);
	rbc_ring_free(test, t);
}

static void record_of_max_size_reads_back(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 64, 1000, false);
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent = { 0 };
	unsigned int len;

	if (!t)
		return;
	for (len = 1; len <= 1000; len += 111) {
		rbc_fill_pattern(rbc_in, len, len);
		RBC_EXPECT_EQ(test, rbc_record(t, 5, 6, rbc_in, len), 0);
	}
	rbc_fill_pattern(rbc_in, 1001, 1000);
	RBC_EXPECT_EQ(test, rbc_record(t, 5, 6, rbc_in, 1000), 0);
	/* One byte more than the maximum: dropped and counted. */
	RBC_EXPECT_EQ(test, rbc_record(t, 5, 6, rbc_in, 1001), -E2BIG);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].dropped[FREC_DROP_SIZE]), 1);
	/* 1000 bytes take 1 + ceil(976 / 56) = 19 slots: only the newest 3 fit. */
	RBC_EXPECT_EQ(test, frec_rb_record_slots(1000), 19U);
	frec_rb_cursor_init(&t->ring, &t->cpu[0], &cur);
	len = 0;
	while (frec_rb_cursor_next(&t->ring, &t->cpu[0], &cur, &ent, rbc_buf,
				   sizeof(rbc_buf)))
		len = ent.len;
	RBC_EXPECT_EQ(test, len, 1000U);
	RBC_EXPECT(test, !memcmp(rbc_in, rbc_buf, 1000), "payload differs");
	RBC_EXPECT_EQ(test, ent.site, 5UL);
	RBC_EXPECT_EQ(test, ent.caller, 6ULL);
	RBC_EXPECT_EQ(test, ent.context, RBC_CONTEXT);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

static void records_wrap_around_the_slot_array(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 16, 300, false);
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	unsigned int i, n = 0, bad = 0;

	if (!t)
		return;
	/* 100-byte records take 3 slots: they straddle the end of 16 slots. */
	for (i = 0; i < 40; i++) {
		rbc_fill_pattern(rbc_in, 100, i);
		rbc_record(t, i, 0, rbc_in, 100);
	}
	frec_rb_cursor_init(&t->ring, &t->cpu[0], &cur);
	while (frec_rb_cursor_next(&t->ring, &t->cpu[0], &cur, &ent, rbc_buf,
				   sizeof(rbc_buf))) {
		rbc_fill_pattern(rbc_in, 100, ent.site);
		bad += ent.len != 100 || memcmp(rbc_in, rbc_buf, 100);
		n++;
	}
	RBC_EXPECT_EQ(test, bad, 0U);
	/* The newest 5 whole records fit in 16 slots. */
	RBC_EXPECT_EQ(test, n, 5U);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

static void oversized_record_is_dropped_and_counted(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 16, 300, false);

	if (!t)
		return;
	memset(rbc_in, 0, 301);
	RBC_EXPECT_EQ(test, rbc_record(t, 0, 0, rbc_in, 301), -E2BIG);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].dropped[FREC_DROP_SIZE]), 1);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].written), 1);
	RBC_EXPECT_EQ(test, rbc_record(t, 0, 0, rbc_in, 300), 0);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

static void bad_sizes_are_rejected(RBC_TEST *test)
{
	struct frec_rb r;

	/* Slots: a power of two from 2 to 4096. */
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 0, 0, 0), -EINVAL);
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 1, 0, 0), -EINVAL);
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 24, 0, 0), -EINVAL);
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 100, 0, 0), -EINVAL);
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 1000, 0, 0), -EINVAL);
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 4097, 0, 0), -EINVAL);
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 2, 0, 0), 0);
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 4096, 0, 0), 0);
	/* A record larger than the ring: 1000 bytes need 19 slots. */
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 16, 1000, 0), -EINVAL);
	RBC_EXPECT_EQ(test, frec_rb_init(&r, 32, 1000, 0), 0);
}

static void kinds_are_not_mixed(RBC_TEST *test)
{
	struct rbc_ring *ev = rbc_ring_new(test, 1, 8, 0, false);
	struct rbc_ring *rec = rbc_ring_new(test, 1, 8, 100, false);

	if (ev && rec) {
		RBC_EXPECT_EQ(test, rbc_record(ev, 0, 0, "x", 1), -EINVAL);
		RBC_EXPECT_EQ(test, rbc_event(rec, 0, 0, 0), -EINVAL);
	}
	if (ev)
		rbc_ring_free(test, ev);
	if (rec)
		rbc_ring_free(test, rec);
}

static void stop_when_full_keeps_the_first(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 8, 0, true);
	unsigned long fmts[16];
	int i;

	if (!t)
		return;
	for (i = 0; i < 12; i++)
		RBC_EXPECT_EQ(test, rbc_event(t, i, 0, 0), i < 8 ? 0 : -ENOSPC);
	RBC_EXPECT_EQ(test, rbc_read(t, 0, NULL, fmts, 16), 8);
	RBC_EXPECT_EQ(test, fmts[0], 0UL);
	RBC_EXPECT_EQ(test, fmts[7], 7UL);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].dropped[FREC_DROP_FULL]), 4);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].overwritten), 0);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

/* ---- Nesting at exact points (the test hook) -------------------------- */

static struct rbc_ring *rbc_hook_ring;
static enum frec_rb_hook rbc_hook_at;
static int rbc_hook_nested, rbc_hook_depth;

/* At rbc_hook_at, write rbc_hook_nested events from inside the write. */
static void rbc_nest_hook(enum frec_rb_hook where)
{
	int i;

	if (where != rbc_hook_at || rbc_hook_depth)
		return;
	rbc_hook_depth++;
	for (i = 0; i < rbc_hook_nested; i++)
		rbc_event(rbc_hook_ring, 1000 + i, 0, 1000 + i);
	rbc_hook_depth--;
}

/* A writer interrupted at @at by @nested writers on a ring of @nr_slots
 * that @prefill events went to first.
 */
static void rbc_check_nested(RBC_TEST *test, enum frec_rb_hook at,
			     unsigned long nr_slots, int nested, int prefill,
			     int want_readable, int want_lap)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, nr_slots, 0, false);
	unsigned long fmts[64];
	u64 seqs[64];
	int i, n;

	if (!t)
		return;
	for (i = 0; i < prefill; i++)
		rbc_event(t, 500 + i, 0, 0);
	rbc_hook_ring = t;
	rbc_hook_at = at;
	rbc_hook_nested = nested;
	frec_rb_test_hook = rbc_nest_hook;
	RBC_EXPECT_EQ(test, rbc_event(t, 1, 0, 1), 0);
	frec_rb_test_hook = NULL;

	n = rbc_read(t, 0, seqs, fmts, 64);
	RBC_EXPECT_EQ(test, n, want_readable);
	for (i = 0; i < n; i++)
		if (fmts[i] == 1)
			break;
	RBC_EXPECT(test, i < n, "the interrupted writer's record is gone");
	rbc_expect_seq_order(test, seqs, n);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].dropped[FREC_DROP_LAP]), want_lap);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].nest), 0);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

static void nested_writer_after_fill_keeps_both(RBC_TEST *test)
{
	/* 3 nested events inside the outer one, all kept. */
	rbc_check_nested(test, FREC_RB_HOOK_FILLED, 16, 3, 0, 4, 0);
}

static void nested_writer_after_reserve_on_wrapped_ring(RBC_TEST *test)
{
	/* Ring already full: the outer slot holds an old record when the
	 * nested writers run; all 16 newest are kept.
	 */
	rbc_check_nested(test, FREC_RB_HOOK_RESERVED, 16, 5, 20, 16, 0);
}

static void nested_writer_never_laps_the_interrupted_one(RBC_TEST *test)
{
	/* 4 slots: 3 nested fit beside the pending outer one, 7 are dropped. */
	rbc_check_nested(test, FREC_RB_HOOK_FILLED, 4, 10, 6, 4, 7);
	rbc_check_nested(test, FREC_RB_HOOK_RESERVED, 4, 10, 6, 4, 7);
}

/* Each write nests another from inside itself, like IRQ in IRQ. */
static void rbc_recurse_hook(enum frec_rb_hook where)
{
	if (where != FREC_RB_HOOK_FILLED || rbc_hook_depth > 2 * FREC_RB_MAX_NEST)
		return;
	rbc_hook_depth++;
	rbc_event(rbc_hook_ring, 2000 + rbc_hook_depth, 0, 0);
	rbc_hook_depth--;
}

static void nesting_deeper_than_the_limit_is_dropped_and_counted(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 32, 0, false);

	if (!t)
		return;
	/* The write past FREC_RB_MAX_NEST is dropped, which ends the chain. */
	rbc_hook_ring = t;
	frec_rb_test_hook = rbc_recurse_hook;
	RBC_EXPECT_EQ(test, rbc_event(t, 1, 0, 0), 0);
	frec_rb_test_hook = NULL;
	RBC_EXPECT_EQ(test, rbc_read(t, 0, NULL, NULL, 64), FREC_RB_MAX_NEST);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].dropped[FREC_DROP_NEST]), 1);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].nest), 0);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

/* ---- A writer dying inside its write ---------------------------------- */

static void rbc_check_died_mid_write(RBC_TEST *test, enum frec_rb_hook at)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 16, 0, false);
	struct rbc_counts n;
	u64 seqs[64];
	int i, got;

	if (!t)
		return;
	for (i = 0; i < 20; i++)
		rbc_event(t, 500 + i, 0, 0);
	rbc_write_and_die(test, t, at);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].nest), 1);
	/*
	 * The dying record is never read, nor the old one in the slot it
	 * reserved (reused by a newer position); the rest come in order.
	 */
	got = rbc_read(t, 0, seqs, NULL, 64);
	RBC_EXPECT_EQ(test, got, 15);
	rbc_expect_seq_order(test, seqs, got);
	RBC_EXPECT_EQ(test, frec_rb_abandon_writes(&t->ring, &t->cpu[0]), 1UL);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].nest), 0);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].dropped[FREC_DROP_ABANDONED]), 1);
	/* Without the abandon, these would all be dropped as laps. */
	for (i = 0; i < 50; i++)
		RBC_EXPECT_EQ(test, rbc_event(t, 700 + i, 0, 0), 0);
	RBC_EXPECT_EQ(test, local_read(&t->cpu[0].dropped[FREC_DROP_LAP]), 0);
	RBC_EXPECT_EQ(test, rbc_read(t, 0, NULL, NULL, 64), 16);
	n = rbc_count(t, 0);
	RBC_EXPECT(test, n.written == n.readable + n.overwritten + n.dropped,
		   "written %ld != readable %ld + overwritten %ld + dropped %ld",
		   n.written, n.readable, n.overwritten, n.dropped);
	rbc_ring_free(test, t);
}

static void writer_dying_mid_write_is_skipped_then_abandoned(RBC_TEST *test)
{
	rbc_check_died_mid_write(test, FREC_RB_HOOK_FILLED);
	rbc_check_died_mid_write(test, FREC_RB_HOOK_RESERVED);
}

/*
 * A writer dies between reserve and claim, so its slot keeps the record
 * of a lap before.  A lap later, that slot's position is reserved again
 * and, until its writer claims it, holds the record of two laps before,
 * with the lap bit of the new position.  A reader that comes in between
 * (here, from the hook of that write) must not return that record.
 */
static int rbc_mid_read_n;
static unsigned long rbc_mid_fmts[64];
static u64 rbc_mid_seqs[64];

static void rbc_read_hook(enum frec_rb_hook where)
{
	if (where == FREC_RB_HOOK_RESERVED)
		rbc_mid_read_n = rbc_read(rbc_hook_ring, 0, rbc_mid_seqs,
					  rbc_mid_fmts, 64);
}

static void abandoned_slot_never_yields_a_record_two_laps_old(RBC_TEST *test)
{
	struct rbc_ring *t = rbc_ring_new(test, 1, 16, 0, false);
	int i;

	if (!t)
		return;
	/* Positions 0..19; position 20 (the slot of 4) dies unclaimed. */
	for (i = 0; i < 20; i++)
		rbc_event(t, 500 + i, 0, 0);
	rbc_write_and_die(test, t, FREC_RB_HOOK_RESERVED);
	RBC_EXPECT_EQ(test, frec_rb_abandon_writes(&t->ring, &t->cpu[0]), 1UL);
	/* Positions 21..35, then 36, the slot of 4 and 20 again. */
	for (i = 0; i < 15; i++)
		rbc_event(t, 700 + i, 0, 0);
	rbc_hook_ring = t;
	rbc_mid_read_n = -1;
	frec_rb_test_hook = rbc_read_hook;
	RBC_EXPECT_EQ(test, rbc_event(t, 800, 0, 0), 0);
	frec_rb_test_hook = NULL;
	/* The read between 36's reserve and claim: 21..35, nothing else. */
	RBC_EXPECT_EQ(test, rbc_mid_read_n, 15);
	for (i = 0; i < rbc_mid_read_n && i < 64; i++)
		RBC_EXPECT(test, rbc_mid_fmts[i] == 700UL + i,
			   "record %d of the read is fmt %lu, seq %llu", i,
			   rbc_mid_fmts[i], (unsigned long long)rbc_mid_seqs[i]);
	RBC_EXPECT_EQ(test, rbc_read(t, 0, NULL, NULL, 64), 16);
	rbc_expect_reconciled(test, t);
	rbc_ring_free(test, t);
}

/* Every case above; {} ends the table, as KUnit wants it to. */
static RBC_CASE_T frec_rb_cases[] = {
	RBC_CASE(empty_ring_reads_nothing),
	RBC_CASE(one_event_reads_back_whole),
	RBC_CASE(exact_wrap_overwrites_oldest),
	RBC_CASE(reading_is_not_destructive),
	RBC_CASE(reader_skips_what_writers_overwrite_meanwhile),
	RBC_CASE(record_of_max_size_reads_back),
	RBC_CASE(records_wrap_around_the_slot_array),
	RBC_CASE(oversized_record_is_dropped_and_counted),
	RBC_CASE(bad_sizes_are_rejected),
	RBC_CASE(kinds_are_not_mixed),
	RBC_CASE(stop_when_full_keeps_the_first),
	RBC_CASE(nested_writer_after_fill_keeps_both),
	RBC_CASE(nested_writer_after_reserve_on_wrapped_ring),
	RBC_CASE(nested_writer_never_laps_the_interrupted_one),
	RBC_CASE(nesting_deeper_than_the_limit_is_dropped_and_counted),
	RBC_CASE(writer_dying_mid_write_is_skipped_then_abandoned),
	RBC_CASE(abandoned_slot_never_yields_a_record_two_laps_old),
	{}
};

#endif /* _FREC_RB_CASES_H */
