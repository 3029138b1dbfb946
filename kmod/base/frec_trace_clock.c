// SPDX-License-Identifier: GPL-2.0
/*
 * frec_trace_clock.c - the offset of the records' clock from ftrace's.
 *
 * Records are stamped with local_clock(), the clock of dmesg's timestamps.
 * ftrace stamps its events with its "local" trace clock by default,
 * trace_clock_local(): the raw sched_clock().  Once the kernel marks the
 * clock stable, local_clock() is sched_clock() + __sched_clock_offset, a
 * constant of the boot that no kernel exports (dmesg prints it in
 * "sched_clock: Marking stable (...)->(..., offset)").  So frec measures
 * it: it reads local_clock(), trace_clock_local() and local_clock() again
 * with interrupts off, and takes the middle of the two local_clock() reads
 * against trace_clock_local(), from the try whose two reads were closest.
 * The raw dump carries the result (struct frec_raw_clock), and frec-decode
 * subtracts it from the timestamps of the trace.dat it writes, so that
 * trace-cmd and KernelShark put frec's records on ftrace's timeline while
 * dump stays on dmesg's scale.
 */
#include <linux/irqflags.h>
#include <linux/sched/clock.h>
#include <linux/trace_clock.h>

#include "frec_trace_clock.h"

/* Tries; the narrowest wins (an interrupt can't come, an NMI or SMI can). */
#define FREC_TRACE_CLOCK_TRIES	8

/**
 * frec_trace_clock_offset() - measure local_clock() - trace_clock_local()
 * @offset: set to the offset in ns: ftrace's "local" time of a record is
 *	its timestamp minus @offset.
 * @window: set to the ns between the two local_clock() reads around the
 *	trace_clock_local() read it used: @offset is exact within half that.
 *
 * Meaningful for every CPU and the whole boot only while the clock is
 * synchronised across CPUs (frec_clock_synchronized()); otherwise near
 * the calling CPU and the moment of the call.
 *
 * Context: Any context but NMI; disables interrupts a few hundred ns.
 * Return: false if the kernel has no trace clock (CONFIG_TRACE_CLOCK off).
 */
bool frec_trace_clock_offset(s64 *offset, u64 *window)
{
	u64 before, trace, after, best = U64_MAX;
	unsigned long flags;
	unsigned int i;

	if (!IS_ENABLED(CONFIG_TRACE_CLOCK))
		return false;
	*offset = 0;
	for (i = 0; i < FREC_TRACE_CLOCK_TRIES; i++) {
		local_irq_save(flags);
		before = local_clock();
		trace = trace_clock_local();
		after = local_clock();
		local_irq_restore(flags);
		if (after - before >= best)
			continue;
		best = after - before;
		*offset = (s64)(before + best / 2 - trace);
	}
	*window = best;
	return true;
}
