/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_rings.h - what a named ring is inside frec (clients see an opaque
 * struct frec_ring).
 */
#ifndef _FREC_RINGS_H
#define _FREC_RINGS_H

#include <linux/list.h>

#include <frec.h>

#include "frec_ring.h"

/**
 * struct frec_ring - a named ring
 * @node: entry in the list of rings, under frec_rings_lock.
 * @name: unique name.
 * @kind: events or records.
 * @enabled: records are stored only while set.
 * @layout: the shape every CPU's part shares.
 * @cpus: the CPUs' parts.
 */
struct frec_ring {
	struct list_head node;
	char name[FREC_RING_NAME_MAX + 1];
	enum frec_ring_kind kind;
	bool enabled;
	struct frec_ring_layout layout;
	struct frec_ring_cpu __percpu *cpus;
};

int frec_rings_init(void);
void frec_rings_exit(void);
void frec_rings_for_each(void (*fn)(struct frec_ring *ring, void *data), void *data);

#endif /* _FREC_RINGS_H */
