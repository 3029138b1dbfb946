/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_persist.h - rings and sites this boot keeps in the black box region
 * (frec_persist.c).
 */
#ifndef _FREC_PERSIST_H
#define _FREC_PERSIST_H

#include <linux/types.h>

#include <frec_raw.h>

struct dentry;
struct frec_filter;
struct frec_site;

int frec_persist_check(void);
int frec_persist_init(void);
void frec_persist_exit(void);
struct frec_slot *frec_persist_parts(const char *name, u64 nr_slots,
				     unsigned int max_record_len,
				     bool global_order, unsigned int replaces,
				     unsigned int *entry);
void frec_persist_parts_retire(unsigned int entry);
void frec_persist_parts_free(unsigned int entry);
unsigned int frec_persist_site_ids(void);
void frec_persist_site(const struct frec_site *site, unsigned int id);
void frec_persist_site_caller(const struct frec_site *site, unsigned int id);
void frec_persist_records_wb(void);
unsigned int frec_persist_sites_no_text(unsigned int *first, u64 *pool_bytes);
const struct frec_filter *frec_persist_ring_filter(void);
bool frec_persist_site_names(u64 id, u64 caller);
bool frec_persist_text_room(u32 *entries, u64 *pool_bytes);
int frec_persist_text(u64 addr, u64 from, u32 kind, const char *text, u32 len);
int frec_persist_texts_init(struct dentry *root);
void frec_persist_texts_sweep(void);
void frec_persist_texts_exit(void);

#endif /* _FREC_PERSIST_H */
