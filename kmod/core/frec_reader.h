/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_reader.h - reading every ring's records merged in one order.
 */
#ifndef _FREC_READER_H
#define _FREC_READER_H

#include <linux/cpumask.h>

#include "frec_rb.h"
#include "frec_rings.h"

struct frec_filter;

/**
 * struct frec_reader_record - a record as a reader returns it
 * @ring: its ring (valid while frec_rings_rwsem is held).
 * @ring_index: which of the reader's rings, 0 to nr_rings - 1.
 * @cpu: the CPU that recorded it.
 * @ent: seq, timestamp, format, caller, arguments, payload length.
 * @payload: a record's text (@ent.len bytes).
 */
struct frec_reader_record {
	struct frec_ring *ring;
	unsigned int ring_index;
	unsigned int cpu;
	struct frec_rb_entry ent;
	const char *payload;
};

/**
 * struct frec_reader_ring_info - a ring as a reader saw it when it opened
 * @name: its name.
 * @kind: events or records.
 * @global_order: its store numbered records from the counter all CPUs share.
 */
struct frec_reader_ring_info {
	char name[FREC_RING_NAME_MAX + 1];
	enum frec_ring_kind kind;
	bool global_order;
};

struct frec_reader;

struct frec_reader *frec_reader_open(const struct frec_filter *filter,
				     struct frec_ring *only);
void frec_reader_close(struct frec_reader *rd);
void frec_reader_lock(struct frec_reader *rd);
void frec_reader_unlock(struct frec_reader *rd);
/* What frec_reader_next() found. */
enum frec_reader_status {
	FREC_READER_RECORD,	/* a record */
	FREC_READER_END,	/* no more records */
	FREC_READER_AGAIN,	/* the budget ran out first */
};

enum frec_reader_status frec_reader_next(struct frec_reader *rd,
					 struct frec_reader_record *rec,
					 unsigned int *budget);
unsigned int frec_reader_nr_rings(struct frec_reader *rd);
const struct frec_reader_ring_info *frec_reader_ring_info(struct frec_reader *rd,
							  unsigned int index);
bool frec_reader_by_seq(struct frec_reader *rd);

#endif /* _FREC_READER_H */
