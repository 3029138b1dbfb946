// SPDX-License-Identifier: GPL-2.0
/*
 * write_text.c - the dump's text: the header, then a line per record, as
 * frec_format_line() writes it for the module's debugfs dump.
 *
 * With --delta, each line starts with the time since the previous line,
 * "+<s>.<ns> " (or "-" if the clocks of two CPUs disagree), and the header
 * has a third line saying so.  Without it, the output is the module's dump
 * byte for byte, for the records printed.
 *
 * Lines are formatted straight into the decoder's block, written out a
 * block at a time: a stdio call per line cost as much as a tenth of
 * decoding a dump.
 */
#include <stdio.h>
#include <string.h>

#include "frec_decode.h"

/* "+<s>.<ns> ", a time difference, at @p; its length. */
static size_t text_delta(char *p, long long delta)
{
	unsigned long long v = delta < 0 ? 0ULL - (unsigned long long)delta :
					   (unsigned long long)delta;

	return (size_t)sprintf(p, "%c%llu.%09llu ", delta < 0 ? '-' : '+',
			       v / 1000000000ULL, v % 1000000000ULL);
}

static void text_flush(struct frec_decoder *d)
{
	fwrite_unlocked(d->block, 1, d->block_len, d->out);
	d->block_len = 0;
}

static void text_begin(struct frec_decoder *d)
{
	fprintf(d->out, FREC_FORMAT_HEADER_FMT, d->clock, d->order,
		d->contexts ? FREC_FORMAT_CONTEXT_COLUMN : "");
	if (d->opts.deltas)
		fputs("# +delta: time since the previous line\n", d->out);
}

static void text_record(struct frec_decoder *d, const struct frec_decoded *r)
{
	char *p;

	/* room for a delta of 20 digits and more, and a whole line */
	if (sizeof(d->block) - d->block_len < 32 + FREC_FORMAT_LINE_MAX)
		text_flush(d);
	p = d->block + d->block_len;
	if (d->opts.deltas)
		p += text_delta(p, r->delta);
	if (r->line_len) {
		memcpy(p, d->line, r->line_len);
		p += r->line_len;
	} else {
		p += frec_format_line(p, FREC_FORMAT_LINE_MAX, &r->rec, &d->env);
	}
	d->block_len = (size_t)(p - d->block);
}

static void text_end(struct frec_decoder *d)
{
	text_flush(d);
}

const struct frec_writer frec_write_text = {
	.begin = text_begin,
	.record = text_record,
	.end = text_end,
};
