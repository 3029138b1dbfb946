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

#include "frec_format.h"

int frec_printk_args_pack(u64 *buf, unsigned int size, struct frec_site *site, va_list ap);

#endif /* _FREC_PRINTK_ARGS_H */
