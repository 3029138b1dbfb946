// SPDX-License-Identifier: GPL-2.0
/*
 * frec_stress.c - a load generator: every CPU records from hard-IRQ
 * context (a pinned hrtimer) and from a kthread, into an event ring and a
 * record ring, until the module is unloaded.  Tests read, resize and
 * clear the rings meanwhile; the records are self-checking (the thread's
 * count, the CPU, and its double).
 *
 *   insmod frec_stress.ko period_us=50 [threads=0] [ticks=N] [ring_kib=K] [fill=N]
 *
 * ticks=N stops each CPU's hrtimer after N ticks; ring_kib=K records into
 * rings stress_big and stress_big_text of K KiB per CPU, created at load,
 * instead of the 16 KiB static ones (scripts/frec-crosscheck.sh wants
 * tens of thousands of records and none overwritten); fill=N first records
 * N events per CPU as fast as it can, from process context (tests that
 * need full rings of a million records); extra_rings=N creates N more
 * rings of 128 bytes per CPU with one record each (tests of many rings).
 *
 * meet=1: the kthreads record in rounds, each thread leaving a round's
 * meeting point once every thread reached it, and never sleep (they
 * yield): the CPUs' records of a round are taken at nearly one moment,
 * within one tick of a coarse clock (arm64's) often enough to tie.
 *
 * Writing 1 to /sys/module/frec_stress/parameters/stop stops every
 * writer and keeps the rings: a test then reads still rings without
 * switching frec off.  Switching it off (debugfs enable) patches the
 * static key at every call site while the writers run through them,
 * which QEMU's TCG can turn into a CPU stuck on a stale int3 (see
 * doc/testing.md).
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include <frec.h>

#include "frec_sample.h"

FREC_SAMPLE_PARAM(period_us, uint, 100, "hrtimer period per CPU, us");

FREC_SAMPLE_PARAM(threads, bool, true, "also record from a kthread per CPU (else hard IRQ only)");

FREC_SAMPLE_PARAM(meet, bool, false,
		  "the kthreads record in rounds, all at once, without sleeping");

FREC_SAMPLE_PARAM(ticks, ulong, 0, "stop each CPU's hrtimer after this many ticks (0: never)");

FREC_SAMPLE_PARAM(ring_kib, uint, 0,
		  "record into new rings stress_big(_text) of this many KiB per CPU");

FREC_SAMPLE_PARAM(fill, ulong, 0, "first record this many events per CPU, as fast as possible");

FREC_SAMPLE_PARAM(extra_rings, uint, 0,
		  "also create this many small rings stress_extra_N, one record each");

#define FREC_STRESS_EXTRA_MAX	1024
static struct frec_ring *frec_stress_extra[FREC_STRESS_EXTRA_MAX];

FREC_DEFINE_RING(stress, FREC_RING_EVENTS, 16 * 1024, 0);
FREC_DEFINE_RING(stress_text, FREC_RING_RECORDS, 16 * 1024, 128);

static struct frec_ring *frec_stress_events, *frec_stress_text;

struct frec_stress_cpu {
	struct hrtimer timer;
	unsigned long ticks;
	struct task_struct *thread;
};

static DEFINE_PER_CPU(struct frec_stress_cpu, frec_stress_cpus);

static enum hrtimer_restart frec_stress_tick(struct hrtimer *t)
{
	struct frec_stress_cpu *sc = container_of(t, struct frec_stress_cpu, timer);

	sc->ticks++;
	frec_record(frec_stress_events, "irq tick %lu cpu %d check %lu", sc->ticks,
		    smp_processor_id(), 2 * sc->ticks);
	if (!(sc->ticks & 7))
		frec_printk(frec_stress_text, "irq tick %lu cpu %d", sc->ticks,
			    smp_processor_id());
	if (ticks && sc->ticks >= ticks)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(period_us * 1000ULL));
	return HRTIMER_RESTART;
}

/* Threads started, and how many reached a meeting point (meet=1). */
static unsigned int frec_stress_nr_threads;
static atomic_long_t frec_stress_arrived = ATOMIC_LONG_INIT(0);

/*
 * Wait until every thread reached round @n's meeting point.  A thread
 * stopped meanwhile never comes: the others then wait for their own stop.
 * A tight spin, yielding now and then: each thread leaves as soon as it
 * sees the last arrival, so that the threads record within a tick.
 */
static void frec_stress_meet(unsigned long n)
{
	long all = n * frec_stress_nr_threads;
	unsigned int spins = 0;

	atomic_long_inc(&frec_stress_arrived);
	while (atomic_long_read(&frec_stress_arrived) < all && !kthread_should_stop()) {
		cpu_relax();
		if (!(++spins & 1023))
			cond_resched();
	}
}

static int frec_stress_thread(void *data)
{
	unsigned long n = 0;

	while (!kthread_should_stop()) {
		n++;
		if (meet)
			frec_stress_meet(n);
		frec_record(frec_stress_events, "task %lu cpu %d check %lu", n,
			    raw_smp_processor_id(), 2 * n);
		if (!(n & 63))
			frec_printk(frec_stress_text, "task %lu", n);
		if (!(n & 255) && !meet)
			schedule_timeout_interruptible(1);
	}
	return 0;
}

static long frec_stress_fill(void *unused)
{
	unsigned long n;

	for (n = 1; n <= fill; n++) {
		frec_record(frec_stress_events, "fill %lu cpu %d check %lu %s", n,
			    raw_smp_processor_id(), 2 * n, "filled");
		if (!(n & 4095))
			cond_resched();
	}
	return 0;
}

static void frec_stress_start_timer(void *unused)
{
	struct frec_stress_cpu *sc = this_cpu_ptr(&frec_stress_cpus);

	hrtimer_init(&sc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	sc->timer.function = frec_stress_tick;
	hrtimer_start(&sc->timer, ns_to_ktime(period_us * 1000ULL),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static DEFINE_MUTEX(frec_stress_writers_lock);
static bool frec_stress_started;

/* Stops the threads and the timers; the rings stay.  Idempotent. */
static void frec_stress_stop_writers(void)
{
	struct frec_stress_cpu *sc;
	int cpu;

	mutex_lock(&frec_stress_writers_lock);
	if (frec_stress_started) {
		for_each_online_cpu(cpu) {
			sc = per_cpu_ptr(&frec_stress_cpus, cpu);
			if (!IS_ERR_OR_NULL(sc->thread))
				kthread_stop(sc->thread);
			sc->thread = NULL;
			hrtimer_cancel(&sc->timer);
		}
		frec_stress_started = false;
	}
	mutex_unlock(&frec_stress_writers_lock);
}

static bool stop;

static int frec_stress_stop_set(const char *val, const struct kernel_param *kp)
{
	bool want;

	if (kstrtobool(val, &want) || !want) {
		pr_err("frec_stress: stop: \"%s\" refused: want 1\n", val);
		return -EINVAL;
	}
	/* Not at insmod: the writers start after the parameters are set. */
	if (!frec_stress_started)
		return -EINVAL;
	frec_stress_stop_writers();
	stop = true;
	return 0;
}

static const struct kernel_param_ops frec_stress_stop_ops = {
	.set = frec_stress_stop_set,
	.get = param_get_bool,
};
module_param_cb(stop, &frec_stress_stop_ops, &stop, 0644);
MODULE_PARM_DESC(stop, "write 1: stop every writer, keep the rings");

static int __init frec_stress_init(void)
{
	struct frec_stress_cpu *sc;
	unsigned int i;
	int cpu;

	if (period_us < 10)
		return -EINVAL;
	frec_stress_events = FREC_RING(stress);
	frec_stress_text = FREC_RING(stress_text);
	if (ring_kib) {
		frec_stress_events = frec_ring_create("stress_big", FREC_RING_EVENTS,
						      ring_kib * 1024UL, 0);
		if (IS_ERR(frec_stress_events))
			return PTR_ERR(frec_stress_events);
		frec_stress_text = frec_ring_create("stress_big_text", FREC_RING_RECORDS,
						    ring_kib * 1024UL, 128);
		if (IS_ERR(frec_stress_text)) {
			frec_ring_destroy(frec_stress_events);
			return PTR_ERR(frec_stress_text);
		}
	}
	for (i = 0; i < extra_rings && i < FREC_STRESS_EXTRA_MAX; i++) {
		char name[FREC_RING_NAME_MAX + 1];

		snprintf(name, sizeof(name), "stress_extra_%u", i);
		frec_stress_extra[i] = frec_ring_create(name, FREC_RING_EVENTS, 128, 0);
		frec_record(IS_ERR(frec_stress_extra[i]) ? NULL : frec_stress_extra[i],
			    "extra ring %u", i);
	}
	for_each_online_cpu(cpu)
		if (fill)
			work_on_cpu(cpu, frec_stress_fill, NULL);
	on_each_cpu(frec_stress_start_timer, NULL, 1);
	for_each_online_cpu(cpu) {
		if (!threads)
			break;
		sc = per_cpu_ptr(&frec_stress_cpus, cpu);
		sc->thread = kthread_create_on_cpu(frec_stress_thread, NULL, cpu,
						   "frec_stress/%u");
		if (!IS_ERR(sc->thread))
			frec_stress_nr_threads++;
	}
	/* Woken once all are counted: a meeting waits for every one. */
	for_each_online_cpu(cpu) {
		sc = per_cpu_ptr(&frec_stress_cpus, cpu);
		if (threads && !IS_ERR_OR_NULL(sc->thread))
			wake_up_process(sc->thread);
	}
	mutex_lock(&frec_stress_writers_lock);
	frec_stress_started = true;
	mutex_unlock(&frec_stress_writers_lock);
	return 0;
}

static void __exit frec_stress_exit(void)
{
	unsigned int i;

	frec_stress_stop_writers();
	if (ring_kib) {
		frec_ring_destroy(frec_stress_text);
		frec_ring_destroy(frec_stress_events);
	}
	for (i = 0; i < FREC_STRESS_EXTRA_MAX; i++)
		frec_ring_destroy(frec_stress_extra[i]);
}

module_init(frec_stress_init);
module_exit(frec_stress_exit);

MODULE_DESCRIPTION("frec sample: records from hard IRQ and threads on every CPU");
MODULE_LICENSE("GPL");
