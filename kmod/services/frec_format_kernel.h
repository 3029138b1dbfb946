/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_format_kernel.h - the kernel's lookups for frec_format.c.
 */
#ifndef _FREC_FORMAT_KERNEL_H
#define _FREC_FORMAT_KERNEL_H

#include <linux/kallsyms.h>

#include <frec.h>

#include "frec_format.h"
#include "frec_kernel_text.h"
#include "frec_reader.h"

/* Longest format read from memory, NUL included. */
#define FREC_FORMAT_FMT_MAX	1024

/**
 * struct frec_format_kernel - scratch space for formatting in the kernel
 * @env: the lookups, with ctx pointing here.
 * @sym: sprint_symbol()'s buffer.
 * @fmt: the format, copied out of memory that may go away.
 * @text: a frec_printk() record of arguments, formatted.
 * @line: the formatted line.
 */
struct frec_format_kernel {
	struct frec_format_env env;
	char sym[KSYM_SYMBOL_LEN];
	char fmt[FREC_FORMAT_FMT_MAX];
	char text[FREC_PRINTK_MAX + 1];
	char line[FREC_FORMAT_LINE_MAX];
};

void frec_format_kernel_init(struct frec_format_kernel *fk, bool console);
size_t frec_format_kernel_line(struct frec_format_kernel *fk,
			       const struct frec_reader_record *rec);
const char *frec_format_kernel_text(struct frec_format_kernel *fk,
				    const struct frec_reader_record *rec, unsigned int *len);

#endif /* _FREC_FORMAT_KERNEL_H */
