// SPDX-License-Identifier: GPL-2.0
/*
 * frec_region_dump.c - a region image's records as the old boot's dump
 * printed them, with nothing but the image: frec/previous/dump and stats
 * in the module, and frec-decode's reading of a region image.
 *
 * frec_region_dump_build() reads every valid ring's parts once: each
 * whole record that names a valid site (a site entry, or a string of the
 * texts for a site without an id) is kept as its slot and its merge key,
 * every other one counted by reason, per part.  A part's records are put
 * in timestamp order (a CPU's timestamps rise in position order, lap by
 * lap), then the parts are merged with the readers' one engine
 * (frec_merge.c).  A line is formatted when it is asked for, from the
 * image, by the shared formatter (frec_format_line()) with lookups that
 * name addresses only through the region's own sites and texts, as
 * frec-decode names them through the sites and formats files made of the
 * same image (frec_region_text.c): a caller by the name its site gives
 * it, a %s by the texts' string holding its address; anything else prints
 * as the formatter prints an address it cannot name.  An address with
 * texts of several times (a buffer rewritten) gives each record the text
 * of its time: the one with the highest "from" below its timestamp.
 *
 * Bounds: the header's counts are claims (anyone can compute a checksum),
 * so nothing is sized by them: every table is at most the entries of its
 * section that lie in the image (frec_region_open()), every ring at most
 * its parts that start in the image, and, since ring entries whose parts
 * overlap an earlier ring's are corrupt (the builder gives each ring parts
 * of its own), the records kept are at most the image's whole slots.
 * Memory and time are linear in the image's size.  An honest region can
 * still be too large to index where kvmalloc() refuses more than INT_MAX
 * bytes: it is refused, with the size asked for.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stdio.h>
#include "frec_user.h"
#endif

#include "frec_inflight.h"
#include "frec_region_text.h"

/* Rejected records of each reason told, before only their count. */
#define FREC_REGION_TELL_MAX	8

/* Short names of the reasons, for stats' key=value columns. */
static const char *const frec_region_reject_keys[FREC_REGION_REJ_NR] = {
	[FREC_REGION_REJ_STATE] = "torn",
	[FREC_REGION_REJ_LENGTH] = "bad_length",
	[FREC_REGION_REJ_SITE] = "no_site",
	[FREC_REGION_REJ_CUT] = "cut",
	[FREC_REGION_REJ_NO_TEXT] = "no_text",
};

static int frec_region_name_cmp(const void *a, const void *b)
{
	const struct frec_region_name *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/*
 * Sort @names by address and time, and keep the first of each address
 * and time; return how many are left.
 */
static u32 frec_region_names_sort(struct frec_region_name *names, u32 nr)
{
	u32 i, kept = 0;

	sort(names, nr, sizeof(*names), frec_region_name_cmp, NULL);
	for (i = 0; i < nr; i++)
		if (!kept || names[i].addr != names[kept - 1].addr ||
		    names[i].from != names[kept - 1].from)
			names[kept++] = names[i];
	return kept;
}

/*
 * The name at the highest address at or below @addr, or NULL: of that
 * address's names, the one with the highest @from below @ts, else its
 * first.
 */
static const struct frec_region_name *
frec_region_name_find(const struct frec_region_name *names, u32 nr, u64 addr, u64 ts)
{
	u32 lo = 0, hi = nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (names[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	while (lo > 1 && names[lo - 2].addr == names[lo - 1].addr && names[lo - 1].from >= ts)
		lo--;
	return &names[lo - 1];
}

static void frec_region_bytes_trim(struct frec_region_bytes *b)
{
	b->len = strnlen(b->s, b->len);
}

/*
 * Zeroed room for @n entries of @size bytes, for @what, a table of the
 * section at @where; NULL with *@err -EFBIG (more than
 * FREC_REGION_ALLOC_MAX bytes) or -ENOMEM, and @d->msg and @d->where
 * saying which table and how large.  Does nothing once *@err is set, so
 * that a run of allocations is checked once, and tells the first failure.
 */
static void *frec_region_dump_alloc(struct frec_region_dump *d, u64 n, size_t size,
				    const char *what, u64 where, int *err)
{
	void *p;

	if (*err)
		return NULL;
	if (n > FREC_REGION_ALLOC_MAX / size) {
		d->where = where;
		snprintf(d->msg, sizeof(d->msg),
			 "%s: %llu entries of %zu bytes, more than can be allocated (%llu bytes)",
			 what, (unsigned long long)n, size,
			 (unsigned long long)FREC_REGION_ALLOC_MAX);
		*err = -EFBIG;
		return NULL;
	}
	p = kvcalloc(n, size, GFP_KERNEL | __GFP_NOWARN);
	if (!p) {
		d->where = where;
		snprintf(d->msg, sizeof(d->msg), "%s: no memory for %llu entries of %zu bytes",
			 what, (unsigned long long)n, size);
		*err = -ENOMEM;
	}
	return p;
}

/* The sites' validity, their callers and the texts, with the longest string. */
static int frec_region_dump_names(struct frec_region_dump *d)
{
	const struct frec_region_view *v = d->v;
	u32 nr_sites = v->nr_entries[FREC_REGION_SITES];
	u32 nr_texts = v->nr_entries[FREC_REGION_TEXTS], i;
	u64 sites_off = v->sect_off[FREC_REGION_SITES];
	u64 texts_off = v->sect_off[FREC_REGION_TEXTS];
	struct frec_region_site_info s;
	struct frec_region_text_info t;
	size_t longest = 0;
	u64 where;
	int err = 0;

	/* Counts in u64: one more than a u32 count must not wrap to none. */
	d->site_ok = frec_region_dump_alloc(d, (u64)nr_sites + 1, sizeof(*d->site_ok),
					    "site index", sites_off, &err);
	d->callers = frec_region_dump_alloc(d, (u64)nr_sites + 1, sizeof(*d->callers),
					    "caller index", sites_off, &err);
	d->texts = frec_region_dump_alloc(d, (u64)nr_texts + 1, sizeof(*d->texts),
					  "text index", texts_off, &err);
	if (err)
		return err;
	for (i = 1; i < nr_sites; i++) {
		d->site_ok[i] = max_t(int, frec_region_site_get(v, i, &s, &where), 0);
		if (d->site_ok[i] != 1)
			continue;
		frec_region_bytes_trim(&s.format);
		frec_region_bytes_trim(&s.caller_name);
		longest = max_t(size_t, longest, s.format.len);
		if (s.caller && s.caller_name.len)
			d->callers[d->nr_callers++] = (struct frec_region_name){
				.addr = s.caller, .rank = i, .text = s.caller_name };
		if (!(i & 1023))
			cond_resched();
	}
	for (i = 0; i < nr_texts; i++) {
		if (frec_region_text_get(v, i, &t, &where) != 1 ||
		    t.kind == FREC_REGION_TEXT_TASK)
			continue;
		frec_region_bytes_trim(&t.text);
		longest = max_t(size_t, longest, t.text.len);
		d->texts[d->nr_texts++] = (struct frec_region_name){
			.addr = t.addr, .from = t.from, .rank = i,
			.symbol = t.kind == FREC_REGION_TEXT_SYMBOL, .text = t.text };
		if (!(i & 1023))
			cond_resched();
	}
	d->nr_callers = frec_region_names_sort(d->callers, d->nr_callers);
	d->nr_texts = frec_region_names_sort(d->texts, d->nr_texts);
	d->fmt_size = longest + 1;
	d->fmt = frec_region_dump_alloc(d, d->fmt_size, 1, "format",
					v->sect_off[FREC_REGION_POOL], &err);
	d->payload = frec_region_dump_alloc(d, FREC_REGION_PAYLOAD_MAX, 1, "payload",
					    v->sect_off[FREC_REGION_PARTS], &err);
	d->text = frec_region_dump_alloc(d, FREC_RECORD_ARGS_TEXT_MAX + 1, 1, "text",
					 v->sect_off[FREC_REGION_PARTS], &err);
	return err;
}

/**
 * frec_region_dump_site_known() - does a site word name what can be printed?
 * @d: a dump built.
 * @site: a record's site word.
 * @ts: the record's timestamp (which text of an address is its).
 *
 * Context: Any context.
 * Return: true for the id of a valid site entry, or the address of a
 * valid string of the texts (the format of a site without an id).
 */
bool frec_region_dump_site_known(const struct frec_region_dump *d, u64 site, u64 ts)
{
	const struct frec_region_name *n;

	if (site < FREC_SITE_ID_LIMIT)
		return site < d->v->nr_entries[FREC_REGION_SITES] && d->site_ok[site] == 1;
	n = frec_region_name_find(d->texts, d->nr_texts, site, ts);
	return n && n->addr == site && !n->symbol;
}

static int frec_region_ring_cmp_parts(const void *a, const void *b)
{
	const struct frec_region_ring_info *x = a, *y = b;

	if (x->parts_offset != y->parts_offset)
		return x->parts_offset < y->parts_offset ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int frec_region_ring_cmp_id(const void *a, const void *b)
{
	const struct frec_region_ring_info *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void frec_region_tell(const struct frec_region_report *rep, u64 where,
			     const char *what, const char *why)
{
	if (rep && rep->bad)
		rep->bad(rep->ctx, where, what, why);
}

/*
 * The valid rings, by index; a ring whose parts overlap another's (the
 * one at the lower offset, or of the lower index at the same one) is
 * corrupt: no valid region has two.
 */
static int frec_region_dump_rings(struct frec_region_dump *d,
				  const struct frec_region_report *rep)
{
	const struct frec_region_view *v = d->v;
	u32 nr = v->nr_entries[FREC_REGION_RINGS], i, kept = 0;
	struct frec_region_ring_info *r;
	u64 where, end = 0;
	int ret = 0;

	/* One more than the entries: the last one read may be unused or corrupt. */
	d->rings = frec_region_dump_alloc(d, (u64)nr + 1, sizeof(*d->rings), "ring index",
					  v->sect_off[FREC_REGION_RINGS], &ret);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		ret = frec_region_ring_get(v, i, &d->rings[d->nr_rings], &where);
		if (ret < 0) {
			frec_region_tell(rep, where, "ring entry",
					 "corrupt (checksum, bounds or name), its records skipped");
			d->bad_rings++;
		}
		if (ret == 1)
			d->nr_rings++;
	}
	sort(d->rings, d->nr_rings, sizeof(*d->rings), frec_region_ring_cmp_parts, NULL);
	for (i = 0; i < d->nr_rings; i++) {
		r = &d->rings[i];
		if (kept && r->parts_offset < end) {
			frec_region_tell(rep, v->sect_off[FREC_REGION_RINGS] +
					 (u64)r->id * sizeof(struct frec_region_ring),
					 "ring entry",
					 "parts overlap another ring's, its records skipped");
			d->bad_rings++;
			continue;
		}
		end = r->parts_offset + r->nr_slots * FREC_SLOT_BYTES * r->nr_cpus;
		d->rings[kept++] = *r;
	}
	d->nr_rings = kept;
	sort(d->rings, d->nr_rings, sizeof(*d->rings), frec_region_ring_cmp_id, NULL);
	return 0;
}

static int frec_region_rec_cmp(const void *a, const void *b)
{
	const struct frec_region_rec *x = a, *y = b;

	if (x->key.ts != y->key.ts)
		return x->key.ts < y->key.ts ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/*
 * struct frec_format_env's string(): the texts' string holding @addr, of
 * the time of the record being formatted (@d->ts).
 */
static int frec_region_dump_string(void *ctx, char *buf, size_t size, u64 addr)
{
	struct frec_region_dump *d = ctx;
	const struct frec_region_name *n = frec_region_name_find(d->texts, d->nr_texts, addr,
								 d->ts);
	size_t off, len;

	if (!n || n->symbol || addr - n->addr > n->text.len)
		return -1;
	off = addr - n->addr;
	len = min_t(size_t, n->text.len - off, size - 1);
	memcpy(buf, n->text.s + off, len);
	buf[len] = '\0';
	return len;
}

/* The format of @site (an id, or a format's address) into @d->fmt. */
static void frec_region_dump_format(struct frec_region_dump *d, u64 site)
{
	struct frec_region_site_info s;
	u64 where;
	size_t n;

	d->fmt[0] = '\0';
	if (site >= FREC_SITE_ID_LIMIT) {
		if (frec_region_dump_string(d, d->fmt, d->fmt_size, site) < 0)
			d->fmt[0] = '\0';
		return;
	}
	if (frec_region_site_get(d->v, site, &s, &where) != 1)
		return;
	frec_region_bytes_trim(&s.format);
	n = min_t(size_t, s.format.len, d->fmt_size - 1);
	memcpy(d->fmt, s.format.s, n);
	d->fmt[n] = '\0';
}

/*
 * struct frec_format_env's string() for a record of arguments: a %s
 * argument points at its copy in the payload, read into @d->payload
 * (frec_printk_args_unpack() made sure it ends there).
 */
static int frec_region_dump_payload_string(void *ctx, char *buf, size_t size, u64 addr)
{
	struct frec_region_dump *d = ctx;
	const char *p = (const char *)(unsigned long)addr;
	size_t len;

	if (p < (const char *)d->payload || p >= (const char *)d->payload + FREC_REGION_PAYLOAD_MAX)
		return -1;
	len = strnlen(p, (const char *)d->payload + FREC_REGION_PAYLOAD_MAX - p);
	len = min_t(size_t, len, size - 1);
	memcpy(buf, p, len);
	buf[len] = '\0';
	return len;
}

/*
 * A frec_printk() record of arguments (in @d->payload), of a ring whose
 * records hold at most @max_len bytes, formatted with its site's format
 * into @d->text, cut where the call's text would have been (as the
 * module's readers format it, frec_format_kernel_text()).
 * Return: the message's length, or -1 if its format does not fit its
 * payload (not decoded).
 */
static int frec_region_dump_unpack(struct frec_region_dump *d,
				   const struct frec_region_record *rec, u32 max_len)
{
	u64 args[FREC_PRINTK_ARGS_MAX];
	int n;

	frec_region_dump_format(d, rec->site);
	n = frec_printk_args_unpack(args, d->fmt, d->payload, rec->len);
	if (n < 0)
		return -1;
	return frec_format_message(d->text, min_t(u32, FREC_RECORD_ARGS_TEXT_MAX, max_len) + 1,
				   d->fmt, args, n, &d->args_env, NULL);
}

/* One part's records into @d->recs, in timestamp order; counted in @p. */
static void frec_region_dump_part(struct frec_region_dump *d, struct frec_region_part *p,
				  u64 part, const struct frec_region_report *rep)
{
	const struct frec_region_ring_info *ring = &d->rings[p->ring];
	struct frec_region_record rec;
	struct frec_region_rec *r;
	char what[FREC_REGION_RING_NAME_LEN + 32];
	u64 slot;
	int k;

	p->first = d->nr_recs;
	snprintf(what, sizeof(what), "ring %s cpu %u: record", ring->name, p->cpu);
	for (slot = 0; slot < ring->nr_slots; slot += k > 0 ? k : 1) {
		k = frec_region_record_get(d->v, ring, p->cpu, slot, &rec, d->payload,
					   FREC_REGION_PAYLOAD_MAX);
		if (k > 0 && !frec_region_dump_site_known(d, rec.site, rec.ts))
			k = -1 - (rec.site < d->v->nr_entries[FREC_REGION_SITES] &&
				  d->site_ok[rec.site] == 2 ?
				  FREC_REGION_REJ_NO_TEXT : FREC_REGION_REJ_SITE);
		if (!(slot & 1023))
			cond_resched();
		if (!k)
			continue;
		if (k < 0) {
			p->counts.rejected[-1 - k]++;
			if (++d->rejected[-1 - k] <= FREC_REGION_TELL_MAX ||
			    k == -1 - FREC_REGION_REJ_CUT)
				frec_region_tell(rep, ring->parts_offset +
						 ((u64)p->cpu * ring->nr_slots + slot) *
						 FREC_SLOT_BYTES, what,
						 frec_region_reject_name(-1 - k));
			/* The rest of the part lies past the image's end. */
			if (k == -1 - FREC_REGION_REJ_CUT)
				break;
			continue;
		}
		d->ts = rec.ts;
		if (rec.printk_args && frec_region_dump_unpack(d, &rec, ring->max_record_len) < 0) {
			p->counts.not_decoded++;
			continue;
		}
		r = &d->recs[d->nr_recs++];
		r->key = (struct frec_merge_key){ .ts = rec.ts, .seq = rec.seq,
						  .cpu = p->cpu, .ring = ring->id };
		r->slot = slot;
		r->part = part;
		p->counts.recovered++;
		p->counts.last_seq = max_t(u64, p->counts.last_seq, rec.seq);
	}
	p->nr = d->nr_recs - p->first;
	sort(d->recs + p->first, p->nr, sizeof(*d->recs), frec_region_rec_cmp, NULL);
}

/* The parts' records merged into @d->order, as every reader merges. */
static int frec_region_dump_merge(struct frec_region_dump *d)
{
	u64 parts_off = d->v->sect_off[FREC_REGION_PARTS];
	struct frec_merge_item *items;
	struct frec_merge m;
	u64 *next, n = 0, i;
	unsigned int src;
	int err = 0;

	items = frec_region_dump_alloc(d, d->nr_parts + 1, sizeof(*items), "merge",
				       parts_off, &err);
	next = frec_region_dump_alloc(d, d->nr_parts + 1, sizeof(*next), "merge",
				      parts_off, &err);
	d->order = frec_region_dump_alloc(d, d->nr_recs + 1, sizeof(*d->order),
					  "record order", parts_off, &err);
	if (err) {
		kvfree(items);
		kvfree(next);
		return err;
	}
	frec_merge_init(&m, items, d->nr_parts, d->by_seq);
	for (i = 0; i < d->nr_parts; i++) {
		next[i] = d->parts[i].first;
		if (d->parts[i].nr)
			frec_merge_push(&m, i, &d->recs[next[i]].key);
	}
	while (frec_merge_pop(&m, &src)) {
		d->order[n++] = next[src]++;
		if (next[src] < d->parts[src].first + d->parts[src].nr)
			frec_merge_push(&m, src, &d->recs[next[src]].key);
		if (!(n & 4095))
			cond_resched();
	}
	kvfree(items);
	kvfree(next);
	return 0;
}

static int frec_region_dump_put_name(char *buf, size_t size,
				     const struct frec_region_bytes *b)
{
	size_t n = min_t(size_t, b->len, size - 1);

	memcpy(buf, b->s, n);
	buf[n] = '\0';
	return b->len;
}

/*
 * struct frec_format_env's symbol(): the name the record's site gives
 * its first caller, else any site's name for a caller, else a symbol of
 * the texts (a code address of a module that went), at that address.
 */
static int frec_region_dump_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	struct frec_region_dump *d = ctx;
	const struct frec_region_name *n;

	if (ext == 'S' && addr && d->site.id && d->site.caller == addr &&
	    d->site.caller_name.len)
		return frec_region_dump_put_name(buf, size, &d->site.caller_name);
	if (ext == 'S' && addr) {
		n = frec_region_name_find(d->callers, d->nr_callers, addr, d->ts);
		if (n && n->addr == addr)
			return frec_region_dump_put_name(buf, size, &n->text);
	}
	n = frec_region_name_find(d->texts, d->nr_texts, addr, d->ts);
	if (n && n->addr == addr && n->symbol)
		return frec_region_dump_put_name(buf, size, &n->text);
	return -1;
}

/**
 * frec_region_dump_build() - read an image's records into the dump's order
 * @d: the dump; frec_region_dump_free() it after use, even on error.
 * @v: the image, open (FREC_REGION_VALID); kept, and read again by
 *	frec_region_dump_line().
 * @rep: where corrupt entries and records are told (the first few
 *	records of each reason, and every part cut by the image's end), or
 *	NULL.
 *
 * A ring's parts that lie past the end of an image cut short are not
 * read: they are told once per ring, and counted as cut, one each.
 *
 * Context: Process context; may sleep (allocates, and reschedules in
 * long loops).
 * Return: 0; or -ENOMEM, or -EFBIG for a region too large to index, with
 * @d->msg saying what could not be allocated and @d->where its section.
 */
int frec_region_dump_build(struct frec_region_dump *d,
			   const struct frec_region_view *v,
			   const struct frec_region_report *rep)
{
	const struct frec_region_ring_info *r;
	char what[FREC_REGION_RING_NAME_LEN + 32];
	u64 slots = 0, n = 0;
	u32 i, cpu;
	bool all_global = true;
	int err;

	memset(d, 0, sizeof(*d));
	d->v = v;
	d->env.symbol = frec_region_dump_symbol;
	d->env.string = frec_region_dump_string;
	d->env.ctx = d;
	d->args_env.string = frec_region_dump_payload_string;
	d->args_env.ctx = d;
	err = frec_region_dump_names(d) ?: frec_region_dump_rings(d, rep);
	if (err)
		return err;
	for (i = 0; i < d->nr_rings; i++) {
		r = &d->rings[i];
		d->nr_parts += r->cpus_in_image;
		slots += r->slots_in_image;
		all_global &= r->order == FREC_RING_ORDER_GLOBAL;
		if (r->cpus_in_image == r->nr_cpus)
			continue;
		d->rejected[FREC_REGION_REJ_CUT] += r->nr_cpus - r->cpus_in_image;
		snprintf(what, sizeof(what), "ring %s cpus %u-%u", r->name, r->cpus_in_image,
			 r->nr_cpus - 1);
		frec_region_tell(rep, r->parts_offset +
				 (u64)r->cpus_in_image * r->nr_slots * FREC_SLOT_BYTES,
				 what, "parts past the end of the image, not read");
	}
	d->by_seq = d->nr_rings && all_global;
	/* The merge's sources are unsigned int. */
	if (d->nr_parts > U32_MAX) {
		d->where = v->sect_off[FREC_REGION_PARTS];
		snprintf(d->msg, sizeof(d->msg), "%llu parts, more than can be merged",
			 (unsigned long long)d->nr_parts);
		return -EFBIG;
	}
	d->parts = frec_region_dump_alloc(d, d->nr_parts + 1, sizeof(*d->parts), "part index",
					  v->sect_off[FREC_REGION_PARTS], &err);
	d->recs = frec_region_dump_alloc(d, slots + 1, sizeof(*d->recs), "record index",
					 v->sect_off[FREC_REGION_PARTS], &err);
	if (err)
		return err;
	for (i = 0; i < d->nr_rings; i++)
		for (cpu = 0; cpu < d->rings[i].cpus_in_image; cpu++, n++) {
			d->parts[n].ring = i;
			d->parts[n].cpu = cpu;
			frec_region_dump_part(d, &d->parts[n], n, rep);
		}
	return frec_region_dump_merge(d);
}

/**
 * frec_region_dump_free() - free what frec_region_dump_build() allocated
 * @d: the dump.
 *
 * Context: Process context.
 */
void frec_region_dump_free(struct frec_region_dump *d)
{
	kvfree(d->site_ok);
	kvfree(d->callers);
	kvfree(d->texts);
	kvfree(d->rings);
	kvfree(d->parts);
	kvfree(d->recs);
	kvfree(d->order);
	kvfree(d->payload);
	kvfree(d->text);
	kvfree(d->fmt);
	memset(d, 0, sizeof(*d));
}

/**
 * frec_region_dump_header() - the dump's first lines
 * @d: a dump built.
 * @out: where they go.
 *
 * The clock is the region's; the order is the one its records are merged
 * in, as a raw dump's flags would say it.
 *
 * Context: Any context @out may be written from.
 */
void frec_region_dump_header(const struct frec_region_dump *d,
			     const struct frec_text_sink *out)
{
	char clock[FREC_REGION_CLOCK_LEN], line[128];
	unsigned int flags = 0, i;
	int n;

	memcpy(clock, d->v->hdr->clock, sizeof(clock) - 1);
	clock[sizeof(clock) - 1] = '\0';
	for (i = 0; clock[i]; i++)
		if (clock[i] < 0x21 || clock[i] > 0x7e)
			clock[i] = '?';
	if (le32_to_cpu(d->v->hdr->flags) & FREC_REGION_CLOCK_SYNCED)
		flags |= FREC_RAW_CLOCK_SYNCED;
	if (d->by_seq)
		flags |= FREC_RAW_MERGE_BY_SEQ;
	n = snprintf(line, sizeof(line), FREC_FORMAT_HEADER_FMT, clock, frec_format_order(flags),
		     d->v->version >= FREC_REGION_VERSION_CONTEXT ?
		     FREC_FORMAT_CONTEXT_COLUMN : "");
	out->write(out->ctx, line, min_t(size_t, n, sizeof(line) - 1));
}

/**
 * frec_region_dump_text() - a record's text, in a ring of records: its
 *	payload, or a frec_printk() record of arguments formatted
 * @d: a dump built.
 * @rec: the record, its payload read into @d->payload.
 * @ring: its ring.
 * @len: the text's length goes here.
 *
 * Context: Any context; uses @d's scratch space, so one caller at a time.
 * Return: the text (not NUL-terminated), valid until @d is used again.
 */
const char *frec_region_dump_text(struct frec_region_dump *d,
				  const struct frec_region_record *rec,
				  const struct frec_region_ring_info *ring, u32 *len)
{
	int n;

	if (!rec->printk_args) {
		*len = rec->len;
		return (const char *)d->payload;
	}
	d->ts = rec->ts;
	n = frec_region_dump_unpack(d, rec, ring->max_record_len);
	*len = n > 0 ? n : 0;
	return d->text;
}

/**
 * frec_region_dump_line() - the @i-th record's line, in the merged order
 * @d: a dump built.
 * @i: below @d->nr_recs.
 * @buf: where the line goes, NUL-terminated.
 * @size: its size (FREC_FORMAT_LINE_MAX, as the dump's lines).
 *
 * Context: Any context; uses @d's scratch space, so one caller at a time.
 * Return: the line's length, newline included.
 */
size_t frec_region_dump_line(struct frec_region_dump *d, u64 i, char *buf,
			     size_t size)
{
	const struct frec_region_rec *r = &d->recs[d->order[i]];
	const struct frec_region_part *p = &d->parts[r->part];
	const struct frec_region_ring_info *ring = &d->rings[p->ring];
	struct frec_region_record rec;
	struct frec_format_record fr;
	u64 where;

	memset(&fr, 0, sizeof(fr));
	memset(&d->site, 0, sizeof(d->site));
	/* Read whole when the dump was built, from the same bytes. */
	if (frec_region_record_get(d->v, ring, p->cpu, r->slot, &rec, d->payload,
				   FREC_REGION_PAYLOAD_MAX) <= 0)
		memset(&rec, 0, sizeof(rec));
	fr.seq = rec.seq;
	fr.ts = rec.ts;
	d->ts = rec.ts;
	fr.cpu = p->cpu;
	fr.ring = ring->name;
	fr.caller = rec.caller;
	fr.context = rec.context;
	fr.context_known = d->v->version >= FREC_REGION_VERSION_CONTEXT;
	if (rec.site < FREC_SITE_ID_LIMIT &&
	    frec_region_site_get(d->v, rec.site, &d->site, &where) == 1) {
		frec_region_bytes_trim(&d->site.format);
		frec_region_bytes_trim(&d->site.caller_name);
	}
	if (ring->kind) {
		fr.text = frec_region_dump_text(d, &rec, ring, &fr.text_len);
	} else {
		frec_region_dump_format(d, rec.site);
		fr.fmt = d->fmt;
		fr.args = rec.args;
		fr.nr_args = FREC_EVENT_MAX_ARGS;
	}
	return frec_format_line(buf, size, &fr, &d->env);
}

/* frec_inflight_line()'s begin line: the @ref-th record's, in the merged order. */
static size_t frec_region_dump_inflight_line(void *ctx, u64 ref, char *buf, size_t size)
{
	return frec_region_dump_line(ctx, ref, buf, size);
}

/**
 * frec_region_dump_inflight() - the spans in flight at the end of a dump
 * @d: a dump built.
 * @fi: zeroed; the list, done (frec_inflight_done()); frec_inflight_free()
 *	it after use, even on error.
 *
 * Every record shown goes into the list in the merged order, a begin
 * named by its index there, so that frec_region_dump_inflight_print()
 * prints its line as frec_region_dump_line() does.
 *
 * Context: Process context; may sleep (allocates, and reschedules in
 * long loops); uses @d's scratch space, so one caller at a time.
 * Return: 0, or -ENOMEM.
 */
int frec_region_dump_inflight(struct frec_region_dump *d, struct frec_inflight *fi)
{
	const struct frec_region_ring_info *ring;
	const struct frec_region_part *p;
	const struct frec_region_rec *r;
	struct frec_region_record rec;
	struct frec_inflight_rec ir;
	u64 i;

	for (i = 0; i < d->nr_recs; i++) {
		r = &d->recs[d->order[i]];
		p = &d->parts[r->part];
		ring = &d->rings[p->ring];
		/* Read whole when the dump was built, from the same bytes. */
		if (frec_region_record_get(d->v, ring, p->cpu, r->slot, &rec, d->payload,
					   FREC_REGION_PAYLOAD_MAX) <= 0)
			memset(&rec, 0, sizeof(rec));
		memset(&ir, 0, sizeof(ir));
		ir.ts = rec.ts;
		ir.seq = rec.seq;
		ir.ring = ring->id;
		ir.cpu = p->cpu;
		ir.global = ring->order == FREC_RING_ORDER_GLOBAL;
		ir.ref = i;
		/* Spans are events: a text record's site says nothing of one. */
		if (!ring->kind) {
			d->ts = rec.ts;
			frec_region_dump_format(d, rec.site);
			ir.kind = frec_span_kind(d->fmt);
			ir.end_id = rec.args[FREC_SPAN_END_ID];
		}
		if (frec_inflight_add(fi, &ir))
			return -ENOMEM;
		if (!(i & 4095))
			cond_resched();
	}
	return frec_inflight_done(fi);
}

/**
 * frec_region_dump_inflight_print() - a line of the list of spans in flight
 * @d: the dump @fi was made of.
 * @fi: frec_region_dump_inflight()'s list.
 * @k: the line, below frec_inflight_lines().
 * @out: where it goes.
 * @buf: room for a line, FREC_FORMAT_LINE_MAX bytes.
 *
 * Context: Any context @out may be written from; uses @d's scratch space,
 * so one caller at a time.
 */
void frec_region_dump_inflight_print(struct frec_region_dump *d,
				     const struct frec_inflight *fi, u64 k,
				     const struct frec_text_sink *out, char *buf)
{
	frec_inflight_line(fi, k, out, frec_region_dump_inflight_line, d, buf,
			   FREC_FORMAT_LINE_MAX);
}

/* One stats line: counts and the highest seq. */
static void frec_region_stats_line(const struct frec_text_sink *out, const char *who,
				   const struct frec_region_counts *c)
{
	char line[256];
	int n, i;

	n = snprintf(line, sizeof(line), "%-5s recovered=%llu", who,
		     (unsigned long long)c->recovered);
	for (i = 0; i < FREC_REGION_REJ_NR; i++)
		n += snprintf(line + n, sizeof(line) - n, " %s=%llu",
			      frec_region_reject_keys[i],
			      (unsigned long long)c->rejected[i]);
	n += snprintf(line + n, sizeof(line) - n, " not_decoded=%llu seq=%llu\n",
		      (unsigned long long)c->not_decoded,
		      (unsigned long long)c->last_seq);
	out->write(out->ctx, line, n);
}

static void frec_region_counts_add(struct frec_region_counts *sum,
				   const struct frec_region_counts *c)
{
	int i;

	sum->recovered += c->recovered;
	for (i = 0; i < FREC_REGION_REJ_NR; i++)
		sum->rejected[i] += c->rejected[i];
	sum->not_decoded += c->not_decoded;
	sum->last_seq += c->last_seq;
}

/**
 * frec_region_dump_totals() - the counts of every part, added up
 * @d: a dump built.
 * @sum: where they go (@sum->last_seq is the sum of the parts'); a part
 *	past the end of the image counts as one record cut.
 *
 * Context: Any context.
 */
void frec_region_dump_totals(const struct frec_region_dump *d,
			     struct frec_region_counts *sum)
{
	u64 i;
	u32 r;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < d->nr_parts; i++)
		frec_region_counts_add(sum, &d->parts[i].counts);
	for (r = 0; r < d->nr_rings; r++)
		sum->rejected[FREC_REGION_REJ_CUT] +=
			d->rings[r].nr_cpus - d->rings[r].cpus_in_image;
}

/**
 * frec_region_dump_stats() - per ring and CPU, what became of the records
 * @d: a dump built.
 * @out: where the lines go: per valid ring, "ring NAME", a line per CPU
 *	and one for all its CPUs, in the layout of a live ring's stats:
 *	"cpu0  recovered=N torn=N bad_length=N no_site=N cut=N
 *	no_text=N not_decoded=N seq=N", seq the highest recovered.  The CPUs whose
 *	parts lie past the end of an image cut short share one line,
 *	"cpuA-B", each counted as one record cut.
 *
 * Context: Any context @out may be written from.
 */
void frec_region_dump_stats(const struct frec_region_dump *d,
			    const struct frec_text_sink *out)
{
	const struct frec_region_ring_info *ring;
	struct frec_region_counts all, past;
	char who[FREC_REGION_RING_NAME_LEN + 24];
	u64 i = 0;
	u32 r;
	int n;

	for (r = 0; r < d->nr_rings; r++) {
		ring = &d->rings[r];
		n = snprintf(who, sizeof(who), "ring %s\n", ring->name);
		out->write(out->ctx, who, n);
		memset(&all, 0, sizeof(all));
		for (; i < d->nr_parts && d->parts[i].ring == r; i++) {
			snprintf(who, sizeof(who), "cpu%u", d->parts[i].cpu);
			frec_region_stats_line(out, who, &d->parts[i].counts);
			frec_region_counts_add(&all, &d->parts[i].counts);
		}
		if (ring->cpus_in_image < ring->nr_cpus) {
			memset(&past, 0, sizeof(past));
			past.rejected[FREC_REGION_REJ_CUT] = ring->nr_cpus - ring->cpus_in_image;
			snprintf(who, sizeof(who), "cpu%u-%u", ring->cpus_in_image,
				 ring->nr_cpus - 1);
			frec_region_stats_line(out, who, &past);
			frec_region_counts_add(&all, &past);
		}
		frec_region_stats_line(out, "all", &all);
	}
}
