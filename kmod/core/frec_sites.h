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
 * test (frec_site_id_plain()).  FREC_SITE_TRIGGER is OR'ed into the id while a
 * trigger without a threshold is armed on the site (frec_trigger.c): its
 * records then take the slow path, which fires it.
 */
#define FREC_SITE_UNSEEN	BIT(30)
#define FREC_SITE_TRIGGER	BIT(29)
#define FREC_SITE_CLAIMING	(~0U)
#define FREC_SITE_NO_ID		(~0U - 1)

/* struct frec_site.flags: the site's module went; this is frec's copy. */
#define FREC_SITE_KEPT		0x1

u64 frec_site_word_slow(struct frec_site *site, const struct frec_ring *ring,
			unsigned long caller);

/**
 * frec_site_id_plain() - whether a site's id word is a plain id
 * @id: the word (struct frec_site.id).
 *
 * A record of a site whose word is a plain id stores it; any other word
 * (no id yet, FREC_SITE_UNSEEN, FREC_SITE_TRIGGER, no room) takes the
 * slow path, frec_site_word_slow().
 *
 * Context: Any context.
 * Return: true if @id is a plain id.
 */
static __always_inline bool frec_site_id_plain(unsigned int id)
{
	return likely(id - 1 < FREC_SITE_ID_LIMIT - 1);
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

int frec_sites_check(void);
unsigned int frec_sites_wanted(void);
int frec_sites_init(void);
void frec_sites_exit(void);

#endif /* _FREC_SITES_H */
