// SPDX-License-Identifier: GPL-2.0
/*
 * frec_hist_test.c - KUnit: the latency histogram (kmod/lib/frec_hist.c)
 * in the kernel.
 *
 * frec_hist_cases: the case table the harness runs in userspace
 * (frec_hist_cases.h), here against the kernel's compilation.
 *
 * frec_hist_race: every online CPU adds to its own copy of one histogram
 * from a kthread (process context), a pinned hard hrtimer (hard IRQ) and
 * NMIs the hrtimer sends to the next CPU, landing wherever that CPU is,
 * inside an add of its own too; meanwhile a reader sums the copies and a
 * resetter resets (serialised with the reader, as frec_hist.h asks).  Each
 * context adds values of its own size, so that a read can be checked
 * against them: every read has count at most the adds begun, min and max
 * the midpoints of buckets of values added, percentiles between them;
 * with no reset, count
 * at least the adds finished before the read.  After the writers stop, a
 * reset and a known set of adds from every CPU in hard IRQ (an IPI) read
 * back exactly.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#include "frec_hist.h"
#include "frec_hist_cases.h"

static unsigned int hist_race_ms = 1500;
module_param(hist_race_ms, uint, 0444);
MODULE_PARM_DESC(hist_race_ms, "how long frec_hist_race runs each phase, in ms");

/* The values each context adds: far apart, so a read tells them apart. */
#define HIST_TASK_NS	1000ULL
#define HIST_IRQ_NS	50000ULL
#define HIST_NMI_NS	3000000ULL

/* What the IPI of the last step adds on each CPU. */
static const u64 hist_known[] = { 7, 33, 1000, 123456, 99999999 };

struct hist_race_cpu {
	struct task_struct *writer;
	struct hrtimer hrtimer;
	bool timer_started;
	bool nmi_expected;
	int in_add;
	unsigned long ticks;
};

struct hist_race {
	struct frec_hist *h;
	struct frec_hist_cpu __percpu *copies;
	struct hist_race_cpu __percpu *pcpu;
	struct mutex lock;		/* reads and resets */
	atomic_long_t begun;		/* adds begun: before frec_hist_add() */
	atomic_long_t finished;		/* adds finished: after it */
	atomic_long_t nested;	/* adds (IRQ, NMI) inside another add */
	atomic_long_t by_ctx[3];	/* task, irq, nmi */
	atomic_long_t reads, resets, bad;
	bool resetting;
	bool stop;
};

static struct hist_race *race;

static struct frec_hist_cpu *hist_race_get(void *ctx, unsigned int cpu)
{
	return per_cpu_ptr((struct frec_hist_cpu __percpu *)ctx, cpu);
}

static void hist_race_cpus(struct frec_hist_cpus *cpus)
{
	cpus->get = hist_race_get;
	cpus->ctx = (void __force *)race->copies;
	cpus->nr = nr_cpu_ids;
}

/* One add from any context, on this CPU's copy. */
static void hist_race_add(unsigned int ctx, u64 ns)
{
	struct hist_race_cpu *rc = this_cpu_ptr(race->pcpu);

	if (READ_ONCE(rc->in_add))
		atomic_long_inc(&race->nested);
	WRITE_ONCE(rc->in_add, rc->in_add + 1);
	atomic_long_inc(&race->begun);
	frec_hist_add(this_cpu_ptr(race->copies), ns);
	atomic_long_inc(&race->finished);
	WRITE_ONCE(rc->in_add, rc->in_add - 1);
	atomic_long_inc(&race->by_ctx[ctx]);
}

static int hist_race_nmi(unsigned int cmd, struct pt_regs *regs)
{
	struct hist_race_cpu *rc;

	if (!race)
		return NMI_DONE;
	rc = this_cpu_ptr(race->pcpu);
	if (!READ_ONCE(rc->nmi_expected))
		return NMI_DONE;
	WRITE_ONCE(rc->nmi_expected, false);
	hist_race_add(2, HIST_NMI_NS);
	return NMI_HANDLED;
}

static enum hrtimer_restart hist_race_hrtimer(struct hrtimer *hr)
{
	struct hist_race_cpu *rc = container_of(hr, struct hist_race_cpu, hrtimer);
	int target;

	if (READ_ONCE(race->stop))
		return HRTIMER_NORESTART;
	hist_race_add(1, HIST_IRQ_NS);
	/* every fourth tick an NMI to the next CPU (TCG drops self-NMIs) */
	if (!(++rc->ticks & 3)) {
		target = cpumask_next_wrap(smp_processor_id(), cpu_online_mask,
					   smp_processor_id(), false);
		if (target >= nr_cpu_ids)
			target = smp_processor_id();
		WRITE_ONCE(per_cpu_ptr(race->pcpu, target)->nmi_expected, true);
		apic->send_IPI_mask(cpumask_of(target), NMI_VECTOR);
	}
	hrtimer_forward_now(hr, ns_to_ktime(200 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int hist_race_writer(void *data)
{
	struct hist_race_cpu *rc = this_cpu_ptr(race->pcpu);
	unsigned long i = 0;

	hrtimer_init(&rc->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	rc->hrtimer.function = hist_race_hrtimer;
	hrtimer_start(&rc->hrtimer, ns_to_ktime(200 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	WRITE_ONCE(rc->timer_started, true);
	while (!kthread_should_stop()) {
		if (!READ_ONCE(race->stop)) {
			preempt_disable();
			hist_race_add(0, HIST_TASK_NS);
			preempt_enable();
		}
		if (!(++i & 63))
			cond_resched();
	}
	return 0;
}

/* What a read reports for a figure @ns below 2^40: its bucket's midpoint. */
static u64 hist_reported(u64 ns)
{
	unsigned int i = frec_hist_index(ns);

	return frec_hist_low(i) + (frec_hist_high(i) - frec_hist_low(i)) / 2;
}

/* One read, checked against what the contexts add; false if it fails. */
static bool hist_race_read_ok(struct frec_hist_summary *s)
{
	struct frec_hist_cpus cpus;
	long finished, begun;
	unsigned int i;
	bool no_reset;

	hist_race_cpus(&cpus);
	mutex_lock(&race->lock);
	/* resets are counted under the lock: none yet, none during this read */
	no_reset = !atomic_long_read(&race->resets);
	finished = atomic_long_read(&race->finished);
	frec_hist_read(race->h, &cpus, s);
	begun = atomic_long_read(&race->begun);
	mutex_unlock(&race->lock);
	if (s->count > begun || (no_reset && s->count < finished)) {
		pr_err("frec_hist_kunit: count %llu, adds finished %ld begun %ld\n",
		       s->count, finished, begun);
		return false;
	}
	if (!s->count)
		return true;
	/* min and max: the midpoints of the buckets of values added. */
	if (s->min < hist_reported(HIST_TASK_NS) || s->max > hist_reported(HIST_NMI_NS) ||
	    s->min > s->max) {
		pr_err("frec_hist_kunit: min %llu max %llu: not among the values added\n",
		       s->min, s->max);
		return false;
	}
	for (i = 0; i < FREC_HIST_NR_PCT; i++)
		if (s->pct[i] < s->min || s->pct[i] > s->max) {
			pr_err("frec_hist_kunit: p%u %llu outside [%llu, %llu]\n",
			       frec_hist_pct[i], s->pct[i], s->min, s->max);
			return false;
		}
	return true;
}

static int hist_race_reader(void *data)
{
	struct frec_hist_summary *s = kmalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	while (!kthread_should_stop()) {
		if (!hist_race_read_ok(s))
			atomic_long_inc(&race->bad);
		atomic_long_inc(&race->reads);
		cond_resched();
	}
	kfree(s);
	return 0;
}

static int hist_race_resetter(void *data)
{
	struct frec_hist_cpus cpus;

	hist_race_cpus(&cpus);
	while (!kthread_should_stop()) {
		if (READ_ONCE(race->resetting)) {
			mutex_lock(&race->lock);
			frec_hist_reset(race->h, &cpus);
			atomic_long_inc(&race->resets);
			mutex_unlock(&race->lock);
		}
		usleep_range(500, 1000);
	}
	return 0;
}

/* The last step's adds, on every CPU in hard IRQ (an IPI). */
static void hist_race_known(void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_known); i++)
		frec_hist_add(this_cpu_ptr(race->copies), hist_known[i]);
}

static void frec_hist_race(struct kunit *test)
{
	struct task_struct *reader, *resetter;
	struct frec_hist_summary *s;
	struct frec_hist_cpus cpus;
	struct hist_race_cpu *rc;
	struct hist_race *r;
	unsigned int i, n;
	u64 sum = 0;
	int cpu;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->h = kunit_kzalloc(test, sizeof(*r->h), GFP_KERNEL);
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->h);
	KUNIT_ASSERT_NOT_NULL(test, s);
	r->copies = alloc_percpu(struct frec_hist_cpu);
	r->pcpu = alloc_percpu(struct hist_race_cpu);
	KUNIT_ASSERT_TRUE(test, r->copies && r->pcpu);
	mutex_init(&r->lock);
	race = r;

	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, hist_race_nmi, 0,
						   "frec_hist_kunit"), 0);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		rc = per_cpu_ptr(r->pcpu, cpu);
		rc->writer = kthread_create_on_cpu(hist_race_writer, NULL, cpu,
						   "frec_hist/%u");
		if (!IS_ERR(rc->writer))
			wake_up_process(rc->writer);
	}
	cpus_read_unlock();
	reader = kthread_run(hist_race_reader, NULL, "frec_hist_rd");
	resetter = kthread_run(hist_race_resetter, NULL, "frec_hist_reset");

	/* first without resets (reads bounded both ways), then with */
	msleep(hist_race_ms);
	WRITE_ONCE(r->resetting, true);
	msleep(hist_race_ms);
	WRITE_ONCE(r->stop, true);
	for_each_possible_cpu(cpu) {
		rc = per_cpu_ptr(r->pcpu, cpu);
		if (IS_ERR_OR_NULL(rc->writer))
			continue;
		kthread_stop(rc->writer);
		if (READ_ONCE(rc->timer_started))
			hrtimer_cancel(&rc->hrtimer);
	}
	if (!IS_ERR(reader))
		kthread_stop(reader);
	if (!IS_ERR(resetter))
		kthread_stop(resetter);
	unregister_nmi_handler(NMI_LOCAL, "frec_hist_kunit");

	kunit_info(test, "%u cpus: %ld task, %ld irq, %ld nmi adds (%ld inside another add); %ld reads, %ld resets, %ld bad\n",
		   num_online_cpus(), atomic_long_read(&r->by_ctx[0]),
		   atomic_long_read(&r->by_ctx[1]), atomic_long_read(&r->by_ctx[2]),
		   atomic_long_read(&r->nested), atomic_long_read(&r->reads),
		   atomic_long_read(&r->resets), atomic_long_read(&r->bad));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&r->bad), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&r->reads), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&r->resets), 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_GT_MSG(test, atomic_long_read(&r->by_ctx[i]), 0,
				    "no adds from context %u", i);

	/* quiet: a reset forgets everything, and what follows reads exactly */
	hist_race_cpus(&cpus);
	frec_hist_reset(r->h, &cpus);
	frec_hist_read(r->h, &cpus, s);
	KUNIT_EXPECT_EQ(test, s->count, 0);
	on_each_cpu(hist_race_known, NULL, 1);
	frec_hist_read(r->h, &cpus, s);
	n = num_online_cpus();
	for (i = 0; i < ARRAY_SIZE(hist_known); i++)
		sum += hist_known[i];
	KUNIT_EXPECT_EQ(test, s->count, (u64)ARRAY_SIZE(hist_known) * n);
	KUNIT_EXPECT_EQ(test, s->sum, sum * n);
	KUNIT_EXPECT_EQ(test, s->min, hist_reported(hist_known[0]));
	KUNIT_EXPECT_EQ(test, s->max, hist_reported(hist_known[ARRAY_SIZE(hist_known) - 1]));
	for (i = 0; i < ARRAY_SIZE(hist_known); i++)
		KUNIT_EXPECT_EQ(test, s->bucket[frec_hist_index(hist_known[i])], (u64)n);

	race = NULL;
	free_percpu(r->copies);
	free_percpu(r->pcpu);
}

static void frec_hist_cases(struct kunit *test)
{
	const struct frec_hist_bucket_case *b;
	const struct frec_hist_text_case *t;
	struct frec_hist_case_scratch *x;
	char why[160];

	for (b = frec_hist_bucket_cases; b < frec_hist_bucket_cases +
	     ARRAY_SIZE(frec_hist_bucket_cases); b++)
		KUNIT_EXPECT_TRUE_MSG(test, frec_hist_bucket_case_run(b, why, sizeof(why)),
				      "%s", why);
	KUNIT_EXPECT_TRUE_MSG(test, frec_hist_layout_check(why, sizeof(why)), "%s", why);
	x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	for (t = frec_hist_text_cases; t->name; t++)
		KUNIT_EXPECT_TRUE_MSG(test, frec_hist_text_case_run(t, x, why, sizeof(why)),
				      "%s: %s", t->name, why);
}

static struct kunit_case frec_hist_test_cases[] = {
	KUNIT_CASE(frec_hist_cases),
	KUNIT_CASE(frec_hist_race),
	{}
};

static struct kunit_suite frec_hist_suite = {
	.name = "frec_hist",
	.test_cases = frec_hist_test_cases,
};

kunit_test_suites(&frec_hist_suite);
