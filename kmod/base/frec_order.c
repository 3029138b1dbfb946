// SPDX-License-Identifier: GPL-2.0
/*
 * frec_order.c - whether the clock orders records across CPUs.
 *
 * Readers merge records by (timestamp, CPU, seq) (lib/frec_merge.c).
 * That order follows happens-before across CPUs only while the clock is
 * one clock on every CPU (lib/frec_rb.c, "Order").  The clock is
 * local_clock(), and the kernel's own verdict on it is
 * sched_clock_stable(): unstable, local_clock() is each CPU's sched_clock()
 * filtered against the tick, one clock per CPU.  frec cannot call
 * sched_clock_stable() (not exported to modules), so it asks what that
 * verdict rests on, which is the same in 6.1 and 6.12:
 *  - x86, sched_clock() the TSC: the kernel clears the verdict when it
 *    marks the TSC unstable (CPUs' TSCs disagree at bring-up, or the
 *    clocksource watchdog sees it drift): check_tsc_unstable().
 *  - x86, a KVM guest whose sched_clock() is kvm-clock: kvmclock_init()
 *    makes kvm-clock sched_clock() and clears the verdict unless the host
 *    offers KVM_FEATURE_CLOCKSOURCE_STABLE_BIT and sets
 *    PVCLOCK_TSC_STABLE_BIT in CPU 0's pvclock page; a TSC marked
 *    unstable then no longer clears it, and a stable TSC says nothing.
 *    frec reads that bit when asked, the kernel read it at boot: they
 *    differ only if the host changed it since (a migration), and frec
 *    then says what the host says of kvm-clock now.
 *  - x86 under another hypervisor's sched_clock() (Xen, VMware,
 *    Hyper-V): the kernel never clears the verdict there; frec goes by
 *    the TSC, so an unstable TSC makes it say approximate, erring safe.
 *  - arm64: the architected counter is one counter for the whole system.
 *  - elsewhere frec does not know, and says the order is approximate.
 * The answer is read when a dump starts: a TSC marked unstable later
 * changes the header of the next dump.
 *
 * Even one clock leaves ties: two CPUs that read it within one tick get
 * one value, and the merge puts the lower CPU first (one CPU never gives
 * a timestamp twice: frec_rb.c, "Order").  frec_clock_tick_ns() says how
 * wide a tick is, for frec/order and the raw dump's clock entry.
 */
#include <linux/math.h>
#include <linux/time64.h>
#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/hypervisor.h>
#include <asm/kvm_para.h>
#include <asm/processor.h>
#include <asm/pvclock.h>
#include <asm/tsc.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/arch_timer.h>
#endif

#include <frec_raw.h>

#include "frec_order.h"

#ifdef CONFIG_X86
/*
 * Is sched_clock() kvm-clock?  kvmclock_init() publishes CPU 0's pvclock
 * page and makes kvm-clock sched_clock() in one go, in a KVM guest only
 * (Xen publishes a page of its own).  If so, *@stable says whether the
 * kernel's verdict on it holds (the stable bit, offered and set).
 */
static bool frec_kvmclock_is_sched_clock(bool *stable)
{
	struct pvclock_vsyscall_time_info *pvti;
	unsigned int base;

	if (!IS_ENABLED(CONFIG_KVM_GUEST) || !hypervisor_is_type(X86_HYPER_KVM))
		return false;
	pvti = pvclock_get_pvti_cpu0_va();
	if (!pvti)
		return false;
	base = hypervisor_cpuid_base(KVM_SIGNATURE, 0);
	*stable = base &&
		  (cpuid_eax(base | KVM_CPUID_FEATURES) &
		   BIT(KVM_FEATURE_CLOCKSOURCE_STABLE_BIT)) &&
		  (READ_ONCE(pvti->pvti.flags) & PVCLOCK_TSC_STABLE_BIT);
	return true;
}
#endif

/**
 * frec_clock_synchronized() - is the record clock one clock on every CPU?
 *
 * Context: Any context.
 * Return: true if timestamps of different CPUs compare in real time order.
 */
bool frec_clock_synchronized(void)
{
#if defined(CONFIG_X86)
	bool stable;

	if (frec_kvmclock_is_sched_clock(&stable))
		return stable;
	return boot_cpu_has(X86_FEATURE_TSC) && !check_tsc_unstable();
#elif defined(CONFIG_ARM64)
	return true;
#else
	return false;
#endif
}

/**
 * frec_clock_tick_ns() - how far apart two values of the record clock are
 *
 * Context: Any context.
 * Return: the tick in ns, or 0 if not known.  The record clock is
 * local_clock(), in ns, but it moves in steps of its counter's period.
 * On arm64 that is the architected counter's, 1 / CNTFRQ_EL0 rounded up,
 * read with the kernel's own accessor (16 ns at 62.5 MHz, QEMU's virt
 * with a cortex-a57; 1 ns from Armv8.6, 1 GHz).  On x86 kvm-clock counts
 * ns, and the TSC's period is rounded up to 1 ns.  Elsewhere frec does
 * not know.  Where sched_clock() is another counter the figure is wrong,
 * and frec cannot tell from a module: Hyper-V without an invariant TSC
 * (hv_sched_clock counts 100 ns steps), and an arm64 device tree whose
 * clock-frequency overrides CNTFRQ_EL0 (the kernel's rate is not
 * exported).  The tie rule holds whatever the tick; only the figure
 * shown is wrong there.
 */
u32 frec_clock_tick_ns(void)
{
#if defined(CONFIG_X86)
	bool stable;

	if (frec_kvmclock_is_sched_clock(&stable))
		return 1;
	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz)
		return 0;
	return DIV_ROUND_UP(USEC_PER_SEC, tsc_khz);
#elif defined(CONFIG_ARM64)
	u32 hz = arch_timer_get_cntfrq();

	return hz ? DIV_ROUND_UP(NSEC_PER_SEC, hz) : 0;
#else
	return 0;
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
