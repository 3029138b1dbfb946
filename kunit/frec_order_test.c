// SPDX-License-Identifier: GPL-2.0
/*
 * frec_order_test.c - KUnit: the merged order respects happens-before
 * across CPUs (kmod/lib/frec_rb.c, "Order").
 *
 * The causality litmus test on the ring core and the merge engine alone
 * (both compiled into this module, frec_rb_core.c and frec_merge_core.c):
 * two kthreads on CPU 0 and CPU 1 play ping-pong,
 *
 *   CPU 0, for i = 1..n:                 CPU 1, for i = 1..n:
 *     write "a i" into its part            wait until ping >= i (acquire)
 *     ping = i (release)                   write "b i" into its part
 *     wait until pong >= i (acquire)       pong = i (release)
 *
 * while a pinned hard-IRQ hrtimer on each CPU writes into the same ring.
 * After each round both parts are read and merged as frec's readers merge
 * them, and every "b i" must come after "a i", every "a i+1" after "b i".
 * Cases: per-CPU order, global order (merged by seq), and the proof that
 * the check can fail: the same rounds merged with every timestamp taken
 * as 0 must show inversions.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>

#include "frec_merge.h"
#include "frec_rb.h"

static unsigned long order_pairs = 1000000;
module_param(order_pairs, ulong, 0444);
MODULE_PARM_DESC(order_pairs, "ping-pong pairs per litmus case");

#define ORDER_ROUND	25000		/* pairs per round */
#define ORDER_SLOTS	65536		/* slots per CPU: a round and its IRQs */
#define ORDER_IRQ_NS	(200 * NSEC_PER_USEC)
#define ORDER_MAX_TICKS	(ORDER_ROUND / 4)

enum order_side { ORDER_A = 1, ORDER_B, ORDER_IRQ };

struct order_irq {
	struct hrtimer timer;
	unsigned long ticks;
};

struct order_run {
	struct frec_rb ring;
	struct frec_rb_cpu cpu[2];
	unsigned long ping, pong, n;
	struct completion done[2];
	struct order_irq irq[2];
	bool irq_on;
};

static struct order_run *order_run;

static void order_write(struct order_run *r, unsigned long side, unsigned long i)
{
	unsigned long args[FREC_EVENT_MAX_ARGS] = { side, i };

	preempt_disable();
	frec_rb_write_event(&r->ring, &r->cpu[smp_processor_id()], 0, side, args, NULL);
	preempt_enable();
}

static enum hrtimer_restart order_tick(struct hrtimer *t)
{
	struct order_irq *oi = container_of(t, struct order_irq, timer);
	struct order_run *r = order_run;

	order_write(r, ORDER_IRQ, ++oi->ticks);
	if (!READ_ONCE(r->irq_on) || oi->ticks >= ORDER_MAX_TICKS)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(ORDER_IRQ_NS));
	return HRTIMER_RESTART;
}

static void order_irq_start(void *data)
{
	struct order_irq *oi = &order_run->irq[smp_processor_id()];

	oi->ticks = 0;
	hrtimer_init(&oi->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	oi->timer.function = order_tick;
	hrtimer_start(&oi->timer, ns_to_ktime(ORDER_IRQ_NS), HRTIMER_MODE_REL_PINNED_HARD);
}

static void order_wait(unsigned long *p, unsigned long i)
{
	unsigned long spins = 0;

	/* Pairs with the player's release: its record is stored before. */
	while (smp_load_acquire(p) < i) {
		cpu_relax();
		if (!(++spins & 0xfff))
			cond_resched();
	}
}

static int order_player(void *data)
{
	struct order_run *r = order_run;
	long side = (long)data;
	unsigned long i;

	for (i = 1; i <= r->n; i++) {
		if (!side) {
			order_write(r, ORDER_A, i);
			/* "a i" stored, then i published: pairs with order_wait(). */
			smp_store_release(&r->ping, i);
			order_wait(&r->pong, i);
		} else {
			order_wait(&r->ping, i);
			order_write(r, ORDER_B, i);
			/* "b i" stored, then i published: pairs with order_wait(). */
			smp_store_release(&r->pong, i);
		}
		if (!(i & 1023))
			cond_resched();
	}
	complete(&r->done[side]);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Merge both parts as frec's readers do (by timestamp, or by seq for a
 * global-order ring; with every timestamp taken as 0 if @ignore_ts) and
 * count inversions and records of the players.
 */
static void order_check(struct order_run *r, bool ignore_ts, unsigned long *inversions,
			unsigned long *seen)
{
	struct frec_merge_item items[2];
	struct frec_rb_cursor cur[2];
	struct frec_rb_entry ent[2];
	unsigned long max_a = 0, max_b = 0, i;
	struct frec_merge_key key;
	struct frec_merge m;
	unsigned int c;

	frec_merge_init(&m, items, 2, r->ring.global_order);
	for (c = 0; c < 2; c++) {
		frec_rb_cursor_init(&r->ring, &r->cpu[c], &cur[c]);
		if (!frec_rb_cursor_next(&r->ring, &r->cpu[c], &cur[c], &ent[c], NULL, 0))
			continue;
		key = (struct frec_merge_key) {
			.ts = ignore_ts ? 0 : ent[c].ts, .seq = ent[c].seq, .cpu = c,
		};
		frec_merge_push(&m, c, &key);
	}
	while (frec_merge_pop(&m, &c)) {
		i = ent[c].args[1];
		if (ent[c].args[0] == ORDER_A) {
			*inversions += i > 1 && max_b < i - 1;
			max_a = max(max_a, i);
			(*seen)++;
		} else if (ent[c].args[0] == ORDER_B) {
			*inversions += max_a < i;
			max_b = max(max_b, i);
			(*seen)++;
		}
		if (!frec_rb_cursor_next(&r->ring, &r->cpu[c], &cur[c], &ent[c], NULL, 0))
			continue;
		key = (struct frec_merge_key) {
			.ts = ignore_ts ? 0 : ent[c].ts, .seq = ent[c].seq, .cpu = c,
		};
		frec_merge_push(&m, c, &key);
	}
}

/* Rounds of ping-pong; returns inversions, expecting all records seen. */
static unsigned long order_litmus(struct kunit *test, unsigned int flags, bool ignore_ts)
{
	struct task_struct *t[2];
	unsigned long inversions = 0, seen, done, n;
	struct order_run *r;
	int side, c;

	KUNIT_ASSERT_TRUE_MSG(test, cpu_online(0) && cpu_online(1), "needs CPUs 0 and 1");
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, frec_rb_init(&r->ring, ORDER_SLOTS, 0, flags), 0);
	for (c = 0; c < 2; c++) {
		struct frec_slot *slots = vmalloc(array_size(ORDER_SLOTS, sizeof(*slots)));

		if (!slots) {
			if (c)
				vfree(r->cpu[0].slots);
			KUNIT_ASSERT_NOT_NULL(test, slots);
		}
		r->cpu[c].slots = slots;
	}
	order_run = r;
	for (done = 0; done < order_pairs; done += n) {
		n = min_t(unsigned long, ORDER_ROUND, order_pairs - done);
		for (c = 0; c < 2; c++)
			frec_rb_cpu_init(&r->cpu[c], r->cpu[c].slots, &r->ring);
		r->ping = 0;
		r->pong = 0;
		r->n = n;
		WRITE_ONCE(r->irq_on, true);
		smp_call_function_single(0, order_irq_start, NULL, 1);
		smp_call_function_single(1, order_irq_start, NULL, 1);
		for (side = 0; side < 2; side++) {
			init_completion(&r->done[side]);
			t[side] = kthread_create_on_cpu(order_player, (void *)(long)side, side,
							"frec_order/%u");
		}
		if (!IS_ERR(t[0]) && !IS_ERR(t[1])) {
			wake_up_process(t[0]);
			wake_up_process(t[1]);
			wait_for_completion(&r->done[0]);
			wait_for_completion(&r->done[1]);
		}
		for (side = 0; side < 2; side++)
			if (!IS_ERR(t[side]))
				kthread_stop(t[side]);
		WRITE_ONCE(r->irq_on, false);
		hrtimer_cancel(&r->irq[0].timer);
		hrtimer_cancel(&r->irq[1].timer);
		if (IS_ERR(t[0]) || IS_ERR(t[1]))
			break;
		seen = 0;
		order_check(r, ignore_ts, &inversions, &seen);
		KUNIT_EXPECT_EQ_MSG(test, seen, 2 * n, "round at pair %lu: records lost", done);
	}
	order_run = NULL;
	vfree(r->cpu[0].slots);
	vfree(r->cpu[1].slots);
	KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(t[0]) || IS_ERR(t[1]), "no player thread");
	kunit_info(test, "%lu pairs, %lu inversions%s\n", done, inversions,
		   ignore_ts ? " (timestamps ignored)" : "");
	return inversions;
}

static void order_litmus_per_cpu(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, order_litmus(test, 0, false), 0);
}

static void order_litmus_global(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, order_litmus(test, FREC_RB_GLOBAL_ORDER, false), 0);
}

/* The check can fail: a merge that ignores timestamps breaks causality. */
static void order_litmus_ignoring_time_fails(struct kunit *test)
{
	unsigned long saved = order_pairs;

	order_pairs = min(order_pairs, 100000UL);
	KUNIT_EXPECT_GT(test, order_litmus(test, 0, true), 0);
	order_pairs = saved;
}

static struct kunit_case frec_order_cases[] = {
	KUNIT_CASE(order_litmus_per_cpu),
	KUNIT_CASE(order_litmus_global),
	KUNIT_CASE(order_litmus_ignoring_time_fails),
	{}
};

static struct kunit_suite frec_order_suite = {
	.name = "frec_order",
	.test_cases = frec_order_cases,
};

kunit_test_suites(&frec_order_suite);
