/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_merge.h - the one order every reader of frec's rings uses.
 *
 * Compiled into the module (dump, raw, the console dump) and, unchanged,
 * into frec-decode, so that a decoded raw dump comes out in the order the
 * kernel's dump printed.  It allocates nothing and takes no lock: the
 * caller gives it the storage for its heap, which the console dump of a
 * dying kernel allocated when frec loaded.
 *
 * A reader has one source per (ring, CPU), each already in order (a CPU's
 * part of a ring is in timestamp order, kmod/lib/frec_rb.c).  It pushes
 * each source's next record's key, pops the smallest, and pushes that
 * source's next key: a k-way merge on a binary heap, O(log sources) per
 * record.
 */
#ifndef _FREC_MERGE_H
#define _FREC_MERGE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "frec_user.h"
#endif

/**
 * struct frec_merge_key - where a record goes in the merged order
 * @ts: its timestamp.
 * @seq: its sequence number (per CPU, or global for a global-order ring).
 * @cpu: the CPU that recorded it.
 * @ring: the reader's index of its ring (ties of two rings on one CPU
 *	with one timestamp and one seq, in a raw dump of an older frec).
 */
struct frec_merge_key {
	u64 ts;
	u64 seq;
	u32 cpu;
	u32 ring;
};

/**
 * struct frec_merge_item - a source's next record, in the heap
 * @key: its key.
 * @source: the caller's number for the source.
 */
struct frec_merge_item {
	struct frec_merge_key key;
	unsigned int source;
};

/**
 * struct frec_merge - a merge in progress
 * @items: the heap, @capacity items, from the caller.
 * @capacity: at most this many sources at once.
 * @nr: sources with a record in the heap.
 * @by_seq: order by @seq alone (every ring read is a global-order ring);
 *	otherwise by (@ts, @cpu, @seq, @ring).
 */
struct frec_merge {
	struct frec_merge_item *items;
	unsigned int capacity;
	unsigned int nr;
	bool by_seq;
};

void frec_merge_init(struct frec_merge *m, struct frec_merge_item *items,
		     unsigned int capacity, bool by_seq);
bool frec_merge_before(const struct frec_merge *m, const struct frec_merge_key *a,
		       const struct frec_merge_key *b);
int frec_merge_push(struct frec_merge *m, unsigned int source,
		    const struct frec_merge_key *key);
const struct frec_merge_item *frec_merge_peek(const struct frec_merge *m);
bool frec_merge_pop(struct frec_merge *m, unsigned int *source);

#endif /* _FREC_MERGE_H */
