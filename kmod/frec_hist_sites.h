/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_hist_sites.h - the latency histograms of span ends
 * (frec_hist_sites.c); the record path's add, inline.
 */
#ifndef _FREC_HIST_SITES_H
#define _FREC_HIST_SITES_H

#include <linux/compiler.h>
#include <linux/fs.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include <frec.h>
#include "frec_hist.h"
#include "frec_span.h"

void frec_hist_span_add_slow(struct frec_site *site, u64 duration_ns);

/**
 * frec_hist_span_add() - count a span's duration in its end's histogram
 * @site: the span end's call site.
 * @dur_word: the duration word its end stored (frec_span_ended()).
 *
 * The common case inline: @site has its histogram (frec_site.span_hist)
 * and the duration is below FREC_HIST_TOP (18 minutes) and not a skew;
 * the rest (claiming a histogram, counting a span that has none, a skew's
 * 0 ns, a value past the last bound) out of line.
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
	frec_hist_span_add_slow(site, frec_span_dur_ns(dur_word));
}

extern const struct file_operations frec_hist_fops;

void frec_hist_site_registered(struct frec_site *site, unsigned int id);
void frec_hist_site_reused(unsigned int id);
int frec_hist_sites_init(void);
void frec_hist_sites_exit(void);

#endif /* _FREC_HIST_SITES_H */
