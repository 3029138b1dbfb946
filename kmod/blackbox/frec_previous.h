/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_previous.h - what the region held when this boot found it, shown
 * under debugfs frec/previous/ (frec_previous.c).
 */
#ifndef _FREC_PREVIOUS_H
#define _FREC_PREVIOUS_H

#include <linux/types.h>

struct dentry;

int frec_previous_keep(const void *region, u64 bytes, u64 phys_addr,
		       struct dentry *root, u64 boot_wall_ns, u64 older_ns);
void frec_previous_exit(void);

#endif /* _FREC_PREVIOUS_H */
