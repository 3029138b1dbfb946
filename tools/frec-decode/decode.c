// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - from raw entries to printed records.
 *
 * Keeps the ring table and checks what the raw reader cannot check alone
 * (each record's ring was defined before it, the CPU is in range, within
 * each (ring, CPU) source timestamps do not go back and a seq does not
 * repeat).  Records are printed in the order kmod/lib/frec_merge.c, the
 * module's own engine, merges the sources in, whatever order the dump
 * lists them in: a dump that can be read twice and is found in that order
 * (as the module writes it) is printed as it is read again; any other is
 * kept whole, per source, and merged at its end (or at its first error).
 * Each record is then filtered (kmod/lib/frec_filter.c, the module's
 * own), its message formatted with kmod/lib/frec_format.c against the sites,
 * formats and kallsyms tables, and handed to the writer of the output
 * format.  An event's site word is a site id (its format from the sites
 * file) or a format's address (from the formats file).  A bad or missing
 * format is reported once per site id or address, and the record is still
 * printed.  A ring glob of the filter without wildcards that names no
 * ring of the dump is an error, found at the end of the dump (a ring may
 * be defined anywhere before its first record).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "frec_caller_word.h"
#include "frec_decode.h"

/* Site words reported missing, before saying no more will be. */
#define FREC_MISSING_MAX	1024

/* Copy @n bytes of @name into @buf as symbol() does: cut, and NUL-ended. */
static int put_name(char *buf, size_t size, const char *name, size_t n)
{
	memcpy(buf, name, n < size - 1 ? n : size - 1);
	buf[n < size - 1 ? n : size - 1] = '\0';
	return (int)n;
}

/*
 * A name the module gave an address, as its dump prints it: the caller of
 * a site's first record ('S' only, the form a caller is printed in), or
 * any code address of a module that has gone (the formats file).
 */
static const char *module_name(struct frec_decoder *d, u64 addr, char ext)
{
	const char *name = NULL;

	if (ext == 'S' && addr && d->sites)
		name = frec_sites_caller(d->sites, addr);
	if (!name && d->formats)
		name = frec_formats_symbol(d->formats, addr);
	return name;
}

/*
 * struct frec_format_env's symbol(): a name the module gave the address
 * (module_name()), else kallsyms'.  The caller of a record is nearly
 * always its own site's first caller, found at once; other addresses go
 * through a cache of the names found, as callers and symbol arguments
 * repeat and a lookup costs a binary search or three.
 */
static int decode_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	struct frec_decoder *d = ctx;
	struct frec_symbol_cache *c;
	const char *name;
	int n;

	if (ext == 'S' && addr && d->site && d->site->caller == addr &&
	    d->site->caller_symbol[0])
		return put_name(buf, size, d->site->caller_symbol,
				strlen(d->site->caller_symbol));
	c = &d->symbols[(size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 54 ^ (u64)ext) &
			(FREC_SYMBOL_CACHE - 1)];
	/* A name of the formats may be of a time: not cached. */
	if (d->formats && d->formats->timed) {
		name = module_name(d, addr, ext);
		if (name)
			return put_name(buf, size, name, strlen(name));
		return d->kallsyms ? frec_kallsyms_symbol(d->kallsyms, buf, size, addr, ext) : -1;
	}
	if (c->used && c->addr == addr && c->ext == ext)
		return c->len < 0 ? -1 : put_name(buf, size, c->text, (size_t)c->len);
	name = module_name(d, addr, ext);
	if (name)
		n = put_name(buf, size, name, strlen(name));
	else if (d->kallsyms)
		n = frec_kallsyms_symbol(d->kallsyms, buf, size, addr, ext);
	else
		n = -1;
	/* kept if whole: in @buf, and short enough */
	if (n < (int)sizeof(c->text) && n < (int)size) {
		c->used = true;
		c->addr = addr;
		c->ext = ext;
		c->len = n;
		if (n >= 0)
			memcpy(c->text, buf, (size_t)n);
	}
	return n;
}

static int decode_string(void *ctx, char *buf, size_t size, u64 addr)
{
	struct frec_decoder *d = ctx;

	return frec_formats_string(d->formats, buf, size, addr);
}

/**
 * frec_decoder_init() - set up a decoding run
 * @d: the decoder.
 * @opts: what to print.
 * @formats: the formats table.
 * @sites: the sites table.
 * @kallsyms: the symbol table, or NULL to print callers as addresses
 *	(those the sites or formats table names excepted).
 * @out: where the output goes.
 * @errs: where warnings and errors go, or NULL.
 *
 * Context: userspace.
 */
void frec_decoder_init(struct frec_decoder *d,
		       const struct frec_decode_opts *opts,
		       struct frec_formats *formats, struct frec_sites *sites,
		       struct frec_kallsyms *kallsyms, FILE *out, FILE *errs)
{
	memset(d, 0, sizeof(*d));
	d->opts = *opts;
	d->formats = formats;
	d->sites = sites;
	d->kallsyms = kallsyms;
	d->out = out;
	d->errs = errs;
	d->env.symbol = decode_symbol;
	d->env.string = decode_string;
	d->env.ctx = d;
	if (opts->output == FREC_OUT_JSON)
		d->writer = &frec_write_json;
	else if (opts->output == FREC_OUT_CSV)
		d->writer = &frec_write_csv;
	else if (opts->output == FREC_OUT_TRACEDAT)
		d->writer = &frec_write_tracedat;
	else if (opts->output == FREC_OUT_HIST)
		d->writer = &frec_write_hist;
	else
		d->writer = &frec_write_text;
}

/**
 * frec_decoder_free() - free what a run allocated
 * @d: the decoder.
 *
 * Context: userspace.
 */
void frec_decoder_free(struct frec_decoder *d)
{
	free(d->rings);
	frec_json_free(d);
	frec_hist_free(d);
	free(d->missing);
	free(d->stored);
	free(d->text);
	free(d->sources);
	free(d->marks);
	free(d->inflight_begins);
	frec_inflight_free(&d->inflight);
	d->inflight_begins = NULL;
	d->marks = NULL;
	d->stored = NULL;
	d->text = NULL;
	d->sources = NULL;
	d->rings = NULL;
	d->missing = NULL;
}

static size_t ring_slot(size_t cap, unsigned int id)
{
	return (size_t)((id * 0x9e3779b1u) & (cap - 1));
}

static struct frec_ring_info *ring_find(struct frec_decoder *d, unsigned int id)
{
	size_t i;

	if (!d->rings_cap)
		return NULL;
	for (i = ring_slot(d->rings_cap, id); d->rings[i].used;
	     i = (i + 1) & (d->rings_cap - 1))
		if (d->rings[i].id == id)
			return &d->rings[i];
	return NULL;
}

/* Make room for one more ring: the table is kept at most half full. */
static int ring_grow(struct frec_decoder *d)
{
	struct frec_ring_info *old = d->rings;
	size_t old_cap = d->rings_cap, i, j;

	if ((d->nr_rings + 1) * 2 <= d->rings_cap)
		return 0;
	d->rings_cap = old_cap ? old_cap * 2 : 16;
	d->rings = calloc(d->rings_cap, sizeof(*d->rings));
	if (!d->rings) {
		d->rings = old;
		d->rings_cap = old_cap;
		return -1;
	}
	for (i = 0; i < old_cap; i++) {
		if (!old[i].used)
			continue;
		for (j = ring_slot(d->rings_cap, old[i].id); d->rings[j].used;
		     j = (j + 1) & (d->rings_cap - 1))
			;
		d->rings[j] = old[i];
	}
	free(old);
	return 0;
}

/* For frec_filter_check_rings(): a ring of this name is in the dump. */
static bool ring_in_dump(void *ctx, const char *name)
{
	const struct frec_decoder *d = ctx;
	size_t i;

	for (i = 0; i < d->rings_cap; i++)
		if (d->rings[i].used && !d->rings[i].skipped &&
		    !strcmp(d->rings[i].name, name))
			return true;
	return false;
}

/* A new ring of id @id in the table, unnamed; NULL with @err set if not. */
static struct frec_ring_info *ring_new(struct frec_decoder *d, unsigned int id,
				       unsigned long long at, struct frec_err *err)
{
	struct frec_ring_info *ring;
	size_t i;

	if (d->nr_rings >= FREC_DECODE_RINGS_MAX) {
		frec_errf(err, at, "more than %u rings", FREC_DECODE_RINGS_MAX);
		return NULL;
	}
	if (ring_grow(d)) {
		frec_errf(err, at, "out of memory");
		return NULL;
	}
	for (i = ring_slot(d->rings_cap, id); d->rings[i].used;
	     i = (i + 1) & (d->rings_cap - 1))
		;
	ring = &d->rings[i];
	ring->used = true;
	ring->id = id;
	ring->track = UINT_MAX;
	d->nr_rings++;
	return ring;
}

/*
 * A ring entry the raw reader found bad (@why says what, and where): it
 * names no ring.  An id no good entry defined yet is skipped, its records
 * read and checked as any, but not printed (decode_print()) unless a
 * later entry of the id is good; an id a good entry defined keeps it.
 * Nothing else is lost: the entries after it are read as if it were not
 * there.  Reported once, though a dump may be read twice.
 */
static int decode_bad_ring(struct frec_decoder *d, const struct frec_raw_item *item,
			   const struct frec_err *why, struct frec_err *err)
{
	struct frec_ring_info *ring = ring_find(d, item->ring_id);
	bool told = item->offset < d->bad_rings_told;

	if (!told)
		d->bad_rings_told = item->offset + 1;
	if (ring) {
		if (!told)
			frec_warn(d, "offset %llu: %s: ring entry skipped%s", why->where,
				  why->msg, ring->skipped ? "" : "; the ring keeps its earlier entry");
		return 0;
	}
	ring = ring_new(d, item->ring_id, item->offset, err);
	if (!ring)
		return -1;
	ring->skipped = true;
	if (!told)
		frec_warn(d, "offset %llu: %s: ring entry skipped, with its records",
			  why->where, why->msg);
	return 0;
}

/* A ring entry: a new ring, or a new name for a known id. */
static int decode_ring(struct frec_decoder *d, const struct frec_raw_item *item,
		       struct frec_err *err)
{
	struct frec_ring_info *ring;
	struct frec_err why;

	if (item->ring_bad) {
		why = *err;
		return decode_bad_ring(d, item, &why, err);
	}
	/*
	 * Merged by seq, a per-CPU seq would tie records of every CPU: the
	 * order would be wrong, and no check could tell.
	 */
	if ((d->raw_flags & FREC_RAW_MERGE_BY_SEQ) &&
	    item->ring_order != FREC_RING_ORDER_GLOBAL)
		return frec_errf(err, item->offset + offsetof(struct frec_raw_ring, order),
				 "ring %s numbers its records per CPU, in a dump merged by seq",
				 item->ring_name);
	ring = ring_find(d, item->ring_id);
	if (!ring) {
		ring = ring_new(d, item->ring_id, item->offset, err);
		if (!ring)
			return -1;
	}
	/* tracks for the rings printed: a skipped one leaves no hole */
	if (ring->track == UINT_MAX)
		ring->track = (unsigned int)d->nr_tracks++;
	ring->skipped = false;
	ring->kind = item->ring_kind;
	ring->order = item->ring_order;
	memcpy(ring->name, item->ring_name, sizeof(ring->name));
	ring->selected = !d->opts.filter || frec_filter_ring(d->opts.filter, ring->name);
	return 0;
}

/* A site word as messages name it: "site 3", "format 0xffffffffc0a80000". */
static const char *word_name(char *buf, size_t size, u64 word)
{
	snprintf(buf, size, word < FREC_SITE_ID_LIMIT ? "site %llu" : "format 0x%llx",
		 (unsigned long long)word);
	return buf;
}

/*
 * Report a site word whose format is missing: a site id not in the sites
 * file or an address not in the formats file, once per word.
 */
static void report_missing(struct frec_decoder *d, u64 addr,
			   unsigned long long offset)
{
	char name[32];
	size_t i;

	if (!d->missing) {
		d->missing = calloc(FREC_MISSING_MAX * 2, sizeof(*d->missing));
		if (!d->missing)
			return;
	}
	for (i = (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 53) & (FREC_MISSING_MAX * 2 - 1);
	     d->missing[i].used; i = (i + 1) & (FREC_MISSING_MAX * 2 - 1))
		if (d->missing[i].addr == addr)
			return;
	if (d->nr_missing == FREC_MISSING_MAX) {
		d->nr_missing++;
		frec_warn(d, "offset %llu: more than %u sites or formats missing, not reporting more",
			  offset, FREC_MISSING_MAX);
		return;
	}
	if (d->nr_missing > FREC_MISSING_MAX) {
		d->warnings++;
		return;
	}
	d->missing[i].addr = addr;
	d->missing[i].used = true;
	d->nr_missing++;
	frec_warn(d, "offset %llu: %s is not in the %s file", offset,
		  word_name(name, sizeof(name), addr),
		  addr < FREC_SITE_ID_LIMIT ? "sites" : "formats");
}

/*
 * The message and caller, apart from the line: every output but the text
 * (which formats its line whole) and the histograms (which print none).
 */
static bool wants_message(const struct frec_decoder *d)
{
	return d->opts.output != FREC_OUT_TEXT && d->opts.output != FREC_OUT_HIST;
}

/*
 * An event's format, from its site (d->site) or, for a site word at or
 * above FREC_SITE_ID_LIMIT, from the formats table at that address;
 * checked once per site or address; or a stand-in text.
 */
static void decode_event_format(struct frec_decoder *d,
				const struct frec_raw_record *rec,
				unsigned long long offset, struct frec_decoded *r)
{
	char name[32];
	bool *checked;
	size_t bad;
	int n;

	if (rec->site < FREC_SITE_ID_LIMIT) {
		r->rec.fmt = d->site ? d->site->format : NULL;
		checked = d->site ? &d->site->checked : NULL;
	} else {
		r->rec.fmt = frec_formats_find(d->formats, rec->site);
		checked = frec_formats_checked(d->formats, rec->site);
	}
	if (!r->rec.fmt) {
		report_missing(d, rec->site, offset);
		n = snprintf(d->msg, sizeof(d->msg),
			     "[format 0x%llx missing; args 0x%llx 0x%llx 0x%llx 0x%llx]",
			     (unsigned long long)rec->site,
			     (unsigned long long)rec->args[0],
			     (unsigned long long)rec->args[1],
			     (unsigned long long)rec->args[2],
			     (unsigned long long)rec->args[3]);
		r->rec.text = d->msg;
		r->rec.text_len = (unsigned int)n;
		r->msg = d->msg;
		r->msg_len = (size_t)n;
		return;
	}
	r->rec.text = NULL;
	r->rec.text_len = 0;
	r->rec.args = rec->args;
	r->rec.nr_args = FREC_EVENT_MAX_ARGS;
	if (!*checked) {
		*checked = true;
		frec_format_message(NULL, 0, r->rec.fmt, rec->args,
				    FREC_EVENT_MAX_ARGS, &d->env, &bad);
		if (bad != (size_t)-1)
			frec_warn(d, "offset %llu: %s: bad format at byte %zu", offset,
				  word_name(name, sizeof(name), rec->site), bad);
	}
	r->msg = NULL;
	r->msg_len = 0;
	if (wants_message(d)) {
		r->msg = d->msg;
		r->msg_len = (size_t)frec_format_message(d->msg, sizeof(d->msg),
							  r->rec.fmt, rec->args,
							  FREC_EVENT_MAX_ARGS,
							  &d->env, NULL);
	}
}

static size_t source_slot(size_t cap, unsigned int ring, unsigned int cpu)
{
	return (size_t)(((ring * 0x9e3779b1u) ^ (cpu * 0x85ebca6bu)) & (cap - 1));
}

/* The source of (@ring, @cpu), made if new; NULL if out of memory. */
static struct frec_source *source_get(struct frec_decoder *d, unsigned int ring,
				      unsigned int cpu)
{
	struct frec_source *old = d->sources, *s;
	size_t old_cap = d->sources_cap, i, j;

	for (i = old_cap ? source_slot(old_cap, ring, cpu) : 0; old_cap && old[i].used;
	     i = (i + 1) & (old_cap - 1))
		if (old[i].ring == ring && old[i].cpu == cpu)
			return &old[i];
	/* New: keep the table at most half full. */
	if ((d->nr_sources + 1) * 2 > old_cap) {
		d->sources_cap = old_cap ? old_cap * 2 : 64;
		d->sources = calloc(d->sources_cap, sizeof(*d->sources));
		if (!d->sources) {
			d->sources = old;
			d->sources_cap = old_cap;
			return NULL;
		}
		for (i = 0; i < old_cap; i++) {
			if (!old[i].used)
				continue;
			for (j = source_slot(d->sources_cap, old[i].ring, old[i].cpu);
			     d->sources[j].used; j = (j + 1) & (d->sources_cap - 1))
				;
			d->sources[j] = old[i];
		}
		free(old);
	}
	for (i = source_slot(d->sources_cap, ring, cpu); d->sources[i].used;
	     i = (i + 1) & (d->sources_cap - 1))
		;
	s = &d->sources[i];
	s->used = true;
	s->ring = ring;
	s->cpu = cpu;
	s->head = FREC_STORED_NONE;
	s->tail = FREC_STORED_NONE;
	d->nr_sources++;
	return s;
}

/* Make room in @buf (of *@cap elements of @size) for @need elements. */
static int grow(void **buf, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * size);
	if (!p)
		return -1;
	*buf = p;
	*cap = n;
	return 0;
}

/* How a pass over the dump handles records (decode_record()). */
enum decode_pass {
	PASS_COUNT,	/* check and count them (--stats) */
	PASS_VERIFY,	/* and check they are in the merged order, to the first not */
	PASS_PRINT,	/* and print them: PASS_VERIFY found them in order */
	PASS_KEEP,	/* check, count and keep them, to merge at the end */
};

/* Where a record goes in the merged order. */
static struct frec_merge_key merge_key(const struct frec_raw_record *rec)
{
	return (struct frec_merge_key){ .ts = rec->ts, .seq = rec->seq,
					.cpu = rec->cpu, .ring = rec->ring };
}

/*
 * Is the record read now (of source @src) where the merge of what was
 * read puts it?  The merge takes each source's records in the dump's
 * order and, of the sources' next records, always the first by
 * frec_merge_before().  So the dump is in the merged order if and only if
 * every record comes after each record listed between it and the
 * previous record of its source (after all those before it, for a
 * source's first): those were taken first while it waited.  The latest
 * of them in the merged order is found on a stack of the records no later
 * record has passed, positions ascending and keys descending: in a dump
 * in the merged order it rarely holds more than a few.
 *
 * Return: 0 with *@in_order set (and, if in order, the record noted), or
 * -1 if out of memory.
 */
static int order_check(struct frec_decoder *d, struct frec_source *src,
		       const struct frec_raw_record *rec, bool *in_order)
{
	struct frec_merge_key key = merge_key(rec);
	struct frec_order_mark *marks = d->marks;
	size_t lo = 0, hi = d->nr_marks, mid;

	while (lo < hi) {		/* the first mark after the source's last */
		mid = lo + (hi - lo) / 2;
		if (marks[mid].position > src->last_position)
			hi = mid;
		else
			lo = mid + 1;
	}
	*in_order = lo == d->nr_marks || frec_merge_before(&d->merge, &marks[lo].key, &key);
	if (!*in_order)
		return 0;
	/* it passed marks[lo], so every later mark, and maybe earlier ones */
	d->nr_marks = lo;
	while (d->nr_marks && frec_merge_before(&d->merge, &marks[d->nr_marks - 1].key, &key))
		d->nr_marks--;
	if (d->nr_marks == d->marks_cap &&
	    grow((void **)&d->marks, &d->marks_cap, d->nr_marks + 1, sizeof(*d->marks), 64))
		return -1;
	d->marks[d->nr_marks].key = key;
	d->marks[d->nr_marks++].position = ++d->position;
	src->last_position = d->position;
	return 0;
}

/* Keep a record in its source, to print it when the sources are merged. */
static int decode_keep(struct frec_decoder *d, struct frec_source *src,
		       const struct frec_raw_item *item)
{
	const struct frec_raw_record *rec = &item->rec;
	struct frec_stored *st;

	if (grow((void **)&d->stored, &d->stored_cap, d->nr_stored + 1,
		 sizeof(*d->stored), 1024) ||
	    grow((void **)&d->text, &d->text_cap, d->text_len + rec->len + 1, 1, 4096))
		return -1;
	st = &d->stored[d->nr_stored];
	st->rec = *rec;
	st->rec.head.type = item->type;
	st->offset = item->offset;
	st->text = d->text_len;
	st->next = FREC_STORED_NONE;
	if (item->type == FREC_RAW_TEXT) {
		memcpy(d->text + d->text_len, item->text, rec->len);
		d->text_len += rec->len;
	}
	if (src->tail == FREC_STORED_NONE)
		src->head = d->nr_stored;
	else
		d->stored[src->tail].next = d->nr_stored;
	src->tail = d->nr_stored++;
	return 0;
}

static void decode_print(struct frec_decoder *d, struct frec_ring_info *ring,
			 const struct frec_raw_record *rec, unsigned int type,
			 unsigned long long offset, const char *text);

/*
 * A record: checked, counted in its (ring, CPU) source, then as @pass
 * says: checked against the merged order (PASS_VERIFY, PASS_PRINT),
 * printed (PASS_PRINT) or kept (PASS_KEEP).
 *
 * Return: 0, 1 if PASS_VERIFY found it out of the merged order, or -1
 * with @err set.
 */
static int decode_record(struct frec_decoder *d, const struct frec_raw_item *item,
			 enum decode_pass pass, struct frec_err *err)
{
	const struct frec_raw_record *rec = &item->rec;
	unsigned long long seq_at = item->offset + offsetof(struct frec_raw_record, seq);
	struct frec_ring_info *ring = ring_find(d, rec->ring);
	struct frec_source *src;
	bool in_order;

	if (!ring)
		return frec_errf(err, item->offset + offsetof(struct frec_raw_record, ring),
				 "record of ring %u, which no ring entry defined before it",
				 rec->ring);
	if (rec->cpu >= FREC_DECODE_CPUS_MAX)
		return frec_errf(err, item->offset + offsetof(struct frec_raw_record, cpu),
				 "cpu %u, more than %u", rec->cpu,
				 FREC_DECODE_CPUS_MAX - 1);
	/* Every CPU of a ring numbers its records from 1; 0 is no record. */
	if (!rec->seq)
		return frec_errf(err, seq_at, "seq 0: seqs start at 1");
	src = source_get(d, rec->ring, rec->cpu);
	if (!src)
		return frec_errf(err, item->offset, "out of memory");
	/*
	 * A CPU's part of a ring is read in position order, which is
	 * timestamp order, and a seq is never reused on one CPU: anything
	 * else is a broken dump, and the merge (which takes each source as
	 * already in order) would misplace it.  Seqs themselves may step
	 * back: a writer interrupted between reserving its slot and taking
	 * its seq leaves the interrupting one the lower seq at the later
	 * position (kmod/lib/frec_rb.c, "Writers").
	 */
	if (src->records && rec->seq == src->last_seq)
		return frec_errf(err, seq_at,
				 "seq %llu after seq %llu of ring %u on cpu %u: records out of order",
				 (unsigned long long)rec->seq,
				 (unsigned long long)src->last_seq, rec->ring, rec->cpu);
	if (src->records && rec->ts < src->last_ts)
		return frec_errf(err, item->offset + offsetof(struct frec_raw_record, ts),
				 "timestamp %llu after %llu of ring %u on cpu %u: records out of order",
				 (unsigned long long)rec->ts,
				 (unsigned long long)src->last_ts, rec->ring, rec->cpu);
	if (pass == PASS_VERIFY || pass == PASS_PRINT) {
		if (order_check(d, src, rec, &in_order))
			return frec_errf(err, item->offset, "out of memory");
		if (!in_order && pass == PASS_VERIFY)
			return 1;
		/* The first read found the dump in order: it changed since. */
		if (!in_order)
			return frec_errf(err, item->offset,
					 "record out of the order it had when first read: "
					 "the dump changed while it was read");
	}
	if (pass == PASS_KEEP && decode_keep(d, src, item))
		return frec_errf(err, item->offset, "out of memory");
	if (!src->records || rec->seq < src->min_seq)
		src->min_seq = rec->seq;
	if (!src->records || rec->seq > src->max_seq)
		src->max_seq = rec->seq;
	src->last_seq = rec->seq;
	src->last_ts = rec->ts;
	src->records++;
	d->records++;
	if (pass == PASS_PRINT)
		decode_print(d, ring, rec, item->type, item->offset, item->text);
	return 0;
}

/*
 * @r made of a record of @ring, its site (d->site) and texts looked up:
 * what every output prints of it, but its caller's name and delta.
 */
static void decode_fill(struct frec_decoder *d, struct frec_ring_info *ring,
			const struct frec_raw_record *rec, unsigned int type,
			unsigned long long offset, const char *text, struct frec_decoded *r)
{
	/* Every field set here or by the caller: no memset() of it per record. */
	r->ring = ring;
	r->site = rec->site;
	r->event = type == FREC_RAW_EVENT;
	r->rec.seq = rec->seq;
	r->rec.ts = rec->ts;
	r->rec.cpu = rec->cpu;
	r->rec.ring = ring->name;
	r->rec.caller = rec->caller;
	r->rec.context = rec->context;
	r->rec.context_known = d->contexts;
	r->caller = NULL;
	r->delta = 0;
	r->line_len = 0;
	/* Its time picks its texts, its site names its format and caller. */
	if (d->formats)
		frec_formats_at(d->formats, rec->ts);
	d->site = rec->site < FREC_SITE_ID_LIMIT && d->sites ?
		  frec_sites_find(d->sites, rec->site) : NULL;
	if (type == FREC_RAW_EVENT) {
		decode_event_format(d, rec, offset, r);
	} else {
		r->rec.fmt = NULL;
		r->rec.args = NULL;
		r->rec.nr_args = 0;
		r->rec.text = text;
		r->rec.text_len = rec->len;
		r->msg = text;
		r->msg_len = rec->len;
	}
}

/*
 * --in-flight: a record of the dump into the list of spans in flight
 * (kmod/lib/frec_inflight.c), every record of a ring not skipped, the
 * filter's or not: the list is the whole dump's.  A begin is kept, to
 * print its line at the end.
 */
static void inflight_add(struct frec_decoder *d, const struct frec_ring_info *ring,
			 const struct frec_raw_record *rec, unsigned int type,
			 unsigned long long offset)
{
	struct frec_inflight_rec ir = {
		.ts = rec->ts, .seq = rec->seq, .ring = rec->ring, .cpu = rec->cpu,
		.global = ring->order == FREC_RING_ORDER_GLOBAL,
	};
	const struct frec_site *site;
	const char *fmt = NULL;

	if (type == FREC_RAW_EVENT && rec->site < FREC_SITE_ID_LIMIT) {
		site = d->sites ? frec_sites_find(d->sites, rec->site) : NULL;
		fmt = site ? site->format : NULL;
	} else if (type == FREC_RAW_EVENT && d->formats) {
		frec_formats_at(d->formats, rec->ts);
		fmt = frec_formats_find(d->formats, rec->site);
	}
	ir.kind = frec_span_kind(fmt);
	ir.end_id = rec->args[FREC_SPAN_END_ID];
	if (ir.kind == FREC_SPAN_BEGIN) {
		if (grow((void **)&d->inflight_begins, &d->inflight_cap, d->nr_inflight + 1,
			 sizeof(*d->inflight_begins), 64)) {
			d->inflight.err = -ENOMEM;
			return;
		}
		ir.ref = d->nr_inflight;
		d->inflight_begins[d->nr_inflight].rec = *rec;
		d->inflight_begins[d->nr_inflight++].offset = offset;
	}
	frec_inflight_add(&d->inflight, &ir);
}

/* frec_inflight_line()'s begin line: the kept begin @ref's, as dump prints it. */
static size_t inflight_line(void *ctx, u64 ref, char *buf, size_t size)
{
	struct frec_decoder *d = ctx;
	const struct frec_stored *st = &d->inflight_begins[ref];
	struct frec_decoded r;

	decode_fill(d, ring_find(d, st->rec.ring), &st->rec, FREC_RAW_EVENT, st->offset,
		    NULL, &r);
	return frec_format_line(buf, size, &r.rec, &d->env);
}

static void inflight_put(void *ctx, const char *s, size_t len)
{
	fwrite(s, 1, len, ctx);
}

/* --in-flight: the list, after the records (frec/previous/dump's lines). */
static void inflight_write(struct frec_decoder *d)
{
	const struct frec_text_sink sink = { inflight_put, d->out };
	u64 k, n;

	if (frec_inflight_done(&d->inflight)) {
		frec_warn(d, "out of memory: the spans in flight are not listed");
		return;
	}
	n = frec_inflight_lines(&d->inflight);
	for (k = 0; k < n; k++)
		frec_inflight_line(&d->inflight, k, &sink, inflight_line, d, d->line,
				   sizeof(d->line));
}

/* A record of @ring, in merged order: filtered, formatted and written. */
static void decode_print(struct frec_decoder *d, struct frec_ring_info *ring,
			 const struct frec_raw_record *rec, unsigned int type,
			 unsigned long long offset, const char *text)
{
	const struct frec_filter *f = d->opts.filter;
	struct frec_decoded r;
	int n;

	if (ring->skipped) {
		d->skipped++;
		return;
	}
	if (d->opts.in_flight)
		inflight_add(d, ring, rec, type, offset);
	if (!ring->selected || (f && !frec_filter_record(f, rec->cpu,
						       d->contexts ? rec->context : FREC_CTX_UNKNOWN,
						       rec->seq, rec->ts)))
		return;
	decode_fill(d, ring, rec, type, offset, text, &r);
	/* text= looks for its text in the line the dump prints, whatever -F. */
	if (f && f->text[0]) {
		r.line_len = frec_format_line(d->line, sizeof(d->line), &r.rec, &d->env);
		if (!frec_filter_text(f, d->line))
			return;
	}
	if (wants_message(d)) {
		n = decode_symbol(d, d->caller, sizeof(d->caller), rec->caller, 'S');
		if (n < 0)
			snprintf(d->caller, sizeof(d->caller), "0x%llx",
				 (unsigned long long)rec->caller);
		r.caller = d->caller;
	}
	if (d->opts.deltas) {
		r.delta = d->printed ? (long long)(rec->ts - d->prev_ts) : 0;
		d->prev_ts = rec->ts;
	}
	d->writer->record(d, &r);
	d->printed++;
}

/*
 * Print every record kept, merged as the module merges them: a source's
 * records are in order, the heap picks the next of all sources.
 */
static int decode_merge(struct frec_decoder *d)
{
	struct frec_merge_item *items;
	struct frec_merge m;
	struct frec_merge_key key;
	const struct frec_stored *st;
	struct frec_source *src;
	unsigned int i, source;
	size_t *next;

	if (!d->nr_sources)
		return 0;
	items = calloc(d->nr_sources, sizeof(*items));
	next = calloc(d->sources_cap, sizeof(*next));
	if (!items || !next) {
		free(items);
		free(next);
		return -1;
	}
	frec_merge_init(&m, items, (unsigned int)d->nr_sources, d->merge.by_seq);
	for (i = 0; i < d->sources_cap; i++) {
		src = &d->sources[i];
		next[i] = src->used ? src->head : FREC_STORED_NONE;
		if (next[i] == FREC_STORED_NONE)
			continue;
		key = merge_key(&d->stored[next[i]].rec);
		frec_merge_push(&m, i, &key);
	}
	while (frec_merge_pop(&m, &source)) {
		st = &d->stored[next[source]];
		decode_print(d, ring_find(d, st->rec.ring), &st->rec, st->rec.head.type,
			     st->offset, d->text + st->text);
		next[source] = st->next;
		if (next[source] == FREC_STORED_NONE)
			continue;
		key = merge_key(&d->stored[next[source]].rec);
		frec_merge_push(&m, source, &key);
	}
	free(items);
	free(next);
	return 0;
}

static int source_cmp(const void *a, const void *b)
{
	const struct frec_source *x = *(const struct frec_source * const *)a;
	const struct frec_source *y = *(const struct frec_source * const *)b;

	if (x->ring != y->ring)
		return x->ring < y->ring ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/*
 * --stats: per (ring, CPU), the records kept and the span of their seqs.
 * A per-CPU seq counts every record the CPU stored in the ring from 1, so
 * the seqs missing between the first and the last are records lost
 * (overwritten) before the dump was read, and the seqs before the first
 * are records stored before it that the dump no longer holds.  A global
 * seq is shared with other CPUs and rings: its gaps prove nothing, and
 * "-" says so.
 */
static int decode_stats(struct frec_decoder *d)
{
	struct frec_source **v;
	const struct frec_ring_info *ring;
	unsigned long long missing, total_missing = 0;
	size_t i, n = 0;

	v = calloc(d->nr_sources ? d->nr_sources : 1, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < d->sources_cap; i++) {
		if (!d->sources[i].used)
			continue;
		if (ring_find(d, d->sources[i].ring)->skipped)
			d->skipped += d->sources[i].records;
		else
			v[n++] = &d->sources[i];
	}
	qsort(v, n, sizeof(*v), source_cmp);
	fprintf(d->out, "# frec-decode stats: clock=%s order=%s", d->clock, d->order);
	/* Records of two CPUs less than a tick apart may tie (by CPU then). */
	if (d->trace_clock && d->trace_clock->known && d->trace_clock->tick_ns)
		fprintf(d->out, " tick=%uns", d->trace_clock->tick_ns);
	fputs("\n# ring id cpu records first_seq last_seq missing before\n", d->out);
	for (i = 0; i < n; i++) {
		ring = ring_find(d, v[i]->ring);
		fprintf(d->out, "%s %u %u %llu %llu %llu ", ring->name, v[i]->ring,
			v[i]->cpu, v[i]->records, (unsigned long long)v[i]->min_seq,
			(unsigned long long)v[i]->max_seq);
		if (ring->order == FREC_RING_ORDER_GLOBAL) {
			fputs("- -\n", d->out);
			continue;
		}
		missing = v[i]->max_seq - v[i]->min_seq + 1 - v[i]->records;
		total_missing += missing;
		fprintf(d->out, "%llu %llu\n", missing,
			(unsigned long long)v[i]->min_seq - 1);
	}
	fprintf(d->out, "# total records %llu missing %llu\n", d->records - d->skipped,
		total_missing);
	free(v);
	return 0;
}

/* A ring name of the filter that no ring of the dump has: reported. */
static bool filter_names_missing_ring(struct frec_decoder *d)
{
	const struct frec_filter_env env = { .ring_exists = ring_in_dump, .ctx = d };
	char msg[FREC_FILTER_MSG_MAX];

	if (!frec_filter_check_rings(d->opts.filter, &env, msg, sizeof(msg)))
		return false;
	if (d->errs)
		fprintf(d->errs, "frec-decode: %s: filter: %s in the dump\n", d->in_name, msg);
	return true;
}

/* Forget the sources (and their order), for another pass over the dump. */
static void decode_forget_sources(struct frec_decoder *d)
{
	if (d->sources)
		memset(d->sources, 0, d->sources_cap * sizeof(*d->sources));
	d->nr_sources = 0;
	d->nr_marks = 0;
	d->position = 0;
	d->records = 0;
}

/*
 * Read entries to the end of the dump, or to the first error, handling
 * records as @pass says (decode_record()); the rings are known already
 * when printing, from the pass that verified the order.
 *
 * Return: 0 at the end of the dump, 1 if PASS_VERIFY found a record out
 * of the merged order, or -1 with @err set; *@stop is where the entry it
 * stopped at starts (the end of the dump for 0).
 */
static int decode_pass(struct frec_decoder *d, struct frec_raw_reader *r,
		       enum decode_pass pass, unsigned long long *stop,
		       struct frec_err *err)
{
	struct frec_raw_item item;
	int ret;

	while ((ret = frec_raw_next(r, &item, err)) > 0) {
		if (item.type != FREC_RAW_RING)
			ret = decode_record(d, &item, pass, err);
		else if (pass != PASS_PRINT)
			ret = decode_ring(d, &item, err);
		else
			ret = 0;
		if (ret)
			break;
	}
	*stop = ret ? item.offset : r->offset;
	return ret;
}

/* Read the dump again from @start, up to @end; -1 with @err set if not. */
static int decode_reopen(struct frec_raw_reader *r, FILE *in, off_t start,
			 unsigned long long end, struct frec_err *err)
{
	frec_raw_close(r);
	if (fseeko(in, start, SEEK_SET))
		return frec_errf(err, 0, "cannot read the dump again: %s", strerror(errno));
	if (frec_raw_open(r, in, err))
		return -1;
	r->end = end;
	return 0;
}

/*
 * Print the dump's records in the merged order.  A dump the module wrote
 * is in that order already: if the input can be read again, a first pass
 * checks that it is (and stops at the first record that is not), and a
 * second prints each record as it reads it, keeping none.  Otherwise all
 * records are kept, per (ring, CPU) source, and merged at the end of the
 * dump.  The two print the same: a dump is in the merged order exactly
 * when merging it changes nothing.
 *
 * Return: 0 at the end of the dump, or -1 with @err set, after the
 * records before the error were printed (a prefix of each source: merged,
 * a prefix of the dump).
 */
static int decode_records(struct frec_decoder *d, struct frec_raw_reader *r,
			  FILE *in, off_t start, struct frec_err *err)
{
	struct frec_err first;
	unsigned long long stop;
	bool in_order = false;
	int ret = 0;

	if (d->opts.reread && start >= 0) {
		ret = decode_pass(d, r, PASS_VERIFY, &stop, &first);
		in_order = ret <= 0;
		decode_forget_sources(d);
		if (decode_reopen(r, in, start, in_order ? stop : ~0ULL, err)) {
			d->writer->begin(d);
			d->writer->end(d);
			return -1;
		}
	}
	d->writer->begin(d);
	if (in_order) {
		/* to where the first pass stopped; its error, if any, after */
		if (decode_pass(d, r, PASS_PRINT, &stop, err))
			ret = -1;
		else if (ret < 0)
			*err = first;
	} else {
		ret = decode_pass(d, r, PASS_KEEP, &stop, err);
		if (decode_merge(d) && !ret)
			ret = frec_errf(err, r->offset, "out of memory");
	}
	d->writer->end(d);
	/* The list judges the whole dump: none for a dump read in part. */
	if (d->opts.in_flight && !ret)
		inflight_write(d);
	return ret;
}

/**
 * frec_decode_stream() - decode a raw dump to the end
 * @d: the decoder, from frec_decoder_init().
 * @in: the raw dump.
 * @in_name: its name, for messages.
 *
 * Writes every selected record to d->out in the merged order (or, with
 * opts.stats, the table of sources instead).  An error in the dump stops
 * reading and is reported with its offset, after the records read before
 * it are written (a JSON array is closed).
 *
 * Context: userspace.
 * Return: FREC_EXIT_OK, FREC_EXIT_WARNINGS if something was reported but
 * decoding went to the end, FREC_EXIT_INPUT, or FREC_EXIT_USAGE if the
 * filter names a ring the dump does not have.
 */
int frec_decode_stream(struct frec_decoder *d, FILE *in, const char *in_name)
{
	off_t start = d->opts.reread ? ftello(in) : -1;
	struct frec_raw_reader r;
	unsigned long long stop;
	struct frec_err err;
	bool missing_ring = false;
	int ret;

	d->in_name = in_name;
	if (frec_raw_open(&r, in, &err)) {
		if (d->errs)
			fprintf(d->errs, "frec-decode: %s: offset %llu: %s\n",
				in_name, err.where, err.msg);
		frec_raw_close(&r);
		return FREC_EXIT_INPUT;
	}
	d->clock = r.clock;
	d->trace_clock = &r.trace_clock;
	d->raw_flags = r.flags;
	d->contexts = r.version >= FREC_RAW_VERSION_CONTEXT;
	d->tasks = &r.tasks;
	d->order = frec_format_order(r.flags);
	frec_merge_init(&d->merge, NULL, 0, r.flags & FREC_RAW_MERGE_BY_SEQ);
	if (d->opts.stats) {
		ret = decode_pass(d, &r, PASS_COUNT, &stop, &err);
		if (decode_stats(d) && !ret)
			ret = frec_errf(&err, r.offset, "out of memory");
	} else {
		ret = decode_records(d, &r, in, start, &err);
	}
	if (d->skipped)
		frec_warn(d, "%llu records of rings whose entries were skipped left out",
			  d->skipped);
	if (ret < 0 && d->errs)
		fprintf(d->errs, "frec-decode: %s: offset %llu: %s\n",
			in_name, err.where, err.msg);
	if (ret >= 0 && d->opts.filter)
		missing_ring = filter_names_missing_ring(d);
	d->clock = NULL;
	d->order = NULL;
	frec_raw_close(&r);
	if (fflush(d->out) || ferror(d->out)) {
		if (d->errs)
			fprintf(d->errs, "frec-decode: write error\n");
		return FREC_EXIT_INPUT;
	}
	if (ret < 0)
		return FREC_EXIT_INPUT;
	if (missing_ring)
		return FREC_EXIT_USAGE;
	return d->warnings ? FREC_EXIT_WARNINGS : FREC_EXIT_OK;
}
