// SPDX-License-Identifier: GPL-2.0
/*
 * frec_formats.c - keep records readable after the module that wrote them
 * is gone.
 *
 * An event stores the address of its format and, for %s, the address of
 * the string: both usually literals in the caller's module.  When that
 * module unloads (MODULE_STATE_GOING, while its memory is still there),
 * or frees its init sections (MODULE_STATE_LIVE), frec copies every such
 * string that a record still points to into memory of its own, once per
 * distinct text, and repoints the record's word with cmpxchg().
 *
 * Concurrency: the record's owner CPU may reuse the slot meanwhile; its
 * new word then differs from the old address and the cmpxchg() fails,
 * harmlessly.  A reader copying the slot sees either address, both to the
 * same text.  The copies live until frec unloads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "frec_formats.h"
#include "frec_rings.h"

/* Longest %s argument copied; longer strings are cut. */
#define FREC_SAVED_ARG_MAX	256

struct frec_saved_string {
	struct list_head node;
	char text[];
};

static LIST_HEAD(frec_saved_strings);
static DEFINE_MUTEX(frec_saved_lock);

/* A frec-owned copy of @s (at most @max bytes), shared by equal texts. */
static const char *frec_save_string(const char *s, size_t max)
{
	struct frec_saved_string *saved;
	size_t len = strnlen(s, max);

	mutex_lock(&frec_saved_lock);
	list_for_each_entry(saved, &frec_saved_strings, node) {
		if (strlen(saved->text) == len && !memcmp(saved->text, s, len))
			goto out;
	}
	saved = kmalloc(struct_size(saved, text, len + 1), GFP_KERNEL);
	if (saved) {
		memcpy(saved->text, s, len);
		saved->text[len] = '\0';
		list_add(&saved->node, &frec_saved_strings);
	}
out:
	mutex_unlock(&frec_saved_lock);
	return saved ? saved->text : NULL;
}

/* Repoint @word from @old, inside the module, to a frec-owned copy. */
static void frec_rehome_word(u64 *word, u64 old, size_t max)
{
	const char *copy = frec_save_string((const char *)(unsigned long)old, max);

	if (copy)
		cmpxchg(word, old, (u64)(unsigned long)copy);
}

struct frec_rehome {
	struct module *mod;
	bool init_only;
};

static bool frec_rehome_match(const struct frec_rehome *rh, u64 addr)
{
	if (rh->init_only)
		return within_module_init(addr, rh->mod);
	return within_module(addr, rh->mod);
}

static void frec_rehome_ring(struct frec_ring *ring, void *data)
{
	const struct frec_rehome *rh = data;
	struct frec_ring_store *store = frec_ring_store_locked(ring);
	struct frec_ring_cpu *rc;
	struct frec_slot *slot;
	unsigned long i;
	unsigned int sargs, a;
	u64 state, fmt, arg;
	int cpu;

	/* Only events point at formats and strings; records hold text. */
	if (ring->kind != FREC_RING_EVENTS)
		return;
	for_each_possible_cpu(cpu) {
		rc = per_cpu_ptr(store->cpus, cpu);
		for (i = 0; i < store->layout.nr_slots; i++) {
			slot = &rc->slots[i];
			/*
			 * Pairs with frec_ring_commit:A: once committed, the
			 * words below are this record's.
			 */
			state = smp_load_acquire(&slot->state);
			if (!state || (state & (FREC_SLOT_BUSY | FREC_SLOT_CONT)))
				continue;
			fmt = READ_ONCE(slot->data[FREC_EVENT_FMT]);
			if (!frec_rehome_match(rh, fmt))
				continue;
			/* The module's text is still mapped: read it now. */
			sargs = frec_format_string_args((const char *)(unsigned long)fmt);
			for (a = 0; a < FREC_EVENT_MAX_ARGS; a++) {
				arg = READ_ONCE(slot->data[FREC_EVENT_ARG0 + a]);
				if ((sargs & (1U << a)) && frec_rehome_match(rh, arg))
					frec_rehome_word(&slot->data[FREC_EVENT_ARG0 + a],
							 arg, FREC_SAVED_ARG_MAX);
			}
			frec_rehome_word(&slot->data[FREC_EVENT_FMT], fmt, PAGE_SIZE);
		}
	}
}

static int frec_module_notify(struct notifier_block *nb, unsigned long state,
			      void *data)
{
	struct frec_rehome rh = { .mod = data };

	if (rh.mod == THIS_MODULE)
		return NOTIFY_DONE;
	if (state == MODULE_STATE_LIVE)
		rh.init_only = true;	/* its init sections are about to go */
	else if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	frec_rings_for_each(frec_rehome_ring, &rh);
	/* Readers that took an old address are done with it. */
	synchronize_rcu();
	return NOTIFY_OK;
}

static struct notifier_block frec_module_nb = {
	.notifier_call = frec_module_notify,
};

/* Called when frec loads. */
int frec_formats_init(void)
{
	return register_module_notifier(&frec_module_nb);
}

/* Called when frec unloads, after its rings are gone. */
void frec_formats_exit(void)
{
	struct frec_saved_string *saved, *next;

	unregister_module_notifier(&frec_module_nb);
	list_for_each_entry_safe(saved, next, &frec_saved_strings, node) {
		list_del(&saved->node);
		kfree(saved);
	}
}
