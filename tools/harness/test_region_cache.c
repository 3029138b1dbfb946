// SPDX-License-Identifier: GPL-2.0
/*
 * test_region_cache.c - the black box behind a write-back cache, reset at
 * random points, read by the real reader (doc/blackbox.md, "Write-back
 * caches").
 *
 * The region is two images: what the CPUs see (the cache over memory),
 * which the writers write, and what memory holds, which a reset leaves.
 * A line of 64 bytes is dirty while the two differ; dirty lines reach
 * memory in random order (a few at every point the model stops at), or
 * when the writers write a range back (the write-back the kernel passes
 * to kmod/lib's frec_region_wb_t), whole lines at a time.  A reset stops
 * a boot at one of those points, every wb call included, and drops a
 * random share of the dirty lines.
 *
 * Each boot does what the module does, with the same kmod/lib code:
 * frec_region_begin() over what the boot before left, ring entries and
 * their parts as frec_persist_parts() writes them, site entries as
 * frec_persist_site() does, events into the parts as the ring core lays
 * them out (a slot, state word last), clears (a new store's entry and
 * parts taken as frec_persist_parts() takes them, by turns over two
 * parts per ring so that a store takes parts an earlier one had, the old
 * entry then retired as frec_persist_parts_retire() does), site ids
 * given again (a module goes: the records naming the id repointed at a
 * copy of its format, that copy's text sealed, the parts written back
 * as frec_persist_records_wb() does, the entry rewritten for the next
 * site by frec_region_site_write(), the kernel's code), a heartbeat
 * (frec_region_state_save() over the parts in use) every few records, and
 * sometimes a panic (the same write-back, as the kernel's).  After each
 * reset the memory image is read as frec/previous/ and frec-decode read
 * it (frec_region_open(),
 * frec_region_dump_build(), the entries' and records' _get()), and:
 *
 *   - never a mixed boot: every valid ring, site and record shown is of
 *     the boot the header names (each carries its boot's number);
 *   - never a record under another site's format: each carries its
 *     site's id and version, and the entry or text its word names in the
 *     image must be that site's (a record repointed at a text a reset
 *     came before the seal of may be rejected instead);
 *   - never a cleared store: a ring entry shown is the ring's store at
 *     the reset (or the one before, if the reset came before it was
 *     retired, or the next, if it came while that was taken), and every
 *     record under an entry is of that store (each carries its store's
 *     number, its generation);
 *   - the losses doc/blackbox.md allows, and no more: a reset in the
 *     take leaves the boot before's region whole, or none, or the new
 *     boot's empty; after it, the new boot's header and state, every ring and
 *     site entry sealed, and in each slot the record it held at the last
 *     heartbeat or panic, or a later one written there.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_test.h"
#include "frec_region_image.h"
#include "frec_region_text.h"

#define LINE		64
#define BLOCKS		16
#define REGION		(BLOCKS * FREC_REGION_BLOCK)
#define NR_LINES	(REGION / LINE)
#define RINGS		2
#define CPUS		2
#define SLOTS		32
#define SITES		8	/* ids 1 to SITES */
#define RECORDS		120	/* events a boot writes, at most */
#define BEAT_EVERY	16	/* events between heartbeats */
#define BOOTS		4	/* boots in a row over one memory */
#define TRIALS		2000
#define GENS		64	/* stores a ring has in a boot, at most */
#define CLEAR_ONE_IN	24	/* events per clear, about */
#define AREA		((u64)SLOTS * FREC_SLOT_BYTES * CPUS)	/* one store's parts */
#define GONE_ONE_IN	40	/* events per site id given back and again, about */
#define GONE_MAX	8	/* ids given again in a boot, at most (texts_max 16) */
#define VERS		(GONE_MAX + 1)	/* sites an id has in a boot, at most */
/* A gone site's format copy: an address, as frec_formats.c's copies have. */
#define TEXT_ADDR(id, ver)	(0xffffffffc0000000ULL + ((u64)(id) << 8) + (ver))

struct model {
	u8 cache[REGION];	/* what the CPUs see */
	u8 mem[REGION];		/* what a reset leaves */
	u64 rnd;
	unsigned int evict_per_point;	/* lines tried at each point */
	unsigned int drop_pct;		/* dirty lines a reset drops, % */
	u64 points, reset_at;
	jmp_buf reset;
	/* Cleared when the retirement's first write-back is done. */
	bool *retiring;
};

/* What a boot did before its reset: what the reader may and must show. */
struct truth {
	u32 boot;
	bool taken;			/* frec_region_begin() returned */
	bool ring_sealed[RINGS];	/* its store gen[] sealed */
	u32 gen[RINGS];			/* the ring's store now */
	bool taking[RINGS];		/* store gen + 1 being taken */
	bool retiring[RINGS];		/* store gen - 1 not yet retired */
	bool site_sealed[SITES + 1];
	u32 ver[SITES + 1];		/* the site that has the id now */
	u32 gone;			/* ids given again so far */
	/* Repointed at a text not sealed yet: may be rejected (no_site). */
	bool unnamed[RINGS][CPUS][SLOTS];
	u64 written[RINGS][CPUS];	/* events written into each part */
	u64 cur[RINGS][CPUS][SLOTS];	/* the seq each slot holds now */
	u64 durable[RINGS][CPUS][SLOTS];	/* ... at the last write-back */
};

/* What a reader shows of an image. */
struct shown {
	bool valid;
	u32 boot;
	bool state_ok;
	bool ring[RINGS][GENS];
	bool site[SITES + 1];
	u64 seq[RINGS][GENS][CPUS][SLOTS];
	u64 nr_recs;
};

static struct model *M;

static u64 rnd(void)
{
	M->rnd ^= M->rnd << 13;
	M->rnd ^= M->rnd >> 7;
	M->rnd ^= M->rnd << 17;
	return M->rnd;
}

static bool line_dirty(u64 i)
{
	return memcmp(M->cache + i * LINE, M->mem + i * LINE, LINE);
}

static void line_evict(u64 i)
{
	memcpy(M->mem + i * LINE, M->cache + i * LINE, LINE);
}

/* A point where the model may evict lines and may reset. */
static void point(void)
{
	unsigned int k;

	for (k = 0; k < M->evict_per_point; k++)
		line_evict(rnd() % NR_LINES);
	if (++M->points == M->reset_at)
		longjmp(M->reset, 1);
}

/* frec_region_wb_t of the model: the range's lines reach memory now. */
static void model_wb(const void *p, u64 len)
{
	u64 off = (const u8 *)p - M->cache, i;

	point();
	if (!len)
		return;
	for (i = off / LINE; i <= (off + len - 1) / LINE; i++)
		line_evict(i);
	if (M->retiring) {
		*M->retiring = false;
		M->retiring = NULL;
	}
}

static void reset_drop(void)
{
	u64 i;

	for (i = 0; i < NR_LINES; i++)
		if (line_dirty(i) && rnd() % 100 >= M->drop_pct)
			line_evict(i);
}

static u8 *sect(unsigned int s)
{
	const struct frec_region_header *h = (const void *)M->cache;

	return M->cache + le64_to_cpu(h->sect[s].offset);
}

static void ring_name(char *buf, size_t size, u32 boot, u32 r, u32 gen)
{
	snprintf(buf, size, "b%u_r%u_g%u", boot, r, gen);
}

/* Where ring @r's parts of its store @gen are: two by turns. */
static u64 area_off(u64 parts_off, u32 r, u32 gen)
{
	return parts_off + ((u64)r * 2 + gen % 2) * AREA;
}

/* frec_persist_parts(): entry @i, its parts zeroed, sealed. */
static void ring_take(struct truth *t, u64 parts_off, u32 i, u32 r, u32 gen,
		      u64 *parts_used)
{
	struct frec_region_ring *e = (void *)(sect(FREC_REGION_RINGS) + i * sizeof(*e));
	u64 off = area_off(parts_off, r, gen);

	frec_region_parts_zero(M->cache + off, AREA, model_wb);
	memset(e, 0, sizeof(*e));
	e->id = cpu_to_le32(i);
	e->kind = cpu_to_le32(0);
	e->order = cpu_to_le32(FREC_RING_ORDER_CPU);
	e->nr_cpus = cpu_to_le32(CPUS);
	e->nr_slots = cpu_to_le64(SLOTS);
	e->parts_offset = cpu_to_le64(off);
	ring_name(e->name, sizeof(e->name), t->boot, r, gen);
	frec_region_ring_seal(e, model_wb);
	if (off + AREA > *parts_used)
		*parts_used = off + AREA;
}

/* The format of site @id's @ver-th site in boot @boot. */
static void site_format(char *buf, size_t size, u32 boot, u32 id, u32 ver)
{
	snprintf(buf, size, "b%u s%u v%u %%llx", boot, id, ver);
}

/* frec_persist_site(): the entry of @id and its strings, by the module's code. */
static void site_write(struct truth *t, u32 id, u64 *pool_used)
{
	struct frec_region_site *e = (void *)(sect(FREC_REGION_SITES) + id * sizeof(*e));
	char s[FREC_REGION_SITE_TEXTS][32], fn[8];
	const char *text[FREC_REGION_SITE_TEXTS] = { "model", "model.c", fn, s[3] };
	u32 len[FREC_REGION_SITE_TEXTS], i, total = 0;

	snprintf(fn, sizeof(fn), "f%u", id);
	site_format(s[3], sizeof(s[3]), t->boot, id, t->ver[id]);
	for (i = 0; i < FREC_REGION_SITE_TEXTS; i++) {
		len[i] = strlen(text[i]);
		total += len[i];
	}
	frec_region_site_write(e, sect(FREC_REGION_POOL), *pool_used, id, 3, id,
			       text, len, model_wb);
	*pool_used += total;
	t->site_sealed[id] = true;
}

/*
 * Site @id's module goes (frec_modules.c): every record naming the id is
 * repointed at a copy of its format (frec_formats_module_going()), the
 * texts sweep seals that copy's text (frec_persist_text()), and the id is
 * given to a site loaded later (frec_sites_going(), frec_sites_coming()):
 * its entry rewritten for the new site.
 */
static void site_gone(struct truth *t, u32 id, u64 parts_off, u64 parts_used,
		      u64 *pool_used)
{
	struct frec_region_text *e = (void *)(sect(FREC_REGION_TEXTS) + t->gone * sizeof(*e));
	u64 addr = TEXT_ADDR(id, t->ver[id]);
	char fmt[32];
	u32 r, c, slot;
	bool any = false;

	for (r = 0; r < RINGS; r++)
		for (c = 0; c < CPUS; c++)
			for (slot = 0; slot < SLOTS; slot++) {
				struct frec_slot *s = (void *)(M->cache +
					area_off(parts_off, r, t->gen[r]) +
					((u64)c * SLOTS + slot) * FREC_SLOT_BYTES);

				if (!t->cur[r][c][slot] ||
				    le64_to_cpu(s->data[FREC_EVENT_SITE]) != id)
					continue;
				s->data[FREC_EVENT_SITE] = cpu_to_le64(addr);
				t->unnamed[r][c][slot] = true;
				any = true;
			}
	point();
	site_format(fmt, sizeof(fmt), t->boot, id, t->ver[id]);
	e->addr = cpu_to_le64(addr);
	e->from = 0;
	e->kind = cpu_to_le32(FREC_REGION_TEXT_STRING);
	frec_region_str_put(&e->text, sect(FREC_REGION_POOL), *pool_used, fmt, strlen(fmt));
	*pool_used += strlen(fmt);
	frec_region_text_seal(e, sect(FREC_REGION_POOL), model_wb);
	t->gone++;
	if (any)
		memset(t->unnamed, 0, sizeof(t->unnamed));
	/* frec_persist_records_wb(): the repointed words in memory first. */
	frec_region_parts_wb(M->cache, parts_used, model_wb);
	t->site_sealed[id] = false;
	t->ver[id]++;
	site_write(t, id, pool_used);
	point();
}

/* One boot: what the module does, stopped by a reset somewhere. */
static void boot_run(struct truth *t, u64 *parts_used)
{
	static const struct frec_region_trace_clock clock;
	struct frec_region_geometry geo = {
		.region_bytes = REGION,
		.boot_wall_ns = t->boot,
		.release = "model",
		.rings_max = 4,
		.sites_max = 16,
		.texts_max = 16,
		.pool_bytes = FREC_REGION_BLOCK,
	};
	struct frec_region_header hdr;
	u64 parts_off, ts = 0, seq, slot, pool_used = 0;
	u32 r, c, id, i, entry[RINGS], old_e, free_e;

	memset(geo.boot_id, 0xb0, sizeof(geo.boot_id));
	memcpy(geo.boot_id, &t->boot, sizeof(t->boot));
	if (frec_region_layout(&hdr, &geo))
		abort();
	/* The reset keeps nothing of the caches: they start as memory. */
	memcpy(M->cache, M->mem, REGION);
	point();
	frec_region_begin(M->cache, &hdr, t->boot, 0, &clock, model_wb);
	t->taken = true;
	point();
	parts_off = le64_to_cpu(hdr.sect[FREC_REGION_PARTS].offset);
	/* Each ring's first store: entry r. */
	for (r = 0; r < RINGS; r++) {
		entry[r] = r;
		ring_take(t, parts_off, r, r, 0, parts_used);
		t->ring_sealed[r] = true;
		point();
	}
	for (id = 1; id <= SITES; id++) {
		site_write(t, id, &pool_used);
		point();
	}
	/* Events, as the ring core lays one out: a slot, its state word last. */
	for (i = 0; i < RECORDS; i++) {
		struct frec_slot *s;

		r = rnd() % RINGS;
		if (rnd() % CLEAR_ONE_IN == 0 && t->gen[r] + 1 < GENS) {
			/*
			 * A clear: a new store in a free entry and the parts
			 * the store before the old one had, then the old
			 * entry retired (frec_ring_swap_store()).
			 */
			for (free_e = 0, old_e = 0; old_e < RINGS * 2; old_e++)
				if (old_e != entry[0] && old_e != entry[1])
					free_e = old_e;
			t->taking[r] = true;
			ring_take(t, parts_off, free_e, r, t->gen[r] + 1, parts_used);
			old_e = entry[r];
			entry[r] = free_e;
			t->gen[r]++;
			memset(t->written[r], 0, sizeof(t->written[r]));
			memset(t->cur[r], 0, sizeof(t->cur[r]));
			memset(t->durable[r], 0, sizeof(t->durable[r]));
			t->retiring[r] = true;
			t->taking[r] = false;
			point();
			M->retiring = &t->retiring[r];
			frec_region_ring_retire((void *)(sect(FREC_REGION_RINGS) +
							 old_e * sizeof(struct frec_region_ring)),
						model_wb);
			point();
		}
		if (rnd() % GONE_ONE_IN == 0 && t->gone < GONE_MAX)
			site_gone(t, 1 + rnd() % SITES, parts_off, *parts_used, &pool_used);
		c = rnd() % CPUS;
		seq = ++t->written[r][c];
		slot = (seq - 1) % SLOTS;
		s = (void *)(M->cache + area_off(parts_off, r, t->gen[r]) +
			     (u64)c * SLOTS * FREC_SLOT_BYTES + slot * FREC_SLOT_BYTES);
		s->data[FREC_EVENT_TS] = cpu_to_le64(++ts);
		id = 1 + rnd() % SITES;
		s->data[FREC_EVENT_SITE] = cpu_to_le64(id);
		s->data[FREC_EVENT_CALLER] = cpu_to_le64(0x1000);
		s->data[FREC_EVENT_ARG0] = cpu_to_le64(t->boot);
		s->data[FREC_EVENT_ARG0 + 1] = cpu_to_le64(seq);
		s->data[FREC_EVENT_ARG0 + 2] = cpu_to_le64(t->gen[r]);
		s->data[FREC_EVENT_ARG0 + 3] = cpu_to_le64((u64)id << 32 | t->ver[id]);
		s->state = cpu_to_le64(seq << FREC_SLOT_SEQ_SHIFT |
				       ((seq - 1) / SLOTS & 1 ? FREC_SLOT_LAP : 0));
		t->cur[r][c][slot] = seq;
		t->unnamed[r][c][slot] = false;
		point();
		if (i % BEAT_EVERY == BEAT_EVERY - 1 || rnd() % 64 == 0) {
			bool panic = rnd() % 8 == 0;

			/* The heartbeat, or a panic: the state, then write-back. */
			frec_region_state_save(M->cache,
					       panic ? FREC_REGION_END_PANIC :
					       FREC_REGION_END_NONE,
					       t->boot, ts, &clock,
					       *parts_used, model_wb);
			memcpy(t->durable, t->cur, sizeof(t->durable));
			point();
			if (panic)
				longjmp(M->reset, 1);
		}
	}
	longjmp(M->reset, 1);
}

/*
 * The site (id << 32 | version) whose format a record's site word names
 * in the image: the entry of an id, the text of an address; ~0 if none.
 */
static u64 site_named(const struct frec_region_view *v, u32 boot, u64 word)
{
	struct frec_region_site_info si;
	struct frec_region_text_info ti;
	const struct frec_region_bytes *fmt = NULL;
	char buf[48];
	u32 b, id, ver, i;
	u64 where;

	if (word < FREC_SITE_ID_LIMIT) {
		if (frec_region_site_get(v, word, &si, &where) == 1)
			fmt = &si.format;
	} else {
		for (i = 0; i < v->nr_entries[FREC_REGION_TEXTS] && !fmt; i++)
			if (frec_region_text_get(v, i, &ti, &where) == 1 && ti.addr == word)
				fmt = &ti.text;
	}
	if (!fmt || fmt->len >= sizeof(buf))
		return ~0ULL;
	memcpy(buf, fmt->s, fmt->len);
	buf[fmt->len] = 0;
	if (sscanf(buf, "b%u s%u v%u", &b, &id, &ver) != 3 || b != boot)
		return ~0ULL;
	return (u64)id << 32 | ver;
}

/* Read an image as frec/previous/ does; count what is not one boot's. */
static int image_read(struct ht_case *hc, const u8 *img, struct shown *sh)
{
	struct frec_region_view v;
	struct frec_region_dump d;
	struct frec_region_ring_info ri;
	struct frec_region_site_info si;
	struct frec_region_record rec;
	char msg[FREC_REGION_MSG_MAX], name[FREC_REGION_RING_NAME_LEN];
	unsigned int rb, ring, gen, sb, sid;
	u8 buf[64];
	u64 where, k;
	u32 i;
	int mixed = 0;

	memset(sh, 0, sizeof(*sh));
	if (frec_region_open(&v, img, REGION, msg, sizeof(msg), &where) != FREC_REGION_VALID)
		return 0;
	sh->valid = true;
	memcpy(&sh->boot, v.hdr->boot_id, sizeof(sh->boot));
	sh->state_ok = v.state_ok;
	for (i = 0; i < v.nr_entries[FREC_REGION_RINGS]; i++) {
		if (frec_region_ring_get(&v, i, &ri, &where) != 1)
			continue;
		if (sscanf(ri.name, "b%u_r%u_g%u", &rb, &ring, &gen) != 3 || rb != sh->boot ||
		    ring >= RINGS || gen >= GENS) {
			ht_fail(hc, __FILE__, __LINE__, "boot %u's region shows ring %s",
				sh->boot, ri.name);
			mixed++;
			continue;
		}
		sh->ring[ring][gen] = true;
	}
	for (i = 1; i < v.nr_entries[FREC_REGION_SITES]; i++) {
		if (frec_region_site_get(&v, i, &si, &where) != 1)
			continue;
		if (sscanf(si.format.s, "b%u s%u", &sb, &sid) != 2 || sb != sh->boot ||
		    sid != i || i > SITES) {
			ht_fail(hc, __FILE__, __LINE__, "boot %u's region shows site %u: %.*s",
				sh->boot, i, (int)si.format.len, si.format.s);
			mixed++;
			continue;
		}
		sh->site[i] = true;
	}
	if (frec_region_dump_build(&d, &v, NULL)) {
		ht_fail(hc, __FILE__, __LINE__, "dump: %s", d.msg);
		frec_region_dump_free(&d);
		return mixed + 1;
	}
	sh->nr_recs = d.nr_recs;
	for (k = 0; k < d.nr_recs; k++) {
		const struct frec_region_part *p = &d.parts[d.recs[k].part];
		const struct frec_region_ring_info *r = &d.rings[p->ring];
		u64 b, seq;

		if (frec_region_record_get(&v, r, p->cpu, d.recs[k].slot, &rec, buf,
					   sizeof(buf)) != 1)
			abort();
		b = rec.args[0];
		seq = rec.args[1];
		memcpy(name, r->name, sizeof(name));
		if (b != sh->boot || sscanf(name, "b%u_r%u_g%u", &rb, &ring, &gen) != 3 ||
		    rb != sh->boot || ring >= RINGS || gen >= GENS) {
			if (mixed++ < 3)
				ht_fail(hc, __FILE__, __LINE__,
					"boot %u's region shows ring %s cpu %u slot %llu"
					": boot %llu's record %llu",
					sh->boot, name, p->cpu, (u64)d.recs[k].slot, b, seq);
			continue;
		}
		if (rec.args[2] != gen) {
			if (mixed++ < 3)
				ht_fail(hc, __FILE__, __LINE__,
					"boot %u's ring %s cpu %u slot %llu: a record of store %llu",
					sh->boot, name, p->cpu, (u64)d.recs[k].slot, rec.args[2]);
			continue;
		}
		if (seq != rec.seq) {
			ht_fail(hc, __FILE__, __LINE__, "record of seq %llu misread",
				seq);
			mixed++;
			continue;
		}
		/* Its own site's format, also once its id was given again. */
		if (site_named(&v, sh->boot, rec.site) != rec.args[3]) {
			if (mixed++ < 3)
				ht_fail(hc, __FILE__, __LINE__,
					"boot %u's ring %s cpu %u slot %llu: a record of site %llu"
					" v%llu shown as site word %#llx, which names site %llu v%llu",
					sh->boot, name, p->cpu, (u64)d.recs[k].slot,
					rec.args[3] >> 32, rec.args[3] & 0xffffffff, rec.site,
					site_named(&v, sh->boot, rec.site) >> 32,
					site_named(&v, sh->boot, rec.site) & 0xffffffff);
			continue;
		}
		sh->seq[ring][gen][p->cpu][d.recs[k].slot] = seq;
	}
	frec_region_dump_free(&d);
	return mixed;
}

/* What boot @t left, after its reset: may it show @sh, @prev the boot before's? */
static int losses_check(struct ht_case *hc, const struct truth *t,
			const struct shown *sh, const struct shown *prev)
{
	u32 r, c, s, id, g;
	u64 got, want;

	if (!t->taken) {
		/*
		 * A reset in the take: the boot before's region whole, no
		 * region, or this boot's, empty.
		 */
		if (!sh->valid || (sh->boot == t->boot && !sh->nr_recs &&
				   !memchr(sh->ring, true, sizeof(sh->ring)) &&
				   !memchr(sh->site, true, sizeof(sh->site))))
			return 0;
		if (prev->valid && sh->boot == prev->boot &&
		    !memcmp(sh, prev, sizeof(*sh)))
			return 0;
		ht_fail(hc, __FILE__, __LINE__,
			"reset in boot %u's take: boot %u's region (%llu"
			" records) where boot %u's had %llu",
			t->boot, sh->valid ? sh->boot : 0, sh->nr_recs,
			prev->valid ? prev->boot : 0, prev->nr_recs);
		return 1;
	}
	if (!sh->valid || sh->boot != t->boot || !sh->state_ok) {
		ht_fail(hc, __FILE__, __LINE__,
			"boot %u took the region, a reset left %s %u%s", t->boot,
			sh->valid ? "the region of boot" : "no region", sh->valid ? sh->boot : 0,
			sh->valid && !sh->state_ok ? " without a state" : "");
		return 1;
	}
	for (r = 0; r < RINGS; r++) {
		if (t->ring_sealed[r] && !sh->ring[r][t->gen[r]]) {
			ht_fail(hc, __FILE__, __LINE__, "boot %u: sealed ring %u store %u lost",
				t->boot, r, t->gen[r]);
			return 1;
		}
		for (g = 0; g < GENS; g++) {
			if (!sh->ring[r][g] || g == t->gen[r] ||
			    (g + 1 == t->gen[r] && t->retiring[r]) ||
			    (g == t->gen[r] + 1 && t->taking[r]))
				continue;
			ht_fail(hc, __FILE__, __LINE__,
				"boot %u: ring %u shows store %u, its store is %u%s", t->boot, r, g,
				t->gen[r], g < t->gen[r] ? " (a cleared store)" : "");
			return 1;
		}
	}
	for (id = 1; id <= SITES; id++)
		if (t->site_sealed[id] && !sh->site[id]) {
			ht_fail(hc, __FILE__, __LINE__, "boot %u: sealed site %u lost",
				t->boot, id);
			return 1;
		}
	for (r = 0; r < RINGS; r++)
		for (c = 0; c < CPUS; c++)
			for (s = 0; s < SLOTS; s++) {
				got = sh->seq[r][t->gen[r]][c][s];
				want = t->durable[r][c][s];
				/* A record repointed at a text not yet sealed: rejected. */
				if (!got && t->unnamed[r][c][s])
					continue;
				if (got ? got < want || got > t->cur[r][c][s] ||
					  (got - 1) % SLOTS != s : want != 0) {
					ht_fail(hc, __FILE__, __LINE__,
						"boot %u ring %u cpu %u slot %u: shows %llu"
						", written back %llu, last written %llu",
						t->boot, r, c, s, got, want, t->cur[r][c][s]);
					return 1;
				}
			}
	return 0;
}

/* A boot, up to its reset: the locals of the caller are not setjmp()'s. */
static void boot_until_reset(struct truth *t, u64 *parts_used)
{
	if (!setjmp(M->reset))
		boot_run(t, parts_used);
}

static void cached_region_resets(struct ht_case *hc)
{
	static struct truth t;
	static struct shown prev, now;
	u64 parts_used;
	unsigned int trial, b, bad = 0, shown_old = 0, shown_none = 0;

	M = calloc(1, sizeof(*M));
	M->rnd = 0x2545f4914f6cdd1dULL;
	for (trial = 0; trial < TRIALS && bad < 5; trial++) {
		memset(M->mem, 0, REGION);
		M->evict_per_point = rnd() % 8;
		memset(&prev, 0, sizeof(prev));
		for (b = 1; b <= BOOTS && bad < 5; b++) {
			memset(&t, 0, sizeof(t));
			t.boot = trial * BOOTS + b;
			M->drop_pct = rnd() % 101;
			M->points = 0;
			/*
			 * A boot has about 250 points, some run to their end;
			 * one in three resets comes in or right after the take.
			 */
			M->reset_at = 1 + rnd() % (rnd() % 3 ? 280 : 12);
			parts_used = 0;
			boot_until_reset(&t, &parts_used);
			reset_drop();
			if (image_read(hc, M->mem, &now) ||
			    losses_check(hc, &t, &now, &prev)) {
				fprintf(stderr, "# trial %u boot %u: reset at point %llu"
					", %u lines evicted a point, %u%% dropped\n",
					trial, b, M->reset_at, M->evict_per_point,
					M->drop_pct);
				bad++;
			}
			shown_old += now.valid && now.boot != t.boot;
			shown_none += !now.valid;
			prev = now;
		}
	}
	fprintf(stderr, "# %u trials of %u boots: %u resets left the boot before's region, %u none\n",
		trial, BOOTS, shown_old, shown_none);
	free(M);
}

int main(int argc, char **argv)
{
	struct ht_case cases[] = {
		HT_CASE(cached_region_resets),
	};

	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
