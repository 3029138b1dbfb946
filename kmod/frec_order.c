// SPDX-License-Identifier: GPL-2.0
/*
 * frec_order.c - whether the clock orders records across CPUs.
 *
 * Readers merge records by (timestamp, CPU, seq) (lib/frec_merge.c).
 * That order follows happens-before across CPUs only while the clock is
 * one clock on every CPU (lib/frec_rb.c, "Order").  frec cannot call
 * sched_clock_stable() (not exported to modules), so it asks what the
 * kernel's own verdict rests on:
 *  - x86: sched_clock() is the TSC, and the kernel marks it unstable (and
 *    sched_clock with it) when CPUs' TSCs disagree at bring-up or the
 *    clocksource watchdog sees it drift: check_tsc_unstable().
 *  - arm64: the architected counter is one counter for the whole system.
 *  - elsewhere frec does not know, and says the order is approximate.
 * The answer is read when a dump starts: a TSC marked unstable later
 * changes the header of the next dump.
 */
#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include <frec_raw.h>

#include "frec_order.h"

/**
 * frec_clock_synchronized() - is the record clock one clock on every CPU?
 *
 * Context: Any context.
 * Return: true if timestamps of different CPUs compare in real time order.
 */
bool frec_clock_synchronized(void)
{
#if defined(CONFIG_X86)
	return boot_cpu_has(X86_FEATURE_TSC) && !check_tsc_unstable();
#elif defined(CONFIG_ARM64)
	return true;
#else
	return false;
#endif
}

/**
 * frec_raw_order_flags() - the raw header's order flags for a read
 * @by_seq: the read merges by global seq (all its rings are global-order).
 *
 * Context: Any context.
 * Return: FREC_RAW_CLOCK_SYNCED and FREC_RAW_MERGE_BY_SEQ as they apply.
 */
u32 frec_raw_order_flags(bool by_seq)
{
	return (frec_clock_synchronized() ? FREC_RAW_CLOCK_SYNCED : 0) |
	       (by_seq ? FREC_RAW_MERGE_BY_SEQ : 0);
}
