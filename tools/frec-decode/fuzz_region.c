// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_region.c - libFuzzer target for the black box reader, aware of the
 * region's structure.
 *
 * fuzz_decode.c feeds the reader raw bytes, which almost never carry a
 * valid checksum: the header and every entry are refused before their
 * counts and offsets are used.  Here the input is a list of choices a
 * region image is built from, and every checksum is made valid with the
 * module's own builder (kmod/lib/frec_region_build.c, frec_region_csum.c),
 * so that what the reader must not trust is what it reads:
 *
 *   the image: 6 to FUZZ_IMAGE_BLOCKS blocks, maybe cut anywhere in its
 *     last two;
 *   the header: region_bytes (the image's, a little more, 1 TiB, any),
 *     each section's offset, bytes and entries (honest, claiming up to
 *     2^32 - 1 entries, or raw numbers), each sealed;
 *   ring entries: kind, order, nr_cpus (a few, or up to what the region
 *     claims), nr_slots, parts_offset (next to the previous ring's,
 *     overlapping it, or anywhere), max_record_len, name;
 *   site and text entries: strings from a small dictionary or from the
 *     input, at offsets in the pool or anywhere, callers, addresses;
 *   record slots: events and records of one or more slots, whole or torn,
 *     naming valid sites, texts or nothing, frec_printk() arguments;
 *     caller words of every context and saved callers' numbers, in a
 *     region of version 3 or 2.
 *
 * A choice past the input's end reads as 0: the empty input is an honest
 * region with a ring, sites, texts and records.  The image is handed, in
 * a buffer of exactly its length, to what frec-decode runs on one:
 * frec_region_decode_open() (frec_region_open(), the sites and texts
 * written, frec_region_dump_build(), every record read), the sites and
 * formats parsed and the records decoded, then what --previous= prints:
 * the dump's header and every line, stats and totals.  Output goes to
 * /dev/null.  A crash, a sanitizer report, a leak, a hang, an allocation
 * larger than the image could need (-malloc_limit_mb), or a count that
 * disagrees with another (abort()) is what is looked for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frec_caller_word.h"
#include "frec_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_IMAGE_BLOCKS	24
#define FUZZ_BUF_BYTES		(FUZZ_IMAGE_BLOCKS * FREC_REGION_BLOCK)
#define FUZZ_RINGS_MAX		6
#define FUZZ_SITES_MAX		40
#define FUZZ_TEXTS_MAX		40
#define FUZZ_STRS_MAX		48
#define FUZZ_RECORDS_MAX	600

/* The input, read as choices. */
struct fuzz_choices {
	const uint8_t *p;
	size_t n;
};

/* The next @bytes of the input, little-endian; 0 past its end. */
static u64 take(struct fuzz_choices *c, unsigned int bytes)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < bytes && c->n; i++, c->p++, c->n--)
		v |= (u64)*c->p << (8 * i);
	return v;
}

/* A choice below @n (a byte of input, two for @n over 256). */
static u32 pick(struct fuzz_choices *c, u32 n)
{
	return n ? (u32)(take(c, n > 256 ? 2 : 1) % n) : 0;
}

static u64 round_block(u64 n)
{
	return (n + FREC_REGION_BLOCK - 1) / FREC_REGION_BLOCK * FREC_REGION_BLOCK;
}

/* Strings the entries point at: formats that take each kind of argument. */
static const char *const fuzz_words[] = {
	"frec", "f.c", "fn", "irq %d status %#lx", "%s: %.*s %pS %ps %pB",
	"> work %s", "< work %s", "\x1f< span %u", "\x1f> span", "%-*c|%08.3lld",
	"bad %y", "frec_fn+0x10/0x100 [frec]", "do_work+0x4/0x300", "alpha",
	"a string\twith a tab\n", "%s %s %s %s %s %s %s %s", "",
};

/* Addresses of texts, and of formats of sites without an id. */
static const u64 fuzz_addrs[] = {
	0xffffffffc0a80000ULL, 0xffffffffc0a80020ULL, 0xffffffffc0a80060ULL,
	0xffffffff82000000ULL, 0xffffffff82000008ULL, 0xffffffffc0a00010ULL,
	FREC_SITE_ID_LIMIT, FREC_CALLER_SAVED_KEY | 1, FREC_CALLER_SAVED_KEY | 0xffffffffU,
};

#define FUZZ_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* An address of those: a caller, a text's; the first by default. */
static u64 fuzz_addr(struct fuzz_choices *c)
{
	return fuzz_addrs[pick(c, FUZZ_ARRAY_SIZE(fuzz_addrs))];
}

/*
 * A record's caller word: an address in a context, a saved name's number
 * (a region of version 3, uapi/frec_raw.h "The caller word"), a whole
 * address (version 2), or any word.  Contexts of every kind, with pids at
 * their limits, and bits no writer sets.
 */
static u64 fuzz_caller_word(struct fuzz_choices *c)
{
	static const u32 pids[] = { 0, 1, FREC_CTX_PID_MASK };
	static const u32 numbers[] = { 0, 1, 0x7fffffffU, 0xffffffffU };
	u32 context = pick(c, 4) << FREC_CTX_KIND_SHIFT;

	context |= pick(c, 4) == 3 ? (u32)take(c, 4) : pids[pick(c, 3)];
	switch (pick(c, 4)) {
	case 0: case 1:
		return frec_caller_word(fuzz_addr(c), FREC_CALLER_BASE, context);
	case 2:
		return frec_caller_word_saved(numbers[pick(c, 4)], context);
	default:
		return pick(c, 2) ? fuzz_addr(c) : take(c, 8);
	}
}

/* The image being built, and what was written into it. */
struct fuzz_region {
	u8 *img;
	u64 sect_off[FREC_REGION_NR_SECT];
	u64 sect_bytes[FREC_REGION_NR_SECT];
	u32 nr[FREC_REGION_NR_SECT];
	struct frec_region_str strs[FUZZ_STRS_MAX];
	u32 nr_strs;
	u32 nr_sites;
	u64 text_addrs[FUZZ_TEXTS_MAX];
	u32 nr_texts;
	u32 records;
};

/* The pool's bytes, when the buffer holds the pool's start. */
static u8 *fuzz_pool(struct fuzz_region *r)
{
	return r->sect_off[FREC_REGION_POOL] < FUZZ_BUF_BYTES ?
	       r->img + r->sect_off[FREC_REGION_POOL] : NULL;
}

/* Do @str's bytes lie in the buffer (so that its entry can be sealed)? */
static bool fuzz_str_in_buf(const struct fuzz_region *r, const struct frec_region_str *str)
{
	u64 at = r->sect_off[FREC_REGION_POOL] + le32_to_cpu(str->off);

	return at <= FUZZ_BUF_BYTES && le32_to_cpu(str->len) <= FUZZ_BUF_BYTES - at;
}

/* Entry @i of table @sect, if the buffer holds it. */
static void *fuzz_entry(struct fuzz_region *r, unsigned int sect, u32 i, size_t size)
{
	u64 at = r->sect_off[sect] + (u64)i * size;

	return at + size <= FUZZ_BUF_BYTES ? r->img + at : NULL;
}

/*
 * The header: block 0 laid out by the builder, then its sections and size
 * replaced by the input's choices and the header sealed again.
 */
static void fuzz_header(struct fuzz_region *r, struct fuzz_choices *c, u64 image_bytes)
{
	static const u32 entry[FREC_REGION_NR_SECT] = {
		sizeof(struct frec_region_ring), sizeof(struct frec_region_site),
		sizeof(struct frec_region_text), 0, 0,
	};
	static const u32 honest_max[FREC_REGION_NR_SECT] = {
		FUZZ_RINGS_MAX, FUZZ_SITES_MAX, FUZZ_TEXTS_MAX, 0, 0,
	};
	struct frec_region_geometry geo = {
		.region_bytes = FREC_REGION_MIN_BYTES, .boot_id = "fuzz-boot-id-000",
		.release = "6.1.0-fuzz", .rings_max = 1, .sites_max = 1, .texts_max = 1,
	};
	struct frec_region_header *h = (void *)r->img;
	struct frec_region_state *copies[2] = {
		(void *)(r->img + FREC_REGION_STATE_OFF(0)),
		(void *)(r->img + FREC_REGION_STATE_OFF(1)),
	};
	struct frec_region_trace_clock clock = { 0 };
	u64 off = FREC_REGION_BLOCK, region, bytes;
	unsigned int i, mode;
	u32 nr;

	geo.flags = pick(c, 2);
	if (frec_region_layout(h, &geo))
		abort();
	for (i = 0; i < FREC_REGION_POOL; i++) {
		mode = pick(c, 8);
		if (mode < 5) {		/* honest */
			nr = honest_max[i] - pick(c, honest_max[i] + 1);
			bytes = round_block((u64)nr * entry[i] ?: 1);
		} else if (mode < 7) {	/* claims all but a few of 2^32 */
			nr = 0xffffffffU - pick(c, 4);
			bytes = round_block((u64)nr * entry[i]);
		} else {		/* any */
			nr = (u32)take(c, 4);
			bytes = take(c, 5) & ~(u64)(FREC_REGION_BLOCK - 1);
		}
		r->nr[i] = nr;
		r->sect_off[i] = off;
		r->sect_bytes[i] = bytes;
		off += bytes + (pick(c, 16) == 15 ? FREC_REGION_BLOCK : 0);
	}
	r->sect_off[FREC_REGION_POOL] = off;
	r->sect_bytes[FREC_REGION_POOL] = pick(c, 8) == 7 ? take(c, 5) & ~(u64)4095 :
					  (1 + pick(c, 2)) * (u64)FREC_REGION_BLOCK;
	off += r->sect_bytes[FREC_REGION_POOL];
	r->sect_off[FREC_REGION_PARTS] = off;
	switch (pick(c, 6)) {
	case 0: case 1: case 2:	/* the image's size, or the tables' and a block */
		region = image_bytes > off ? round_block(image_bytes) : off + FREC_REGION_BLOCK;
		break;
	case 3:			/* a little more than the image */
		region = round_block(image_bytes > off ? image_bytes : off) +
			 (1 + pick(c, 64)) * (u64)FREC_REGION_BLOCK;
		break;
	case 4:			/* the largest there is */
		region = FREC_REGION_MAX_BYTES;
		break;
	default:
		region = take(c, 6) & ~(u64)(FREC_REGION_BLOCK - 1);
	}
	/* The parts: the rest of the region, or a few blocks of it. */
	r->sect_bytes[FREC_REGION_PARTS] = region > off && pick(c, 4) != 3 ? region - off :
					   (1 + pick(c, 8)) * (u64)FREC_REGION_BLOCK;
	for (i = 0; i < FREC_REGION_NR_SECT; i++) {
		h->sect[i].offset = cpu_to_le64(r->sect_off[i]);
		h->sect[i].bytes = cpu_to_le64(r->sect_bytes[i]);
		h->sect[i].nr_entries = cpu_to_le32(r->nr[i]);
	}
	h->region_bytes = cpu_to_le64(region);
	/* Version 2's caller words are whole addresses, no context. */
	if (pick(c, 4) == 3)
		h->version = cpu_to_le32(FREC_REGION_VERSION_OLDEST);
	h->csum = 0;
	h->csum = cpu_to_le32(frec_region_csum(h, sizeof(*h)));

	clock.flags = pick(c, 4);
	clock.trace_offset = (s64)take(c, 2) - 30000;
	for (i = pick(c, 3); i; i--)
		frec_region_state_write(copies, h, pick(c, 5), 1000 * i, i, &clock);
}

/* The pool's strings: the dictionary's and the input's, or anywhere. */
static void fuzz_strings(struct fuzz_region *r, struct fuzz_choices *c)
{
	u8 *pool = fuzz_pool(r);
	u64 room = min_t(u64, r->sect_bytes[FREC_REGION_POOL],
			 pool ? FUZZ_BUF_BYTES - r->sect_off[FREC_REGION_POOL] : 0);
	u32 used = 0, len, i, j, n = FUZZ_STRS_MAX - pick(c, FUZZ_STRS_MAX);
	char word[64];
	const char *s;

	for (i = 0; i < n; i++) {
		struct frec_region_str *str = &r->strs[r->nr_strs++];

		switch (pick(c, 8)) {
		case 7:		/* anywhere */
			str->off = cpu_to_le32((u32)take(c, 4));
			str->len = cpu_to_le32((u32)take(c, 2));
			continue;
		case 6:		/* the input's bytes */
			len = pick(c, sizeof(word));
			for (j = 0; j < len; j++)
				word[j] = (char)take(c, 1);
			s = word;
			break;
		default:
			s = fuzz_words[(i + pick(c, FUZZ_ARRAY_SIZE(fuzz_words))) %
				       FUZZ_ARRAY_SIZE(fuzz_words)];
			len = strlen(s);
		}
		/* A NUL after it, sometimes: the reader must not need one. */
		if (!pool || used + len + 1 > room) {
			str->off = cpu_to_le32(used);
			str->len = cpu_to_le32(len);
			continue;
		}
		frec_region_str_put(str, pool, used, s, len);
		used += len + pick(c, 2);
	}
}

/* A string of the pool's: by default the @hint-th. */
static struct frec_region_str fuzz_str(struct fuzz_region *r, struct fuzz_choices *c,
				       u32 hint)
{
	return r->strs[(hint + pick(c, r->nr_strs)) % r->nr_strs];
}

static void fuzz_rings(struct fuzz_region *r, struct fuzz_choices *c)
{
	static const char *const names[] = { "events", "log", "hanoi_moves", "a" };
	u64 next = r->sect_off[FREC_REGION_PARTS], slots, cpus;
	u32 i, n = min_t(u32, r->nr[FREC_REGION_RINGS], FUZZ_RINGS_MAX);
	struct frec_region_ring *e;

	for (i = 0; i < n; i++) {
		e = fuzz_entry(r, FREC_REGION_RINGS, i, sizeof(*e));
		if (!e || pick(c, 8) == 7)	/* unused */
			continue;
		e->id = cpu_to_le32(pick(c, 16) == 15 ? (u32)take(c, 4) : i);
		e->kind = cpu_to_le32((i + pick(c, 2)) % 2);
		e->order = cpu_to_le32(pick(c, 2));
		switch (pick(c, 4)) {
		case 3:
			slots = take(c, 8);
			break;
		case 2:		/* up to the region's end */
			slots = 1ULL << pick(c, 41);
			break;
		default:
			slots = 2ULL << (pick(c, 7) + 4) % 7;	/* 32 by default */
		}
		e->nr_slots = cpu_to_le64(slots);
		switch (pick(c, 6)) {
		case 5:
			e->nr_cpus = cpu_to_le32((u32)take(c, 4));
			break;
		case 4:		/* as many as the parts section claims room for */
			cpus = 1;
			if (slots && slots < 1ULL << 40)
				cpus = min_t(u64, r->sect_bytes[FREC_REGION_PARTS] /
					     (slots * FREC_SLOT_BYTES), 0xffffffffU);
			e->nr_cpus = cpu_to_le32((u32)cpus);
			break;
		default:
			e->nr_cpus = cpu_to_le32(1 + pick(c, 4));
		}
		switch (pick(c, 8)) {
		case 7:
			e->parts_offset = cpu_to_le64(take(c, 8));
			break;
		case 6:		/* overlapping the previous ring's */
			e->parts_offset = cpu_to_le64(next - FREC_SLOT_BYTES * pick(c, 64));
			break;
		default:
			e->parts_offset = cpu_to_le64(next);
		}
		next = le64_to_cpu(e->parts_offset) +
		       le64_to_cpu(e->nr_slots) * FREC_SLOT_BYTES * le32_to_cpu(e->nr_cpus);
		e->max_record_len = cpu_to_le32(!e->kind ? 0 : pick(c, 4) == 3 ?
						(u32)take(c, 4) : 256 << pick(c, 9));
		snprintf(e->name, sizeof(e->name), "%s",
			 names[(i + pick(c, FUZZ_ARRAY_SIZE(names))) % FUZZ_ARRAY_SIZE(names)]);
		if (pick(c, 32) == 31)
			memset(e->name, 'x', sizeof(e->name));
		frec_region_ring_seal(e, NULL);
	}
}

static void fuzz_sites(struct fuzz_region *r, struct fuzz_choices *c)
{
	const u8 *pool = fuzz_pool(r);
	u32 id, flags, n = min_t(u32, r->nr[FREC_REGION_SITES], FUZZ_SITES_MAX);
	struct frec_region_site *e;

	for (id = 1; id < n; id++) {
		e = fuzz_entry(r, FREC_REGION_SITES, id, sizeof(*e));
		if (!e || pick(c, 8) == 7)
			continue;
		e->id = cpu_to_le32(pick(c, 32) == 31 ? (u32)take(c, 4) : id);
		e->level = cpu_to_le32(pick(c, 32) == 31 ? (u32)take(c, 4) : 1 + pick(c, 5));
		e->line = cpu_to_le32((u32)take(c, 2));
		e->module = fuzz_str(r, c, 0);
		e->file = fuzz_str(r, c, 1);
		e->function = fuzz_str(r, c, 2);
		e->format = fuzz_str(r, c, 3 + id);
		/* Most kept with texts; some without (no room); some bits unknown. */
		flags = pick(c, 4);
		e->flags = cpu_to_le32(flags == 3 ? (u32)take(c, 4) :
				       flags == 2 ? FREC_REGION_SITE_NO_TEXT : 0);
		if (pool && fuzz_str_in_buf(r, &e->module) && fuzz_str_in_buf(r, &e->file) &&
		    fuzz_str_in_buf(r, &e->function) && fuzz_str_in_buf(r, &e->format))
			frec_region_site_seal(e, pool, NULL);
		if (pick(c, 2)) {
			e->caller = cpu_to_le64(fuzz_addr(c));
			e->caller_name = fuzz_str(r, c, 11);
			if (pool && fuzz_str_in_buf(r, &e->caller_name))
				frec_region_site_seal_caller(e, pool, NULL);
		}
		r->nr_sites = id + 1;
	}
}

static void fuzz_texts(struct fuzz_region *r, struct fuzz_choices *c)
{
	const u8 *pool = fuzz_pool(r);
	u32 i, n = min_t(u32, r->nr[FREC_REGION_TEXTS], FUZZ_TEXTS_MAX);
	struct frec_region_text *e;

	for (i = 0; i < n; i++) {
		e = fuzz_entry(r, FREC_REGION_TEXTS, i, sizeof(*e));
		if (!e || pick(c, 8) == 7)
			continue;
		e->addr = cpu_to_le64(fuzz_addr(c) + (i + pick(c, 4)) * 8);
		e->kind = cpu_to_le32(pick(c, 16) == 15 ? (u32)take(c, 4) :
				      pick(c, 4) ? FREC_REGION_TEXT_STRING :
				      FREC_REGION_TEXT_SYMBOL);
		/*
		 * A task's name: a pid the records' contexts name (the fuzzed
		 * contexts' pids are few), or any other word; any length.
		 */
		if (pick(c, 4) == 3) {
			e->kind = cpu_to_le32(FREC_REGION_TEXT_TASK);
			e->addr = cpu_to_le64(pick(c, 2) ? pick(c, 8) : take(c, 8));
		}
		e->text = fuzz_str(r, c, 3 + i);
		/* A later text's time: any u64, in no order (each sweep's CPU clock). */
		e->from = cpu_to_le64(pick(c, 4) == 3 ? take(c, 8) : 0);
		if (pool && fuzz_str_in_buf(r, &e->text))
			frec_region_text_seal(e, pool, NULL);
		r->text_addrs[r->nr_texts++] = le64_to_cpu(e->addr);
	}
}

/* The slot at @pos of the part at @part, if the buffer holds it. */
static struct frec_slot *fuzz_slot(struct fuzz_region *r, u64 part, u64 slots, u64 pos)
{
	u64 at = part + (pos & (slots - 1)) * FREC_SLOT_BYTES;

	return at + FREC_SLOT_BYTES <= FUZZ_BUF_BYTES && at >= part ? (void *)(r->img + at) :
	       NULL;
}

/* A site word: a site's id, a text's address, or anything. */
static u64 fuzz_site_word(struct fuzz_region *r, struct fuzz_choices *c)
{
	switch (pick(c, 4)) {
	case 0: case 1:
		return r->nr_sites ? 1 + pick(c, r->nr_sites) : 1;
	case 2:
		return r->nr_texts ? r->text_addrs[pick(c, r->nr_texts)] : FREC_SITE_ID_LIMIT;
	default:
		return take(c, 8);
	}
}

/* One part's slots: records in position order, with gaps and damage. */
static void fuzz_part(struct fuzz_region *r, struct fuzz_choices *c,
		      const struct frec_region_ring *e, u64 part)
{
	u64 slots = le64_to_cpu(e->nr_slots), pos = pick(c, 8), seq = 1, ts = 1000;
	u64 lap, state, word;
	struct frec_slot *s;
	u32 len, k, i, j, n = (pick(c, 64) + 16) % 64;
	u8 *payload;

	if (slots < 2 || slots & (slots - 1))
		return;
	for (; n && r->records < FUZZ_RECORDS_MAX; n--, r->records++) {
		pos += pick(c, 8) == 7 ? pick(c, 16) : 0;
		len = !e->kind ? 0 : pick(c, 8) == 7 ? (u32)take(c, 2) : pick(c, 200);
		k = 1;
		while (e->kind && FREC_RECORD_HEAD_BYTES + (k - 1) * FREC_RECORD_CONT_BYTES < len)
			k++;
		if (pick(c, 16) == 15)
			k += pick(c, 3) - 1;	/* a length the slots disagree with */
		for (i = 0; i < k; i++) {
			s = fuzz_slot(r, part, slots, pos + i);
			if (!s)
				return;
			lap = (pos + i) & slots ? FREC_SLOT_LAP : 0;
			state = seq << FREC_SLOT_SEQ_SHIFT | lap | (i ? FREC_SLOT_CONT : 0);
			if (pick(c, 32) == 31)
				state |= FREC_SLOT_BUSY;	/* torn */
			if (pick(c, 64) == 63)
				state = take(c, 8);
			s->state = cpu_to_le64(state);
			payload = (u8 *)s->data;
			if (!i) {
				s->data[FREC_EVENT_TS] = cpu_to_le64(ts);
				s->data[FREC_EVENT_SITE] = cpu_to_le64(fuzz_site_word(r, c));
				s->data[FREC_EVENT_CALLER] = cpu_to_le64(fuzz_caller_word(c));
				if (!e->kind) {
					for (j = 0; j < FREC_EVENT_MAX_ARGS; j++)
						s->data[FREC_EVENT_ARG0 + j] =
							cpu_to_le64(take(c, pick(c, 9)));
					continue;
				}
				word = (u64)k << 32 | len | (pick(c, 2) ? FREC_RECORD_ARGS : 0);
				s->data[FREC_RECORD_LEN] = cpu_to_le64(word);
				payload = (u8 *)&s->data[FREC_RECORD_PAYLOAD];
				if (len && pick(c, 2)) {
					/* a %s argument: its copy right after the words */
					word = FREC_RECORD_ARG_STRING | 16;
					memcpy(payload, &word, 8);
					word = 7;
					memcpy(payload + 8, &word, 8);
					memcpy(payload + 16, "str", 4);
					continue;
				}
				memset(payload, (int)take(c, 1), FREC_RECORD_HEAD_BYTES);
				continue;
			}
			memset(payload, (int)take(c, 1), FREC_RECORD_CONT_BYTES);
		}
		pos += k;
		seq += 1 + (pick(c, 16) == 15);
		ts += pick(c, 16) == 15 ? (u64)-5 : 10;
	}
}

static void fuzz_records(struct fuzz_region *r, struct fuzz_choices *c)
{
	u32 i, cpu, n = min_t(u32, r->nr[FREC_REGION_RINGS], FUZZ_RINGS_MAX);
	const struct frec_region_ring *e;
	u64 part;

	for (i = 0; i < n; i++) {
		e = fuzz_entry(r, FREC_REGION_RINGS, i, sizeof(*e));
		if (!e || !e->csum)
			continue;
		for (cpu = 0; cpu < min_t(u32, le32_to_cpu(e->nr_cpus), 4); cpu++) {
			part = le64_to_cpu(e->parts_offset) +
			       (u64)cpu * le64_to_cpu(e->nr_slots) * FREC_SLOT_BYTES;
			/* (a ring whose parts are not slot-aligned is refused whole) */
			if (part < FUZZ_BUF_BYTES && !(part % FREC_SLOT_BYTES))
				fuzz_part(r, c, e, part);
		}
	}
}

static void fuzz_write(void *ctx, const char *s, size_t len)
{
	fwrite(s, 1, len, ctx);
}

/* What frec-decode does with an image, and what --previous= prints of it. */
static void fuzz_read(const u8 *image, u64 len, FILE *devnull)
{
	static struct frec_decoder d;
	static char line[FREC_FORMAT_LINE_MAX];
	struct frec_region_decode rd = { .name = "fuzz", .errs = devnull };
	const struct frec_text_sink sink = { fuzz_write, devnull };
	struct frec_decode_opts opts = { .output = FREC_OUT_TEXT, .in_flight = true };
	struct frec_inflight fi = { 0 };
	struct frec_formats formats = { 0 };
	struct frec_sites sites = { 0 };
	struct frec_region_counts sum;
	struct frec_err err;
	size_t n;
	u64 i;
	FILE *in;

	if (frec_region_decode_open(&rd, image, len, &err))
		goto out;
	frec_region_dump_totals(&rd.dump, &sum);
	/* Every record shown is counted, and takes a slot of the image. */
	if (sum.recovered != rd.dump.nr_recs || rd.dump.nr_recs > len / FREC_SLOT_BYTES)
		abort();
	frec_region_dump_header(&rd.dump, &sink);
	for (i = 0; i < rd.dump.nr_recs; i++) {
		n = frec_region_dump_line(&rd.dump, i, line, sizeof(line));
		if (!n || n >= sizeof(line) || line[n - 1] != '\n')
			abort();
		fwrite(line, 1, n, devnull);
	}
	/* The spans in flight: every begin listed is a record shown. */
	frec_region_dump_inflight(&rd.dump, &fi);
	if (fi.nr_open > fi.nr_begins || fi.nr_begins > rd.dump.nr_recs)
		abort();
	for (i = 0; i < frec_inflight_lines(&fi); i++)
		frec_region_dump_inflight_print(&rd.dump, &fi, i, &sink, line);
	frec_inflight_free(&fi);
	frec_region_dump_stats(&rd.dump, &sink);
	frec_region_decode_report(&rd);
	if (frec_sites_parse(&sites, rd.sites_text, rd.sites_len, &err) ||
	    frec_formats_parse_region(&formats, rd.formats_text, rd.formats_len, &err))
		goto out;
	in = fmemopen(rd.raw, rd.raw_len, "rb");
	if (!in)
		goto out;
	frec_decoder_init(&d, &opts, &formats, &sites, NULL, devnull, NULL);
	frec_decode_stream(&d, in, "fuzz");
	frec_decoder_free(&d);
	fclose(in);
out:
	frec_region_decode_free(&rd);
	frec_formats_free(&formats);
	frec_sites_free(&sites);
}

/* The image the choices @c make, into @r->img; return its length. */
static u64 fuzz_build(struct fuzz_region *r, struct fuzz_choices *c)
{
	u64 len;

	memset(r->img, 0, FUZZ_BUF_BYTES);
	len = (FUZZ_IMAGE_BLOCKS - pick(c, FUZZ_IMAGE_BLOCKS - 5)) * (u64)FREC_REGION_BLOCK;
	if (pick(c, 4) == 3)	/* cut short, maybe mid-slot */
		len -= 1 + pick(c, FREC_REGION_BLOCK * 2);
	fuzz_header(r, c, len);
	fuzz_strings(r, c);
	fuzz_rings(r, c);
	fuzz_sites(r, c);
	fuzz_texts(r, c);
	fuzz_records(r, c);
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* aligned as the region is: slots are read as struct frec_slot */
	static u8 buf[FUZZ_BUF_BYTES] __attribute__((aligned(FREC_SLOT_BYTES)));
	static FILE *devnull;
	struct fuzz_choices c = { data, size };
	struct fuzz_region r = { .img = buf };
	u64 len;
	u8 *image;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	len = fuzz_build(&r, &c);
	/* Exactly the image's bytes: a read past its end is a sanitizer report. */
	image = malloc(len);
	if (!image)
		abort();
	memcpy(image, buf, len);
	fuzz_read(image, len, devnull);
	free(image);
	return 0;
}
