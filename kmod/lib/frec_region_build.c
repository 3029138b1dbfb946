// SPDX-License-Identifier: GPL-2.0
/*
 * frec_region_build.c - writing frec's black box: a new region's header
 * and state, and the checksums of its entries.
 *
 * The module lays a region out when a boot takes it (after it has kept
 * the previous boot's content), then fills entries as rings are created
 * and sites register; frec-gen builds test images with the same code.
 * Each entry is written whole and then sealed (its checksum stored last),
 * so that a reset in the middle of a write leaves an entry the reader
 * rejects, never one it misreads.  See doc/blackbox.md.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#else
#include "frec_user.h"
#endif

#include "frec_region_image.h"

static u64 frec_region_round_block(u64 n)
{
	return (n + FREC_REGION_BLOCK - 1) / FREC_REGION_BLOCK * FREC_REGION_BLOCK;
}

/* @n rounded down to a block, at least one. */
static u64 frec_region_floor_block(u64 n)
{
	return n < FREC_REGION_BLOCK ? FREC_REGION_BLOCK :
	       n / FREC_REGION_BLOCK * FREC_REGION_BLOCK;
}

/**
 * frec_region_tables_fit() - size a region's tables to the region
 * @geo: the geometry; @region_bytes set, the tables' sizes filled in.
 * @sites_wanted: the highest site id the boot gives (sites_max=).
 *
 * The tables grow with the region, so that any region of at least
 * FREC_REGION_MIN_BYTES has a block of parts (the smallest: one block
 * per section), and a 1 MiB region keeps 4096 site and text entries and
 * a 256 KiB pool: about 5/16 of the region for sites, 1/8 for texts, 1/4
 * for the pool, each a whole number of blocks.  Each stops at what it can
 * use: the sites at @sites_wanted + 1 entries (id 0 unused), the texts at
 * FREC_REGION_TEXTS_MAX, the pool at 64 bytes a site (what a 1 MiB
 * region gives each of its 4096), and at least 256 KiB; the parts take
 * the rest.
 *
 * Context: Any context.
 */
void frec_region_tables_fit(struct frec_region_geometry *geo, u32 sites_wanted)
{
	u64 r = geo->region_bytes, sites = (u64)sites_wanted + 1;
	u64 pool_max = max_t(u64, 256 * 1024, sites * 64);

	geo->rings_max = FREC_REGION_RINGS_MAX;
	geo->sites_max = min_t(u64, sites, frec_region_floor_block(r / 16 * 5) /
			       sizeof(struct frec_region_site));
	geo->texts_max = min_t(u64, FREC_REGION_TEXTS_MAX, frec_region_floor_block(r / 8) /
			       sizeof(struct frec_region_text));
	geo->pool_bytes = min_t(u64, pool_max, frec_region_floor_block(r / 4));
}

/* Place section @i at *@off, for @nr entries of @entry bytes or @bytes. */
static void frec_region_place(struct frec_region_header *hdr, unsigned int i,
			      u64 *off, u32 entry, u32 nr, u64 bytes)
{
	if (entry)
		bytes = (u64)entry * nr;
	bytes = frec_region_round_block(bytes ? bytes : 1);
	hdr->sect[i].offset = cpu_to_le64(*off);
	hdr->sect[i].bytes = cpu_to_le64(bytes);
	hdr->sect[i].entry_bytes = cpu_to_le32(entry);
	hdr->sect[i].nr_entries = cpu_to_le32(entry ? nr : 0);
	*off += bytes;
}

/**
 * frec_region_layout() - the header of a new region
 * @hdr: where it goes (block 0 of the region, or a copy of it).
 * @geo: the region and what it must hold.
 *
 * The tables, the pool and the parts follow block 0 in that order, each
 * on a block boundary; the parts section takes the rest of the region.
 * The caller zeroes the region beyond block 0's header before it writes
 * the header (an all-zero entry is an unused one), and writes the header
 * last, so that a reset while it sets up leaves no header that names
 * stale entries.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL if the region is not a whole number of blocks or
 * out of range, -ENOSPC if the tables leave less than a block of parts.
 */
int frec_region_layout(struct frec_region_header *hdr,
		       const struct frec_region_geometry *geo)
{
	u64 off = FREC_REGION_BLOCK;

	if (geo->region_bytes < FREC_REGION_MIN_BYTES ||
	    geo->region_bytes > FREC_REGION_MAX_BYTES ||
	    geo->region_bytes % FREC_REGION_BLOCK)
		return -EINVAL;
	memset(hdr, 0, sizeof(*hdr));
	memcpy(hdr->magic, FREC_REGION_MAGIC, FREC_REGION_MAGIC_LEN);
	hdr->version = cpu_to_le32(FREC_REGION_VERSION);
	hdr->header_bytes = cpu_to_le32(sizeof(*hdr));
	hdr->block_bytes = cpu_to_le32(FREC_REGION_BLOCK);
	hdr->slot_bytes = cpu_to_le32(FREC_SLOT_BYTES);
	hdr->region_bytes = cpu_to_le64(geo->region_bytes);
	hdr->phys_addr = cpu_to_le64(geo->phys_addr);
	memcpy(hdr->boot_id, geo->boot_id, sizeof(hdr->boot_id));
	hdr->boot_wall_ns = cpu_to_le64(geo->boot_wall_ns);
	hdr->flags = cpu_to_le32(geo->flags);
	hdr->word_bytes = cpu_to_le32(8);
	hdr->caller_base = cpu_to_le64(geo->caller_base);
	memcpy(hdr->release, geo->release,
	       strnlen(geo->release, sizeof(hdr->release) - 1));
	memcpy(hdr->clock, FREC_CLOCK_NAME, sizeof(FREC_CLOCK_NAME));
	frec_region_place(hdr, FREC_REGION_RINGS, &off,
			  sizeof(struct frec_region_ring), geo->rings_max, 0);
	frec_region_place(hdr, FREC_REGION_SITES, &off,
			  sizeof(struct frec_region_site), geo->sites_max, 0);
	frec_region_place(hdr, FREC_REGION_TEXTS, &off,
			  sizeof(struct frec_region_text), geo->texts_max, 0);
	frec_region_place(hdr, FREC_REGION_POOL, &off, 0, 0, geo->pool_bytes);
	if (off + FREC_REGION_BLOCK > geo->region_bytes)
		return -ENOSPC;
	frec_region_place(hdr, FREC_REGION_PARTS, &off, 0, 0,
			  geo->region_bytes - off);
	frec_region_header_seal(hdr);
	return 0;
}

/**
 * frec_region_header_seal() - checksum a header laid out or changed
 * @hdr: the header, in a buffer (frec_region_layout(), or frec-decode
 *	joining a kdump's pages into one image).
 *
 * Context: Any context.
 */
void frec_region_header_seal(struct frec_region_header *hdr)
{
	hdr->csum = 0;
	hdr->csum = cpu_to_le32(frec_region_csum(hdr, sizeof(*hdr)));
}

/**
 * frec_region_state_write() - record how the boot is doing
 * @copies: the two state copies of the region (FREC_REGION_STATE_OFF()).
 * @hdr: the region's header.
 * @end: enum frec_region_end.
 * @alive_wall_ns: CLOCK_REALTIME now.
 * @alive_ts: the ring clock now.
 * @clock: the ring clock against ftrace's: @trace_offset and @flags of
 *	struct frec_region_state.
 *
 * Writes the older copy (or one not of this boot) with the next
 * generation, so the newer one stays whole until this one is.
 *
 * Context: Any context, one caller at a time (the module serialises its
 * heartbeat, unload, oops and panic paths).
 */
void frec_region_state_write(struct frec_region_state *copies[2],
			     const struct frec_region_header *hdr,
			     u32 end, u64 alive_wall_ns, u64 alive_ts,
			     const struct frec_region_trace_clock *clock)
{
	u64 gen[2];
	unsigned int i, old;
	struct frec_region_state *st;

	for (i = 0; i < 2; i++)
		gen[i] = memcmp(copies[i]->boot_id, hdr->boot_id,
				sizeof(hdr->boot_id)) ? 0 :
			le64_to_cpu(copies[i]->gen);
	old = gen[1] < gen[0];
	st = copies[old];
	st->csum = 0;
	st->gen = cpu_to_le64((old ? gen[0] : gen[1]) + 1);
	memcpy(st->boot_id, hdr->boot_id, sizeof(st->boot_id));
	st->end = cpu_to_le32(end);
	st->flags = cpu_to_le32(clock->flags);
	st->alive_wall_ns = cpu_to_le64(alive_wall_ns);
	st->alive_ts = cpu_to_le64(alive_ts);
	st->trace_offset = cpu_to_le64((u64)clock->trace_offset);
	st->trace_window = cpu_to_le32(clock->window);
	st->csum = cpu_to_le32(frec_region_csum(st, sizeof(*st)));
}

/* The two state copies of the region at @base. */
static void frec_region_copies(void *base, struct frec_region_state *copies[2])
{
	copies[0] = (void *)((u8 *)base + FREC_REGION_STATE_OFF(0));
	copies[1] = (void *)((u8 *)base + FREC_REGION_STATE_OFF(1));
}

static void frec_region_wb(frec_region_wb_t wb, const void *p, u64 len)
{
	if (wb)
		wb(p, len);
}

/**
 * DOC: The region behind write-back caches
 *
 * The module maps the region write-back: a store reaches memory when its
 * cache line is evicted, in no order the program gives (wmb() orders what
 * other CPUs see, not what memory holds), or when the writer writes it
 * back (@wb, with full barriers around it).  A reset keeps memory, not
 * the caches.  So every order the next boot's reader relies on is made
 * with a write-back, and so is what a reset must keep:
 *
 *   writer (this boot)                   reader (the next boot)
 *   magic broken; wb     (begin:A)       magic there?
 *   all else zeroed; wb  (begin:B)       header crc good? then every
 *   header, state; wb    (begin:C)         entry and slot is 0 or this
 *                                          boot's
 *   entry, strings; wb   (seal:A)        entry crc good? then it is
 *   checksum; wb         (seal:B)          whole, and in memory before
 *                                          any record that names it
 *   state; parts; wb     (save:A)        each slot: what it held at the
 *                                          last save, or a later record
 *
 * A ring whose store is replaced (a clear, a resize, an order change) in
 * the same boot gives its entry and parts back, and a later store may
 * take those parts (frec_persist.c):
 *
 *   new parts zeroed; wb  (parts:A)      a sealed entry's slots are 0 or
 *   new entry sealed      (seal:A/B)       its own store's records
 *   old entry zeroed; wb  (retire:A)     the old entry fails its crc:
 *                                          its records are not shown
 *
 * A site id given again (its module went) gets a new entry: the records
 * that named it were repointed at a copy of its format first:
 *
 *   records repointed; parts wb           a record in memory names the id
 *     (frec_region_parts_wb())              only if its site's entry
 *   old entry's crcs 0; wb (site_write:A)   holds the site it was
 *   new entry sealed      (seal:A/B)        written for
 *
 * LMM(frec_region_begin:A) and LMM(frec_region_begin:B) pair with
 * frec_region_open()'s magic and header checks: memory holds the old
 * boot's region whole, or no magic, or (after B) zeroes under a header
 * that fails its crc or names this boot; never the new header over the
 * old boot's entries and records.  LMM(frec_region_begin:C): a reset
 * after the take leaves this boot's region.  LMM(frec_region_seal:A)
 * pairs with the _get() functions' crc checks (the crc covers the entry
 * and its strings, so a torn entry fails it anyway, but for one chance
 * in 2^32); LMM(frec_region_seal:B) with frec_region_dump_site_known():
 * an entry is in memory before a record naming it is written.
 * LMM(frec_region_save:A) pairs with frec_region_record_get()'s state
 * word check: a record written before it is kept until a later one
 * replaces it in memory.  LMM(frec_region_parts:A) pairs with
 * frec_region_ring_get()'s crc check: parts an entry names hold no
 * record of a store that had them before; LMM(frec_region_retire:A) with
 * the same check: a retired entry's records are not shown once it
 * returns.  Between the
 * new entry's seal and the old one's retirement a reset shows both.
 *
 * None of these orders rests on the CPU's memory model: on x86 and arm64
 * alike a dirty line reaches memory on eviction in any order, so each is
 * a write-back between full barriers (frec_region_cache_wb() in
 * kmod/frec_compat.h).  arm64: mb() is DSB SY, arch_wb_cache_pmem() is
 * DC CVAP (or DC CVAC) by line ending in DSB SY, so the range is at the
 * point of persistence before any later store is performed; a record
 * another CPU writes after it saw an id (frec_site_register:B) is
 * performed after that.  tools/harness/test_region_cache.c models the
 * cache (lines evicted at random, write-backs in order) for both.
 */

static void frec_region_wb_str(frec_region_wb_t wb, const struct frec_region_str *str,
			       const u8 *pool)
{
	frec_region_wb(wb, pool + le32_to_cpu(str->off), le32_to_cpu(str->len));
}

/**
 * frec_region_begin() - take a region for a new boot, over what an
 *	older boot left in it
 * @base: the region, the size @hdr says.
 * @hdr: its new header (frec_region_layout()).
 * @alive_wall_ns: CLOCK_REALTIME now.
 * @alive_ts: the ring clock now.
 * @clock: the ring clock against ftrace's.
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * The magic broken first, everything else zeroed, the header, then state
 * copy 0 (end none), each step in memory before the next (DOC: The
 * region behind write-back caches): a reset leaves the old boot's region
 * whole, or not a region, or this boot's empty one; never the old boot's
 * entries and records under this boot's header.
 *
 * Context: Any context; the module calls it at load.  Writes back the
 * whole region, FREC_REGION_ZERO_CHUNK bytes to a call of @wb.
 */
void frec_region_begin(void *base, const struct frec_region_header *hdr,
		       u64 alive_wall_ns, u64 alive_ts,
		       const struct frec_region_trace_clock *clock,
		       frec_region_wb_t wb)
{
	struct frec_region_state *copies[2];
	u64 bytes = le64_to_cpu(hdr->region_bytes), off, n;
	u8 *p = base;

	memset(p, 0, FREC_REGION_MAGIC_LEN);
	/* In memory before anything else there changes. */
	frec_region_wb(wb, p, FREC_REGION_MAGIC_LEN); /* LMM(frec_region_begin:A) */
	/*
	 * Every old entry and record gone from memory before a header names
	 * them, a chunk at a time: @wb may reschedule between chunks (a
	 * region may be gigabytes, zeroed at load).
	 */
	for (off = FREC_REGION_MAGIC_LEN; off < bytes; off += n) {
		n = bytes - off < FREC_REGION_ZERO_CHUNK ? bytes - off : FREC_REGION_ZERO_CHUNK;
		memset(p + off, 0, n);
		frec_region_wb(wb, p + off, n); /* LMM(frec_region_begin:B) */
	}
	memcpy(p, hdr, sizeof(*hdr));
	frec_region_copies(base, copies);
	frec_region_state_write(copies, hdr, FREC_REGION_END_NONE, alive_wall_ns,
				alive_ts, clock);
	/* Taken, in memory, before this boot writes an entry or a record. */
	frec_region_wb(wb, p, FREC_REGION_BLOCK); /* LMM(frec_region_begin:C) */
}

/**
 * frec_region_state_save() - write the state, and write the parts in use
 *	and the state back
 * @base: the region, taken by frec_region_begin().
 * @end: enum frec_region_end.
 * @alive_wall_ns: CLOCK_REALTIME now.
 * @alive_ts: the ring clock now.
 * @clock: the ring clock against ftrace's.
 * @used: where the parts in use end (an offset; the region's size for
 *	all of them).
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * The tables and the pool are not written back here: each entry was,
 * with its strings, when it was sealed.
 *
 * Context: Any context, one caller at a time (frec_region_state_write()).
 */
void frec_region_state_save(void *base, u32 end, u64 alive_wall_ns,
			    u64 alive_ts,
			    const struct frec_region_trace_clock *clock,
			    u64 used, frec_region_wb_t wb)
{
	const struct frec_region_header *hdr = base;
	struct frec_region_state *copies[2];

	frec_region_copies(base, copies);
	frec_region_state_write(copies, hdr, end, alive_wall_ns, alive_ts, clock);
	/* The records written so far kept through a reset. */
	frec_region_parts_wb(base, used, wb); /* LMM(frec_region_save:A) */
	frec_region_wb(wb, base, FREC_REGION_BLOCK);
}

/**
 * frec_region_parts_wb() - write the parts in use back to memory
 * @base: the region, taken by frec_region_begin().
 * @used: where the parts in use end (an offset; the region's size for
 *	all of them).
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * What the heartbeat and every end do after the state, and what the
 * module does after it repointed records away from a going module's site
 * ids, before those ids can be given again: a record's new word in
 * memory before a site entry rewritten for its old id (DOC: The region
 * behind write-back caches).
 *
 * Context: Any context.
 */
void frec_region_parts_wb(void *base, u64 used, frec_region_wb_t wb)
{
	const struct frec_region_header *hdr = base;
	u64 parts = le64_to_cpu(hdr->sect[FREC_REGION_PARTS].offset);

	if (used > parts)
		frec_region_wb(wb, (u8 *)base + parts, used - parts);
}

/**
 * frec_region_str_put() - copy a string into the pool and point at it
 * @str: the reference to fill.
 * @pool: the pool section.
 * @off: where in it the caller reserved @len bytes.
 * @s: the string.
 * @len: its length.
 *
 * Context: Any context.
 */
void frec_region_str_put(struct frec_region_str *str, u8 *pool, u32 off,
			 const char *s, u32 len)
{
	memcpy(pool + off, s, len);
	str->off = cpu_to_le32(off);
	str->len = cpu_to_le32(len);
}

/**
 * frec_region_ring_seal() - checksum a rings entry, once it is filled
 * @ring: the entry.
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * Context: Any context.
 */
void frec_region_ring_seal(struct frec_region_ring *ring, frec_region_wb_t wb)
{
	ring->csum = 0;
	/* The entry in memory before its checksum. */
	frec_region_wb(wb, ring, sizeof(*ring)); /* LMM(frec_region_seal:A) */
	ring->csum = cpu_to_le32(frec_region_csum(ring, sizeof(*ring)));
	/* Sealed in memory before a record of the ring is written. */
	frec_region_wb(wb, ring, sizeof(*ring)); /* LMM(frec_region_seal:B) */
}

/**
 * frec_region_parts_zero() - zero the parts a new rings entry will name,
 *	in memory, before the entry is sealed
 * @parts: the parts.
 * @bytes: their length.
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * Parts given back by a replaced store still hold its records in memory:
 * sealed over them, a new entry would show them as its own.
 *
 * Context: Any context; the module takes parts in process context.
 */
void frec_region_parts_zero(void *parts, u64 bytes, frec_region_wb_t wb)
{
	memset(parts, 0, bytes);
	frec_region_wb(wb, parts, bytes); /* LMM(frec_region_parts:A) */
}

/**
 * frec_region_ring_retire() - take a sealed rings entry out of the
 *	region: zeroed (free) in memory
 * @ring: the entry.
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * Context: Any context; the module retires entries in process context.
 */
void frec_region_ring_retire(struct frec_region_ring *ring, frec_region_wb_t wb)
{
	/*
	 * Whatever mix of its old and zeroed lines memory holds meanwhile
	 * fails the crc (a zero crc is a free entry's), but for one chance
	 * in 2^32; once written back, the entry is free.
	 */
	memset(ring, 0, sizeof(*ring));
	frec_region_wb(wb, ring, sizeof(*ring)); /* LMM(frec_region_retire:A) */
}

/* The checksum of @str's bytes in @pool, going on from @crc. */
static u32 frec_region_csum_str(u32 crc, const struct frec_region_str *str,
				const u8 *pool)
{
	return frec_region_csum_add(crc, pool + le32_to_cpu(str->off),
				    le32_to_cpu(str->len));
}

/**
 * frec_region_site_seal() - checksum a sites entry's texts, once filled
 * @site: the entry; its caller part is sealed apart.
 * @pool: the pool section its strings are in.
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * Context: Any context.
 */
void frec_region_site_seal(struct frec_region_site *site, const u8 *pool,
			   frec_region_wb_t wb)
{
	u32 crc = frec_region_csum_add(FREC_REGION_CSUM_START, site,
				       offsetof(struct frec_region_site, csum));

	crc = frec_region_csum_str(crc, &site->module, pool);
	crc = frec_region_csum_str(crc, &site->file, pool);
	crc = frec_region_csum_str(crc, &site->function, pool);
	crc = frec_region_csum_str(crc, &site->format, pool);
	/* The entry and its strings in memory before the checksum. */
	frec_region_wb_str(wb, &site->module, pool);
	frec_region_wb_str(wb, &site->file, pool);
	frec_region_wb_str(wb, &site->function, pool);
	frec_region_wb_str(wb, &site->format, pool);
	frec_region_wb(wb, site, sizeof(*site)); /* LMM(frec_region_seal:A) */
	site->csum = cpu_to_le32(frec_region_csum_end(crc));
	/* Sealed in memory before a record of the site is written. */
	frec_region_wb(wb, site, sizeof(*site)); /* LMM(frec_region_seal:B) */
}

/**
 * frec_region_site_write() - write a site's entry, as the site gets id @id
 * @site: the entry of @id.
 * @pool: the pool section.
 * @off: where in it the caller reserved the four texts' bytes (@len[0]
 *	to @len[3], in that order); negative if the pool had no room.
 * @id: the site id.
 * @level: its level, 1 to 5.
 * @line: its line.
 * @text: its module, file, function and format.
 * @len: their lengths.
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * An entry rewritten for an id given again has its checksums cleared in
 * memory first, so that a reset leaves it torn (rejected), never the old
 * site's checksum over the new site's fields.  An entry the pool has no
 * room for is sealed with FREC_REGION_SITE_NO_TEXT and no texts: the
 * next boot tells its records from those of a corrupt entry, and counts
 * them, instead of showing them under the id's earlier site.
 *
 * Context: Any context, NMI included: no lock (the caller takes @off
 * with a cmpxchg, and the id is its own).
 */
void frec_region_site_write(struct frec_region_site *site, u8 *pool, s64 off,
			    u32 id, u32 level, u32 line,
			    const char *const text[FREC_REGION_SITE_TEXTS],
			    const u32 len[FREC_REGION_SITE_TEXTS],
			    frec_region_wb_t wb)
{
	struct frec_region_str *str[FREC_REGION_SITE_TEXTS] = {
		&site->module, &site->file, &site->function, &site->format
	};
	unsigned int i;

	WRITE_ONCE(site->csum, 0);
	WRITE_ONCE(site->caller_csum, 0);
	/* The cleared checksums in memory before the rest changes. */
	frec_region_wb(wb, site, sizeof(*site)); /* LMM(frec_region_site_write:A) */
	memset(site, 0, sizeof(*site));
	for (i = 0; off >= 0 && i < FREC_REGION_SITE_TEXTS; i++) {
		frec_region_str_put(str[i], pool, off, text[i], len[i]);
		off += len[i];
	}
	site->id = cpu_to_le32(id);
	site->level = cpu_to_le32(level);
	site->line = cpu_to_le32(line);
	site->flags = cpu_to_le32(off < 0 ? FREC_REGION_SITE_NO_TEXT : 0);
	frec_region_site_seal(site, pool, wb);
}

/**
 * frec_region_site_seal_caller() - checksum a sites entry's caller part
 * @site: the entry, @caller and @caller_name filled.
 * @pool: the pool section.
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * Context: Any context.
 */
void frec_region_site_seal_caller(struct frec_region_site *site,
				  const u8 *pool, frec_region_wb_t wb)
{
	u32 crc = frec_region_csum_add(FREC_REGION_CSUM_START, &site->caller,
				       sizeof(site->caller) +
				       sizeof(site->caller_name));

	crc = frec_region_csum_str(crc, &site->caller_name, pool);
	/* The caller and its name in memory before the checksum. */
	frec_region_wb_str(wb, &site->caller_name, pool);
	frec_region_wb(wb, site, sizeof(*site)); /* LMM(frec_region_seal:A) */
	/*
	 * A sum that comes out 0 reads as "no caller yet" (once in 2^32):
	 * the site's records then print their caller as an address.
	 */
	site->caller_csum = cpu_to_le32(frec_region_csum_end(crc));
	frec_region_wb(wb, site, sizeof(*site)); /* LMM(frec_region_seal:B) */
}

/**
 * frec_region_text_seal() - checksum a texts entry, once it is filled
 * @text: the entry.
 * @pool: the pool section its text is in.
 * @wb: writes a range of the region back to memory, or NULL.
 *
 * Context: Any context.
 */
void frec_region_text_seal(struct frec_region_text *text, const u8 *pool,
			   frec_region_wb_t wb)
{
	u32 crc = frec_region_csum_add(FREC_REGION_CSUM_START, text,
				       offsetof(struct frec_region_text, csum));

	crc = frec_region_csum_str(crc, &text->text, pool);
	/* The entry and its text in memory before the checksum. */
	frec_region_wb_str(wb, &text->text, pool);
	frec_region_wb(wb, text, sizeof(*text)); /* LMM(frec_region_seal:A) */
	text->csum = cpu_to_le32(frec_region_csum_end(crc));
	/* Sealed in memory before a sweep counts it written. */
	frec_region_wb(wb, text, sizeof(*text)); /* LMM(frec_region_seal:B) */
}
