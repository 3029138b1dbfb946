/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_rings.h - what a named ring is inside frec (clients see an opaque
 * struct frec_ring).
 */
#ifndef _FREC_RINGS_H
#define _FREC_RINGS_H

#include <linux/list.h>
#include <linux/spinlock.h>

#include <frec.h>

#include "frec_ring.h"

/**
 * struct frec_ring - a named ring
 * @gate: what call sites test inline (include/frec.h); first, so that a
 *	client can read it through its opaque pointer.
 * @node: entry in the list of rings, under frec_rings_lock.
 * @name: unique name.
 * @kind: events or records.
 * @gate_lock: serializes changes of @enabled and @level into @gate.
 * @enabled: records are stored only while set.
 * @level: records above this level are not stored.
 * @static_def: the FREC_DEFINE_RING() definition this ring belongs to,
 *	NULL for a ring from frec_ring_create().
 * @orphan: a static ring whose module unloaded; its records stay readable
 *	until a module registers it again.  Under frec_rings_lock.
 * @bytes_per_cpu: size of each CPU's part.
 * @layout: the shape every CPU's part shares.
 * @cpus: the CPUs' parts.
 */
struct frec_ring {
	struct frec_ring_gate gate;
	struct list_head node;
	char name[FREC_RING_NAME_MAX + 1];
	enum frec_ring_kind kind;
	raw_spinlock_t gate_lock;
	bool enabled;
	unsigned int level;
	const struct frec_ring_def *static_def;
	bool orphan;
	unsigned long bytes_per_cpu;
	struct frec_ring_layout layout;
	struct frec_ring_cpu __percpu *cpus;
};

int frec_rings_init(void);
void frec_rings_exit(void);
struct frec_ring *frec_ring_adopt(const struct frec_ring_def *def);
void frec_ring_disown(struct frec_ring *ring);
void frec_rings_for_each(void (*fn)(struct frec_ring *ring, void *data), void *data);

#endif /* _FREC_RINGS_H */
