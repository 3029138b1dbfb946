/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_rings.h - what a named ring is inside frec (clients see an opaque
 * struct frec_ring).
 */
#ifndef _FREC_RINGS_H
#define _FREC_RINGS_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>

#include <frec.h>

#include "frec_rb.h"

/* Longest payload of a record ring. */
#define FREC_RING_MAX_RECORD_LEN	4096

/**
 * struct frec_ring_store - the memory a ring records into
 * @layout: the shape every CPU's part shares.
 * @bytes_per_cpu: size of each CPU's part.
 * @cpus: the CPUs' parts.
 * @persisted: its ring entry's index in the black box region plus one,
 *	if its slots are the region's (frec_persist.c); 0 if they are its own.
 * @vmcore: its id in the kdump directory (frec_vmcore_kernel.c), 0 if not listed.
 *
 * Resizing or clearing a ring swaps in a new store (see frec_rings.c).
 */
struct frec_ring_store {
	struct frec_rb layout;
	unsigned long bytes_per_cpu;
	struct frec_rb_cpu __percpu *cpus;
	unsigned int persisted;
	unsigned int vmcore;
};

/**
 * struct frec_ring_totals - one CPU's counts of a ring, over all stores
 * @written: records offered.
 * @overwritten: stored records destroyed by newer ones.
 * @dropped: records not stored, by enum frec_drop_reason.
 * @cleared: stored records thrown away by a clear or a resize.
 *
 * When writers are quiet: written == readable + overwritten +
 * sum(dropped) + cleared.
 */
struct frec_ring_totals {
	u64 written;
	u64 overwritten;
	u64 dropped[FREC_DROP_NR];
	u64 cleared;
};

/**
 * struct frec_ring - a named ring
 * @gate: what call sites test inline (include/frec.h); first, so that a
 *	client can read it through its opaque pointer.
 * @node: entry in the list of rings, under frec_rings_rwsem.
 * @id: unique for the life of frec; readers find their rings again by it.
 * @name: unique name.
 * @kind: events or records.
 * @max_record_len: longest payload of a record ring, 0 for an event ring.
 * @global_order: the order of its store (whose layout says it too): seqs
 *	from the counter all CPUs share.  Changed with the store, both under
 *	the admin lock of frec_rings.c.
 * @gate_lock: serializes changes of @enabled, @level and @retired into
 *	@gate.
 * @enabled: records are stored only while set.
 * @retired: set, for good, when the ring is destroyed: the record path
 *	stops at it (see "Ring lifetime" in frec_rings.c).
 * @stop: why the record path refuses records that passed the gate, 0
 *	while it stores them: FREC_RING_STOP_DISABLED mirrors !@enabled,
 *	FREC_RING_STOP_FROZEN is set by a trigger (frec_trigger.c) from any
 *	context, one atomic op, and cleared through debugfs frec/frozen.
 * @level: records above this level are not stored.
 * @static_def: the FREC_DEFINE_RING() definition this ring belongs to,
 *	NULL for a ring from frec_ring_create().
 * @orphan: a static ring whose module unloaded; its records stay readable
 *	until a module registers it again.  Under frec_rings_rwsem.
 * @store: where writers record; replaced under frec_rings_rwsem, and
 *	read by writers under RCU-sched (preemption off).
 * @store_gen: bumped when @store is replaced, under frec_rings_rwsem.
 * @base: per-CPU counts of the stores replaced so far.
 * @debugfs: the ring's directory under frec/rings/.
 * @rcu: frees the struct once no call site can be reading it.
 */
struct frec_ring {
	struct frec_ring_gate gate;
	struct list_head node;
	u64 id;
	char name[FREC_RING_NAME_MAX + 1];
	enum frec_ring_kind kind;
	unsigned int max_record_len;
	bool global_order;
	raw_spinlock_t gate_lock;
	bool enabled;
	bool retired;
	atomic_t stop;
	unsigned int level;
	const struct frec_ring_def *static_def;
	bool orphan;
	struct frec_ring_store __rcu *store;
	u64 store_gen;
	struct frec_ring_totals __percpu *base;
	struct dentry *debugfs;
	struct rcu_head rcu;
};

/* struct frec_ring.stop */
#define FREC_RING_STOP_DISABLED	0x1
#define FREC_RING_STOP_FROZEN	0x2

extern struct rw_semaphore frec_rings_rwsem;
extern struct list_head frec_rings_list;

/* The ring's store; frec_rings_rwsem held. */
static inline struct frec_ring_store *frec_ring_store_locked(struct frec_ring *ring)
{
	return rcu_dereference_protected(ring->store, lockdep_is_held(&frec_rings_rwsem));
}

int frec_rings_init(void);
void frec_rings_exit(void);
struct frec_ring *frec_ring_adopt(const struct frec_ring_def *def);
void frec_ring_disown(struct frec_ring *ring);
struct frec_ring *frec_ring_find(const char *name);
int frec_ring_resize(struct frec_ring *ring, unsigned long bytes_per_cpu);
int frec_ring_set_order(struct frec_ring *ring, bool global_order);
int frec_ring_clear(struct frec_ring *ring);
int frec_rings_clear_all(void);
void frec_ring_totals(struct frec_ring *ring, int cpu, struct frec_ring_totals *t);
void frec_rings_for_each(void (*fn)(struct frec_ring *ring, void *data), void *data);

#endif /* _FREC_RINGS_H */
