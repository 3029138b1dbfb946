// SPDX-License-Identifier: GPL-2.0
/*
 * frec_spans.c - spans from every context, for the spans test: on each
 * online CPU a bound kthread (an outer span, a scoped span nested in it),
 * a timer (softirq) and a pinned hrtimer (hard IRQ, nesting in whatever
 * it interrupts); one kthread whose spans begin on one CPU and end on
 * another (it moves itself between them); and spans whose begin is
 * filtered out (a debug-level begin into an info-level ring), whose ends
 * must record nothing.  Loading returns once every span ended.  With
 * slow_us=US, the inner span of loop slow_n on the first CPU lasts US
 * microseconds more: the slow one among the fast, for the triggers'
 * test, which arms a trigger on its site in the start_ms milliseconds
 * the module waits, its sites listed in frec/control, before any span.
 *
 *   insmod frec_spans.ko [loops=N] [slow_us=US slow_n=N] [start_ms=MS]
 *
 * Every message names its span by kind and loop number, so a test pairs
 * the dump's begins and ends by text as well as by their "span=" field.
 */
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/timer.h>

#include <frec.h>

#include "frec_sample.h"

FREC_SAMPLE_PARAM(loops, uint, 50, "spans of each kind per CPU (at most 200)");

FREC_SAMPLE_PARAM(slow_us, uint, 0,
		  "extra microseconds of one inner span (0: none; at most 100000)");

FREC_SAMPLE_PARAM(slow_n, uint, 0, "the loop whose inner span on the first CPU is the slow one");

FREC_SAMPLE_PARAM(start_ms, uint, 0, "milliseconds to wait before the first span (at most 10000)");

FREC_SAMPLE_PARAM(ends_refused, uint, 0, "ends of filtered begins that returned -ENOENT");

/* 64 KiB per CPU: 1024 records, more than a CPU records here. */
FREC_DEFINE_RING(spans, FREC_RING_EVENTS, 64 * 1024, 0);

struct frec_spans_cpu {
	struct hrtimer hrtimer;
	struct timer_list timer;
	unsigned int irq_n;
	unsigned int softirq_n;
	unsigned int refused;
	bool timers_set;
	struct task_struct *thread;
	int cpu;
};

static DEFINE_PER_CPU(struct frec_spans_cpu, frec_spans_cpus);
static atomic_t frec_spans_pending;
static DECLARE_COMPLETION(frec_spans_done);

static void frec_spans_one_done(void)
{
	if (atomic_dec_and_test(&frec_spans_pending))
		complete(&frec_spans_done);
}

static enum hrtimer_restart frec_spans_hrtimer(struct hrtimer *t)
{
	struct frec_spans_cpu *sc = container_of(t, struct frec_spans_cpu, hrtimer);
	struct frec_span s;

	s = frec_span_begin(FREC_RING(spans), "irq n=%u cpu=%d", sc->irq_n,
			    smp_processor_id());
	udelay(1);
	frec_span_end(FREC_RING(spans), &s, "irq n=%u", sc->irq_n);
	if (++sc->irq_n >= loops) {
		frec_spans_one_done();
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(t, ns_to_ktime(300 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void frec_spans_timer(struct timer_list *t)
{
	struct frec_spans_cpu *sc = from_timer(sc, t, timer);
	struct frec_span s;

	s = frec_span_begin(FREC_RING(spans), "softirq n=%u cpu=%d", sc->softirq_n,
			    smp_processor_id());
	udelay(1);
	frec_span_end(FREC_RING(spans), &s, "softirq n=%u", sc->softirq_n);
	if (++sc->softirq_n >= loops) {
		frec_spans_one_done();
		return;
	}
	sc->timer.expires = jiffies + 1;
	add_timer_on(&sc->timer, sc->cpu);
}

/* The first online CPU: the slow span's. */
static int frec_spans_first_cpu;

/* The inner span ends when this function returns. */
static void frec_spans_inner(unsigned int n)
{
	frec_span_scoped(FREC_RING(spans), "inner n=%u", n);

	udelay(2);
	if (slow_us && n == slow_n && raw_smp_processor_id() == frec_spans_first_cpu) {
		mdelay(slow_us / 1000);
		udelay(slow_us % 1000);
	}
}

static int frec_spans_thread(void *data)
{
	struct frec_spans_cpu *sc = data;
	struct frec_span s, f;
	unsigned int n;

	hrtimer_start(&sc->hrtimer, ns_to_ktime(300 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	for (n = 0; n < loops; n++) {
		s = frec_span_begin(FREC_RING(spans), "thread n=%u cpu=%d", n,
				    smp_processor_id());
		frec_spans_inner(n);
		f = frec_span_begin_level(FREC_RING(spans), FREC_LEVEL_DEBUG,
					  "filtered n=%u", n);
		if (frec_span_end(FREC_RING(spans), &f, "filtered n=%u", n) == -ENOENT)
			sc->refused++;
		frec_span_end(FREC_RING(spans), &s, "thread n=%u", n);
		usleep_range(200, 400);
	}
	frec_spans_one_done();
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

/* The online CPUs at load, which the mover goes round. */
static int frec_spans_cpu_list[NR_CPUS];
static unsigned int frec_spans_nr_cpus;

/* Begin on one CPU, move to the next online one, end there. */
static int frec_spans_migrate(void *data)
{
	unsigned int n, moved = 0;
	struct frec_span s;
	int from, to;

	for (n = 0; n < loops; n++) {
		from = frec_spans_cpu_list[n % frec_spans_nr_cpus];
		to = frec_spans_cpu_list[(n + 1) % frec_spans_nr_cpus];
		if (set_cpus_allowed_ptr(current, cpumask_of(from)))
			continue;
		s = frec_span_begin(FREC_RING(spans), "migrate n=%u from=%d", n,
				    smp_processor_id());
		if (set_cpus_allowed_ptr(current, cpumask_of(to)))
			pr_warn("frec_spans: cannot move to cpu %d\n", to);
		frec_span_end(FREC_RING(spans), &s, "migrate n=%u to=%d", n,
			      raw_smp_processor_id());
		moved += raw_smp_processor_id() != from;
	}
	pr_info("frec_spans: %u of %u migrating spans ended on another cpu\n",
		moved, loops);
	frec_spans_one_done();
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

static struct task_struct *frec_spans_mover;

static void frec_spans_stop(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct frec_spans_cpu *sc = per_cpu_ptr(&frec_spans_cpus, cpu);

		if (sc->thread)
			kthread_stop(sc->thread);
		sc->thread = NULL;
		if (sc->timers_set) {
			hrtimer_cancel(&sc->hrtimer);
			del_timer_sync(&sc->timer);
		}
	}
	if (frec_spans_mover)
		kthread_stop(frec_spans_mover);
	frec_spans_mover = NULL;
}

static int __init frec_spans_init(void)
{
	int cpu;

	if (!loops || loops > 200) {
		pr_err("frec_spans: refused loops=%u: 1 to 200\n", loops);
		return -EINVAL;
	}
	if (start_ms > 10000) {
		pr_err("frec_spans: refused start_ms=%u: at most 10000\n", start_ms);
		return -EINVAL;
	}
	if (slow_us > 100000 || (slow_us && slow_n >= loops)) {
		pr_err("frec_spans: refused slow_us=%u slow_n=%u: at most 100000 us, in a loop below loops=%u\n",
		       slow_us, slow_n, loops);
		return -EINVAL;
	}
	frec_spans_first_cpu = cpumask_first(cpu_online_mask);
	msleep(start_ms);
	if (!FREC_RING(spans))
		return -ENODEV;
	cpus_read_lock();
	/* Per CPU: the thread, its hrtimer, the timer; and the mover. */
	atomic_set(&frec_spans_pending, 3 * num_online_cpus() + 1);
	for_each_online_cpu(cpu) {
		struct frec_spans_cpu *sc = per_cpu_ptr(&frec_spans_cpus, cpu);

		sc->cpu = cpu;
		frec_spans_cpu_list[frec_spans_nr_cpus++] = cpu;
		sc->timers_set = true;
		hrtimer_init(&sc->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		sc->hrtimer.function = frec_spans_hrtimer;
		timer_setup(&sc->timer, frec_spans_timer, TIMER_PINNED);
		sc->timer.expires = jiffies + 1;
		add_timer_on(&sc->timer, cpu);
		sc->thread = kthread_create_on_cpu(frec_spans_thread, sc, cpu,
						   "frec_spans/%u");
		if (IS_ERR(sc->thread)) {
			sc->thread = NULL;
			cpus_read_unlock();
			frec_spans_stop();
			return -ENOMEM;
		}
		wake_up_process(sc->thread);
	}
	cpus_read_unlock();
	frec_spans_mover = kthread_run(frec_spans_migrate, NULL, "frec_spans_mv");
	if (IS_ERR(frec_spans_mover)) {
		frec_spans_mover = NULL;
		frec_spans_stop();
		return -ENOMEM;
	}
	if (!wait_for_completion_timeout(&frec_spans_done, 60 * HZ)) {
		pr_err("frec_spans: spans did not all end within 60 s\n");
		frec_spans_stop();
		return -ETIMEDOUT;
	}
	for_each_online_cpu(cpu)
		ends_refused += per_cpu_ptr(&frec_spans_cpus, cpu)->refused;
	return 0;
}

static void __exit frec_spans_exit(void)
{
	frec_spans_stop();
}

module_init(frec_spans_init);
module_exit(frec_spans_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("frec sample: spans from process, softirq and hard IRQ context, nested and migrating");
