/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_hist_sites.h - the latency histograms of span ends
 * (frec_hist_sites.c); the record path's inline add is frec_span_hook.h's.
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

struct dentry;

void frec_hist_span_add_slow(struct frec_site *site, u64 duration_ns);
extern const struct file_operations frec_hist_fops;

void frec_hist_site_registered(struct frec_site *site, unsigned int id);
void frec_hist_site_reused(unsigned int id);
int frec_hist_sites_init(struct dentry *dir);
void frec_hist_sites_exit(void);

#endif /* _FREC_HIST_SITES_H */
