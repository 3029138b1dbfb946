// SPDX-License-Identifier: GPL-2.0
/*
 * frec_formats.c - keep records readable, and their code addresses named
 * as they were, after the module they point into is gone.
 *
 * A record points into memory it does not own: an event stores the
 * address of its format and, for %s, of the string; every record stores
 * its caller's address; %pS, %ps and %pB arguments are code addresses.
 * Any of them may lie in a module other than the one that recorded (a
 * helper in module A logging a literal of module B), and in its init
 * sections.  When a module goes (MODULE_STATE_GOING, its memory still
 * there) or frees its init sections (MODULE_STATE_LIVE), frec walks every
 * record and, for each word that points into the memory about to go:
 *
 *  - a format or a %s string: copies the text into memory of its own
 *    (once per distinct text) and repoints the word at the copy;
 *  - the id of one of the module's call sites (MODULE_STATE_GOING only):
 *    repoints the word at a copy of the site's format, as a site without
 *    an id stores it, so that the id can be given to a site loaded later
 *    (frec_sites.c);
 *  - a caller or a symbol argument: names the address now, as the dump
 *    would ("fn+0x1a/0x80 [mod]"), saves that text and repoints the word
 *    at it (a caller word, which has 32 bits for its caller, at the
 *    saved text's number: frec_texts_saved_caller()).
 *    frec_texts_saved_symbol() tells the formatter that such a word is
 *    text, not code: a saved text lives in frec's heap, where no
 *    code is, so the two can never be confused.  A later module loaded
 *    at the same addresses can then never be taken for the code that
 *    recorded.
 *
 * The copies are frec_texts.c's; readers that copied a record out before
 * its words were repointed learn of it through that file's generation
 * (frec_texts_repointed(), called here after a walk that moved a word).
 *
 * Concurrency with writers: the record's owner CPU may reuse the slot
 * meanwhile; its new word then differs from the old address and the
 * cmpxchg() fails, harmlessly.  A reader copying the slot sees either
 * address, both to the same text (the copy is complete before the fully
 * ordered cmpxchg() publishes it).  This is the one write frec makes into
 * another CPU's slots: see "Memory ordering" in frec_rb.c.
 *
 * The copies live until frec unloads.  A %s string longer than
 * FREC_SAVED_STRING_MAX bytes is kept as its first FREC_SAVED_STRING_MAX
 * (logged); a dump line shows at most FREC_FORMAT_LINE_MAX anyway.
 *
 * Above the registries it walks (frec_rings.c, frec_sites.c): the text
 * store itself is below them, since frec_sites.c keeps texts there too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "frec_caller_word.h"
#include "frec_compat.h"
#include "frec_format.h"
#include "frec_format_kernel.h"
#include "frec_formats.h"
#include "frec_reader.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_texts.h"

/* Slots looked at between two cond_resched() of the walk. */
#define FREC_REHOME_BATCH	4096

/**
 * frec_formats_record_refs() - the addresses a record holds that point to
 *	text a reader needs: its caller, the format of a site without an
 *	id, its %s strings and its symbol arguments
 * @rec: the record, inside the RCU read-side section it was read in.
 * @fmt: room for the site's format, read to find its pointer arguments.
 * @fmt_size: its size (FREC_FORMAT_FMT_MAX).
 * @refs: FREC_FORMATS_REFS_MAX entries, filled in.
 *
 * Debugfs formats lists what they point to for frec-decode; the black box
 * copies it into its region (frec_persist_texts.c).
 *
 * Context: Process context, inside the record's RCU read-side section.
 * Return: how many of @refs are filled in.
 */
unsigned int frec_formats_record_refs(const struct frec_reader_record *rec,
				      char *fmt, size_t fmt_size,
				      struct frec_formats_ref *refs)
{
	struct frec_format_ptr_args pa;
	unsigned int a, n = 0;

	refs[n++] = (struct frec_formats_ref){ rec->ent.caller, FREC_FORMATS_REF_CALLER, 'S' };
	if (rec->ring->kind != FREC_RING_EVENTS)
		return n;
	/* A site's format is in frec/sites; a format address is listed here. */
	if (rec->ent.site >= FREC_SITE_ID_LIMIT)
		refs[n++] = (struct frec_formats_ref){ rec->ent.site, FREC_FORMATS_REF_FORMAT };
	if (frec_site_format(fmt, fmt_size, rec->ent.site) < 0)
		return n;
	frec_format_pointer_args(fmt, &pa);
	for (a = 0; a < FREC_EVENT_MAX_ARGS; a++) {
		if (pa.strings & BIT(a))
			refs[n++] = (struct frec_formats_ref){ rec->ent.args[a],
							       FREC_FORMATS_REF_STRING };
		else if (pa.symbols & BIT(a))
			refs[n++] = (struct frec_formats_ref){ rec->ent.args[a],
							       FREC_FORMATS_REF_SYMBOL, pa.ext[a] };
	}
	return n;
}

/**
 * struct frec_rehome - one module's memory going away
 * @mod: the module.
 * @init_only: only its init sections go (MODULE_STATE_LIVE).
 * @moved: words repointed so far.
 * @site_left: a record still names one of @mod's call sites by id.
 * @buf: a format or string read out of memory.
 * @sym: a symbol's text.
 */
struct frec_rehome {
	struct module *mod;
	bool init_only;
	unsigned long moved;
	bool site_left;
	char buf[FREC_SAVED_STRING_MAX + 1];
	char sym[KSYM_SYMBOL_LEN];
};

static bool frec_rehome_match(const struct frec_rehome *rh, u64 addr)
{
	if (rh->init_only)
		return within_module_init(addr, rh->mod);
	return within_module(addr, rh->mod);
}

/*
 * Repoint @word from @old to @copy; the owner may have reused it meanwhile.
 * False if there is no copy (no memory): the record keeps @old.
 */
static bool frec_rehome_word(struct frec_rehome *rh, u64 *word, u64 old, const char *copy)
{
	if (!copy)
		return false;
	/*
	 * Fully ordered (arm64 too: a successful cmpxchg() is a full
	 * barrier): the copy is whole before any reader can see it.
	 */
	if (cmpxchg(word, old, (u64)(unsigned long)copy) == old) /* LMM(frec_rehome_word:A) */
		rh->moved++;
	return true;
}

/* Repoint a string word (a format, or a %s argument) at a copy. */
static void frec_rehome_string(struct frec_rehome *rh, u64 *word, u64 addr, size_t max)
{
	frec_rehome_word(rh, word, addr, frec_texts_keep_string(rh->buf, addr, max, rh->mod->name));
}

/* Repoint a code address word at the name it has now, for conversion @ext. */
static void frec_rehome_symbol(struct frec_rehome *rh, u64 *word, u64 addr, char ext)
{
	/* NULL if it names nothing: it prints as an address anyway. */
	frec_rehome_word(rh, word, addr, frec_texts_keep_symbol(rh->sym, addr, ext));
}

/*
 * Repoint a caller word at the name its caller has now: a caller word
 * holds the name's number (uapi/frec_raw.h, "The caller word").
 */
static void frec_rehome_caller(struct frec_rehome *rh, u64 *word, u64 old)
{
	const char *copy = frec_texts_keep_symbol(rh->sym,
						  frec_caller_of(old, frec_caller_base()), 'S');
	u32 number;
	u64 new;

	if (!copy)
		return;
	number = (u32)frec_texts_saved_caller(copy);
	new = frec_caller_word_saved(number, frec_context_of(old));
	/* Fully ordered, as frec_rehome_word:A. */
	if (cmpxchg(word, old, new) == old) /* LMM(frec_rehome_caller:A) */
		rh->moved++;
}

/*
 * A site id of the module going becomes the address of a copy of its
 * format, so that the id can be given again (frec_sites_going()).
 */
static void frec_rehome_site_id(struct frec_rehome *rh, u64 *word, u64 id)
{
	const char *fmt = frec_site_format_in(id, rh->mod);
	const char *copy;

	if (!fmt)
		return;
	copy = frec_texts_keep_string(rh->buf, (unsigned long)fmt, FREC_FORMAT_FMT_MAX - 1,
				      rh->mod->name);
	if (!frec_rehome_word(rh, word, id, copy))
		rh->site_left = true;
}

/* One committed record's first slot. */
static void frec_rehome_record(struct frec_rehome *rh, struct frec_ring *ring,
			       struct frec_slot *slot)
{
	struct frec_format_ptr_args pa;
	u64 site, arg, word;
	bool any = false;
	unsigned int a;

	word = READ_ONCE(slot->data[FREC_EVENT_CALLER]);
	if (frec_rehome_match(rh, frec_caller_of(word, frec_caller_base())))
		frec_rehome_caller(rh, &slot->data[FREC_EVENT_CALLER], word);
	/*
	 * A site without an id stores its format's address, in either kind of
	 * ring: a record ring's arguments are formatted with it when read.
	 * A site's id becomes such an address when the site's module goes.
	 */
	site = READ_ONCE(slot->data[FREC_EVENT_SITE]);
	if (site >= FREC_SITE_ID_LIMIT && frec_rehome_match(rh, site))
		frec_rehome_string(rh, &slot->data[FREC_EVENT_SITE], site, FREC_FORMAT_FMT_MAX - 1);
	else if (site < FREC_SITE_ID_LIMIT && !rh->init_only)
		frec_rehome_site_id(rh, &slot->data[FREC_EVENT_SITE], site);
	/* A record ring's %s strings are copied into the record. */
	if (ring->kind != FREC_RING_EVENTS)
		return;
	site = READ_ONCE(slot->data[FREC_EVENT_SITE]);
	for (a = 0; a < FREC_EVENT_MAX_ARGS; a++)
		any |= frec_rehome_match(rh, READ_ONCE(slot->data[FREC_EVENT_ARG0 + a]));
	/* The format, wherever it lives, says which arguments are pointers. */
	if (any && frec_site_format(rh->buf, FREC_FORMAT_FMT_MAX, site) >= 0) {
		frec_format_pointer_args(rh->buf, &pa);
		for (a = 0; a < FREC_EVENT_MAX_ARGS; a++) {
			arg = READ_ONCE(slot->data[FREC_EVENT_ARG0 + a]);
			if (!frec_rehome_match(rh, arg))
				continue;
			if (pa.strings & BIT(a))
				frec_rehome_string(rh, &slot->data[FREC_EVENT_ARG0 + a], arg,
						   FREC_SAVED_STRING_MAX);
			else if (pa.symbols & BIT(a))
				frec_rehome_symbol(rh, &slot->data[FREC_EVENT_ARG0 + a], arg,
						   pa.ext[a]);
		}
	}
}

static void frec_rehome_ring(struct frec_ring *ring, void *data)
{
	struct frec_rehome *rh = data;
	struct frec_ring_store *store = frec_ring_store_locked(ring);
	struct frec_rb_cpu *rc;
	struct frec_slot *slot;
	unsigned long i, n;
	u64 state;
	int cpu;

	for_each_possible_cpu(cpu) {
		rc = per_cpu_ptr(store->cpus, cpu);
		/* Slots never written hold nothing to repoint. */
		n = min_t(unsigned long, local_read(&rc->head), store->layout.nr_slots);
		for (i = 0; i < n; i++) {
			if (!(i % FREC_REHOME_BATCH))
				cond_resched();
			slot = &rc->slots[i];
			/* Pairs with frec_rb_commit:A: the words below are this record's. */
			state = smp_load_acquire(&slot->state); /* LMM(frec_rehome_ring:A) */
			if (!state || (state & (FREC_SLOT_BUSY | FREC_SLOT_CONT)))
				continue;
			frec_rehome_record(rh, ring, slot);
		}
	}
}

/**
 * frec_formats_module_going() - repoint records away from memory about to go
 * @mod: the module.
 * @init_only: only its init sections go (MODULE_STATE_LIVE); else the
 *	whole module (MODULE_STATE_GOING), and with it its call sites.
 *
 * Walks every record (see the DOC comment above).  When the whole module
 * goes, a record naming one of its call sites by id is repointed at a
 * copy of the site's format, as a site without an id stores it, so that
 * frec_sites_going() can give the id to another site.
 *
 * Context: Process context, the module notifier (frec_modules.c), while
 * @mod's memory is still there.
 * Return: true if every record naming a site of @mod by id was
 * repointed; false if some could not be (out of memory), and those ids
 * must stay @mod's.
 */
bool frec_formats_module_going(struct module *mod, bool init_only)
{
	struct frec_rehome *rh;
	bool sites_moved;

	rh = kvzalloc(sizeof(*rh), GFP_KERNEL);
	if (!rh) {
		pr_err("%s: no memory to keep its records' text; they may print as addresses\n",
		       mod->name);
		return false;
	}
	rh->mod = mod;
	rh->init_only = init_only;
	frec_rings_for_each(frec_rehome_ring, rh);
	if (rh->moved)
		frec_texts_repointed();
	sites_moved = !rh->site_left;
	kvfree(rh);
	return sites_moved;
}
