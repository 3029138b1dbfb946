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

#include "frec_hist.h"

struct frec_site;

/* The pool (frec_hist_sites.c), set at load. */
extern unsigned int *frec_hist_slot;
extern unsigned int frec_hist_ids;
extern unsigned int frec_hist_nr;
extern struct frec_hist *frec_hist_shared;
extern struct frec_hist_cpu __percpu **frec_hist_pcpu;

void frec_hist_span_add_slow(struct frec_site *site, unsigned int id, u64 duration_ns);

/**
 * frec_hist_span_add() - count a span's duration in its end's histogram
 * @site: the span end's call site.
 * @id: its id word, as the record path read it.
 * @duration_ns: the span's duration.
 *
 * The common case inline: a site with a plain id whose histogram is
 * there; the rest (claiming one, counting what has none) out of line.
 *
 * Context: Any context, NMI included, preemption disabled (the record
 * path's).
 */
static __always_inline void frec_hist_span_add(struct frec_site *site, unsigned int id,
					       u64 duration_ns)
{
	unsigned int n;

	if (likely(id < frec_hist_ids)) {
		n = READ_ONCE(frec_hist_slot[id]) - 1;
		if (likely(n < frec_hist_nr)) {
			frec_hist_add(&frec_hist_shared[n], this_cpu_ptr(frec_hist_pcpu[n]),
				      duration_ns);
			return;
		}
	}
	frec_hist_span_add_slow(site, id, duration_ns);
}

extern const struct file_operations frec_hist_fops;

void frec_hist_site_registered(const struct frec_site *site, unsigned int id);
void frec_hist_site_reused(unsigned int id);
int frec_hist_sites_init(void);
void frec_hist_sites_exit(void);

#endif /* _FREC_HIST_SITES_H */
