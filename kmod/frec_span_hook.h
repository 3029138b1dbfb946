/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_span_hook.h - what the record path does with a span once its end
 * is stored and its duration known (frec_record.c, __frec_span_end()).
 */
#ifndef _FREC_SPAN_HOOK_H
#define _FREC_SPAN_HOOK_H

#include <linux/types.h>

#include "frec_hist_sites.h"
#include "frec_trigger.h"

struct frec_site;

/**
 * frec_span_ended() - a span's end was stored
 * @site: the end's call site.
 * @duration_ns: the span's duration: the end's timestamp minus the
 *	begin's, 0 where the end's clock was behind (two CPUs' clocks
 *	apart, uapi/frec_raw.h "Spans").
 *
 * Counts the duration in @site's latency histogram (per CPU, no shared
 * write, no lock: frec_hist_sites.c), then fires a threshold trigger
 * armed on @site if the span was slower (frec_trigger.c), so that the
 * slow span's end is stored and counted before the rings freeze.
 *
 * Context: Any context, NMI included, preemption disabled, inside the
 * record (the nest bound of frec_record.c holds).
 */
static __always_inline void frec_span_ended(struct frec_site *site,
					    u64 duration_ns)
{
	unsigned int id = READ_ONCE(site->id);

	frec_hist_span_add(site, id, duration_ns);
	if (frec_trigger_span_over(id, duration_ns))
		frec_trigger_span(site, duration_ns);
}

#endif /* _FREC_SPAN_HOOK_H */
