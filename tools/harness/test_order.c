// SPDX-License-Identifier: GPL-2.0
/*
 * test_order.c - does the merged order of frec's rings respect causality?
 *
 * The litmus test of "Order" in kmod/lib/frec_rb.c, on the host's CPUs 0
 * and 1.  A producer thread records "a i" into its CPU's part of a ring,
 * then release-stores i to a flag; a consumer thread on the other CPU
 * spins (acquire) until the flag reaches i, then records "b i" into its
 * own part.  a i happens before b i, so a reader merging the parts
 * (kmod/lib/frec_merge.c) must never return b i before a i: such a pair
 * is an inversion.  Both directions run (producer on CPU 0, then on CPU 1),
 * since the merge breaks timestamp ties by CPU and a bias would hide in
 * one direction.
 *
 * The producer also waits for the consumer to have recorded b i - 1 before
 * it records a i.  The consumer is then already spinning when the flag
 * moves, and records b i a cache-line transfer after a i: the closest two
 * causally ordered records on two CPUs can be.  A free-running producer
 * would run ahead, and pairs microseconds apart prove nothing.
 *
 * Pairs run in rounds of ORDER_ROUND, each into a fresh ring large enough
 * to keep every record of the round; the round is read and checked once
 * its writers have stopped.
 *
 * Cases: per-CPU order with the default clock (CLOCK_MONOTONIC), with the
 * TSC read behind rmb() as the kernel's sched_clock() is, with hard-IRQ
 * writers (signals) recording into the same ring on both CPUs meanwhile,
 * and a FREC_RB_GLOBAL_ORDER ring merged by seq alone: none may show an
 * inversion.  A merge whose key ignores timestamps must show inversions:
 * the proof that the checker can fail.  The TSC read with no barrier is
 * only reported: whether it shows inversions depends on the machine; so
 * is a clock that ticks every 40 ns, where ties are common and the order
 * across CPUs within a tick is not guaranteed (a global-order ring under
 * that clock is judged).  Last, one CPU storing into two rings under a
 * clock that never moves: the merge must give its records in the order
 * it stored them.
 *
 * FREC_ORDER_PAIRS sets the pairs per direction (default 1000000, fewer
 * under the sanitizers, which are slow).
 */
/* pthread_setaffinity_np() and the CPU_SET macros. */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness_test.h"
#include "sim_cpu.h"
#include "frec_rb.h"
#include "frec_merge.h"

#if defined(__SANITIZE_THREAD__)
#define ORDER_DEFAULT_PAIRS	50000UL
#elif defined(__SANITIZE_ADDRESS__)
#define ORDER_DEFAULT_PAIRS	200000UL
#else
#define ORDER_DEFAULT_PAIRS	1000000UL
#endif

/* Pairs per round, and slots per CPU: a round's records plus IRQ ones. */
#define ORDER_ROUND		50000UL
#define ORDER_SLOTS		(1UL << 17)
/* IRQs a round raises, half on each CPU: one record each, all kept. */
#define ORDER_IRQS_MAX		((long)(ORDER_SLOTS - ORDER_ROUND))

/* The fmt word of each kind of record. */
enum order_kind { ORDER_A = 1, ORDER_B = 2, ORDER_IRQ = 3 };

/* What the check has read of pair i so far. */
#define ORDER_SEEN_A	0x1
#define ORDER_SEEN_B	0x2

struct order_opts {
	const char *what;
	enum frec_user_clock_kind clock;
	unsigned int flags;	/* frec_rb_init() flags */
	bool by_seq;		/* merge by seq alone (global-order ring) */
	bool zero_ts;		/* the wrong key: every timestamp 0 */
	bool irqs;		/* hard-IRQ writers on both CPUs */
};

/* The flags the two threads meet on, each on a cache line of its own. */
struct order_line {
	unsigned long v;
} __attribute__((aligned(SMP_CACHE_BYTES)));

static struct order_round {
	struct frec_rb ring;
	struct frec_rb_cpu part[2];
	struct frec_slot *slots[2];
	unsigned long base;	/* pairs base + 1 .. base + n */
	unsigned long n;
	int producer;		/* the CPU recording "a i" */
	struct order_line flag;	/* the last a i recorded */
	struct order_line ack;	/* the last b i recorded */
	int done;		/* threads finished */
	long write_errors;
	long irq_writes;
	bool unpinned;
} rnd;

static sigset_t irq_sigs;

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
	/* Unpinned, the other thread may share this CPU: let it run. */
	if (__atomic_load_n(&rnd.unpinned, __ATOMIC_RELAXED))
		sched_yield();
}

/* Spin until *@v reaches @i. */
static void wait_for(unsigned long *v, unsigned long i)
{
	/*
	 * Acquire, pairs with the release that stored @i: what the other
	 * thread recorded before happens before what this one records next.
	 */
	while (smp_load_acquire(v) < i)
		cpu_relax();
}

static void order_write(int cpu, enum order_kind kind, unsigned long i)
{
	unsigned long args[FREC_EVENT_MAX_ARGS] = { i, rnd.producer, 0, 0 };

	if (frec_rb_write_event(&rnd.ring, &rnd.part[cpu], kind, 0, args, NULL))
		__atomic_fetch_add(&rnd.write_errors, 1, __ATOMIC_RELAXED);
}

/* A hard IRQ on the interrupted thread's CPU: a writer nested in it. */
static void order_irq(int sig)
{
	order_write(raw_smp_processor_id(), ORDER_IRQ,
		    __atomic_add_fetch(&rnd.irq_writes, 1, __ATOMIC_RELAXED));
}

static void *order_cpu(void *arg)
{
	int cpu = (int)(long)arg;
	unsigned long i;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		__atomic_store_n(&rnd.unpinned, true, __ATOMIC_RELAXED);
	sim_set_cpu(cpu);
	/* The last case's clock may have counted from higher values. */
	frec_rb_test_forget_stamp();
	/* Interrupts on: only once this thread is "on" its CPU. */
	pthread_sigmask(SIG_UNBLOCK, &irq_sigs, NULL);
	for (i = rnd.base + 1; i <= rnd.base + rnd.n; i++) {
		if (cpu == rnd.producer) {
			wait_for(&rnd.ack.v, i - 1);
			order_write(cpu, ORDER_A, i);
			/* a i before the flag; pairs with the consumer's wait_for(). */
			smp_store_release(&rnd.flag.v, i);
		} else {
			wait_for(&rnd.flag.v, i);
			order_write(cpu, ORDER_B, i);
			/* b i before the ack; pairs with the producer's wait_for(). */
			smp_store_release(&rnd.ack.v, i);
		}
	}
	pthread_sigmask(SIG_BLOCK, &irq_sigs, NULL);
	__atomic_fetch_add(&rnd.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Figures of one direction, over its rounds. */
struct order_figures {
	unsigned long pairs;
	unsigned long inversions;
	unsigned long irqs;
	long long closest;	/* smallest ts(b i) - ts(a i), < 0 if b went first */
	unsigned long bad;	/* records missing, doubled or misplaced */
};

/* The state of a read: the merge and each source's next record. */
struct order_read {
	struct frec_merge m;
	struct frec_merge_item items[2];
	struct frec_rb_cursor cur[2];
	struct frec_rb_entry ent[2];
};

/* Read @cpu's next record and push its key, if there is one. */
static void order_pull(struct order_read *r, const struct order_opts *o, int cpu)
{
	struct frec_merge_key key;

	if (!frec_rb_cursor_next(&rnd.ring, &rnd.part[cpu], &r->cur[cpu], &r->ent[cpu],
				 NULL, 0))
		return;
	key.ts = o->zero_ts ? 0 : r->ent[cpu].ts;
	key.seq = r->ent[cpu].seq;
	key.cpu = cpu;
	key.ring = 0;
	frec_merge_push(&r->m, cpu, &key);
}

/* Note the timestamps of a pair, b i's less a i's. */
static void order_gap(struct order_figures *f, u64 gap)
{
	if ((long long)gap < f->closest)
		f->closest = gap;
}

/* Merge the round's two parts as a reader does and count inversions. */
static void order_check(struct ht_case *c, const struct order_opts *o,
			struct order_figures *f, u64 *ts_first, u8 *seen)
{
	/* ts_first[i]: the timestamp of the record of pair i read first. */
	unsigned long nr_a = 0, nr_b = 0, idx;
	const struct frec_rb_entry *e;
	struct order_read r;
	unsigned int cpu;

	memset(seen, 0, rnd.n);
	frec_merge_init(&r.m, r.items, 2, o->by_seq);
	for (cpu = 0; cpu < 2; cpu++) {
		frec_rb_cursor_init(&rnd.ring, &rnd.part[cpu], &r.cur[cpu]);
		order_pull(&r, o, cpu);
	}
	while (frec_merge_pop(&r.m, &cpu)) {
		e = &r.ent[cpu];
		/* Records of this round only, each once, on the right CPU. */
		idx = e->args[0] - rnd.base - 1;
		switch (e->site) {
		case ORDER_A:
			if (idx >= rnd.n || (seen[idx] & ORDER_SEEN_A) ||
			    (int)cpu != rnd.producer) {
				f->bad++;
				break;
			}
			if (seen[idx] & ORDER_SEEN_B)
				order_gap(f, ts_first[idx] - e->ts);
			else
				ts_first[idx] = e->ts;
			seen[idx] |= ORDER_SEEN_A;
			nr_a++;
			break;
		case ORDER_B:
			if (idx >= rnd.n || (seen[idx] & ORDER_SEEN_B) ||
			    (int)cpu == rnd.producer) {
				f->bad++;
				break;
			}
			if (seen[idx] & ORDER_SEEN_A) {
				order_gap(f, e->ts - ts_first[idx]);
			} else {
				f->inversions++;
				ts_first[idx] = e->ts;
			}
			seen[idx] |= ORDER_SEEN_B;
			nr_b++;
			break;
		case ORDER_IRQ:
			f->irqs++;
			break;
		default:
			f->bad++;
		}
		order_pull(&r, o, cpu);
	}
	HT_EXPECT(c, nr_a == rnd.n && nr_b == rnd.n,
		  "round at %lu: read %lu a and %lu b of %lu pairs", rnd.base, nr_a, nr_b,
		  rnd.n);
	for (cpu = 0; cpu < 2; cpu++) {
		HT_EXPECT_EQ(c, r.cur[cpu].raced, 0);
		HT_EXPECT_EQ(c, local_read(&rnd.part[cpu].overwritten), 0);
	}
	f->pairs += rnd.n;
}

static unsigned long order_pairs(void)
{
	const char *s = getenv("FREC_ORDER_PAIRS");

	return s ? strtoul(s, NULL, 0) : ORDER_DEFAULT_PAIRS;
}

/* Run one round: pairs base + 1 .. base + n, producer on @producer. */
static void order_round(struct ht_case *c, const struct order_opts *o,
			struct order_figures *f, int producer, unsigned long base,
			unsigned long n, u64 *ts_first, u8 *seen)
{
	pthread_t th[2];
	long cpu, k;

	HT_EXPECT_EQ(c, frec_rb_init(&rnd.ring, ORDER_SLOTS, 0, o->flags), 0);
	for (cpu = 0; cpu < 2; cpu++)
		frec_rb_cpu_init(&rnd.part[cpu], rnd.slots[cpu], &rnd.ring);
	rnd.base = base;
	rnd.n = n;
	rnd.producer = producer;
	rnd.flag.v = base;
	rnd.ack.v = base;
	rnd.done = 0;
	for (cpu = 0; cpu < 2; cpu++)
		pthread_create(&th[cpu], NULL, order_cpu, (void *)cpu);
	/*
	 * This thread is the interrupt controller, raising IRQs on both CPUs:
	 * at most ORDER_IRQS_MAX a round, so that a CPU's records of a round
	 * and its IRQs' fit its slots even when the host starves the writers
	 * (a TSan run on a loaded machine stored 111609 IRQ records on one
	 * CPU in a round, overwrote 7982 of the round's and counted their
	 * absence as inversions).
	 */
	for (k = 0; o->irqs && k < ORDER_IRQS_MAX &&
	     __atomic_load_n(&rnd.done, __ATOMIC_ACQUIRE) < 2; k++) {
		pthread_kill(th[k & 1], SIGUSR1);
		usleep(20);
	}
	for (cpu = 0; cpu < 2; cpu++)
		pthread_join(th[cpu], NULL);
	order_check(c, o, f, ts_first, seen);
}

/*
 * Run the litmus in both directions under @o; returns the inversions
 * found.  Checks every record was kept and read; the caller judges the
 * inversions.
 */
static unsigned long order_run(struct ht_case *c, const struct order_opts *o)
{
	unsigned long pairs = order_pairs(), base, n, total = 0;
	struct order_figures f;
	struct sigaction sa;
	u8 *seen = malloc(ORDER_ROUND);
	u64 *ts_first = malloc(ORDER_ROUND * sizeof(*ts_first));
	int producer, cpu;

	if (!seen || !ts_first)
		abort();
	for (cpu = 0; cpu < 2; cpu++) {
		rnd.slots[cpu] = aligned_alloc(SMP_CACHE_BYTES,
					       ORDER_SLOTS * sizeof(struct frec_slot));
		if (!rnd.slots[cpu])
			abort();
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = order_irq;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	/* Threads start with the IRQ blocked; they unblock it on their CPU. */
	sigemptyset(&irq_sigs);
	sigaddset(&irq_sigs, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &irq_sigs, NULL);
	rnd.unpinned = false;
	rnd.write_errors = 0;
	rnd.irq_writes = 0;
	frec_user_clock = o->clock;

	for (producer = 0; producer < 2; producer++) {
		memset(&f, 0, sizeof(f));
		f.closest = LLONG_MAX;
		for (base = 0; base < pairs; base += n) {
			n = min(pairs - base, ORDER_ROUND);
			order_round(c, o, &f, producer, base, n, ts_first, seen);
		}
		printf("# %s: cpu %d -> cpu %d: %lu pairs, %lu inversions",
		       o->what, producer, !producer, f.pairs, f.inversions);
		if (o->irqs)
			printf(", %lu irq records", f.irqs);
		if (!o->by_seq && !o->zero_ts && f.closest != LLONG_MAX)
			printf(", closest pair %lld %s apart", f.closest,
			       o->clock == FREC_USER_CLOCK_TSC ||
			       o->clock == FREC_USER_CLOCK_TSC_UNORDERED ? "cycles" : "ns");
		printf("\n");
		HT_EXPECT_EQ(c, f.bad, 0);
		total += f.inversions;
	}

	frec_user_clock = FREC_USER_CLOCK_MONOTONIC;
	if (rnd.unpinned)
		printf("# %s: could not pin the threads to CPUs 0 and 1: ran unpinned\n",
		       o->what);
	HT_EXPECT_EQ(c, rnd.write_errors, 0);
	if (o->irqs)
		HT_EXPECT(c, rnd.irq_writes > 0, "no IRQ writer ran");
	signal(SIGUSR1, SIG_DFL);
	pthread_sigmask(SIG_UNBLOCK, &irq_sigs, NULL);
	for (cpu = 0; cpu < 2; cpu++)
		free(rnd.slots[cpu]);
	free(ts_first);
	free(seen);
	return total;
}

static void per_cpu_order_default_clock(struct ht_case *c)
{
	static const struct order_opts o = {
		.what = "per-CPU order, default clock",
		.clock = FREC_USER_CLOCK_MONOTONIC,
	};

	HT_EXPECT_EQ(c, order_run(c, &o), 0);
}

static void per_cpu_order_tsc(struct ht_case *c)
{
	static const struct order_opts o = {
		.what = "per-CPU order, TSC behind rmb()",
		.clock = FREC_USER_CLOCK_TSC,
	};

	HT_EXPECT_EQ(c, order_run(c, &o), 0);
}

static void per_cpu_order_with_irq_writers(struct ht_case *c)
{
	static const struct order_opts o = {
		.what = "per-CPU order, default clock, IRQ writers",
		.clock = FREC_USER_CLOCK_MONOTONIC,
		.irqs = true,
	};

	HT_EXPECT_EQ(c, order_run(c, &o), 0);
}

static void global_order(struct ht_case *c)
{
	static const struct order_opts o = {
		.what = "global order, merged by seq",
		.clock = FREC_USER_CLOCK_MONOTONIC,
		.flags = FREC_RB_GLOBAL_ORDER,
		.by_seq = true,
	};

	HT_EXPECT_EQ(c, order_run(c, &o), 0);
}

/*
 * The checker must be able to fail: merged by (CPU, seq) alone, CPU 0's
 * records all come first, so with the producer on CPU 1 every b i comes
 * before its a i.
 */
static void wrong_key_finds_inversions(struct ht_case *c)
{
	static const struct order_opts o = {
		.what = "wrong key (timestamps ignored)",
		.clock = FREC_USER_CLOCK_MONOTONIC,
		.zero_ts = true,
	};
	unsigned long inversions = order_run(c, &o);

	HT_EXPECT(c, inversions > 0, "a merge ignoring timestamps found no inversion");
}

/* Run the litmus under @o and print the inversions, never judged. */
static void order_report(struct ht_case *c, const struct order_opts *o,
			 const char *what)
{
	printf("# %s: %lu inversions in all (not a failure)\n", what, order_run(c, o));
}

/*
 * A plain RDTSC may execute before the flag load completes and so stamp
 * b i before a i.  Whether it does here depends on the CPU: reported,
 * never judged.
 */
static void tsc_unordered_reported(struct ht_case *c)
{
	static const struct order_opts o = {
		.what = "per-CPU order, TSC with no rmb() (reported only)",
		.clock = FREC_USER_CLOCK_TSC_UNORDERED,
	};

	order_report(c, &o, "TSC with no rmb()");
}

/*
 * A clock that ticks every 40 ns, as arm64's counter may.  Where a pair's
 * records fall in one tick (a machine that moves a cache line faster than
 * that), the order across CPUs is that of (timestamp, CPU): what frec
 * guarantees across CPUs holds only for records more than a tick (and the
 * raise) apart ("Order" in kmod/lib/frec_rb.c).  Reported, never judged.
 */
static void coarse_clock_reported(struct ht_case *c)
{
	static const struct order_opts o = {
		.what = "per-CPU order, 40 ns clock (reported only)",
		.clock = FREC_USER_CLOCK_COARSE,
	};

	order_report(c, &o, "40 ns clock");
}

/* The same clock, a global-order ring: its seq orders, not the clock. */
static void coarse_clock_global_order(struct ht_case *c)
{
	static const struct order_opts o = {
		.what = "global order, 40 ns clock, merged by seq",
		.clock = FREC_USER_CLOCK_COARSE,
		.flags = FREC_RB_GLOBAL_ORDER,
		.by_seq = true,
	};

	HT_EXPECT_EQ(c, order_run(c, &o), 0);
}

/* Two rings of 64 slots with their parts, for the cases of one CPU below. */
struct one_cpu_rings {
	struct frec_slot *slots[2];
	struct frec_rb_cpu part[2];
	struct frec_rb ring[2];
};

static void one_cpu_rings_init(struct ht_case *c, struct one_cpu_rings *r)
{
	int i;

	for (i = 0; i < 2; i++) {
		r->slots[i] = aligned_alloc(SMP_CACHE_BYTES, 64 * sizeof(struct frec_slot));
		if (!r->slots[i])
			abort();
		HT_EXPECT_EQ(c, frec_rb_init(&r->ring[i], 64, 0, 0), 0);
		frec_rb_cpu_init(&r->part[i], r->slots[i], &r->ring[i]);
	}
	sim_set_cpu(0);
	frec_rb_test_forget_stamp();
}

/*
 * Merge the two rings CPU 0 stored @nr records into, record i with i as
 * its first argument: they must come back in that order, each timestamp
 * above the one before.  Frees the rings' slots.
 */
static void one_cpu_rings_check(struct ht_case *c, struct one_cpu_rings *r, int nr)
{
	struct frec_merge_item items[2];
	struct frec_rb_cursor cur[2];
	struct frec_rb_entry ent[2];
	struct frec_merge_key key;
	struct frec_merge m;
	unsigned int src;
	u64 last_ts = 0;
	int i, n = 0;

	frec_merge_init(&m, items, 2, false);
	for (i = 0; i < 2; i++) {
		frec_rb_cursor_init(&r->ring[i], &r->part[i], &cur[i]);
		if (frec_rb_cursor_next(&r->ring[i], &r->part[i], &cur[i], &ent[i], NULL, 0)) {
			key = (struct frec_merge_key){ ent[i].ts, ent[i].seq, 0, i };
			frec_merge_push(&m, i, &key);
		}
	}
	while (frec_merge_pop(&m, &src)) {
		HT_EXPECT(c, ent[src].args[0] == (unsigned long)n,
			  "merged record %d is stored record %lu (ring %u, seq %llu, ts %llu)",
			  n, ent[src].args[0], src, (unsigned long long)ent[src].seq,
			  (unsigned long long)ent[src].ts);
		HT_EXPECT(c, n == 0 || ent[src].ts > last_ts,
			  "merged record %d: timestamp %llu after %llu", n,
			  (unsigned long long)ent[src].ts, (unsigned long long)last_ts);
		last_ts = ent[src].ts;
		n++;
		if (frec_rb_cursor_next(&r->ring[src], &r->part[src], &cur[src], &ent[src],
					NULL, 0)) {
			key = (struct frec_merge_key){ ent[src].ts, ent[src].seq, 0, src };
			frec_merge_push(&m, src, &key);
		}
	}
	HT_EXPECT_EQ(c, n, nr);
	for (i = 0; i < 2; i++)
		free(r->slots[i]);
}

/*
 * One CPU, two rings, a clock that returns one value: every timestamp
 * ties.  The merge must still give the records in the order the CPU
 * stored them, whatever the rings' seqs (ring 0 is ahead: it stored 5
 * records before ring 1 stored its first).
 */
#define TIE_RECORDS	12

static void ties_on_one_cpu_keep_store_order(struct ht_case *c)
{
	static const int ring_of[TIE_RECORDS] = { 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0 };
	unsigned long args[FREC_EVENT_MAX_ARGS] = { 0 };
	struct one_cpu_rings r;
	int i;

	frec_user_clock = FREC_USER_CLOCK_FROZEN;
	frec_user_clock_frozen = 1000;
	one_cpu_rings_init(c, &r);
	for (i = 0; i < TIE_RECORDS; i++) {
		args[0] = i;
		HT_EXPECT_EQ(c, frec_rb_write_event(&r.ring[ring_of[i]], &r.part[ring_of[i]],
						    1, 0, args, NULL), 0);
	}
	frec_user_clock = FREC_USER_CLOCK_MONOTONIC;
	one_cpu_rings_check(c, &r, TIE_RECORDS);
}

/*
 * A record reads its clock before anything else of the write
 * (frec_record.c), so an interrupt's writer can take a later clock value
 * and store first: the interrupted record then reserves with a clock
 * value below the CPU's last timestamp.  Its timestamp must still go
 * above that one (frec_rb_stamp()'s raise), so that one CPU's records
 * never tie and come in the order the CPU stored them, into one ring or
 * two.  The calls pass the clock values such nesting leaves: ring 0's
 * record at 5000 (the interrupt's), then records whose reads gave 1000
 * and 4999 (the interrupted ones, into the other ring and the same one).
 */
#define STALE_RECORDS	5

static void stale_clock_read_after_nested_writer(struct ht_case *c)
{
	static const struct {
		int ring;
		u64 now;
	} rec[STALE_RECORDS] = {
		{ 0, 5000 }, { 1, 1000 }, { 0, 1000 }, { 1, 4999 }, { 0, 6000 },
	};
	unsigned long args[FREC_EVENT_MAX_ARGS] = { 0 };
	struct one_cpu_rings r;
	u64 ts, last_ts = 0;
	int i;

	one_cpu_rings_init(c, &r);
	for (i = 0; i < STALE_RECORDS; i++) {
		args[0] = i;
		ts = 0;
		HT_EXPECT_EQ(c, frec_rb_write_event_since(&r.ring[rec[i].ring],
							  &r.part[rec[i].ring], rec[i].now, 1,
							  0, args, false, 0, NULL, &ts), 0);
		HT_EXPECT(c, ts > last_ts && ts >= rec[i].now,
			  "record %d (clock %llu): timestamp %llu, the CPU's last %llu", i,
			  (unsigned long long)rec[i].now, (unsigned long long)ts,
			  (unsigned long long)last_ts);
		last_ts = ts;
	}
	one_cpu_rings_check(c, &r, STALE_RECORDS);
}

static struct ht_case cases[] = {
	HT_CASE(per_cpu_order_default_clock),
	HT_CASE(per_cpu_order_tsc),
	HT_CASE(per_cpu_order_with_irq_writers),
	HT_CASE(global_order),
	HT_CASE(wrong_key_finds_inversions),
	HT_CASE(tsc_unordered_reported),
	HT_CASE(coarse_clock_reported),
	HT_CASE(coarse_clock_global_order),
	HT_CASE(ties_on_one_cpu_keep_store_order),
	HT_CASE(stale_clock_read_after_nested_writer),
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# %lu pairs per direction, rounds of %lu, %lu slots per CPU\n",
	       order_pairs(), ORDER_ROUND, ORDER_SLOTS);
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
