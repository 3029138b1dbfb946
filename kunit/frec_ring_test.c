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
 * The single-threaded cases, nesting at exact points inside a write
 * included (FREC_RB_TEST_HOOKS, test builds only), are frec_rb_cases.h,
 * shared with the userspace harness, and run here as the suite
 * frec_rb_cases; this file gives them rings, writers and a writer that
 * dies mid-write, the kernel's way.  The torture cases are the suite
 * frec_ring.
 *
 * The ring core is compiled into this module (frec_rb_core.c), so the
 * suite tests it in isolation from frec.ko.
 */
#include <kunit/test.h>
#include <linux/completion.h>
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

#include "frec_caller_word.h"
#include "frec_rb.h"
#include "frec_ring_testdata.h"

static unsigned int torture_ms = 2000;
module_param(torture_ms, uint, 0444);
MODULE_PARM_DESC(torture_ms, "how long each torture case runs (ms)");

/* What the shared cases (frec_rb_cases.h) need of KUnit and the kernel. */
#define RBC_TEST			struct kunit
#define RBC_EXPECT(test, cond, ...)	KUNIT_EXPECT_TRUE_MSG(test, cond, __VA_ARGS__)
#define RBC_EXPECT_EQ(test, a, b)	KUNIT_EXPECT_EQ(test, a, b)
#define RBC_CASE_T			struct kunit_case
#define RBC_CASE(fn)			KUNIT_CASE(fn)
#include "frec_rb_cases.h"

static void rbc_ring_destroy(struct rbc_ring *t)
{
	int i;

	for (i = 0; t->cpu && i < t->nr_cpus; i++)
		vfree(t->cpu[i].slots);
	kfree(t->cpu);
	kfree(t);
}

static void rbc_ring_release(struct kunit_resource *res)
{
	rbc_ring_destroy(res->data);
}

static bool rbc_ring_match(struct kunit *test, struct kunit_resource *res,
			   void *t)
{
	return res->free == rbc_ring_release && res->data == t;
}

/* A ring the test owns as a KUnit resource: freed however the case ends. */
static struct rbc_ring *rbc_ring_new(struct kunit *test, int nr_cpus,
				     unsigned long nr_slots,
				     unsigned int max_len, bool stop_when_full)
{
	struct frec_slot *slots;
	struct rbc_ring *t;
	struct frec_rb ring;
	bool ok;
	int i;

	KUNIT_ASSERT_EQ(test, frec_rb_init(&ring, nr_slots, max_len,
					   stop_when_full ? FREC_RB_STOP_WHEN_FULL : 0), 0);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->ring = ring;
	t->nr_cpus = nr_cpus;
	t->cpu = kcalloc(nr_cpus, sizeof(*t->cpu), GFP_KERNEL);
	for (i = 0; t->cpu && i < nr_cpus; i++) {
		slots = vmalloc(array_size(nr_slots, sizeof(*slots)));
		if (!slots)
			break;
		frec_rb_cpu_init(&t->cpu[i], slots, &t->ring);
	}
	ok = t->cpu && i == nr_cpus &&
	     kunit_alloc_resource(test, NULL, rbc_ring_release, GFP_KERNEL, t);
	if (!ok)
		rbc_ring_destroy(t);
	/* Not KUNIT_ASSERT_FAILURE(): 6.11 renamed it KUNIT_FAIL_AND_ABORT(). */
	KUNIT_ASSERT_TRUE_MSG(test, ok, "no memory for %d parts of %lu slots",
			      nr_cpus, nr_slots);
	return t;
}

static void rbc_ring_free(struct kunit *test, struct rbc_ring *t)
{
	KUNIT_EXPECT_EQ(test, kunit_destroy_resource(test, rbc_ring_match, t), 0);
}

/* A writer runs with preemption off. */
static void rbc_writer_enter(void)
{
	preempt_disable();
}

static void rbc_writer_exit(void)
{
	preempt_enable();
}

/* A writer that dies inside its write: a kthread that exits from the hook. */
struct rbc_dying {
	struct rbc_ring *t;
	enum frec_rb_hook at;
	struct completion done;
};

static struct rbc_dying *rbc_dying;

static void rbc_die_hook(enum frec_rb_hook where)
{
	if (where != rbc_dying->at)
		return;
	/* As make_task_dead() after an oops: preemption on, the task gone. */
	rbc_writer_exit();
	kthread_complete_and_exit(&rbc_dying->done, 0);
}

static int rbc_dying_writer(void *data)
{
	struct rbc_dying *d = data;

	rbc_event(d->t, 1, 0, 1);
	/* Only if the hook never fired: the case then fails on nest. */
	kthread_complete_and_exit(&d->done, 0);
}

static void rbc_write_and_die(struct kunit *test, struct rbc_ring *t,
			      enum frec_rb_hook at)
{
	struct rbc_dying d = { .t = t, .at = at };
	struct task_struct *task;

	init_completion(&d.done);
	rbc_dying = &d;
	frec_rb_test_hook = rbc_die_hook;
	task = kthread_run(rbc_dying_writer, &d, "frec_rb_dying");
	if (!IS_ERR(task))
		wait_for_completion(&d.done);
	frec_rb_test_hook = NULL;
	rbc_dying = NULL;
	KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(task), "no dying writer: %d",
			       PTR_ERR_OR_ZERO(task));
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
	struct rbc_ring *t;
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
	struct rbc_ring *t = torture->t;
	int cpu = smp_processor_id();
	unsigned long w = frec_test_writer(cpu, level);
	unsigned long n = ++tc->counter[level];
	struct frec_rb_cpu *rc = &t->cpu[cpu];

	if (local_read(&rc->nest))
		atomic_long_inc(&torture->nested[level]);
	if (torture->max_len) {
		u8 p[256];
		unsigned int len = frec_test_payload(p, torture->max_len, w, n);

		frec_rb_write_record(&t->ring, rc, w, frec_caller_word(n, FREC_CALLER_BASE, 0),
				     p, len, NULL);
	} else {
		unsigned long args[FREC_EVENT_MAX_ARGS];

		frec_test_args(args, cpu, w, n);
		frec_rb_write_event(&t->ring, rc, w, frec_caller_word(n, FREC_CALLER_BASE, 0),
				    args, NULL);
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
	struct rbc_ring *t = torture->t;
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
			u64 last_seq = 0, last_ts = 0;

			frec_rb_cursor_init(&t->ring, &t->cpu[cpu], &cur);
			while (frec_rb_cursor_next(&t->ring, &t->cpu[cpu], &cur, &e,
						   buf, sizeof(buf))) {
				bool valid = frec_test_valid(&e, cpu, torture->max_len);

				/* Positions are in timestamp order on one CPU. */
				if (!valid || e.ts < last_ts || e.seq == last_seq ||
				    e.caller <= last[e.site]) {
					if (atomic_long_inc_return(&torture->bad) <= 5)
						pr_err("frec_ring_kunit: bad record cpu %d seq %llu writer %lu n %lu valid %d\n",
						       cpu, e.seq, e.site, (unsigned long)e.caller,
						       valid);
				}
				if (valid)
					last[e.site] = e.caller;
				last_seq = e.seq;
				last_ts = e.ts;
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
	tt->t = rbc_ring_new(test, nr_cpu_ids, nr_slots, max_len, false);
	tt->max_len = max_len;
	tt->pcpu = alloc_percpu(struct torture_cpu);
	KUNIT_ASSERT_TRUE(test, tt->pcpu);
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
	rbc_expect_reconciled(test, tt->t);
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
	KUNIT_CASE(ring_torture_events),
	KUNIT_CASE(ring_torture_records),
	KUNIT_CASE(ring_torture_tiny_ring),
	{}
};

static struct kunit_suite frec_ring_suite = {
	.name = "frec_ring",
	.test_cases = frec_ring_cases,
};

static struct kunit_suite frec_rb_cases_suite = {
	.name = "frec_rb_cases",
	.test_cases = frec_rb_cases,
};

kunit_test_suites(&frec_rb_cases_suite, &frec_ring_suite);

MODULE_DESCRIPTION("KUnit tests of frec's ring core in every context");
MODULE_LICENSE("GPL");
