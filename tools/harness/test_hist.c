// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist.c - the latency histogram (kmod/lib/frec_hist.c) as tools/
 * compiles it: the case table a KUnit suite shares
 * (kunit/frec_hist_cases.h), then what only userspace checks cheaply:
 * the stated error over a million values against the exact percentiles
 * of a sorted copy, CPUs summed equal one histogram of all values, reset,
 * and a hammer: writer threads (each a simulated CPU) adding to their own
 * copies, a signal handler on each adding to the same copy in the middle
 * of the thread's adds (an NMI's stand-in), a reader summing and a
 * resetter resetting meanwhile.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness_test.h"
#include "sim_cpu.h"
#include "frec_hist_cases.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define HIST_RANDOM_VALUES	200000UL
#define HIST_HAMMER_ADDS	200000UL
#else
#define HIST_RANDOM_VALUES	1000000UL
#define HIST_HAMMER_ADDS	3000000UL
#endif
#define HIST_CPUS		8
/* Ten minutes, the least top of the range the layout promises. */
#define HIST_TEN_MINUTES	600000000000ULL

/* xorshift64: the same sequence on every run. */
static u64 rnd(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* Log-uniform per power of two, from 1 ns to ten minutes. */
static u64 rnd_ns(u64 *state)
{
	unsigned int e;
	u64 v;

	do {
		e = rnd(state) % 40;
		v = (1ULL << e) + (rnd(state) & ((1ULL << e) - 1));
	} while (v > HIST_TEN_MINUTES);
	return v;
}

/* A set of per-CPU copies, as struct frec_hist_cpus finds them. */
struct copies {
	struct frec_hist_cpu *cpu;
	unsigned int nr;
};

static struct frec_hist_cpu *copies_get(void *ctx, unsigned int cpu)
{
	struct copies *c = ctx;

	return cpu < c->nr ? &c->cpu[cpu] : NULL;
}

static void *zalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p)
		abort();
	return p;
}

/* Zeroed copies: an empty histogram needs nothing more. */
static struct frec_hist_cpu *copies_alloc(unsigned int nr)
{
	return zalloc(nr * sizeof(struct frec_hist_cpu));
}

static void cases_pass(struct ht_case *c)
{
	struct frec_hist_case_scratch *x = zalloc(sizeof(*x));
	char why[1200];
	size_t i;

	for (i = 0; i < sizeof(frec_hist_bucket_cases) / sizeof(frec_hist_bucket_cases[0]); i++)
		if (!frec_hist_bucket_case_run(&frec_hist_bucket_cases[i], why, sizeof(why)))
			ht_fail(c, __FILE__, __LINE__, "bucket case %zu: %s", i, why);
	if (!frec_hist_layout_check(why, sizeof(why)))
		ht_fail(c, __FILE__, __LINE__, "layout: %s", why);
	for (i = 0; frec_hist_text_cases[i].name; i++)
		if (!frec_hist_text_case_run(&frec_hist_text_cases[i], x, why, sizeof(why)))
			ht_fail(c, __FILE__, __LINE__, "text case %zu: %s", i, why);
	free(x);
}

/* Every index from 0 to U64_MAX by steps, never decreasing. */
static void index_never_decreases(struct ht_case *c)
{
	unsigned int prev = 0, i;
	u64 v, step;
	int bad = 0;

	for (v = 0, step = 1; v < U64_MAX - step && bad < 5; v += step) {
		i = frec_hist_index(v);
		if (i < prev || !frec_hist_case_holds(i, v)) {
			ht_fail(c, __FILE__, __LINE__, "%llu: bucket %u, previous %u",
				(unsigned long long)v, i, prev);
			bad++;
		}
		prev = i;
		/* every value to 2^20, then about 2^20 steps per power of two */
		if (v >= 1U << 20)
			step = v >> 20;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* |got - exact| <= exact / 32, as the layout promises. */
static bool within_error(u64 got, u64 exact)
{
	u64 d = got > exact ? got - exact : exact - got;

	return d * 32 <= exact;
}

/* What a read reports for a figure @v: its bucket's midpoint (frec_hist.c). */
static u64 reported(u64 v)
{
	unsigned int i = frec_hist_index(v);

	if (i == FREC_HIST_OVERFLOW)
		return FREC_HIST_TOP;
	return frec_hist_low(i) + (frec_hist_high(i) - frec_hist_low(i)) / 2;
}

/*
 * A million values log-uniform from 1 ns to ten minutes, spread over the
 * CPUs: count, sum and mean exact; min, max and every percentile the
 * bucket midpoint of the exact figure (nearest rank), within the stated
 * error of it; and every value's bucket midpoint within it of the value.
 */
static void percentiles_within_error(struct ht_case *c)
{
	unsigned long n = HIST_RANDOM_VALUES, i;
	u64 *v = malloc(n * sizeof(*v)), state = 0x9e3779b97f4a7c15ULL, sum = 0, rank, mid;
	struct copies cp = { copies_alloc(HIST_CPUS), HIST_CPUS };
	const struct frec_hist_cpus cpus = { copies_get, &cp, HIST_CPUS };
	struct frec_hist *h = zalloc(sizeof(*h));
	struct frec_hist_summary *s = zalloc(sizeof(*s));
	unsigned int p, b, worst_bad = 0;

	if (!v)
		abort();
	for (i = 0; i < n; i++) {
		v[i] = rnd_ns(&state);
		sum += v[i];
		frec_hist_add(&cp.cpu[rnd(&state) % HIST_CPUS], v[i]);
		b = frec_hist_index(v[i]);
		mid = frec_hist_low(b) + (frec_hist_high(b) - frec_hist_low(b)) / 2;
		if (!within_error(mid, v[i]) && worst_bad++ < 5)
			ht_fail(c, __FILE__, __LINE__, "%llu: bucket midpoint %llu",
				(unsigned long long)v[i], (unsigned long long)mid);
	}
	frec_hist_read(h, &cpus, s);
	qsort(v, n, sizeof(*v), cmp_u64);
	HT_EXPECT_EQ(c, s->count, n);
	HT_EXPECT(c, s->sum == sum, "sum %llu, expected %llu",
		  (unsigned long long)s->sum, (unsigned long long)sum);
	HT_EXPECT_EQ(c, s->min, reported(v[0]));
	HT_EXPECT(c, within_error(s->min, v[0]), "min %llu", (unsigned long long)s->min);
	HT_EXPECT_EQ(c, s->max, reported(v[n - 1]));
	HT_EXPECT(c, within_error(s->max, v[n - 1]), "max %llu", (unsigned long long)s->max);
	HT_EXPECT_EQ(c, s->mean, sum / n);
	for (p = 0; p < FREC_HIST_NR_PCT; p++) {
		rank = (n * frec_hist_pct[p] + 9999) / 10000;
		HT_EXPECT_EQ(c, s->pct[p], reported(v[rank - 1]));
		HT_EXPECT(c, within_error(s->pct[p], v[rank - 1]),
			  "percentile %u/10000: %llu, exact %llu", frec_hist_pct[p],
			  (unsigned long long)s->pct[p], (unsigned long long)v[rank - 1]);
		printf("# %u/10000: %llu, exact %llu\n", frec_hist_pct[p],
		       (unsigned long long)s->pct[p], (unsigned long long)v[rank - 1]);
	}
	free(s);
	free(h);
	free(cp.cpu);
	free(v);
}

/* Values spread over CPUs sum to what one CPU given them all holds. */
static void cpus_sum_to_one_histogram(struct ht_case *c)
{
	struct copies many = { copies_alloc(HIST_CPUS), HIST_CPUS };
	struct copies one = { copies_alloc(1), 1 };
	const struct frec_hist_cpus many_cpus = { copies_get, &many, HIST_CPUS };
	const struct frec_hist_cpus one_cpu = { copies_get, &one, 1 };
	struct frec_hist *hm = zalloc(sizeof(*hm)), *h1 = zalloc(sizeof(*h1));
	struct frec_hist_summary *sm = zalloc(sizeof(*sm)), *s1 = zalloc(sizeof(*s1));
	u64 state = 42, v;
	int round, i;

	/* Twice: once fresh, once after a reset of both. */
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 100000; i++) {
			v = rnd_ns(&state);
			frec_hist_add(&many.cpu[rnd(&state) % HIST_CPUS], v);
			frec_hist_add(&one.cpu[0], v);
		}
		frec_hist_read(hm, &many_cpus, sm);
		frec_hist_read(h1, &one_cpu, s1);
		HT_EXPECT(c, !memcmp(sm, s1, sizeof(*sm)), "round %d: summaries differ", round);
		HT_EXPECT(c, sm->count == 100000, "round %d: count %llu", round,
			  (unsigned long long)sm->count);
		frec_hist_reset(hm, &many_cpus);
		frec_hist_reset(h1, &one_cpu);
	}
	free(s1);
	free(sm);
	free(h1);
	free(hm);
	free(one.cpu);
	free(many.cpu);
}

/*
 * A reset forgets what came before, min and max included; reading twice
 * changes nothing; resets in a row with nothing added leave nothing; a
 * value from 2^40 ns up is counted in the last bucket and reported as
 * 2^40 ns.
 */
static void reset_forgets(struct ht_case *c)
{
	struct copies cp = { copies_alloc(2), 2 };
	const struct frec_hist_cpus cpus = { copies_get, &cp, 2 };
	struct frec_hist *h = zalloc(sizeof(*h));
	struct frec_hist_summary *s = zalloc(sizeof(*s)), *t = zalloc(sizeof(*t));
	unsigned int i;

	frec_hist_add(&cp.cpu[0], 3);
	frec_hist_add(&cp.cpu[1], 5000000);
	frec_hist_reset(h, &cpus);
	frec_hist_read(h, &cpus, s);
	HT_EXPECT_EQ(c, s->count, 0);
	HT_EXPECT_EQ(c, s->sum, 0);
	frec_hist_add(&cp.cpu[1], 700);
	frec_hist_add(&cp.cpu[0], 900);
	frec_hist_read(h, &cpus, s);
	frec_hist_read(h, &cpus, t);
	HT_EXPECT(c, !memcmp(s, t, sizeof(*s)), "two reads differ");
	HT_EXPECT_EQ(c, s->count, 2);
	HT_EXPECT_EQ(c, s->sum, 1600);
	/* [672, 704) and [896, 928) */
	HT_EXPECT_EQ(c, s->min, 688);
	HT_EXPECT_EQ(c, s->max, 912);

	for (i = 0; i < 3; i++)
		frec_hist_reset(h, &cpus);
	frec_hist_read(h, &cpus, s);
	HT_EXPECT_EQ(c, s->count, 0);
	frec_hist_add(&cp.cpu[1], 1000);
	frec_hist_add(&cp.cpu[0], FREC_HIST_TOP + 5);
	frec_hist_add(&cp.cpu[0], U64_MAX / 2);
	frec_hist_read(h, &cpus, s);
	HT_EXPECT_EQ(c, s->count, 3);
	HT_EXPECT_EQ(c, s->bucket[FREC_HIST_OVERFLOW], 2);
	HT_EXPECT_EQ(c, s->sum, 1000 + FREC_HIST_TOP + 5 + U64_MAX / 2);
	/* [992, 1024) */
	HT_EXPECT_EQ(c, s->min, 1008);
	HT_EXPECT_EQ(c, s->max, FREC_HIST_TOP);
	HT_EXPECT_EQ(c, s->pct[0], FREC_HIST_TOP);
	free(t);
	free(s);
	free(h);
	free(cp.cpu);
}

/* ---- hammer: writers, signal handlers, a reader, a resetter ---------- */

#define HAMMER_WRITERS	2

static struct {
	struct frec_hist *h;
	struct copies cp;
	struct frec_hist_cpus cpus;
	pthread_mutex_t lock;		/* reads against resets */
	bool resets;
	int stop;			/* writers done: reader, resetter, kicker stop */
	long begun, done;		/* adds started, adds finished */
	long reads, bad, resets_done, signals;
	/* per writer: adds, their sum, min, max (thread and handler) */
	u64 n[HAMMER_WRITERS], sum[HAMMER_WRITERS], min[HAMMER_WRITERS], max[HAMMER_WRITERS];
	pthread_t writer[HAMMER_WRITERS];
} hm;

/* What a writer thread, or its handler, added. */
struct tally {
	u64 n, sum, min, max, state;
};

/* Thread-local: the thread's, and its handler's. */
static _Thread_local struct tally my = { .min = U64_MAX }, sig = { .min = U64_MAX };

static u64 hammer_value(u64 *state)
{
	return 1 + (rnd(state) & ((1ULL << (rnd(state) % 36)) - 1));
}

static void hammer_add(struct tally *t)
{
	u64 v = hammer_value(&t->state);

	__atomic_fetch_add(&hm.begun, 1, __ATOMIC_SEQ_CST);
	frec_hist_add(&hm.cp.cpu[sim_cpu], v);
	__atomic_fetch_add(&hm.done, 1, __ATOMIC_SEQ_CST);
	t->n++;
	t->sum += v;
	t->min = min(t->min, v);
	t->max = max_t(u64, t->max, v);
}

/* The NMI: adds to the copy of the CPU it interrupted, mid-add. */
static void hammer_signal(int signo)
{
	int i;

	for (i = 0; i < 4; i++)
		hammer_add(&sig);
}

static void *hammer_writer(void *arg)
{
	int cpu = (int)(long)arg;
	sigset_t set;

	sim_set_cpu(cpu);
	my.state = 0x1234567ULL + cpu;
	sig.state = 0xabcdefULL + cpu;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	/* Until the handler has added too (the kicker runs meanwhile). */
	while (my.n < HIST_HAMMER_ADDS || sig.n < 400)
		hammer_add(&my);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	hm.n[cpu] = my.n + sig.n;
	hm.sum[cpu] = my.sum + sig.sum;
	hm.min[cpu] = min(my.min, sig.min);
	hm.max[cpu] = max_t(u64, my.max, sig.max);
	return NULL;
}

static void *hammer_kicker(void *arg)
{
	int k = 0;

	while (!__atomic_load_n(&hm.stop, __ATOMIC_ACQUIRE)) {
		pthread_kill(hm.writer[k++ % HAMMER_WRITERS], SIGUSR1);
		__atomic_fetch_add(&hm.signals, 1, __ATOMIC_RELAXED);
		usleep(20);
	}
	return NULL;
}

static void *hammer_resetter(void *arg)
{
	while (!__atomic_load_n(&hm.stop, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&hm.lock);
		frec_hist_reset(hm.h, &hm.cpus);
		pthread_mutex_unlock(&hm.lock);
		hm.resets_done++;
		usleep(200);
	}
	return NULL;
}

/*
 * What any read must show: counts no more than the adds begun, and (with
 * no reset) no fewer than those finished before it; min <= percentiles
 * <= max, percentiles in order; min and max inside the values' range.
 */
static void *hammer_reader(void *arg)
{
	struct frec_hist_summary *s = zalloc(sizeof(*s));
	struct ht_case *c = arg;
	long before, after;
	unsigned int p;
	bool ok;

	while (!__atomic_load_n(&hm.stop, __ATOMIC_ACQUIRE)) {
		before = __atomic_load_n(&hm.done, __ATOMIC_SEQ_CST);
		pthread_mutex_lock(&hm.lock);
		frec_hist_read(hm.h, &hm.cpus, s);
		pthread_mutex_unlock(&hm.lock);
		after = __atomic_load_n(&hm.begun, __ATOMIC_SEQ_CST);
		ok = s->count <= (u64)after && (hm.resets || s->count >= (u64)before);
		if (s->count) {
			ok = ok && s->min >= 1 && s->min <= s->max &&
			     s->max <= reported(1ULL << 35);
			for (p = 0; p < FREC_HIST_NR_PCT; p++)
				ok = ok && s->pct[p] >= s->min && s->pct[p] <= s->max &&
				     (!p || s->pct[p] >= s->pct[p - 1]);
		}
		if (!ok && hm.bad++ < 5)
			ht_fail(c, __FILE__, __LINE__,
				"read: count %llu (adds done before %ld, begun after %ld) min %llu p50 %llu p99.9 %llu max %llu",
				(unsigned long long)s->count, before, after,
				(unsigned long long)s->min, (unsigned long long)s->pct[0],
				(unsigned long long)s->pct[3], (unsigned long long)s->max);
		hm.reads++;
	}
	free(s);
	return NULL;
}

static void hammer(struct ht_case *c, bool resets)
{
	struct frec_hist_summary *s = zalloc(sizeof(*s)), *ref = zalloc(sizeof(*ref));
	struct copies one = { copies_alloc(1), 1 };
	const struct frec_hist_cpus one_cpu = { copies_get, &one, 1 };
	struct frec_hist *h1 = zalloc(sizeof(*h1));
	pthread_t reader, resetter, kicker;
	u64 n = 0, sum = 0, min = U64_MAX, max = 0, state = 7, v;
	struct sigaction sa;
	sigset_t set;
	long i;

	memset(&hm, 0, sizeof(hm));
	hm.h = zalloc(sizeof(*hm.h));
	hm.cp.cpu = copies_alloc(HAMMER_WRITERS);
	hm.cp.nr = HAMMER_WRITERS;
	hm.cpus = (struct frec_hist_cpus){ copies_get, &hm.cp, HAMMER_WRITERS };
	pthread_mutex_init(&hm.lock, NULL);
	hm.resets = resets;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = hammer_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	/* Only the writers take the signal, on their own CPU. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	for (i = 0; i < HAMMER_WRITERS; i++)
		pthread_create(&hm.writer[i], NULL, hammer_writer, (void *)i);
	pthread_create(&kicker, NULL, hammer_kicker, NULL);
	pthread_create(&reader, NULL, hammer_reader, c);
	if (resets)
		pthread_create(&resetter, NULL, hammer_resetter, NULL);
	for (i = 0; i < HAMMER_WRITERS; i++)
		pthread_join(hm.writer[i], NULL);
	__atomic_store_n(&hm.stop, 1, __ATOMIC_RELEASE);
	pthread_join(kicker, NULL);
	pthread_join(reader, NULL);
	if (resets)
		pthread_join(resetter, NULL);
	signal(SIGUSR1, SIG_DFL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);

	for (i = 0; i < HAMMER_WRITERS; i++) {
		n += hm.n[i];
		sum += hm.sum[i];
		min = min(min, hm.min[i]);
		max = max_t(u64, max, hm.max[i]);
	}
	printf("# %d writers%s: %llu adds, %ld signals, %ld reads, %ld resets\n",
	       HAMMER_WRITERS, resets ? ", resets" : "", (unsigned long long)n,
	       hm.signals, hm.reads, hm.resets_done);
	HT_EXPECT(c, n > HAMMER_WRITERS * HIST_HAMMER_ADDS, "no signal handler added");
	HT_EXPECT(c, hm.reads > 0, "no read ran");

	if (!resets) {
		/* Quiescent: every add counted, none torn or lost. */
		frec_hist_read(hm.h, &hm.cpus, s);
		HT_EXPECT(c, s->count == n, "count %llu, %llu added",
			  (unsigned long long)s->count, (unsigned long long)n);
		HT_EXPECT(c, s->sum == sum, "sum %llu, %llu added",
			  (unsigned long long)s->sum, (unsigned long long)sum);
		HT_EXPECT_EQ(c, s->min, reported(min));
		HT_EXPECT_EQ(c, s->max, reported(max));
	}

	/* Quiescent, then reset: exactly what is added after it counts. */
	frec_hist_reset(hm.h, &hm.cpus);
	for (i = 0; i < 10000; i++) {
		v = hammer_value(&state);
		sim_set_cpu(i % HAMMER_WRITERS);
		frec_hist_add(&hm.cp.cpu[i % HAMMER_WRITERS], v);
		frec_hist_add(&one.cpu[0], v);
	}
	sim_set_cpu(0);
	frec_hist_read(hm.h, &hm.cpus, s);
	frec_hist_read(h1, &one_cpu, ref);
	HT_EXPECT(c, !memcmp(s, ref, sizeof(*s)),
		  "after the last reset: count %llu min %llu max %llu sum %llu, expected %llu %llu %llu %llu",
		  (unsigned long long)s->count, (unsigned long long)s->min,
		  (unsigned long long)s->max, (unsigned long long)s->sum,
		  (unsigned long long)ref->count, (unsigned long long)ref->min,
		  (unsigned long long)ref->max, (unsigned long long)ref->sum);

	pthread_mutex_destroy(&hm.lock);
	free(hm.cp.cpu);
	free(hm.h);
	free(h1);
	free(one.cpu);
	free(ref);
	free(s);
}

static void hammer_no_reset(struct ht_case *c)
{
	hammer(c, false);
}

static void hammer_with_resets(struct ht_case *c)
{
	hammer(c, true);
}

int main(int argc, char **argv)
{
	struct ht_case cases[] = {
		HT_CASE(cases_pass),
		HT_CASE(index_never_decreases),
		HT_CASE(percentiles_within_error),
		HT_CASE(cpus_sum_to_one_histogram),
		HT_CASE(reset_forgets),
		HT_CASE(hammer_no_reset),
		HT_CASE(hammer_with_resets),
	};

	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
