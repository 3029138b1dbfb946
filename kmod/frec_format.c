// SPDX-License-Identifier: GPL-2.0
/*
 * frec_format.c - a stored record's line of text; see frec_format.h for
 * the line and for how each conversion is printed.
 *
 * Compiled unchanged into the module and into the userspace harness
 * (tools/harness/test_format.c), and meant for tools/frec-decode.  It
 * allocates nothing and takes no lock, and uses about 1.7 KiB of stack
 * (a line's worth of message, plus symbol and string buffers).  Integers are rendered
 * here, as lib/vsprintf.c's number() renders them, rather than by the C
 * library, whose output differs ("%#x" of 0, a precision on 0, "0" with a
 * precision); so the module and the decoder print the same bytes.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#define scnprintf frec_format_scnprintf
#define fallthrough __attribute__((__fallthrough__))
typedef __s64 s64;
#endif

#include "frec_format.h"

#ifndef __KERNEL__
#include <stdarg.h>

/* The kernel's scnprintf(): the length written, not the length wanted. */
static int frec_format_scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}
#endif

/* Output that never overflows: bytes past @size - 1 are dropped. */
struct frec_format_out {
	char *buf;
	size_t size;
	size_t len;
};

static void frec_format_putc(struct frec_format_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len++] = c;
}

static void frec_format_puts(struct frec_format_out *o, const char *s, size_t n)
{
	while (n--)
		frec_format_putc(o, *s++);
}

/* Flags of a conversion, as lib/vsprintf.c names them. */
#define FREC_FMT_ZEROPAD	1
#define FREC_FMT_SIGN		2
#define FREC_FMT_PLUS		4
#define FREC_FMT_SPACE		8
#define FREC_FMT_LEFT		16
#define FREC_FMT_SMALL		32
#define FREC_FMT_SPECIAL	64

struct frec_format_spec {
	unsigned int flags;
	int width;		/* -1: none */
	int precision;		/* -1: none */
	unsigned int base;
};

static bool frec_format_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static bool frec_format_isalnum(char c)
{
	return frec_format_isdigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* lib/vsprintf.c number(), on an output that drops what does not fit. */
static void frec_format_number(struct frec_format_out *o, u64 num,
			       struct frec_format_spec spec)
{
	static const char digits[] = "0123456789ABCDEF";
	char tmp[24], sign = 0, locase = (spec.flags & FREC_FMT_SMALL) ? 0x20 : 0;
	bool need_pfx = (spec.flags & FREC_FMT_SPECIAL) && spec.base != 10;
	bool is_zero = num == 0;
	int width = spec.width, precision = spec.precision, i = 0;

	if (spec.flags & FREC_FMT_LEFT)
		spec.flags &= ~FREC_FMT_ZEROPAD;
	if (spec.flags & FREC_FMT_SIGN) {
		if ((long long)num < 0) {
			sign = '-';
			num = -(long long)num;
			width--;
		} else if (spec.flags & FREC_FMT_PLUS) {
			sign = '+';
			width--;
		} else if (spec.flags & FREC_FMT_SPACE) {
			sign = ' ';
			width--;
		}
	}
	if (need_pfx) {
		if (spec.base == 16)
			width -= 2;
		else if (!is_zero)
			width--;
	}
	do {
		tmp[i++] = digits[num % spec.base] | locase;
		num /= spec.base;
	} while (num);
	if (i > precision)
		precision = i;
	width -= precision;
	if (!(spec.flags & (FREC_FMT_ZEROPAD | FREC_FMT_LEFT)))
		while (--width >= 0)
			frec_format_putc(o, ' ');
	if (sign)
		frec_format_putc(o, sign);
	if (need_pfx) {
		if (spec.base == 16 || !is_zero)
			frec_format_putc(o, '0');
		if (spec.base == 16)
			frec_format_putc(o, 'X' | locase);
	}
	if (!(spec.flags & FREC_FMT_LEFT))
		while (--width >= 0)
			frec_format_putc(o, (spec.flags & FREC_FMT_ZEROPAD) ? '0' : ' ');
	while (i <= --precision)
		frec_format_putc(o, '0');
	while (--i >= 0)
		frec_format_putc(o, tmp[i]);
	while (--width >= 0)
		frec_format_putc(o, ' ');
}

/* @s (@n bytes) padded to the width, as lib/vsprintf.c widen_string(). */
static void frec_format_padded(struct frec_format_out *o, const char *s, size_t n,
			       const struct frec_format_spec *spec)
{
	int pad = spec->width > (int)n ? spec->width - (int)n : 0;

	if (!(spec->flags & FREC_FMT_LEFT))
		while (pad-- > 0)
			frec_format_putc(o, ' ');
	frec_format_puts(o, s, n);
	while (pad-- > 0)
		frec_format_putc(o, ' ');
}

/* "[%<conversion>:0x<arg>]" or "[%<conversion>:noarg]". */
static void frec_format_marker(struct frec_format_out *o, const char *conv, size_t n,
			       const u64 *arg)
{
	char hex[24];

	frec_format_putc(o, '[');
	frec_format_puts(o, conv, n);
	if (arg)
		frec_format_puts(o, hex, scnprintf(hex, sizeof(hex), ":0x%llx",
						   (unsigned long long)*arg));
	else
		frec_format_puts(o, ":noarg", 6);
	frec_format_putc(o, ']');
}

/* %s: the string at @addr, through the env. */
static void frec_format_string(struct frec_format_out *o, u64 addr,
			       const struct frec_format_spec *spec,
			       const struct frec_format_env *env)
{
	char s[256];
	int n;

	if (!addr) {
		strcpy(s, "(null)");
		n = 6;
	} else {
		n = env->string(env->ctx, s, sizeof(s), addr);
		if (n < 0) {
			strcpy(s, "(efault)");
			n = 8;
		}
	}
	if (spec->precision >= 0 && n > spec->precision)
		n = spec->precision;
	frec_format_padded(o, s, n, spec);
}

/* %p and its extensions; @ext is what follows the 'p' (@ext_len bytes). */
static void frec_format_pointer(struct frec_format_out *o, u64 addr, const char *ext,
				size_t ext_len, const char *conv, size_t conv_len,
				const struct frec_format_env *env)
{
	struct frec_format_spec hex = { FREC_FMT_SMALL | FREC_FMT_ZEROPAD, 16, -1, 16 };
	char sym[256];
	int n;

	if (!ext_len || ((ext[0] == 'x' || ext[0] == 'K') && ext_len == 1)) {
		frec_format_number(o, addr, hex);
		return;
	}
	if (ext[0] == 'S' || ext[0] == 's' || ext[0] == 'B') {
		n = env->symbol(env->ctx, sym, sizeof(sym), addr, ext[0]);
		if (n >= 0)
			frec_format_puts(o, sym, n);
		else
			frec_format_puts(o, sym, scnprintf(sym, sizeof(sym), "0x%llx",
							   (unsigned long long)addr));
		return;
	}
	frec_format_marker(o, conv, conv_len, &addr);
}

/* Cast a stored word back to what the length modifier @len says. */
static u64 frec_format_cast(u64 v, char len, bool is_signed)
{
	switch (len) {
	case 'H':	/* hh */
		return is_signed ? (u64)(s64)(signed char)v : (unsigned char)v;
	case 'h':
		return is_signed ? (u64)(s64)(short)v : (unsigned short)v;
	case 0:
		return is_signed ? (u64)(s64)(int)v : (unsigned int)v;
	default:	/* l, ll, L, q, j, z, Z, t: as wide as the stored word */
		return v;
	}
}

/* Take the next argument, or NULL if there is none left. */
static const u64 *frec_format_next_arg(const u64 *args, unsigned int nr_args,
				       unsigned int *next)
{
	return *next < nr_args ? &args[(*next)++] : NULL;
}

/* A width or precision: digits or '*'. */
static const char *frec_format_count(const char *f, int *count, const u64 *args,
				     unsigned int nr_args, unsigned int *next)
{
	const u64 *arg;

	if (*f == '*') {
		arg = frec_format_next_arg(args, nr_args, next);
		*count = arg ? (int)*arg : 0;
		return f + 1;
	}
	if (!frec_format_isdigit(*f))
		return f;
	*count = 0;
	while (frec_format_isdigit(*f)) {
		if (*count < 100000)
			*count = *count * 10 + (*f - '0');
		f++;
	}
	return f;
}

/**
 * frec_format_message() - format an event's message from its stored words
 * @buf: where to write it.
 * @size: its size; the message is cut to @size - 1 bytes and a NUL.
 * @fmt: the format.
 * @args: the stored arguments.
 * @nr_args: how many there are.
 * @env: how %s and %pS find what they point to.
 * @bad_offset: if not NULL, set to the byte offset of a malformed
 *	conversion in @fmt, or (size_t)-1 if there is none.
 *
 * See frec_format.h for how each conversion is printed.
 *
 * Context: Any context (as @env's lookups allow).
 * Return: the number of bytes written, not counting the NUL.
 */
int frec_format_message(char *buf, size_t size, const char *fmt,
			const u64 *args, unsigned int nr_args,
			const struct frec_format_env *env, size_t *bad_offset)
{
	struct frec_format_out o = { buf, size, 0 };
	struct frec_format_spec spec;
	const char *f = fmt, *start, *ext;
	unsigned int next = 0;
	const u64 *arg;
	char len, c, bad[40];
	u64 v;

	if (bad_offset)
		*bad_offset = (size_t)-1;
	while (*f) {
		if (*f != '%') {
			frec_format_putc(&o, *f++);
			continue;
		}
		start = f++;
		if (*f == '%') {
			frec_format_putc(&o, '%');
			f++;
			continue;
		}
		spec = (struct frec_format_spec){ 0, -1, -1, 10 };
		for (;; f++) {
			if (*f == '-')
				spec.flags |= FREC_FMT_LEFT;
			else if (*f == '+')
				spec.flags |= FREC_FMT_PLUS;
			else if (*f == ' ')
				spec.flags |= FREC_FMT_SPACE;
			else if (*f == '#')
				spec.flags |= FREC_FMT_SPECIAL;
			else if (*f == '0')
				spec.flags |= FREC_FMT_ZEROPAD;
			else
				break;
		}
		f = frec_format_count(f, &spec.width, args, nr_args, &next);
		if (f[-1] == '*' && spec.width < 0) {
			/* As vsnprintf(): a negative '*' width left-justifies. */
			spec.flags |= FREC_FMT_LEFT;
			spec.width = -spec.width;
		}
		if (*f == '.') {
			spec.precision = 0;
			f = frec_format_count(f + 1, &spec.precision, args, nr_args, &next);
			if (spec.precision < 0)
				spec.precision = -1;
		}
		len = 0;
		if (*f == 'h' || *f == 'l' || *f == 'L' || *f == 'q' || *f == 'j' ||
		    *f == 'z' || *f == 'Z' || *f == 't') {
			len = *f++;
			if (len == 'h' && *f == 'h') {
				len = 'H';
				f++;
			} else if (len == 'l' && *f == 'l') {
				f++;
			}
		}
		c = *f;
		if (!c || !strchr("diuoxXcspeEfFgGaAn", c)) {
			if (bad_offset)
				*bad_offset = start - fmt;
			frec_format_puts(&o, bad, scnprintf(bad, sizeof(bad),
							    "[bad format at byte %zu]",
							    (size_t)(start - fmt)));
			break;
		}
		f++;
		ext = f;
		if (c == 'p')
			while (frec_format_isalnum(*f))
				f++;
		arg = frec_format_next_arg(args, nr_args, &next);
		if (!arg) {
			frec_format_marker(&o, start, f - start, NULL);
			continue;
		}
		v = *arg;
		switch (c) {
		case 'd':
		case 'i':
			spec.flags |= FREC_FMT_SIGN;
			frec_format_number(&o, frec_format_cast(v, len, true), spec);
			break;
		case 'u':
			frec_format_number(&o, frec_format_cast(v, len, false), spec);
			break;
		case 'o':
			spec.base = 8;
			frec_format_number(&o, frec_format_cast(v, len, false), spec);
			break;
		case 'x':
			spec.flags |= FREC_FMT_SMALL;
			fallthrough;
		case 'X':
			spec.base = 16;
			frec_format_number(&o, frec_format_cast(v, len, false), spec);
			break;
		case 'c': {
			char ch = (char)v;

			frec_format_padded(&o, &ch, 1, &spec);
			break;
		}
		case 's':
			frec_format_string(&o, v, &spec, env);
			break;
		case 'p':
			frec_format_pointer(&o, v, ext, f - ext, start, f - start, env);
			break;
		default:	/* floating point, %n */
			frec_format_marker(&o, start, f - start, &v);
			break;
		}
	}
	o.buf[o.len] = '\0';
	return o.len;
}

/* Escape @n bytes of message into @o: one line, control bytes as \xNN. */
static void frec_format_escape(struct frec_format_out *o, const char *msg, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c;
	size_t i;

	for (i = 0; i < n; i++) {
		c = msg[i];
		if (c < 0x20 || c == 0x7f) {
			frec_format_putc(o, '\\');
			frec_format_putc(o, 'x');
			frec_format_putc(o, hex[c >> 4]);
			frec_format_putc(o, hex[c & 15]);
		} else {
			frec_format_putc(o, c);
		}
	}
}

/**
 * frec_format_line() - a record's whole line of text
 * @buf: where to write it.
 * @size: its size, at most FREC_FORMAT_LINE_MAX; a longer line is cut and
 *	ends in "[...]\n".
 * @rec: the record.
 * @env: how the caller, %s and %pS are looked up.
 *
 * The line is laid out as frec_format.h shows; a bad format's marker is
 * part of the message.
 *
 * Context: Any context (as @env's lookups allow).
 * Return: the line's length, newline included, NUL not counted.
 */
size_t frec_format_line(char *buf, size_t size, const struct frec_format_record *rec,
			const struct frec_format_env *env)
{
	/* The message before escaping; a line can hold no more of it. */
	char msg[FREC_FORMAT_LINE_MAX];
	struct frec_format_out o = { buf, size - 6, 0 };
	unsigned long long ns = rec->ts % 1000000000ULL;
	const char *text = msg;
	char head[96];
	size_t n;
	int len;

	frec_format_puts(&o, head, scnprintf(head, sizeof(head), "%llu [%5llu.%09llu] cpu%u ",
					     (unsigned long long)rec->seq,
					     (unsigned long long)(rec->ts / 1000000000ULL),
					     ns, rec->cpu));
	frec_format_puts(&o, rec->ring, strlen(rec->ring));
	frec_format_puts(&o, ": ", 2);
	len = env->symbol(env->ctx, msg, sizeof(msg), rec->caller, 'S');
	if (len < 0)
		len = scnprintf(msg, sizeof(msg), "0x%llx", (unsigned long long)rec->caller);
	frec_format_puts(&o, msg, len);
	frec_format_putc(&o, ' ');
	if (rec->fmt) {
		n = frec_format_message(msg, sizeof(msg), rec->fmt, rec->args, rec->nr_args,
					env, NULL);
	} else {
		text = rec->text;
		n = rec->text_len;
	}
	if (n && text[n - 1] == '\n')
		n--;
	frec_format_escape(&o, text, n);
	/* o stopped 6 bytes short of @size: room for "[...]\n" and the NUL. */
	if (o.len + 1 == o.size) {
		o.size = size;
		frec_format_puts(&o, "[...]", 5);
	} else {
		o.size = size;
	}
	frec_format_putc(&o, '\n');
	o.buf[o.len] = '\0';
	return o.len;
}
