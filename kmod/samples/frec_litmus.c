// SPDX-License-Identifier: GPL-2.0
/*
 * frec_litmus.c - does the merged order respect happens-before across
 * CPUs?  The causality litmus test of frec's order (doc/debugfs.md, "Order").
 *
 * Two kthreads, on CPU 0 and CPU 1, play ping-pong through two counters:
 *
 *   CPU 0, for i = 1..n:                 CPU 1, for i = 1..n:
 *     frec_record("a", i)                  wait until ping >= i (acquire)
 *     ping = i (release)                   frec_record("b", i)
 *     wait until pong >= i (acquire)       pong = i (release)
 *
 * so "a i" happens before "b i", and "b i" before "a i+1": both
 * directions, every pair.  After each round of pairs the module reads
 * frec/raw (the order dump shows, from the same merge engine) and counts
 * inversions: a "b i" before its "a i", an "a i+1" before "b i".  Rounds
 * cycle through the ring orders and IRQ writers asked for:
 *
 *   insmod frec_litmus.ko pairs=N [round=N] [orders=cpu,global] [irq_us=U]
 *
 * orders: which ring orders to test (a ring per round, created with or
 * without FREC_RING_GLOBAL_ORDER); irq_us: also record from a pinned
 * hard-IRQ hrtimer on both CPUs every U us (0: none; rounds alternate
 * with and without).  Results in /sys/module/frec_litmus/parameters/:
 * checked (pairs read back whole), inversions, lost (records of the
 * rounds not read back: a test must see 0, or no inversion counted means
 * nothing), rounds.  insmod returns when it is done.
 */
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_sample.h"

FREC_SAMPLE_PARAM(pairs, ulong, 100000, "ping-pong pairs in all");

static unsigned long round_pairs = 25000;
module_param_named(round, round_pairs, ulong, 0444);
MODULE_PARM_DESC(round, "pairs per round (each round a new ring, read back whole)");

static char *orders = "cpu,global";
module_param(orders, charp, 0444);
MODULE_PARM_DESC(orders, "ring orders to cycle through: cpu, global or both");

FREC_SAMPLE_PARAM(irq_us, uint, 0,
		  "hard-IRQ writers on both CPUs every irq_us us, every other round");

static unsigned long checked, inversions, lost, rounds;
module_param(checked, ulong, 0444);
module_param(inversions, ulong, 0444);
module_param(lost, ulong, 0444);
module_param(rounds, ulong, 0444);

/* The CPUs of the two players. */
#define LITMUS_CPU_A	0
#define LITMUS_CPU_B	1

static struct frec_ring *litmus_ring;
static unsigned long litmus_ping, litmus_pong, litmus_n, litmus_max_ticks;
static struct completion litmus_done[2];

struct litmus_irq {
	struct hrtimer timer;
	unsigned long ticks;
	bool on;
};

static struct litmus_irq litmus_irqs[2];

static enum hrtimer_restart litmus_tick(struct hrtimer *t)
{
	struct litmus_irq *li = container_of(t, struct litmus_irq, timer);

	frec_record(litmus_ring, "litmus %c %lu", 'i', ++li->ticks);
	/* A bounded number, so that the ring keeps every record of the round. */
	if (!READ_ONCE(li->on) || li->ticks >= litmus_max_ticks)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(irq_us * 1000ULL));
	return HRTIMER_RESTART;
}

/* Wait until *@p >= @i; acquire, so what preceded the store is seen. */
static void litmus_wait(unsigned long *p, unsigned long i)
{
	unsigned long spins = 0;

	/* Pairs with the player's release: its record is stored before. */
	while (smp_load_acquire(p) < i) {
		cpu_relax();
		/* The other player may be preempted: let it run. */
		if (!(++spins & 0xfff))
			cond_resched();
	}
}

static int litmus_player(void *data)
{
	long side = (long)data;
	unsigned long i;

	for (i = 1; i <= litmus_n; i++) {
		if (side == 0) {
			frec_record(litmus_ring, "litmus %c %lu", 'a', i);
			/* "a i" stored, then i published: pairs with litmus_wait(). */
			smp_store_release(&litmus_ping, i);
			litmus_wait(&litmus_pong, i);
		} else {
			litmus_wait(&litmus_ping, i);
			frec_record(litmus_ring, "litmus %c %lu", 'b', i);
			/* "b i" stored, then i published: pairs with litmus_wait(). */
			smp_store_release(&litmus_pong, i);
		}
		if (!(i & 1023))
			cond_resched();
	}
	complete(&litmus_done[side]);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void litmus_irq_start(void *unused)
{
	struct litmus_irq *li = &litmus_irqs[smp_processor_id()];

	li->on = true;
	li->ticks = 0;
	hrtimer_init(&li->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	li->timer.function = litmus_tick;
	hrtimer_start(&li->timer, ns_to_ktime(irq_us * 1000ULL), HRTIMER_MODE_REL_PINNED_HARD);
}

/* State of the check of one round's raw dump. */
struct litmus_check {
	u32 ring_id;
	bool have_ring;
	unsigned long max_a, max_b, n_a, n_b;
};

static void litmus_check_record(struct litmus_check *c, const struct frec_raw_record *r)
{
	unsigned long i = r->args[1];

	if (!c->have_ring || r->ring != c->ring_id)
		return;
	if (r->args[0] == 'a') {
		/* "a i" follows "b i-1". */
		if (i > 1 && c->max_b < i - 1)
			inversions++;
		c->max_a = max(c->max_a, i);
		c->n_a++;
	} else if (r->args[0] == 'b') {
		/* "b i" follows "a i". */
		if (c->max_a < i)
			inversions++;
		c->max_b = max(c->max_b, i);
		c->n_b++;
	}
}

/* Read frec/raw and check the round's records.  0, or a negative errno. */
static int litmus_check_raw(struct litmus_check *c)
{
	const size_t size = 256 * 1024;
	const struct frec_raw_entry_head *h;
	const struct frec_raw_ring *rr;
	size_t have = 0, at;
	bool header = false;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	char *buf;
	int err = 0;

	buf = vmalloc(size);
	if (!buf)
		return -ENOMEM;
	f = filp_open("/sys/kernel/debug/frec/raw", O_RDONLY, 0);
	if (IS_ERR(f)) {
		vfree(buf);
		return PTR_ERR(f);
	}
	for (;;) {
		n = kernel_read(f, buf + have, size - have, &pos);
		if (n < 0) {
			err = n;
			break;
		}
		have += n;
		at = 0;
		if (!header) {
			if (have < sizeof(struct frec_raw_header)) {
				err = n ? 0 : -EIO;
				if (err)
					break;
				continue;
			}
			if (((struct frec_raw_header *)buf)->version != FREC_RAW_VERSION) {
				err = -EPROTO;
				break;
			}
			header = true;
			at = sizeof(struct frec_raw_header);
		}
		while (have - at >= sizeof(*h)) {
			h = (const void *)(buf + at);
			if (h->bytes < sizeof(*h) || h->bytes > size) {
				err = -EPROTO;
				goto out;
			}
			if (have - at < h->bytes)
				break;
			if (h->type == FREC_RAW_RING) {
				rr = (const void *)h;
				if (!strcmp(rr->name, "litmus")) {
					c->ring_id = rr->id;
					c->have_ring = true;
				}
			} else if (h->type == FREC_RAW_EVENT) {
				litmus_check_record(c, (const void *)h);
			}
			at += h->bytes;
		}
		memmove(buf, buf + at, have - at);
		have -= at;
		if (!n)
			break;
	}
out:
	filp_close(f, NULL);
	vfree(buf);
	return err;
}

/* One round of @n pairs into a new ring; 0 or a negative errno. */
static int litmus_round(unsigned long n, bool global, bool irq)
{
	struct task_struct *t[2];
	struct litmus_check c = {};
	unsigned long bytes = 128;
	int err, side;

	/* Every record of the round fits: n per CPU, and the IRQs'. */
	while (bytes < (n + n / 4 + 1024) * FREC_SLOT_BYTES)
		bytes *= 2;
	litmus_ring = frec_ring_create("litmus", FREC_RING_EVENTS |
				       (global ? FREC_RING_GLOBAL_ORDER : 0), bytes, 0);
	if (IS_ERR(litmus_ring))
		return PTR_ERR(litmus_ring);
	litmus_ping = 0;
	litmus_pong = 0;
	litmus_n = n;
	litmus_max_ticks = n / 4;
	if (irq) {
		smp_call_function_single(LITMUS_CPU_A, litmus_irq_start, NULL, 1);
		smp_call_function_single(LITMUS_CPU_B, litmus_irq_start, NULL, 1);
	}
	for (side = 0; side < 2; side++) {
		init_completion(&litmus_done[side]);
		t[side] = kthread_create_on_cpu(litmus_player, (void *)(long)side,
						side ? LITMUS_CPU_B : LITMUS_CPU_A,
						"frec_litmus/%u");
		if (IS_ERR(t[side])) {
			err = PTR_ERR(t[side]);
			goto out;
		}
	}
	wake_up_process(t[0]);
	wake_up_process(t[1]);
	wait_for_completion(&litmus_done[0]);
	wait_for_completion(&litmus_done[1]);
	kthread_stop(t[0]);
	kthread_stop(t[1]);
	side = 0;	/* nothing left to stop */
	err = litmus_check_raw(&c);
	if (!err) {
		checked += min(c.n_a, c.n_b);
		lost += 2 * n - c.n_a - c.n_b;
	}
	rounds++;
out:
	/* Threads created before one failed: never woken, never ran. */
	while (side-- > 0)
		kthread_stop(t[side]);
	if (irq) {
		WRITE_ONCE(litmus_irqs[0].on, false);
		WRITE_ONCE(litmus_irqs[1].on, false);
		hrtimer_cancel(&litmus_irqs[0].timer);
		hrtimer_cancel(&litmus_irqs[1].timer);
	}
	frec_ring_destroy(litmus_ring);
	litmus_ring = NULL;
	return err;
}

static int __init frec_litmus_init(void)
{
	bool want_cpu = strstr(orders, "cpu"), want_global = strstr(orders, "global");
	unsigned long done = 0, n, r;
	bool global, irq;
	int err;

	if (!cpu_online(LITMUS_CPU_A) || !cpu_online(LITMUS_CPU_B)) {
		pr_err("frec_litmus: needs CPUs %d and %d online\n", LITMUS_CPU_A, LITMUS_CPU_B);
		return -ENODEV;
	}
	if (!want_cpu && !want_global) {
		pr_err("frec_litmus: bad orders '%s': want cpu, global or both\n", orders);
		return -EINVAL;
	}
	if (!round_pairs || !pairs) {
		pr_err("frec_litmus: pairs %lu and round %lu must be above 0\n",
		       pairs, round_pairs);
		return -EINVAL;
	}
	for (r = 0; done < pairs; r++) {
		n = min(round_pairs, pairs - done);
		/* cpu, global, cpu with IRQs, global with IRQs, ... */
		global = want_global && (!want_cpu || (r & 1));
		irq = irq_us && (r & (want_cpu && want_global ? 2 : 1));
		err = litmus_round(n, global, irq);
		if (err) {
			pr_err("frec_litmus: round %lu: %d\n", r, err);
			return err;
		}
		done += n;
	}
	pr_info("frec_litmus: %lu pairs in %lu rounds, %lu inversions, %lu records lost\n",
		checked, rounds, inversions, lost);
	return 0;
}

static void __exit frec_litmus_exit(void)
{
}

module_init(frec_litmus_init);
module_exit(frec_litmus_exit);

MODULE_DESCRIPTION("frec sample: causality litmus test of the merged order across CPUs");
MODULE_LICENSE("GPL");
