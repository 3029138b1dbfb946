// SPDX-License-Identifier: GPL-2.0
/*
 * write_csv.c - a CSV row per record (RFC 4180).
 *
 *   seq,ts_ns,cpu,context,ring,caller,message    (--delta: delta_ns after ts_ns)
 *
 * (cpu, seq) names a record: seqs are per CPU, so seq alone is not unique.
 * The context is the dump line's column ("T1234", "softirq", "hardirq" or
 * "nmi"), empty for a dump from before contexts.
 *
 * The message is escaped as a dump line escapes it (one trailing newline
 * dropped, control bytes and DEL as \xNN), so that a record is one row;
 * caller and message are always quoted, with quotes doubled.
 */
#include <stdio.h>
#include <string.h>

#include "frec_caller_word.h"
#include "frec_decode.h"

static void csv_begin(struct frec_decoder *d)
{
	fputs(d->opts.deltas ? "seq,ts_ns,delta_ns,cpu,context,ring,caller,message\n" :
	      "seq,ts_ns,cpu,context,ring,caller,message\n", d->out);
}

/* @s (of @len bytes) as a quoted field, control bytes as \xNN. */
static void csv_field(FILE *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	fputc_unlocked('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f) {
			fputc_unlocked('\\', out);
			fputc_unlocked('x', out);
			fputc_unlocked(hex[c >> 4], out);
			fputc_unlocked(hex[c & 15], out);
			continue;
		}
		if (c == '"')
			fputc_unlocked('"', out);
		fputc_unlocked((char)c, out);
	}
	fputc_unlocked('"', out);
}

static void csv_record(struct frec_decoder *d, const struct frec_decoded *r)
{
	char context[FREC_CONTEXT_TEXT_MAX];
	size_t len = r->msg_len;

	fprintf(d->out, "%llu,%llu,", (unsigned long long)r->rec.seq,
		(unsigned long long)r->rec.ts);
	if (d->opts.deltas)
		fprintf(d->out, "%lld,", r->delta);
	fprintf(d->out, "%u,", r->rec.cpu);
	if (r->rec.context_known)
		fputs(frec_context_text(context, r->rec.context), d->out);
	fprintf(d->out, ",%s,", r->rec.ring);
	csv_field(d->out, r->caller, strlen(r->caller));
	fputc_unlocked(',', d->out);
	if (len && r->msg[len - 1] == '\n')
		len--;
	csv_field(d->out, r->msg, len);
	fputc_unlocked('\n', d->out);
}

static void csv_end(struct frec_decoder *d)
{
}

const struct frec_writer frec_write_csv = {
	.begin = csv_begin,
	.record = csv_record,
	.end = csv_end,
};
