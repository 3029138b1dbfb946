/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_trigger.h - triggers on call sites: freeze the rings, or print the
 * console dump, when a site records (frec_trigger.c).
 */
#ifndef _FREC_TRIGGER_H
#define _FREC_TRIGGER_H

#include <linux/compiler.h>
#include <linux/types.h>

struct dentry;
struct file;
struct frec_ring;
struct frec_site;
struct seq_file;

/*
 * A trigger word: the actions in the low bits, the threshold in ns above
 * them (0: none, the trigger fires on the site's next stored record).
 */
#define FREC_TRIGGER_FREEZE	0x1	/* freeze the ring of the firing record */
#define FREC_TRIGGER_FREEZE_ALL	0x2	/* freeze every ring */
#define FREC_TRIGGER_DUMP	0x4	/* the console dump */
#define FREC_TRIGGER_ACTIONS	0x7
#define FREC_TRIGGER_SHIFT	3
/* The longest threshold, in ns (about 73 years). */
#define FREC_TRIGGER_MAX_NS	(U64_MAX >> FREC_TRIGGER_SHIFT)

static inline u64 frec_trigger_threshold(u64 word)
{
	return word >> FREC_TRIGGER_SHIFT;
}

int frec_trigger_parse(const char *s, u64 *word, const char **why);
void frec_trigger_set(struct frec_site *site, unsigned int id, u64 word);
u64 frec_trigger_armed(const struct frec_site *site, unsigned int id);
void frec_trigger_show(struct seq_file *m, u64 word, const char *first);
void frec_trigger_forget(unsigned int id);

unsigned int frec_trigger_claim(struct frec_site *site, struct frec_ring *ring);
void frec_trigger_fired(struct frec_site *site, struct frec_ring *ring,
			unsigned int actions, u64 seq);
bool frec_trigger_span(struct frec_site *site, struct frec_ring *ring, u64 duration_ns);

/* Where frec_trigger_test_hook is called: between a firing's two steps. */
enum frec_trigger_hook {
	FREC_TRIGGER_HOOK_CLAIMED,	/* claim took the id bit, before the word */
	FREC_TRIGGER_HOOK_SPAN_TAKEN,	/* a span end took the word, before the copy */
};

#if IS_ENABLED(CONFIG_KUNIT)
/* The KUnit suite's: re-arms a site inside a firing, as another CPU may. */
extern void (*frec_trigger_test_hook)(enum frec_trigger_hook where, struct frec_site *site);
#endif

int frec_trigger_init(struct dentry *dir);
void frec_trigger_exit(void);

#endif /* _FREC_TRIGGER_H */
