/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_span_hook.h - what the record path does with a span once its end
 * is stored and its duration known (frec_record.c, __frec_span_end()).
 */
#ifndef _FREC_SPAN_HOOK_H
#define _FREC_SPAN_HOOK_H

#include <linux/types.h>

struct frec_site;

/**
 * frec_span_ended() - a span's end was stored
 * @site: the end's call site.
 * @duration_ns: the span's duration: the end's timestamp minus the
 *	begin's, 0 where the end's clock was behind (two CPUs' clocks
 *	apart, uapi/frec_raw.h "Spans").
 *
 * Nothing yet.  What comes here: the update of @site's per-CPU latency
 * histogram (no shared write, no lock), and the check of a threshold
 * trigger armed on @site (freeze or dump when @duration_ns is above it).
 *
 * Context: Any context, NMI included, preemption disabled, inside the
 * record (the nest bound of frec_record.c holds).
 */
static __always_inline void frec_span_ended(struct frec_site *site,
					    u64 duration_ns)
{
}

#endif /* _FREC_SPAN_HOOK_H */
