// SPDX-License-Identifier: GPL-2.0
/*
 * frec_persist.c - the rings persist_rings= names, recorded into the black
 * box region, and the site entries their records need (doc/blackbox.md).
 *
 *   persist_rings=GLOB,...   rings whose per-CPU slot arrays live in the
 *                            region's parts section (names may be of
 *                            rings created later); needs region= or
 *                            region_label=
 *
 * A persisted ring is any ring whose frec_rb_cpu slots point into the
 * region: recording into it costs what recording into any ring costs; its
 * heads and counters stay in ordinary memory.  A store's entry and parts
 * are taken first-fit (frec_persist_lock, process context: rings are
 * created there).  A store replaced by a clear, a resize or an order
 * change gives them back (frec_persist_parts_retire(), then
 * frec_persist_parts_free()): its records are thrown away, and the next
 * boot must not show them as the ring's.  A new store that fits only in
 * what the old one gives back takes it then (frec_rings.c swaps twice).
 * A ring freed (its module unloaded, or frec unloaded) keeps its entry
 * and its records, which the next boot shows.
 *
 * Every site that gets an id gets its entry at that index when it
 * registers, from any context, NMI included: pool bytes are taken with a
 * cmpxchg on frec_persist_pool_used, the entry written whole and sealed
 * last (frec_region_site_write()); an entry rewritten for a site id given
 * again has its checksum cleared first.  Its caller's name follows on
 * its first record, sealed apart.  An entry the pool has no room for is
 * sealed without texts (FREC_REGION_SITE_NO_TEXT): the texts sweep logs
 * it once, and the next boot drops its records, counted as no_text.
 *
 * Texts (frec_persist_texts.c) are written by one path in process
 * context.
 */

/**
 * DOC: Ordering of the region's entries
 *
 * The reader of an entry is the next boot, after a reset (or a capture
 * kernel, or frec-decode): no CPU of this boot reads the tables.  What it
 * reads is what reached memory, and the region is mapped write-back: a
 * store gets there when its line is evicted, in no order a barrier gives,
 * or when it is written back (frec_region_wb()).  So the order of an
 * entry's stores is made with write-backs, so that the checksum is the
 * last store of an entry to reach memory and the first one cleared there
 * when it is rewritten:
 *
 *   writer (this boot)                     reader (the next boot)
 *   csum = 0; write back      (A)
 *   fields, strings in the pool
 *   write back                (seal:A)
 *   csum = crc(fields, strings)            crc(fields, strings) == csum?
 *   write back                (seal:B)
 *
 * A reset anywhere in between leaves an entry whose checksum does not
 * match its bytes (the cleared one matches them by a one in 2^32
 * chance), which the reader rejects alone; never the old checksum
 * sealing new fields.  The seals (kmod/lib/frec_region_build.c) write
 * the entry back once sealed, before any record that names it is written
 * (LMM(frec_region_seal:B)): a record in memory names an entry there.
 *
 * LMM(frec_region_parts:A), LMM(frec_region_retire:A) (a store replaced
 * in the same boot) pair with frec_region_ring_get()'s crc check
 * LMM(frec_region_site_write:A) pairs with frec_region_site_get()'s crc check
 * LMM(frec_persist_site_caller:A) pairs with frec_region_site_get()'s
 *                                 caller_csum check
 * LMM(frec_region_seal:A/B) (in the seals) pair with the _get() checks
 *
 * A ring or text entry is written into a free entry (its csum 0 in
 * memory: since the take, or since the entry was given back), so it has
 * no (A); a ring entry given back is zeroed and written back
 * (frec_region_ring_retire()), and the parts a new entry takes are zeroed
 * and written back before it is sealed (frec_region_parts_zero()):
 * memory never holds a sealed entry over a cleared store's records, and a
 * retired entry is gone from memory when the retirement returns
 * (tools/harness/test_region_cache.c clears rings between resets).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <frec.h>

#include "frec_filter.h"
#include "frec_kernel_text.h"
#include "frec_persist.h"
#include "frec_region_image.h"
#include "frec_region_kernel.h"

static char *persist_rings;
module_param(persist_rings, charp, 0444);
MODULE_PARM_DESC(persist_rings, "rings kept in the black box region, comma-separated globs");

static struct frec_filter *frec_persist_filter;
/* vmcore_region=: every ring, whose texts the sweep keeps for a kdump. */
static struct frec_filter *frec_persist_all;
static DEFINE_MUTEX(frec_persist_lock);
/*
 * The parts of the store of each ring entry, offsets in the parts
 * section: bytes 0 if the entry has none (free).  Under frec_persist_lock.
 */
static struct {
	u64 off;
	u64 bytes;
} frec_persist_ring_parts[FREC_REGION_RINGS_MAX];
static atomic_t frec_persist_pool_used = ATOMIC_INIT(0);
/* Sites whose entry the pool had no room for the texts of; the first's id. */
static atomic_t frec_persist_no_text = ATOMIC_INIT(0);
static atomic_t frec_persist_no_text_first = ATOMIC_INIT(0);
static u32 frec_persist_texts_used;	/* the texts sweep's alone */

/* Section @i of the region: its first byte, and its size in *@bytes. */
static u8 *frec_persist_sect(unsigned int i, u64 *bytes)
{
	struct frec_region_header *hdr = frec_region_mapped();

	if (!hdr)
		return NULL;
	*bytes = le64_to_cpu(hdr->sect[i].bytes);
	return (u8 *)hdr + le64_to_cpu(hdr->sect[i].offset);
}

/* Table @i of the region: its first entry, and its count in *@nr. */
static void *frec_persist_table(unsigned int i, u32 *nr)
{
	struct frec_region_header *hdr = frec_region_mapped();

	if (!hdr)
		return NULL;
	*nr = le32_to_cpu(hdr->sect[i].nr_entries);
	return (u8 *)hdr + le64_to_cpu(hdr->sect[i].offset);
}

/*
 * The lowest offset of @bytes in the parts section (@parts_bytes) that no
 * entry's parts overlap, or -1; the parts of entry @skip (an index, or -1)
 * counted as free.  frec_persist_lock held.
 */
static s64 frec_persist_parts_fit(u64 bytes, u64 parts_bytes, s64 skip)
{
	u64 off = 0, o, b;
	u32 i;

again:
	for (i = 0; i < FREC_REGION_RINGS_MAX; i++) {
		if (i == skip)
			continue;
		o = frec_persist_ring_parts[i].off;
		b = frec_persist_ring_parts[i].bytes;
		if (b && o < off + bytes && off < o + b) {
			off = o + b;
			goto again;
		}
	}
	return off + bytes <= parts_bytes ? off : -1;
}

/* persist_rings= parsed into a new filter in *@out; logged if bad. */
static int frec_persist_parse(struct frec_filter **out)
{
	char msg[FREC_FILTER_MSG_MAX];
	struct frec_filter *f;

	if (!frec_region_wanted()) {
		pr_err("persist_rings=%.64s: no region (region= or region_label=)\n",
		       persist_rings);
		return -EINVAL;
	}
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	if (frec_filter_parse_ring_list(f, persist_rings, msg, sizeof(msg))) {
		pr_err("persist_rings=%.64s: %s\n", persist_rings, msg);
		kfree(f);
		return -EINVAL;
	}
	*out = f;
	return 0;
}

/**
 * frec_persist_check() - is the persist_rings= parameter one frec can take?
 *
 * Context: Process context, module load, before frec_region_init(): a
 * load refused for a bad value leaves the previous boot's black box as it
 * found it.
 * Return: 0, -EINVAL for a bad glob list or one without a region (logged
 * with the value), -ENOMEM.
 */
int frec_persist_check(void)
{
	struct frec_filter *f = NULL;
	int err;

	if (!persist_rings || !*persist_rings)
		return 0;
	err = frec_persist_parse(&f);
	kfree(f);
	return err;
}

/**
 * frec_persist_init() - take the persist_rings= parameter (with
 *	vmcore_region=, every ring's texts are swept into the region)
 *
 * Context: Process context, module load, after frec_persist_check() and
 * frec_region_init().
 * Return: 0, -EINVAL for a bad glob list or one without a region (logged
 * with the value), -ENOMEM.
 */
int frec_persist_init(void)
{
	char msg[FREC_FILTER_MSG_MAX];

	if (frec_region_in_memory()) {
		frec_persist_all = kzalloc(sizeof(*frec_persist_all), GFP_KERNEL);
		if (!frec_persist_all)
			return -ENOMEM;
		if (frec_filter_parse_ring_list(frec_persist_all, "*", msg, sizeof(msg))) {
			pr_err("every ring: %s\n", msg);
			kfree(frec_persist_all);
			frec_persist_all = NULL;
			return -EINVAL;
		}
	}
	if (!persist_rings || !*persist_rings)
		return 0;
	return frec_persist_parse(&frec_persist_filter);
}

/**
 * frec_persist_exit() - forget persist_rings=
 *
 * Context: Process context, module unload, after the rings are gone.
 */
void frec_persist_exit(void)
{
	kfree(frec_persist_filter);
	frec_persist_filter = NULL;
	kfree(frec_persist_all);
	frec_persist_all = NULL;
}

/**
 * frec_persist_parts() - the region's slots for a new ring store, if
 *	persist_rings= names the ring
 * @name: the ring's name.
 * @nr_slots: slots per CPU.
 * @max_record_len: 0 for an event ring, else its longest payload.
 * @global_order: the ring takes its seq from the shared counter.
 * @replaces: the entry of the store the new one replaces, as this set
 *	@entry for it (0: none); it still holds its entry and parts.
 * @entry: set to the ring entry's index plus one (0 if not persisted).
 *
 * Context: Process context; sleeps.
 * Return: CPU 0's part (CPU c's is c * @nr_slots slots later, for every
 * c below nr_cpu_ids), zeroed; NULL if the ring is not persisted or the
 * region has no room (logged); ERR_PTR(-EAGAIN) if it has room only once
 * @replaces gives its entry and parts back (frec_persist_parts_free()).
 */
struct frec_slot *frec_persist_parts(const char *name, u64 nr_slots,
				     unsigned int max_record_len,
				     bool global_order, unsigned int replaces,
				     unsigned int *entry)
{
	struct frec_region_ring *rings, *e = NULL;
	u64 bytes = nr_slots * FREC_SLOT_BYTES * nr_cpu_ids, parts_bytes;
	s64 off = -1;
	u32 i, nr;
	u8 *parts;

	*entry = 0;
	if (!frec_persist_filter || !frec_filter_ring(frec_persist_filter, name))
		return NULL;
	mutex_lock(&frec_persist_lock);
	/* The header's count, as the reader takes it (the table may have more room). */
	rings = frec_persist_table(FREC_REGION_RINGS, &nr);
	parts = frec_persist_sect(FREC_REGION_PARTS, &parts_bytes);
	for (i = 0; i < min_t(u32, nr, FREC_REGION_RINGS_MAX); i++) {
		if (!frec_persist_ring_parts[i].bytes) {
			e = &rings[i];
			break;
		}
	}
	if (e)
		off = frec_persist_parts_fit(bytes, parts_bytes, -1);
	/* A store as large as the one it replaces, or larger, fits after it. */
	if (off < 0 && replaces &&
	    frec_persist_parts_fit(bytes, parts_bytes, replaces - 1) >= 0) {
		mutex_unlock(&frec_persist_lock);
		return ERR_PTR(-EAGAIN);
	}
	if (off < 0) {
		mutex_unlock(&frec_persist_lock);
		pr_err("ring %s: no room in the region for %llu bytes of parts%s: not persisted\n",
		       name, bytes, e ? "" : " (no free ring entry)");
		return NULL;
	}
	frec_persist_ring_parts[i].off = off;
	frec_persist_ring_parts[i].bytes = bytes;
	parts += off;
	frec_region_parts_zero(parts, bytes, frec_region_wb);
	memset(e, 0, sizeof(*e));
	e->id = cpu_to_le32(i);
	e->kind = cpu_to_le32(max_record_len ? 1 : 0);
	e->order = cpu_to_le32(global_order ? FREC_RING_ORDER_GLOBAL : FREC_RING_ORDER_CPU);
	e->nr_cpus = cpu_to_le32(nr_cpu_ids);
	e->max_record_len = cpu_to_le32(max_record_len);
	e->nr_slots = cpu_to_le64(nr_slots);
	e->parts_offset = cpu_to_le64((u8 *)parts - (u8 *)frec_region_mapped());
	strscpy(e->name, name, sizeof(e->name));
	frec_region_ring_seal(e, frec_region_wb);
	/* Written back by the heartbeat from now on. */
	frec_region_use(le64_to_cpu(e->parts_offset) + bytes);
	mutex_unlock(&frec_persist_lock);
	pr_info("ring %s: recorded into the region (%llu KiB)\n", name, bytes >> 10);
	*entry = i + 1;
	return (struct frec_slot *)parts;
}

/**
 * frec_persist_parts_retire() - take a replaced store's entry out of the
 *	region, so that the next boot does not show its records
 * @entry: the store's entry, as frec_persist_parts() set it (0: none).
 *
 * The entry is zeroed (free) in memory; its parts stay taken until
 * frec_persist_parts_free(), as writers that loaded the store may still
 * record into them.
 *
 * Context: Process context; the store is no longer the ring's.
 */
void frec_persist_parts_retire(unsigned int entry)
{
	struct frec_region_ring *rings;
	u32 nr;

	if (!entry)
		return;
	rings = frec_persist_table(FREC_REGION_RINGS, &nr);
	mutex_lock(&frec_persist_lock);
	frec_region_ring_retire(&rings[entry - 1], frec_region_wb);
	mutex_unlock(&frec_persist_lock);
}

/**
 * frec_persist_parts_free() - give back a retired store's entry and parts
 * @entry: the store's entry (0: none), retired by
 *	frec_persist_parts_retire().
 *
 * Context: Process context, once no writer can be in the store.
 */
void frec_persist_parts_free(unsigned int entry)
{
	if (!entry)
		return;
	mutex_lock(&frec_persist_lock);
	frec_persist_ring_parts[entry - 1].bytes = 0;
	mutex_unlock(&frec_persist_lock);
}

/* @len bytes of the pool, from any context: their offset, or -1. */
static s64 frec_persist_pool_take(u32 len, u64 pool_bytes)
{
	int used = atomic_read(&frec_persist_pool_used);

	do {
		if ((u64)used + len > pool_bytes)
			return -1;
	} while (!atomic_try_cmpxchg(&frec_persist_pool_used, &used, used + len));
	return used;
}

/* The site entry of @id, or NULL (no region, id past the table). */
static struct frec_region_site *frec_persist_site_entry(unsigned int id,
							u8 **pool, u64 *pool_bytes)
{
	struct frec_region_site *sites;
	u32 nr;

	sites = frec_persist_table(FREC_REGION_SITES, &nr);
	if (!sites || id >= nr)
		return NULL;
	*pool = frec_persist_sect(FREC_REGION_POOL, pool_bytes);
	return &sites[id];
}

/**
 * frec_persist_site_ids() - the highest site id the region's site table
 *	holds
 *
 * Context: Process context, after frec_region_init().
 * Return: the id, or 0 without a region.
 */
unsigned int frec_persist_site_ids(void)
{
	u32 nr = 0;

	if (!frec_persist_table(FREC_REGION_SITES, &nr) || !nr)
		return 0;
	return nr - 1;
}

/**
 * frec_persist_site() - write a site's entry, as it gets id @id
 * @site: the site.
 * @id: its id.
 *
 * Context: Any context, NMI included: no lock, no allocation.
 */
void frec_persist_site(const struct frec_site *site, unsigned int id)
{
	const char *s[FREC_REGION_SITE_TEXTS] = {
		site->modname ?: "", site->file ?: "", site->func ?: "", site->fmt ?: ""
	};
	u32 len[FREC_REGION_SITE_TEXTS], total = 0, i;
	struct frec_region_site *e;
	u64 pool_bytes;
	s64 off;
	u8 *pool;

	e = frec_persist_site_entry(id, &pool, &pool_bytes);
	if (!e)
		return;
	for (i = 0; i < FREC_REGION_SITE_TEXTS; i++) {
		len[i] = strlen(s[i]);
		total += len[i];
	}
	off = frec_persist_pool_take(total, pool_bytes);
	if (off < 0) {
		/* Told by the texts sweep, which can log (this may be NMI). */
		atomic_cmpxchg(&frec_persist_no_text_first, 0, id);
		atomic_inc(&frec_persist_no_text);
	}
	frec_region_site_write(e, pool, off, id, site->code_level, site->line, s, len,
			       frec_region_wb);
}

/**
 * frec_persist_sites_no_text() - how many site entries the region's pool
 *	had no room for the texts of
 * @first: set to the first such site's id (0 if none).
 * @pool_bytes: set to the pool's size.
 *
 * Context: Any context.
 * Return: the count; the next boot drops those sites' records, counted
 * as no_text.
 */
unsigned int frec_persist_sites_no_text(unsigned int *first, u64 *pool_bytes)
{
	*pool_bytes = 0;
	frec_persist_sect(FREC_REGION_POOL, pool_bytes);
	*first = atomic_read(&frec_persist_no_text_first);
	return atomic_read(&frec_persist_no_text);
}

/*
 * A record in memory that still names an id by the old site would show
 * under the new site's entry after a reset: its repointed word
 * (frec_formats_module_going()) must reach memory before an entry
 * rewritten for the id is sealed (frec_region_site_write()), not at the
 * next heartbeat (tools/harness/test_region_cache.c gives ids again).
 */

/**
 * frec_persist_records_wb() - write back the records of the persisted
 *	rings, repointed away from site ids about to be given again
 *
 * Context: Process context, the module notifier (frec_sites_going()),
 * after the records were repointed and before the ids are given back.
 */
void frec_persist_records_wb(void)
{
	frec_region_parts_sync();
}

/**
 * frec_persist_site_caller() - write a site's first caller and its name,
 *	as the dump names it, into its entry
 * @site: the site, its caller set.
 * @id: its id.
 *
 * Context: Any context, NMI included: no lock, no allocation.
 */
void frec_persist_site_caller(const struct frec_site *site, unsigned int id)
{
	/*
	 * On the stack, also in NMI: printk's %pS (symbol_string()) names a
	 * symbol in a buffer of this size on the stack of an NMI backtrace,
	 * and this runs once per site, on its first record, not nested.
	 */
	char sym[KSYM_SYMBOL_LEN];
	struct frec_region_site *e;
	unsigned long caller;
	u64 pool_bytes;
	u8 *pool;
	s64 off;
	u32 len;

	e = frec_persist_site_entry(id, &pool, &pool_bytes);
	if (!e)
		return;
	/*
	 * The site records now, so its caller is live code: named as the
	 * dump names a caller (frec_site_caller_symbol() also serves gone
	 * ones, under frec_sites_lock, which this context cannot take).
	 */
	caller = READ_ONCE(site->caller);
	if (!caller || frec_format_kernel_symbol_name(sym, caller, 'S') < 0)
		return;
	len = strlen(sym);
	off = frec_persist_pool_take(len, pool_bytes);
	if (off < 0)
		return;
	WRITE_ONCE(e->caller_csum, 0);
	/*
	 * The cleared checksum in memory before the caller changes:
	 * LMM(frec_persist_site_caller:A).
	 */
	frec_region_wb(&e->caller_csum, sizeof(e->caller_csum));
	e->caller = cpu_to_le64(caller);
	frec_region_str_put(&e->caller_name, pool, off, sym, len);
	frec_region_site_seal_caller(e, pool, frec_region_wb);
}

/**
 * frec_persist_ring_filter() - the rings whose texts the region keeps:
 *	those persist_rings= names, or every ring with vmcore_region=
 *
 * Context: Any context, while frec is loaded.
 * Return: the filter (its ring list), or NULL if no ring's texts are kept.
 */
const struct frec_filter *frec_persist_ring_filter(void)
{
	return frec_persist_filter ?: frec_persist_all;
}

/**
 * frec_persist_site_names() - does the region's entry of site @id name
 *	@caller already?
 * @id: a site id as records hold it.
 * @caller: a record's caller.
 *
 * Context: Any context.
 * Return: true if the entry's caller is @caller (its name is there).
 */
bool frec_persist_site_names(u64 id, u64 caller)
{
	struct frec_region_site *e;
	u64 pool_bytes;
	u8 *pool;

	if (id >= FREC_SITE_ID_LIMIT)
		return false;
	e = frec_persist_site_entry(id, &pool, &pool_bytes);
	return e && le64_to_cpu(READ_ONCE(e->caller)) == caller &&
	       READ_ONCE(e->caller_csum);
}

/**
 * frec_persist_text_room() - the size of the region's texts section
 * @entries: its entries.
 * @pool_bytes: the bytes of its string pool.
 *
 * The tables grow with the region (frec_region_tables_fit()), so what the
 * sweep may spend on later texts is a share of these, not a constant.
 *
 * Context: Any context that may call frec_persist_text().
 * Return: true; false without a region.
 */
bool frec_persist_text_room(u32 *entries, u64 *pool_bytes)
{
	if (!frec_persist_table(FREC_REGION_TEXTS, entries))
		return false;
	return frec_persist_sect(FREC_REGION_POOL, pool_bytes);
}

/**
 * frec_persist_text() - write a text entry: what a record's address
 *	points to, as the dump prints it
 * @addr: the address records hold.
 * @from: 0 for @addr's first text; for a later one, the last time (the
 *	rings' clock) the earlier text was seen there: records stamped
 *	after it have this text.
 * @kind: FREC_REGION_TEXT_STRING, FREC_REGION_TEXT_SYMBOL, or
 *	FREC_REGION_TEXT_TASK with a pid in @addr.
 * @text: the text (not NUL-terminated in the region).
 * @len: its length.
 *
 * Context: Process context: the texts sweep (frec_persist_texts.c), the
 * only writer of texts.
 * Return: 0; -ENOSPC if the texts table or the pool is full; -ENODEV
 * without a region.
 */
int frec_persist_text(u64 addr, u64 from, u32 kind, const char *text, u32 len)
{
	struct frec_region_text *texts, *e;
	u64 pool_bytes;
	u32 nr;
	u8 *pool;
	s64 off;

	texts = frec_persist_table(FREC_REGION_TEXTS, &nr);
	if (!texts)
		return -ENODEV;
	if (frec_persist_texts_used >= nr)
		return -ENOSPC;
	pool = frec_persist_sect(FREC_REGION_POOL, &pool_bytes);
	off = frec_persist_pool_take(len, pool_bytes);
	if (off < 0)
		return -ENOSPC;
	e = &texts[frec_persist_texts_used++];
	e->addr = cpu_to_le64(addr);
	e->from = cpu_to_le64(from);
	e->kind = cpu_to_le32(kind);
	frec_region_str_put(&e->text, pool, off, text, len);
	frec_region_text_seal(e, pool, frec_region_wb);
	return 0;
}
