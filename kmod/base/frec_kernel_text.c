// SPDX-License-Identifier: GPL-2.0
/*
 * frec_kernel_text.c - text read out of kernel memory that may be gone or
 * never was: a string at any address, a code address's name.
 *
 * Below everything that keeps or prints such text: the formatter's
 * lookups (frec_format_kernel.c), the saved copies (frec_texts.c), the
 * black box's copies (frec_persist.c, frec_persist_texts.c) and the
 * printk argument packer (frec_printk_args.c) all read through here.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "frec_kernel_text.h"

/**
 * frec_format_kernel_string() - copy a string from any kernel address
 * @buf: where to copy it.
 * @size: its size; at most @size - 1 bytes and a NUL are written.
 * @addr: the address.
 *
 * strncpy_from_kernel_nofault() is not exported to modules, so this copies
 * with copy_from_kernel_nofault(), a page at most at a time: bytes past
 * the NUL but on the same page are as readable as the string.  With room
 * for the NUL alone, the first byte is still read: a string that can be
 * read is not -EFAULT because none of it fits.
 *
 * Context: Any context.
 * Return: the length copied, or -EFAULT if @addr cannot be read.
 */
int frec_format_kernel_string(char *buf, size_t size, u64 addr)
{
	const char *src = (const char *)(unsigned long)addr;
	size_t len = 0, chunk;
	char first, *nul;

	if (size == 1) {
		buf[0] = '\0';
		return copy_from_kernel_nofault(&first, src, 1) ? -EFAULT : 0;
	}
	while (len < size - 1) {
		chunk = min(size - 1 - len, PAGE_SIZE - offset_in_page(src + len));
		if (copy_from_kernel_nofault(buf + len, src + len, chunk)) {
			if (!len)
				break;
			/* The string ran into an unreadable page: cut it there. */
			buf[len] = '\0';
			return len;
		}
		nul = memchr(buf + len, '\0', chunk);
		if (nul)
			return nul - buf;
		len += chunk;
	}
	if (!len) {
		buf[0] = '\0';
		return -EFAULT;
	}
	buf[len] = '\0';
	return len;
}

/*
 * %pB: the symbol of @addr - 1 with the offset plus one, as
 * sprint_backtrace() (not exported) prints a return address.
 */
static void frec_format_kernel_backtrace(char *buf, u64 addr)
{
	char rest[KSYM_SYMBOL_LEN], hex[20];
	unsigned long off;
	char *plus, *slash;

	sprint_symbol(buf, addr - 1);
	plus = strstr(buf, "+0x");
	slash = plus ? strchr(plus, '/') : NULL;
	if (!slash || slash - plus - 3 >= sizeof(hex))
		return;
	strscpy(hex, plus + 3, slash - plus - 2);
	if (kstrtoul(hex, 16, &off))
		return;
	strscpy(rest, slash, sizeof(rest));
	snprintf(plus, KSYM_SYMBOL_LEN - (plus - buf), "+%#lx%s", off + 1, rest);
}

/**
 * frec_format_kernel_symbol_name() - name a code address as printk would
 * @buf: KSYM_SYMBOL_LEN bytes.
 * @addr: the address.
 * @ext: 'S' as %pS ("fn+0x1a/0x80 [mod]"), 's' as %ps ("fn [mod]"), 'B'
 *	as %pB (the symbol of @addr - 1, for a return address).
 *
 * Context: Any context.
 * Return: the name's length, or -ENOENT if @addr names no symbol.
 */
int frec_format_kernel_symbol_name(char *buf, u64 addr, char ext)
{
	if (ext == 's')
		sprint_symbol_no_offset(buf, addr);
	else if (ext == 'B')
		frec_format_kernel_backtrace(buf, addr);
	else
		sprint_symbol(buf, addr);
	/* Nothing there: sprint_symbol() printed the address. */
	if (str_has_prefix(buf, "0x"))
		return -ENOENT;
	return strlen(buf);
}
