/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_span_hook.h - what the record path does with a span once its end
 * is stored and its duration known (frec_record.c, __frec_span_end()).
 */
#ifndef _FREC_SPAN_HOOK_H
#define _FREC_SPAN_HOOK_H

#include <linux/compiler.h>
#include <linux/types.h>

#include <frec.h>
#include "frec_hist_sites.h"
#include "frec_span.h"
#include "frec_trigger.h"

/**
 * frec_span_ended() - a span's end was stored
 * @ring: the ring it was stored in (a threshold's freeze freezes it).
 * @site: the end's call site.
 * @dur_word: the duration word the end stored (uapi/frec_raw.h, "Spans"):
 *	the end's timestamp minus the begin's, or, where the end's clock was
 *	behind (two CPUs' clocks apart), FREC_SPAN_DUR_SKEW and how far: a
 *	span of 0 ns.
 *
 * Counts the duration in @site's latency histogram (per CPU, no shared
 * write, no lock: frec_hist_sites.c), then fires a threshold trigger
 * armed on @site if the span was slower (frec_trigger.c), so that the
 * slow span's end is stored and counted before the rings freeze.  The
 * test is one load and compare of @site's own word, armed or not; a
 * skewed word is above every threshold, and frec_trigger_span() sees its
 * 0 ns.
 *
 * Context: Any context, NMI included, preemption disabled by the caller
 * (frec_span_end()); after the end's record is stored, not inside it.
 */
static __always_inline void frec_span_ended(struct frec_ring *ring, struct frec_site *site,
					    u64 dur_word)
{
	frec_hist_span_add(site, dur_word);
	if (unlikely(dur_word > ~READ_ONCE(site->span_threshold_inv)))
		frec_trigger_span(site, ring, frec_span_dur_ns(dur_word));
}

#endif /* _FREC_SPAN_HOOK_H */
