/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_ring_testdata.h - self-checking records for ring torture tests,
 * shared by the KUnit suite and the userspace harness.
 *
 * A test writer w (one per CPU and context level) numbers its records
 * n = 1, 2, ...  and stores w as the format, n as the caller, and either
 * four arguments or a payload derived from a hash of (w, n).  A reader can
 * then check any record it copies out on its own: whole, from the right
 * CPU, and with n going forward per writer.
 */
#ifndef _FREC_RING_TESTDATA_H
#define _FREC_RING_TESTDATA_H

#include "frec_rb.h"

/* Context levels a test writer runs at; writer id = cpu * 4 + level. */
enum frec_test_level {
	FREC_TEST_TASK,
	FREC_TEST_IRQ,		/* hard IRQ (KUnit), a signal handler (harness) */
	FREC_TEST_NMI,		/* NMI (KUnit), a nested signal handler */
	FREC_TEST_SOFTIRQ,
	FREC_TEST_LEVELS
};

static inline unsigned long frec_test_writer(int cpu, enum frec_test_level l)
{
	return (unsigned long)cpu * FREC_TEST_LEVELS + l;
}

static inline u64 frec_test_mix(u64 w, u64 n)
{
	u64 x = w * 0x9e3779b97f4a7c15ull ^ (n + 0x632be59bd9b4e019ull);

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 29);
}

static inline u8 frec_test_byte(u64 h, unsigned int i)
{
	return (u8)((unsigned int)h * 131 + i * 7 + (i >> 8));
}

static inline unsigned int frec_test_len(u64 h, unsigned int max_len)
{
	return 1 + h % max_len;
}

/* The arguments of event (w, n) on @cpu. */
static inline void frec_test_args(unsigned long *args, int cpu, u64 w, u64 n)
{
	u64 h = frec_test_mix(w, n);

	args[0] = h;
	args[1] = ~h;
	args[2] = h ^ (u64)cpu;
	args[3] = w + n;
}

/* Fill @p with the payload of record (w, n); returns its length. */
static inline unsigned int frec_test_payload(u8 *p, unsigned int max_len,
					     u64 w, u64 n)
{
	u64 h = frec_test_mix(w, n);
	unsigned int len = frec_test_len(h, max_len), i;

	for (i = 0; i < len; i++)
		p[i] = frec_test_byte(h, i);
	return len;
}

/* Is @e, read from @cpu's part of a ring, what its writer stored? */
static inline bool frec_test_valid(const struct frec_rb_entry *e, int cpu,
				   unsigned int max_len)
{
	u64 h = frec_test_mix(e->site, e->caller);
	const u8 *p = e->payload;
	unsigned int i;

	if (e->site / FREC_TEST_LEVELS != (unsigned long)cpu || !e->caller)
		return false;
	if (!max_len) {
		unsigned long args[FREC_EVENT_MAX_ARGS];

		frec_test_args(args, cpu, e->site, e->caller);
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			if (e->args[i] != args[i])
				return false;
		return e->len == 0;
	}
	if (e->len != frec_test_len(h, max_len))
		return false;
	for (i = 0; i < e->len; i++)
		if (p[i] != frec_test_byte(h, i))
			return false;
	return true;
}

#endif /* _FREC_RING_TESTDATA_H */
