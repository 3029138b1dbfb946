/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_formats.h - the words of records that point to text: which they
 * are, and repointing them when a module goes (frec_formats.c).
 */
#ifndef _FREC_FORMATS_H
#define _FREC_FORMATS_H

#include <linux/types.h>

struct module;
struct frec_reader_record;

/* What a word of a record points to (frec_formats_record_refs()). */
enum frec_formats_ref_kind {
	FREC_FORMATS_REF_FORMAT,	/* the format of a site without an id */
	FREC_FORMATS_REF_STRING,	/* a %s argument */
	FREC_FORMATS_REF_CALLER,	/* the record's caller */
	FREC_FORMATS_REF_SYMBOL,	/* a %pS, %ps or %pB argument */
};

/**
 * struct frec_formats_ref - an address a record holds and what it is
 * @addr: the address.
 * @kind: what it points to.
 * @ext: for a caller or symbol: how it prints ('S', 's' or 'B').
 */
struct frec_formats_ref {
	u64 addr;
	enum frec_formats_ref_kind kind;
	char ext;
};

/* A caller, a format and an address per argument. */
#define FREC_FORMATS_REFS_MAX	6

unsigned int frec_formats_record_refs(const struct frec_reader_record *rec,
				      char *fmt, size_t fmt_size,
				      struct frec_formats_ref *refs);
bool frec_formats_module_going(struct module *mod, bool init_only);

#endif /* _FREC_FORMATS_H */
