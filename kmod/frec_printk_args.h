/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_printk_args.h - frec_printk()'s records of arguments
 * (frec_printk_args.c).
 */
#ifndef _FREC_PRINTK_ARGS_H
#define _FREC_PRINTK_ARGS_H

#include <linux/stdarg.h>
#include <linux/types.h>

#include <frec.h>

/* Most arguments a record of arguments holds. */
#define FREC_PRINTK_ARGS_MAX	12

int frec_printk_args_pack(u64 *buf, unsigned int size, struct frec_site *site, va_list ap);
int frec_printk_args_unpack(u64 *args, const char *fmt, const void *payload,
			    unsigned int len);

#endif /* _FREC_PRINTK_ARGS_H */
