/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_cpu.h - simulated CPUs for the harness: a thread is "pinned" to one
 * CPU for life, and the signal handlers that interrupt it are that CPU's
 * interrupts, so a writer on a simulated CPU runs as a kernel writer does
 * with preemption off.  The kernel primitives the shared sources use come
 * from kmod/lib/frec_user.h.
 */
#ifndef _FREC_SIM_CPU_H
#define _FREC_SIM_CPU_H

#include "frec_user.h"

/* Simulated CPUs the harness uses at most. */
#define SIM_NR_CPUS	FREC_USER_NR_CPUS

/* Pin the calling thread to a simulated CPU for the rest of its life. */
static inline void sim_set_cpu(int cpu)
{
	sim_cpu = cpu;
}

/* The simulated CPU the calling thread is pinned to. */
static inline int raw_smp_processor_id(void)
{
	return sim_cpu;
}

#endif /* _FREC_SIM_CPU_H */
