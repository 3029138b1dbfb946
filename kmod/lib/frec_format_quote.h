/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_format_quote.h - strings in the formats file, quoted both ways.
 *
 * The module's debugfs "formats" file lists every format and %s literal a
 * record may point to, one per line, in the syntax of the kernel's
 * tracing/printk_formats (t_show() in kernel/trace/trace_printk.c):
 *
 *   0xffffffffc0a01234 : "irq %d status %#lx\n"
 *
 * Inside the quotes a newline is written \n, a tab \t and a double quote
 * \".  Unlike t_show(), which writes a backslash as a lone backslash (so
 * that "\n" in its output may be either a newline or a backslash and an
 * 'n'), frec writes a backslash as \\, so every string reads back as it
 * was.  Other bytes are written as they are, as t_show() writes them.
 * frec-decode reads the file back with frec_format_unquote(), which also
 * takes t_show()'s lone backslashes (a backslash before any other byte is
 * itself).
 */
#ifndef _FREC_FORMAT_QUOTE_H
#define _FREC_FORMAT_QUOTE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#endif

size_t frec_format_quote(char *buf, size_t size, const char *s,
			 size_t *consumed);
size_t frec_format_unquote(char *buf, size_t size, const char *s, size_t len);

#endif /* _FREC_FORMAT_QUOTE_H */
