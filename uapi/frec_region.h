/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * frec's black box: the layout of the persistent region, shared by the
 * kernel module, which writes it, and userspace tools, which read an image
 * of it (doc/blackbox.md has the design and a diagram).
 *
 * The region is read after a reset, on the next boot or on another
 * machine, by code that trusts none of it: fixed-width types only, no
 * pointers, explicit padding, every number little-endian.  Offsets count
 * bytes from the start of the region.
 *
 *   block 0      struct frec_region_header at 0, two struct
 *                frec_region_state copies at FREC_REGION_STATE_OFF(0, 1)
 *   sections     rings, sites, texts, pool, parts: where @sect says,
 *                each starting on a FREC_REGION_BLOCK boundary
 *
 * What a checksum covers (crc32c, see frec_region_csum() in
 * kmod/lib/frec_region_csum.c) is said at each struct; a corrupt entry is
 * rejected alone.  The slots of the parts carry no checksum: a record is
 * validated by its slots' state words (uapi/frec_raw.h) and its site.
 */
#ifndef _UAPI_FREC_REGION_H
#define _UAPI_FREC_REGION_H

#include <linux/types.h>

/*
 * 16 bytes no text, no zeroed or poisoned page and no other format starts
 * with: a byte with its top bit set, the name, CR LF (which a text-mode
 * transfer would mangle), and a NUL.
 */
#define FREC_REGION_MAGIC	"\x89\x46RECBLACKBOX\r\n"	/* 16 with NUL */
#define FREC_REGION_MAGIC_LEN	16

/*
 * Bumped on any change a reader must know about; a reader rejects a
 * version it does not know, and says which it found.  Version 3: a
 * record's caller word holds its context (uapi/frec_raw.h, "The caller
 * word"); readers still read version 2, whose caller word is the caller.
 * Version 4: the header ends in @caller_base, the base of the caller
 * words (arm64's is a kernel text address); readers still read versions
 * 2 and 3, whose header ends at @csum and whose base is
 * FREC_CALLER_BASE.
 */
#define FREC_REGION_VERSION	4
#define FREC_REGION_VERSION_CALLER_BASE	4
#define FREC_REGION_VERSION_CONTEXT	3
#define FREC_REGION_VERSION_OLDEST	2

/* Sections start on this boundary: a page, the unit memory is lost in. */
#define FREC_REGION_BLOCK	4096
/* The smallest region: block 0, one block per section, one of parts. */
#define FREC_REGION_MIN_BYTES	(6 * FREC_REGION_BLOCK)
/* A region is at most this large (the decoder's bound, and 4 GiB slots). */
#define FREC_REGION_MAX_BYTES	(1ULL << 40)

#define FREC_REGION_BOOT_ID_LEN	16
#define FREC_REGION_RELEASE_LEN	80
#define FREC_REGION_CLOCK_LEN	16

/* Indexes of struct frec_region_header @sect. */
enum frec_region_sect {
	FREC_REGION_RINGS,	/* struct frec_region_ring[nr_entries] */
	FREC_REGION_SITES,	/* struct frec_region_site[nr_entries], by id */
	FREC_REGION_TEXTS,	/* struct frec_region_text[nr_entries] */
	FREC_REGION_POOL,	/* the bytes the strings refer to */
	FREC_REGION_PARTS,	/* the rings' per-CPU slot arrays */
	FREC_REGION_NR_SECT
};

/**
 * struct frec_region_section - where one section is
 * @offset: from the region's start, a multiple of FREC_REGION_BLOCK.
 * @bytes: its size, a multiple of FREC_REGION_BLOCK.
 * @entry_bytes: the size of one entry (the struct's), or 0 for the pool
 *	and parts.
 * @nr_entries: @bytes / @entry_bytes, or 0.
 */
struct frec_region_section {
	__le64 offset;
	__le64 bytes;
	__le32 entry_bytes;
	__le32 nr_entries;
};

/**
 * struct frec_region_header - at offset 0; written once, when a boot
 *	takes the region, and never again in that boot
 * @magic: FREC_REGION_MAGIC.
 * @version: FREC_REGION_VERSION.
 * @header_bytes: sizeof(struct frec_region_header).
 * @block_bytes: FREC_REGION_BLOCK.
 * @slot_bytes: FREC_SLOT_BYTES.
 * @region_bytes: the region's size as this boot took it.
 * @phys_addr: its physical address then (0 if not known): a region found
 *	at another address was moved (KASLR with reserve_mem=).
 * @boot_id: the kernel's random boot id (/proc/sys/kernel/random/boot_id)
 *	of the boot that took the region; a state copy names it too.
 * @boot_wall_ns: CLOCK_REALTIME of that boot's start, ns since the epoch.
 * @flags: FREC_REGION_CLOCK_SYNCED.
 * @word_bytes: sizeof(unsigned long) of that kernel.
 * @release: its utsname release, NUL-padded.
 * @clock: FREC_CLOCK_NAME, NUL-padded.
 * @sect: the sections, by enum frec_region_sect.
 * @reserved: 0.
 * @csum: frec_region_csum() of the header's @header_bytes with @csum 0.
 * @caller_base: the base the records' caller words are offsets from
 *	(uapi/frec_raw.h, "The caller word"): FREC_CALLER_BASE (0) on
 *	x86_64, a kernel text address on arm64.  From version 4 on; a
 *	version 2 or 3 header ends before it (FREC_REGION_HEADER_V3_BYTES).
 */
struct frec_region_header {
	char magic[FREC_REGION_MAGIC_LEN];
	__le32 version;
	__le32 header_bytes;
	__le32 block_bytes;
	__le32 slot_bytes;
	__le64 region_bytes;
	__le64 phys_addr;
	__u8 boot_id[FREC_REGION_BOOT_ID_LEN];
	__le64 boot_wall_ns;
	__le32 flags;
	__le32 word_bytes;
	char release[FREC_REGION_RELEASE_LEN];
	char clock[FREC_REGION_CLOCK_LEN];
	struct frec_region_section sect[FREC_REGION_NR_SECT];
	__le32 reserved;
	__le32 csum;
	__le64 caller_base;
};

/* A version 2 or 3 header's @header_bytes: up to @caller_base. */
#define FREC_REGION_HEADER_V3_BYTES	offsetof(struct frec_region_header, caller_base)

/* @flags: the clock was synchronised across CPUs (FREC_RAW_CLOCK_SYNCED). */
#define FREC_REGION_CLOCK_SYNCED	0x1U

/* How the boot that wrote the region ended (struct frec_region_state @end). */
enum frec_region_end {
	FREC_REGION_END_NONE = 0,	/* running; after a reboot: a reset or hang */
	FREC_REGION_END_CLEAN = 1,	/* frec unloaded and gave the region back */
	FREC_REGION_END_OOPS = 2,	/* an oops; the boot may have gone on */
	FREC_REGION_END_PANIC = 3,	/* a panic */
};

/*
 * The two state copies, each in a cache line of its own in block 0: an
 * update writes the older copy (lower @gen) and leaves the newer whole, so
 * a reset in the middle of one loses that update only.
 */
#define FREC_REGION_STATE_OFF(i)	(2048 + (i) * 1024)

/**
 * struct frec_region_state - what changes while the boot runs
 * @gen: generation; the valid copy with the higher one is current.
 * @boot_id: the header's @boot_id: a copy left by another boot is stale.
 * @end: enum frec_region_end.
 * @flags: FREC_REGION_STATE_TRACE_OFFSET, FREC_REGION_STATE_OFFSET_CONSTANT
 *	(0 in a region of a frec that did not measure it).
 * @alive_wall_ns: CLOCK_REALTIME of the last update (a heartbeat, or the
 *	end): a region whose last sign of life is long before this boot
 *	started is from an older boot than the previous one.
 * @alive_ts: the ring clock (FREC_CLOCK_NAME) at that update.
 * @trace_offset: the ring clock less ftrace's "local" clock, in ns, as a
 *	raw dump's struct frec_raw_clock @offset (uapi/frec_raw.h), measured
 *	when the boot took the region, and again at each update once the
 *	clock was no longer synchronised (then without
 *	FREC_REGION_STATE_OFFSET_CONSTANT); with FREC_REGION_STATE_TRACE_OFFSET.
 * @trace_window: its measuring window in ns, as struct frec_raw_clock
 *	@window (at most U32_MAX).
 * @csum: frec_region_csum() of the copy with @csum 0.
 */
struct frec_region_state {
	__le64 gen;
	__u8 boot_id[FREC_REGION_BOOT_ID_LEN];
	__le32 end;
	__le32 flags;
	__le64 alive_wall_ns;
	__le64 alive_ts;
	__le64 trace_offset;
	__le32 trace_window;
	__le32 csum;
};

/*
 * @flags of struct frec_region_state: @trace_offset holds the offset; it
 * is one constant on every CPU for the whole boot (the raw dump's
 * FREC_RAW_CLOCK_OFFSET_CONSTANT).
 */
#define FREC_REGION_STATE_TRACE_OFFSET		0x1U
#define FREC_REGION_STATE_OFFSET_CONSTANT	0x2U

/**
 * struct frec_region_str - a string in the pool section
 * @off: from the pool's start.
 * @len: its length in bytes, no NUL counted (the pool need not hold one).
 */
struct frec_region_str {
	__le32 off;
	__le32 len;
};

#define FREC_REGION_RING_NAME_LEN	32

/**
 * struct frec_region_ring - a persisted ring; an all-zero entry is unused
 * @id: its index in the rings section, from 0.
 * @kind: 0 event ring, 1 record ring (enum frec_ring_kind).
 * @order: FREC_RING_ORDER_CPU or FREC_RING_ORDER_GLOBAL.
 * @nr_cpus: the parts, CPU 0 to @nr_cpus - 1.
 * @max_record_len: the ring's longest payload (0 for an event ring).
 * @reserved: 0.
 * @nr_slots: slots per part, a power of two.
 * @parts_offset: where CPU 0's part starts (inside the parts section,
 *	slot-aligned); CPU c's starts @nr_slots * FREC_SLOT_BYTES * c later.
 *	The slots are the ring core's own (uapi/frec_raw.h, struct
 *	frec_slot): the kernel records into them in place.
 * @name: the ring's name, NUL-padded, by the rule of struct frec_raw_ring's
 *	(an entry naming anything else is corrupt, whatever its @csum).
 * @pad: 0.
 * @csum: frec_region_csum() of the entry with @csum 0.
 */
struct frec_region_ring {
	__le32 id;
	__le32 kind;
	__le32 order;
	__le32 nr_cpus;
	__le32 max_record_len;
	__le32 reserved;
	__le64 nr_slots;
	__le64 parts_offset;
	char name[FREC_REGION_RING_NAME_LEN];
	__le32 pad[3];
	__le32 csum;
};

/**
 * struct frec_region_site - a call site, at the index of its id (entry 0
 *	unused); an all-zero entry is unused
 * @id: the site's id, the site word of its records; equals the index.
 * @level: the level written at the call, 1 (err) to 5 (trace).
 * @line: the line of the call.
 * @flags: FREC_REGION_SITE_NO_TEXT, or 0.
 * @module: the module's name.
 * @file: the source file.
 * @function: the function.
 * @format: the format.
 * @csum: frec_region_csum() of the bytes from @id up to @csum, then of
 *	the four strings' bytes in that order.
 * @pad: 0.
 * @caller: the caller address of the site's first record, 0 before one.
 * @caller_name: @caller as the dump prints a caller.
 * @caller_csum: frec_region_csum() of @caller, @caller_name and the name's
 *	bytes; 0 with the three before the first record.  Written apart from
 *	the rest, so that the name's late arrival cannot tear the site.
 * @caller_pad: 0.
 */
struct frec_region_site {
	__le32 id;
	__le32 level;
	__le32 line;
	__le32 flags;
	struct frec_region_str module;
	struct frec_region_str file;
	struct frec_region_str function;
	struct frec_region_str format;
	__le32 csum;
	__le32 pad;
	__le64 caller;
	struct frec_region_str caller_name;
	__le32 caller_csum;
	__le32 caller_pad;
};

/*
 * @flags of struct frec_region_site: the pool had no room for the site's
 * texts; the entry holds its id, level and line, and no strings.  Its
 * records cannot be printed: a reader drops them, counted apart from
 * records that name no valid site.
 */
#define FREC_REGION_SITE_NO_TEXT	0x1U

/* struct frec_region_text @kind */
#define FREC_REGION_TEXT_STRING	1	/* a format or %s string at @addr */
#define FREC_REGION_TEXT_SYMBOL	2	/* a gone module's code address */
#define FREC_REGION_TEXT_TASK	3	/* @addr is a pid: its task's name */

/**
 * struct frec_region_text - what an address a record holds pointed to:
 *	a line of debugfs frec/formats; an all-zero entry is unused
 * @addr: the address (a format's, for a site without an id, or a %s
 *	argument's).
 * @from: the text is that of the records stamped after this time (ns,
 *	the rings' clock): 0 for the first text of @addr; a later entry of
 *	the same @addr (a buffer rewritten, a module loaded where another
 *	was) has the last time the earlier text was seen there.  A record
 *	takes the text of its address with the highest @from below its
 *	timestamp, else the first.  For FREC_REGION_TEXT_TASK, @addr is
 *	a pid the records' context words name, and @from is kept the same
 *	way (a pid reused, a task renamed): readers that keep one name a
 *	pid keep its last entry in the table (entries are appended, in
 *	the order of their @from).
 * @kind: FREC_REGION_TEXT_STRING, FREC_REGION_TEXT_SYMBOL or
 *	FREC_REGION_TEXT_TASK.
 * @text: the string, the symbol's name as the dump prints it, or the
 *	task's name (comm, at most 15 bytes) when the texts sweep saw it.
 * @csum: frec_region_csum() of the bytes before it, then of the text.
 */
struct frec_region_text {
	__le64 addr;
	__le64 from;
	__le32 kind;
	struct frec_region_str text;
	__le32 csum;
};

#endif /* _UAPI_FREC_REGION_H */
