// SPDX-License-Identifier: GPL-2.0
/*
 * frec_hooks.c - the core's calls up, through the tables frec_main.c
 * wires (frec_hooks.h says who calls each hook, when, and what the callee
 * may do).
 *
 * Each call is out of line, as the direct call it replaces was: the
 * record path's inline fast path is what it was, and only its uncommon
 * cases (a site's first record, an armed trigger, a span's histogram
 * being claimed) load a table.  The tables are set at load before any
 * ring, site or client module exists, and cleared at unload after the
 * last is gone: no call can meet a table being changed, so a plain load
 * (READ_ONCE, against tearing only) is enough, and pairs with nothing.
 */
#include <linux/compiler.h>

#include "frec_hooks.h"

static const struct frec_record_hooks *frec_record_hooks;
static const struct frec_site_hooks *frec_site_hooks;
static const struct frec_ring_hooks *frec_ring_hooks;

/**
 * frec_hooks_wire() - let the core call the services
 * @record: the record path's hooks.
 * @site: the site registry's.
 * @ring: the ring registry's.
 *
 * Context: Process context, first when frec loads.
 */
void frec_hooks_wire(const struct frec_record_hooks *record,
		     const struct frec_site_hooks *site,
		     const struct frec_ring_hooks *ring)
{
	WRITE_ONCE(frec_record_hooks, record);
	WRITE_ONCE(frec_site_hooks, site);
	WRITE_ONCE(frec_ring_hooks, ring);
}

/**
 * frec_hooks_unwire() - the core calls no service any more
 *
 * Context: Process context, last when frec unloads (or fails to load).
 */
void frec_hooks_unwire(void)
{
	frec_hooks_wire(NULL, NULL, NULL);
}

/* The record path's (struct frec_record_hooks). */

unsigned int frec_hook_trigger_claim(struct frec_site *site, struct frec_ring *ring)
{
	const struct frec_record_hooks *h = READ_ONCE(frec_record_hooks);

	return h ? h->trigger_claim(site, ring) : 0;
}

void frec_hook_trigger_fired(struct frec_site *site, struct frec_ring *ring,
			     unsigned int actions, u64 seq)
{
	const struct frec_record_hooks *h = READ_ONCE(frec_record_hooks);

	if (h)
		h->trigger_fired(site, ring, actions, seq);
}

void frec_hook_span_over(struct frec_site *site, struct frec_ring *ring, u64 duration_ns)
{
	const struct frec_record_hooks *h = READ_ONCE(frec_record_hooks);

	if (h)
		h->span_over(site, ring, duration_ns);
}

void frec_hook_span_hist_slow(struct frec_site *site, u64 duration_ns)
{
	const struct frec_record_hooks *h = READ_ONCE(frec_record_hooks);

	if (h)
		h->span_hist_slow(site, duration_ns);
}

/* The site registry's (struct frec_site_hooks). */

void frec_hook_site_id_reused(unsigned int id)
{
	const struct frec_site_hooks *h = READ_ONCE(frec_site_hooks);

	if (h)
		h->id_reused(id);
}

void frec_hook_site_id_given(unsigned int id)
{
	const struct frec_site_hooks *h = READ_ONCE(frec_site_hooks);

	if (h)
		h->id_given(id);
}

void frec_hook_site_registered(struct frec_site *site, unsigned int id)
{
	const struct frec_site_hooks *h = READ_ONCE(frec_site_hooks);

	if (h)
		h->registered(site, id);
}

/* The ring registry's (struct frec_ring_hooks). */

void frec_hook_ring_added(struct frec_ring *ring)
{
	const struct frec_ring_hooks *h = READ_ONCE(frec_ring_hooks);

	if (h)
		h->added(ring);
}

void frec_hook_ring_removed(struct frec_ring *ring)
{
	const struct frec_ring_hooks *h = READ_ONCE(frec_ring_hooks);

	if (h)
		h->removed(ring);
}
