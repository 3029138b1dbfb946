/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_compat.h - the differences between the kernels frec builds for
 * (Debian 12's 6.1, 6.12 and 6.12-rt), each handled once, here, with the
 * version that changed and why; and those between architectures: the
 * black box's write-back, and where callers lie.  No other file tests
 * LINUX_VERSION_CODE.
 */
#ifndef _FREC_COMPAT_H
#define _FREC_COMPAT_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/console.h>
#include <linux/types.h>
#include <linux/version.h>
#include <frec_raw.h>

/*
 * frec_caller_base() - the base this kernel's caller words are made
 * from: a record keeps its caller in 32 bits (uapi/frec_raw.h, "The
 * caller word"), as a signed offset from it, so every caller must lie
 * within 2 GiB of it.  A raw dump's records carry the whole address; a
 * black box region's header keeps the base (struct frec_region_header
 * @caller_base), and a reader resolves the region's words with it.
 * Every caller frec records is the address of a frec_record() or
 * frec_printk() expansion (_THIS_IP_), in the kernel image or in a
 * module: frec has no BPF or kprobe entry of its own.
 *
 * x86_64: FREC_CALLER_BASE, 0: kernel text, modules, BPF JIT, kprobe
 * slots and ftrace trampolines all lie in the top 2 GiB.
 *
 * arm64: the address of a kernel function, _printk's (exported, in the
 * image's text: the image itself moves with KASLR, and no constant is
 * within 2 GiB of it).  Modules lie within 2 GiB of the image: on 6.1
 * (arch/arm64/kernel/kaslr.c, module.c) module_alloc() takes
 * [module_alloc_base, + 128 MiB), or [module_alloc_base, + 2 GiB) once
 * that is full, with module_alloc_base in [_end - 2 GiB, _stext]; on
 * 6.12 (arch/arm64/mm/init.c, execmem) the modules' range is a 128 MiB
 * window, then a 2 GiB one, each covering [_text, _end].  So a caller
 * lies in [_end - 2 GiB, _text + 2 GiB), and its offset from any address
 * of the image's text is within [-2 GiB, 2 GiB).  (BPF JIT code and
 * kprobe slots lie anywhere in vmalloc on arm64; frec records no caller
 * there.)
 */
#if defined(CONFIG_X86_64)
static __always_inline u64 frec_caller_base(void)
{
	return FREC_CALLER_BASE;
}
#elif defined(CONFIG_ARM64)
#include <linux/printk.h>
static __always_inline u64 frec_caller_base(void)
{
	return (unsigned long)_printk;
}
#else
#error "frec: the caller base is defined for x86_64 and arm64 only (frec_caller_base())"
#endif

/*
 * 6.10: __assign_str() lost its second argument (v6.10 commit 2c92ca849fcc
 * "tracing/treewide: Remove second parameter of __assign_str()"); the
 * source is the one the event's __string() named.  FREC_ASSIGN_STR(dst,
 * src) takes both and passes what the kernel wants; src must be the
 * __string() source.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define FREC_ASSIGN_STR(dst, src)	do { (void)(src); __assign_str(dst); } while (0)
#else
#define FREC_ASSIGN_STR(dst, src)	__assign_str(dst, src)
#endif

/*
 * frec_console_lag(seq) - the printk records the usable consoles have yet
 * to print before reaching record @seq, summed over them (0: all there, or
 * no usable console).  It is what the kernel's __pr_flush() counts, which
 * no kernel exports to modules; frec's task dump waits on it between
 * batches (frec_crash.c).  Positions compare as unsigned long: a 32-bit
 * kernel keeps only an nbcon console's low 32 bits.  As __pr_flush(), it
 * holds the console lock for a legacy console's seq (and releasing it
 * prints what a legacy console still owes, where printk's caller prints),
 * and on 6.12 the console list's SRCU; but only if console_trylock() gets
 * the lock: a caller of frec_console_dump() may hold it already, and the
 * holder prints on release anyway.  Without it a legacy console's seq is
 * read racily on 6.12, good enough to see progress; 6.1 does not wait
 * then.
 * Context: a task.
 *
 * 6.12: the console list is an SRCU list (v6.2); nbcon consoles (v6.7)
 * keep their position in nbcon_seq, a __private field nbcon_seq_read()
 * reads, not exported; on 6.12-rt the serial console is one, printed by a
 * thread, so printk's caller no longer prints, and a caller printing faster
 * than that thread laps it in the printk ring: lines dropped.
 * 6.1: console_drivers, walked under the console lock, each console's
 * seq; a console lock held elsewhere is released only once its holder has
 * printed everything (console_unlock()), so there is no need to wait.
 */
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
static inline unsigned long frec_console_lag(u64 seq)
{
	unsigned long lag = 0, at;
	struct console *con;
	bool locked;
	short flags;
	int cookie;

	locked = console_trylock();
	cookie = console_srcu_read_lock();
	for_each_console_srcu(con) {
		flags = console_srcu_read_flags(con);
		/* Only a usable console can be expected to make progress. */
		if (!(flags & CON_ENABLED) || (flags & CON_SUSPENDED))
			continue;
		if (flags & CON_NBCON) {
			if (!con->write_thread && !con->write_atomic)
				continue;
			at = atomic_long_read(&ACCESS_PRIVATE(con, nbcon_seq));
		} else {
			if (!con->write)
				continue;
			/* Racy without the lock: only progress is looked for. */
			at = data_race(con->seq);
		}
		if ((long)(at - (unsigned long)seq) < 0)
			lag += (unsigned long)seq - at;
	}
	console_srcu_read_unlock(cookie);
	if (locked)
		console_unlock();
	return lag;
}
#else
static inline unsigned long frec_console_lag(u64 seq)
{
	unsigned long lag = 0, at;
	struct console *con;

	/* Its holder prints everything before it lets the lock go. */
	if (!console_trylock())
		return 0;
	for_each_console(con) {
		if (!(con->flags & CON_ENABLED) || !con->write)
			continue;
		at = con->seq;
		if ((long)(at - (unsigned long)seq) < 0)
			lag += (unsigned long)seq - at;
	}
	console_unlock();
	return lag;
}
#endif

/*
 * frec_reserve_mem_find(name, start, size) - the range a
 * reserve_mem=SIZE:ALIGN:LABEL on the command line set aside, for frec's
 * region_label= parameter.  Return: 0, or -ENOENT.
 *
 * 6.11: reserve_mem= and reserve_mem_find_by_name() (v6.11 commit
 * 1e4c64b71c9b "mm/memblock: Add "reserve_mem" to reserved named memory
 * at boot up"), exported to modules.  6.1 has no such ranges: no label is
 * ever found.
 */
#if KERNEL_VERSION(6, 11, 0) <= LINUX_VERSION_CODE
#include <linux/mm.h>
static inline int frec_reserve_mem_find(const char *name, phys_addr_t *start,
					phys_addr_t *size)
{
	return reserve_mem_find_by_name(name, start, size) ? 0 : -ENOENT;
}
#else
static inline int frec_reserve_mem_find(const char *name, phys_addr_t *start,
					phys_addr_t *size)
{
	return -ENOENT;
}
#endif

/*
 * FREC_REGION_MAP and frec_region_cache_wb(p, len) - how the black box
 * region is mapped, and how a range of it is written back from the CPU
 * caches to memory (DOC: The region behind write-back caches, in
 * kmod/lib/frec_region_build.c).  An architecture difference, not a
 * version one: the same on 6.1 and 6.12.
 *
 * With CONFIG_ARCH_HAS_PMEM_API (x86-64 and arm64 select it) the region
 * is mapped write-back, so that a record costs what it costs in any ring,
 * and arch_wb_cache_pmem() (exported, GPL) writes a range back: CLWB on
 * x86 where the CPU has it (the lines stay cached for the next record),
 * else CLFLUSHOPT or CLFLUSH; DC CVAP or CVAC on arm64.  It orders
 * nothing by itself: the full barriers around it make the range's earlier
 * stores reach memory before any later store does.
 *
 * Without it nothing exported writes a range back, so the region is
 * mapped write-combining: a store reaches memory on its own, in the order
 * the barrier gives.  memremap() refuses to map System RAM so, which a
 * reserve_mem= range is: region_label= is then refused as "cannot map it".
 */
#include <linux/io.h>
#ifdef CONFIG_ARCH_HAS_PMEM_API
#include <linux/libnvdimm.h>
#define FREC_REGION_MAP		MEMREMAP_WB
static inline void frec_region_cache_wb(void *p, size_t len)
{
	/* The range's stores before its write-back (same line: CLWB keeps it). */
	mb();
	arch_wb_cache_pmem(p, len);
	/* The write-back in memory before any later store gets there. */
	mb();
}
#else
#define FREC_REGION_MAP		MEMREMAP_WC
static inline void frec_region_cache_wb(void *p, size_t len)
{
	/* Write-combined: the earlier stores reach memory before the later. */
	mb();
}
#endif

#endif /* _FREC_COMPAT_H */
