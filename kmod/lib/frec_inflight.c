// SPDX-License-Identifier: GPL-2.0
/*
 * frec_inflight.c - the spans in flight at a dump's end.
 *
 * DOC: what the list promises
 *
 * A reader adds every record of a dump, in the dump's order, then asks
 * for the list.  A span is listed when its begin is in the dump and no
 * end in it names that begin: an end of the same ring whose
 * FREC_SPAN_END_ID word is the begin's (CPU, seq), wherever the merge put
 * the two (an end stamped by a CPU whose clock is behind may come first).
 * A span whose begin is not in the dump (overwritten, or rejected by the
 * reader) cannot be known: it is not listed; its end, if there, counts
 * among the ends that name a begin the dump lacks.
 *
 * Every span listed is "certain" or "maybe".  Had its end been stored,
 * it would be a record of the span's ring, on some CPU, stamped at or
 * after the begin.  A ring overwrites a CPU's oldest records first, and a
 * CPU's records are in timestamp order, so what a CPU of the ring can
 * have lost shows in its records' seqs:
 *
 * - a per-CPU seq above 1 at its oldest record: records before it, none
 *   stamped after it, are gone;
 * - a gap in its seqs (records lost or rejected in between): anything up
 *   to its newest record may be gone;
 * - a global-order ring's seqs are shared, and prove nothing: each of its
 *   CPUs counts as having lost records before its oldest.
 *
 * Each CPU of the ring thus bounds the timestamps of what it may have
 * lost; a span begun after every bound of its ring is "certain": no end
 * of it was stored and lost.  The others are "maybe": per-CPU rings that
 * overwrite at different rates leave a slow CPU's records older than a
 * busy one's oldest, and a span begun in between may have ended on the
 * busy CPU, in a record overwritten since.
 *
 * What "certain" does not cover: an end that was never stored (its site
 * or ring switched off, below the ring's level, or the end being written
 * when the machine stopped, a torn slot) leaves its span listed as
 * certain, which it is in that no end is recorded; and where the clock is
 * not synchronised across CPUs (the dump's order=time-approximate) an end
 * may be stamped before its begin by the clocks' skew, which the bounds
 * above do not allow for.
 *
 * Memory: 48 bytes a begin and 16 an end, in arrays that double as they
 * grow (so up to twice that), and 56 a (ring, CPU) in a table at most
 * half full; time O(n log n) in the spans.  An allocation that fails lists
 * nothing (-ENOMEM), rather than a list that misses spans.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#else
#include <limits.h>
#include <stdio.h>
#include "frec_user.h"
#endif

#include "frec_inflight.h"

/**
 * struct frec_inflight_begin - a span's begin
 * @ts: its timestamp.
 * @seq: its seq.
 * @ref: the caller's handle on it.
 * @pos: its place among the records added.
 * @ring: its ring's id.
 * @cpu: its CPU.
 * @certain: no lost record can have ended it (frec_inflight_done()).
 */
struct frec_inflight_begin {
	u64 ts;
	u64 seq;
	u64 ref;
	u64 pos;
	u32 ring;
	u32 cpu;
	bool certain;
};

/**
 * struct frec_inflight_end - a span's end
 * @id: its begin's name (frec_span_id()).
 * @ring: its ring's id.
 */
struct frec_inflight_end {
	u64 id;
	u32 ring;
};

/**
 * struct frec_inflight_src - one (ring, CPU)'s records
 * @first_ts: the oldest's timestamp.
 * @last_ts: the newest's.
 * @min_seq: the lowest seq.
 * @max_seq: the highest.
 * @count: records.
 * @ring: the ring's id.
 * @cpu: the CPU.
 * @global: a global-order ring.
 * @used: this slot holds a source.
 */
struct frec_inflight_src {
	u64 first_ts;
	u64 last_ts;
	u64 min_seq;
	u64 max_seq;
	u64 count;
	u32 ring;
	u32 cpu;
	bool global;
	bool used;
};

/*
 * Room for one more of @size bytes at *@p, which holds *@nr of *@cap;
 * 0 or -ENOMEM.  Copied, not reallocated: kvrealloc() is not on every
 * kernel frec builds for.
 */
static int frec_inflight_room(void **p, u64 *cap, u64 nr, size_t size)
{
	u64 n = *cap ? 2 * *cap : 64;
	void *q;

	if (nr < *cap)
		return 0;
	if (n > INT_MAX / size)
		return -ENOMEM;
	q = kvcalloc(n, size, GFP_KERNEL | __GFP_NOWARN);
	if (!q)
		return -ENOMEM;
	if (nr)
		memcpy(q, *p, nr * size);
	kvfree(*p);
	*p = q;
	*cap = n;
	return 0;
}

static u64 frec_inflight_src_slot(u64 cap, u32 ring, u32 cpu)
{
	return ((ring * 0x9e3779b1ULL) ^ (cpu * 0x85ebca6bULL)) & (cap - 1);
}

/* The source (@ring, @cpu), made if new; NULL if out of memory. */
static struct frec_inflight_src *frec_inflight_src_get(struct frec_inflight *fi,
						       u32 ring, u32 cpu)
{
	struct frec_inflight_src *s, *old = fi->srcs;
	u64 i, j, cap = fi->cap_srcs;

	if (2 * (fi->nr_srcs + 1) > cap) {
		cap = cap ? 2 * cap : 64;
		if (cap > INT_MAX / sizeof(*s))
			return NULL;
		s = kvcalloc(cap, sizeof(*s), GFP_KERNEL | __GFP_NOWARN);
		if (!s)
			return NULL;
		for (i = 0; i < fi->cap_srcs; i++) {
			if (!old[i].used)
				continue;
			j = frec_inflight_src_slot(cap, old[i].ring, old[i].cpu);
			while (s[j].used)
				j = (j + 1) & (cap - 1);
			s[j] = old[i];
		}
		kvfree(old);
		fi->srcs = s;
		fi->cap_srcs = cap;
	}
	i = frec_inflight_src_slot(fi->cap_srcs, ring, cpu);
	for (s = &fi->srcs[i]; s->used; s = &fi->srcs[i]) {
		if (s->ring == ring && s->cpu == cpu)
			return s;
		i = (i + 1) & (fi->cap_srcs - 1);
	}
	s->used = true;
	s->ring = ring;
	s->cpu = cpu;
	fi->nr_srcs++;
	return s;
}

/**
 * frec_inflight_add() - one record of the dump, in the dump's order
 * @fi: the list being made.
 * @r: the record.
 *
 * Context: Process context; may sleep (allocates).
 * Return: 0, or -ENOMEM (then, and after, nothing is listed).
 */
int frec_inflight_add(struct frec_inflight *fi, const struct frec_inflight_rec *r)
{
	struct frec_inflight_src *s;

	if (fi->err)
		return fi->err;
	s = frec_inflight_src_get(fi, r->ring, r->cpu);
	if (!s)
		goto nomem;
	if (!s->count || r->ts < s->first_ts)
		s->first_ts = r->ts;
	if (!s->count || r->ts > s->last_ts)
		s->last_ts = r->ts;
	if (!s->count || r->seq < s->min_seq)
		s->min_seq = r->seq;
	if (!s->count || r->seq > s->max_seq)
		s->max_seq = r->seq;
	s->global = r->global;
	s->count++;
	if (!fi->records || r->ts > fi->last_ts)
		fi->last_ts = r->ts;
	if (r->kind == FREC_SPAN_BEGIN) {
		if (frec_inflight_room((void **)&fi->begins, &fi->cap_begins, fi->nr_begins,
				       sizeof(*fi->begins)))
			goto nomem;
		fi->begins[fi->nr_begins++] = (struct frec_inflight_begin){
			.ts = r->ts, .seq = r->seq, .ref = r->ref, .pos = fi->records,
			.ring = r->ring, .cpu = r->cpu };
	} else if (r->kind == FREC_SPAN_END) {
		if (frec_inflight_room((void **)&fi->ends, &fi->cap_ends, fi->nr_ends,
				       sizeof(*fi->ends)))
			goto nomem;
		fi->ends[fi->nr_ends++] = (struct frec_inflight_end){
			.id = r->end_id, .ring = r->ring };
	}
	fi->records++;
	return 0;
nomem:
	fi->err = -ENOMEM;
	return fi->err;
}

static u64 frec_inflight_begin_id(const struct frec_inflight_begin *b)
{
	return frec_span_id(b->seq, b->cpu);
}

static int frec_inflight_begin_cmp(const void *a, const void *b)
{
	const struct frec_inflight_begin *x = a, *y = b;
	u64 i = frec_inflight_begin_id(x), j = frec_inflight_begin_id(y);

	if (x->ring != y->ring)
		return x->ring < y->ring ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int frec_inflight_end_cmp(const void *a, const void *b)
{
	const struct frec_inflight_end *x = a, *y = b;

	if (x->ring != y->ring)
		return x->ring < y->ring ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int frec_inflight_pos_cmp(const void *a, const void *b)
{
	const struct frec_inflight_begin *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int frec_inflight_src_cmp(const void *a, const void *b)
{
	const struct frec_inflight_src *x = a, *y = b;

	return x->ring < y->ring ? -1 : x->ring > y->ring;
}

/*
 * The timestamp up to which a CPU's records of a ring may have been lost
 * (the DOC block), in *@bound; false if its seqs show no loss.
 */
static bool frec_inflight_src_bound(const struct frec_inflight_src *s, u64 *bound)
{
	if (!s->global && s->max_seq - s->min_seq + 1 != s->count) {
		*bound = s->last_ts;
		return true;
	}
	if (s->global || s->min_seq > 1) {
		*bound = s->first_ts;
		return true;
	}
	return false;
}

/*
 * Whether a span of ring @ring begun at @ts is certain: begun after the
 * bound of every CPU of the ring.  @srcs: the sources, sorted by ring.
 */
static bool frec_inflight_certain(const struct frec_inflight_src *srcs, u64 nr,
				  u32 ring, u64 ts)
{
	u64 lo = 0, hi = nr, mid, bound;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (srcs[mid].ring < ring)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nr && srcs[lo].ring == ring; lo++)
		if (frec_inflight_src_bound(&srcs[lo], &bound) && ts <= bound)
			return false;
	return true;
}

/**
 * frec_inflight_done() - pair the spans added, and judge the open ones
 * @fi: the list, every record added.
 *
 * Context: Process context; may sleep (sorts).
 * Return: 0, or -ENOMEM if an add or this failed: nothing is listed.
 */
int frec_inflight_done(struct frec_inflight *fi)
{
	u64 i, j = 0, n = 0, open = 0, id;

	if (fi->err)
		return fi->err;
	/* (Sorting nothing would hand qsort() a NULL array in frec-decode.) */
	if (fi->nr_begins)
		sort(fi->begins, fi->nr_begins, sizeof(*fi->begins), frec_inflight_begin_cmp,
		     NULL);
	if (fi->nr_ends)
		sort(fi->ends, fi->nr_ends, sizeof(*fi->ends), frec_inflight_end_cmp, NULL);
	/* Both by (ring, name): one walk pairs them. */
	for (i = 0; i < fi->nr_begins; i++) {
		id = frec_inflight_begin_id(&fi->begins[i]);
		while (j < fi->nr_ends && (fi->ends[j].ring < fi->begins[i].ring ||
					   (fi->ends[j].ring == fi->begins[i].ring &&
					    fi->ends[j].id < id))) {
			fi->nr_orphans++;
			j++;
		}
		if (j < fi->nr_ends && fi->ends[j].ring == fi->begins[i].ring &&
		    fi->ends[j].id == id) {
			/* A begin has one end; a second would be an orphan. */
			j++;
			continue;
		}
		fi->begins[open++] = fi->begins[i];
	}
	fi->nr_orphans += fi->nr_ends - j;
	fi->nr_open = open;
	if (open)
		sort(fi->begins, open, sizeof(*fi->begins), frec_inflight_pos_cmp, NULL);
	/* The sources, compacted and by ring. */
	for (i = 0; i < fi->cap_srcs; i++)
		if (fi->srcs[i].used)
			fi->srcs[n++] = fi->srcs[i];
	if (n)
		sort(fi->srcs, n, sizeof(*fi->srcs), frec_inflight_src_cmp, NULL);
	for (i = 0; i < open; i++) {
		fi->begins[i].certain = frec_inflight_certain(fi->srcs, n, fi->begins[i].ring,
							      fi->begins[i].ts);
		fi->nr_certain += fi->begins[i].certain;
	}
	return 0;
}

/**
 * frec_inflight_lines() - how many lines the list prints
 * @fi: the list, done.
 *
 * Context: Any context.
 * Return: 0 if the dump holds no span record (or the list failed), else
 * a header line and one per span in flight.
 */
u64 frec_inflight_lines(const struct frec_inflight *fi)
{
	if (fi->err || (!fi->nr_begins && !fi->nr_ends))
		return 0;
	return 1 + fi->nr_open;
}

/**
 * frec_inflight_line() - one line of the list
 * @fi: the list, done.
 * @k: the line, below frec_inflight_lines(): 0 the header,
 *	"# in flight at the end [SECONDS]: N of M spans begun never ended
 *	(C certain, N - C maybe); O ends name a begin the dump lacks",
 *	then a span each, in the dump's order of their begins,
 *	"# in flight span=CPU/SEQ certain|maybe age=NSns: " and the begin's
 *	line, NSns its begin's timestamp's distance to the dump's last.
 * @out: where it goes.
 * @line: prints a begin's line.
 * @ctx: @line's first argument.
 * @buf: room for a line.
 * @size: its size (FREC_FORMAT_LINE_MAX, as the dump's lines).
 *
 * Every line starts with '#', so that a reader of the dump's record lines
 * skips them as it skips the header.
 *
 * Context: As @line and @out allow.
 */
void frec_inflight_line(const struct frec_inflight *fi, u64 k,
			const struct frec_text_sink *out, frec_inflight_line_fn line,
			void *ctx, char *buf, size_t size)
{
	const struct frec_inflight_begin *b;
	u64 sec = fi->last_ts;
	u32 ns = do_div(sec, NSEC_PER_SEC);
	size_t n;

	if (!k) {
		n = snprintf(buf, size,
			     "# in flight at the end [%5llu.%09u]: %llu of %llu spans begun never ended (%llu certain, %llu maybe); %llu ends name a begin the dump lacks\n",
			     (unsigned long long)sec, ns, (unsigned long long)fi->nr_open,
			     (unsigned long long)fi->nr_begins,
			     (unsigned long long)fi->nr_certain,
			     (unsigned long long)(fi->nr_open - fi->nr_certain),
			     (unsigned long long)fi->nr_orphans);
		out->write(out->ctx, buf, min_t(size_t, n, size - 1));
		return;
	}
	b = &fi->begins[k - 1];
	n = snprintf(buf, size, "# in flight span=%u/%llu %s age=%lluns: ", b->cpu,
		     (unsigned long long)frec_span_id_seq(frec_inflight_begin_id(b)),
		     b->certain ? "certain" : "maybe",
		     (unsigned long long)(fi->last_ts - b->ts));
	out->write(out->ctx, buf, min_t(size_t, n, size - 1));
	n = line(ctx, b->ref, buf, size);
	out->write(out->ctx, buf, n);
}

/**
 * frec_inflight_free() - free the list
 * @fi: the list; zeroed, to be made again.
 *
 * Context: Process context.
 */
void frec_inflight_free(struct frec_inflight *fi)
{
	kvfree(fi->begins);
	kvfree(fi->ends);
	kvfree(fi->srcs);
	memset(fi, 0, sizeof(*fi));
}
