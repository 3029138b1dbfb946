/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_debugfs.h - /sys/kernel/debug/frec/.
 */
#ifndef _FREC_DEBUGFS_H
#define _FREC_DEBUGFS_H

#include <linux/types.h>

struct dentry;
struct file;
struct frec_ring;
struct frec_filter;

int frec_debugfs_init(void);
void frec_debugfs_exit(void);
void frec_debugfs_add_ring(struct frec_ring *ring);
void frec_debugfs_remove_ring(struct frec_ring *ring);
void frec_debugfs_get_filter(struct frec_filter *f);
struct dentry *frec_debugfs_dir(void);
struct dentry *frec_debugfs_rings_dir(void);

extern const struct file_operations frec_clear_fops;
extern const struct file_operations frec_sites_fops;
extern const struct file_operations frec_control_fops;

const char *frec_level_name(unsigned int level);
unsigned int frec_level_parse(const char *s);

/**
 * struct frec_debugfs_uint - an unsigned int a control file sets
 * @val: the variable.
 * @min: the lowest value taken.
 * @max: the highest.
 */
struct frec_debugfs_uint {
	unsigned int *val;
	unsigned int min, max;
};

void frec_debugfs_create_bool(const char *name, struct dentry *dir, bool *val);
void frec_debugfs_create_uint(const char *name, struct dentry *dir,
			      const struct frec_debugfs_uint *u);
void frec_debugfs_refuse(struct file *file, const char *what, const char *why);
int frec_debugfs_get_input(struct file *file, const char __user *ubuf, size_t count,
			   loff_t *ppos, char *buf, size_t size);
int frec_debugfs_check_size(struct file *file, size_t count, loff_t pos, size_t size);
int frec_debugfs_check_line(struct file *file, char *buf, size_t count);
int frec_debugfs_parse_u64(struct file *file, const char *s, u64 max, u64 *val);
int frec_debugfs_get_bool(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos, bool *val);

#endif /* _FREC_DEBUGFS_H */
