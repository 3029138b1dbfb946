// SPDX-License-Identifier: GPL-2.0
/*
 * frec_format_line.c - a record's line of text around its message: the
 * sequence number, timestamp, CPU, ring and caller in front, the message
 * as frec_format.c prints it, control bytes escaped, and a mark when the
 * line had to be cut (frec_format.h specifies it all).
 *
 * Lines are built in place: the prefix, then the caller's symbol and the
 * message written raw into the rest of the buffer, each then escaped in
 * place from its end backwards (an escape only ever moves bytes right).
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>
#endif

#include "frec_caller_word.h"
#include "frec_format_out.h"

/* What ends a line that did not fit. */
#define FREC_CUT_MARK		"[...]\n"
#define FREC_CUT_MARK_LEN	(sizeof(FREC_CUT_MARK) - 1)

/* Control bytes and DEL, written as \xNN in a line. */
static bool frec_needs_escape(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/*
 * Escape the bytes written from @start on, in place, backwards: each
 * byte's escape ends at or after where the byte was, so no byte is
 * overwritten before it is read.  What no longer fits is dropped (an
 * escape may be cut in the middle) and the line marked cut.
 */
static void frec_escape(struct frec_out *o, size_t start)
{
	size_t limit = o->size - 1, end = o->len, out = start, i, j, d;
	unsigned char c, rest = 0;
	bool more;

	for (i = start; i < end; i++) {
		size_t w = frec_needs_escape(o->buf[i]) ? 4 : 1;

		if (out + w > limit)
			break;
		out += w;
	}
	if (i == end && out == end)
		return;		/* nothing to escape */
	more = i < end;
	if (more)
		rest = o->buf[i];
	for (j = i, d = out; j > start;) {
		c = o->buf[--j];
		if (frec_needs_escape(c)) {
			d -= 4;
			o->buf[d] = '\\';
			o->buf[d + 1] = 'x';
			o->buf[d + 2] = frec_hex_digits[c >> 4];
			o->buf[d + 3] = frec_hex_digits[c & 15];
		} else {
			o->buf[--d] = c;
		}
	}
	o->len = out;
	if (more) {
		char esc[4] = { '\\', 'x', frec_hex_digits[rest >> 4],
				frec_hex_digits[rest & 15] };

		o->cut = true;
		if (frec_needs_escape(rest))
			frec_write(o, esc, min_t(size_t, limit - out, 4));
	}
}

/* @s, escaped as a message is. */
static void frec_put_escaped(struct frec_out *o, const char *s)
{
	size_t start = o->len;

	frec_puts(o, s);
	frec_escape(o, start);
}

/**
 * frec_format_line() - a record's line, as the dump prints it
 * @buf: where the line goes, NUL-terminated.
 * @size: bytes at @buf; FREC_FORMAT_LINE_MAX for the dump's lines.
 * @rec: the record.
 * @env: how to read %s strings and name symbols (as for
 *	frec_format_message()).
 *
 * Writes "<seq> [<s>.<ns>] cpu<cpu> <context> <ring>: <caller> <message>\n" as
 * frec_format.h describes.  An event's message is frec_format_message()'s
 * (a bad format included, with its "[bad format at byte N]"); a text
 * record's is its text.  The ring's name and the caller's symbol are
 * escaped as the message is, should they hold control bytes.  A line
 * longer than @size - 1 bytes keeps its first @size - 7 bytes and ends in
 * "[...]\n"; a message or symbol that fills the rest of the buffer exactly
 * counts as longer.
 *
 * Context: Any context, NMI included, if @env's functions can run there.
 * Never sleeps, locks or allocates.
 * Return: the bytes written, not counting the NUL (0 if @size is 0).
 */
size_t frec_format_line(char *buf, size_t size,
			const struct frec_format_record *rec,
			const struct frec_format_env *env)
{
	struct frec_out o = { .buf = buf, .size = size };
	struct frec_spec spec = { .width = 5, .precision = -1, .base = 10 };
	struct frec_spec none = { .width = -1, .precision = -1 };
	char context[FREC_CONTEXT_TEXT_MAX];
	u64 secs = rec->ts;
	unsigned int ns = do_div(secs, 1000000000U);
	size_t start;

	if (!size)
		return 0;
	frec_put_dec(&o, rec->seq);
	frec_puts(&o, " [");
	frec_number(&o, secs, spec);
	frec_putc(&o, '.');
	spec.width = 9;
	spec.flags = FREC_ZEROPAD;
	frec_number(&o, ns, spec);
	frec_puts(&o, "] cpu");
	frec_put_dec(&o, rec->cpu);
	frec_putc(&o, ' ');
	if (rec->context_known) {
		frec_puts(&o, frec_context_text(context, rec->context));
		frec_putc(&o, ' ');
	}
	frec_put_escaped(&o, rec->ring ? rec->ring : "(null)");
	frec_puts(&o, ": ");
	start = o.len;
	frec_symbol(&o, rec->caller, 'S', none, env);
	frec_escape(&o, start);
	frec_putc(&o, ' ');

	start = o.len;
	if (rec->fmt)
		frec_format_to(&o, rec->fmt, rec->args, rec->nr_args, env, NULL);
	else if (rec->text)
		frec_write(&o, rec->text, rec->text_len);
	if (!o.cut && o.len > start && o.buf[o.len - 1] == '\n')
		o.len--;
	frec_escape(&o, start);
	frec_putc(&o, '\n');

	if (o.cut) {
		o.len = size - 1 > FREC_CUT_MARK_LEN ?
			min_t(size_t, o.len, size - 1 - FREC_CUT_MARK_LEN) : 0;
		o.cut = false;
		frec_puts(&o, FREC_CUT_MARK);
	}
	buf[o.len] = '\0';
	return o.len;
}
