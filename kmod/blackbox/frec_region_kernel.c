// SPDX-License-Identifier: GPL-2.0
/*
 * frec_region_kernel.c - the black box region this boot writes: claimed
 * from the parameters, mapped, the previous boot's content kept
 * (frec_previous.c), then laid out anew for this boot, and marked with
 * how the boot ends (doc/blackbox.md).
 *
 *   region=SIZE@ADDR     a range the kernel command line kept out of
 *                        System RAM with memmap=SIZE$ADDR
 *   region_label=LABEL   a reserve_mem=SIZE:ALIGN:LABEL range (6.12)
 *
 *   vmcore_region=SIZE   no physical range: the region's tables (sites,
 *                        texts, pool) in SIZE bytes of vmalloc'd memory,
 *                        which nothing keeps across a reset, for a kdump
 *                        to hold with every ring (frec_vmcore_kernel.c); not
 *                        with region= or region_label=
 *
 * Without any, frec runs without a region, as it always did.  A
 * parameter that is given but unusable refuses the load with -EINVAL and
 * a log line naming the value.
 *
 *   region_reboot_s=S    the longest a reboot of this machine takes,
 *                        firmware included (default 300): a region last
 *                        alive longer than that and a heartbeat before
 *                        this boot started is from an older boot
 *
 * The state copies (how the boot ended) are written by one path at a
 * time (DOC: Who writes the state, below).
 *
 * The heartbeat rewrites the state every FREC_REGION_HEARTBEAT_S seconds
 * with the time, so the next boot can tell the previous boot's region from
 * an older one's: a boot in between that did not load frec, or did not
 * give it the region, leaves the region's last sign of life older than a
 * reboot.  Its timer is not deferrable: an idle CPU skipping beats would
 * make a live boot look older.  It also writes the parts in use back from
 * the CPU caches: a reset loses the records written since the last beat.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/nmi.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/utsname.h>
#include <linux/uuid.h>
#include <linux/vmalloc.h>

#include "frec_compat.h"
#include "frec_memmap.h"
#include "frec_order.h"
#include "frec_previous.h"
#include "frec_region_image.h"
#include "frec_region_kernel.h"
#include "frec_trace_clock.h"
#include "frec_vmcore_kernel.h"

static char *region;
module_param(region, charp, 0444);
MODULE_PARM_DESC(region, "black box region SIZE@ADDR, as a memmap=SIZE$ADDR kept it");
static char *region_label;
module_param(region_label, charp, 0444);
MODULE_PARM_DESC(region_label, "black box region: a reserve_mem= label (6.12)");
static char *vmcore_region;
module_param(vmcore_region, charp, 0444);
MODULE_PARM_DESC(vmcore_region, "SIZE: the region's tables in memory, for frec-decode --vmcore (no region=)");
/*
 * 300 s: a server's firmware can take minutes to boot; a longer bound
 * only lets a quick older boot pass for the previous one.
 */
static uint region_reboot_s = 300;
module_param(region_reboot_s, uint, 0444);
MODULE_PARM_DESC(region_reboot_s, "the longest a reboot takes, s (default 300): a region last alive longer before this boot is an older boot's");

/* What frec_region_wb() writes back between two watchdog touches. */
#define FREC_REGION_WB_CHUNK	SZ_16M
/* How often the heartbeat rewrites the state, in seconds. */
#define FREC_REGION_HEARTBEAT_S	5
/* region_reboot_s at most: a day. */
#define FREC_REGION_REBOOT_MAX_S	86400

static void *frec_region_base;
static u64 frec_region_bytes;
static u64 frec_region_phys;
static bool frec_region_requested;
/* vmcore_region=: frec_region_base is vmalloc'd, not a mapped range. */
static bool frec_region_vmalloced;
static atomic_t frec_region_state_busy = ATOMIC_INIT(0);
/* The end marked so far: it only rises (frec_region_end_raise()). */
static u32 frec_region_ended;
/* CLOCK_REALTIME of this boot's start, as the load saw it. */
static u64 frec_region_boot_wall_ns;
/*
 * The ring clock against ftrace's, measured when the region is taken, and
 * again by state writes once the clock is no longer synchronised
 * (frec_region_clock_now()).
 */
static struct frec_region_trace_clock frec_region_clock;
static struct timer_list frec_region_heartbeat;
/* Where the parts rings took end (frec_region_use()); 0: none taken. */
static u64 frec_region_parts_end;

/* Parse region=SIZE@ADDR into *@size and *@addr; 0 or -EINVAL. */
static int frec_region_parse(const char *s, u64 *size, u64 *addr)
{
	char *end;

	*size = memparse(s, &end);
	if (end == s || *end != '@')
		return -EINVAL;
	s = end + 1;
	*addr = memparse(s, &end);
	if (end == s || *end)
		return -EINVAL;
	return 0;
}

/* Where the region is; 0, or -EINVAL logged with the value. */
static int frec_region_where(u64 *size, u64 *addr, bool *is_ram)
{
	phys_addr_t start, bytes;

	*is_ram = false;
	if (region && region_label) {
		pr_err("region=%.64s and region_label=%.64s: give one\n", region, region_label);
		return -EINVAL;
	}
	if (region_label) {
		if (frec_reserve_mem_find(region_label, &start, &bytes)) {
			pr_err("region_label=%.64s: no reserve_mem= range of that label on this kernel\n",
			       region_label);
			return -EINVAL;
		}
		*addr = start;
		*size = bytes;
		/* reserve_mem= takes System RAM out of the page allocator. */
		*is_ram = true;
		return 0;
	}
	if (frec_region_parse(region, size, addr)) {
		pr_err("region=%.64s: want SIZE@ADDR, as memmap=SIZE$ADDR\n", region);
		return -EINVAL;
	}
	return 0;
}

/*
 * vmcore_region=SIZE: the region in vmalloc'd memory; 0, -EINVAL logged
 * with the value, or -ENOMEM.
 */
static int frec_region_claim_memory(void)
{
	char *end;
	u64 size;

	if (region || region_label) {
		pr_err("vmcore_region=%.64s: not with region= or region_label=\n",
		       vmcore_region);
		return -EINVAL;
	}
	size = memparse(vmcore_region, &end);
	if (*end || !size || size % FREC_REGION_BLOCK || size < FREC_REGION_MIN_BYTES ||
	    size > FREC_VMCORE_REGION_MAX) {
		pr_err("vmcore_region=%.64s: want a multiple of %u from %u to %llu bytes\n",
		       vmcore_region, FREC_REGION_BLOCK, FREC_REGION_MIN_BYTES,
		       (u64)FREC_VMCORE_REGION_MAX);
		return -EINVAL;
	}
	frec_region_base = vzalloc(size);
	if (!frec_region_base)
		return -ENOMEM;
	frec_region_vmalloced = true;
	frec_region_bytes = size;
	frec_region_phys = 0;
	return 0;
}

/* Check, claim and map the region; 0 or -EINVAL logged with the value. */
static int frec_region_claim(void)
{
	const char *par = region ? "region" : "region_label";
	const char *what = region ?: region_label;
	u64 size, addr;
	bool is_ram;
	int err;

	err = frec_region_where(&size, &addr, &is_ram);
	if (err)
		return err;
	if (!size || size % FREC_REGION_BLOCK || addr % FREC_REGION_BLOCK ||
	    addr + size < addr) {
		pr_err("%s=%.64s: size and address must be non-zero multiples of %u\n",
		       par, what, FREC_REGION_BLOCK);
		return -EINVAL;
	}
	if (size < FREC_REGION_MIN_BYTES || size > FREC_REGION_MAX_BYTES) {
		pr_err("%s=%.64s: %llu bytes, want %u to %llu\n", par, what, size,
		       FREC_REGION_MIN_BYTES, FREC_REGION_MAX_BYTES);
		return -EINVAL;
	}
	if (!is_ram) {
		if (region_intersects(addr, size, IORESOURCE_SYSTEM_RAM,
				      IORES_DESC_NONE) != REGION_DISJOINT) {
			pr_err("region=%.64s: the range is System RAM: keep it out with memmap=SIZE$ADDR\n",
			       what);
			return -EINVAL;
		}
		err = frec_memmap_set_aside(what, addr, size);
		if (err)
			return err;
		if (!request_mem_region(addr, size, "frec region")) {
			pr_err("region=%.64s: the range is busy (see /proc/iomem)\n", what);
			return -EINVAL;
		}
		frec_region_requested = true;
	}
	frec_region_base = memremap(addr, size, FREC_REGION_MAP);
	if (!frec_region_base) {
		pr_err("%s=%.64s: cannot map it\n", par, what);
		if (frec_region_requested)
			release_mem_region(addr, size);
		frec_region_requested = false;
		return -EINVAL;
	}
	frec_region_bytes = size;
	frec_region_phys = addr;
	return 0;
}

static void frec_region_release(void)
{
	if (frec_region_vmalloced)
		vfree(frec_region_base);
	else
		memunmap(frec_region_base);
	frec_region_vmalloced = false;
	if (frec_region_requested)
		release_mem_region(frec_region_phys, frec_region_bytes);
	frec_region_base = NULL;
	frec_region_requested = false;
}

/**
 * frec_region_mapped() - the region this boot took
 *
 * Context: Any context; set at load, before any ring or site uses it.
 * Return: its first byte (the header), or NULL without a region.
 */
struct frec_region_header *frec_region_mapped(void)
{
	return frec_region_base;
}

/**
 * frec_region_wb() - write a range of the region back from the CPU caches
 *	to memory, ordered: its earlier stores reach memory before any later
 *	store does (frec_region_wb_t)
 * @p: its first byte.
 * @len: its length.
 *
 * Context: Any context, NMI included.
 */
void frec_region_wb(const void *p, u64 len)
{
	u64 n;

	/*
	 * In chunks, the watchdogs touched between them: a panic writes
	 * back every part in use with IRQs off, gigabytes in a big region.
	 */
	while (len) {
		n = min_t(u64, len, FREC_REGION_WB_CHUNK);
		/* Cast: arch_wb_cache_pmem() takes a plain pointer; it changes no byte. */
		frec_region_cache_wb((void *)p, n);
		p += n;
		len -= n;
		if (len)
			touch_nmi_watchdog();
	}
}

/*
 * frec_region_wb() at load, where the region is zeroed a chunk at a time
 * (frec_region_begin()): a region of gigabytes would otherwise hold the
 * CPU for seconds.
 */
static void frec_region_wb_at_load(const void *p, u64 len)
{
	frec_region_wb(p, len);
	cond_resched();
}

/**
 * frec_region_use() - the region's parts are in use up to @end
 * @end: the offset where the parts a ring just took end.
 *
 * The heartbeat writes the parts in use back, so that a reset keeps the
 * records written before it.
 *
 * Context: Process context, under the caller's lock of the parts.
 */
void frec_region_use(u64 end)
{
	if (end > frec_region_parts_end)
		WRITE_ONCE(frec_region_parts_end, end);
}

/*
 * What the heartbeat does with them, for a change to records that must
 * reach memory before a later entry's seal does (frec_region_parts_wb()).
 */

/**
 * frec_region_parts_sync() - write the parts in use back to memory now
 *
 * Context: Process context.
 */
void frec_region_parts_sync(void)
{
	if (frec_region_base)
		frec_region_parts_wb(frec_region_base, READ_ONCE(frec_region_parts_end),
				     frec_region_wb);
}

/* Bytes the last write of the state wrote back (block 0 and parts). */
static u64 frec_region_wb_last;

/*
 * The ring clock against ftrace's for a state write now, in @clock.  While
 * the clock stays synchronised across CPUs, the offset measured at load
 * is a constant of the boot.  The kernel may mark the TSC unstable later
 * (the clocksource watchdog): local_clock() then stops being sched_clock()
 * plus that constant and the offset drifts, so from then on it is
 * measured again at each write, near the moment the state marks (an end:
 * the crash's last records), and no longer flagged constant, as the raw
 * dump measures it on each read.  Not in NMI (frec_trace_clock_offset()):
 * there the last offset measured is written, unflagged.  No lock, no
 * sleep: the panic path writes the state too.
 *
 * Caller holds the state, so frec_region_clock has one writer, but for a
 * panic writing over a holder it stopped or interrupted (DOC: Who writes
 * the state): each field is read and written whole (READ_ONCE(),
 * WRITE_ONCE()), and the offset and its window may then be of two
 * measurements, the window only telling how exact the offset is.
 */
static void frec_region_clock_now(struct frec_region_trace_clock *clock)
{
	u32 flags = READ_ONCE(frec_region_clock.flags);
	s64 offset;
	u64 window;

	if ((flags & FREC_REGION_STATE_TRACE_OFFSET) &&
	    !((flags & FREC_REGION_STATE_OFFSET_CONSTANT) && frec_clock_synchronized())) {
		flags &= ~FREC_REGION_STATE_OFFSET_CONSTANT;
		WRITE_ONCE(frec_region_clock.flags, flags);
		if (!in_nmi() && frec_trace_clock_offset(&offset, &window)) {
			WRITE_ONCE(frec_region_clock.trace_offset, offset);
			WRITE_ONCE(frec_region_clock.window, min_t(u64, window, U32_MAX));
		}
	}
	clock->flags = flags;
	clock->trace_offset = READ_ONCE(frec_region_clock.trace_offset);
	clock->window = READ_ONCE(frec_region_clock.window);
}

/*
 * Write the state copies: @end, alive now; then write the parts up to
 * @used and the state back.  Caller holds the state.
 */
static void frec_region_state_put(u32 end, u64 used)
{
	const struct frec_region_header *hdr = frec_region_base;
	u64 parts = le64_to_cpu(hdr->sect[FREC_REGION_PARTS].offset);
	struct frec_region_trace_clock clock;

	/* What the last write of the state wrote back: the unload says it. */
	WRITE_ONCE(frec_region_wb_last, FREC_REGION_BLOCK + (used > parts ? used - parts : 0));
	frec_region_clock_now(&clock);
	frec_region_state_save(frec_region_base, end, ktime_get_real_fast_ns(),
			       local_clock(), &clock, used, frec_region_wb);
}

/*
 * The kernel's boot id, /proc/sys/kernel/random/boot_id (random.c keeps
 * it to itself): what journalctl --list-boots and a kdump name a boot by.
 * If it cannot be read, a random id of this load.
 */
static void frec_region_boot_id(u8 id[FREC_REGION_BOOT_ID_LEN])
{
	char buf[UUID_STRING_LEN + 1] = "";
	struct file *f;
	loff_t pos = 0;
	uuid_t uuid;

	BUILD_BUG_ON(sizeof(uuid) != FREC_REGION_BOOT_ID_LEN);
	f = filp_open("/proc/sys/kernel/random/boot_id", O_RDONLY, 0);
	if (!IS_ERR(f)) {
		if (kernel_read(f, buf, UUID_STRING_LEN, &pos) == UUID_STRING_LEN &&
		    !uuid_parse(buf, &uuid)) {
			filp_close(f, NULL);
			memcpy(id, &uuid, sizeof(uuid));
			return;
		}
		filp_close(f, NULL);
	}
	pr_warn("region: no /proc/sys/kernel/random/boot_id: a random boot id\n");
	get_random_bytes(id, FREC_REGION_BOOT_ID_LEN);
}

/*
 * Take the region for this boot (frec_region_begin()): the magic broken
 * and written back first, everything else zeroed and written back, the
 * header and state copy 0 last, so that a reset leaves the previous
 * boot's region, none, or this boot's, never a mix of two boots even
 * behind write-back caches.  Writes the whole region back: a pass over it
 * at load.
 */
static int frec_region_take(u32 sites_wanted)
{
	struct frec_region_geometry geo = {
		.region_bytes = frec_region_bytes,
		.phys_addr = frec_region_phys,
		.boot_wall_ns = frec_region_boot_wall_ns,
		.flags = frec_clock_synchronized() ? FREC_REGION_CLOCK_SYNCED : 0,
		.release = utsname()->release,
		.caller_base = frec_caller_base(),
	};
	struct frec_region_header hdr;
	char where[32];
	u64 window;
	int err;

	/* The tables grow with the region: every size from the least fits. */
	frec_region_tables_fit(&geo, sites_wanted);
	frec_region_boot_id(geo.boot_id);
	/* so that the next boot's frec-decode puts the records on ftrace's clock */
	if (frec_trace_clock_offset(&frec_region_clock.trace_offset, &window)) {
		frec_region_clock.window = min_t(u64, window, U32_MAX);
		frec_region_clock.flags = FREC_REGION_STATE_TRACE_OFFSET |
			(geo.flags & FREC_REGION_CLOCK_SYNCED ?
			 FREC_REGION_STATE_OFFSET_CONSTANT : 0);
	}
	err = frec_region_layout(&hdr, &geo);
	if (err) {
		pr_err("%s=%.64s: %llu bytes are too few for the tables and a block of parts\n",
		       region ? "region" : region_label ? "region_label" : "vmcore_region",
		       region ?: region_label ?: vmcore_region,
		       frec_region_bytes);
		return -EINVAL;
	}
	frec_region_begin(frec_region_base, &hdr, ktime_get_real_fast_ns(),
			  local_clock(), &frec_region_clock, frec_region_wb_at_load);
	frec_region_ended = FREC_REGION_END_NONE;
	frec_region_parts_end = 0;
	/*
	 * The physical address, as e820 and /proc/iomem print ranges: where a
	 * reserve_mem= range landed differs between boots under KASLR, and
	 * the next boot finds the previous one's records only at the same
	 * address.  A vmcore_region= region is vmalloc()'d: no one range.
	 */
	if (frec_region_vmalloced)
		strscpy(where, "in vmalloc()'d memory", sizeof(where));
	else
		snprintf(where, sizeof(where), "at physical %#llx", frec_region_phys);
	pr_info("region: %llu KiB %s taken for this boot, boot id %16phN; site ids below %u, %u texts, %llu KiB of parts\n",
		frec_region_bytes >> 10, where, hdr.boot_id, geo.sites_max,
		geo.texts_max, le64_to_cpu(hdr.sect[FREC_REGION_PARTS].bytes) >> 10);
	return 0;
}

/**
 * DOC: Who writes the state
 *
 * The heartbeat, unload, oops and panic each write the state, one at a
 * time: its two copies alternate (frec_region_state_write()), and two
 * writers at once could both write the older one.  frec_region_state_busy
 * says who writes.  The end marked so far only rises; a writer writes
 * what it finds there.  A path that raises the end and finds another
 * writing leaves the write to it, and the holder looks at the end again
 * once it has let go:
 *
 *   raiser (oops, panic)                holder (heartbeat, ...)
 *   raise frec_region_ended    (A)      take busy
 *   smp_mb()                            write the state with the end
 *   busy taken: leave it       (B)      let go of busy            (C)
 *                                       smp_mb()
 *                                       the end rose: take busy again
 *                                       and write it              (D)
 *
 * Taking the region for this boot (frec_region_begin()) and sealing
 * entries order their stores as they reach memory, for the next boot's
 * reader alone, with write-backs (DOC: The region behind write-back
 * caches, kmod/lib/frec_region_build.c): LMM(frec_region_begin:A/B/C),
 * LMM(frec_region_seal:A/B), LMM(frec_region_save:A).
 *
 * LMM(frec_region_end:A) / LMM(frec_region_state_sync:D) and
 * LMM(frec_region_state_sync:C) / LMM(frec_region_end:B): store
 * buffering with a full barrier on each side, so either the raiser finds
 * busy free and writes, or the holder sees the raised end.  On arm64 too:
 * smp_mb() is DMB ISH, the store buffering pattern's one cure, and the
 * raise's and take's successful cmpxchg() are full barriers besides.
 *
 * A panic does not leave the write to a holder: by the time the panic
 * notifiers run, panic() has stopped the other CPUs (smp_send_stop(), on
 * 6.1 and 6.12 alike), so a holder on another CPU never lets go, and a
 * holder this CPU interrupted never goes on.  The panic writes over it.
 * (A kdump without crash_kexec_post_notifiers jumps to the capture kernel
 * before the notifiers: the region then says no end, as after a reset.)
 */

/* Raise the end marked so far to @end, if it is milder. */
static void frec_region_end_raise(u32 end)
{
	u32 old = READ_ONCE(frec_region_ended);

	while (old < end && !try_cmpxchg(&frec_region_ended, &old, end))
		;
}

/*
 * Holding busy: write the state with the end marked so far and write the
 * parts up to @used and the state back, let go, and do it again if an
 * oops or a panic raised the end meanwhile and left the write here.
 * Every end writes back the parts rings took (frec_region_use()) and
 * block 0, not the whole region (up to FREC_REGION_MAX_BYTES): the
 * tables and the pool were written back entry by entry when sealed.
 */
static void frec_region_state_sync(u64 used)
{
	u32 end;

	for (;;) {
		end = READ_ONCE(frec_region_ended);
		frec_region_state_put(end, used);
		/* Pairs with frec_region_end:B. */
		atomic_set_release(&frec_region_state_busy, 0); /* LMM(frec_region_state_sync:C) */
		smp_mb();
		/* Pairs with frec_region_end:A. */
		if (READ_ONCE(frec_region_ended) == end) /* LMM(frec_region_state_sync:D) */
			return;
		if (atomic_cmpxchg(&frec_region_state_busy, 0, 1))
			return;
		used = READ_ONCE(frec_region_parts_end);
	}
}

/*
 * The heartbeat: the state rewritten with the time, the end marked so far
 * kept, and the parts in use and the state written back, so that a reset
 * loses only records written since the last beat.  A pass over the parts
 * in use, whose lines the records since the last beat dirtied (the rest
 * are clean: a write-back of them is a cache look-up each).  A beat that
 * finds another path writing the state is skipped: that path writes the
 * time too.
 */
static void frec_region_beat(struct timer_list *t)
{
	if (!atomic_cmpxchg(&frec_region_state_busy, 0, 1))
		frec_region_state_sync(READ_ONCE(frec_region_parts_end));
	mod_timer(t, jiffies + FREC_REGION_HEARTBEAT_S * HZ);
}

/**
 * frec_region_wanted() - do the parameters ask for a region?
 *
 * Context: Any context.
 * Return: true if region= or region_label= is set (a range that outlives
 * the boot; vmcore_region= is not one).
 */
bool frec_region_wanted(void)
{
	return region || region_label;
}

/**
 * frec_region_in_memory() - is the region vmalloc'd (vmcore_region=)?
 *
 * Context: Any context, after frec_region_init().
 * Return: true if it is: its tables are for a kdump, no ring is persisted.
 */
bool frec_region_in_memory(void)
{
	return frec_region_vmalloced;
}

/**
 * frec_region_init() - claim the region the parameters name, keep the
 *	previous boot's content, and take the region for this boot (or, for
 *	vmcore_region=, allocate it and keep the kdump directory)
 * @root: frec's debugfs directory (frec/previous/ goes there).
 * @sites_wanted: the highest site id this boot may give (sites_max=):
 *	the region's site table holds it if the region is large enough
 *	(frec_region_tables_fit()).
 *
 * Context: Process context, module load.
 * Return: 0 (also without a region), -ENOMEM, -EINVAL for a region that cannot be
 * used (logged with the value).
 */
int frec_region_init(struct dentry *root, u32 sites_wanted)
{
	int err;

	if (!region && !region_label && !vmcore_region)
		return 0;
	if (!region_reboot_s || region_reboot_s > FREC_REGION_REBOOT_MAX_S) {
		pr_err("region_reboot_s=%u: want 1 to %u\n", region_reboot_s,
		       FREC_REGION_REBOOT_MAX_S);
		return -EINVAL;
	}
	err = vmcore_region ? frec_region_claim_memory() : frec_region_claim();
	if (err)
		return err;
	frec_region_boot_wall_ns = ktime_get_real_ns() - ktime_get_boottime_ns();
	/* Memory vmalloc'd now holds no earlier boot. */
	if (!frec_region_vmalloced)
		err = frec_previous_keep(frec_region_base, frec_region_bytes,
					 frec_region_phys, root,
					 frec_region_boot_wall_ns,
					 (u64)(FREC_REGION_HEARTBEAT_S + region_reboot_s) *
					 NSEC_PER_SEC);
	if (!err)
		err = frec_region_take(sites_wanted);
	if (!err && frec_region_vmalloced)
		err = frec_vmcore_init(frec_region_base, frec_region_bytes);
	if (err) {
		frec_previous_exit();
		frec_region_release();
		return err;
	}
	timer_setup(&frec_region_heartbeat, frec_region_beat, 0);
	mod_timer(&frec_region_heartbeat, jiffies + FREC_REGION_HEARTBEAT_S * HZ);
	return 0;
}

/**
 * frec_region_end() - say in the region how this boot ends
 * @end: FREC_REGION_END_CLEAN, _OOPS or _PANIC.
 *
 * Writes the state, then writes the parts in use and the state back from
 * the CPU caches (the entries were when they were sealed), so that a reset
 * right after keeps both.  An end is never replaced by a
 * milder one: an unload after an oops the boot survived leaves "oops".
 * A path that finds another writing the state leaves the write to it,
 * except a panic (DOC: Who writes the state).
 *
 * Context: Any context, NMI included (no lock, no allocation).
 */
void frec_region_end(u32 end)
{
	if (!frec_region_base)
		return;
	/* Pairs with frec_region_state_sync:D. */
	frec_region_end_raise(end); /* LMM(frec_region_end:A) */
	smp_mb();
	/* Pairs with frec_region_state_sync:C. */
	if (!atomic_cmpxchg(&frec_region_state_busy, 0, 1)) { /* LMM(frec_region_end:B) */
		frec_region_state_sync(READ_ONCE(frec_region_parts_end));
		return;
	}
	/* The holder is stopped or interrupted for good (DOC above). */
	if (end == FREC_REGION_END_PANIC) {
		frec_region_state_put(READ_ONCE(frec_region_ended),
				      READ_ONCE(frec_region_parts_end));
	}
}

/**
 * frec_region_hold_state() - tests only (debugfs test_fault): take the
 *	state's writer role and keep it, as a heartbeat stopped half way
 *	through its write would, or let it go as the heartbeat does
 * @hold: take it (true) or let it go (false).
 *
 * Context: Process context.
 */
void frec_region_hold_state(bool hold)
{
	if (!frec_region_base)
		return;
	if (hold)
		atomic_cmpxchg(&frec_region_state_busy, 0, 1);
	else if (atomic_read(&frec_region_state_busy))
		frec_region_state_sync(READ_ONCE(frec_region_parts_end));
}

/**
 * frec_region_exit() - mark a clean end, give the region back, remove
 *	frec/previous/
 *
 * Context: Process context, module unload, after the rings are gone.
 */
void frec_region_exit(void)
{
	if (frec_region_base) {
		timer_shutdown_sync(&frec_region_heartbeat);
		frec_region_end(FREC_REGION_END_CLEAN);
		pr_info("region: clean unload marked, %llu KiB written back\n",
			DIV_ROUND_UP(READ_ONCE(frec_region_wb_last), 1024));
		frec_vmcore_exit();
		frec_region_release();
	}
	frec_previous_exit();
}
