// SPDX-License-Identifier: GPL-2.0
/*
 * bench_hist.c - instructions per frec_hist_add(), counted by callgrind
 * (`make -C tools bench-hist` runs it under valgrind and prints the
 * min/median/max over the repetitions; perf's counters are not available
 * in every VM, callgrind's count is exact and the same on every run).
 *
 * Each repetition adds N values, log-uniform per power of two from 1 ns to
 * 2^36 ns (a new seed each), through bench_hist_add(), the one function
 * callgrind collects in (--toggle-collect): the add inlined into it, with
 * its prologue and return; the loop and the values' generation are not
 * counted.  Statistics are dumped after each repetition
 * (CALLGRIND_DUMP_STATS), one file each.  The native build uses the
 * kernel's x86-64 CPU-local instructions (kmod/lib/frec_user.h), so the
 * count is the kernel's but for the copy's address, which the kernel's
 * caller computes (this_cpu_ptr()).  A benchmark: it never fails.
 *
 *   bench_hist [repetitions, default 9] [adds each, default 1000000]
 */
#include <stdio.h>
#include <stdlib.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
/* Without valgrind's headers it builds, and measures nothing. */
#define CALLGRIND_DUMP_STATS	do { } while (0)
#endif

#include "sim_cpu.h"
#include "frec_hist.h"

__attribute__((noinline)) void bench_hist_add(struct frec_hist_cpu *c, u64 ns);

__attribute__((noinline)) void bench_hist_add(struct frec_hist_cpu *c, u64 ns)
{
	frec_hist_add(c, ns);
}

static u64 rnd(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

int main(int argc, char **argv)
{
	unsigned long reps = argc > 1 ? strtoul(argv[1], NULL, 0) : 9;
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000000;
	struct frec_hist_cpu *c = calloc(1, sizeof(*c));
	u64 *v = malloc(n * sizeof(*v)), state;
	unsigned long r, i;
	unsigned int e;

	if (!c || !v || !n)
		return 1;
	for (r = 1; r <= reps; r++) {
		state = 0x9e3779b97f4a7c15ULL * r;
		for (i = 0; i < n; i++) {
			e = rnd(&state) % 37;
			v[i] = (1ULL << e) + (rnd(&state) & ((1ULL << e) - 1));
		}
		for (i = 0; i < n; i++)
			bench_hist_add(c, v[i]);
		CALLGRIND_DUMP_STATS;
	}
	printf("# %lu repetitions of %lu adds\n", reps, n);
	free(v);
	free(c);
	return 0;
}
