// SPDX-License-Identifier: GPL-2.0
/*
 * test_frec_user.c - the kernel primitives of kmod/lib/frec_user.h, and
 * the harness's simulated CPUs, behave as the kernel's do, under real
 * threads.  Run natively, under TSan (which
 * flags a mapping too weak to order the message-passing case) and under
 * ASan/UBSan.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness_test.h"
#include "sim_cpu.h"

#define INC_THREADS	4
#define INC_PER_THREAD	100000

static atomic64_t inc_counter;
static unsigned char *inc_seen;

static void *inc_thread(void *arg)
{
	int i;

	sim_set_cpu((int)(long)arg);
	for (i = 0; i < INC_PER_THREAD; i++) {
		s64 v = atomic64_inc_return(&inc_counter);

		/* Each value is handed out once: a plain store is race-free. */
		inc_seen[v - 1]++;
	}
	return NULL;
}

static void atomic_inc_return_hands_out_each_value_once(struct ht_case *c)
{
	pthread_t th[INC_THREADS];
	long i, total = (long)INC_THREADS * INC_PER_THREAD;

	inc_seen = calloc(total, 1);
	inc_counter.counter = 0;
	for (i = 0; i < INC_THREADS; i++)
		pthread_create(&th[i], NULL, inc_thread, (void *)i);
	for (i = 0; i < INC_THREADS; i++)
		pthread_join(th[i], NULL);
	HT_EXPECT_EQ(c, atomic64_read(&inc_counter), total);
	for (i = 0; i < total; i++)
		if (inc_seen[i] != 1) {
			HT_EXPECT(c, 0, "value %ld handed out %d times",
				  i + 1, inc_seen[i]);
			break;
		}
	free(inc_seen);
}

/* local_t as the ring core uses it: one thread's, read by others. */
static void local_ops_do_what_the_kernel_does(struct ht_case *c)
{
	local_t l;

	local_set(&l, 5);
	local_inc(&l);
	HT_EXPECT_EQ(c, local_read(&l), 6);
	local_dec(&l);
	local_add(10, &l);
	HT_EXPECT_EQ(c, local_read(&l), 15);
	HT_EXPECT_EQ(c, local_inc_return(&l), 16);
	/* cmpxchg returns what it found, and swaps only if that was old. */
	HT_EXPECT_EQ(c, local_cmpxchg(&l, 4, 9), 16);
	HT_EXPECT_EQ(c, local_read(&l), 16);
	HT_EXPECT_EQ(c, local_cmpxchg(&l, 16, 9), 16);
	HT_EXPECT_EQ(c, local_read(&l), 9);
}

static void do_div_leaves_the_quotient(struct ht_case *c)
{
	u64 n = 1234567890123ULL;
	unsigned int rem = do_div(n, 1000000000U);

	HT_EXPECT_EQ(c, rem, 234567890123ULL % 1000000000U);
	HT_EXPECT_EQ(c, n, 1234ULL);
	HT_EXPECT_EQ(c, min_t(size_t, 3, 7), 3);
}

#define MP_ROUNDS	20000

struct mp_slot {
	long payload[4];	/* plain data, published by 'ready' */
	long ready;
};

static struct mp_slot mp_slots[MP_ROUNDS];

static void *mp_producer(void *arg)
{
	long i, j;

	(void)arg;
	for (i = 0; i < MP_ROUNDS; i++) {
		for (j = 0; j < 4; j++)
			mp_slots[i].payload[j] = i * 4 + j;
		smp_store_release(&mp_slots[i].ready, 1);
	}
	return NULL;
}

static void release_acquire_publishes_plain_data(struct ht_case *c)
{
	pthread_t th;
	long i, j, bad = 0;

	memset(mp_slots, 0, sizeof(mp_slots));
	pthread_create(&th, NULL, mp_producer, NULL);
	for (i = 0; i < MP_ROUNDS; i++) {
		while (!smp_load_acquire(&mp_slots[i].ready))
			;
		for (j = 0; j < 4; j++)
			bad += mp_slots[i].payload[j] != i * 4 + j;
	}
	pthread_join(th, NULL);
	HT_EXPECT_EQ(c, bad, 0);
}

static void *cpu_thread(void *arg)
{
	int cpu = (int)(long)arg;
	int i, ok = 1;

	sim_set_cpu(cpu);
	for (i = 0; i < 1000; i++)
		ok &= raw_smp_processor_id() == cpu;
	return (void *)(long)ok;
}

static void cpu_id_is_per_thread(struct ht_case *c)
{
	pthread_t th[8];
	void *ok;
	long i;

	sim_set_cpu(63);
	for (i = 0; i < 8; i++)
		pthread_create(&th[i], NULL, cpu_thread, (void *)i);
	for (i = 0; i < 8; i++) {
		pthread_join(th[i], &ok);
		HT_EXPECT(c, ok, "thread on cpu %ld saw another cpu id", i);
	}
	HT_EXPECT_EQ(c, raw_smp_processor_id(), 63);
}

static void local_clock_is_monotonic_ns(struct ht_case *c)
{
	u64 prev = local_clock(), now;
	struct timespec ts = { 0, 2000000 };
	int i;

	for (i = 0; i < 100000; i++) {
		now = local_clock();
		HT_EXPECT(c, now >= prev, "clock went back %llu -> %llu",
			  (unsigned long long)prev, (unsigned long long)now);
		if (now < prev)
			break;
		prev = now;
	}
	nanosleep(&ts, NULL);
	now = local_clock();
	HT_EXPECT(c, now - prev >= 2000000, "2 ms sleep advanced %llu ns",
		  (unsigned long long)(now - prev));
}

static struct ht_case cases[] = {
	HT_CASE(atomic_inc_return_hands_out_each_value_once),
	HT_CASE(local_ops_do_what_the_kernel_does),
	HT_CASE(do_div_leaves_the_quotient),
	HT_CASE(release_acquire_publishes_plain_data),
	HT_CASE(cpu_id_is_per_thread),
	HT_CASE(local_clock_is_monotonic_ns),
};

int main(int argc, char **argv)
{
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
