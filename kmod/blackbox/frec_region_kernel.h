/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_region_kernel.h - the black box region this boot writes
 * (frec_region_kernel.c; doc/blackbox.md).
 */
#ifndef _FREC_REGION_KERNEL_H
#define _FREC_REGION_KERNEL_H

#include <linux/types.h>

#include <frec_region.h>

struct dentry;

bool frec_region_wanted(void);
bool frec_region_in_memory(void);
int frec_region_init(struct dentry *root, u32 sites_wanted);
void frec_region_exit(void);
void frec_region_end(u32 end);
void frec_region_hold_state(bool hold);
struct frec_region_header *frec_region_mapped(void);
void frec_region_wb(const void *p, u64 len);
void frec_region_use(u64 end);
void frec_region_parts_sync(void);

#endif /* _FREC_REGION_KERNEL_H */
