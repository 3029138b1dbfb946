/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_test.h - what frec's KUnit suites share.
 */
#ifndef _FREC_TEST_H
#define _FREC_TEST_H

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#include "frec_rings.h"

/* The ring's store; tests do not resize or clear the rings they read. */
static inline struct frec_ring_store *frec_test_store(struct frec_ring *ring)
{
	return rcu_dereference_raw(ring->store);
}

/*
 * Start @fn in a task on every online CPU, bound to it: the first gets
 * @first, the others NULL; @task (nr_cpu_ids entries) holds them.
 * Returns how many started.
 */
static inline unsigned int frec_test_start_on_cpus(struct task_struct **task,
						   int (*fn)(void *), void *first,
						   const char *name)
{
	unsigned int started = 0;
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		task[cpu] = kthread_create_on_cpu(fn, started ? NULL : first, cpu, name);
		if (IS_ERR(task[cpu])) {
			task[cpu] = NULL;
			continue;
		}
		started++;
	}
	cpus_read_unlock();
	for_each_possible_cpu(cpu)
		if (task[cpu])
			wake_up_process(task[cpu]);
	return started;
}

/* Stop the tasks frec_test_start_on_cpus() started. */
static inline void frec_test_stop_on_cpus(struct task_struct **task)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (task[cpu])
			kthread_stop(task[cpu]);
}

/* Send an NMI to the next online CPU (QEMU's TCG drops NMIs sent to self). */
static inline void frec_test_nmi_next_cpu(void)
{
	int target = cpumask_next_wrap(smp_processor_id(), cpu_online_mask,
				       smp_processor_id(), false);

	if (target < nr_cpu_ids && target != smp_processor_id())
		apic->send_IPI_mask(cpumask_of(target), NMI_VECTOR);
}

#endif /* _FREC_TEST_H */
