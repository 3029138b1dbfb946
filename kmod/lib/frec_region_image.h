/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_region_image.h - frec's black box (uapi/frec_region.h, doc/blackbox.md):
 * building a region and reading an image of one, compiled into the module
 * and, unchanged, into frec-decode.
 *
 *   frec_region_csum.c    the checksum (CRC-32C)
 *   frec_region_build.c   a new region's header, state and entries
 *   frec_region.c         validating an image and its entries and records
 *
 * Reading trusts nothing in the image: every offset and length is checked
 * against the image's size before it is used, every entry against its
 * checksum, every record against its slots' state words.
 */
#ifndef _FREC_REGION_LIB_H
#define _FREC_REGION_LIB_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "frec_user.h"
#endif

#include <frec_raw.h>
#include <frec_region.h>

#define FREC_REGION_CSUM_START	0xffffffffU

static inline u32 frec_region_csum_end(u32 crc)
{
	return ~crc;
}

u32 frec_region_csum_add(u32 crc, const void *p, size_t len);
u32 frec_region_csum(const void *p, size_t len);

/* ---- building (frec_region_build.c) ----------------------------------- */

/*
 * How a writer of the region writes a range of it back from the CPU
 * caches to memory, ordered: the range's stores before the call reach
 * memory before any store after it does.  NULL where nothing caches the
 * region (an image built in a buffer).
 */
typedef void (*frec_region_wb_t)(const void *p, u64 len);

/* frec_region_begin() zeroes the region and writes it back this much at a time. */
#define FREC_REGION_ZERO_CHUNK	(16ULL << 20)

/**
 * struct frec_region_geometry - what a boot asks of its region
 * @region_bytes: the region's size.
 * @phys_addr: its physical address, 0 if not known.
 * @boot_id: the boot's random id.
 * @boot_wall_ns: CLOCK_REALTIME of the boot's start.
 * @flags: FREC_REGION_CLOCK_SYNCED.
 * @release: the kernel release.
 * @caller_base: the base of its caller words (frec_caller_word()).
 * @rings_max: entries of the rings section.
 * @sites_max: the highest site id, plus one.
 * @texts_max: entries of the texts section.
 * @pool_bytes: bytes of strings (rounded up to a block).
 */
struct frec_region_geometry {
	u64 region_bytes;
	u64 phys_addr;
	u8 boot_id[FREC_REGION_BOOT_ID_LEN];
	u64 boot_wall_ns;
	u32 flags;
	const char *release;
	u64 caller_base;
	u32 rings_max;
	u32 sites_max;
	u32 texts_max;
	u64 pool_bytes;
};

/**
 * struct frec_region_trace_clock - the ring clock against ftrace's
 * @trace_offset: local_clock() - trace_clock_local(), ns.
 * @window: the ns of its measuring window (struct frec_raw_clock @window).
 * @flags: FREC_REGION_STATE_TRACE_OFFSET (0: not measured),
 *	FREC_REGION_STATE_OFFSET_CONSTANT.
 */
struct frec_region_trace_clock {
	s64 trace_offset;
	u32 window;
	u32 flags;
};

/*
 * What the tables hold at most, whatever the region's size: rings (one
 * entry each, reused when a ring's store is replaced) and texts.
 */
#define FREC_REGION_RINGS_MAX	32
#define FREC_REGION_TEXTS_MAX	4096

void frec_region_tables_fit(struct frec_region_geometry *geo, u32 sites_wanted);
int frec_region_layout(struct frec_region_header *hdr,
		       const struct frec_region_geometry *geo);
void frec_region_state_write(struct frec_region_state *copies[2],
			     const struct frec_region_header *hdr,
			     u32 end, u64 alive_wall_ns, u64 alive_ts,
			     const struct frec_region_trace_clock *clock);
void frec_region_begin(void *base, const struct frec_region_header *hdr,
		       u64 alive_wall_ns, u64 alive_ts,
		       const struct frec_region_trace_clock *clock,
		       frec_region_wb_t wb);
void frec_region_state_save(void *base, u32 end, u64 alive_wall_ns,
			    u64 alive_ts,
			    const struct frec_region_trace_clock *clock,
			    u64 used, frec_region_wb_t wb);
void frec_region_parts_wb(void *base, u64 used, frec_region_wb_t wb);
void frec_region_str_put(struct frec_region_str *str, u8 *pool, u32 off,
			 const char *s, u32 len);
void frec_region_header_seal(struct frec_region_header *hdr);
void frec_region_ring_seal(struct frec_region_ring *ring, frec_region_wb_t wb);
void frec_region_parts_zero(void *parts, u64 bytes, frec_region_wb_t wb);
void frec_region_ring_retire(struct frec_region_ring *ring, frec_region_wb_t wb);
void frec_region_site_seal(struct frec_region_site *site, const u8 *pool,
			   frec_region_wb_t wb);
/* A site's texts: module, file, function, format. */
#define FREC_REGION_SITE_TEXTS	4
void frec_region_site_write(struct frec_region_site *site, u8 *pool, s64 off,
			    u32 id, u32 level, u32 line,
			    const char *const text[FREC_REGION_SITE_TEXTS],
			    const u32 len[FREC_REGION_SITE_TEXTS],
			    frec_region_wb_t wb);
void frec_region_site_seal_caller(struct frec_region_site *site,
				  const u8 *pool, frec_region_wb_t wb);
void frec_region_text_seal(struct frec_region_text *text, const u8 *pool,
			   frec_region_wb_t wb);

/* ---- reading (frec_region.c) ------------------------------------------ */

/* Why an image is not a region this reader can use. */
enum frec_region_verdict {
	FREC_REGION_VALID = 0,
	FREC_REGION_NOT_REGION,		/* no magic: garbage, or never written */
	FREC_REGION_OTHER_VERSION,	/* a layout this reader does not know */
	FREC_REGION_TOO_SMALL,		/* shorter than its header says */
	FREC_REGION_BAD_HEADER,		/* checksum or geometry wrong */
};

#define FREC_REGION_MSG_MAX	160

/**
 * struct frec_region_view - an image being read
 * @base: its bytes.
 * @len: how many, at most the region's size.
 * @version: the version it says it is (when the magic is there).
 * @caller_base: the base its records' caller words are offsets from: the
 *	header's (version 4 on), else FREC_CALLER_BASE.
 * @sect_off: each section's offset, checked to lie inside the image.
 * @sect_bytes: each section's size.
 * @nr_entries: each table's entries that lie in the image (0 for the pool
 *	and parts): the header's count, less those past the end of an image
 *	cut short.  The count is only a claim, which a checksum anyone can
 *	compute vouches for; every loop over a table, and every allocation
 *	by one, is bounded by the bytes actually there.
 * @state: the current state copy, host byte order, if @state_ok.
 * @state_ok: a valid state copy of this boot was found.
 * @truncated: the image is shorter than the region; @len is the image's.
 * @hdr: the header, as it is in the image (little-endian).
 */
struct frec_region_view {
	const u8 *base;
	u64 len;
	u32 version;
	u64 caller_base;
	u64 sect_off[FREC_REGION_NR_SECT];
	u64 sect_bytes[FREC_REGION_NR_SECT];
	u32 nr_entries[FREC_REGION_NR_SECT];
	struct {
		u64 gen;
		u32 end;
		u64 alive_wall_ns;
		u64 alive_ts;
		struct frec_region_trace_clock clock;
	} state;
	bool state_ok;
	bool truncated;
	const struct frec_region_header *hdr;
};

/**
 * struct frec_region_bytes - a string of the image, checked to lie in it
 * @s: its first byte (not NUL-terminated).
 * @len: its length.
 */
struct frec_region_bytes {
	const char *s;
	u32 len;
};

/**
 * struct frec_region_ring_info - a valid rings entry, host byte order
 * @id: its index.
 * @kind: 0 events, 1 records.
 * @order: FREC_RING_ORDER_CPU or FREC_RING_ORDER_GLOBAL.
 * @nr_cpus: parts.
 * @max_record_len: longest payload.
 * @nr_slots: slots per part.
 * @parts_offset: CPU 0's part, checked: all parts lie in the parts section.
 * @name: NUL-terminated, checked.
 * @cpus_in_image: the parts that start inside the image (@nr_cpus, unless
 *	the image is cut short).
 * @slots_in_image: the whole slots of those parts inside the image: at
 *	most @nr_cpus * @nr_slots, and at most the image's size in slots.
 */
struct frec_region_ring_info {
	u32 id;
	u32 kind;
	u32 order;
	u32 nr_cpus;
	u32 max_record_len;
	u64 nr_slots;
	u64 parts_offset;
	char name[FREC_REGION_RING_NAME_LEN];
	u32 cpus_in_image;
	u64 slots_in_image;
};

/**
 * struct frec_region_site_info - a valid sites entry
 * @id: the site id.
 * @level: 1 to 5.
 * @line: the line.
 * @module: the module.
 * @file: the file.
 * @function: the function.
 * @format: the format.
 * @caller: the first caller, 0 if none or if its part is corrupt.
 * @caller_name: its name (len 0 if none).
 * @caller_bad: the caller part failed its checksum.
 */
struct frec_region_site_info {
	u32 id;
	u32 level;
	u32 line;
	struct frec_region_bytes module;
	struct frec_region_bytes file;
	struct frec_region_bytes function;
	struct frec_region_bytes format;
	u64 caller;
	struct frec_region_bytes caller_name;
	bool caller_bad;
};

/**
 * struct frec_region_text_info - a valid texts entry
 * @addr: the address.
 * @from: its records stamped after this time have this text.
 * @kind: FREC_REGION_TEXT_STRING, FREC_REGION_TEXT_SYMBOL or
 *	FREC_REGION_TEXT_TASK (@addr is a pid).
 * @text: the text.
 */
struct frec_region_text_info {
	u64 addr;
	u64 from;
	u32 kind;
	struct frec_region_bytes text;
};

/* Why a slot holds no record a reader may show. */
enum frec_region_reject {
	FREC_REGION_REJ_STATE,	/* a first slot whose record is not whole */
	FREC_REGION_REJ_LENGTH,	/* length and slot count disagree */
	FREC_REGION_REJ_SITE,	/* names no valid site */
	FREC_REGION_REJ_CUT,	/* past the end of an image cut short */
	FREC_REGION_REJ_NO_TEXT,	/* its site's texts found no room */
	FREC_REGION_REJ_NR
};

/**
 * struct frec_region_record - a whole record read out of a part
 * @slot: its first slot's index.
 * @slots: how many slots it takes.
 * @seq: its seq.
 * @ts: timestamp.
 * @site: site word.
 * @caller: the caller, as frec_caller_of() reads the caller word (in a
 *	region of version 2, the word itself).
 * @context: the context word (frec_context_of()); 0 in a region of
 *	version 2.
 * @args: an event's arguments.
 * @len: a record's payload length, 0 for an event.
 * @printk_args: the payload is frec_printk()'s arguments.
 */
struct frec_region_record {
	u64 slot;
	u32 slots;
	u64 seq;
	u64 ts;
	u64 site;
	u64 caller;
	u32 context;
	u64 args[FREC_EVENT_MAX_ARGS];
	u32 len;
	bool printk_args;
};

int frec_region_open(struct frec_region_view *v, const void *base, u64 len,
		     char *msg, size_t msg_size, u64 *where);
int frec_region_ring_get(const struct frec_region_view *v, u32 i,
			 struct frec_region_ring_info *ring, u64 *where);
u64 frec_region_in_use(const struct frec_region_view *v);
int frec_region_site_get(const struct frec_region_view *v, u32 id,
			 struct frec_region_site_info *site, u64 *where);
int frec_region_text_get(const struct frec_region_view *v, u32 i,
			 struct frec_region_text_info *text, u64 *where);
int frec_region_record_get(const struct frec_region_view *v,
			   const struct frec_region_ring_info *ring, u32 cpu,
			   u64 slot, struct frec_region_record *rec,
			   u8 *buf, u32 buf_len);
const char *frec_region_sect_name(unsigned int sect);
const char *frec_region_end_name(u32 end);
const char *frec_region_reject_name(u32 why);

#endif /* _FREC_REGION_LIB_H */
