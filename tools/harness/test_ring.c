// SPDX-License-Identifier: GPL-2.0
/*
 * test_ring.c - the ring core (kmod/lib/frec_rb.c) under real threads.
 *
 * The single-threaded cases are kunit/frec_rb_cases.h, shared with the
 * KUnit suite; this file gives them rings, writers and a writer that dies
 * mid-write, the userspace way, and adds a simulated NMI on a kernel whose
 * cmpxchg is not NMI-safe.  The stress cases run N writer threads, each a simulated
 * CPU, interrupted by signal handlers that write too (the userspace analog
 * of an IRQ, and of an NMI nested in it), while reader threads validate
 * every record they see: a checksum of (writer, counter), counters that
 * only go forward per writer, seq increasing per CPU.  When the writers
 * stop, the counts must reconcile exactly:
 *   written == readable + overwritten + dropped
 *
 * FREC_STRESS_MS sets how long each stress case runs (default 300).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness_test.h"
#include "sim_cpu.h"
#include "frec_caller_word.h"
#include "frec_rb.h"
#include "frec_ring_testdata.h"

#define MAX_CPUS	16

/* What the shared cases (kunit/frec_rb_cases.h) need of the harness. */
#define RBC_TEST			struct ht_case
#define RBC_EXPECT(test, cond, ...)	HT_EXPECT(test, cond, __VA_ARGS__)
#define RBC_EXPECT_EQ(test, a, b)	HT_EXPECT_EQ(test, a, b)
#define RBC_CASE_T			struct ht_case
#define RBC_CASE(fn)			HT_CASE(fn)
#include "frec_rb_cases.h"

static struct rbc_ring *rbc_ring_new(struct ht_case *c, int nr_cpus,
				     unsigned long nr_slots,
				     unsigned int max_len, bool stop_when_full)
{
	struct rbc_ring *t = calloc(1, sizeof(*t));
	int i, err;

	if (!t)
		abort();
	err = frec_rb_init(&t->ring, nr_slots, max_len,
			   stop_when_full ? FREC_RB_STOP_WHEN_FULL : 0);
	HT_EXPECT(c, !err, "frec_rb_init(%lu, %u, %d): %d", nr_slots, max_len,
		  stop_when_full, err);
	if (err) {
		free(t);
		return NULL;
	}
	t->nr_cpus = nr_cpus;
	t->cpu = calloc(nr_cpus, sizeof(*t->cpu));
	if (!t->cpu)
		abort();
	for (i = 0; i < nr_cpus; i++) {
		struct frec_slot *s = aligned_alloc(64, nr_slots * sizeof(*s));

		if (!s)
			abort();
		frec_rb_cpu_init(&t->cpu[i], s, &t->ring);
	}
	return t;
}

static void rbc_ring_free(struct ht_case *c, struct rbc_ring *t)
{
	int i;

	for (i = 0; i < t->nr_cpus; i++)
		free(t->cpu[i].slots);
	free(t->cpu);
	free(t);
}

/*
 * A test thread is its simulated CPU's task, and the signal handlers that
 * interrupt it are its interrupts: a writer needs nothing around it.
 */
static void rbc_writer_enter(void)
{
}

static void rbc_writer_exit(void)
{
}

/* A writer that dies inside its write, as an oops kills its task. */
static jmp_buf die_jmp;
static enum frec_rb_hook die_at;

static void die_hook(enum frec_rb_hook where)
{
	if (where == die_at)
		longjmp(die_jmp, 1);
}

static void rbc_write_and_die(struct ht_case *c, struct rbc_ring *t,
			      enum frec_rb_hook at)
{
	die_at = at;
	frec_rb_test_hook = die_hook;
	if (!setjmp(die_jmp))
		rbc_event(t, 1, 0, 1);
	frec_rb_test_hook = NULL;
}

/*
 * Where cmpxchg is not NMI-safe (the kernel's ARCH_HAVE_NMI_SAFE_CMPXCHG
 * unset), a write from NMI context is refused before it touches the head,
 * and counted; elsewhere, and outside NMI, writes go on as usual.
 */
static void nmi_writes_are_refused_where_cmpxchg_is_not_nmi_safe(struct ht_case *c)
{
	struct rbc_ring *t = rbc_ring_new(c, 1, 8, 100, false);

	if (!t)
		return;
	frec_user_nmi_unsafe = true;
	frec_user_in_nmi = true;
	HT_EXPECT_EQ(c, rbc_record(t, 0, 0, "nmi", 3), -ENOSPC);
	HT_EXPECT_EQ(c, local_read(&t->cpu[0].dropped[FREC_DROP_NMI]), 1);
	HT_EXPECT_EQ(c, local_read(&t->cpu[0].written), 1);
	HT_EXPECT_EQ(c, local_read(&t->cpu[0].nest), 0);
	HT_EXPECT_EQ(c, local_read(&t->cpu[0].head), 0);
	frec_user_in_nmi = false;
	HT_EXPECT_EQ(c, rbc_record(t, 0, 0, "task", 4), 0);
	frec_user_nmi_unsafe = false;
	frec_user_in_nmi = true;
	HT_EXPECT_EQ(c, rbc_record(t, 0, 0, "nmi", 3), 0);
	frec_user_in_nmi = false;
	HT_EXPECT_EQ(c, rbc_read(t, 0, NULL, NULL, 8), 2);
	HT_EXPECT_EQ(c, local_read(&t->cpu[0].written), 3);
	rbc_ring_free(c, t);
}

/* ---- stress: writer threads, signal-handler nesting, readers --------- */

struct stress {
	struct rbc_ring *t;
	unsigned int max_len;	/* 0: event ring */
	int burst;		/* writes per signal */
	int stop_writers;
	int stop_readers;
	long bad;		/* records failing validation */
	long reads;		/* records validated */
	long signals;
};

static struct stress *st;
static _Thread_local unsigned long level_counter[FREC_TEST_LEVELS];

static void stress_write(enum frec_test_level level)
{
	int cpu = raw_smp_processor_id();
	unsigned long w = frec_test_writer(cpu, level), n = ++level_counter[level];

	if (st->max_len) {
		u8 p[256];
		unsigned int len = frec_test_payload(p, st->max_len, w, n);

		frec_rb_write_record(&st->t->ring, &st->t->cpu[cpu], w,
				     frec_caller_word(n, FREC_CALLER_BASE, 0), p, len, NULL);
	} else {
		unsigned long args[FREC_EVENT_MAX_ARGS];

		frec_test_args(args, cpu, w, n);
		frec_rb_write_event(&st->t->ring, &st->t->cpu[cpu], w,
				    frec_caller_word(n, FREC_CALLER_BASE, 0), args, NULL);
	}
}

static void stress_signal(int sig)
{
	int i;

	for (i = 0; i < st->burst; i++)
		stress_write(sig == SIGUSR1 ? FREC_TEST_IRQ : FREC_TEST_NMI);
}

static sigset_t stress_sigs;

static void *stress_writer(void *arg)
{
	/* Interrupts on: only once this thread is "on" its CPU. */
	sim_set_cpu((int)(long)arg);
	pthread_sigmask(SIG_UNBLOCK, &stress_sigs, NULL);
	while (!__atomic_load_n(&st->stop_writers, __ATOMIC_RELAXED))
		stress_write(FREC_TEST_TASK);
	return NULL;
}

static void *stress_reader(void *arg)
{
	unsigned long last[MAX_CPUS * FREC_TEST_LEVELS];
	struct frec_rb_cursor cur;
	struct frec_rb_entry e;
	unsigned char buf[256];
	int cpu;

	(void)arg;
	while (!__atomic_load_n(&st->stop_readers, __ATOMIC_RELAXED)) {
		memset(last, 0, sizeof(last));
		for (cpu = 0; cpu < st->t->nr_cpus; cpu++) {
			u64 last_seq = 0, last_ts = 0;

			frec_rb_cursor_init(&st->t->ring, &st->t->cpu[cpu], &cur);
			while (frec_rb_cursor_next(&st->t->ring, &st->t->cpu[cpu],
						   &cur, &e, buf, sizeof(buf))) {
				bool valid = frec_test_valid(&e, cpu, st->max_len);
				/* A CPU's timestamps strictly increase with position. */
				bool ordered = e.ts > last_ts && e.seq != last_seq;
				/* Per writer, counters only go forward. */
				bool forward = valid && e.caller > last[e.site];

				if ((!valid || !ordered || !forward) &&
				    __atomic_fetch_add(&st->bad, 1, __ATOMIC_RELAXED) < 5)
					printf("# bad record: cpu %d pos %lu seq %llu (last %llu) writer %lu counter %lu (last %lu): %s\n",
					       cpu, cur.pos, (unsigned long long)e.seq,
					       (unsigned long long)last_seq, e.site, (unsigned long)e.caller,
					       valid ? last[e.site] : 0,
					       !valid ? "checksum" : !ordered ? "timestamp order" :
					       "counter went back");
				if (valid)
					last[e.site] = e.caller;
				last_seq = e.seq;
				last_ts = e.ts;
				__atomic_fetch_add(&st->reads, 1, __ATOMIC_RELAXED);
			}
		}
	}
	return NULL;
}

static int stress_ms(void)
{
	const char *s = getenv("FREC_STRESS_MS");

	return s ? atoi(s) : 300;
}

static void run_stress(struct ht_case *c, int writers, bool records,
		       unsigned long nr_slots, int burst)
{
	pthread_t wt[MAX_CPUS], rt[2];
	struct sigaction sa;
	long deadline, i, lap = 0, written = 0;
	struct stress s;
	int cpu;

	memset(&s, 0, sizeof(s));
	s.max_len = records ? 200 : 0;
	s.t = rbc_ring_new(c, writers, nr_slots, s.max_len, false);
	if (!s.t)
		return;
	s.burst = burst;
	st = &s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stress_signal;
	sigemptyset(&sa.sa_mask);
	/* The "IRQ" handler can be interrupted by the "NMI" one, not itself. */
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	/* Threads start with both blocked; writers unblock them. */
	sigemptyset(&stress_sigs);
	sigaddset(&stress_sigs, SIGUSR1);
	sigaddset(&stress_sigs, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &stress_sigs, NULL);

	for (cpu = 0; cpu < writers; cpu++)
		pthread_create(&wt[cpu], NULL, stress_writer, (void *)(long)cpu);
	for (i = 0; i < 2; i++)
		pthread_create(&rt[i], NULL, stress_reader, NULL);

	/* This thread is the interrupt controller. */
	deadline = (long)(local_clock() / 1000000) + stress_ms();
	for (i = 0; (long)(local_clock() / 1000000) < deadline; i++) {
		pthread_kill(wt[i % writers], (i & 3) == 3 ? SIGUSR2 : SIGUSR1);
		s.signals++;
		usleep(50);
	}
	__atomic_store_n(&s.stop_writers, 1, __ATOMIC_RELAXED);
	for (cpu = 0; cpu < writers; cpu++)
		pthread_join(wt[cpu], NULL);
	__atomic_store_n(&s.stop_readers, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		pthread_join(rt[i], NULL);

	for (cpu = 0; cpu < writers; cpu++) {
		lap += local_read(&s.t->cpu[cpu].dropped[FREC_DROP_LAP]);
		written += local_read(&s.t->cpu[cpu].written);
	}
	printf("# %d writers, %s, %lu slots/cpu, burst %d: %ld signals, %ld written, %ld lap drops, %ld records validated, %ld bad\n",
	       writers, records ? "records" : "events", nr_slots, burst,
	       s.signals, written, lap, s.reads, s.bad);
	HT_EXPECT_EQ(c, s.bad, 0);
	HT_EXPECT(c, s.reads > 0, "readers validated nothing");
	for (cpu = 0; cpu < writers; cpu++)
		HT_EXPECT_EQ(c, local_read(&s.t->cpu[cpu].nest), 0);
	rbc_expect_reconciled(c, s.t);
	rbc_ring_free(c, s.t);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	pthread_sigmask(SIG_UNBLOCK, &stress_sigs, NULL);
}

static void stress_events_2_writers(struct ht_case *c)
{
	run_stress(c, 2, false, 256, 1);
}

static void stress_events_4_writers(struct ht_case *c)
{
	run_stress(c, 4, false, 256, 1);
}

static void stress_events_16_writers(struct ht_case *c)
{
	run_stress(c, 16, false, 256, 1);
}

static void stress_records_2_writers(struct ht_case *c)
{
	run_stress(c, 2, true, 512, 1);
}

static void stress_records_4_writers(struct ht_case *c)
{
	run_stress(c, 4, true, 512, 1);
}

static void stress_records_16_writers(struct ht_case *c)
{
	run_stress(c, 16, true, 512, 1);
}

static void stress_tiny_ring_nested_bursts(struct ht_case *c)
{
	/* Bursts of 12 per signal into 8 slots: nested writers hit the lap
	 * rule, and readers race with overwrites all the time.
	 */
	run_stress(c, 2, false, 8, 12);
	run_stress(c, 2, true, 16, 12);
}

static struct ht_case cases[] = {
	HT_CASE(nmi_writes_are_refused_where_cmpxchg_is_not_nmi_safe),
	HT_CASE(stress_events_2_writers),
	HT_CASE(stress_events_4_writers),
	HT_CASE(stress_events_16_writers),
	HT_CASE(stress_records_2_writers),
	HT_CASE(stress_records_4_writers),
	HT_CASE(stress_records_16_writers),
	HT_CASE(stress_tiny_ring_nested_bursts),
};

int main(int argc, char **argv)
{
	/* The shared cases (less the {} that ends them), then this file's. */
	size_t nr_shared = sizeof(frec_rb_cases) / sizeof(frec_rb_cases[0]) - 1;
	size_t nr = sizeof(cases) / sizeof(cases[0]);
	struct ht_case all[nr_shared + nr];

	memcpy(all, frec_rb_cases, nr_shared * sizeof(all[0]));
	memcpy(all + nr_shared, cases, sizeof(cases));
	setvbuf(stdout, NULL, _IOLBF, 0);
	return ht_main(argc, argv, all, nr_shared + nr);
}
