// SPDX-License-Identifier: GPL-2.0
/*
 * region.c - a black box region image (uapi/frec_region.h) as the three
 * inputs the rest of frec-decode reads: a raw dump, a sites file and a
 * formats file, made from the region's own rings, sites and texts.
 *
 * The region is read with the module's own reader (kmod/lib/frec_region.c),
 * which checks every offset, entry and record, and made into text by the
 * code the module's frec/previous/ files use (kmod/lib/frec_region_text.c
 * writes the sites and formats files, kmod/lib/frec_region_dump.c finds
 * and orders the records).  A corrupt entry or record is reported with its
 * byte offset and left out, alone; what is left is printed as the old
 * boot's dump would have printed it, with no kallsyms: callers and %pS
 * arguments are named by the region's sites and texts.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"
#include "frec_region_text.h"

/* A sink into a FILE, for the shared writers. */
static void file_write(void *ctx, const char *s, size_t len)
{
	fwrite(s, 1, len, ctx);
}

/* The shared reader's report of a corrupt entry or record: a warning. */
static void warn_at(void *ctx, u64 where, const char *what, const char *why)
{
	struct frec_region_decode *rd = ctx;

	frec_warnf(rd->errs, rd->name, &rd->warnings, "offset %llu: %s: %s",
		   (unsigned long long)where, what, why);
}

/*
 * The names the texts sweep saw for the tasks the records name
 * (FREC_REGION_TEXT_TASK), as a raw dump's task entries: a pid's later
 * entry replaces its earlier one, as in the table.  A pid no context word
 * can hold is no record's task: left out.
 */
static void put_tasks(const struct frec_region_view *v, FILE *f)
{
	struct frec_region_text_info t;
	struct frec_raw_task task;
	u64 where;
	u32 i;

	for (i = 0; i < v->nr_entries[FREC_REGION_TEXTS]; i++) {
		if (frec_region_text_get(v, i, &t, &where) != 1 ||
		    t.kind != FREC_REGION_TEXT_TASK || !t.addr || t.addr > FREC_CTX_PID_MASK)
			continue;
		memset(&task, 0, sizeof(task));
		task.head.type = FREC_RAW_TASK;
		task.head.bytes = sizeof(task);
		task.pid = (u32)t.addr;
		memcpy(task.comm, t.text.s, min_t(size_t, t.text.len, sizeof(task.comm) - 1));
		fwrite(&task, sizeof(task), 1, f);
	}
}

static void put_record(FILE *f, const struct frec_region_ring_info *ring, u32 cpu,
		       const struct frec_region_record *rec, const char *text, u32 len)
{
	struct frec_raw_record r;
	size_t bytes = (sizeof(r) + len + 7) & ~(size_t)7;
	static const char pad[8];
	unsigned int i;

	memset(&r, 0, sizeof(r));
	r.head.type = ring->kind ? FREC_RAW_TEXT : FREC_RAW_EVENT;
	r.head.bytes = (__u32)bytes;
	r.seq = rec->seq;
	r.ts = rec->ts;
	r.site = rec->site;
	r.caller = rec->caller;
	r.context = rec->context;
	r.ring = ring->id;
	r.cpu = cpu;
	r.len = len;
	for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
		r.args[i] = rec->args[i];
	fwrite(&r, sizeof(r), 1, f);
	if (len) {
		fwrite(text, 1, len, f);
		fwrite(pad, 1, bytes - sizeof(r) - len, f);
	}
}

/* A part's records, which the shared reader put in timestamp order. */
static void region_part(struct frec_region_decode *rd, FILE *f,
			const struct frec_region_part *p)
{
	const struct frec_region_dump *dump = &rd->dump;
	const struct frec_region_ring_info *ring = &dump->rings[p->ring];
	struct frec_region_record rec;
	const char *text = NULL;
	u32 len = 0;
	u64 i;

	for (i = p->first; i < p->first + p->nr; i++) {
		frec_region_record_get(&rd->v, ring, p->cpu, dump->recs[i].slot, &rec,
				       dump->payload, FREC_REGION_PAYLOAD_MAX);
		/* A raw dump's text record is text: arguments formatted. */
		if (ring->kind)
			text = frec_region_dump_text(&rd->dump, &rec, ring, &len);
		put_record(f, ring, p->cpu, &rec, text, len);
	}
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
	struct frec_region_report rep = { warn_at, rd };
	struct frec_text_sink sink = { file_write, NULL };
	struct frec_region_counts sum;
	char msg[FREC_REGION_MSG_MAX], what[32];
	struct frec_raw_header h;
	FILE *raw, *sites, *formats;
	u64 where, p = 0;
	u32 i, claimed;

	if (frec_region_open(&rd->v, data, len, msg, sizeof(msg), &where))
		return frec_errf(err, where, "%s", msg);
	if (rd->v.truncated)
		warn_at(rd, rd->v.len, "image", "ends before the region does: what lies beyond is lost");
	/* A table that runs past the image's end: what it claimed, what was read. */
	for (i = 0; i < FREC_REGION_NR_SECT; i++) {
		claimed = le32_to_cpu(rd->v.hdr->sect[i].nr_entries);
		if (claimed == rd->v.nr_entries[i])
			continue;
		snprintf(what, sizeof(what), "%s section", frec_region_sect_name(i));
		snprintf(msg, sizeof(msg), "%u entries claimed, %u in the image", claimed,
			 rd->v.nr_entries[i]);
		warn_at(rd, offsetof(struct frec_region_header, sect[i].nr_entries), what, msg);
	}
	raw = open_memstream(&rd->raw, &rd->raw_len);
	sites = open_memstream(&rd->sites_text, &rd->sites_len);
	formats = open_memstream(&rd->formats_text, &rd->formats_len);
	if (!raw || !sites || !formats)
		goto oom;
	sink.ctx = sites;
	rd->bad_entries += frec_region_sites_write(&rd->v, &sink, &rep);
	sink.ctx = formats;
	rd->bad_entries += frec_region_texts_write(&rd->v, &sink, &rep);
	if (frec_region_dump_build(&rd->dump, &rd->v, &rep)) {
		fclose(raw);
		fclose(sites);
		fclose(formats);
		return frec_errf(err, rd->dump.where, "%s", rd->dump.msg);
	}
	rd->bad_entries += rd->dump.bad_rings;
	frec_region_dump_totals(&rd->dump, &sum);
	rd->recovered = sum.recovered;
	rd->not_decoded = sum.not_decoded;
	memcpy(rd->rejected, sum.rejected, sizeof(rd->rejected));

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, FREC_RAW_MAGIC, sizeof(FREC_RAW_MAGIC));
	h.byte_order = FREC_RAW_BYTE_ORDER;
	/* A region of before contexts makes a raw dump of before them. */
	h.version = rd->v.version >= FREC_REGION_VERSION_CONTEXT ? FREC_RAW_VERSION :
		    FREC_RAW_VERSION_OLDEST;
	h.header_bytes = sizeof(h);
	h.slot_bytes = FREC_SLOT_BYTES;
	h.word_bytes = 8;
	if (le32_to_cpu(rd->v.hdr->flags) & FREC_REGION_CLOCK_SYNCED)
		h.flags |= FREC_RAW_CLOCK_SYNCED;
	if (rd->dump.by_seq)
		h.flags |= FREC_RAW_MERGE_BY_SEQ;
	memcpy(h.clock, rd->v.hdr->clock, sizeof(h.clock) - 1);
	fwrite(&h, sizeof(h), 1, raw);
	if (rd->v.state_ok && (rd->v.state.clock.flags & FREC_REGION_STATE_TRACE_OFFSET)) {
		struct frec_raw_clock c;

		memset(&c, 0, sizeof(c));
		c.head.type = FREC_RAW_CLOCK;
		c.head.bytes = sizeof(c);
		c.offset = rd->v.state.clock.trace_offset;
		c.window = rd->v.state.clock.window;
		if (rd->v.state.clock.flags & FREC_REGION_STATE_OFFSET_CONSTANT)
			c.flags = FREC_RAW_CLOCK_OFFSET_CONSTANT;
		strcpy(c.trace_clock, FREC_RAW_TRACE_CLOCK_NAME);
		fwrite(&c, sizeof(c), 1, raw);
	}
	if (h.version >= FREC_RAW_VERSION_CONTEXT)
		put_tasks(&rd->v, raw);

	for (i = 0; i < rd->dump.nr_rings; i++) {
		const struct frec_region_ring_info *ring = &rd->dump.rings[i];
		struct frec_raw_ring r;

		memset(&r, 0, sizeof(r));
		r.head.type = FREC_RAW_RING;
		r.head.bytes = sizeof(r);
		r.id = ring->id;
		r.kind = ring->kind;
		r.order = ring->order;
		memcpy(r.name, ring->name, sizeof(r.name));
		fwrite(&r, sizeof(r), 1, raw);
		for (; p < rd->dump.nr_parts && rd->dump.parts[p].ring == i; p++)
			region_part(rd, raw, &rd->dump.parts[p]);
	}
	if (fclose(raw) | fclose(sites) | fclose(formats))
		return frec_errf(err, 0, "out of memory");
	return 0;
oom:
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
		end = frec_region_end_name(rd->v.state.end);
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
			fprintf(rd->errs, " (%llu %s)", rd->rejected[i],
				frec_region_reject_name(i));
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
	frec_region_dump_free(&rd->dump);
	rd->raw = rd->sites_text = rd->formats_text = NULL;
}
