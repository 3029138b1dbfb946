// SPDX-License-Identifier: GPL-2.0
/*
 * frec_vmcore_kernel.c - the kdump directory (uapi/frec_vmcore.h): with
 * vmcore_region=, the physical addresses of the region's tables and of
 * every ring's per-CPU slots, kept in frec's own memory, so that
 * frec-decode --vmcore finds every ring in a kdump with no debuginfo
 * (doc/decode.md, "A kdump").
 *
 * A ring store is listed when it is allocated and taken out before its
 * slots are freed (frec_rings.c), in process context: the directory is
 * rewritten whole each time, into the older of two copies, so that a
 * crash in the middle of a rewrite leaves the other one whole.  A kdump
 * reads memory after the crashed kernel stopped every CPU: no write-back
 * is needed, only the order of the copy's stores.
 */

/**
 * DOC: Ordering of a directory rewrite
 *
 * The reader is the capture kernel's decoder, after every CPU of this
 * kernel stopped (crash_kexec() sends them an NMI and waits): it sees a
 * CPU's stores up to a point, in the order that CPU made them visible.
 *
 *   writer (frec_vmcore_lock held)          reader (frec-decode --vmcore)
 *   copy->csum = 0                (A)
 *   smp_wmb()
 *   every other field
 *   smp_wmb()
 *   copy->csum = its checksum     (B)        checksum matches: take it
 *
 * LMM(frec_vmcore_write:A) pairs with the decoder's checksum check: a
 * copy half rewritten fails it (but for a one in 2^32 chance), the other
 * copy holds the directory before the rewrite.
 * LMM(frec_vmcore_write:B) pairs with the same check: a matching checksum
 * comes with the fields it covers.
 * arm64: the smp_wmb()s are DMB ISHST, and the capture kernel reads after
 * every CPU of this one stopped: it sees a prefix of each CPU's stores in
 * that order (the reader needs no barrier: nothing writes any more).
 * A store's slots are freed only after a rewrite without it returned
 * (frec_vmcore_store_del()), so neither copy names freed pages but the
 * one being rewritten, which fails its check.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <frec_vmcore.h>

#include "frec_rb.h"
#include "frec_vmcore_kernel.h"
#include "frec_vmcore_dir.h"

/* Ring stores listed at most: more than the rings frec has in practice. */
#define FREC_VMCORE_STORES	256

struct frec_vmcore_store {
	char name[FREC_REGION_RING_NAME_LEN];
	unsigned int max_record_len;
	bool global_order;
	unsigned long nr_slots;
	struct frec_rb_cpu __percpu *cpus;
};

static DEFINE_MUTEX(frec_vmcore_lock);
/* The two copies; NULL without vmcore_region=.  Under frec_vmcore_lock. */
static struct frec_vmcore_dir *frec_vmcore_dirs[2];
static u64 frec_vmcore_gen;
static const void *frec_vmcore_tables;
static u64 frec_vmcore_tables_bytes;
/* Index + 1 is a store's id; name[0] 0: free. */
static struct frec_vmcore_store frec_vmcore_stores[FREC_VMCORE_STORES];
static bool frec_vmcore_full_logged;

/*
 * The extents a copy is being rewritten with; those from @start on are
 * the tables' or the ring's being listed, the only ones a page may merge
 * into (a ring's extents are its own, whatever memory is next to it).
 */
struct frec_vmcore_build {
	struct frec_vmcore_extent *ext;
	u32 nr;
	u32 max;
	u32 start;
};

static phys_addr_t frec_vmcore_phys(const void *p)
{
	if (is_vmalloc_addr(p))
		return PFN_PHYS(vmalloc_to_pfn(p)) + offset_in_page(p);
	/* Cast: virt_to_phys() takes a plain pointer; it reads nothing. */
	return virt_to_phys((void *)p);
}

/*
 * Add the extents of @bytes at @p (vmalloc'd or in the linear map; NULL:
 * zeros), merging pages that follow each other; false if @b is full.
 */
static bool frec_vmcore_extents(struct frec_vmcore_build *b, const void *p, u64 bytes)
{
	struct frec_vmcore_extent *last;
	u64 phys, n;

	while (bytes) {
		n = p ? min_t(u64, bytes, PAGE_SIZE - offset_in_page(p)) : bytes;
		phys = p ? frec_vmcore_phys(p) : FREC_VMCORE_NO_PHYS;
		last = b->nr > b->start ? &b->ext[b->nr - 1] : NULL;
		if (last && phys != FREC_VMCORE_NO_PHYS &&
		    le64_to_cpu(last->phys) + le64_to_cpu(last->bytes) == phys) {
			le64_add_cpu(&last->bytes, n);
		} else {
			if (b->nr == b->max)
				return false;
			b->ext[b->nr].phys = cpu_to_le64(phys);
			b->ext[b->nr].bytes = cpu_to_le64(n);
			b->nr++;
		}
		if (p)
			p += n;
		bytes -= n;
	}
	return true;
}

/* Store @s as ring @r of @b; false if @b is full. */
static bool frec_vmcore_ring(struct frec_vmcore_build *b, struct frec_vmcore_ring *r,
			     const struct frec_vmcore_store *s)
{
	unsigned int cpu;
	u32 first = b->nr;

	b->start = first;
	memset(r, 0, sizeof(*r));
	memcpy(r->name, s->name, sizeof(r->name));
	r->kind = cpu_to_le32(s->max_record_len ? 1 : 0);
	r->order = cpu_to_le32(s->global_order ? FREC_RING_ORDER_GLOBAL : FREC_RING_ORDER_CPU);
	r->nr_cpus = cpu_to_le32(nr_cpu_ids);
	r->max_record_len = cpu_to_le32(s->max_record_len);
	r->nr_slots = cpu_to_le64(s->nr_slots);
	/* A CPU id that is not possible has no slots: zeros, no record. */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (!frec_vmcore_extents(b, cpu_possible(cpu) ?
					 per_cpu_ptr(s->cpus, cpu)->slots : NULL,
					 (u64)s->nr_slots * FREC_SLOT_BYTES))
			return false;
	r->first_extent = cpu_to_le32(first);
	r->nr_extents = cpu_to_le32(b->nr - first);
	return true;
}

/* Rewrite the older copy with the stores listed now; frec_vmcore_lock held. */
static void frec_vmcore_write(void)
{
	struct frec_vmcore_dir *d = frec_vmcore_dirs[(frec_vmcore_gen + 1) & 1];
	struct frec_vmcore_ring *rings = (void *)(d + 1);
	struct frec_vmcore_build b;
	u32 nr_rings = 0, listed, i;

	/* Pairs with the decoder's checksum check. */
	WRITE_ONCE(d->csum, 0); /* LMM(frec_vmcore_write:A) */
	smp_wmb();
	for (i = 0; i < FREC_VMCORE_STORES; i++)
		nr_rings += !!frec_vmcore_stores[i].name[0];
	listed = nr_rings;
	b.ext = (void *)(rings + listed);
	b.max = (FREC_VMCORE_DIR_BYTES - ((u8 *)b.ext - (u8 *)d)) / sizeof(*b.ext);
	b.nr = 0;
	b.start = 0;
	/* Checked at init: the tables' extents fit. */
	frec_vmcore_extents(&b, frec_vmcore_tables, frec_vmcore_tables_bytes);
	d->tables_extents = cpu_to_le32(b.nr);
	nr_rings = 0;
	for (i = 0; i < FREC_VMCORE_STORES; i++) {
		if (!frec_vmcore_stores[i].name[0])
			continue;
		if (!frec_vmcore_ring(&b, &rings[nr_rings], &frec_vmcore_stores[i])) {
			if (!frec_vmcore_full_logged)
				pr_warn("ring %s: the kdump directory is full: not in a kdump\n",
					frec_vmcore_stores[i].name);
			frec_vmcore_full_logged = true;
			/*
			 * Its extents go: b.start is its first, where the
			 * ring entry has none (it is filled on success).
			 */
			b.nr = b.start;
			continue;
		}
		nr_rings++;
	}
	if (nr_rings < listed) {
		/* Rings left out: the extents move up behind the rings kept. */
		memmove(rings + nr_rings, b.ext, b.nr * sizeof(*b.ext));
		b.ext = (void *)(rings + nr_rings);
	}
	memcpy(d->magic, FREC_VMCORE_MAGIC, FREC_VMCORE_MAGIC_LEN);
	d->version = cpu_to_le32(FREC_VMCORE_VERSION);
	d->dir_bytes = cpu_to_le32((u8 *)(b.ext + b.nr) - (u8 *)d);
	d->gen = cpu_to_le64(++frec_vmcore_gen);
	d->tables_bytes = cpu_to_le64(frec_vmcore_tables_bytes);
	d->nr_rings = cpu_to_le32(nr_rings);
	d->nr_extents = cpu_to_le32(b.nr);
	/* Pairs with the decoder's checksum check. */
	smp_wmb();
	WRITE_ONCE(d->csum, cpu_to_le32(frec_vmcore_dir_csum(d, le32_to_cpu(d->dir_bytes))));
	/* LMM(frec_vmcore_write:B) above */
}

/**
 * frec_vmcore_init() - keep the kdump directory of the region's tables
 * @tables: the region, vmalloc'd (vmcore_region=).
 * @tables_bytes: its size, at most FREC_VMCORE_REGION_MAX.
 *
 * Context: Process context, module load, before any ring.
 * Return: 0 or -ENOMEM.
 */
int frec_vmcore_init(void *tables, u64 tables_bytes)
{
	unsigned int order = get_order(FREC_VMCORE_DIR_BYTES);
	int i;

	for (i = 0; i < 2; i++) {
		frec_vmcore_dirs[i] = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, order);
		if (!frec_vmcore_dirs[i]) {
			frec_vmcore_exit();
			return -ENOMEM;
		}
	}
	mutex_lock(&frec_vmcore_lock);
	frec_vmcore_tables = tables;
	frec_vmcore_tables_bytes = tables_bytes;
	frec_vmcore_gen = 0;
	frec_vmcore_full_logged = false;
	frec_vmcore_write();
	mutex_unlock(&frec_vmcore_lock);
	pr_info("vmcore_region: %llu KiB of tables, every ring listed for a kdump\n",
		tables_bytes >> 10);
	return 0;
}

/**
 * frec_vmcore_exit() - free the directory
 *
 * Context: Process context, module unload, after the rings are gone.
 */
void frec_vmcore_exit(void)
{
	unsigned int order = get_order(FREC_VMCORE_DIR_BYTES);
	int i;

	mutex_lock(&frec_vmcore_lock);
	for (i = 0; i < 2; i++) {
		free_pages((unsigned long)frec_vmcore_dirs[i], order);
		frec_vmcore_dirs[i] = NULL;
	}
	memset(frec_vmcore_stores, 0, sizeof(frec_vmcore_stores));
	mutex_unlock(&frec_vmcore_lock);
}

/**
 * frec_vmcore_store_add() - list a ring store in the kdump directory
 * @name: the ring's name.
 * @max_record_len: 0 for an event ring, else its longest payload.
 * @global_order: the ring takes its seq from the shared counter.
 * @nr_slots: slots per CPU.
 * @cpus: the store's per-CPU parts, each ->slots set for every possible
 *	CPU, not persisted (in the linear map or vmalloc'd).
 *
 * Context: Process context; sleeps.
 * Return: the store's id for frec_vmcore_store_del(), or 0 if it is not
 * listed (no directory: no vmcore_region=; or no room, logged once).
 */
unsigned int frec_vmcore_store_add(const char *name, unsigned int max_record_len,
				   bool global_order, unsigned long nr_slots,
				   struct frec_rb_cpu __percpu *cpus)
{
	struct frec_vmcore_store *s;
	unsigned int i, id = 0;

	mutex_lock(&frec_vmcore_lock);
	if (!frec_vmcore_dirs[0])
		goto out;
	for (i = 0; i < FREC_VMCORE_STORES && !id; i++) {
		s = &frec_vmcore_stores[i];
		if (s->name[0])
			continue;
		strscpy(s->name, name, sizeof(s->name));
		s->max_record_len = max_record_len;
		s->global_order = global_order;
		s->nr_slots = nr_slots;
		s->cpus = cpus;
		id = i + 1;
	}
	if (id)
		frec_vmcore_write();
	else if (!frec_vmcore_full_logged)
		pr_warn("ring %s: more than %u stores: not in a kdump\n", name,
			FREC_VMCORE_STORES);
	frec_vmcore_full_logged |= !id;
out:
	mutex_unlock(&frec_vmcore_lock);
	return id;
}

/**
 * frec_vmcore_store_del() - take a store out of the kdump directory
 *	before its slots are freed
 * @id: what frec_vmcore_store_add() returned (0: nothing to do).
 *
 * Context: Process context; sleeps.
 */
void frec_vmcore_store_del(unsigned int id)
{
	if (!id)
		return;
	mutex_lock(&frec_vmcore_lock);
	if (frec_vmcore_dirs[0]) {
		memset(&frec_vmcore_stores[id - 1], 0, sizeof(frec_vmcore_stores[0]));
		frec_vmcore_write();
	}
	mutex_unlock(&frec_vmcore_lock);
}
