/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_debugfs_input.h - what every debugfs file's write shares: reading
 * and checking the input, refusing it with a log line, the knobs
 * (frec_debugfs_input.c).
 */
#ifndef _FREC_DEBUGFS_INPUT_H
#define _FREC_DEBUGFS_INPUT_H

#include <linux/types.h>

struct dentry;
struct file;

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

#endif /* _FREC_DEBUGFS_INPUT_H */
