// SPDX-License-Identifier: GPL-2.0
/*
 * bench_ring.c - what a record costs in the ring core, natively.
 *
 * Prints ns per record for 1 and 2 writer threads (each thread a CPU with
 * its own part of the ring, as in the kernel), for fixed-size events and
 * for short variable-size records, with the aggregate rate so that scaling
 * from 1 to 2 threads shows; and what the one shared sequence counter
 * costs by itself when 1 or 2 threads take from it, against a counter per
 * thread.  A benchmark: it prints figures and never fails.
 *
 *   bench_ring [iterations per thread, default 20000000] [csv file]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_cpu.h"
#include "frec_rb.h"

#define MSG	"moved disk 3 from peg A to peg C"

enum bench_kind { BENCH_EVENT, BENCH_RECORD, BENCH_SHARED_SEQ, BENCH_PRIVATE_SEQ };

static const char * const kind_name[] = {
	"event (4 args)", "record (32 bytes)", "shared seq counter", "private counter",
};

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

struct bench_thread {
	int cpu;
	enum bench_kind kind;
	u64 ns;
	pthread_barrier_t *start;
	atomic64_t private_seq ____cacheline_aligned;
};

static void *bench_thread(void *arg)
{
	struct bench_thread *b = arg;
	unsigned long args[FREC_EVENT_MAX_ARGS] = { 1, 2, 3, 4 };
	struct frec_rb_cpu *rc = &parts(b->cpu);
	u64 t0;
	long i;

	sim_set_cpu(b->cpu);
	pthread_barrier_wait(b->start);
	t0 = local_clock();
	switch (b->kind) {
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
	b->ns = local_clock() - t0;
	return NULL;
}

/* Run @threads threads of @kind; returns mean ns per operation per thread. */
static double bench(enum bench_kind kind, int threads, double *agg_mops)
{
	struct bench_thread b[2];
	pthread_barrier_t start;
	pthread_t th[2];
	double ns = 0, ops_per_ns = 0;
	int i;

	frec_rb_init(&ring, 1 << 16, kind == BENCH_RECORD ? 256 : 0, 0);
	for (i = 0; i < 2; i++) {
		struct frec_slot *s = aligned_alloc(64, ring.nr_slots * sizeof(*s));

		if (!s)
			abort();
		frec_rb_cpu_init(&parts(i), s, &ring);
	}
	pthread_barrier_init(&start, NULL, threads);
	for (i = 0; i < threads; i++) {
		memset(&b[i], 0, sizeof(b[i]));
		b[i].cpu = i;
		b[i].kind = kind;
		b[i].start = &start;
		pthread_create(&th[i], NULL, bench_thread, &b[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		ns += (double)b[i].ns / iterations;
		ops_per_ns += (double)iterations / b[i].ns;
	}
	pthread_barrier_destroy(&start);
	for (i = 0; i < 2; i++)
		free(parts(i).slots);
	*agg_mops = ops_per_ns * 1e3;
	return ns / threads;
}

int main(int argc, char **argv)
{
	FILE *csv = NULL;
	double one, two, agg1, agg2;
	int k;

	iterations = argc > 1 ? atol(argv[1]) : 20000000;
	if (argc > 2) {
		csv = fopen(argv[2], "w");
		if (!csv) {
			perror(argv[2]);
			return 1;
		}
		fprintf(csv, "what,ns_1_thread,ns_2_threads,mops_1_thread,mops_2_threads,scaling\n");
	}
	printf("ring core, native, %ld iterations per thread\n", iterations);
	printf("%-20s %10s %10s %12s %12s %8s\n", "what", "ns (1 thr)",
	       "ns (2 thr)", "Mops/s (1)", "Mops/s (2)", "scaling");
	for (k = 0; k <= BENCH_PRIVATE_SEQ; k++) {
		one = bench(k, 1, &agg1);
		two = bench(k, 2, &agg2);
		printf("%-20s %10.1f %10.1f %12.1f %12.1f %7.2fx\n", kind_name[k],
		       one, two, agg1, agg2, agg2 / agg1);
		if (csv)
			fprintf(csv, "%s,%.2f,%.2f,%.2f,%.2f,%.3f\n", kind_name[k],
				one, two, agg1, agg2, agg2 / agg1);
	}
	if (csv)
		fclose(csv);
	return 0;
}
