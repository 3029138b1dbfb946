// SPDX-License-Identifier: GPL-2.0
/*
 * region.c - a black box region image (uapi/frec_region.h) as the three
 * inputs the rest of frec-decode reads: a raw dump, a sites file and a
 * formats file, made from the region's own rings, sites and texts.
 *
 * The region is read with the module's own reader (kmod/lib/frec_region.c),
 * which checks every offset, entry and record.  A corrupt entry or record
 * is reported with its byte offset and left out, alone; what is left is
 * printed as the old boot's dump would have printed it, with no kallsyms:
 * callers and %pS arguments are named by the region's sites and texts.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"
#include "frec_format_quote.h"
#include "frec_region_image.h"

static const char *const end_names[] = {
	[FREC_REGION_END_NONE] = "no end marked (a reset or a hang)",
	[FREC_REGION_END_CLEAN] = "clean unload",
	[FREC_REGION_END_OOPS] = "oops",
	[FREC_REGION_END_PANIC] = "panic",
};

static const char *const reject_names[FREC_REGION_REJ_NR] = {
	[FREC_REGION_REJ_STATE] = "torn or partly overwritten",
	[FREC_REGION_REJ_LENGTH] = "length does not match its slots",
	[FREC_REGION_REJ_SITE] = "names no valid site",
	[FREC_REGION_REJ_CUT] = "past the end of the image",
};

/* @b quoted as the module's sites and formats files quote a string. */
static void put_quoted(FILE *f, const struct frec_region_bytes *b)
{
	char *s = strndup(b->s, b->len), chunk[64];
	const char *p = s;
	size_t used, n;

	fputc('"', f);
	while (p && *p) {
		n = frec_format_quote(chunk, sizeof(chunk), p, &used);
		fwrite(chunk, 1, n, f);
		p += used;
	}
	fputc('"', f);
	free(s);
}

static void warn_at(struct frec_region_decode *rd, unsigned long long where,
		    const char *fmt, const char *what)
{
	rd->warnings++;
	if (rd->errs)
		fprintf(rd->errs, "frec-decode: %s: offset %llu: %s: %s\n",
			rd->name, where, fmt, what);
}

/* The sites file of the valid sites, and a table of which ids are valid. */
static void region_sites(struct frec_region_decode *rd, FILE *f, bool *valid)
{
	static const char *const levels[] = { "", "err", "warn", "info", "debug", "trace" };
	struct frec_region_site_info s;
	u64 where;
	u32 id;
	int ret;

	for (id = 1; id < rd->v.nr_entries[FREC_REGION_SITES]; id++) {
		ret = frec_region_site_get(&rd->v, id, &s, &where);
		if (ret < 0) {
			warn_at(rd, where, "site entry", "corrupt (checksum or bounds), skipped");
			rd->bad_entries++;
			continue;
		}
		if (!ret)
			continue;
		if (s.caller_bad) {
			warn_at(rd, where, "site entry", "caller corrupt, callers print as addresses");
			rd->bad_entries++;
		}
		valid[id] = true;
		fprintf(f, "%u %s %u ", id, levels[s.level], s.line);
		put_quoted(f, &s.module);
		fputc(' ', f);
		put_quoted(f, &s.file);
		fputc(' ', f);
		put_quoted(f, &s.function);
		fprintf(f, " 0x%llx ", (unsigned long long)s.caller);
		put_quoted(f, &s.caller_name);
		fputc(' ', f);
		put_quoted(f, &s.format);
		fputc('\n', f);
	}
}

static int by_addr(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The formats file of the valid texts; their string addresses, sorted. */
static u64 *region_texts(struct frec_region_decode *rd, FILE *f, size_t *nr)
{
	struct frec_region_text_info t;
	u64 where, *addrs = calloc(rd->v.nr_entries[FREC_REGION_TEXTS] + 1, sizeof(u64));
	u32 i;
	int ret;

	*nr = 0;
	for (i = 0; addrs && i < rd->v.nr_entries[FREC_REGION_TEXTS]; i++) {
		ret = frec_region_text_get(&rd->v, i, &t, &where);
		if (ret < 0) {
			warn_at(rd, where, "text entry", "corrupt (checksum or bounds), skipped");
			rd->bad_entries++;
			continue;
		}
		if (!ret)
			continue;
		fprintf(f, "0x%llx : %s", (unsigned long long)t.addr,
			t.kind == FREC_REGION_TEXT_SYMBOL ? "symbol " : "");
		put_quoted(f, &t.text);
		fputc('\n', f);
		if (t.kind == FREC_REGION_TEXT_STRING)
			addrs[(*nr)++] = t.addr;
	}
	if (addrs)
		qsort(addrs, *nr, sizeof(*addrs), by_addr);
	return addrs;
}

/* A part's whole record, and its payload. */
struct part_rec {
	struct frec_region_record rec;
	size_t text;
};

static int by_ts(const void *a, const void *b)
{
	const struct part_rec *x = a, *y = b;

	if (x->rec.ts != y->rec.ts)
		return x->rec.ts < y->rec.ts ? -1 : 1;
	return x->rec.slot < y->rec.slot ? -1 : x->rec.slot > y->rec.slot;
}

static void put_record(FILE *f, const struct frec_region_ring_info *ring, u32 cpu,
		       const struct frec_region_record *rec, const char *text)
{
	struct frec_raw_record r;
	size_t len = rec->len, bytes = (sizeof(r) + len + 7) & ~(size_t)7;
	static const char pad[8];
	unsigned int i;

	memset(&r, 0, sizeof(r));
	r.head.type = ring->kind ? FREC_RAW_TEXT : FREC_RAW_EVENT;
	r.head.bytes = (__u32)bytes;
	r.seq = rec->seq;
	r.ts = rec->ts;
	r.site = rec->site;
	r.caller = rec->caller;
	r.ring = ring->id;
	r.cpu = cpu;
	r.len = rec->len;
	for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
		r.args[i] = rec->args[i];
	fwrite(&r, sizeof(r), 1, f);
	if (len) {
		fwrite(text, 1, len, f);
		fwrite(pad, 1, bytes - sizeof(r) - len, f);
	}
}

/*
 * Does a record's site word name what the region can print: a valid site
 * (an id), or a string of the texts (the format of a site without one)?
 */
static bool site_known(const struct frec_region_decode *rd, u64 site,
		       const bool *valid, const u64 *addrs, size_t nr_addrs)
{
	if (site < FREC_SITE_ID_LIMIT)
		return site < rd->v.nr_entries[FREC_REGION_SITES] && valid[site];
	return bsearch(&site, addrs, nr_addrs, sizeof(*addrs), by_addr);
}

static void warn_part(struct frec_region_decode *rd, unsigned long long where,
		      const struct frec_region_ring_info *ring, u32 cpu,
		      const char *why)
{
	rd->warnings++;
	if (rd->errs)
		fprintf(rd->errs, "frec-decode: %s: offset %llu: ring %s cpu %u: "
			"record %s, skipped\n", rd->name, where, ring->name, cpu, why);
}

/* The whole records of one part, in timestamp order, into the raw dump. */
static int region_part(struct frec_region_decode *rd, FILE *f,
		       const struct frec_region_ring_info *ring, u32 cpu,
		       const bool *valid, const u64 *addrs, size_t nr_addrs)
{
	struct part_rec *recs = NULL, *grown;
	size_t nr = 0, cap = 0, used = 0, text_cap = 0, i;
	u32 max = ring->kind ? ring->max_record_len : 0;
	char *texts = NULL, *more;
	u64 slot, where;
	int k;

	for (slot = 0; slot < ring->nr_slots; slot += k > 0 ? k : 1) {
		if (nr == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(recs, cap * sizeof(*recs));
			if (!grown)
				goto oom;
			recs = grown;
		}
		if (used + max >= text_cap) {
			text_cap = 2 * (used + max) + 4096;
			more = realloc(texts, text_cap);
			if (!more)
				goto oom;
			texts = more;
		}
		k = frec_region_record_get(&rd->v, ring, cpu, slot, &recs[nr].rec,
					   (u8 *)texts + used, max);
		where = ring->parts_offset +
			((u64)cpu * ring->nr_slots + slot) * FREC_SLOT_BYTES;
		if (k > 0 && !site_known(rd, recs[nr].rec.site, valid, addrs, nr_addrs))
			k = -1 - FREC_REGION_REJ_SITE;
		if (k > 0 && recs[nr].rec.printk_args) {
			rd->not_decoded++;
			continue;
		}
		if (k == -1 - FREC_REGION_REJ_CUT) {
			/* The rest of the part lies past the image's end. */
			rd->rejected[FREC_REGION_REJ_CUT]++;
			warn_part(rd, where, ring, cpu, "cut by the image's end");
			break;
		}
		if (k < 0) {
			/* The first few of each reason, then only their count. */
			if (++rd->rejected[-1 - k] <= 8)
				warn_part(rd, where, ring, cpu, reject_names[-1 - k]);
			continue;
		}
		if (!k)
			continue;
		recs[nr].text = used;
		used += recs[nr].rec.len;
		nr++;
	}
	qsort(recs, nr, sizeof(*recs), by_ts);
	for (i = 0; i < nr; i++)
		put_record(f, ring, cpu, &recs[i].rec, texts + recs[i].text);
	rd->recovered += nr;
	free(recs);
	free(texts);
	return 0;
oom:
	free(recs);
	free(texts);
	return -1;
}

/**
 * frec_region_decode_open() - read a region image into decoder inputs
 * @rd: the run; @rd->name and @rd->errs set by the caller.
 * @data: the image.
 * @len: its size.
 * @err: what is wrong, and where, if the image is refused.
 *
 * Return: 0 with @rd->raw, @rd->sites_text and @rd->formats_text made
 * (and their lengths), -1 with @err set.
 */
int frec_region_decode_open(struct frec_region_decode *rd, const void *data,
			    size_t len, struct frec_err *err)
{
	struct frec_region_ring_info ring;
	char msg[FREC_REGION_MSG_MAX];
	struct frec_raw_header h;
	FILE *raw, *sites, *formats;
	bool *valid = NULL, all_global = true, any = false;
	size_t nr_addrs = 0;
	u64 where, *addrs = NULL;
	u32 i, cpu;
	int ret;

	if (frec_region_open(&rd->v, data, len, msg, sizeof(msg), &where))
		return frec_errf(err, where, "%s", msg);
	if (rd->v.truncated)
		warn_at(rd, rd->v.len, "image", "ends before the region does: what lies beyond is lost");
	raw = open_memstream(&rd->raw, &rd->raw_len);
	sites = open_memstream(&rd->sites_text, &rd->sites_len);
	formats = open_memstream(&rd->formats_text, &rd->formats_len);
	valid = calloc(rd->v.nr_entries[FREC_REGION_SITES] + 1, sizeof(*valid));
	if (!raw || !sites || !formats || !valid)
		goto oom;
	region_sites(rd, sites, valid);
	addrs = region_texts(rd, formats, &nr_addrs);
	if (!addrs)
		goto oom;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, FREC_RAW_MAGIC, sizeof(FREC_RAW_MAGIC));
	h.byte_order = FREC_RAW_BYTE_ORDER;
	h.version = FREC_RAW_VERSION;
	h.header_bytes = sizeof(h);
	h.slot_bytes = FREC_SLOT_BYTES;
	h.word_bytes = 8;
	if (le32_to_cpu(rd->v.hdr->flags) & FREC_REGION_CLOCK_SYNCED)
		h.flags |= FREC_RAW_CLOCK_SYNCED;
	memcpy(h.clock, rd->v.hdr->clock, sizeof(h.clock) - 1);
	for (i = 0; i < rd->v.nr_entries[FREC_REGION_RINGS]; i++)
		if (frec_region_ring_get(&rd->v, i, &ring, &where) > 0) {
			all_global &= ring.order == FREC_RING_ORDER_GLOBAL;
			any = true;
		}
	if (any && all_global)
		h.flags |= FREC_RAW_MERGE_BY_SEQ;
	fwrite(&h, sizeof(h), 1, raw);

	for (i = 0; i < rd->v.nr_entries[FREC_REGION_RINGS]; i++) {
		struct frec_raw_ring r;

		ret = frec_region_ring_get(&rd->v, i, &ring, &where);
		if (ret < 0) {
			warn_at(rd, where, "ring entry", "corrupt (checksum or bounds), its records skipped");
			rd->bad_entries++;
			continue;
		}
		if (!ret)
			continue;
		memset(&r, 0, sizeof(r));
		r.head.type = FREC_RAW_RING;
		r.head.bytes = sizeof(r);
		r.id = ring.id;
		r.kind = ring.kind;
		r.order = ring.order;
		memcpy(r.name, ring.name, sizeof(r.name));
		fwrite(&r, sizeof(r), 1, raw);
		for (cpu = 0; cpu < ring.nr_cpus; cpu++)
			if (region_part(rd, raw, &ring, cpu, valid, addrs, nr_addrs))
				goto oom;
	}
	free(valid);
	free(addrs);
	if (fclose(raw) | fclose(sites) | fclose(formats))
		return frec_errf(err, 0, "out of memory");
	return 0;
oom:
	free(valid);
	free(addrs);
	if (raw)
		fclose(raw);
	if (sites)
		fclose(sites);
	if (formats)
		fclose(formats);
	return frec_errf(err, 0, "out of memory");
}

/**
 * frec_region_decode_report() - say what the region held, on @rd->errs
 * @rd: the run, after its records were decoded.
 */
void frec_region_decode_report(const struct frec_region_decode *rd)
{
	const struct frec_region_header *h = rd->v.hdr;
	const char *end = "unknown (no valid state copy)";
	char release[FREC_REGION_RELEASE_LEN + 1];
	unsigned long long rejected = 0;
	unsigned int i;

	if (!rd->errs)
		return;
	for (i = 0; i < FREC_REGION_REJ_NR; i++)
		rejected += rd->rejected[i];
	if (rd->v.state_ok)
		end = rd->v.state.end < 4 ? end_names[rd->v.state.end] : "unknown end";
	memcpy(release, h->release, FREC_REGION_RELEASE_LEN);
	release[FREC_REGION_RELEASE_LEN] = '\0';
	for (i = 0; release[i]; i++)
		if (release[i] < 0x20 || release[i] > 0x7e)
			release[i] = '?';
	fprintf(rd->errs, "frec-decode: %s: region of boot ", rd->name);
	for (i = 0; i < FREC_REGION_BOOT_ID_LEN; i++)
		fprintf(rd->errs, "%02x%s", h->boot_id[i],
			i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
	fprintf(rd->errs, ", kernel %s, ended: %s; %llu records recovered, "
		"%llu rejected", release, end, rd->recovered,
		rejected);
	for (i = 0; i < FREC_REGION_REJ_NR; i++)
		if (rd->rejected[i])
			fprintf(rd->errs, " (%llu %s)", rd->rejected[i], reject_names[i]);
	if (rd->not_decoded)
		fprintf(rd->errs, ", %llu frec_printk() argument records not decoded",
			rd->not_decoded);
	if (rd->bad_entries)
		fprintf(rd->errs, ", %llu corrupt entries", rd->bad_entries);
	fputc('\n', rd->errs);
}

/**
 * frec_region_decode_free() - free what frec_region_decode_open() made
 * @rd: the run.
 */
void frec_region_decode_free(struct frec_region_decode *rd)
{
	free(rd->raw);
	free(rd->sites_text);
	free(rd->formats_text);
	rd->raw = rd->sites_text = rd->formats_text = NULL;
}
