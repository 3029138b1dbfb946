// SPDX-License-Identifier: GPL-2.0
/*
 * write_json.c - Chrome trace-event JSON, as ui.perfetto.dev and
 * chrome://tracing open it.
 *
 *   {"traceEvents":[
 *   {"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"frec"}},
 *   {"name":"thread_name","ph":"M","pid":1,"tid":3,"args":{"name":"cpu3"}},
 *   {"name":"<message>","cat":"<ring>","ph":"i","s":"t","ts":12027638.123,
 *    "pid":1,"tid":3,"args":{"seq":253,"cpu":3,...}},
 *   ...],"otherData":{"source":"frec","clock":"local","order":"time"}}
 *
 * Every record's args carry "seq" and "cpu": seqs are per CPU, and the
 * pair names the record (with --json-track=ring the track no longer says
 * the CPU).  One process, "frec"; one track (a "thread") per CPU, or per ring with
 * --json-track=ring, named by a metadata event before its first record.
 * ts is in microseconds with three decimals: the record's ns, exactly.
 * There is no "displayTimeUnit", which only changes how a viewer shows
 * time and which Perfetto's JSON tokenizer has handled differently by
 * version (ignored and counted in its stats, or refused unless "ms" or
 * "ns"); and "traceEvents" comes first because older versions stop at
 * the first top-level key they do not know.
 * A record whose format (an event's) or text starts with '>' begins a
 * slice ("B", named by the message without the '>'), one starting with
 * '<' ends the innermost open slice of its track ("E"); an end with no
 * open slice (its begin was overwritten in the ring) is written as an
 * instant with "unmatched_end" in its args.  Slices still open at the end
 * are left open.  Strings are JSON-escaped; bytes that are not UTF-8 are
 * written as \u00XX, their Latin-1 reading, so the output is always valid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"

/* Bytes a UTF-8 sequence starting at @s (of @len bytes) takes, 0 if bad. */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

static void json_string(FILE *out, const char *str, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i, n;

	fputc_unlocked('"', out);
	for (i = 0; i < len; i += n) {
		unsigned char c = s[i];

		for (n = 0; i + n < len && s[i + n] >= 0x20 && s[i + n] < 0x7f &&
		     s[i + n] != '"' && s[i + n] != '\\'; n++)
			;
		if (n) {		/* a run of plain ASCII */
			fwrite_unlocked(s + i, 1, n, out);
			continue;
		}
		n = utf8_len(s + i, len - i);
		if (n > 1) {
			fwrite_unlocked(s + i, 1, n, out);
			continue;
		}
		n = 1;
		if (c == '"' || c == '\\') {
			fputc_unlocked('\\', out);
			fputc_unlocked((char)c, out);
		} else if (c == '\n') {
			fputs_unlocked("\\n", out);
		} else if (c == '\t') {
			fputs_unlocked("\\t", out);
		} else if (c < 0x20 || c >= 0x7f) {
			fputs_unlocked("\\u00", out);
			fputc_unlocked(hex[c >> 4], out);
			fputc_unlocked(hex[c & 15], out);
		} else {
			fputc_unlocked((char)c, out);
		}
	}
	fputc_unlocked('"', out);
}

static void json_cstring(FILE *out, const char *s)
{
	json_string(out, s, strlen(s));
}

/* Start an event: a comma and newline between events. */
static void json_event(struct frec_decoder *d)
{
	fputs_unlocked(d->events++ ? ",\n" : "\n", d->out);
}

static void json_begin(struct frec_decoder *d)
{
	fputs("{\"traceEvents\":[", d->out);
	json_event(d);
	fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
	      "\"args\":{\"name\":\"frec\"}}", d->out);
}

/*
 * The open-slice count of @track, plus one, growing the table as needed
 * (tracks are CPUs or rings, each fewer than 65536); NULL if out of
 * memory.  A track seen for the first time gets its name.
 */
static unsigned int *json_track(struct frec_decoder *d, unsigned int track,
				const struct frec_decoded *r)
{
	unsigned int *depth;
	size_t cap;

	if (track >= d->depth_cap) {
		cap = d->depth_cap ? d->depth_cap : 64;
		while (cap <= track)
			cap *= 2;
		depth = realloc(d->depth, cap * sizeof(*depth));
		if (!depth)
			return NULL;
		memset(depth + d->depth_cap, 0,
		       (cap - d->depth_cap) * sizeof(*depth));
		d->depth = depth;
		d->depth_cap = cap;
	}
	if (!d->depth[track]) {
		d->depth[track] = 1;
		json_event(d);
		fprintf(d->out, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
			"\"tid\":%u,\"args\":{\"name\":", track);
		if (d->opts.track == FREC_TRACK_RING)
			json_cstring(d->out, r->rec.ring);
		else
			fprintf(d->out, "\"cpu%u\"", r->rec.cpu);
		fputs("}}", d->out);
	}
	return &d->depth[track];
}

static void json_record(struct frec_decoder *d, const struct frec_decoded *r)
{
	unsigned int track = d->opts.track == FREC_TRACK_RING ? r->ring->track :
			     r->rec.cpu;
	unsigned int *depth = json_track(d, track, r);
	char first = r->rec.fmt ? r->rec.fmt[0] : r->msg_len ? r->msg[0] : 0;
	const char *name = r->msg, *ph = "i";
	size_t len = r->msg_len;
	static const char *const arg_keys[] = {
		",\"arg0\":\"", ",\"arg1\":\"", ",\"arg2\":\"", ",\"arg3\":\"",
	};
	char ts_frac[4] = ".000";
	bool unmatched = false;
	unsigned int i;

	if (len && name[len - 1] == '\n')
		len--;
	if (depth && first == '>') {
		ph = "B";
		++*depth;
	} else if (depth && first == '<') {
		if (*depth > 1) {
			ph = "E";
			--*depth;
		} else {
			unmatched = true;
		}
	}
	if (*ph != 'i' && len && (*name == '>' || *name == '<')) {
		name++;
		len--;
		while (len && *name == ' ') {
			name++;
			len--;
		}
	}
	json_event(d);
	fputs_unlocked("{\"name\":", d->out);
	json_string(d->out, name, len);
	/* ring names are [A-Za-z0-9_-]: no escaping needed */
	fputs_unlocked(",\"cat\":\"", d->out);
	fputs_unlocked(r->rec.ring, d->out);
	fputs_unlocked("\",\"ph\":\"", d->out);
	fputs_unlocked(ph, d->out);
	fputs_unlocked(*ph == 'i' ? "\",\"s\":\"t\",\"ts\":" : "\",\"ts\":", d->out);
	frec_put_dec(d->out, r->rec.ts / 1000);
	ts_frac[1] = (char)('0' + r->rec.ts / 100 % 10);
	ts_frac[2] = (char)('0' + r->rec.ts / 10 % 10);
	ts_frac[3] = (char)('0' + r->rec.ts % 10);
	fwrite_unlocked(ts_frac, 1, sizeof(ts_frac), d->out);
	fputs_unlocked(",\"pid\":1,\"tid\":", d->out);
	frec_put_dec(d->out, track);
	fputs_unlocked(",\"args\":{\"seq\":", d->out);
	frec_put_dec(d->out, r->rec.seq);
	fputs_unlocked(",\"cpu\":", d->out);
	frec_put_dec(d->out, r->rec.cpu);
	fputs_unlocked(",\"ring\":\"", d->out);
	fputs_unlocked(r->rec.ring, d->out);
	fputs_unlocked("\",\"caller\":", d->out);
	json_cstring(d->out, r->caller);
	if (r->rec.fmt) {
		fputs_unlocked(",\"fmt\":", d->out);
		json_cstring(d->out, r->rec.fmt);
		for (i = 0; i < r->rec.nr_args; i++) {
			fputs_unlocked(arg_keys[i], d->out);
			frec_put_hex(d->out, r->rec.args[i]);
			fputc_unlocked('"', d->out);
		}
	}
	if (d->opts.deltas) {
		fputs_unlocked(",\"delta_ns\":", d->out);
		if (r->delta < 0)
			fputc_unlocked('-', d->out);
		frec_put_dec(d->out, r->delta < 0 ? 0ULL - (unsigned long long)r->delta :
			     (unsigned long long)r->delta);
	}
	if (unmatched)
		fputs_unlocked(",\"unmatched_end\":true", d->out);
	fputs_unlocked("}}", d->out);
}

static void json_end(struct frec_decoder *d)
{
	fputs("\n],\"otherData\":{\"source\":\"frec\",\"clock\":", d->out);
	json_cstring(d->out, d->clock);
	fputs(",\"order\":", d->out);
	json_cstring(d->out, d->order);
	fputs("}}\n", d->out);
}

const struct frec_writer frec_write_json = {
	.begin = json_begin,
	.record = json_record,
	.end = json_end,
};
