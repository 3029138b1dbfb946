/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_hist_sites.h - the latency histograms of span ends
 * (frec_hist_sites.c).
 */
#ifndef _FREC_HIST_SITES_H
#define _FREC_HIST_SITES_H

#include <linux/types.h>

struct frec_site;

void frec_hist_span_add(struct frec_site *site, u64 duration_ns);
void frec_hist_site_registered(const struct frec_site *site, unsigned int id);
void frec_hist_site_reused(unsigned int id);
int frec_hist_sites_init(void);
void frec_hist_sites_exit(void);

#endif /* _FREC_HIST_SITES_H */
