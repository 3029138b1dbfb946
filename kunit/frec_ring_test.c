// SPDX-License-Identifier: GPL-2.0
/*
 * frec_ring_test.c - KUnit tests of frec's ring core, in every context.
 *
 * Modelled on kernel/printk/printk_ringbuffer_kunit_test.c (6.15+): the
 * torture cases pin a writer kthread on every CPU and add, on each CPU, a
 * softirq timer, a hard-IRQ hrtimer and self-sent NMIs that all write to
 * the same ring, interrupting the writer and each other, while a reader
 * kthread validates every record it copies out (frec_ring_testdata.h).
 * When everything has stopped, the counts must reconcile exactly:
 *   written == readable + overwritten + dropped
 * The plain cases pin down single-threaded behaviour, and nesting at exact
 * points inside a write (FREC_RB_TEST_HOOKS, test builds only).
 *
 * The ring core is compiled into this module (frec_rb_core.c), so the
 * suite tests it in isolation from frec.ko.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#include "frec_rb.h"
#include "frec_ring_testdata.h"

static unsigned int torture_ms = 2000;
module_param(torture_ms, uint, 0444);
MODULE_PARM_DESC(torture_ms, "how long each torture case runs (ms)");

/* A ring with a part for every possible CPU. */
struct test_ring {
	struct frec_rb ring;
	struct frec_rb_cpu *cpu;
};

static void test_ring_free(struct test_ring *t)
{
	int cpu;

	if (!t->cpu)
		return;
	for_each_possible_cpu(cpu)
		vfree(t->cpu[cpu].slots);
	kfree(t->cpu);
	t->cpu = NULL;
}

static int test_ring_alloc(struct test_ring *t, unsigned long nr_slots,
			   unsigned int max_len, bool stop_when_full)
{
	struct frec_slot *slots;
	int cpu, err;

	err = frec_rb_init(&t->ring, nr_slots, max_len, stop_when_full);
	if (err)
		return err;
	t->cpu = kcalloc(nr_cpu_ids, sizeof(*t->cpu), GFP_KERNEL);
	if (!t->cpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		slots = vmalloc(nr_slots * sizeof(*slots));
		if (!slots) {
			test_ring_free(t);
			return -ENOMEM;
		}
		frec_rb_cpu_init(&t->cpu[cpu], slots, &t->ring);
	}
	return 0;
}

/* Free the test's ring, however the test ended (suite .exit). */
static void test_ring_exit(struct kunit *test)
{
	if (test->priv)
		test_ring_free(test->priv);
	test->priv = NULL;
}

/* A ring for this test; it replaces the test's previous one. */
static struct test_ring *test_ring_new(struct kunit *test, unsigned long nr_slots,
				       unsigned int max_len, bool stop_when_full)
{
	struct test_ring *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test_ring_exit(test);
	KUNIT_ASSERT_EQ(test, test_ring_alloc(t, nr_slots, max_len, stop_when_full), 0);
	test->priv = t;
	return t;
}

struct test_counts {
	long written, overwritten, dropped, readable, raced;
};

/* Payload buffer of test_read(); KUnit runs one case at a time. */
static u8 test_read_buf[4096];

/* Read all of @cpu's part (writers stopped), optionally keeping fmts. */
static struct test_counts test_read(struct test_ring *t, int cpu,
				    unsigned long *fmts, int max)
{
	struct frec_rb_cpu *rc = &t->cpu[cpu];
	struct test_counts c = { 0 };
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	int i;

	frec_rb_cursor_init(&t->ring, rc, &cur);
	while (frec_rb_cursor_next(&t->ring, rc, &cur, &ent, test_read_buf,
				   sizeof(test_read_buf))) {
		if (fmts && c.readable < max)
			fmts[c.readable] = ent.fmt;
		c.readable++;
	}
	c.raced = cur.raced;
	c.written = local_read(&rc->written);
	c.overwritten = local_read(&rc->overwritten);
	for (i = 0; i < FREC_DROP_NR; i++)
		c.dropped += local_read(&rc->dropped[i]);
	return c;
}

static void expect_reconciled(struct kunit *test, struct test_ring *t)
{
	struct test_counts c;
	int cpu;

	for_each_possible_cpu(cpu) {
		c = test_read(t, cpu, NULL, 0);
		KUNIT_EXPECT_EQ_MSG(test, c.written, c.readable + c.overwritten + c.dropped,
				    "cpu %d: readable %ld overwritten %ld dropped %ld",
				    cpu, c.readable, c.overwritten, c.dropped);
		KUNIT_EXPECT_EQ_MSG(test, c.raced, 0, "cpu %d", cpu);
	}
}

/* ---- plain cases ---------------------------------------------------- */

static const unsigned long zero_args[FREC_EVENT_MAX_ARGS];
static const unsigned long one_to_four[FREC_EVENT_MAX_ARGS] = { 1, 2, 3, 4 };

static void ring_empty_reads_nothing(struct kunit *test)
{
	struct test_ring *t = test_ring_new(test, 16, 0, false);
	int cpu;

	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, test_read(t, cpu, NULL, 0).readable, 0);
	expect_reconciled(test, t);
}

static void ring_one_event_reads_back(struct kunit *test)
{
	struct test_ring *t = test_ring_new(test, 16, 0, false);
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	u64 before = local_clock();
	int cpu, i;

	preempt_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, frec_rb_write_event(&t->ring, &t->cpu[cpu], 0x1234,
						  0x5678, one_to_four, NULL), 0);
	preempt_enable();
	frec_rb_cursor_init(&t->ring, &t->cpu[cpu], &cur);
	KUNIT_ASSERT_TRUE(test, frec_rb_cursor_next(&t->ring, &t->cpu[cpu], &cur,
						    &ent, NULL, 0));
	KUNIT_EXPECT_EQ(test, ent.fmt, 0x1234UL);
	KUNIT_EXPECT_EQ(test, ent.caller, 0x5678UL);
	for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
		KUNIT_EXPECT_EQ(test, ent.args[i], (unsigned long)i + 1);
	KUNIT_EXPECT_GE(test, ent.ts, before);
	KUNIT_EXPECT_LE(test, ent.ts, local_clock());
	KUNIT_EXPECT_GT(test, ent.seq, 0ULL);
	KUNIT_EXPECT_FALSE(test, frec_rb_cursor_next(&t->ring, &t->cpu[cpu], &cur,
						     &ent, NULL, 0));
	expect_reconciled(test, t);
}

static void ring_exact_wrap_overwrites_oldest(struct kunit *test)
{
	struct test_ring *t = test_ring_new(test, 8, 0, false);
	unsigned long fmts[8];
	struct test_counts c;
	int i, cpu;

	/* Stay on one CPU so all events land in one part. */
	cpu = get_cpu();
	for (i = 0; i < 8; i++)
		frec_rb_write_event(&t->ring, &t->cpu[cpu], 100 + i, 0,
				    zero_args, NULL);
	c = test_read(t, cpu, fmts, 8);
	KUNIT_EXPECT_EQ(test, c.readable, 8);
	KUNIT_EXPECT_EQ(test, c.overwritten, 0);
	KUNIT_EXPECT_EQ(test, fmts[0], 100UL);
	frec_rb_write_event(&t->ring, &t->cpu[cpu], 108, 0, zero_args, NULL);
	put_cpu();
	c = test_read(t, cpu, fmts, 8);
	KUNIT_EXPECT_EQ(test, c.readable, 8);
	KUNIT_EXPECT_EQ(test, c.overwritten, 1);
	KUNIT_EXPECT_EQ(test, fmts[0], 101UL);
	KUNIT_EXPECT_EQ(test, fmts[7], 108UL);
	expect_reconciled(test, t);
}

static void ring_record_of_max_size(struct kunit *test)
{
	struct test_ring *t = test_ring_new(test, 64, 1000, false);
	u8 *in = kunit_kzalloc(test, 1001, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, 1001, GFP_KERNEL);
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	int cpu, i;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < 1001; i++)
		in[i] = i * 7;
	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test,
			frec_rb_write_record(&t->ring, &t->cpu[cpu], 1, 2, in, 1000, NULL), 0);
	/* One byte more than the maximum: dropped and counted. */
	KUNIT_EXPECT_EQ(test, frec_rb_write_record(&t->ring, &t->cpu[cpu], 1, 2, in, 1001, NULL),
			-E2BIG);
	put_cpu();
	KUNIT_EXPECT_EQ(test, local_read(&t->cpu[cpu].dropped[FREC_DROP_SIZE]), 1);
	frec_rb_cursor_init(&t->ring, &t->cpu[cpu], &cur);
	KUNIT_ASSERT_TRUE(test, frec_rb_cursor_next(&t->ring, &t->cpu[cpu], &cur, &ent,
						    out, 1001));
	KUNIT_EXPECT_EQ(test, ent.len, 1000U);
	KUNIT_EXPECT_EQ(test, memcmp(in, out, 1000), 0);
	expect_reconciled(test, t);
}

static void ring_bad_sizes_are_rejected(struct kunit *test)
{
	struct frec_rb r;

	KUNIT_EXPECT_EQ(test, frec_rb_init(&r, 0, 0, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, frec_rb_init(&r, 1, 0, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, frec_rb_init(&r, 100, 0, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, frec_rb_init(&r, 4097, 0, false), -EINVAL);
	/* A record larger than the ring (1000 bytes take 19 slots). */
	KUNIT_EXPECT_EQ(test, frec_rb_init(&r, 16, 1000, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, frec_rb_init(&r, 32, 1000, false), 0);
	KUNIT_EXPECT_EQ(test, frec_rb_init(&r, 4096, 0, false), 0);
}

static void ring_stop_when_full_keeps_first(struct kunit *test)
{
	struct test_ring *t = test_ring_new(test, 8, 0, true);
	unsigned long fmts[8];
	struct test_counts c;
	int i, cpu;

	cpu = get_cpu();
	for (i = 0; i < 12; i++)
		KUNIT_EXPECT_EQ(test, frec_rb_write_event(&t->ring, &t->cpu[cpu], i, 0,
							  zero_args, NULL),
				i < 8 ? 0 : -ENOSPC);
	put_cpu();
	c = test_read(t, cpu, fmts, 8);
	KUNIT_EXPECT_EQ(test, c.readable, 8);
	KUNIT_EXPECT_EQ(test, fmts[0], 0UL);
	KUNIT_EXPECT_EQ(test, local_read(&t->cpu[cpu].dropped[FREC_DROP_FULL]), 4);
	expect_reconciled(test, t);
}

/* ---- nesting at exact points --------------------------------------- */

static struct test_ring *hook_ring;
static enum frec_rb_hook hook_at;
static int hook_nested, hook_busy;

static void test_nest_hook(enum frec_rb_hook where)
{
	int i;

	if (where != hook_at || hook_busy)
		return;
	hook_busy = 1;
	for (i = 0; i < hook_nested; i++)
		frec_rb_write_event(&hook_ring->ring,
				    &hook_ring->cpu[smp_processor_id()], 1000 + i, 0,
				    zero_args, NULL);
	hook_busy = 0;
}

/* A writer interrupted at @at by @nested writers on a ring of @nr_slots. */
static void check_nested(struct kunit *test, enum frec_rb_hook at,
			 unsigned long nr_slots, int prefill, int nested,
			 long want_readable, long want_lap)
{
	struct test_ring *t = test_ring_new(test, nr_slots, 0, false);
	unsigned long fmts[64];
	struct test_counts c;
	int i, cpu;
	bool found = false;

	cpu = get_cpu();
	for (i = 0; i < prefill; i++)
		frec_rb_write_event(&t->ring, &t->cpu[cpu], 500 + i, 0,
				    zero_args, NULL);
	hook_ring = t;
	hook_at = at;
	hook_nested = nested;
	frec_rb_test_hook = test_nest_hook;
	KUNIT_EXPECT_EQ(test, frec_rb_write_event(&t->ring, &t->cpu[cpu], 1, 0,
						  zero_args, NULL), 0);
	frec_rb_test_hook = NULL;
	put_cpu();

	c = test_read(t, cpu, fmts, 64);
	KUNIT_EXPECT_EQ(test, c.readable, want_readable);
	for (i = 0; i < c.readable && i < 64; i++)
		found |= fmts[i] == 1;
	KUNIT_EXPECT_TRUE_MSG(test, found, "the interrupted writer's record is gone");
	KUNIT_EXPECT_EQ(test, local_read(&t->cpu[cpu].dropped[FREC_DROP_LAP]), want_lap);
	KUNIT_EXPECT_EQ(test, local_read(&t->cpu[cpu].nest), 0);
	expect_reconciled(test, t);
}

static void ring_nested_writer_keeps_both(struct kunit *test)
{
	check_nested(test, FREC_RB_HOOK_FILLED, 16, 0, 3, 4, 0);
	check_nested(test, FREC_RB_HOOK_RESERVED, 16, 20, 5, 16, 0);
}

static void ring_nested_writer_never_laps(struct kunit *test)
{
	check_nested(test, FREC_RB_HOOK_FILLED, 4, 6, 10, 4, 7);
	check_nested(test, FREC_RB_HOOK_RESERVED, 4, 6, 10, 4, 7);
}

static int recurse_depth;

static void test_recurse_hook(enum frec_rb_hook where)
{
	if (where != FREC_RB_HOOK_FILLED || recurse_depth > 2 * FREC_RB_MAX_NEST)
		return;
	recurse_depth++;
	frec_rb_write_event(&hook_ring->ring, &hook_ring->cpu[smp_processor_id()],
			    2000 + recurse_depth, 0, zero_args, NULL);
	recurse_depth--;
}

/* Each write nests another inside itself; the one past the limit is
 * dropped and counted, which ends the chain.
 */
static void ring_nesting_limit_drops_and_counts(struct kunit *test)
{
	struct test_ring *t = test_ring_new(test, 32, 0, false);
	struct test_counts c;
	int cpu;

	cpu = get_cpu();
	hook_ring = t;
	frec_rb_test_hook = test_recurse_hook;
	KUNIT_EXPECT_EQ(test, frec_rb_write_event(&t->ring, &t->cpu[cpu], 1, 0,
						  zero_args, NULL), 0);
	frec_rb_test_hook = NULL;
	put_cpu();
	c = test_read(t, cpu, NULL, 0);
	KUNIT_EXPECT_EQ(test, c.readable, FREC_RB_MAX_NEST);
	KUNIT_EXPECT_EQ(test, local_read(&t->cpu[cpu].dropped[FREC_DROP_NEST]), 1);
	KUNIT_EXPECT_EQ(test, local_read(&t->cpu[cpu].nest), 0);
	expect_reconciled(test, t);
}

/* ---- torture: every context on every CPU ----------------------------- */

struct torture_cpu {
	struct task_struct *writer;
	struct hrtimer hrtimer;
	struct timer_list timer;
	unsigned long counter[FREC_TEST_LEVELS];
	bool nmi_expected;
	bool timers_started;
};

struct torture {
	struct test_ring *t;
	unsigned int max_len;
	bool stop;
	atomic_long_t bad, reads;
	atomic_long_t by_level[FREC_TEST_LEVELS];
	/* Writes that interrupted another write on their CPU, by level. */
	atomic_long_t nested[FREC_TEST_LEVELS];
	struct torture_cpu __percpu *pcpu;
};

static struct torture *torture;

/* Write one self-checking record at @level on this CPU. */
static void torture_write(enum frec_test_level level)
{
	struct torture_cpu *tc = this_cpu_ptr(torture->pcpu);
	struct test_ring *t = torture->t;
	int cpu = smp_processor_id();
	unsigned long w = frec_test_writer(cpu, level);
	unsigned long n = ++tc->counter[level];
	struct frec_rb_cpu *rc = &t->cpu[cpu];

	if (local_read(&rc->nest))
		atomic_long_inc(&torture->nested[level]);
	if (torture->max_len) {
		u8 p[256];
		unsigned int len = frec_test_payload(p, torture->max_len, w, n);

		frec_rb_write_record(&t->ring, rc, w, n, p, len, NULL);
	} else {
		unsigned long args[FREC_EVENT_MAX_ARGS];

		frec_test_args(args, cpu, w, n);
		frec_rb_write_event(&t->ring, rc, w, n, args, NULL);
	}
	atomic_long_inc(&torture->by_level[level]);
}

static int torture_nmi(unsigned int cmd, struct pt_regs *regs)
{
	struct torture_cpu *tc;

	if (!torture)
		return NMI_DONE;
	tc = this_cpu_ptr(torture->pcpu);
	if (!READ_ONCE(tc->nmi_expected))
		return NMI_DONE;
	WRITE_ONCE(tc->nmi_expected, false);
	torture_write(FREC_TEST_NMI);
	return NMI_HANDLED;
}

static enum hrtimer_restart torture_hrtimer(struct hrtimer *hr)
{
	struct torture_cpu *tc = container_of(hr, struct torture_cpu, hrtimer);

	if (READ_ONCE(torture->stop))
		return HRTIMER_NORESTART;
	torture_write(FREC_TEST_IRQ);
	/*
	 * Every fourth tick, an NMI to the next CPU, landing wherever it
	 * is (QEMU under TCG does not deliver NMIs a CPU sends itself).
	 */
	if (!(tc->counter[FREC_TEST_IRQ] & 3)) {
		int target = cpumask_next_wrap(smp_processor_id(), cpu_online_mask,
					       smp_processor_id(), false);

		if (target >= nr_cpu_ids)
			target = smp_processor_id();
		WRITE_ONCE(per_cpu_ptr(torture->pcpu, target)->nmi_expected, true);
		apic->send_IPI_mask(cpumask_of(target), NMI_VECTOR);
	}
	hrtimer_forward_now(hr, ns_to_ktime(300 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void torture_timer(struct timer_list *tl)
{
	if (READ_ONCE(torture->stop))
		return;
	torture_write(FREC_TEST_SOFTIRQ);
	mod_timer(tl, jiffies + 1);
}

static int torture_writer(void *data)
{
	struct torture_cpu *tc = this_cpu_ptr(torture->pcpu);
	unsigned long i = 0;

	/* Started here so that both are pinned to this CPU. */
	hrtimer_init(&tc->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	tc->hrtimer.function = torture_hrtimer;
	timer_setup(&tc->timer, torture_timer, TIMER_PINNED);
	hrtimer_start(&tc->hrtimer, ns_to_ktime(300 * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED_HARD);
	mod_timer(&tc->timer, jiffies + 1);
	WRITE_ONCE(tc->timers_started, true);

	while (!kthread_should_stop()) {
		if (!READ_ONCE(torture->stop)) {
			preempt_disable();
			torture_write(FREC_TEST_TASK);
			preempt_enable();
		}
		if (!(++i & 63))
			cond_resched();
	}
	return 0;
}

static int torture_reader(void *data)
{
	struct test_ring *t = torture->t;
	struct frec_rb_cursor cur;
	struct frec_rb_entry e;
	unsigned long *last;
	u8 buf[256];
	int cpu;

	last = kcalloc(nr_cpu_ids * FREC_TEST_LEVELS, sizeof(*last), GFP_KERNEL);
	if (!last)
		return -ENOMEM;
	while (!kthread_should_stop()) {
		memset(last, 0, nr_cpu_ids * FREC_TEST_LEVELS * sizeof(*last));
		for_each_online_cpu(cpu) {
			u64 last_seq = 0;

			frec_rb_cursor_init(&t->ring, &t->cpu[cpu], &cur);
			while (frec_rb_cursor_next(&t->ring, &t->cpu[cpu], &cur, &e,
						   buf, sizeof(buf))) {
				bool valid = frec_test_valid(&e, cpu, torture->max_len);

				if (!valid || e.seq <= last_seq || e.caller <= last[e.fmt]) {
					if (atomic_long_inc_return(&torture->bad) <= 5)
						pr_err("frec_ring_kunit: bad record cpu %d seq %llu writer %lu n %lu valid %d\n",
						       cpu, e.seq, e.fmt, e.caller, valid);
				}
				if (valid)
					last[e.fmt] = e.caller;
				last_seq = e.seq;
				atomic_long_inc(&torture->reads);
			}
			cond_resched();
		}
	}
	kfree(last);
	return 0;
}

static void run_torture(struct kunit *test, unsigned long nr_slots, unsigned int max_len)
{
	struct task_struct *reader;
	struct torture_cpu *tc;
	struct torture *tt;
	int cpu, level;

	tt = kunit_kzalloc(test, sizeof(*tt), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tt);
	tt->t = test_ring_new(test, nr_slots, max_len, false);
	tt->max_len = max_len;
	tt->pcpu = alloc_percpu(struct torture_cpu);
	KUNIT_ASSERT_NOT_NULL(test, tt->pcpu);
	torture = tt;

	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, torture_nmi, 0,
						   "frec_ring_kunit"), 0);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		tc = per_cpu_ptr(tt->pcpu, cpu);
		tc->writer = kthread_create_on_cpu(torture_writer, NULL, cpu,
						   "frec_torture/%u");
		if (!IS_ERR(tc->writer))
			wake_up_process(tc->writer);
	}
	cpus_read_unlock();
	reader = kthread_run(torture_reader, NULL, "frec_torture_rd");

	msleep(torture_ms);
	WRITE_ONCE(tt->stop, true);

	for_each_possible_cpu(cpu) {
		tc = per_cpu_ptr(tt->pcpu, cpu);
		if (IS_ERR_OR_NULL(tc->writer))
			continue;
		kthread_stop(tc->writer);
		if (READ_ONCE(tc->timers_started)) {
			hrtimer_cancel(&tc->hrtimer);
			del_timer_sync(&tc->timer);
		}
	}
	if (!IS_ERR(reader))
		kthread_stop(reader);
	unregister_nmi_handler(NMI_LOCAL, "frec_ring_kunit");
	torture = NULL;

	kunit_info(test, "%s: %u cpus, %lu slots/cpu: task %ld softirq %ld (%ld nested) irq %ld (%ld nested) nmi %ld (%ld nested) records, %ld validated, %ld bad\n",
		   max_len ? "records" : "events", num_online_cpus(), nr_slots,
		   atomic_long_read(&tt->by_level[FREC_TEST_TASK]),
		   atomic_long_read(&tt->by_level[FREC_TEST_SOFTIRQ]),
		   atomic_long_read(&tt->nested[FREC_TEST_SOFTIRQ]),
		   atomic_long_read(&tt->by_level[FREC_TEST_IRQ]),
		   atomic_long_read(&tt->nested[FREC_TEST_IRQ]),
		   atomic_long_read(&tt->by_level[FREC_TEST_NMI]),
		   atomic_long_read(&tt->nested[FREC_TEST_NMI]),
		   atomic_long_read(&tt->reads), atomic_long_read(&tt->bad));
	KUNIT_EXPECT_FALSE(test, IS_ERR(reader));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&tt->bad), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&tt->reads), 0);
	for (level = 0; level < FREC_TEST_LEVELS; level++)
		KUNIT_EXPECT_GT_MSG(test, atomic_long_read(&tt->by_level[level]), 0,
				    "no writes at level %d", level);
	/* Interrupts really landed inside writes (not a timing test: the
	 * task writers spend most of their time inside one).
	 */
	KUNIT_EXPECT_GT(test, atomic_long_read(&tt->nested[FREC_TEST_IRQ]), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&tt->nested[FREC_TEST_NMI]), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, local_read(&tt->t->cpu[cpu].nest), 0);
	expect_reconciled(test, tt->t);
	free_percpu(tt->pcpu);
}

static void ring_torture_events(struct kunit *test)
{
	run_torture(test, 1024, 0);
}

static void ring_torture_records(struct kunit *test)
{
	run_torture(test, 2048, 200);
}

static void ring_torture_tiny_ring(struct kunit *test)
{
	/* Readers race with overwrites all the time; nested writers lap. */
	run_torture(test, 8, 0);
}

static struct kunit_case frec_ring_cases[] = {
	KUNIT_CASE(ring_empty_reads_nothing),
	KUNIT_CASE(ring_one_event_reads_back),
	KUNIT_CASE(ring_exact_wrap_overwrites_oldest),
	KUNIT_CASE(ring_record_of_max_size),
	KUNIT_CASE(ring_bad_sizes_are_rejected),
	KUNIT_CASE(ring_stop_when_full_keeps_first),
	KUNIT_CASE(ring_nested_writer_keeps_both),
	KUNIT_CASE(ring_nested_writer_never_laps),
	KUNIT_CASE(ring_nesting_limit_drops_and_counts),
	KUNIT_CASE(ring_torture_events),
	KUNIT_CASE(ring_torture_records),
	KUNIT_CASE(ring_torture_tiny_ring),
	{}
};

static struct kunit_suite frec_ring_suite = {
	.name = "frec_ring",
	.exit = test_ring_exit,
	.test_cases = frec_ring_cases,
};

kunit_test_suite(frec_ring_suite);

MODULE_DESCRIPTION("KUnit tests of frec's ring core in every context");
MODULE_LICENSE("GPL");
