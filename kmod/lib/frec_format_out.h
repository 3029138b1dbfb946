/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_format_out.h - what frec_format.c (the conversions) and
 * frec_format_line.c (the line around them) share: the output buffer, the
 * spec number() prints by, and the pieces of the formatter a line is made
 * of.  Private to those two files.
 */
#ifndef _FREC_FORMAT_OUT_H
#define _FREC_FORMAT_OUT_H

#include "frec_format.h"

/* number()'s flags, as lib/vsprintf.c defines them. */
#define FREC_SIGN	1	/* signed conversion (d, i) */
#define FREC_LEFT	2	/* '-': left-justify */
#define FREC_PLUS	4	/* '+': a sign even when positive */
#define FREC_SPACE	8	/* ' ': a space when positive */
#define FREC_ZEROPAD	16	/* '0': pad with zeros */
#define FREC_SMALL	32	/* lowercase hex digits */
#define FREC_SPECIAL	64	/* '#': 0x before hex, 0 before octal */

static const char frec_hex_digits[] = "0123456789abcdef";

/**
 * struct frec_out - where text goes
 * @buf: the buffer.
 * @size: its size, the NUL's byte included; 0 means write nothing.
 * @len: bytes written so far, at most @size - 1.
 * @cut: set when a byte did not fit, or may not have.
 */
struct frec_out {
	char *buf;
	size_t size;
	size_t len;
	bool cut;
};

/**
 * struct frec_spec - how to print one value (struct printf_spec's part)
 * @width: field width, -1 for none.
 * @precision: precision, -1 for none.
 * @flags: FREC_SIGN...FREC_SPECIAL.
 * @base: 8, 10 or 16.
 */
struct frec_spec {
	int width;
	int precision;
	unsigned int flags;
	unsigned int base;
};

/* Bytes that can still be written, the NUL's byte kept free. */
static inline size_t frec_out_room(const struct frec_out *o)
{
	return o->size ? o->size - 1 - o->len : 0;
}

static inline void frec_putc(struct frec_out *o, char c)
{
	if (frec_out_room(o))
		o->buf[o->len++] = c;
	else
		o->cut = true;
}

static inline void frec_write(struct frec_out *o, const char *s, size_t n)
{
	size_t room = frec_out_room(o);

	if (n > room) {
		n = room;
		o->cut = true;
	}
	if (!n)
		return;		/* o->buf may be NULL */
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void frec_puts(struct frec_out *o, const char *s)
{
	frec_write(o, s, strlen(s));
}

/* @n copies of @c; nothing if @n <= 0. */
static inline void frec_fill(struct frec_out *o, char c, long n)
{
	size_t room = frec_out_room(o);

	if (n <= 0)
		return;
	if ((unsigned long)n > room) {
		n = (long)room;
		o->cut = true;
	}
	if (!n)
		return;
	memset(o->buf + o->len, c, n);
	o->len += n;
}

void frec_number(struct frec_out *o, u64 num, struct frec_spec spec);
void frec_put_dec(struct frec_out *o, u64 num);
void frec_symbol(struct frec_out *o, u64 addr, char ext, struct frec_spec spec,
		 const struct frec_format_env *env);
void frec_format_to(struct frec_out *o, const char *fmt, const u64 *args,
		    unsigned int nr_args, const struct frec_format_env *env,
		    size_t *bad_offset);

#endif /* _FREC_FORMAT_OUT_H */
