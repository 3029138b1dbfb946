// SPDX-License-Identifier: GPL-2.0
/*
 * frec_merge.c - the one order every reader of frec's rings uses: a k-way
 * merge of per-(ring, CPU) sources on a binary heap.  See frec_merge.h;
 * why the order respects happens-before is in frec_rb.c ("Order").
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/export.h>
#else
#include <errno.h>
#endif

#include "frec_merge.h"

/**
 * frec_merge_init() - start a merge
 * @m: the merge.
 * @items: storage for @capacity heap items.
 * @capacity: the most sources that will hold a record at once.
 * @by_seq: order by seq alone, for a read of global-order rings only.
 *
 * Context: Any context.
 */
void frec_merge_init(struct frec_merge *m, struct frec_merge_item *items,
		     unsigned int capacity, bool by_seq)
{
	m->items = items;
	m->capacity = capacity;
	m->nr = 0;
	m->by_seq = by_seq;
}

/**
 * frec_merge_before() - does record @a come before record @b?
 * @m: the merge (its order).
 * @a: a record's key.
 * @b: another record's key.
 *
 * Keys of two different records never compare equal: (CPU, seq) names a
 * record in its ring, and a global seq is unique across CPUs.  A CPU
 * never gives two records one timestamp (frec_rb.c, "Order"), so (ts,
 * CPU) orders each CPU's records as it stored them; seq and ring only
 * break ties in records stored before frec did so (a raw dump of an
 * older frec).
 *
 * Context: Any context.
 * Return: true if @a is merged before @b.
 */
bool frec_merge_before(const struct frec_merge *m, const struct frec_merge_key *a,
		       const struct frec_merge_key *b)
{
	if (m->by_seq) {
		if (a->seq != b->seq)
			return a->seq < b->seq;
		return a->ring < b->ring;
	}
	if (a->ts != b->ts)
		return a->ts < b->ts;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu;
	if (a->seq != b->seq)
		return a->seq < b->seq;
	return a->ring < b->ring;
}

static void frec_merge_swap(struct frec_merge_item *a, struct frec_merge_item *b)
{
	struct frec_merge_item t = *a;

	*a = *b;
	*b = t;
}

/**
 * frec_merge_push() - add a source's next record
 * @m: the merge.
 * @source: the caller's number for the source; it must not be in the heap.
 * @key: the record's key.
 *
 * Context: Any context.
 * Return: 0, or -ENOSPC if @m already holds @m->capacity sources.
 */
int frec_merge_push(struct frec_merge *m, unsigned int source,
		    const struct frec_merge_key *key)
{
	unsigned int i, parent;

	if (m->nr == m->capacity)
		return -ENOSPC;
	i = m->nr++;
	m->items[i].key = *key;
	m->items[i].source = source;
	while (i) {
		parent = (i - 1) / 2;
		if (!frec_merge_before(m, &m->items[i].key, &m->items[parent].key))
			break;
		frec_merge_swap(&m->items[i], &m->items[parent]);
		i = parent;
	}
	return 0;
}

/**
 * frec_merge_peek() - the first record in the merged order
 * @m: the merge.
 *
 * Context: Any context.
 * Return: its heap item (valid until the next push or pop), or NULL if no
 * source holds a record.
 */
const struct frec_merge_item *frec_merge_peek(const struct frec_merge *m)
{
	return m->nr ? &m->items[0] : NULL;
}

/**
 * frec_merge_pop() - take the first record in the merged order
 * @m: the merge.
 * @source: where its source's number goes.
 *
 * The caller then reads that source's next record and pushes it.
 *
 * Context: Any context.
 * Return: true, or false if no source holds a record.
 */
bool frec_merge_pop(struct frec_merge *m, unsigned int *source)
{
	unsigned int i = 0, child;

	if (!m->nr)
		return false;
	*source = m->items[0].source;
	m->items[0] = m->items[--m->nr];
	for (;;) {
		child = 2 * i + 1;
		if (child >= m->nr)
			break;
		if (child + 1 < m->nr &&
		    frec_merge_before(m, &m->items[child + 1].key, &m->items[child].key))
			child++;
		if (!frec_merge_before(m, &m->items[child].key, &m->items[i].key))
			break;
		frec_merge_swap(&m->items[i], &m->items[child]);
		i = child;
	}
	return true;
}
