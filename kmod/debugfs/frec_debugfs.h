/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_debugfs.h - /sys/kernel/debug/frec/.
 */
#ifndef _FREC_DEBUGFS_H
#define _FREC_DEBUGFS_H

#include <linux/types.h>

#include "frec_debugfs_input.h"
#include "frec_levels.h"

struct dentry;
struct frec_ring;

int frec_debugfs_init(void);
void frec_debugfs_exit(void);
void frec_debugfs_add_ring(struct frec_ring *ring);
void frec_debugfs_remove_ring(struct frec_ring *ring);
struct dentry *frec_debugfs_dir(void);
struct dentry *frec_debugfs_rings_dir(void);

extern const struct file_operations frec_clear_fops;
extern const struct file_operations frec_sites_fops;
extern const struct file_operations frec_control_fops;

#endif /* _FREC_DEBUGFS_H */
