// SPDX-License-Identifier: GPL-2.0
/*
 * frec_region.c - reading an image of frec's black box.
 *
 * Used by the module on the boot after (the region of the previous boot,
 * before anything new is recorded into it) and by frec-decode (an image
 * read from a file).  Nothing in the image is trusted: every offset and
 * length is checked against the image's size before it is followed, every
 * entry against its checksum, every record against its slots' state
 * words, and no loop runs longer than the image is large.  See
 * doc/blackbox.md for the layout and what each check protects against.
 */
#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#else
#include <stdio.h>
#include "frec_user.h"
#endif

#include "frec_caller_word.h"
#include "frec_filter.h"
#include "frec_region_image.h"

/* The layout is read on other machines and by other builds: it must not move. */
static_assert(sizeof(struct frec_region_header) == 312 &&
	      FREC_REGION_HEADER_V3_BYTES == 304 &&
	      sizeof(struct frec_region_state) == 64 &&
	      sizeof(struct frec_region_ring) == 88 &&
	      sizeof(struct frec_region_site) == 80 &&
	      sizeof(struct frec_region_text) == 32,
	      "uapi/frec_region.h layout changed: bump FREC_REGION_VERSION");

/* Loads that neither trust the image's alignment nor its byte order. */
static u32 frec_region_get32(const void *p)
{
	__le32 v;

	memcpy(&v, p, sizeof(v));
	return le32_to_cpu(v);
}

static u64 frec_region_get64(const void *p)
{
	__le64 v;

	memcpy(&v, p, sizeof(v));
	return le64_to_cpu(v);
}

/* Does [@off, @off + @len) lie inside [0, @size)? */
static bool frec_region_inside(u64 off, u64 len, u64 size)
{
	return off <= size && len <= size - off;
}

static bool frec_region_all_zero(const u8 *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/* The checksum of @len bytes at @p, with the 4-byte field at @csum_off as 0. */
static u32 frec_region_csum_zeroed(u32 crc, const u8 *p, size_t len,
				   size_t csum_off)
{
	static const u8 zero[4];

	crc = frec_region_csum_add(crc, p, csum_off);
	crc = frec_region_csum_add(crc, zero, sizeof(zero));
	return frec_region_csum_add(crc, p + csum_off + 4, len - csum_off - 4);
}

static int frec_region_fail(char *msg, size_t msg_size, u64 *where, u64 at,
			    int verdict, const char *what)
{
	*where = at;
	snprintf(msg, msg_size, "%s", what);
	return verdict;
}

static const struct {
	u32 entry_bytes;
	const char *name;
} frec_region_sects[FREC_REGION_NR_SECT] = {
	[FREC_REGION_RINGS] = { sizeof(struct frec_region_ring), "rings" },
	[FREC_REGION_SITES] = { sizeof(struct frec_region_site), "sites" },
	[FREC_REGION_TEXTS] = { sizeof(struct frec_region_text), "texts" },
	[FREC_REGION_POOL] = { 0, "pool" },
	[FREC_REGION_PARTS] = { 0, "parts" },
};

/*
 * How many of a table's @nr entries of @entry bytes at @off lie in the
 * first @len bytes of the image.
 */
static u32 frec_region_entries_in(u64 off, u32 entry, u32 nr, u64 len)
{
	if (!entry || off >= len)
		return 0;
	return min_t(u64, nr, (len - off) / entry);
}

/* Take the newer valid state copy of the header's boot, if any. */
static void frec_region_read_state(struct frec_region_view *v)
{
	const struct frec_region_state *st;
	unsigned int i;
	u64 gen;

	v->state_ok = false;
	for (i = 0; i < 2; i++) {
		st = (const void *)(v->base + FREC_REGION_STATE_OFF(i));
		if (frec_region_csum_end(frec_region_csum_zeroed(FREC_REGION_CSUM_START,
								 (const u8 *)st, sizeof(*st),
								 offsetof(struct frec_region_state,
									  csum))) !=
		    frec_region_get32(&st->csum) ||
		    memcmp(st->boot_id, v->hdr->boot_id, sizeof(st->boot_id)))
			continue;
		gen = frec_region_get64(&st->gen);
		if (v->state_ok && gen <= v->state.gen)
			continue;
		v->state_ok = true;
		v->state.gen = gen;
		v->state.end = frec_region_get32(&st->end);
		v->state.alive_wall_ns = frec_region_get64(&st->alive_wall_ns);
		v->state.alive_ts = frec_region_get64(&st->alive_ts);
		v->state.clock.flags = frec_region_get32(&st->flags);
		v->state.clock.trace_offset = (s64)frec_region_get64(&st->trace_offset);
		v->state.clock.window = frec_region_get32(&st->trace_window);
	}
}

/**
 * frec_region_open() - check an image's header and find its sections
 * @v: the view to fill.
 * @base: the image.
 * @len: its size in bytes.
 * @msg: where a reason goes when the image is refused.
 * @msg_size: its size (FREC_REGION_MSG_MAX is enough).
 * @where: where the byte offset the reason is about goes.
 *
 * A region with a good header may still hold corrupt entries and records:
 * those are found, one at a time, by the _get() functions below.  A table
 * the header says runs past the image's end is read up to it: @v's
 * @nr_entries counts the entries there are.
 *
 * Context: Any context; reads only the image.
 * Return: FREC_REGION_VALID, or the enum frec_region_verdict that refuses
 * the image, with @msg and @where set.
 */
int frec_region_open(struct frec_region_view *v, const void *base, u64 len,
		     char *msg, size_t msg_size, u64 *where)
{
	const struct frec_region_header *h = base;
	u64 off, bytes, end = FREC_REGION_BLOCK, rbytes;
	u32 entry, nr, i, hbytes;
	char m[FREC_REGION_MSG_MAX];

	memset(v, 0, sizeof(*v));
	v->base = base;
	v->len = len;
	v->hdr = h;
	if (len < FREC_REGION_MAGIC_LEN + 4 ||
	    memcmp(h->magic, FREC_REGION_MAGIC, FREC_REGION_MAGIC_LEN))
		return frec_region_fail(msg, msg_size, where, 0, FREC_REGION_NOT_REGION,
					"not a frec region (no magic)");
	v->version = frec_region_get32(&h->version);
	if (v->version < FREC_REGION_VERSION_OLDEST || v->version > FREC_REGION_VERSION) {
		snprintf(m, sizeof(m), "region layout version %u, this reader knows %u to %u",
			 v->version, FREC_REGION_VERSION_OLDEST, FREC_REGION_VERSION);
		return frec_region_fail(msg, msg_size, where,
					offsetof(struct frec_region_header, version),
					FREC_REGION_OTHER_VERSION, m);
	}
	if (len < FREC_REGION_BLOCK)
		return frec_region_fail(msg, msg_size, where, len, FREC_REGION_TOO_SMALL,
					"region shorter than its first block");
	/* Version 4 appended @caller_base; the checksum covers what there is. */
	hbytes = v->version >= FREC_REGION_VERSION_CALLER_BASE ? sizeof(*h) :
		 FREC_REGION_HEADER_V3_BYTES;
	if (frec_region_csum_end(frec_region_csum_zeroed(FREC_REGION_CSUM_START,
							 base, hbytes,
							 offsetof(struct frec_region_header,
								  csum))) !=
	    frec_region_get32(&h->csum))
		return frec_region_fail(msg, msg_size, where,
					offsetof(struct frec_region_header, csum),
					FREC_REGION_BAD_HEADER, "region header checksum mismatch");
	if (frec_region_get32(&h->header_bytes) != hbytes ||
	    frec_region_get32(&h->block_bytes) != FREC_REGION_BLOCK ||
	    frec_region_get32(&h->slot_bytes) != FREC_SLOT_BYTES ||
	    frec_region_get32(&h->word_bytes) != 8)
		return frec_region_fail(msg, msg_size, where,
					offsetof(struct frec_region_header, header_bytes),
					FREC_REGION_BAD_HEADER,
					"region header sizes are not this layout's");
	v->caller_base = hbytes == sizeof(*h) ? frec_region_get64(&h->caller_base) :
		FREC_CALLER_BASE;
	rbytes = frec_region_get64(&h->region_bytes);
	if (rbytes < FREC_REGION_MIN_BYTES || rbytes > FREC_REGION_MAX_BYTES ||
	    rbytes % FREC_REGION_BLOCK)
		return frec_region_fail(msg, msg_size, where,
					offsetof(struct frec_region_header, region_bytes),
					FREC_REGION_BAD_HEADER, "region size out of range");
	/*
	 * An image cut short (a partial copy) is read up to its end: the
	 * geometry is checked against the region's size, every entry, string
	 * and slot against the bytes there are.
	 */
	v->truncated = len < rbytes;
	v->len = min_t(u64, len, rbytes);
	/* Sections in order, block-aligned, not overlapping block 0 or each other. */
	for (i = 0; i < FREC_REGION_NR_SECT; i++) {
		off = frec_region_get64(&h->sect[i].offset);
		bytes = frec_region_get64(&h->sect[i].bytes);
		entry = frec_region_get32(&h->sect[i].entry_bytes);
		nr = frec_region_get32(&h->sect[i].nr_entries);
		if (off < end || off % FREC_REGION_BLOCK || bytes % FREC_REGION_BLOCK ||
		    !bytes || !frec_region_inside(off, bytes, rbytes) ||
		    entry != frec_region_sects[i].entry_bytes ||
		    (entry ? (u64)nr * entry > bytes : nr != 0)) {
			snprintf(m, sizeof(m), "region's %s section is out of place",
				 frec_region_sects[i].name);
			return frec_region_fail(msg, msg_size, where,
						offsetof(struct frec_region_header, sect[i]),
						FREC_REGION_BAD_HEADER, m);
		}
		v->sect_off[i] = off;
		v->sect_bytes[i] = bytes;
		v->nr_entries[i] = frec_region_entries_in(off, entry, nr, v->len);
		end = off + bytes;
	}
	frec_region_read_state(v);
	return FREC_REGION_VALID;
}

/* Entry @i of table @sect: its bytes, or NULL past the table's end. */
static const u8 *frec_region_entry(const struct frec_region_view *v,
				   unsigned int sect, u32 i, u64 *where)
{
	u32 size = frec_region_sects[sect].entry_bytes;

	if (i >= v->nr_entries[sect])
		return NULL;
	*where = v->sect_off[sect] + (u64)i * size;
	if (!frec_region_inside(*where, size, v->len))
		return NULL;
	return v->base + *where;
}

/* A pool string, checked to lie in the pool; false if it does not. */
static bool frec_region_str(const struct frec_region_view *v,
			    const struct frec_region_str *str,
			    struct frec_region_bytes *out)
{
	u32 off = frec_region_get32(&str->off), len = frec_region_get32(&str->len);

	if (!frec_region_inside(off, len, v->sect_bytes[FREC_REGION_POOL]) ||
	    !frec_region_inside(v->sect_off[FREC_REGION_POOL] + off, len, v->len))
		return false;
	out->s = (const char *)v->base + v->sect_off[FREC_REGION_POOL] + off;
	out->len = len;
	return true;
}

static u32 frec_region_csum_bytes(u32 crc, const struct frec_region_bytes *b)
{
	return frec_region_csum_add(crc, b->s, b->len);
}

/**
 * frec_region_ring_get() - one entry of the rings section
 * @v: an open view.
 * @i: the entry's index.
 * @ring: where the ring goes.
 * @where: where the entry's offset goes.
 *
 * A name that breaks the rule of ring names (frec_ring_name_ok()) is
 * corrupt too, whatever its checksum says: no kernel creates such a ring,
 * and every reader after this one takes ring names by that rule.
 *
 * Context: Any context.
 * Return: 1 with @ring filled, 0 if the entry is unused or past the table,
 * -1 if it is corrupt (checksum, a field out of range, its name, or parts
 * outside the parts section); with @ring filled but for @cpus_in_image and
 * @slots_in_image then.
 */
int frec_region_ring_get(const struct frec_region_view *v, u32 i,
			 struct frec_region_ring_info *ring, u64 *where)
{
	const struct frec_region_ring *e;
	const u8 *p = frec_region_entry(v, FREC_REGION_RINGS, i, where);
	u64 part, in, whole;

	if (!p || frec_region_all_zero(p, sizeof(*e)))
		return 0;
	e = (const void *)p;
	if (frec_region_csum_end(frec_region_csum_zeroed(FREC_REGION_CSUM_START, p,
							 sizeof(*e),
							 offsetof(struct frec_region_ring,
								  csum))) !=
	    frec_region_get32(&e->csum))
		return -1;
	ring->id = frec_region_get32(&e->id);
	ring->kind = frec_region_get32(&e->kind);
	ring->order = frec_region_get32(&e->order);
	ring->nr_cpus = frec_region_get32(&e->nr_cpus);
	ring->max_record_len = frec_region_get32(&e->max_record_len);
	ring->nr_slots = frec_region_get64(&e->nr_slots);
	ring->parts_offset = frec_region_get64(&e->parts_offset);
	memcpy(ring->name, e->name, sizeof(ring->name));
	if (ring->id != i || ring->kind > 1 || ring->order > 1 || !ring->nr_cpus ||
	    ring->nr_slots < 2 || ring->nr_slots & (ring->nr_slots - 1) ||
	    ring->nr_slots > frec_region_get64(&v->hdr->region_bytes) / FREC_SLOT_BYTES ||
	    ring->parts_offset % FREC_SLOT_BYTES ||
	    ring->parts_offset < v->sect_off[FREC_REGION_PARTS] ||
	    !frec_ring_name_ok(ring->name, sizeof(ring->name)))
		return -1;
	part = ring->nr_slots * FREC_SLOT_BYTES;
	if (ring->nr_cpus > frec_region_get64(&v->hdr->region_bytes) / part ||
	    !frec_region_inside(ring->parts_offset - v->sect_off[FREC_REGION_PARTS],
				part * ring->nr_cpus, v->sect_bytes[FREC_REGION_PARTS]))
		return -1;
	/*
	 * What a reader may index: the header vouches for the parts' place
	 * in the region, the image's length for what of them was read.
	 */
	in = ring->parts_offset < v->len ? v->len - ring->parts_offset : 0;
	whole = min_t(u64, ring->nr_cpus, in / part);
	ring->cpus_in_image = min_t(u64, ring->nr_cpus, (in + part - 1) / part);
	ring->slots_in_image = whole * ring->nr_slots;
	if (ring->cpus_in_image > whole)
		ring->slots_in_image += (in - whole * part) / FREC_SLOT_BYTES;
	return 1;
}

/**
 * frec_region_in_use() - where the bytes a reader reads of an image end
 * @v: a view frec_region_open() found valid.
 *
 * The tables and the pool lie before the parts section, and the records
 * in the parts its valid rings entries name: a reader reads nothing past
 * the end of the last of them.  A copy of the image up to there reads as
 * the image does (frec/previous/ keeps no more of a large region).
 *
 * Context: Any context.
 * Return: the end of the last valid ring's parts, at least the start of
 * the parts section, at most @v->len.
 */
u64 frec_region_in_use(const struct frec_region_view *v)
{
	u64 end = v->sect_off[FREC_REGION_PARTS], where;
	struct frec_region_ring_info ring;
	u32 i;

	/* ring_get() bounds the parts inside the region: no overflow. */
	for (i = 0; i < v->nr_entries[FREC_REGION_RINGS]; i++)
		if (frec_region_ring_get(v, i, &ring, &where) == 1)
			end = max_t(u64, end, ring.parts_offset +
				    ring.nr_cpus * ring.nr_slots * FREC_SLOT_BYTES);
	return min_t(u64, end, v->len);
}

/**
 * frec_region_site_get() - the sites entry of one site id
 * @v: an open view.
 * @id: the site id (entry 0 is never used).
 * @site: where the site goes.
 * @where: where the entry's offset goes.
 *
 * A site whose caller part alone is corrupt is valid, without its caller
 * (@site->caller_bad).
 *
 * Context: Any context.
 * Return: 1 with @site filled, 0 if the entry is unused or past the table,
 * -1 if it is corrupt, 2 if it names a site whose texts the region had no
 * room for (FREC_REGION_SITE_NO_TEXT: @site has @id, @level and @line,
 * and no caller).
 */
int frec_region_site_get(const struct frec_region_view *v, u32 id,
			 struct frec_region_site_info *site, u64 *where)
{
	const struct frec_region_site *e;
	const u8 *p = frec_region_entry(v, FREC_REGION_SITES, id, where);
	size_t head = offsetof(struct frec_region_site, csum);
	u32 crc, flags;

	if (!id || !p || frec_region_all_zero(p, sizeof(*e)))
		return 0;
	e = (const void *)p;
	if (frec_region_get32(&e->id) != id ||
	    !frec_region_str(v, &e->module, &site->module) ||
	    !frec_region_str(v, &e->file, &site->file) ||
	    !frec_region_str(v, &e->function, &site->function) ||
	    !frec_region_str(v, &e->format, &site->format))
		return -1;
	crc = frec_region_csum_add(FREC_REGION_CSUM_START, p, head);
	crc = frec_region_csum_bytes(crc, &site->module);
	crc = frec_region_csum_bytes(crc, &site->file);
	crc = frec_region_csum_bytes(crc, &site->function);
	crc = frec_region_csum_bytes(crc, &site->format);
	site->level = frec_region_get32(&e->level);
	if (frec_region_csum_end(crc) != frec_region_get32(&e->csum) ||
	    site->level < 1 || site->level > 5)
		return -1;
	site->id = id;
	site->line = frec_region_get32(&e->line);
	site->caller = 0;
	site->caller_name.s = "";
	site->caller_name.len = 0;
	site->caller_bad = false;
	flags = frec_region_get32(&e->flags);
	if (flags & ~FREC_REGION_SITE_NO_TEXT)
		return -1;
	if (flags)
		return 2;
	if (!frec_region_get32(&e->caller_csum))
		return 1;
	if (frec_region_str(v, &e->caller_name, &site->caller_name)) {
		crc = frec_region_csum_add(FREC_REGION_CSUM_START, &e->caller,
					   sizeof(e->caller) + sizeof(e->caller_name));
		crc = frec_region_csum_bytes(crc, &site->caller_name);
		if (frec_region_csum_end(crc) == frec_region_get32(&e->caller_csum)) {
			site->caller = frec_region_get64(&e->caller);
			return 1;
		}
	}
	site->caller_name.s = "";
	site->caller_name.len = 0;
	site->caller_bad = true;
	return 1;
}

/**
 * frec_region_text_get() - one entry of the texts section
 * @v: an open view.
 * @i: the entry's index.
 * @text: where the text goes.
 * @where: where the entry's offset goes.
 *
 * Context: Any context.
 * Return: 1 with @text filled, 0 if the entry is unused or past the table,
 * -1 if it is corrupt.
 */
int frec_region_text_get(const struct frec_region_view *v, u32 i,
			 struct frec_region_text_info *text, u64 *where)
{
	const struct frec_region_text *e;
	const u8 *p = frec_region_entry(v, FREC_REGION_TEXTS, i, where);
	size_t head = offsetof(struct frec_region_text, csum);
	u32 crc;

	if (!p || frec_region_all_zero(p, sizeof(*e)))
		return 0;
	e = (const void *)p;
	if (!frec_region_str(v, &e->text, &text->text))
		return -1;
	crc = frec_region_csum_add(FREC_REGION_CSUM_START, p, head);
	crc = frec_region_csum_bytes(crc, &text->text);
	text->addr = frec_region_get64(&e->addr);
	text->from = frec_region_get64(&e->from);
	text->kind = frec_region_get32(&e->kind);
	if (frec_region_csum_end(crc) != frec_region_get32(&e->csum) ||
	    (text->kind != FREC_REGION_TEXT_STRING &&
	     text->kind != FREC_REGION_TEXT_SYMBOL &&
	     text->kind != FREC_REGION_TEXT_TASK))
		return -1;
	return 1;
}

/* The state word a slot of the record at @slot must hold, for slot @i of it. */
static u64 frec_region_slot_state(const struct frec_region_ring_info *ring,
				  u64 slot, u64 lap, u64 seq, u32 i)
{
	/* A record that runs past the array's end goes on in the next lap. */
	if (slot + i >= ring->nr_slots)
		lap ^= FREC_SLOT_LAP;
	return seq << FREC_SLOT_SEQ_SHIFT | lap | (i ? FREC_SLOT_CONT : 0);
}

/*
 * The payload @k slots hold: a writer takes the fewest slots its payload
 * fits in, so a record of k slots has more than k - 1 of them hold.
 */
static u64 frec_region_payload_room(u32 k)
{
	return FREC_RECORD_HEAD_BYTES + (u64)(k - 1) * FREC_RECORD_CONT_BYTES;
}

/* Copy up to @n payload bytes out of @words. */
static void frec_region_copy(u8 *dst, const u8 *words, u32 n)
{
	memcpy(dst, words, n);
}

/**
 * frec_region_record_get() - the record whose first slot is @slot
 * @v: an open view.
 * @ring: a valid ring of @v.
 * @cpu: the part, below @ring->nr_cpus.
 * @slot: the slot's index, below @ring->nr_slots.
 * @rec: where the record goes.
 * @buf: where a variable-size record's payload goes.
 * @buf_len: its size; a longer payload is refused.
 *
 * A record is whole when its first slot holds a first state (neither
 * BUSY nor CONT) and each of its continuation slots the state of the same
 * seq with its own position's lap: a write the reset cut short leaves a
 * BUSY slot, or continuation slots of another record.  Whether its site
 * word names a valid site is for the caller to check (it holds the sites).
 *
 * Context: Any context.
 * Return: the record's number of slots, with @rec filled; 0 if @slot is
 * empty or a continuation slot; -1 - the enum frec_region_reject if the
 * slot holds a record that may not be shown.
 */
int frec_region_record_get(const struct frec_region_view *v,
			   const struct frec_region_ring_info *ring, u32 cpu,
			   u64 slot, struct frec_region_record *rec,
			   u8 *buf, u32 buf_len)
{
	u64 part_off = ring->parts_offset + (u64)cpu * ring->nr_slots * FREC_SLOT_BYTES;
	const u8 *part = v->base + part_off;
	const struct frec_slot *s = (const void *)(part + slot * FREC_SLOT_BYTES);
	u64 state, word, lap, at;
	u32 k, i, n, len;

	if (!frec_region_inside(part_off + slot * FREC_SLOT_BYTES, FREC_SLOT_BYTES, v->len))
		return -1 - FREC_REGION_REJ_CUT;
	state = frec_region_get64(&s->state);

	if (!state || (state & FREC_SLOT_CONT && !(state & FREC_SLOT_BUSY)))
		return 0;
	if (state & FREC_SLOT_BUSY)
		return -1 - FREC_REGION_REJ_STATE;
	lap = state & FREC_SLOT_LAP;
	memset(rec, 0, sizeof(*rec));
	rec->slot = slot;
	rec->seq = state >> FREC_SLOT_SEQ_SHIFT;
	rec->ts = frec_region_get64(&s->data[FREC_EVENT_TS]);
	rec->site = frec_region_get64(&s->data[FREC_EVENT_SITE]);
	word = frec_region_get64(&s->data[FREC_EVENT_CALLER]);
	if (v->version >= FREC_REGION_VERSION_CONTEXT) {
		rec->caller = frec_caller_of(word, v->caller_base);
		rec->context = frec_context_of(word);
	} else {
		rec->caller = word;
	}
	if (!ring->kind) {
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			rec->args[i] = frec_region_get64(&s->data[FREC_EVENT_ARG0 + i]);
		rec->slots = 1;
		return 1;
	}
	word = frec_region_get64(&s->data[FREC_RECORD_LEN]);
	k = word >> 32;
	len = (u32)word & FREC_RECORD_LEN_MASK;
	if (!k || k > ring->nr_slots || len > ring->max_record_len ||
	    len > buf_len || len > frec_region_payload_room(k) ||
	    (k > 1 && len <= frec_region_payload_room(k - 1)))
		return -1 - FREC_REGION_REJ_LENGTH;
	rec->len = len;
	rec->printk_args = (u32)word & FREC_RECORD_ARGS;
	n = min_t(u32, len, FREC_RECORD_HEAD_BYTES);
	frec_region_copy(buf, (const u8 *)&s->data[FREC_RECORD_PAYLOAD], n);
	buf += n;
	len -= n;
	for (i = 1; i < k; i++) {
		at = ((slot + i) & (ring->nr_slots - 1)) * FREC_SLOT_BYTES;
		if (!frec_region_inside(part_off + at, FREC_SLOT_BYTES, v->len))
			return -1 - FREC_REGION_REJ_CUT;
		s = (const void *)(part + at);
		if (frec_region_get64(&s->state) !=
		    frec_region_slot_state(ring, slot, lap, rec->seq, i))
			return -1 - FREC_REGION_REJ_STATE;
		n = min_t(u32, len, FREC_RECORD_CONT_BYTES);
		frec_region_copy(buf, (const u8 *)s->data, n);
		buf += n;
		len -= n;
	}
	rec->slots = k;
	return k;
}

/**
 * frec_region_sect_name() - a section's name, as the reader's messages say it
 * @sect: enum frec_region_sect.
 *
 * Context: Any context.
 * Return: a constant string; "unknown" for a value not a section.
 */
const char *frec_region_sect_name(unsigned int sect)
{
	return sect < FREC_REGION_NR_SECT ? frec_region_sects[sect].name : "unknown";
}

/**
 * frec_region_end_name() - how a boot ended, in words
 * @end: enum frec_region_end, as a state copy holds it.
 *
 * Context: Any context.
 * Return: a constant string; "unknown" for a value no boot writes.
 */
const char *frec_region_end_name(u32 end)
{
	static const char *const names[] = {
		[FREC_REGION_END_NONE] = "no end marked (a reset or a hang)",
		[FREC_REGION_END_CLEAN] = "clean unload",
		[FREC_REGION_END_OOPS] = "oops",
		[FREC_REGION_END_PANIC] = "panic",
	};

	return end <= FREC_REGION_END_PANIC ? names[end] : "unknown";
}

/**
 * frec_region_reject_name() - why a slot's record is not shown, in words
 * @why: enum frec_region_reject.
 *
 * Context: Any context.
 * Return: a constant string.
 */
const char *frec_region_reject_name(u32 why)
{
	static const char *const names[FREC_REGION_REJ_NR] = {
		[FREC_REGION_REJ_STATE] = "torn or partly overwritten",
		[FREC_REGION_REJ_LENGTH] = "length does not match its slots",
		[FREC_REGION_REJ_SITE] = "names no valid site",
		[FREC_REGION_REJ_NO_TEXT] = "names a site the region had no room for the texts of",
		[FREC_REGION_REJ_CUT] = "past the end of the image",
	};

	return why < FREC_REGION_REJ_NR ? names[why] : "unknown";
}
