/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_span_hook.h - what the record path does with a span once its end
 * is stored and its duration known (frec_record.c, __frec_span_end()):
 * the inline part; the rest is the services' (frec_hist_sites.c,
 * frec_trigger.c), through the record path's hooks (frec_hooks.h).
 */
#ifndef _FREC_SPAN_HOOK_H
#define _FREC_SPAN_HOOK_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include <frec.h>
#include "frec_hist.h"
#include "frec_hooks.h"
#include "frec_span.h"

/**
 * frec_hist_span_add() - count a span's duration in its end's histogram
 * @site: the span end's call site.
 * @dur_word: the duration word its end stored (frec_span_ended()).
 *
 * The common case inline: @site has its histogram (frec_site.span_hist)
 * and the duration is below FREC_HIST_TOP (18 minutes) and not a skew;
 * the rest (claiming a histogram, counting a span that has none, a skew's
 * 0 ns, a value past the last bound) out of line, in frec_hist_sites.c,
 * through the record path's hooks (frec_hooks.h).
 *
 * Context: Any context, NMI included, preemption disabled (the record
 * path's).
 */
static __always_inline void frec_hist_span_add(struct frec_site *site, u64 dur_word)
{
	struct frec_hist_cpu __percpu *hist = READ_ONCE(site->span_hist);

	/* A skew's word, FREC_SPAN_DUR_SKEW set, is above FREC_HIST_TOP too. */
	if (likely(hist) && likely(frec_hist_add_below_top(this_cpu_ptr(hist), dur_word)))
		return;
	frec_hook_span_hist_slow(site, frec_span_dur_ns(dur_word));
}

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
		frec_hook_span_over(site, ring, frec_span_dur_ns(dur_word));
}

#endif /* _FREC_SPAN_HOOK_H */
