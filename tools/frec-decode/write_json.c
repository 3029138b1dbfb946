// SPDX-License-Identifier: GPL-2.0
/*
 * write_json.c - Chrome trace-event JSON, as ui.perfetto.dev and
 * chrome://tracing open it.
 *
 *   {"traceEvents":[
 *   {"name":"process_name","ph":"M","pid":2,"tid":2,"args":{"name":"hanoi_moves"}},
 *   {"name":"process_sort_index","ph":"M","pid":2,"tid":2,"args":{"sort_index":2}},
 *   {"name":"thread_name","ph":"M","pid":2,"tid":200003,"args":{"name":"cpu3"}},
 *   {"name":"thread_sort_index","ph":"M","pid":2,"tid":200003,"args":{"sort_index":3}},
 *   {"name":"cpu3 lost","ph":"C","ts":12027638.123,"pid":2,"tid":2,"args":{"records":0}},
 *   {"name":"<message>","cat":"<ring>","ph":"i","s":"t","ts":12027638.123,
 *    "pid":2,"tid":200003,"args":{"seq":253,"cpu":3,...}},
 *   ...],"otherData":{"source":"frec","clock":"local","order":"time"}}
 *
 * What Perfetto's JSON importer takes (its docs, "Visualizing external
 * trace formats", and its parser, src/trace_processor/importers/json/),
 * and the Trace Event Format document it follows, and what is written:
 *
 * - The top level is an object whose "traceEvents" is the event array;
 *   other keys are kept as metadata.  "traceEvents" comes first because
 *   older tokenizers stop at the first top-level key they do not know;
 *   frec's own facts go in "otherData".  No "displayTimeUnit": it only
 *   changes how a viewer shows time, and Perfetto versions differ on it
 *   (ignored and counted in its stats, or refused unless "ms" or "ns").
 * - "ts" is in microseconds.  Here every ts has three decimals, the
 *   record's ns exactly (a double holds them for 100 days of uptime
 *   and more: 2^53 ns); one unit throughout.
 * - "pid" and "tid" name a process and a thread; a thread is known by
 *   its tid alone (a tid seen again with another pid is a new thread),
 *   so tids must differ across processes.  Each ring is a process, pid
 *   = its position among the dump's rings + 1 (the order the dump lists
 *   them; pid 0 is the idle task's); each CPU of it a thread, tid = pid *
 *   100000 + cpu (ring 2's cpu 3 is 200003; past 42948 rings a tid no
 *   longer fits 32 bits).  With --json-track=ring a ring has one track,
 *   its main thread, tid = pid.  With --json-track=task each task that
 *   recorded into it has a track, named "comm-pid" as trace-cmd names a
 *   task, tid = pid * 2^23 + the task's pid, and each CPU one for its
 *   interrupts' records, "cpuN interrupts", tid = pid * 2^23 + 2^22 + N.
 * - Names come from metadata events ("ph":"M"): "process_name" and
 *   "thread_name" with args.name, written before the first event that
 *   uses the pid or (pid, tid).  "process_sort_index" and
 *   "thread_sort_index" (args.sort_index: the pid, the CPU) order the
 *   tracks in chrome://tracing; Perfetto ignores them.
 * - A record is an instant, "ph":"i" with "s":"t" (thread scope: drawn
 *   on its thread's track; "p" and "g" are process and global tracks),
 *   name, cat (the ring), ts, pid, tid, args.
 * - "B" and "E" (begin and end of a slice on a thread track) must nest
 *   on their track: a record whose format (an event's) or text starts
 *   with '>' begins a slice (named by the message without the '>'), one
 *   starting with '<' ends the innermost open slice of its track; an end
 *   with no open slice (its begin was overwritten in the ring) is an
 *   instant with "unmatched_end" in its args.  Slices still open at the
 *   end are left open.
 * - Spans (frec_span_begin() and frec_span_end() records, uapi/frec_raw.h
 *   "Spans") are drawn when their end comes, besides the two records'
 *   instants: a span whose begin is on the end's track and is the
 *   innermost span open there (so every span begun inside it has ended,
 *   and what is still open began before it) is a complete event, "ph":"X"
 *   with ts (the begin's: the end's minus the duration) and dur, on that
 *   thread track; these nest as Perfetto requires of slices on a track.
 *   Any other (its end on another CPU, its begin not in the dump, or ends
 *   not in the reverse order of their begins) is a pair of async events,
 *   "ph":"b" at the begin and "ph":"e" at the end, with the same "id" (the
 *   begin's name, its seq << 16 | its CPU, in hex), cat (the ring) and
 *   pid: a track of the ring's process, where such spans need not nest
 *   (their tid, the end's track's, names no track for async events).
 *   Both carry args span (the begin's "cpu/seq"), end_cpu, end_seq and
 *   dur_ns.  Events need not come in ts order (the Trace Event Format
 *   says so; Perfetto sorts a JSON trace whole before it imports it).
 * - A counter is "ph":"C" with ts, pid and numeric args: each arg a
 *   series, a process's track named "<name> <arg>".  Records lost by a
 *   ring on a CPU are the counter "cpu<N> lost" of the ring's process
 *   (tid = pid), series "records": at the CPU's first record the seqs
 *   before it, then whenever it changes, records lost so far = the
 *   highest seq seen - the records seen (a seq that steps back fills a
 *   gap: the count goes down by one).  At the end it is --stats'
 *   missing + before.  A ring numbered by one counter for all CPUs has
 *   no loss counter (its gaps are other CPUs' records), nor is there
 *   one with a filter (records not printed are not lost).
 * - Strings are JSON strings of UTF-8: '"', '\\' and control bytes
 *   escaped, and bytes that are not UTF-8 written as \u00XX, their
 *   Latin-1 reading, so the output is always valid UTF-8 and JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frec_caller_word.h"
#include "frec_decode.h"
#include "frec_span.h"

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

/**
 * struct frec_json_slices - what is open on one track
 * @depth: open begin/end slices ('>' and '<' formats).
 * @open: the names of spans begun on the track and not ended yet
 *	(frec_span_id()), innermost last.
 * @nr_open: how many.
 * @open_cap: room at @open.
 */
struct frec_json_slices {
	unsigned int depth;
	u64 *open;
	size_t nr_open;
	size_t open_cap;
};

/**
 * struct frec_json_cpu - a ring's track on one CPU
 * @seen: its names are written.
 * @sl: its open slices and spans (tracks per CPU).
 * @max_seq: the highest seq of its records so far.
 * @records: its records so far.
 * @lost: the loss counter's last value written.
 */
struct frec_json_cpu {
	bool seen;
	struct frec_json_slices sl;
	u64 max_seq;
	unsigned long long records;
	unsigned long long lost;
};

/**
 * struct frec_json_task - a ring's track of one task, or of one CPU's
 *	interrupts (--json-track=task)
 * @key: the task's pid, or JSON_TASK_IRQ | the CPU.
 * @sl: its open slices and spans.
 */
struct frec_json_task {
	u32 key;
	struct frec_json_slices sl;
};

/**
 * struct frec_json_ring - a ring's process and tracks
 * @seen: its process's names are written.
 * @ring_track_seen: its own track (--json-track=ring) is named.
 * @sl: open slices and spans of that track.
 * @cpus: its CPUs, by number.
 * @cpus_cap: their number.
 * @tasks: its tracks per task (--json-track=task), in the order seen.
 * @nr_tasks: how many.
 * @tasks_cap: room at @tasks.
 */
struct frec_json_ring {
	bool seen;
	bool ring_track_seen;
	struct frec_json_slices sl;
	struct frec_json_cpu *cpus;
	size_t cpus_cap;
	struct frec_json_task *tasks;
	size_t nr_tasks;
	size_t tasks_cap;
};

/*
 * --json-track=task: a task's track has tid (pid of the ring's process)
 * * JSON_TID_PER_RING + its pid; a CPU's interrupts (hard IRQ, softirq
 * and NMI records) tid ... + JSON_TASK_IRQ + the CPU.  Pids are below
 * 2^22 (FREC_CTX_PID_MASK), so the two never meet.
 */
#define JSON_TID_PER_RING	(1ULL << 23)
#define JSON_TASK_IRQ		(1U << 22)

/* Tids of a ring's CPUs: pid * this + cpu, above the pid, its own track. */
#define JSON_TID_PER_PID	100000ULL

void frec_json_free(struct frec_decoder *d)
{
	size_t i;

	for (i = 0; i < d->json_rings_cap; i++) {
		struct frec_json_ring *ring = &d->json_rings[i];
		size_t c;

		for (c = 0; c < ring->cpus_cap; c++)
			free(ring->cpus[c].sl.open);
		for (c = 0; c < ring->nr_tasks; c++)
			free(ring->tasks[c].sl.open);
		free(ring->sl.open);
		free(ring->cpus);
		free(ring->tasks);
	}
	free(d->json_rings);
	d->json_rings = NULL;
	d->json_rings_cap = 0;
}

/* Grow @*v (of @*cap items of @size bytes) to hold index @i; -1 if no memory. */
static int json_grow(void **v, size_t *cap, size_t size, size_t i)
{
	size_t n = *cap ? *cap : 8;
	void *p;

	if (i < *cap)
		return 0;
	while (n <= i)
		n *= 2;
	p = realloc(*v, n * size);
	if (!p)
		return -1;
	memset((char *)p + *cap * size, 0, (n - *cap) * size);
	*v = p;
	*cap = n;
	return 0;
}

static void json_begin(struct frec_decoder *d)
{
	fputs("{\"traceEvents\":[", d->out);
}

/* A metadata event: @what ("process_name", ...) of (@pid, @tid). */
static void json_meta(struct frec_decoder *d, const char *what, unsigned long long pid,
		      unsigned long long tid)
{
	json_event(d);
	fputs_unlocked("{\"name\":\"", d->out);
	fputs_unlocked(what, d->out);
	fputs_unlocked("\",\"ph\":\"M\",\"pid\":", d->out);
	frec_put_dec(d->out, pid);
	fputs_unlocked(",\"tid\":", d->out);
	frec_put_dec(d->out, tid);
	fputs_unlocked(",\"args\":{", d->out);
}

static void json_name(struct frec_decoder *d, unsigned long long pid, unsigned long long tid,
		      bool process, const char *name, unsigned long long sort_index)
{
	json_meta(d, process ? "process_name" : "thread_name", pid, tid);
	fputs_unlocked("\"name\":", d->out);
	json_cstring(d->out, name);
	fputs_unlocked("}}", d->out);
	json_meta(d, process ? "process_sort_index" : "thread_sort_index", pid, tid);
	fputs_unlocked("\"sort_index\":", d->out);
	frec_put_dec(d->out, sort_index);
	fputs_unlocked("}}", d->out);
}

static void json_ts(FILE *out, u64 ts)
{
	char frac[4] = ".000";

	frec_put_dec(out, ts / 1000);
	frac[1] = (char)('0' + ts / 100 % 10);
	frac[2] = (char)('0' + ts / 10 % 10);
	frac[3] = (char)('0' + ts % 10);
	fwrite_unlocked(frac, 1, sizeof(frac), out);
}

/*
 * The loss counter of @r's ring on its CPU @c, after @r: written at the
 * CPU's first record, and when it changes.
 */
static void json_lost(struct frec_decoder *d, const struct frec_decoded *r,
		      struct frec_json_cpu *c, unsigned long long pid)
{
	bool first = !c->records;
	unsigned long long lost;

	if (r->rec.seq > c->max_seq)
		c->max_seq = r->rec.seq;
	c->records++;
	if (d->opts.filter || r->ring->order == FREC_RING_ORDER_GLOBAL)
		return;
	lost = c->max_seq - c->records;
	if (!first && lost == c->lost)
		return;
	c->lost = lost;
	json_event(d);
	fputs_unlocked("{\"name\":\"cpu", d->out);
	frec_put_dec(d->out, r->rec.cpu);
	fputs_unlocked(" lost\",\"ph\":\"C\",\"ts\":", d->out);
	json_ts(d->out, r->rec.ts);
	fputs_unlocked(",\"pid\":", d->out);
	frec_put_dec(d->out, pid);
	fputs_unlocked(",\"tid\":", d->out);
	frec_put_dec(d->out, pid);
	fputs_unlocked(",\"args\":{\"records\":", d->out);
	frec_put_dec(d->out, lost);
	fputs_unlocked("}}", d->out);
}

/*
 * --json-track=task: @r's track in @ring (process @pid): its task's, or
 * its CPU's interrupts'; named, as trace-cmd names a task, "comm-pid"
 * ("<...>-pid" if the dump named it not) when first seen.  NULL if out
 * of memory.
 */
static struct frec_json_slices *json_task_track(struct frec_decoder *d,
						const struct frec_decoded *r,
						struct frec_json_ring *ring,
						unsigned long long pid,
						unsigned long long *tid)
{
	u32 context = r->rec.context_known ? r->rec.context : 0;
	u32 key = frec_context_kind(context) == FREC_CTX_TASK ?
		  frec_context_pid(context) : JSON_TASK_IRQ | r->rec.cpu;
	const char *comm;
	char name[FREC_RAW_TASK_COMM_LEN + 32];
	size_t i;

	*tid = pid * JSON_TID_PER_RING + key;
	for (i = 0; i < ring->nr_tasks; i++)
		if (ring->tasks[i].key == key)
			return &ring->tasks[i].sl;
	if (json_grow((void **)&ring->tasks, &ring->tasks_cap, sizeof(*ring->tasks),
		      ring->nr_tasks))
		return NULL;
	ring->tasks[ring->nr_tasks].key = key;
	if (key & JSON_TASK_IRQ) {
		snprintf(name, sizeof(name), "cpu%u interrupts", r->rec.cpu);
	} else {
		comm = d->tasks ? frec_tasks_name(d->tasks, key) : NULL;
		snprintf(name, sizeof(name), "%s-%u", comm ? comm : "<...>", key);
	}
	json_name(d, pid, *tid, false, name, key);
	return &ring->tasks[ring->nr_tasks++].sl;
}

/*
 * The open slices and spans of @r's track, its names written if new, its
 * tid in @tid, its loss counter updated; NULL if out of memory.
 */
static struct frec_json_slices *json_track(struct frec_decoder *d, const struct frec_decoded *r,
				unsigned long long *tid)
{
	unsigned long long pid = r->ring->track + 1ULL;
	struct frec_json_ring *ring;
	struct frec_json_cpu *c;

	if (json_grow((void **)&d->json_rings, &d->json_rings_cap,
		      sizeof(*d->json_rings), r->ring->track))
		return NULL;
	ring = &d->json_rings[r->ring->track];
	if (json_grow((void **)&ring->cpus, &ring->cpus_cap, sizeof(*ring->cpus),
		      r->rec.cpu))
		return NULL;
	c = &ring->cpus[r->rec.cpu];
	if (!ring->seen) {
		ring->seen = true;
		json_name(d, pid, pid, true, r->rec.ring, pid);
	}
	json_lost(d, r, c, pid);
	if (d->opts.track == FREC_TRACK_RING) {
		*tid = pid;
		if (!ring->ring_track_seen) {
			ring->ring_track_seen = true;
			json_name(d, pid, pid, false, r->rec.ring, 0);
		}
		return &ring->sl;
	}
	if (d->opts.track == FREC_TRACK_TASK)
		return json_task_track(d, r, ring, pid, tid);
	*tid = pid * JSON_TID_PER_PID + r->rec.cpu;
	if (!c->seen) {
		char name[16];

		c->seen = true;
		snprintf(name, sizeof(name), "cpu%u", r->rec.cpu);
		json_name(d, pid, *tid, false, name, r->rec.cpu);
	}
	return &c->sl;
}

/*
 * Start an event of @r's ring: name, cat, ph (an instant's scope), ts,
 * pid and tid; the caller adds the rest and closes it.
 */
static void json_event_head(struct frec_decoder *d, const struct frec_decoded *r,
			    const char *ph, u64 ts, unsigned long long tid,
			    const char *name, size_t len)
{
	json_event(d);
	fputs_unlocked("{\"name\":", d->out);
	json_string(d->out, name, len);
	/* ring names are [A-Za-z0-9_-]: no escaping needed */
	fputs_unlocked(",\"cat\":\"", d->out);
	fputs_unlocked(r->rec.ring, d->out);
	fputs_unlocked("\",\"ph\":\"", d->out);
	fputs_unlocked(ph, d->out);
	fputs_unlocked(*ph == 'i' ? "\",\"s\":\"t\",\"ts\":" : "\",\"ts\":", d->out);
	json_ts(d->out, ts);
	fputs_unlocked(",\"pid\":", d->out);
	frec_put_dec(d->out, r->ring->track + 1ULL);
	fputs_unlocked(",\"tid\":", d->out);
	frec_put_dec(d->out, tid);
}

/* Remember the span @r begins on its track @sl. */
static void json_span_open(struct frec_json_slices *sl, const struct frec_decoded *r)
{
	if (json_grow((void **)&sl->open, &sl->open_cap, sizeof(*sl->open), sl->nr_open))
		return;		/* no memory: the span is drawn as async */
	sl->open[sl->nr_open++] = frec_span_id(r->rec.seq, r->rec.cpu);
}

/*
 * Forget the open span @id on the track of its begin, which --json-track
 * and its CPU name; true if it was the innermost open there and that is
 * @sl, the end's track: then it nests in what is open there, and every
 * span that began inside it has ended.
 */
static bool json_span_close(struct frec_decoder *d, const struct frec_decoded *r,
			    struct frec_json_slices *sl, u64 id)
{
	struct frec_json_ring *ring = &d->json_rings[r->ring->track];
	unsigned int cpu = frec_span_id_cpu(id);
	struct frec_json_slices *bt;
	size_t i;

	if (d->opts.track == FREC_TRACK_RING)
		bt = &ring->sl;
	else if (d->opts.track == FREC_TRACK_TASK && sl)
		bt = sl;	/* a task's span begins and ends in the task */
	else if (d->opts.track == FREC_TRACK_TASK)
		return false;
	else if (cpu < ring->cpus_cap)
		bt = &ring->cpus[cpu].sl;
	else
		return false;
	for (i = bt->nr_open; i-- > 0;) {
		if (bt->open[i] != id)
			continue;
		memmove(&bt->open[i], &bt->open[i + 1],
			(bt->nr_open - i - 1) * sizeof(*bt->open));
		bt->nr_open--;
		return bt == sl && i == bt->nr_open;
	}
	return false;
}

/* One event of a span's slice: its phase, time, track, name and args. */
static void json_span_event(struct frec_decoder *d, const struct frec_decoded *r,
			    const char *ph, u64 ts, unsigned long long tid,
			    const char *name, size_t len, u64 id, u64 dur)
{
	json_event_head(d, r, ph, ts, tid, name, len);
	if (*ph == 'X') {
		fputs_unlocked(",\"dur\":", d->out);
		json_ts(d->out, dur);
	} else {
		fputs_unlocked(",\"id\":\"", d->out);
		frec_put_hex(d->out, id);
		fputc_unlocked('"', d->out);
	}
	fputs_unlocked(",\"args\":{\"ring\":\"", d->out);
	fputs_unlocked(r->rec.ring, d->out);
	fputs_unlocked("\",\"span\":\"", d->out);
	frec_put_dec(d->out, frec_span_id_cpu(id));
	fputc_unlocked('/', d->out);
	frec_put_dec(d->out, frec_span_id_seq(id));
	fputs_unlocked("\",\"end_cpu\":", d->out);
	frec_put_dec(d->out, r->rec.cpu);
	fputs_unlocked(",\"end_seq\":", d->out);
	frec_put_dec(d->out, r->rec.seq);
	fputs_unlocked(",\"dur_ns\":", d->out);
	frec_put_dec(d->out, dur);
	fputs_unlocked("}}", d->out);
}

/*
 * A span's begin is remembered on its track; its end draws the span
 * (write_json.c's header says how).  The slice is named by the end's
 * message without "< " and what the formatter appended (" dur=...").
 */
static void json_span(struct frec_decoder *d, const struct frec_decoded *r,
		      struct frec_json_slices *sl, unsigned long long tid)
{
	enum frec_span_kind kind = frec_span_kind(r->rec.fmt);
	const char *name = r->msg;
	size_t len = r->msg_len, i;
	u64 id, dur;

	if (!sl || kind == FREC_SPAN_NONE)
		return;
	if (kind == FREC_SPAN_BEGIN) {
		json_span_open(sl, r);
		return;
	}
	if (r->rec.nr_args != FREC_EVENT_MAX_ARGS)
		return;
	id = r->rec.args[FREC_SPAN_END_ID];
	dur = frec_span_dur_ns(r->rec.args[FREC_SPAN_END_DUR]);
	if (len >= 2 && name[0] == '<' && name[1] == ' ') {
		name += 2;
		len -= 2;
	}
	for (i = len; i-- > 0;)
		if (!strncmp(name + i, " dur=", 5)) {
			len = i;
			break;
		}
	if (json_span_close(d, r, sl, id)) {
		json_span_event(d, r, "X", r->rec.ts - dur, tid, name, len, id, dur);
		return;
	}
	json_span_event(d, r, "b", r->rec.ts - dur, tid, name, len, id, dur);
	json_span_event(d, r, "e", r->rec.ts, tid, name, len, id, dur);
}

static void json_record(struct frec_decoder *d, const struct frec_decoded *r)
{
	unsigned long long tid = 0;
	struct frec_json_slices *sl = json_track(d, r, &tid);
	unsigned int *depth = sl ? &sl->depth : NULL;
	char first = r->rec.fmt ? r->rec.fmt[0] : r->msg_len ? r->msg[0] : 0;
	const char *name = r->msg, *ph = "i";
	size_t len = r->msg_len;
	static const char *const arg_keys[] = {
		",\"arg0\":\"", ",\"arg1\":\"", ",\"arg2\":\"", ",\"arg3\":\"",
	};
	bool unmatched = false;
	unsigned int i;

	if (!depth)
		tid = (r->ring->track + 1ULL) * JSON_TID_PER_PID + r->rec.cpu;
	if (len && name[len - 1] == '\n')
		len--;
	if (depth && first == '>') {
		ph = "B";
		++*depth;
	} else if (depth && first == '<') {
		if (*depth) {
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
	json_event_head(d, r, ph, r->rec.ts, tid, name, len);
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
	json_span(d, r, sl, tid);
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
