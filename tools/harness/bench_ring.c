// SPDX-License-Identifier: GPL-2.0
/*
 * bench_ring.c - what a record costs in the ring core, natively.
 *
 * Each row runs R times (FREC_BENCH_REPS, default 5), each time once with
 * 1 writer thread and once with 2, pinned to CPUs 0 and 1 (each thread a
 * CPU with its own part of the ring, as in the kernel).  It prints the
 * min/median/max of the ns per record of 1 thread, the min/median/max of
 * the aggregate rate of 2 threads, and the scaling: the median 2-thread
 * rate over the median 1-thread rate (2.00x when the CPUs share nothing).
 *
 * Rows: fixed-size events and short variable-size records, in per-CPU
 * order and again in strict order (FREC_RB_GLOBAL_ORDER: one counter all
 * CPUs share); events stamped by the TSC with and without the rmb() that
 * orders the clock read (what the ordering costs, kmod/lib/frec_rb.c,
 * "Order"); and a counter shared by the threads against one per thread,
 * the cost of the shared counter by itself.
 *
 * The ring has frec's default size, 64 KiB per CPU (1024 slots), so the
 * writes wrap the ring as they do in use; FREC_BENCH_SLOTS changes it.
 * A benchmark: it prints figures and never fails.
 *
 *   bench_ring [iterations per thread, default 20000000] [csv file]
 */
/* pthread_setaffinity_np() and the CPU_SET macros. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_cpu.h"
#include "frec_rb.h"

#define MSG	"moved disk 3 from peg A to peg C"

/* frec's default ring: 64 KiB per CPU. */
#define BENCH_DEFAULT_SLOTS	(65536 / sizeof(struct frec_slot))
#define BENCH_MAX_REPS		101

enum bench_kind { BENCH_EVENT, BENCH_RECORD, BENCH_SHARED_SEQ, BENCH_PRIVATE_SEQ };

static const struct bench_row {
	const char *what;			/* no comma: a CSV field */
	enum bench_kind kind;
	unsigned int flags;			/* frec_rb_init() flags */
	enum frec_user_clock_kind clock;	/* the records' clock */
} rows[] = {
	{ "event (4 args)", BENCH_EVENT, 0, FREC_USER_CLOCK_MONOTONIC },
	{ "record (32 bytes)", BENCH_RECORD, 0, FREC_USER_CLOCK_MONOTONIC },
	{ "event strict order", BENCH_EVENT, FREC_RB_GLOBAL_ORDER,
	  FREC_USER_CLOCK_MONOTONIC },
	{ "record strict order", BENCH_RECORD, FREC_RB_GLOBAL_ORDER,
	  FREC_USER_CLOCK_MONOTONIC },
	{ "event TSC no rmb", BENCH_EVENT, 0, FREC_USER_CLOCK_TSC_UNORDERED },
	{ "event TSC + rmb", BENCH_EVENT, 0, FREC_USER_CLOCK_TSC },
	{ "shared seq counter", BENCH_SHARED_SEQ, 0, FREC_USER_CLOCK_MONOTONIC },
	{ "private counter", BENCH_PRIVATE_SEQ, 0, FREC_USER_CLOCK_MONOTONIC },
};

#define NR_ROWS	(sizeof(rows) / sizeof(rows[0]))

static struct frec_rb ring;
/*
 * Each CPU's part on cache lines of its own, as per-CPU data are in the
 * kernel; adjacent parts would share a line and measure false sharing.
 */
static struct bench_part {
	struct frec_rb_cpu rc;
} __attribute__((aligned(128))) part_store[2];
#define parts(i)	(part_store[i].rc)
static atomic64_t shared_seq;
static long iterations;
static unsigned long nr_slots;
static bool unpinned;

struct bench_thread {
	int cpu;
	const struct bench_row *row;
	u64 t0, t1;
	pthread_barrier_t *start;
	atomic64_t private_seq ____cacheline_aligned;
};

/*
 * Wall time, whatever clock the records take: under the TSC rows
 * local_clock() counts cycles.
 */
static u64 bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static void *bench_thread(void *arg)
{
	struct bench_thread *b = arg;
	unsigned long args[FREC_EVENT_MAX_ARGS] = { 1, 2, 3, 4 };
	struct frec_rb_cpu *rc = &parts(b->cpu);
	cpu_set_t set;
	long i;

	CPU_ZERO(&set);
	CPU_SET(b->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		__atomic_store_n(&unpinned, true, __ATOMIC_RELAXED);
	sim_set_cpu(b->cpu);
	/* A row's clock may count from lower values than the last row's. */
	frec_rb_test_forget_stamp();
	pthread_barrier_wait(b->start);
	b->t0 = bench_now();
	switch (b->row->kind) {
	case BENCH_EVENT:
		for (i = 0; i < iterations; i++)
			frec_rb_write_event(&ring, rc, 0x1000, 0x2000, args, NULL);
		break;
	case BENCH_RECORD:
		for (i = 0; i < iterations; i++)
			frec_rb_write_record(&ring, rc, 0, 0x2000, MSG, sizeof(MSG) - 1, NULL);
		break;
	case BENCH_SHARED_SEQ:
		for (i = 0; i < iterations; i++)
			atomic64_inc_return(&shared_seq);
		break;
	case BENCH_PRIVATE_SEQ:
		for (i = 0; i < iterations; i++)
			atomic64_inc_return(&b->private_seq);
		break;
	}
	b->t1 = bench_now();
	return NULL;
}

/*
 * Run @threads threads of @row; returns the aggregate rate in Mops/s: all
 * their operations over the time from the first start to the last end,
 * so that a thread finishing early does not flatter the pair.
 */
static double bench(const struct bench_row *row, int threads)
{
	struct bench_thread b[2];
	pthread_barrier_t start;
	pthread_t th[2];
	u64 t0 = U64_MAX, t1 = 0;
	int i;

	frec_rb_init(&ring, nr_slots, row->kind == BENCH_RECORD ? 256 : 0, row->flags);
	for (i = 0; i < 2; i++) {
		struct frec_slot *s = aligned_alloc(64, ring.nr_slots * sizeof(*s));

		if (!s)
			abort();
		frec_rb_cpu_init(&parts(i), s, &ring);
	}
	frec_user_clock = row->clock;
	pthread_barrier_init(&start, NULL, threads);
	for (i = 0; i < threads; i++) {
		memset(&b[i], 0, sizeof(b[i]));
		b[i].cpu = i;
		b[i].row = row;
		b[i].start = &start;
		pthread_create(&th[i], NULL, bench_thread, &b[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		t0 = min(t0, b[i].t0);
		t1 = b[i].t1 > t1 ? b[i].t1 : t1;
	}
	frec_user_clock = FREC_USER_CLOCK_MONOTONIC;
	pthread_barrier_destroy(&start);
	for (i = 0; i < 2; i++)
		free(parts(i).slots);
	return (double)iterations * threads / (t1 - t0) * 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @v in place; the middle value (the mean of the two, for even @n). */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long env_long(const char *name, long def, long lo, long hi)
{
	const char *s = getenv(name);
	long v = s ? atol(s) : def;

	return v < lo ? lo : v > hi ? hi : v;
}

int main(int argc, char **argv)
{
	double ns1[BENCH_MAX_REPS], mops1[BENCH_MAX_REPS], mops2[BENCH_MAX_REPS];
	double med_ns1, med_mops1, med_mops2, fence = 0, no_fence = 0;
	FILE *csv = NULL;
	unsigned int k;
	int reps, r;

	iterations = argc > 1 ? atol(argv[1]) : 20000000;
	reps = env_long("FREC_BENCH_REPS", 5, 1, BENCH_MAX_REPS);
	nr_slots = env_long("FREC_BENCH_SLOTS", BENCH_DEFAULT_SLOTS, 2, 1L << 24);
	if (nr_slots & (nr_slots - 1)) {
		fprintf(stderr, "FREC_BENCH_SLOTS=%lu: not a power of two\n", nr_slots);
		return 1;
	}
	if (argc > 2) {
		csv = fopen(argv[2], "w");
		if (!csv) {
			perror(argv[2]);
			return 1;
		}
		fprintf(csv, "what,slots,iterations,reps,ns_1_min,ns_1_median,ns_1_max,"
			"mops_1_median,mops_2_min,mops_2_median,mops_2_max,scaling\n");
	}
	printf("ring core, native, %ld iterations per thread, min/median/max of %d runs\n",
	       iterations, reps);
	printf("ring of %lu slots per CPU (%lu KiB)%s; threads pinned to CPUs 0 and 1\n",
	       nr_slots, nr_slots * sizeof(struct frec_slot) / 1024,
	       nr_slots == BENCH_DEFAULT_SLOTS ? ", frec's default" : "");
	printf("%-22s %26s %26s\n", "", "ns/record, 1 thread", "Mrec/s, 2 threads (sum)");
	printf("%-22s %8s %8s %8s %8s %8s %8s %8s\n", "what", "min", "median", "max",
	       "min", "median", "max", "scaling");
	for (k = 0; k < NR_ROWS; k++) {
		/* 1 and 2 threads alternate, so that drift hits both alike. */
		for (r = 0; r < reps; r++) {
			mops1[r] = bench(&rows[k], 1);
			ns1[r] = 1e3 / mops1[r];
			mops2[r] = bench(&rows[k], 2);
		}
		med_ns1 = median(ns1, reps);
		med_mops1 = median(mops1, reps);
		med_mops2 = median(mops2, reps);
		printf("%-22s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %7.2fx\n", rows[k].what,
		       ns1[0], med_ns1, ns1[reps - 1], mops2[0], med_mops2, mops2[reps - 1],
		       med_mops2 / med_mops1);
		if (csv)
			fprintf(csv, "%s,%lu,%ld,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f\n",
				rows[k].what, nr_slots, iterations, reps, ns1[0], med_ns1,
				ns1[reps - 1], med_mops1, mops2[0], med_mops2, mops2[reps - 1],
				med_mops2 / med_mops1);
		if (rows[k].clock == FREC_USER_CLOCK_TSC)
			fence = med_ns1;
		else if (rows[k].clock == FREC_USER_CLOCK_TSC_UNORDERED)
			no_fence = med_ns1;
	}
	printf("the rmb() before the TSC read costs %.1f ns/record (medians, 1 thread)\n",
	       fence - no_fence);
	if (unpinned)
		printf("could not pin the threads to CPUs 0 and 1: figures are unpinned\n");
	if (csv)
		fclose(csv);
	return 0;
}
