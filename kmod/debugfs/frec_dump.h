/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_dump.h - the files that stream records out: dump, raw, formats.
 */
#ifndef _FREC_DUMP_H
#define _FREC_DUMP_H

#include <linux/fs.h>

extern const struct file_operations frec_dump_fops;
extern const struct file_operations frec_raw_fops;
extern const struct file_operations frec_formats_fops;

#endif /* _FREC_DUMP_H */
