// SPDX-License-Identifier: GPL-2.0
/*
 * raw.c - reading frec's raw dump (uapi/frec_raw.h) as a stream.
 *
 * The header is checked field by field, then entries are read one at a
 * time, in place in a buffer of RAW_BUF_BYTES the stream is read into a
 * large block at a time (an fread() per entry cost more than the rest of
 * reading it), so memory does not grow with the dump.  A dump written in
 * the other byte order (its
 * byte_order word reads 0x04030201) is byte-swapped as it is read; one
 * whose word_bytes is not 8 is refused.  Every error names the offset of
 * the header field or entry at fault.  Entries of unknown types are
 * skipped by their size, as the format asks.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"

static u64 raw_get64(const struct frec_raw_reader *r, u64 v)
{
	return r->swap ? __builtin_bswap64(v) : v;
}

static __u32 raw_get32(const struct frec_raw_reader *r, __u32 v)
{
	return r->swap ? __builtin_bswap32(v) : v;
}

/* The reader's buffer: room for the largest entry, and many small ones. */
#define RAW_BUF_BYTES	(1u << 20)

/* raw_peek() when the buffer does not hold the bytes: read more. */
static const unsigned char *raw_fill(struct frec_raw_reader *r, size_t n, size_t *got)
{
	unsigned long long left = r->end - r->offset;	/* bytes up to r->end */
	size_t have = r->len - r->pos, want;

	if (have < n && have < left && !r->at_end) {
		memmove(r->buf, r->buf + r->pos, have);
		r->pos = 0;
		r->len = have;
		want = RAW_BUF_BYTES - have;
		if (want > left - have)
			want = (size_t)(left - have);
		r->len += fread_unlocked(r->buf + have, 1, want, r->f);
		r->at_end = r->len - have < want;
		have = r->len;
	}
	/* r->end may have been set below what the buffer holds */
	if (have > left)
		have = (size_t)left;
	*got = have < n ? have : n;
	return r->buf + r->pos;
}

/*
 * The next @n bytes (at most RAW_BUF_BYTES), in one piece in the buffer,
 * not consumed: read from the stream as needed, up to r->end.  Returns
 * where they are; *@got says how many there are, fewer than @n only at
 * the end of the stream, or at a read error (ferror()).
 */
static inline const unsigned char *raw_peek(struct frec_raw_reader *r, size_t n,
					    size_t *got)
{
	if (r->len - r->pos < n || r->end - r->offset < n)
		return raw_fill(r, n, got);
	*got = n;
	return r->buf + r->pos;
}

/* Consume @n bytes peeked at. */
static void raw_consume(struct frec_raw_reader *r, size_t n)
{
	r->pos += n;
	r->offset += n;
}

/*
 * Consume the next @n bytes (at most RAW_BUF_BYTES) of an entry that
 * started at @at, @already of its @entry_bytes consumed before them;
 * where they are, or NULL with @err set if the dump ends first.
 */
static const unsigned char *raw_take(struct frec_raw_reader *r, size_t n,
				     unsigned long long at, size_t entry_bytes,
				     size_t already, struct frec_err *err)
{
	size_t got;
	const unsigned char *p = raw_peek(r, n, &got);

	raw_consume(r, got);
	if (got == n)
		return p;
	if (ferror(r->f))
		frec_errf(err, r->offset, "read error: %s", strerror(errno));
	else
		frec_errf(err, at, "truncated entry: %zu of %zu bytes",
			  already + got, entry_bytes);
	return NULL;
}

/* A clock name: 1 to @max - 1 bytes of [A-Za-z0-9_-], NUL, as a ring's. */
static bool raw_name_ok(const char *name, size_t max)
{
	return frec_ring_name_ok(name, max);
}

/**
 * frec_raw_open() - read and check a raw dump's header
 * @r: the reader to set up.
 * @f: the dump, positioned at its start.
 * @err: what is wrong, and the offset, on failure.
 *
 * Context: userspace; frec_raw_close() @r after use, even on failure.
 * Return: 0, or -1 with @err set.
 */
int frec_raw_open(struct frec_raw_reader *r, FILE *f, struct frec_err *err)
{
	struct frec_raw_header h;
	const unsigned char *p;
	size_t got, skip;
	__u32 v;

	memset(r, 0, sizeof(*r));
	r->f = f;
	r->end = ~0ULL;
	r->buf = malloc(RAW_BUF_BYTES);
	if (!r->buf)
		return frec_errf(err, 0, "out of memory");
	p = raw_peek(r, sizeof(h), &got);
	memcpy(&h, p, got);
	raw_consume(r, got);
	if (ferror(f))
		return frec_errf(err, r->offset, "read error: %s", strerror(errno));
	if (!got)
		return frec_errf(err, 0, "empty: no raw dump header");
	if (memcmp(h.magic, FREC_RAW_MAGIC, got < 8 ? got : 8))
		return frec_errf(err, 0, "not a frec raw dump (magic is not \"%s\")",
				 FREC_RAW_MAGIC);
	if (got < sizeof(h))
		return frec_errf(err, 0, "truncated header: %zu of %zu bytes",
				 got, sizeof(h));
	if (h.byte_order == __builtin_bswap32(FREC_RAW_BYTE_ORDER))
		r->swap = true;
	else if (h.byte_order != FREC_RAW_BYTE_ORDER)
		return frec_errf(err, offsetof(struct frec_raw_header, byte_order),
				 "byte order word 0x%08x is neither 0x%08x nor its byte swap",
				 h.byte_order, FREC_RAW_BYTE_ORDER);
	v = raw_get32(r, h.version);
	if (v < FREC_RAW_VERSION_OLDEST || v > FREC_RAW_VERSION)
		return frec_errf(err, offsetof(struct frec_raw_header, version),
				 "version %u; this frec-decode reads versions %u to %u",
				 v, FREC_RAW_VERSION_OLDEST, FREC_RAW_VERSION);
	r->version = v;
	v = raw_get32(r, h.header_bytes);
	if (v < sizeof(h) || v > FREC_DECODE_HEADER_MAX || v % 8)
		return frec_errf(err, offsetof(struct frec_raw_header, header_bytes),
				 "header_bytes %u: not a multiple of 8 from %zu to %u",
				 v, sizeof(h), FREC_DECODE_HEADER_MAX);
	skip = v - sizeof(h);
	v = raw_get32(r, h.slot_bytes);
	if (v != FREC_SLOT_BYTES)
		return frec_errf(err, offsetof(struct frec_raw_header, slot_bytes),
				 "slot_bytes %u, expected %u", v, FREC_SLOT_BYTES);
	v = raw_get32(r, h.word_bytes);
	if (v != 8)
		return frec_errf(err, offsetof(struct frec_raw_header, word_bytes),
				 "word_bytes %u: only dumps of 64-bit kernels (8) are supported",
				 v);
	if (!raw_name_ok(h.clock, sizeof(h.clock)))
		return frec_errf(err, offsetof(struct frec_raw_header, clock),
				 "clock name is not 1-%zu characters of [A-Za-z0-9_-]",
				 sizeof(h.clock) - 1);
	memcpy(r->clock, h.clock, sizeof(h.clock));
	r->clock[sizeof(h.clock)] = '\0';
	/*
	 * Flags this decoder does not know are kept, not refused: a new flag
	 * that changed how records must be read would come with a new version.
	 */
	r->flags = raw_get32(r, h.flags);
	if (skip && !raw_take(r, skip, 0, skip + sizeof(h), sizeof(h), err))
		return frec_errf(err, 0, "truncated header: %llu of %zu bytes",
				 r->offset, skip + sizeof(h));
	return 0;
}

/* Skip @n bytes of an entry of unknown type. */
static int raw_skip(struct frec_raw_reader *r, size_t n, unsigned long long at,
		    size_t bytes, struct frec_err *err)
{
	size_t chunk;

	while (n) {
		chunk = n < RAW_BUF_BYTES ? n : RAW_BUF_BYTES;
		if (!raw_take(r, chunk, at, bytes, bytes - n, err))
			return -1;
		n -= chunk;
	}
	return 0;
}

/*
 * A ring entry.  One too short to hold its fields is an error; one whose
 * kind, order or name is bad is read all the same, with @item->ring_bad
 * set and @err saying what and where: the entry is whole and the entries
 * after it are where their sizes say, so the decoder skips that ring, and
 * its records, alone.
 */
static int raw_ring(struct frec_raw_reader *r, struct frec_raw_item *item,
		    const unsigned char *entry, size_t bytes, struct frec_err *err)
{
	struct frec_raw_ring ring;

	if (bytes < sizeof(ring))
		return frec_errf(err, item->offset,
				 "ring entry of %zu bytes, %zu needed",
				 bytes, sizeof(ring));
	memcpy(&ring, entry, sizeof(ring));
	item->ring_bad = false;
	item->ring_id = raw_get32(r, ring.id);
	item->ring_kind = raw_get32(r, ring.kind);
	item->ring_order = raw_get32(r, ring.order);
	memcpy(item->ring_name, ring.name, sizeof(ring.name));
	item->ring_name[sizeof(item->ring_name) - 1] = '\0';
	if (item->ring_kind > 1) {
		frec_errf(err, item->offset + offsetof(struct frec_raw_ring, kind),
			  "ring kind %u, expected 0 or 1", item->ring_kind);
		item->ring_bad = true;
	} else if (item->ring_order > FREC_RING_ORDER_GLOBAL) {
		frec_errf(err, item->offset + offsetof(struct frec_raw_ring, order),
			  "ring order %u, expected %u (per CPU) or %u (global)",
			  item->ring_order, FREC_RING_ORDER_CPU, FREC_RING_ORDER_GLOBAL);
		item->ring_bad = true;
	} else if (!frec_ring_name_ok(ring.name, sizeof(ring.name))) {
		frec_errf(err, item->offset + offsetof(struct frec_raw_ring, name),
			  "ring name is not 1-%zu characters of [A-Za-z0-9_-]",
			  sizeof(ring.name) - 1);
		item->ring_bad = true;
	}
	return 1;
}

/* The fixed part of an entry, @size bytes, into @dst; -1 if it is shorter. */
static int raw_fixed(void *dst, size_t size, const unsigned char *entry, size_t bytes,
		     unsigned long long at, const char *what, struct frec_err *err)
{
	if (bytes < size)
		return frec_errf(err, at, "%s entry of %zu bytes, %zu needed", what, bytes, size);
	memcpy(dst, entry, size);
	return 0;
}

static int raw_record(struct frec_raw_reader *r, struct frec_raw_item *item,
		      const unsigned char *entry, size_t bytes, struct frec_err *err)
{
	struct frec_raw_record *rec = &item->rec;
	unsigned int i;

	if (raw_fixed(rec, sizeof(*rec), entry, bytes, item->offset,
		      item->type == FREC_RAW_EVENT ? "event" : "text", err))
		return -1;
	if (r->swap) {
		rec->seq = raw_get64(r, rec->seq);
		rec->ts = raw_get64(r, rec->ts);
		rec->site = raw_get64(r, rec->site);
		rec->caller = raw_get64(r, rec->caller);
		rec->ring = raw_get32(r, rec->ring);
		rec->cpu = raw_get32(r, rec->cpu);
		rec->len = raw_get32(r, rec->len);
		rec->context = raw_get32(r, rec->context);
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			rec->args[i] = raw_get64(r, rec->args[i]);
	}
	if (item->type == FREC_RAW_EVENT && rec->len)
		return frec_errf(err, item->offset + offsetof(struct frec_raw_record, len),
				 "event with %u bytes of text", rec->len);
	if (item->type == FREC_RAW_TEXT && rec->len > bytes - sizeof(*rec))
		return frec_errf(err, item->offset + offsetof(struct frec_raw_record, len),
				 "text of %u bytes in an entry of %zu", rec->len, bytes);
	item->text = (const char *)entry + sizeof(*rec);
	return 1;
}

/*
 * The clock entry: kept in @r->trace_clock.  One whose ftrace clock this
 * decoder does not know is passed over, as an unknown entry would be.
 */
static int raw_clock(struct frec_raw_reader *r, unsigned long long at,
		     const unsigned char *entry, size_t bytes, struct frec_err *err)
{
	struct frec_raw_clock c;

	if (raw_fixed(&c, sizeof(c), entry, bytes, at, "clock", err))
		return -1;
	if (!raw_name_ok(c.trace_clock, sizeof(c.trace_clock)))
		return frec_errf(err, at + offsetof(struct frec_raw_clock, trace_clock),
				 "trace clock name is not 1-%zu characters of [A-Za-z0-9_-]",
				 sizeof(c.trace_clock) - 1);
	if (strcmp(c.trace_clock, FREC_RAW_TRACE_CLOCK_NAME))
		return 0;
	r->trace_clock.known = true;
	r->trace_clock.offset = (long long)raw_get64(r, (__u64)c.offset);
	r->trace_clock.window = raw_get64(r, c.window);
	r->trace_clock.flags = raw_get32(r, c.flags);
	r->trace_clock.tick_ns = raw_get32(r, c.tick_ns);
	return 0;
}

/* A task entry: its name kept in @r->tasks. */
static int raw_task(struct frec_raw_reader *r, unsigned long long at,
		    const unsigned char *entry, size_t bytes, struct frec_err *err)
{
	struct frec_raw_task t;

	if (raw_fixed(&t, sizeof(t), entry, bytes, at, "task", err))
		return -1;
	if (frec_tasks_set(&r->tasks, raw_get32(r, t.pid), t.comm))
		return frec_errf(err, at, "out of memory");
	return 0;
}

/**
 * frec_raw_next() - read the next ring or record entry
 * @r: the reader, after frec_raw_open().
 * @item: where the entry goes, in host byte order; @item->text points
 *	into @r's buffer until the next call.
 * @err: what is wrong, and the offset, on failure.
 *
 * Skips entries of unknown types, keeps the clock entry's offset in
 * @r->trace_clock and the task entries' names in @r->tasks.  A ring entry whose kind, order or name is bad comes
 * back with @item->ring_bad set and @err saying why (see raw_ring()).
 *
 * Context: userspace.
 * Return: 1 with @item set, 0 at the end of the dump, or -1 with @err set.
 */
int frec_raw_next(struct frec_raw_reader *r, struct frec_raw_item *item,
		  struct frec_err *err)
{
	struct frec_raw_entry_head head;
	const unsigned char *entry;
	size_t got, bytes;

	for (;;) {
		item->offset = r->offset;
		entry = raw_peek(r, sizeof(head), &got);
		if (!got) {
			if (ferror(r->f))
				return frec_errf(err, r->offset, "read error: %s",
						 strerror(errno));
			return 0;
		}
		if (got < sizeof(head)) {
			raw_consume(r, got);
			return frec_errf(err, item->offset,
					 "truncated entry: %zu of %zu head bytes",
					 got, sizeof(head));
		}
		memcpy(&head, entry, sizeof(head));
		item->type = raw_get32(r, head.type);
		bytes = raw_get32(r, head.bytes);
		if (bytes < sizeof(head) || bytes % 8)
			return frec_errf(err, item->offset + offsetof(struct frec_raw_entry_head, bytes),
					 "entry of %zu bytes: not a multiple of 8 of at least 8",
					 bytes);
		if (item->type != FREC_RAW_RING && item->type != FREC_RAW_EVENT &&
		    item->type != FREC_RAW_TEXT && item->type != FREC_RAW_CLOCK &&
		    item->type != FREC_RAW_TASK) {
			raw_consume(r, sizeof(head));
			if (raw_skip(r, bytes - sizeof(head), item->offset, bytes, err))
				return -1;
			continue;
		}
		if (bytes > FREC_DECODE_ENTRY_MAX) {
			raw_consume(r, sizeof(head));
			return frec_errf(err, item->offset,
					 "entry of type %u and %zu bytes, more than %u",
					 item->type, bytes, FREC_DECODE_ENTRY_MAX);
		}
		entry = raw_take(r, bytes, item->offset, bytes, 0, err);
		if (!entry)
			return -1;
		if (item->type == FREC_RAW_CLOCK) {
			if (raw_clock(r, item->offset, entry, bytes, err))
				return -1;
			continue;
		}
		if (item->type == FREC_RAW_TASK) {
			if (raw_task(r, item->offset, entry, bytes, err))
				return -1;
			continue;
		}
		if (item->type == FREC_RAW_RING)
			return raw_ring(r, item, entry, bytes, err);
		return raw_record(r, item, entry, bytes, err);
	}
}

/**
 * frec_raw_close() - free what the reader holds (not the stream)
 * @r: the reader.
 *
 * Context: userspace.
 */
void frec_raw_close(struct frec_raw_reader *r)
{
	free(r->buf);
	r->buf = NULL;
	frec_tasks_free(&r->tasks);
}
