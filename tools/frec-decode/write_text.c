// SPDX-License-Identifier: GPL-2.0
/*
 * write_text.c - the dump's text: the header, then a line per record, as
 * frec_format_line() writes it for the module's debugfs dump.
 *
 * With --delta, each line starts with the time since the previous line,
 * "+<s>.<ns> " (or "-" if the clocks of two CPUs disagree), and the header
 * has a third line saying so.  Without it, the output is the module's dump
 * byte for byte, for the records printed.
 */
#include <stdio.h>

#include "frec_decode.h"

/**
 * frec_write_delta() - write a time difference as "+<s>.<ns>"
 * @d: the decoder (its output).
 * @delta: the difference, ns.
 *
 * Context: userspace.
 */
void frec_write_delta(struct frec_decoder *d, long long delta)
{
	unsigned long long v = delta < 0 ? 0ULL - (unsigned long long)delta :
					   (unsigned long long)delta;

	fprintf(d->out, "%c%llu.%09llu", delta < 0 ? '-' : '+',
		v / 1000000000ULL, v % 1000000000ULL);
}

static void text_begin(struct frec_decoder *d)
{
	fprintf(d->out, FREC_FORMAT_HEADER_FMT, d->clock, d->order);
	if (d->opts.deltas)
		fputs("# +delta: time since the previous line\n", d->out);
}

static void text_record(struct frec_decoder *d, const struct frec_decoded *r)
{
	size_t n = r->line_len ? r->line_len :
		   frec_format_line(d->line, sizeof(d->line), &r->rec, &d->env);

	if (d->opts.deltas) {
		frec_write_delta(d, r->delta);
		fputc_unlocked(' ', d->out);
	}
	fwrite_unlocked(d->line, 1, n, d->out);
}

static void text_end(struct frec_decoder *d)
{
}

const struct frec_writer frec_write_text = {
	.begin = text_begin,
	.record = text_record,
	.end = text_end,
};
