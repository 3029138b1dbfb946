// SPDX-License-Identifier: GPL-2.0
/*
 * frec_region_text.c - a region image's sites and texts as the lines of
 * frec's sites and formats files (uapi/frec_raw.h), so that a reader of
 * those files reads a region's alike: frec/previous/sites and
 * frec/previous/formats in the module, and the sites and formats
 * frec-decode makes of a region image before it decodes its records.
 *
 * Only valid entries are written; a corrupt one is told, with its byte
 * offset, and left out alone.  Strings are quoted as the live files quote
 * them (frec_format_quote()), cut at a NUL byte as the live files' C
 * strings are.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stdio.h>
#include "frec_user.h"
#endif

#include "frec_format_quote.h"
#include "frec_region_text.h"

static void frec_text_puts(const struct frec_text_sink *out, const char *s)
{
	out->write(out->ctx, s, strlen(s));
}

/**
 * frec_region_quote() - write a region string as the formats file quotes one
 * @out: where it goes.
 * @b: the string: its bytes up to the first NUL, if any.
 *
 * Copies a few bytes at a time into a NUL-terminated piece, since the
 * region's strings are not NUL-terminated; allocates nothing.
 *
 * Context: Any context @out may be written from.
 */
void frec_region_quote(const struct frec_text_sink *out,
		       const struct frec_region_bytes *b)
{
	char piece[32], quoted[2 * sizeof(piece) + 1];
	size_t len = strnlen(b->s, b->len), at = 0, n, used, q;

	out->write(out->ctx, "\"", 1);
	while (at < len) {
		n = min_t(size_t, len - at, sizeof(piece) - 1);
		memcpy(piece, b->s + at, n);
		piece[n] = '\0';
		q = frec_format_quote(quoted, sizeof(quoted), piece, &used);
		out->write(out->ctx, quoted, q);
		at += used;
	}
	out->write(out->ctx, "\"", 1);
}

static void frec_region_tell(const struct frec_region_report *rep, u64 where,
			     const char *what, const char *why)
{
	if (rep && rep->bad)
		rep->bad(rep->ctx, where, what, why);
}

/**
 * frec_region_sites_write() - the valid sites, as frec/sites lists sites
 * @v: an open view.
 * @out: where the lines go: the columns' comment line, then one line per
 *	valid site, by id.
 * @rep: where a corrupt entry is told, or NULL.
 *
 * Context: Any context @out may be written from; takes time linear in the
 * sites section.
 * Return: the corrupt entries found (a corrupt caller counts, its site is
 * still listed, with no caller).
 */
u32 frec_region_sites_write(const struct frec_region_view *v,
			    const struct frec_text_sink *out,
			    const struct frec_region_report *rep)
{
	static const char *const levels[] = { "", "err", "warn", "info", "debug", "trace" };
	struct frec_region_site_info s;
	char num[48];
	u32 id, bad = 0;
	u64 where;
	int ret;

	frec_text_puts(out, FREC_REGION_SITES_HEADER);
	for (id = 1; id < v->nr_entries[FREC_REGION_SITES]; id++) {
		ret = frec_region_site_get(v, id, &s, &where);
		if (ret < 0) {
			frec_region_tell(rep, where, "site entry",
					 "corrupt (checksum or bounds), skipped");
			bad++;
			continue;
		}
		/* 0: no site; 2: a site kept without texts, nothing to list. */
		if (ret != 1)
			continue;
		if (s.caller_bad) {
			frec_region_tell(rep, where, "site entry",
					 "caller corrupt, callers print as addresses");
			bad++;
		}
		snprintf(num, sizeof(num), "%u %s %u ", id, levels[s.level], s.line);
		frec_text_puts(out, num);
		frec_region_quote(out, &s.module);
		out->write(out->ctx, " ", 1);
		frec_region_quote(out, &s.file);
		out->write(out->ctx, " ", 1);
		frec_region_quote(out, &s.function);
		snprintf(num, sizeof(num), " 0x%llx ", (unsigned long long)s.caller);
		frec_text_puts(out, num);
		frec_region_quote(out, &s.caller_name);
		out->write(out->ctx, " ", 1);
		frec_region_quote(out, &s.format);
		out->write(out->ctx, "\n", 1);
	}
	return bad;
}

/**
 * frec_region_texts_write() - the valid texts, as frec/formats lists them
 * @v: an open view.
 * @out: where the lines go, one per valid text, in the table's order; a
 *	text with a "from" time (an address's later text) says it after the
 *	address: "0xADDR from NS : ...".
 * @rep: where a corrupt entry is told, or NULL.
 *
 * Context: Any context @out may be written from; takes time linear in the
 * texts section.
 * Return: the corrupt entries found.
 */
u32 frec_region_texts_write(const struct frec_region_view *v,
			    const struct frec_text_sink *out,
			    const struct frec_region_report *rep)
{
	struct frec_region_text_info t;
	char num[64];
	u32 i, bad = 0;
	u64 where;
	int ret;

	for (i = 0; i < v->nr_entries[FREC_REGION_TEXTS]; i++) {
		ret = frec_region_text_get(v, i, &t, &where);
		if (ret < 0) {
			frec_region_tell(rep, where, "text entry",
					 "corrupt (checksum or bounds), skipped");
			bad++;
			continue;
		}
		/* A task's name is no address's text: frec-decode reads it apart. */
		if (!ret || t.kind == FREC_REGION_TEXT_TASK)
			continue;
		/* A later text of an address says from when (frec-decode's formats.c). */
		if (t.from)
			snprintf(num, sizeof(num), "0x%llx from %llu : ",
				 (unsigned long long)t.addr, (unsigned long long)t.from);
		else
			snprintf(num, sizeof(num), "0x%llx : ", (unsigned long long)t.addr);
		frec_text_puts(out, num);
		if (t.kind == FREC_REGION_TEXT_SYMBOL)
			frec_text_puts(out, "symbol ");
		frec_region_quote(out, &t.text);
		out->write(out->ctx, "\n", 1);
	}
	return bad;
}
