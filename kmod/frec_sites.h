/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_sites.h - call sites: their numbers, their texts, and the files
 * that list them (frec_sites.c, frec_control.c).
 */
#ifndef _FREC_SITES_H
#define _FREC_SITES_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/types.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_format_kernel.h"

struct frec_ring;
struct seq_file;

/*
 * struct frec_site.id, besides an id: FREC_SITE_UNSEEN is OR'ed into the
 * id of a site registered when its module loaded, until its first record;
 * FREC_SITE_CLAIMING while a context registers it; FREC_SITE_NO_ID once
 * the table was full.  All three make an id fail the record path's one
 * test (frec_site_word()).
 */
#define FREC_SITE_UNSEEN	BIT(30)
#define FREC_SITE_CLAIMING	(~0U)
#define FREC_SITE_NO_ID		(~0U - 1)

/* struct frec_site.flags: the site's module went; this is frec's copy. */
#define FREC_SITE_KEPT		0x1

u64 frec_site_word_slow(struct frec_site *site, const struct frec_ring *ring,
			unsigned long caller);

/**
 * frec_site_word() - what a record of @site stores in its site word
 * @site: the call site.
 * @ring: the ring it records into.
 * @caller: the record's caller.
 *
 * The site's id once it has one and has stored a record; the first
 * record registers the site if its module's load did not, and notes
 * @caller and @ring for frec/sites and frec/control.
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: the site word (uapi/frec_raw.h, FREC_SITE_ID_LIMIT).
 */
static __always_inline u64 frec_site_word(struct frec_site *site,
					  const struct frec_ring *ring,
					  unsigned long caller)
{
	unsigned int id = READ_ONCE(site->id);

	if (likely(id - 1 < FREC_SITE_ID_LIMIT - 1))
		return id;
	return frec_site_word_slow(site, ring, caller);
}

int frec_site_format(char *buf, size_t size, u64 word);

/**
 * struct frec_site_texts - a site's texts as frec_site_texts() read them
 * @fmt: the format.
 * @file: the source file.
 * @func: the function.
 * @modname: the module.
 */
struct frec_site_texts {
	char fmt[FREC_FORMAT_FMT_MAX];
	char file[256];
	char func[KSYM_NAME_LEN];
	char modname[MODULE_NAME_LEN];
};

const struct frec_site_texts *frec_site_texts(const struct frec_site *site);

void frec_sites_counts(unsigned int *registered, unsigned int *refused,
		       unsigned int *capacity);
unsigned int frec_sites_last_id(void);
const char *frec_site_format_in(u64 id, struct module *mod);
struct frec_site *frec_site_locked(unsigned int id);
const char *frec_site_caller_symbol(const struct frec_site *site, char *buf);

/* seq_file iteration by id, under frec_sites_lock; position 0 is a header. */
void *frec_sites_seq_start(struct seq_file *m, loff_t *pos);
void *frec_sites_seq_next(struct seq_file *m, void *v, loff_t *pos);
void frec_sites_seq_stop(struct seq_file *m, void *v);
unsigned int frec_sites_seq_id(void *v);
void frec_sites_seq_quote(struct seq_file *m, const char *s);

extern struct mutex frec_sites_lock;

int frec_sites_init(void);
void frec_sites_exit(void);

#endif /* _FREC_SITES_H */
