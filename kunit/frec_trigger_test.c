// SPDX-License-Identifier: GPL-2.0
/*
 * frec_trigger_test.c - KUnit: a threshold trigger (freeze>1ms, armed
 * through frec/control) on a span-end site fires exactly once when a task
 * on every CPU, a hard-IRQ hrtimer on every CPU and NMIs sent to the next
 * CPU all report slow spans of it at once (frec_trigger_span()); a span
 * at the threshold does not fire it; after it, the site's ring refuses
 * records; clearing frec/frozen and arming again fires it again, once.
 * One end site storing into two rings freezes the ring of the slow end.
 * A site armed again inside a firing (frec_trigger_test_hook: the
 * interleaving two CPUs reach only by chance) is armed as written.
 * While a dump trigger's console dump is printing (frec_crash_test_hook
 * holds it there, as a slow console does for seconds), an oops still
 * prints its dump, and a second dump from atomic context does not.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <asm/nmi.h>

#include <frec.h>

#include "frec_crash.h"
#include "frec_rings.h"
#include "frec_test.h"
#include "frec_trigger.h"

#define TRIG_CONTROL	"/sys/kernel/debug/frec/control"
#define TRIG_FROZEN	"/sys/kernel/debug/frec/frozen"
#define TRIG_ARM	"func trig_span_end freeze>1ms"
/* A slow span: above the threshold. */
#define TRIG_SLOW_NS	(2 * NSEC_PER_MSEC)
/* How long everybody reports slow spans. */
#define TRIG_RACE_MS	30

/*
 * Written by hand, static: frec keeps a pointer to it until this module
 * goes.  A span end (its format says so), the only kind control arms a
 * threshold on.
 */
static struct frec_site trig_site = {
	.level = FREC_LEVEL_INFO, .code_level = FREC_LEVEL_INFO,
	.set_level = FREC_LEVEL_INFO, .fmt = __FREC_SPAN_END_FMT "kunit span end %lu",
	.file = __FILE__, .func = "trig_span_end", .modname = KBUILD_MODNAME,
	.line = 1,
};

struct trig_race {
	bool stop;
	atomic_t fired;
	atomic_long_t task, irq, nmi;
	struct hrtimer __percpu *hrtimer;
};

static struct trig_race *trig;
/* The ring the span ends of trigger_span_fires_once() go to. */
static struct frec_ring *trig_ring;

static void trig_span(atomic_long_t *calls)
{
	if (frec_trigger_span(&trig_site, trig_ring, TRIG_SLOW_NS))
		atomic_inc(&trig->fired);
	atomic_long_inc(calls);
}

static int trig_nmi(unsigned int cmd, struct pt_regs *regs)
{
	if (!READ_ONCE(trig) || READ_ONCE(trig->stop))
		return NMI_DONE;
	trig_span(&trig->nmi);
	return NMI_HANDLED;
}

static enum hrtimer_restart trig_hrtimer(struct hrtimer *hr)
{
	if (READ_ONCE(trig->stop))
		return HRTIMER_NORESTART;
	trig_span(&trig->irq);
	frec_test_nmi_next_cpu();
	hrtimer_forward_now(hr, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int trig_task(void *unused)
{
	struct hrtimer *hr = this_cpu_ptr(trig->hrtimer);

	hrtimer_init(hr, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	hr->function = trig_hrtimer;
	hrtimer_start(hr, ns_to_ktime(50 * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED_HARD);
	while (!kthread_should_stop()) {
		if (!READ_ONCE(trig->stop)) {
			preempt_disable();
			trig_span(&trig->task);
			preempt_enable();
		}
		cond_resched();
	}
	hrtimer_cancel(hr);
	return 0;
}

/* One write of @cmd to @path; its result. */
static ssize_t trig_write(const char *path, const char *cmd)
{
	struct file *f = filp_open(path, O_WRONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, cmd, strlen(cmd), &pos);
	filp_close(f, NULL);
	return n;
}

static int trig_record(struct frec_ring *ring)
{
	int ret;

	preempt_disable();
	ret = __frec_record(ring, &trig_site, _THIS_IP_, 1, 0, 0, 0);
	preempt_enable();
	return ret;
}

static void trigger_span_fires_once(struct kunit *test)
{
	struct task_struct **task;
	struct frec_ring *ring;
	unsigned int started;

	task = kunit_kcalloc(test, nr_cpu_ids, sizeof(*task), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, task);
	trig = kunit_kzalloc(test, sizeof(*trig), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, trig);
	trig->hrtimer = alloc_percpu(struct hrtimer);
	KUNIT_ASSERT_NOT_NULL(test, trig->hrtimer);
	ring = frec_ring_create("kunit_trigger", FREC_RING_EVENTS, 4096, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	trig_ring = ring;
	/* The first record registers the site and makes @ring its ring. */
	KUNIT_ASSERT_EQ(test, trig_record(ring), 0);
	KUNIT_ASSERT_EQ(test, trig_write(TRIG_CONTROL, TRIG_ARM), (ssize_t)strlen(TRIG_ARM));
	/* The span end's copy of the threshold, in the site. */
	KUNIT_EXPECT_EQ(test, ~READ_ONCE(trig_site.span_threshold_inv), (u64)NSEC_PER_MSEC);
	KUNIT_EXPECT_FALSE_MSG(test, frec_trigger_span(&trig_site, trig_ring, NSEC_PER_MSEC),
			       "a span of exactly the threshold fired it");
	KUNIT_EXPECT_EQ(test, atomic_read(&ring->stop), 0);
	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, trig_nmi, 0, "frec_trig_kunit"), 0);

	started = frec_test_start_on_cpus(task, trig_task, NULL, "frec_trig/%u");
	msleep(TRIG_RACE_MS);
	WRITE_ONCE(trig->stop, true);
	frec_test_stop_on_cpus(task);
	unregister_nmi_handler(NMI_LOCAL, "frec_trig_kunit");

	kunit_info(test, "%u tasks; slow spans reported: %ld by tasks, %ld in hard IRQ, %ld in NMI; fired %d\n",
		   started, atomic_long_read(&trig->task), atomic_long_read(&trig->irq),
		   atomic_long_read(&trig->nmi), atomic_read(&trig->fired));
	KUNIT_EXPECT_EQ(test, atomic_read(&trig->fired), 1);
	KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(trig_site.span_threshold_inv), 0ULL,
			    "the site still has its threshold after it fired");
	KUNIT_EXPECT_GT(test, atomic_long_read(&trig->irq), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&trig->nmi), 0);
	KUNIT_EXPECT_TRUE(test, atomic_read(&ring->stop) & FREC_RING_STOP_FROZEN);
	KUNIT_EXPECT_EQ_MSG(test, trig_record(ring), -ENOSPC, "a frozen ring stored a record");

	/* Cleared and armed again, it fires again, once. */
	KUNIT_EXPECT_EQ(test, trig_write(TRIG_FROZEN, "0"), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ring->stop), 0);
	KUNIT_EXPECT_EQ(test, trig_record(ring), 0);
	KUNIT_EXPECT_FALSE_MSG(test, frec_trigger_span(&trig_site, trig_ring, TRIG_SLOW_NS),
			       "it fired again before it was armed again");
	KUNIT_ASSERT_EQ(test, trig_write(TRIG_CONTROL, TRIG_ARM), (ssize_t)strlen(TRIG_ARM));
	KUNIT_EXPECT_TRUE(test, frec_trigger_span(&trig_site, trig_ring, TRIG_SLOW_NS));
	KUNIT_EXPECT_FALSE(test, frec_trigger_span(&trig_site, trig_ring, TRIG_SLOW_NS));
	KUNIT_EXPECT_EQ(test, trig_write(TRIG_FROZEN, "clear"), 5);

	free_percpu(trig->hrtimer);
	trig_ring = NULL;
	frec_ring_destroy(ring);
	trig = NULL;
}

/*
 * One end site storing into two rings, as a driver's ring per device
 * does: a slow end freezes the ring it went into, not the ring of the
 * site's first record, and frec/frozen names that ring.  Through the
 * record path (__frec_span_end()), as a span's end takes it.
 */
static void trigger_span_freezes_the_end_ring(struct kunit *test)
{
	struct frec_ring *first, *other;
	char buf[256];
	loff_t pos = 0;
	struct file *f;
	ssize_t n;
	int ret;

	first = frec_ring_create("kunit_trigger_first", FREC_RING_EVENTS, 4096, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(first));
	other = frec_ring_create("kunit_trigger_other", FREC_RING_EVENTS, 4096, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	/* The site's ring is its first record's: @first, or an older case's. */
	KUNIT_ASSERT_EQ(test, trig_record(first), 0);
	KUNIT_ASSERT_EQ(test, trig_write(TRIG_CONTROL, TRIG_ARM), (ssize_t)strlen(TRIG_ARM));
	preempt_disable();
	ret = __frec_span_end(other, &trig_site, _THIS_IP_, local_clock() - TRIG_SLOW_NS,
			      1, 0, 0);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, atomic_read(&other->stop) & FREC_RING_STOP_FROZEN,
			      "the ring the slow end went into is not frozen");
	KUNIT_EXPECT_FALSE_MSG(test, atomic_read(&first->stop) & FREC_RING_STOP_FROZEN,
			       "the site's first ring froze instead");
	f = filp_open(TRIG_FROZEN, O_RDONLY, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	KUNIT_ASSERT_GT(test, n, 0);
	buf[n] = '\0';
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "\nring: kunit_trigger_other\n"),
				  "frozen does not name the end's ring: %s", buf);
	KUNIT_EXPECT_EQ(test, trig_write(TRIG_FROZEN, "clear"), 5);
	frec_ring_destroy(other);
	frec_ring_destroy(first);
}

/* What trig_rearm_hook() writes to control, and where. */
static const char *trig_rearm_cmd;
static enum frec_trigger_hook trig_rearm_at;

/* Arm the site again inside a firing, as control on another CPU may. */
static void trig_rearm_hook(enum frec_trigger_hook where, struct frec_site *site)
{
	const char *cmd = trig_rearm_cmd;

	if (site != &trig_site || where != trig_rearm_at || !cmd)
		return;
	trig_rearm_cmd = NULL;
	trig_write(TRIG_CONTROL, cmd);
}

/*
 * A ring @name whose first record registers the site, the site armed with
 * @arm, and trig_rearm_hook() set to arm it with TRIG_ARM at @where.
 */
static struct frec_ring *trig_rearm_setup(struct kunit *test, const char *name,
					  const char *arm, enum frec_trigger_hook where)
{
	struct frec_ring *ring = frec_ring_create(name, FREC_RING_EVENTS, 4096, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	KUNIT_ASSERT_EQ(test, trig_record(ring), 0);
	KUNIT_ASSERT_EQ(test, trig_write(TRIG_CONTROL, arm), (ssize_t)strlen(arm));
	trig_rearm_cmd = TRIG_ARM;
	trig_rearm_at = where;
	frec_trigger_test_hook = trig_rearm_hook;
	return ring;
}

/*
 * A span end took the threshold trigger; before it dropped the site's
 * copy of the threshold, the site was armed again (the same words): the
 * copy must be the new arming's, so that the next slow span end, through
 * the record path, which tests only the copy, fires it.
 */
static void trigger_span_rearmed_while_firing(struct kunit *test)
{
	struct frec_ring *ring;
	int ret;

	ring = trig_rearm_setup(test, "kunit_trigger_rearm", TRIG_ARM,
				FREC_TRIGGER_HOOK_SPAN_TAKEN);
	KUNIT_EXPECT_TRUE(test, frec_trigger_span(&trig_site, ring, TRIG_SLOW_NS));
	frec_trigger_test_hook = NULL;
	KUNIT_EXPECT_NULL_MSG(test, trig_rearm_cmd, "the hook did not run");
	KUNIT_EXPECT_EQ_MSG(test, ~READ_ONCE(trig_site.span_threshold_inv), (u64)NSEC_PER_MSEC,
			    "armed again while firing, the site's copy is not the threshold");
	KUNIT_EXPECT_EQ(test, trig_write(TRIG_FROZEN, "clear"), 5);
	preempt_disable();
	ret = __frec_span_end(ring, &trig_site, _THIS_IP_, local_clock() - TRIG_SLOW_NS, 1, 0, 0);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, atomic_read(&ring->stop) & FREC_RING_STOP_FROZEN,
			      "the trigger armed again never fired on a slow span");
	KUNIT_EXPECT_EQ(test, trig_write(TRIG_FROZEN, "clear"), 5);
	KUNIT_EXPECT_EQ(test, trig_write(TRIG_CONTROL, "func trig_span_end -freeze"),
			(ssize_t)strlen("func trig_span_end -freeze"));
	frec_ring_destroy(ring);
}

/*
 * A record took a plain trigger's bit; before it read the trigger word,
 * the site was armed again with a threshold: the record must not fire
 * that (it is a span's), and the threshold fires once, on a slow span.
 */
static void trigger_claim_rearmed_with_threshold(struct kunit *test)
{
	static const char plain[] = "func trig_span_end freeze";
	struct frec_ring *ring;

	ring = trig_rearm_setup(test, "kunit_trigger_claim", plain, FREC_TRIGGER_HOOK_CLAIMED);
	/* Called as the record path would, but preemptible: the hook writes control. */
	KUNIT_EXPECT_EQ_MSG(test, frec_trigger_claim(&trig_site, ring), 0U,
			    "a record fired the threshold trigger armed meanwhile");
	frec_trigger_test_hook = NULL;
	KUNIT_EXPECT_NULL_MSG(test, trig_rearm_cmd, "the hook did not run");
	KUNIT_EXPECT_FALSE_MSG(test, atomic_read(&ring->stop) & FREC_RING_STOP_FROZEN,
			       "a record froze the ring for a threshold trigger");
	KUNIT_EXPECT_TRUE(test, frec_trigger_span(&trig_site, ring, TRIG_SLOW_NS));
	KUNIT_EXPECT_FALSE(test, frec_trigger_span(&trig_site, ring, TRIG_SLOW_NS));
	KUNIT_EXPECT_EQ(test, trig_write(TRIG_FROZEN, "clear"), 5);
	frec_ring_destroy(ring);
}

/* What trig_dump_hook() saw inside the trigger's dump. */
static struct {
	int calls;
	bool oops_dumped;
	int atomic_ret;
} trig_dump;

/*
 * Inside the trigger's dump, flag held and preemption off: an oops on
 * this CPU (or another) now asks for its dump, and so does a driver
 * calling frec_console_dump() from atomic context.
 */
static void trig_dump_hook(const char *reason)
{
	if (!str_has_prefix(reason, "trigger site") || trig_dump.calls++)
		return;
	trig_dump.oops_dumped = frec_crash_test_oops("kunit: an oops inside a trigger's dump");
	trig_dump.atomic_ret = frec_console_dump("kunit: atomic inside a trigger's dump");
}

/*
 * A dump trigger prints with preemption off, up to oops_bytes (seconds
 * on a serial console): an oops meanwhile must still print its dump,
 * which it did not while both shared one flag ("dump for oops skipped").
 * Dumps from atomic context still run one at a time.
 */
static void trigger_dump_leaves_oops_dump_free(struct kunit *test)
{
	static const char arm[] = "func trig_span_end dump";
	struct frec_ring *ring;

	ring = frec_ring_create("kunit_trigger_dump", FREC_RING_EVENTS, 4096, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	KUNIT_ASSERT_EQ(test, trig_record(ring), 0);
	KUNIT_ASSERT_EQ(test, trig_write(TRIG_CONTROL, arm), (ssize_t)strlen(arm));
	memset(&trig_dump, 0, sizeof(trig_dump));
	frec_crash_test_hook = trig_dump_hook;
	/* Fires the trigger: its dump, from the record path, preemption off. */
	KUNIT_EXPECT_EQ(test, trig_record(ring), 0);
	frec_crash_test_hook = NULL;
	KUNIT_ASSERT_EQ_MSG(test, trig_dump.calls, 1, "the trigger's dump did not run");
	KUNIT_EXPECT_TRUE_MSG(test, trig_dump.oops_dumped,
			      "an oops during a trigger's dump printed no dump of its own");
	KUNIT_EXPECT_EQ_MSG(test, trig_dump.atomic_ret, -EBUSY,
			    "two dumps from atomic context ran at once");
	/* Both flags were let go: each kind dumps again. */
	preempt_disable();
	KUNIT_EXPECT_EQ(test, frec_console_dump("kunit: atomic after"), 0);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, frec_crash_test_oops("kunit: an oops after"));
	frec_ring_destroy(ring);
}

static struct kunit_case frec_trigger_cases[] = {
	KUNIT_CASE(trigger_span_fires_once),
	KUNIT_CASE(trigger_span_freezes_the_end_ring),
	KUNIT_CASE(trigger_span_rearmed_while_firing),
	KUNIT_CASE(trigger_claim_rearmed_with_threshold),
	KUNIT_CASE(trigger_dump_leaves_oops_dump_free),
	{}
};

static struct kunit_suite frec_trigger_suite = {
	.name = "frec_trigger",
	.test_cases = frec_trigger_cases,
};

kunit_test_suite(frec_trigger_suite);
