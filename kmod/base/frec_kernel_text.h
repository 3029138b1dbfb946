/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_kernel_text.h - text read out of kernel memory (frec_kernel_text.c).
 */
#ifndef _FREC_KERNEL_TEXT_H
#define _FREC_KERNEL_TEXT_H

#include <linux/types.h>

int frec_format_kernel_string(char *buf, size_t size, u64 addr);
int frec_format_kernel_symbol_name(char *buf, u64 addr, char ext);

#endif /* _FREC_KERNEL_TEXT_H */
