// SPDX-License-Identifier: GPL-2.0
/*
 * frec_format_quote.c - quoting strings for the formats file, and back.
 *
 * The syntax is described in frec_format_quote.h.  Shared, unchanged, by
 * the module (which writes the file) and tools/frec-decode (which reads
 * it), so that the two agree on every byte.
 */
#ifdef __KERNEL__
#include <linux/types.h>
#endif

#include "frec_format_quote.h"

/* The escape for @c, or NULL if @c stands for itself. */
static const char *frec_quote_escape(char c)
{
	switch (c) {
	case '\n':
		return "\\n";
	case '\t':
		return "\\t";
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	default:
		return NULL;
	}
}

/**
 * frec_format_quote() - write a string as the formats file quotes it
 * @buf: where the quoted text goes (without the surrounding quotes),
 *	NUL-terminated.
 * @size: bytes at @buf, at least 1.
 * @s: the NUL-terminated string.
 * @consumed: if not NULL, set to the bytes of @s quoted into @buf.
 *
 * Writes as much of @s as fits, never half an escape; a caller with a
 * small buffer calls again from @s + *@consumed until *@consumed reaches
 * the end of @s.
 *
 * Context: Any context.
 * Return: the bytes written, not counting the NUL.
 */
size_t frec_format_quote(char *buf, size_t size, const char *s,
			 size_t *consumed)
{
	size_t len = 0, i;
	const char *esc;

	for (i = 0; s[i]; i++) {
		esc = frec_quote_escape(s[i]);
		if (len + (esc ? 2 : 1) > size - 1)
			break;
		if (esc) {
			buf[len++] = esc[0];
			buf[len++] = esc[1];
		} else {
			buf[len++] = s[i];
		}
	}
	buf[len] = '\0';
	if (consumed)
		*consumed = i;
	return len;
}

/**
 * frec_format_unquote() - read back what frec_format_quote() wrote
 * @buf: where the string goes, NUL-terminated.
 * @size: bytes at @buf, at least 1; @len + 1 always suffices.
 * @s: the text between the quotes (not NUL-terminated).
 * @len: its length.
 *
 * \n, \t, \" and \\ are a newline, a tab, a double quote and a backslash;
 * a backslash before any other byte, or last, is itself, as the kernel's
 * printk_formats writes a backslash.  The result is cut at @size - 1
 * bytes, and at a NUL byte in @s.
 *
 * Context: Any context.
 * Return: the length of the string written to @buf.
 */
size_t frec_format_unquote(char *buf, size_t size, const char *s, size_t len)
{
	size_t out = 0, i;
	char c;

	for (i = 0; i < len && out < size - 1; i++) {
		c = s[i];
		if (c == '\\' && i + 1 < len) {
			switch (s[i + 1]) {
			case 'n':
				c = '\n';
				i++;
				break;
			case 't':
				c = '\t';
				i++;
				break;
			case '"':
			case '\\':
				c = s[++i];
				break;
			}
		}
		if (!c)
			break;
		buf[out++] = c;
	}
	buf[out] = '\0';
	return out;
}
