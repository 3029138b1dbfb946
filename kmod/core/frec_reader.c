// SPDX-License-Identifier: GPL-2.0
/*
 * frec_reader.c - reading every ring's records merged in one order.
 *
 * A reader has one source per (ring, CPU): a cursor into that CPU's part
 * and the next record it holds, copied out.  frec_reader_next() returns
 * the first source record in the merged order (lib/frec_merge.c: by
 * timestamp, CPU and seq, or by global seq when every ring read is a
 * global-order ring) and refills that source: the k-way merge of lists
 * each already in order (positions on one CPU are in timestamp order,
 * frec_rb.c).
 *
 * The rings a reader reads are fixed when it opens.  Between calls, with
 * frec_rings_rwsem not held, a ring may be destroyed, resized or cleared:
 * frec_reader_lock() takes the rwsem and looks every ring up again by id
 * and store generation; a ring that is gone or has a new store simply
 * ends, so a reader never touches freed memory.  Like the cursors, it
 * never blocks writers and never shows a torn record.
 *
 * A copied record may point into a module that goes while the reader
 * holds the copy (between two read() calls, say).  frec_reader_next()
 * runs inside an RCU read-side section and first checks frec_formats'
 * generation: if records were repointed since the copies were made, it
 * copies them out of the ring again (see frec_formats.c).  The caller
 * formats the record inside that same section.
 *
 * Work is bounded: frec_reader_next() looks at no more records than its
 * budget allows, so that a caller can drop the lock, reschedule and
 * check for signals however many records a filter rejects.
 */
#include <linux/err.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "frec_filter.h"
#include "frec_texts.h"
#include "frec_merge.h"
#include "frec_reader.h"

/**
 * struct frec_reader_ring - a ring as a reader saw it when it opened
 * @ring: the ring; dereferenced only while @live.
 * @id: its id, to find it again.
 * @gen: its store generation then.
 * @live: still listed with the same store, checked by frec_reader_lock().
 * @info: its name, kind and order then, valid after it changed or went.
 */
struct frec_reader_ring {
	struct frec_ring *ring;
	u64 id;
	u64 gen;
	bool live;
	struct frec_reader_ring_info info;
};

/**
 * struct frec_reader_source - one CPU's part of one ring
 * @ring_index: index into frec_reader.rings.
 * @cpu: the CPU.
 * @at: the cursor before @ent, to copy it out again.
 * @cur: the cursor after it.
 * @have: @ent holds the next record.
 * @done: nothing more to read here.
 * @ent: the next record.
 * @buf: payload buffer, the ring's max_record_len bytes (record rings).
 */
struct frec_reader_source {
	unsigned int ring_index;
	unsigned int cpu;
	struct frec_rb_cursor at;
	struct frec_rb_cursor cur;
	bool have;
	bool done;
	struct frec_rb_entry ent;
	char *buf;
};

/**
 * struct frec_reader - a merged read of many rings
 * @filter: CPU, sequence and time terms applied to every record, or NULL.
 * @formats_gen: frec_formats' generation when the copies were made.
 * @nr_rings: rings read.
 * @rings: them.
 * @nr_sources: sources.
 * @sources: them.
 * @items: the merge's heap, one item per source.
 * @merge: the merge of the sources that hold a record.
 * @primed: sources 0 to @primed - 1 have been filled and queued once.
 * @refill: the source whose record the last call returned (to fill and
 *	queue again), or -1.
 */
struct frec_reader {
	const struct frec_filter *filter;
	unsigned long formats_gen;
	unsigned int nr_rings;
	struct frec_reader_ring *rings;
	unsigned int nr_sources;
	struct frec_reader_source *sources;
	struct frec_merge_item *items;
	struct frec_merge merge;
	unsigned int primed;
	int refill;
};

static bool frec_reader_wants(const struct frec_filter *filter, struct frec_ring *ring,
			      struct frec_ring *only)
{
	if (only)
		return ring == only;
	return !filter || frec_filter_ring(filter, ring->name);
}

static void frec_reader_free(struct frec_reader *rd)
{
	unsigned int i;

	if (rd->sources)
		for (i = 0; i < rd->nr_sources; i++)
			kfree(rd->sources[i].buf);
	kvfree(rd->sources);
	kvfree(rd->items);
	kvfree(rd->rings);
	kfree(rd);
}

/**
 * frec_reader_open() - start a merged read of the rings as they are now
 * @filter: which rings, CPUs, sequence numbers and times; NULL for all.
 *	It must stay valid until frec_reader_close().
 * @only: read this ring alone (then @filter's ring globs are ignored).
 *
 * Each CPU's part is read up to its head at this moment.
 *
 * Context: Process context; sleeps.
 * Return: the reader, or ERR_PTR(-ENOMEM).
 */
struct frec_reader *frec_reader_open(const struct frec_filter *filter,
				     struct frec_ring *only)
{
	struct frec_reader_source *src;
	struct frec_ring_store *store;
	struct frec_reader *rd;
	struct frec_ring *ring;
	unsigned int n = 0, r, i;
	bool by_seq = true;
	int cpu;

	rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return ERR_PTR(-ENOMEM);
	rd->filter = filter;
	rd->refill = -1;

	down_read(&frec_rings_rwsem);
	list_for_each_entry(ring, &frec_rings_list, node) {
		if (!frec_reader_wants(filter, ring, only))
			continue;
		n++;
		by_seq &= frec_ring_store_locked(ring)->layout.global_order;
	}
	/* Rings times possible CPUs: can be megabytes on a big machine. */
	rd->rings = kvcalloc(n ?: 1, sizeof(*rd->rings), GFP_KERNEL);
	rd->sources = kvcalloc((n ?: 1) * num_possible_cpus(), sizeof(*rd->sources),
			       GFP_KERNEL);
	rd->items = kvcalloc((n ?: 1) * num_possible_cpus(), sizeof(*rd->items), GFP_KERNEL);
	if (!rd->rings || !rd->sources || !rd->items)
		goto nomem;
	frec_merge_init(&rd->merge, rd->items, (n ?: 1) * num_possible_cpus(), n && by_seq);
	r = 0;
	i = 0;
	list_for_each_entry(ring, &frec_rings_list, node) {
		if (!frec_reader_wants(filter, ring, only))
			continue;
		store = frec_ring_store_locked(ring);
		rd->rings[r] = (struct frec_reader_ring) {
			.ring = ring, .id = ring->id, .gen = ring->store_gen, .live = true,
			.info = {
				.kind = ring->kind,
				.global_order = store->layout.global_order,
			},
		};
		strscpy(rd->rings[r].info.name, ring->name, sizeof(rd->rings[r].info.name));
		for_each_possible_cpu(cpu) {
			src = &rd->sources[i++];
			src->ring_index = r;
			src->cpu = cpu;
			if (filter && !frec_filter_cpu(filter, cpu)) {
				src->done = true;
				continue;
			}
			if (ring->max_record_len) {
				src->buf = kmalloc(ring->max_record_len, GFP_KERNEL);
				if (!src->buf)
					goto nomem;
			}
			frec_rb_cursor_init(&store->layout, per_cpu_ptr(store->cpus, cpu),
					    &src->cur);
		}
		r++;
	}
	rd->nr_rings = r;
	rd->nr_sources = i;
	rd->formats_gen = frec_texts_gen_read();
	up_read(&frec_rings_rwsem);
	return rd;

nomem:
	up_read(&frec_rings_rwsem);
	rd->nr_sources = i;
	frec_reader_free(rd);
	return ERR_PTR(-ENOMEM);
}

/**
 * frec_reader_close() - end a read
 * @rd: the reader, unlocked.
 *
 * Context: Process context.
 */
void frec_reader_close(struct frec_reader *rd)
{
	frec_reader_free(rd);
}

/**
 * frec_reader_lock() - hold the rings still while reading from them
 * @rd: the reader.
 *
 * Rings destroyed, resized or cleared since the last call end here.
 *
 * Context: Process context; sleeps.  Pairs with frec_reader_unlock().
 */
void frec_reader_lock(struct frec_reader *rd)
{
	struct frec_reader_ring *rr;
	struct frec_ring *ring;
	unsigned int r;

	down_read(&frec_rings_rwsem);
	for (r = 0; r < rd->nr_rings; r++) {
		rr = &rd->rings[r];
		if (!rr->live)
			continue;
		rr->live = false;
		list_for_each_entry(ring, &frec_rings_list, node) {
			if (ring->id == rr->id) {
				rr->live = ring == rr->ring && ring->store_gen == rr->gen;
				break;
			}
		}
	}
}

/**
 * frec_reader_unlock() - let rings change again
 * @rd: the reader.
 *
 * Context: Process context.
 */
void frec_reader_unlock(struct frec_reader *rd)
{
	up_read(&frec_rings_rwsem);
}

/*
 * Fill @src with its next record that passes the filter, looking at no
 * more than *@budget records.  Leaves it neither filled nor done if the
 * budget runs out first.
 */
static void frec_reader_fill(struct frec_reader *rd, struct frec_reader_source *src,
			     unsigned int *budget)
{
	struct frec_reader_ring *rr = &rd->rings[src->ring_index];
	const struct frec_filter *f = rd->filter;
	struct frec_ring_store *store;
	struct frec_rb_cpu *rc;

	if (!rr->live) {
		src->done = true;
		return;
	}
	store = frec_ring_store_locked(rr->ring);
	rc = per_cpu_ptr(store->cpus, src->cpu);
	while (*budget) {
		src->at = src->cur;
		if (!frec_rb_cursor_next(&store->layout, rc, &src->cur, &src->ent, src->buf,
					 rr->ring->max_record_len)) {
			src->done = true;
			return;
		}
		(*budget)--;
		if (!f ||
		    frec_filter_record(f, src->cpu, src->ent.context, src->ent.seq, src->ent.ts)) {
			src->have = true;
			return;
		}
	}
}

/*
 * Records were repointed since the sources' copies were made: copy each
 * out of its ring again, or drop it if it is no longer there.
 */
static void frec_reader_copy_again(struct frec_reader *rd)
{
	struct frec_reader_source *src;
	struct frec_ring_store *store;
	struct frec_rb_cursor again;
	struct frec_rb_entry ent;
	struct frec_ring *ring;
	unsigned int i;

	for (i = 0; i < rd->nr_sources; i++) {
		src = &rd->sources[i];
		if (!src->have)
			continue;
		src->have = false;
		if (!rd->rings[src->ring_index].live)
			continue;
		ring = rd->rings[src->ring_index].ring;
		store = frec_ring_store_locked(ring);
		again = src->at;
		if (frec_rb_cursor_next(&store->layout, per_cpu_ptr(store->cpus, src->cpu),
					&again, &ent, src->buf, ring->max_record_len) &&
		    ent.seq == src->ent.seq) {
			src->ent = ent;
			src->have = true;
		}
	}
}

/*
 * Fill source @i if it needs it and queue its record in the merge.  False
 * if the budget ran out first.
 */
static bool frec_reader_queue(struct frec_reader *rd, unsigned int i, unsigned int *budget)
{
	struct frec_reader_source *src = &rd->sources[i];
	struct frec_merge_key key;

	if (!src->have && !src->done)
		frec_reader_fill(rd, src, budget);
	if (!src->have)
		return src->done;
	key = (struct frec_merge_key) {
		.ts = src->ent.ts, .seq = src->ent.seq, .cpu = src->cpu, .ring = src->ring_index,
	};
	frec_merge_push(&rd->merge, i, &key);
	return true;
}

/**
 * frec_reader_next() - the next record in the merged order
 * @rd: the reader, locked.
 * @rec: filled with the record; its payload stays valid until the next
 *	call.
 * @budget: records the call may look at; decreased by those it did.
 *
 * Context: Process context, between frec_reader_lock() and
 * frec_reader_unlock(), inside an RCU read-side section: format @rec
 * before leaving it.
 * Return: FREC_READER_RECORD if @rec holds a record, FREC_READER_END at
 * the end, FREC_READER_AGAIN if the budget ran out first (call again,
 * with a new budget, after dropping the lock if need be).
 */
enum frec_reader_status frec_reader_next(struct frec_reader *rd,
					 struct frec_reader_record *rec,
					 unsigned int *budget)
{
	struct frec_reader_source *best;
	unsigned long gen = frec_texts_gen_read();
	unsigned int i;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "a reader copies records outside an RCU section");
	if (gen != rd->formats_gen) {
		/* Copies made again, some gone: queue every source anew. */
		frec_reader_copy_again(rd);
		rd->formats_gen = gen;
		rd->merge.nr = 0;
		rd->primed = 0;
		rd->refill = -1;
	}
	for (; rd->primed < rd->nr_sources; rd->primed++)
		if (!frec_reader_queue(rd, rd->primed, budget))
			return FREC_READER_AGAIN;
	if (rd->refill >= 0) {
		if (!frec_reader_queue(rd, rd->refill, budget))
			return FREC_READER_AGAIN;
		rd->refill = -1;
	}
	for (;;) {
		if (!frec_merge_pop(&rd->merge, &i))
			return FREC_READER_END;
		best = &rd->sources[i];
		best->have = false;
		if (rd->rings[best->ring_index].live)
			break;
		/* Its ring changed: the copy is fine, but end here. */
		best->done = true;
	}
	rd->refill = i;
	rec->ring = rd->rings[best->ring_index].ring;
	rec->ring_index = best->ring_index;
	rec->cpu = best->cpu;
	rec->ent = best->ent;
	rec->payload = best->buf;
	return FREC_READER_RECORD;
}

/**
 * frec_reader_nr_rings() - how many rings a reader reads
 * @rd: the reader.
 *
 * Context: Any context.
 * Return: the number of rings, fixed when the reader opened.
 */
unsigned int frec_reader_nr_rings(struct frec_reader *rd)
{
	return rd->nr_rings;
}

/**
 * frec_reader_ring_info() - one of a reader's rings, as it was at the open
 * @rd: the reader.
 * @index: 0 to frec_reader_nr_rings() - 1.
 *
 * A ring destroyed, resized, cleared or re-ordered since the open keeps
 * its name, kind and order here; only its records end.
 *
 * Context: Any context.
 * Return: the ring's name, kind and order when the reader opened.
 */
const struct frec_reader_ring_info *frec_reader_ring_info(struct frec_reader *rd,
							  unsigned int index)
{
	return &rd->rings[index].info;
}

/**
 * frec_reader_by_seq() - does a reader merge by global seq?
 * @rd: the reader.
 *
 * Context: Any context.
 * Return: true if every ring it reads is a global-order ring (and there is
 * at least one), so records merge by their global seq; false if they
 * merge by timestamp.
 */
bool frec_reader_by_seq(struct frec_reader *rd)
{
	return rd->merge.by_seq;
}
