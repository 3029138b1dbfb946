// SPDX-License-Identifier: GPL-2.0
/*
 * frec_format.c - a stored message, printed as vsnprintf() prints it.
 *
 * What is printed is specified in frec_format.h; this file is how.  It runs
 * wherever the module reads a ring, NMI and panic included, so it never
 * allocates, locks or uses floating point, keeps its stack small (no
 * buffer above 24 bytes; strings and symbols are written straight into the
 * caller's buffer), and its work is bounded by the format's length and the
 * buffer's size: a width of millions pads only as far as the buffer goes.
 * It compiles unchanged in userspace, for tools/frec-decode and the
 * harness tests.
 *
 * Integers: frec_number() is number() of the kernel's lib/vsprintf.c
 * (6.1), and frec_parse_conv() reads flags, width and precision as
 * format_decode() does, down to what struct printf_spec's bitfields do to
 * large values (a width keeps 24 bits, a precision 16; a '*' width or
 * precision out of range is clamped as set_field_width() and
 * set_precision() clamp it; a negative '*' precision is 0, not "none").
 * So frec prints what the kernel would print, where glibc differs:
 *
 *   format    value  kernel, frec  glibc
 *   "%#x"     0      "0x0"         "0"
 *   "%.0d"    0      "0"           ""
 *   "%.d"     0      "0"           ""       ('.' alone is no precision)
 *   "%05.3d"  7      "00007"       "  007"  ('0' kept with a precision)
 *   "%#.3o"   8      "0010"        "010"
 *   "%.*d"    -1, 5  "5"           "5"      (but "%.*s" -1 prints "")
 *   "%5%"     -      "%"           "    %"
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>
#endif

#include "frec_format.h"
#include "frec_format_out.h"
#include "frec_span.h"

/* struct printf_spec keeps the width in 24 bits, the precision in 16. */
#define FREC_WIDTH_BITS		24
#define FREC_PRECISION_BITS	16
#define FREC_WIDTH_MAX		((1 << 23) - 1)
#define FREC_PRECISION_MAX	((1 << 15) - 1)

/*
 * %s addresses never read, as check_pointer_msg() rejects them: the first
 * page, and the top MAX_ERRNO bytes (an ERR_PTR).  4096 whatever the
 * machine's page size, so that the decoder answers as the module does.
 */
#define FREC_BAD_PAGE		4096ULL
#define FREC_MAX_ERRNO		4095ULL

/* A conversion's '*' width and '*' precision, in struct frec_conv.stars. */
#define FREC_STAR_WIDTH		1
#define FREC_STAR_PRECISION	2

static const char frec_hex_upper[] = "0123456789ABCDEF";

/**
 * struct frec_conv - one conversion, as read from a format
 * @spec: flags, width and precision written in the format.
 * @end: the first format byte after it.
 * @ext: for 'p', the first byte after the 'p'.
 * @stars: FREC_STAR_WIDTH, FREC_STAR_PRECISION: which take an argument.
 * @qualifier: 0, 'H' (hh), 'h', 'l', 'L' (ll, L), 'z', 't', or frec's
 *	own (vsnprintf() stops at them): 'q' (as ll), 'j' (as ll), 'Z' (as z).
 * @type: the conversion character.
 */
struct frec_conv {
	struct frec_spec spec;
	const char *end;
	const char *ext;
	unsigned char stars;
	char qualifier;
	char type;
};

static bool frec_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The kernel's isalnum(): its ctype table counts Latin-1 letters
 * (0xc0-0xff but 0xd7 and 0xf7) as letters, and vsnprintf() skips them
 * after a %p as it skips ASCII ones.
 */
static bool frec_isalnum(char c)
{
	unsigned char u = c;

	return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') ||
	       (u >= 'A' && u <= 'Z') || (u >= 0xc0 && u != 0xd7 && u != 0xf7);
}

/*
 * number() of lib/vsprintf.c: sign, "0x" or "0" prefix, zero or space
 * padding, precision, left justification, with its quirks (a zero
 * precision still prints "0"; '0' is not dropped when there is a
 * precision; "%#o" adds its "0" before the precision's zeros).
 */
noinline_for_stack
void frec_number(struct frec_out *o, u64 num, struct frec_spec spec)
{
	char tmp[24];	/* 22 octal digits make 64 bits */
	char sign = 0, locase = (char)(spec.flags & FREC_SMALL);
	bool need_pfx = (spec.flags & FREC_SPECIAL) && spec.base != 10;
	bool is_zero = !num;
	int width = spec.width, precision = spec.precision, i = 0;

	if (spec.flags & FREC_LEFT)
		spec.flags &= ~FREC_ZEROPAD;
	if (spec.flags & FREC_SIGN) {
		if ((long long)num < 0) {
			sign = '-';
			num = 0 - num;
			width--;
		} else if (spec.flags & FREC_PLUS) {
			sign = '+';
			width--;
		} else if (spec.flags & FREC_SPACE) {
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
	/* The digits, least significant first. */
	if (spec.base == 10) {
		do
			tmp[i++] = (char)('0' + do_div(num, 10));
		while (num);
	} else {
		unsigned int shift = spec.base == 16 ? 4 : 3;

		do {
			tmp[i++] = frec_hex_upper[num & (spec.base - 1)] | locase;
			num >>= shift;
		} while (num);
	}
	if (i > precision)
		precision = i;
	width -= precision;
	if (!(spec.flags & (FREC_ZEROPAD | FREC_LEFT))) {
		frec_fill(o, ' ', width);
		width = 0;
	}
	if (sign)
		frec_putc(o, sign);
	if (need_pfx) {
		if (spec.base == 16 || !is_zero)
			frec_putc(o, '0');
		if (spec.base == 16)
			frec_putc(o, (char)('X' | locase));
	}
	if (!(spec.flags & FREC_LEFT)) {
		frec_fill(o, (spec.flags & FREC_ZEROPAD) ? '0' : ' ', width);
		width = 0;
	}
	frec_fill(o, '0', precision - i);
	while (--i >= 0)
		frec_putc(o, tmp[i]);
	frec_fill(o, ' ', width);
}

/* @num in decimal (%llu), or in hex with "0x" (%#llx). */
void frec_put_dec(struct frec_out *o, u64 num)
{
	struct frec_spec spec = { .width = -1, .precision = -1, .base = 10 };

	frec_number(o, num, spec);
}

static void frec_put_hex(struct frec_out *o, u64 num)
{
	struct frec_spec spec = {
		.width = -1, .precision = -1, .base = 16,
		.flags = FREC_SPECIAL | FREC_SMALL,
	};

	frec_number(o, num, spec);
}

/*
 * widen_string(): pad what was just written from @start (@n bytes meant,
 * fewer if the buffer ended) to the field width, on the left by moving
 * the text right (move_right()), or on the right.
 */
static void frec_widen(struct frec_out *o, size_t start, size_t n,
		       struct frec_spec spec)
{
	size_t spaces, room, move;

	if (spec.width < 0 || n >= (size_t)spec.width)
		return;
	spaces = (size_t)spec.width - n;
	if (spec.flags & FREC_LEFT) {
		frec_fill(o, ' ', (long)spaces);
		return;
	}
	if (!o->size)
		return;
	room = o->size - 1 - start;
	if (spaces >= room) {
		memset(o->buf + start, ' ', room);
		o->len = start + room;
		o->cut = true;
		return;
	}
	move = o->len - start;
	if (move > room - spaces) {
		move = room - spaces;
		o->cut = true;
	}
	memmove(o->buf + start + spaces, o->buf + start, move);
	memset(o->buf + start, ' ', spaces);
	o->len = start + spaces + move;
}

/* string_nocheck() on a string in memory: precision cuts, width pads. */
static void frec_text(struct frec_out *o, const char *s, size_t n,
		      struct frec_spec spec)
{
	size_t start = o->len;

	if (spec.precision >= 0 && n > (size_t)spec.precision)
		n = (size_t)spec.precision;
	frec_write(o, s, n);
	frec_widen(o, start, n, spec);
}

/* error_string(): at most 16 bytes unless a precision says otherwise. */
static void frec_error_string(struct frec_out *o, const char *s,
			      struct frec_spec spec)
{
	if (spec.precision == -1)
		spec.precision = 16;
	frec_text(o, s, strlen(s), spec);
}

/*
 * How many bytes a string or symbol lookup may write at o->len: up to the
 * precision, and up to the end of the buffer.
 */
static size_t frec_lookup_size(const struct frec_out *o,
			       struct frec_spec spec)
{
	size_t room = frec_out_room(o);

	if (spec.precision >= 0 && (size_t)spec.precision < room)
		return (size_t)spec.precision + 1;
	return room + 1;
}

/*
 * The length of the string at @addr, of which the first @len bytes are
 * known, as far as it matters: up to the precision, and up to the larger
 * of @len + 1 (was it cut?) and the width (how much padding?).  Read
 * FREC_PROBE_BYTES - 1 bytes at a time from where the buffer ended.
 */
#define FREC_PROBE_BYTES	32
static noinline_for_stack
size_t frec_string_len(u64 addr, size_t len, struct frec_spec spec,
		       const struct frec_format_env *env)
{
	size_t cap = spec.precision >= 0 ? (size_t)spec.precision : (size_t)-1;
	size_t target = len + 1, full = len;
	char probe[FREC_PROBE_BYTES];
	int n;

	if (spec.width > 0 && (size_t)spec.width > target)
		target = (size_t)spec.width;
	if (target > cap)
		target = cap;
	while (full < target) {
		n = env->string(env->ctx, probe, sizeof(probe), addr + full);
		if (n <= 0)
			break;
		full += min_t(size_t, n, sizeof(probe) - 1);
		if ((size_t)n < sizeof(probe) - 1)
			break;
	}
	return min_t(size_t, full, cap);
}

/*
 * %s: the string at @addr, read through env->string() straight into the
 * buffer.  When it fills the rest of the buffer, frec_string_len() says
 * whether it went on, and how far for the width.
 */
static void frec_string(struct frec_out *o, u64 addr, struct frec_spec spec,
			const struct frec_format_env *env)
{
	size_t start = o->len, size, len;
	int n;

	if (!addr) {
		frec_error_string(o, "(null)", spec);
		return;
	}
	if (addr < FREC_BAD_PAGE || addr >= 0 - FREC_MAX_ERRNO ||
	    !env || !env->string || !o->size) {
		frec_error_string(o, "(efault)", spec);
		return;
	}
	size = frec_lookup_size(o, spec);
	n = env->string(env->ctx, o->buf + o->len, size, addr);
	if (n < 0) {
		frec_error_string(o, "(efault)", spec);
		return;
	}
	len = min_t(size_t, n, size - 1);
	o->len += len;
	if (!frec_out_room(o)) {	/* it filled the buffer */
		size = frec_string_len(addr, len, spec, env);
		if (size > len)
			o->cut = true;
		len = size;
	}
	frec_widen(o, start, len, spec);
}

/*
 * An address that is not printed as a symbol: through env->pointer() if
 * there is one (the console: as printk's %p), else 0x and the hex, as
 * sprint_symbol() prints an address that resolves nowhere; then width
 * and precision as for a string.
 */
static void frec_address(struct frec_out *o, u64 addr, char ext, struct frec_spec spec,
			 const struct frec_format_env *env)
{
	char tmp[2 + 16 + 6];
	int i;

	if (env && env->pointer) {
		i = env->pointer(env->ctx, tmp, sizeof(tmp), addr, ext);
		frec_text(o, tmp, min_t(size_t, i, sizeof(tmp) - 1), spec);
		return;
	}
	i = sizeof(tmp);
	do {
		tmp[--i] = frec_hex_digits[addr & 15];
		addr >>= 4;
	} while (addr);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	frec_text(o, tmp + i, sizeof(tmp) - i, spec);
}

/*
 * %pS and friends: the symbol through env->symbol(), or, as
 * sprint_symbol() prints an address that resolves nowhere, 0x%lx; then,
 * as symbol_string() does, precision and width like a string's.
 */
noinline_for_stack
void frec_symbol(struct frec_out *o, u64 addr, char ext, struct frec_spec spec,
		 const struct frec_format_env *env)
{
	size_t start = o->len, size, len, written;
	int n;

	if (env && env->symbol && o->size) {
		size = frec_lookup_size(o, spec);
		n = env->symbol(env->ctx, o->buf + o->len, size, addr, ext);
		if (n >= 0) {
			len = (size_t)n;
			if (spec.precision >= 0 && len > (size_t)spec.precision)
				len = (size_t)spec.precision;
			written = min_t(size_t, len, size - 1);
			if (written < len)
				o->cut = true;
			o->len += written;
			frec_widen(o, start, len, spec);
			return;
		}
	}
	frec_address(o, addr, 'p', spec, env);
}

/*
 * "[%<conversion>:0x<value>]": a conversion frec will not render.  The
 * value may be an address: on the console it prints as one (%p).
 */
static void frec_unsupported(struct frec_out *o, const char *pct,
			     const struct frec_conv *cv, u64 value,
			     const struct frec_format_env *env)
{
	struct frec_spec none = { .width = -1, .precision = -1 };

	frec_putc(o, '[');
	frec_write(o, pct, cv->end - pct);
	frec_putc(o, ':');
	if (env && env->pointer)
		frec_address(o, value, 'p', none, env);
	else
		frec_put_hex(o, value);
	frec_putc(o, ']');
}

/* %p: symbols, the address, or the marker for other extensions. */
static void frec_pointer(struct frec_out *o, const char *pct,
			 const struct frec_conv *cv, u64 value,
			 struct frec_spec spec,
			 const struct frec_format_env *env)
{
	char ext = *cv->ext;

	if (ext == 'S' || ext == 's' || ext == 'B') {
		frec_symbol(o, value, ext, spec, env);
		return;
	}
	if (ext != 'x' && ext != 'K' && frec_isalnum(ext)) {
		frec_unsupported(o, pct, cv, value, env);
		return;
	}
	if (ext != 'x' && env && env->pointer) {
		frec_address(o, value, ext == 'K' ? 'K' : 'p', spec, env);
		return;
	}
	/* pointer_string(), with a "0x": 0x%016llx unless a width is given. */
	spec.base = 16;
	spec.flags |= FREC_SMALL | FREC_SPECIAL;
	if (spec.width == -1) {
		spec.width = 2 + 16;
		spec.flags |= FREC_ZEROPAD;
	}
	frec_number(o, value, spec);
}

/* @v read back as the type the conversion's length modifier names. */
static u64 frec_int_arg(u64 v, char qualifier, bool is_signed)
{
	switch (qualifier) {
	case 'H':
		return is_signed ? (u64)(long long)(signed char)v :
				   (u64)(unsigned char)v;
	case 'h':
		return is_signed ? (u64)(long long)(short)v :
				   (u64)(unsigned short)v;
	case 0:
		return is_signed ? (u64)(long long)(int)v :
				   (u64)(unsigned int)v;
	default:
		return v;
	}
}

/* @v kept in @bits bits as a signed bitfield keeps it. */
static int frec_bitfield(int v, unsigned int bits)
{
	unsigned int m = 1U << bits, u = (unsigned int)v & (m - 1);

	return u >= m / 2 ? (int)u - (int)m : (int)u;
}

/* skip_atoi(), wrapping around as the kernel's int arithmetic does. */
static int frec_atoi(const char **s)
{
	unsigned int i = 0;

	do
		i = i * 10 + (unsigned int)(*(*s)++ - '0');
	while (frec_isdigit(**s));
	return (int)i;
}

/*
 * %c pads with "while (--spec.field_width > 0)", counting down in the
 * 24-bit field itself, where -8388608 - 1 wraps to 8388607: how many
 * times that loop runs, leaving *@width as the loop leaves the field.
 */
static int frec_count_down(int *width)
{
	int n = frec_bitfield(*width - 1, FREC_WIDTH_BITS);

	if (n > 0) {
		*width = 0;
		return n;
	}
	*width = n;
	return 0;
}

/* set_field_width() then format_decode(): a '*' width's argument. */
static int frec_star_width(int w, unsigned int *flags)
{
	if (frec_bitfield(w, FREC_WIDTH_BITS) != w)
		w = w < 0 ? -FREC_WIDTH_MAX : FREC_WIDTH_MAX;
	if (w < 0) {
		*flags |= FREC_LEFT;
		w = frec_bitfield(-w, FREC_WIDTH_BITS);
	}
	return w;
}

/* set_precision() then format_decode(): a '*' precision's argument. */
static int frec_star_precision(int p)
{
	if (frec_bitfield(p, FREC_PRECISION_BITS) != p)
		p = p < 0 ? 0 : FREC_PRECISION_MAX;
	return p < 0 ? 0 : p;
}

/*
 * Read the conversion that starts at the '%' at @pct into @cv, as
 * format_decode() reads it, plus frec's extra length modifiers (q j Z)
 * and the conversions it recognises without rendering them (floating
 * point, %n).  Return: false if it is malformed.
 */
static noinline_for_stack
bool frec_parse_conv(const char *pct, struct frec_conv *cv)
{
	const char *f = pct + 1;
	struct frec_spec *spec = &cv->spec;

	spec->flags = 0;
	spec->base = 10;
	cv->stars = 0;
	cv->qualifier = 0;
	cv->ext = NULL;
	for (;; f++) {
		if (*f == '-')
			spec->flags |= FREC_LEFT;
		else if (*f == '+')
			spec->flags |= FREC_PLUS;
		else if (*f == ' ')
			spec->flags |= FREC_SPACE;
		else if (*f == '#')
			spec->flags |= FREC_SPECIAL;
		else if (*f == '0')
			spec->flags |= FREC_ZEROPAD;
		else
			break;
	}
	spec->width = -1;
	if (frec_isdigit(*f)) {
		spec->width = frec_bitfield(frec_atoi(&f), FREC_WIDTH_BITS);
	} else if (*f == '*') {
		cv->stars |= FREC_STAR_WIDTH;
		f++;
	}
	spec->precision = -1;
	if (*f == '.') {
		f++;
		if (frec_isdigit(*f)) {
			spec->precision = frec_bitfield(frec_atoi(&f),
							FREC_PRECISION_BITS);
			if (spec->precision < 0)
				spec->precision = 0;
		} else if (*f == '*') {
			cv->stars |= FREC_STAR_PRECISION;
			f++;
		}
	}
	if (*f && strchr("hlLqjzZt", *f)) {
		cv->qualifier = *f++;
		if (cv->qualifier == 'h' && *f == 'h') {
			cv->qualifier = 'H';
			f++;
		} else if (cv->qualifier == 'l' && *f == 'l') {
			cv->qualifier = 'L';
			f++;
		}
	}
	cv->type = *f;
	switch (*f) {
	case 'd':
	case 'i':
		spec->flags |= FREC_SIGN;
		break;
	case 'o':
		spec->base = 8;
		break;
	case 'x':
		spec->flags |= FREC_SMALL;
		spec->base = 16;
		break;
	case 'X':
		spec->base = 16;
		break;
	case 'p':
		cv->ext = ++f;
		while (frec_isalnum(*f))
			f++;
		cv->end = f;
		return true;
	case 'u': case 'c': case 's': case '%':
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
	case 'a': case 'A': case 'n':
		break;
	default:
		return false;
	}
	cv->end = f + 1;
	return true;
}

/* Print the conversion @cv (at @pct), taking its arguments from @args. */
static noinline_for_stack
void frec_convert(struct frec_out *o, const char *pct,
		  const struct frec_conv *cv, const u64 *args,
		  unsigned int nr_args, unsigned int *arg,
		  const struct frec_format_env *env)
{
	struct frec_spec spec = cv->spec;
	unsigned int need = !!(cv->stars & FREC_STAR_WIDTH) +
			    !!(cv->stars & FREC_STAR_PRECISION) +
			    (cv->type != '%');
	u64 v = 0;

	if (need > nr_args - *arg) {
		frec_putc(o, '[');
		frec_write(o, pct, cv->end - pct);
		frec_puts(o, ":noarg]");
		*arg = nr_args;
		return;
	}
	if (cv->stars & FREC_STAR_WIDTH)
		spec.width = frec_star_width((int)args[(*arg)++], &spec.flags);
	if (cv->stars & FREC_STAR_PRECISION)
		spec.precision = frec_star_precision((int)args[(*arg)++]);
	if (cv->type != '%')
		v = args[(*arg)++];

	switch (cv->type) {
	case '%':
		frec_putc(o, '%');
		break;
	case 'c':
		if (!(spec.flags & FREC_LEFT))
			frec_fill(o, ' ', frec_count_down(&spec.width));
		frec_putc(o, (char)(unsigned char)v);
		frec_fill(o, ' ', frec_count_down(&spec.width));
		break;
	case 's':
		frec_string(o, v, spec, env);
		break;
	case 'p':
		frec_pointer(o, pct, cv, v, spec, env);
		break;
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
		frec_number(o, frec_int_arg(v, cv->qualifier,
					    spec.flags & FREC_SIGN), spec);
		break;
	default:
		frec_unsupported(o, pct, cv, v, env);
	}
}

/*
 * What a span's end prints after its message (uapi/frec_raw.h, "Spans"):
 * the duration in ns, exact, and the begin's CPU and seq, as its line
 * names them.
 */
static void frec_span_end_suffix(struct frec_out *o, const u64 *args)
{
	u64 dur = args[FREC_SPAN_END_DUR], id = args[FREC_SPAN_END_ID];

	frec_puts(o, " dur=");
	frec_put_dec(o, frec_span_dur_ns(dur));
	frec_puts(o, "ns");
	if (dur & FREC_SPAN_DUR_SKEW) {
		frec_puts(o, " skew=-");
		frec_put_dec(o, dur & ~FREC_SPAN_DUR_SKEW);
		frec_puts(o, "ns");
	}
	frec_puts(o, " span=");
	frec_put_dec(o, frec_span_id_cpu(id));
	frec_putc(o, '/');
	frec_put_dec(o, frec_span_id_seq(id));
}

/* The message of @fmt and @args into @o; see frec_format_message(). */
void frec_format_to(struct frec_out *o, const char *fmt,
		    const u64 *args, unsigned int nr_args,
		    const struct frec_format_env *env,
		    size_t *bad_offset)
{
	enum frec_span_kind kind = frec_span_kind(fmt);
	const char *f = fmt, *pct;
	unsigned int arg = 0;
	struct frec_conv cv;

	if (bad_offset)
		*bad_offset = (size_t)-1;
	if (!fmt) {
		frec_puts(o, "(null)");
		return;
	}
	if (kind != FREC_SPAN_NONE)
		f++;	/* the mark: a span's end, its message is the rest */
	if (kind == FREC_SPAN_END && nr_args > FREC_SPAN_END_ARGS) {
		frec_format_to(o, f, args, FREC_SPAN_END_ARGS, env, bad_offset);
		if (bad_offset && *bad_offset != (size_t)-1)
			++*bad_offset;
		if (nr_args == FREC_EVENT_MAX_ARGS)
			frec_span_end_suffix(o, args);
		return;
	}
	while (*f) {
		pct = strchr(f, '%');
		if (!pct) {
			frec_puts(o, f);
			return;
		}
		frec_write(o, f, pct - f);
		if (!frec_parse_conv(pct, &cv)) {
			if (bad_offset)
				*bad_offset = pct - fmt;
			frec_puts(o, "[bad format at byte ");
			frec_put_dec(o, pct - fmt);
			frec_putc(o, ']');
			return;
		}
		frec_convert(o, pct, &cv, args, nr_args, &arg, env);
		f = cv.end;
	}
}

/**
 * frec_format_message() - format a stored event's message
 * @buf: where the message goes, NUL-terminated.
 * @size: bytes at @buf, at most INT_MAX; 0 writes nothing.
 * @fmt: the format.
 * @args: its stored arguments, each the caller's value as unsigned long.
 * @nr_args: how many there are.
 * @env: how to read %s strings and name %pS symbols; NULL prints every
 *	%s as "(efault)" and every symbol as its address.
 * @bad_offset: if not NULL, set to the offset in @fmt of the '%' that
 *	starts a malformed conversion, or to (size_t)-1 if there is none.
 *
 * Prints as described in frec_format.h.  A message longer than @size - 1
 * bytes is cut there.  The message may hold NUL bytes (a %c of 0).
 *
 * Context: Any context, NMI included, if @env's functions can run there.
 * Never sleeps, locks or allocates.
 * Return: the bytes written, not counting the NUL.
 */
int frec_format_message(char *buf, size_t size, const char *fmt,
			const u64 *args, unsigned int nr_args,
			const struct frec_format_env *env, size_t *bad_offset)
{
	struct frec_out o = { .buf = buf, .size = size };

	frec_format_to(&o, fmt, args, nr_args, env, bad_offset);
	if (size)
		buf[o.len] = '\0';
	return (int)o.len;
}

/**
 * frec_format_arg_types() - what each argument of a format is
 * @fmt: the format.
 * @types: one byte per argument goes here, for the first @max: the
 *	conversion character ('d', 'u', 'x', 'c', 's', 'p', 'f', ...), or '*'
 *	for an argument that is a width or a precision.
 * @max: bytes at @types.
 *
 * Reads @fmt as frec_format_message() reads it (so as vsnprintf() does),
 * for callers that must know which stored arguments are %s strings.
 *
 * Context: Any context.
 * Return: how many arguments @fmt takes (which may be more than @max), or
 * -1 if it is malformed (@types then holds those before the bad
 * conversion).
 */
int frec_format_arg_types(const char *fmt, char *types, unsigned int max)
{
	const char *pct;
	struct frec_conv cv;
	unsigned int n = 0;

	while ((pct = strchr(fmt, '%'))) {
		if (!frec_parse_conv(pct, &cv))
			return -1;
		if ((cv.stars & FREC_STAR_WIDTH) && n++ < max)
			types[n - 1] = '*';
		if ((cv.stars & FREC_STAR_PRECISION) && n++ < max)
			types[n - 1] = '*';
		if (cv.type != '%' && n++ < max)
			types[n - 1] = cv.type;
		fmt = cv.end;
	}
	return (int)n;
}

/*
 * q, j and Z: frec prints them (as ll, ll and z), but format_decode(), in
 * 6.1 as in 6.12, takes their letter for an unknown conversion: it warns,
 * and vsnprintf() prints nothing from there on.
 */
static bool frec_vsnprintf_refuses(char qualifier)
{
	return qualifier == 'q' || qualifier == 'j' || qualifier == 'Z';
}

/* How frec_format_arg_kinds() takes a conversion's value. */
static int frec_arg_kind(const struct frec_conv *cv)
{
	switch (cv->type) {
	case 'c':
		return FREC_ARG_INT;
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
		if (cv->qualifier == 'l' || cv->qualifier == 'z' || cv->qualifier == 't')
			return FREC_ARG_LONG;
		if (cv->qualifier == 'L')
			return FREC_ARG_LLONG;
		return FREC_ARG_INT;
	case 's':
		return FREC_ARG_STRING;
	default:
		/*
		 * %p: vsnprintf() hashes %p and %pK and prints %px without a
		 * "0x", other extensions read memory, and a symbol's module may
		 * be gone when the record is read.
		 */
		return -1;	/* floating point, %n */
	}
}

/**
 * frec_format_arg_kinds() - how to store a format's arguments
 * @fmt: the format.
 * @kinds: one enum frec_arg_kind per argument goes here.
 * @max: bytes at @kinds.
 *
 * For a caller that stores a call's arguments to format them later with
 * frec_format_message(), which then prints what vsnprintf() prints now: a
 * format qualifies if every conversion is an integer (d i u o x X c, with
 * no length or hh h l ll L z t), %s (whose string the caller copies) or
 * %%.  No %p does (%p and %pK are hashed, %px printed without "0x", %pS
 * names a module that may be gone by then, other extensions read memory),
 * nor floating point or %n, nor a length q, j or Z (vsnprintf() stops at
 * them).
 *
 * Context: Any context.
 * Return: how many arguments @fmt takes, or -1 if it does not qualify, is
 * malformed, or takes more than @max.
 */
int frec_format_arg_kinds(const char *fmt, unsigned char *kinds, unsigned int max)
{
	const char *pct;
	struct frec_conv cv;
	unsigned int n = 0;
	int kind;

	while ((pct = strchr(fmt, '%'))) {
		if (!frec_parse_conv(pct, &cv) || frec_vsnprintf_refuses(cv.qualifier))
			return -1;
		fmt = cv.end;
		if (cv.type == '%')
			continue;
		kind = frec_arg_kind(&cv);
		if (kind < 0 ||
		    n + !!(cv.stars & FREC_STAR_WIDTH) + !!(cv.stars & FREC_STAR_PRECISION) >= max)
			return -1;
		if (cv.stars & FREC_STAR_WIDTH)
			kinds[n++] = FREC_ARG_INT;
		if (cv.stars & FREC_STAR_PRECISION)
			kinds[n++] = FREC_ARG_INT;
		kinds[n++] = kind;
	}
	return (int)n;
}

/**
 * frec_printk_args_unpack() - a record of arguments, ready to format
 * @args: FREC_PRINTK_ARGS_MAX words go here; a %s one points into
 *	@payload, which must stay while they are used.
 * @fmt: the record's format (its site's).
 * @payload: the payload, as read out of the ring.
 * @len: its length.
 *
 * A %s word that does not point at a NUL-terminated copy in @payload
 * (a corrupt record) becomes one that prints "(efault)".
 *
 * The kernel formats a record read out of a ring with it, frec-decode one
 * read out of a black box region.
 *
 * Context: Any context, NMI included.
 * Return: the number of arguments, or -1 if @fmt does not fit @payload.
 */
int frec_printk_args_unpack(u64 *args, const char *fmt, const void *payload,
			    unsigned int len)
{
	unsigned char kinds[FREC_PRINTK_ARGS_MAX];
	unsigned int off;
	int n, i;

	n = frec_format_arg_kinds(fmt, kinds, FREC_PRINTK_ARGS_MAX);
	if (n < 0 || n * sizeof(u64) > len)
		return -1;
	memcpy(args, payload, n * sizeof(u64));
	for (i = 0; i < n; i++) {
		if (kinds[i] != FREC_ARG_STRING ||
		    (args[i] & ~0xffffffffULL) != FREC_RECORD_ARG_STRING)
			continue;
		off = (u32)args[i];
		if (off < n * sizeof(u64) || off >= len ||
		    !memchr((const char *)payload + off, '\0', len - off))
			args[i] = 1;
		else
			args[i] = (u64)(unsigned long)((const char *)payload + off);
	}
	return n;
}

/**
 * frec_format_pointer_args() - which arguments a format reads memory at
 * @fmt: the format.
 * @pa: filled with the arguments printed with %s (@pa->strings) and as
 *	symbols (@pa->symbols: %pS, %ps, %pB and their extensions, whose
 *	first letter goes to @pa->ext), among the first FREC_FORMAT_PTR_ARGS.
 *
 * Reads @fmt as frec_format_message() reads it, and stops where it stops
 * (at a malformed conversion): these are the arguments whose memory a
 * record needs after the code that recorded it is gone.
 *
 * Context: Any context.
 * Return: how many arguments @fmt reads before its end or a malformed
 * conversion.
 */
unsigned int frec_format_pointer_args(const char *fmt, struct frec_format_ptr_args *pa)
{
	const char *pct;
	struct frec_conv cv;
	unsigned int n = 0;
	char ext;

	memset(pa, 0, sizeof(*pa));
	while ((pct = strchr(fmt, '%')) && frec_parse_conv(pct, &cv)) {
		n += !!(cv.stars & FREC_STAR_WIDTH) + !!(cv.stars & FREC_STAR_PRECISION);
		if (cv.type != '%') {
			ext = cv.type == 'p' ? *cv.ext : 0;
			if (n < FREC_FORMAT_PTR_ARGS && cv.type == 's')
				pa->strings |= 1U << n;
			if (n < FREC_FORMAT_PTR_ARGS && (ext == 'S' || ext == 's' || ext == 'B')) {
				pa->symbols |= 1U << n;
				pa->ext[n] = ext;
			}
			n++;
		}
		fmt = cv.end;
	}
	return n;
}

