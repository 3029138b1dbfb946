/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_filter_file.h - debugfs frec/filter, the filter in force
 * (frec_filter_file.c).
 */
#ifndef _FREC_FILTER_FILE_H
#define _FREC_FILTER_FILE_H

struct frec_filter;

extern const struct file_operations frec_filter_fops;

void frec_filter_file_get(struct frec_filter *f);
int frec_filter_file_init(void);
void frec_filter_file_exit(void);

#endif /* _FREC_FILTER_FILE_H */
