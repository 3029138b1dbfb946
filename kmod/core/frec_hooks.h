/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_hooks.h - how the core tells the services above it what happened:
 * three tables of function pointers, filled in by frec_main.c, called
 * through frec_hooks.c (doc/design.md, "Layers").
 *
 * The core (the record path, the ring and site registries) never names a
 * higher file's function: a service that must hear of a record, a site or
 * a ring gets a slot here, and frec_main.c, the one file that knows every
 * layer, wires the slots to the services' functions before anything can
 * call them (frec_hooks_wire(), first at load) and unwires them after
 * everything that calls them has stopped (frec_hooks_unwire(), last at
 * unload).  Every slot of a wired table is set.  Unwired, a hook does
 * nothing and a claim claims nothing.
 */
#ifndef _FREC_HOOKS_H
#define _FREC_HOOKS_H

#include <linux/types.h>

struct frec_ring;
struct frec_site;

/**
 * struct frec_record_hooks - what the record path tells the triggers and
 *	the span histograms (frec_record.c)
 * @trigger_claim: a site with its trigger bit set records: take the
 *	armed trigger, return its actions (0: none, or another CPU took
 *	it).  Before the record is written.  frec_trigger_claim().
 * @trigger_fired: the record that claimed @actions was stored with @seq
 *	(0 if it was not): carry them out.  frec_trigger_fired().
 * @span_over: a span end's duration, @duration_ns, is above its site's
 *	threshold word: fire the threshold trigger.  frec_trigger_span().
 * @span_hist_slow: a span end's histogram add that the inline case in
 *	frec_span_ended() does not cover (no histogram yet, a skew, past the
 *	last bound).  frec_hist_span_add_slow().
 *
 * Context of every call: any context, NMI included, preemption disabled,
 * inside a record (its nesting counted); the callee never sleeps, never
 * takes a lock that a record may be taken under, and may record.
 */
struct frec_record_hooks {
	unsigned int (*trigger_claim)(struct frec_site *site, struct frec_ring *ring);
	void (*trigger_fired)(struct frec_site *site, struct frec_ring *ring,
			      unsigned int actions, u64 seq);
	bool (*span_over)(struct frec_site *site, struct frec_ring *ring, u64 duration_ns);
	void (*span_hist_slow)(struct frec_site *site, u64 duration_ns);
};

/**
 * struct frec_site_hooks - what the site registry tells the triggers and
 *	the span histograms as it gives a site an id (frec_sites.c)
 * @id_reused: @id, given back by a module that went, goes to a new site:
 *	forget the old site's per-id state.  Process context, under
 *	frec_sites_lock; may sleep.  frec_hist_site_reused().
 * @id_given: @id goes to a site (new or reused), before any record can
 *	name it: a trigger armed on the id's previous site is not this
 *	one's.  Any context, NMI included.  frec_trigger_forget().
 * @registered: @site has @id, published, before its first record is
 *	stored.  Any context, NMI included.  frec_hist_site_registered().
 *
 * @id_given and @registered never sleep or allocate.
 */
struct frec_site_hooks {
	void (*id_reused)(unsigned int id);
	void (*id_given)(unsigned int id);
	void (*registered)(struct frec_site *site, unsigned int id);
};

/**
 * struct frec_ring_hooks - what the ring registry tells the debugfs files
 *	(frec_rings.c)
 * @added: @ring exists and has a name: make its files.
 *	frec_debugfs_add_ring().
 * @removed: @ring, or the ring a new one of the same name replaces, is
 *	going: remove its files, waiting for open ones to close.
 *	frec_debugfs_remove_ring().
 *
 * Process context, frec_rings_rwsem not held (removing waits for the
 * files' users, who may take it); both may sleep.
 */
struct frec_ring_hooks {
	void (*added)(struct frec_ring *ring);
	void (*removed)(struct frec_ring *ring);
};

void frec_hooks_wire(const struct frec_record_hooks *record,
		     const struct frec_site_hooks *site,
		     const struct frec_ring_hooks *ring);
void frec_hooks_unwire(void);

unsigned int frec_hook_trigger_claim(struct frec_site *site, struct frec_ring *ring);
void frec_hook_trigger_fired(struct frec_site *site, struct frec_ring *ring,
			     unsigned int actions, u64 seq);
void frec_hook_span_over(struct frec_site *site, struct frec_ring *ring, u64 duration_ns);
void frec_hook_span_hist_slow(struct frec_site *site, u64 duration_ns);
void frec_hook_site_id_reused(unsigned int id);
void frec_hook_site_id_given(unsigned int id);
void frec_hook_site_registered(struct frec_site *site, unsigned int id);
void frec_hook_ring_added(struct frec_ring *ring);
void frec_hook_ring_removed(struct frec_ring *ring);

#endif /* _FREC_HOOKS_H */
