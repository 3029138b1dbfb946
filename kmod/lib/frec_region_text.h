/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_region_text.h - what a black box region image holds, as the text of
 * frec's debugfs files: its sites as frec/sites lists sites, its texts as
 * frec/formats lists texts, its records as frec/dump prints them, and per
 * ring and CPU what was recovered and rejected.
 *
 *   frec_region_text.c    the sites and formats files, the quoting
 *   frec_region_dump.c    the records: validated, ordered, formatted
 *
 * Compiled into the module (frec/previous/) and, unchanged, into
 * frec-decode (a region image), so both print the same bytes.  Text goes
 * out through a struct frec_text_sink: a seq_file in the kernel, a FILE
 * in frec-decode.
 */
#ifndef _FREC_REGION_TEXT_H
#define _FREC_REGION_TEXT_H

#include "frec_format.h"
#include "frec_merge.h"
#include "frec_region_image.h"
#include "frec_text_sink.h"

/**
 * struct frec_region_report - where a corrupt entry or record is told
 * @bad: called with the byte offset at fault, what lies there ("site
 *	entry", "ring crash_test cpu 1: record") and what is wrong with it.
 * @ctx: passed to @bad.
 */
struct frec_region_report {
	void (*bad)(void *ctx, u64 where, const char *what, const char *why);
	void *ctx;
};

/* The first line of a sites file: what its columns are. */
#define FREC_REGION_SITES_HEADER \
	"# id level line \"module\" \"file\" \"function\" caller \"caller symbol\" \"format\"\n"

void frec_region_quote(const struct frec_text_sink *out,
		       const struct frec_region_bytes *b);
u32 frec_region_sites_write(const struct frec_region_view *v,
			    const struct frec_text_sink *out,
			    const struct frec_region_report *rep);
u32 frec_region_texts_write(const struct frec_region_view *v,
			    const struct frec_text_sink *out,
			    const struct frec_region_report *rep);

/* ---- the records (frec_region_dump.c) ---------------------------------- */

/**
 * struct frec_region_name - an address and the text the region gives it
 * @addr: the address.
 * @from: the text is its records' stamped after this (0 for a caller).
 * @rank: its entry's index: of two at one address and time, the lower
 *	is used.
 * @symbol: the text is a symbol's name, not a string.
 * @text: the text, up to its first NUL.
 */
struct frec_region_name {
	u64 addr;
	u64 from;
	u32 rank;
	bool symbol;
	struct frec_region_bytes text;
};

/**
 * struct frec_region_counts - what became of one part's records
 * @recovered: whole records naming a valid site, shown.
 * @rejected: records not shown, by enum frec_region_reject.
 * @not_decoded: whole frec_printk() argument records, not shown (their
 *	unpacker is the module's alone).
 * @last_seq: the highest seq recovered.
 */
struct frec_region_counts {
	u64 recovered;
	u64 rejected[FREC_REGION_REJ_NR];
	u64 not_decoded;
	u64 last_seq;
};

/**
 * struct frec_region_part - one ring's part of one CPU, read
 * @ring: the ring's index among struct frec_region_dump @rings.
 * @cpu: the CPU.
 * @first: its first record in struct frec_region_dump @recs.
 * @nr: how many it has there.
 * @counts: what became of its records.
 */
struct frec_region_part {
	u32 ring;
	u32 cpu;
	u64 first;
	u64 nr;
	struct frec_region_counts counts;
};

/**
 * struct frec_region_rec - a record shown: where it is, and its order key
 * @key: where it goes in the merged order.
 * @slot: its first slot.
 * @part: its part's index in struct frec_region_dump @parts.
 */
struct frec_region_rec {
	struct frec_merge_key key;
	u64 slot;
	u64 part;
};

/**
 * struct frec_region_dump - an image's records, in the dump's order
 * @v: the image, open.
 * @site_ok: by site id, what frec_region_site_get() said of its entry:
 *	1 valid, 2 valid without texts (FREC_REGION_SITE_NO_TEXT), else 0.
 * @texts: the valid texts, strings and symbols, by address and time, one
 *	per address and time (the lowest entry's).
 * @nr_texts: how many.
 * @callers: the valid sites' callers with a name, by address, the
 *	lowest site id's of each address.
 * @nr_callers: how many.
 * @rings: the valid rings.
 * @nr_rings: how many.
 * @bad_rings: corrupt rings entries.
 * @parts: every valid ring's parts.
 * @nr_parts: how many.
 * @recs: the records shown, each part's together, in timestamp order.
 * @nr_recs: how many.
 * @order: indexes of @recs in the merged order (the dump's).
 * @rejected: records rejected in all parts, by reason (only the first
 *	few of each are told).
 * @by_seq: every ring is a global-order ring: merged by seq.
 * @payload: room for the longest payload, for formatting.
 * @fmt: a format, NUL-terminated, for formatting.
 * @fmt_size: its size: the longest valid string's length, plus one.
 * @site: the site of the record being formatted (its caller's name).
 * @ts: that record's timestamp (which of an address's texts is its).
 * @env: the lookups formatting names addresses with: the region's own.
 * @args_env: the lookup a frec_printk() record of arguments is formatted
 *	with: its %s strings are copies in its own payload.
 * @text: such a record's message, formatted (FREC_RECORD_ARGS_TEXT_MAX + 1 bytes).
 * @msg: why frec_region_dump_build() failed, if it did: which table, of
 *	how many entries, could not be allocated.
 * @where: the byte offset @msg is about (the table's section).
 */
struct frec_region_dump {
	const struct frec_region_view *v;
	u8 *site_ok;
	struct frec_region_name *texts;
	u32 nr_texts;
	struct frec_region_name *callers;
	u32 nr_callers;
	struct frec_region_ring_info *rings;
	u32 nr_rings;
	u32 bad_rings;
	struct frec_region_part *parts;
	u64 nr_parts;
	struct frec_region_rec *recs;
	u64 nr_recs;
	u64 *order;
	u64 rejected[FREC_REGION_REJ_NR];
	bool by_seq;
	u8 *payload;
	char *fmt;
	size_t fmt_size;
	struct frec_region_site_info site;
	u64 ts;
	struct frec_format_env env;
	struct frec_format_env args_env;
	char *text;
	char msg[FREC_REGION_MSG_MAX];
	u64 where;
};

/* The longest payload a record may have to be shown; longer: bad length. */
#define FREC_REGION_PAYLOAD_MAX	65536

/*
 * The largest table frec_region_dump_build() allocates, in bytes: the
 * kernel's kvmalloc() refuses more than INT_MAX (and warns, which
 * panic_on_warn makes a panic), so a region too large to index is
 * refused before, with its size.  Userspace has no such bound; a test
 * may set a lower one.
 */
#ifndef FREC_REGION_ALLOC_MAX
#ifdef __KERNEL__
#define FREC_REGION_ALLOC_MAX	((u64)INT_MAX)
#else
#define FREC_REGION_ALLOC_MAX	((u64)PTRDIFF_MAX)
#endif
#endif

int frec_region_dump_build(struct frec_region_dump *d,
			   const struct frec_region_view *v,
			   const struct frec_region_report *rep);
void frec_region_dump_free(struct frec_region_dump *d);
bool frec_region_dump_site_known(const struct frec_region_dump *d, u64 site, u64 ts);
void frec_region_dump_header(const struct frec_region_dump *d,
			     const struct frec_text_sink *out);
const char *frec_region_dump_text(struct frec_region_dump *d,
				  const struct frec_region_record *rec,
				  const struct frec_region_ring_info *ring, u32 *len);
size_t frec_region_dump_line(struct frec_region_dump *d, u64 i, char *buf,
			     size_t size);
struct frec_inflight;
int frec_region_dump_inflight(struct frec_region_dump *d, struct frec_inflight *fi);
void frec_region_dump_inflight_print(struct frec_region_dump *d,
				     const struct frec_inflight *fi, u64 k,
				     const struct frec_text_sink *out, char *buf);
void frec_region_dump_stats(const struct frec_region_dump *d,
			    const struct frec_text_sink *out);
void frec_region_dump_totals(const struct frec_region_dump *d,
			     struct frec_region_counts *sum);

#endif /* _FREC_REGION_TEXT_H */
