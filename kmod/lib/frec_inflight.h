/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_inflight.h - the spans in flight at a dump's end: begun, their
 * begin in the dump, and no end of theirs in it.
 *
 * Compiled into the module (frec/previous/dump, kmod/lib/frec_region_dump.c)
 * and, unchanged, into frec-decode (its text output of a region image or
 * a vmcore, and of any raw dump with --in-flight), so both judge and print
 * the same.  The DOC block of frec_inflight.c says what the list promises.
 */
#ifndef _FREC_INFLIGHT_H
#define _FREC_INFLIGHT_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "frec_user.h"
#endif
#include "frec_span.h"
#include "frec_text_sink.h"

/**
 * struct frec_inflight_rec - what the list needs of one record
 * @ts: its timestamp.
 * @seq: its seq.
 * @ring: its ring's id.
 * @cpu: its CPU.
 * @global: its ring numbers records from one counter shared by all CPUs
 *	(FREC_RING_ORDER_GLOBAL).
 * @kind: what its site's format says it is (frec_span_kind()).
 * @end_id: a span end's FREC_SPAN_END_ID word: its begin's name.
 * @ref: the caller's handle on the record: given back to print a begin.
 */
struct frec_inflight_rec {
	u64 ts;
	u64 seq;
	u32 ring;
	u32 cpu;
	bool global;
	enum frec_span_kind kind;
	u64 end_id;
	u64 ref;
};

struct frec_inflight_begin;
struct frec_inflight_end;
struct frec_inflight_src;

/**
 * struct frec_inflight - the list being made; zeroed before the first add
 * @begins: the span begins added; after frec_inflight_done() the first
 *	@nr_open of them are the open ones, in the order they were added.
 * @nr_begins: begins added.
 * @cap_begins: room at @begins.
 * @ends: the span ends added: their ring and begin's name.
 * @nr_ends: ends added.
 * @cap_ends: room at @ends.
 * @srcs: per (ring, CPU), what its records say of its losses.
 * @nr_srcs: sources in @srcs.
 * @cap_srcs: its size, a power of two (open addressing).
 * @records: records added.
 * @last_ts: the highest timestamp added: the dump's end.
 * @err: -ENOMEM once an allocation failed: nothing is listed.
 * @nr_open: after frec_inflight_done(): spans in flight.
 * @nr_certain: of them, those no lost record can have ended.
 * @nr_orphans: ends whose begin is not in the dump.
 */
struct frec_inflight {
	struct frec_inflight_begin *begins;
	u64 nr_begins;
	u64 cap_begins;
	struct frec_inflight_end *ends;
	u64 nr_ends;
	u64 cap_ends;
	struct frec_inflight_src *srcs;
	u64 nr_srcs;
	u64 cap_srcs;
	u64 records;
	u64 last_ts;
	int err;
	u64 nr_open;
	u64 nr_certain;
	u64 nr_orphans;
};

/*
 * A begin's line as the dump prints it, from its struct frec_inflight_rec
 * @ref, into @buf (@size bytes, NUL-terminated, newline included): its
 * length.
 */
typedef size_t (*frec_inflight_line_fn)(void *ctx, u64 ref, char *buf, size_t size);

int frec_inflight_add(struct frec_inflight *fi, const struct frec_inflight_rec *r);
int frec_inflight_done(struct frec_inflight *fi);
u64 frec_inflight_lines(const struct frec_inflight *fi);
void frec_inflight_line(const struct frec_inflight *fi, u64 k,
			const struct frec_text_sink *out, frec_inflight_line_fn line,
			void *ctx, char *buf, size_t size);
void frec_inflight_free(struct frec_inflight *fi);

#endif /* _FREC_INFLIGHT_H */
