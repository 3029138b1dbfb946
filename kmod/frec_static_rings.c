// SPDX-License-Identifier: GPL-2.0
/*
 * frec_static_rings.c - register the rings modules define with
 * FREC_DEFINE_RING() when they load, and let go of them when they unload.
 *
 * A module's definitions are static variables named FREC_RING_DEF_PREFIX
 * + the ring's name.  The kernel offers no way to find a custom ELF
 * section of another module, but at MODULE_STATE_COMING the module's
 * full symbol table (mod->kallsyms, before init trims it to the core
 * symbols) is in place, relocated: frec walks it for that prefix.  This
 * runs before the module's init function, so the module can record from
 * its very first line.  Registered definitions are remembered here, so
 * MODULE_STATE_GOING (after the module's exit function, or after a
 * failed init) needs no symbol table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <frec.h>

#include "frec_rings.h"
#include "frec_static_rings.h"

/**
 * struct frec_static_ring - one registered FREC_DEFINE_RING()
 * @node: entry in frec_static_rings.
 * @mod: the module defining it.
 * @def: the definition, in @mod's data.
 */
struct frec_static_ring {
	struct list_head node;
	struct module *mod;
	struct frec_ring_def *def;
};

static LIST_HEAD(frec_static_rings);
static DEFINE_MUTEX(frec_static_lock);

static void frec_static_ring_register(struct module *mod, struct frec_ring_def *def)
{
	struct frec_static_ring *sr;
	struct frec_ring *ring;

	sr = kmalloc(sizeof(*sr), GFP_KERNEL);
	if (!sr)
		return;
	ring = frec_ring_adopt(def);
	if (IS_ERR(ring)) {
		pr_err("%s: ring %s not registered (%pe); its records are dropped\n",
		       mod->name, def->name, ring);
		kfree(sr);
		return;
	}
	sr->mod = mod;
	sr->def = def;
	mutex_lock(&frec_static_lock);
	list_add(&sr->node, &frec_static_rings);
	mutex_unlock(&frec_static_lock);
	/* Pairs with nothing: the module's code has not run yet. */
	WRITE_ONCE(def->ring, ring);
}

/* Register every FREC_DEFINE_RING() of @mod, which is being loaded. */
static void frec_static_rings_coming(struct module *mod)
{
	const size_t plen = strlen(FREC_RING_DEF_PREFIX);
	struct mod_kallsyms *ks;
	const Elf_Sym *sym;
	const char *name;
	unsigned long addr;
	unsigned int i;

	/* Only the loader changes it, after init; we run before. */
	ks = rcu_dereference_protected(mod->kallsyms, true);
	for (i = 0; i < ks->num_symtab; i++) {
		sym = &ks->symtab[i];
		name = ks->strtab + sym->st_name;
		if (strncmp(name, FREC_RING_DEF_PREFIX, plen) ||
		    ELF_ST_TYPE(sym->st_info) != STT_OBJECT ||
		    sym->st_size != sizeof(struct frec_ring_def))
			continue;
		addr = kallsyms_symbol_value(sym);
		if (!within_module_core(addr, mod)) {
			pr_err("%s: %s is not in the module's data\n", mod->name, name);
			continue;
		}
		frec_static_ring_register(mod, (struct frec_ring_def *)addr);
	}
}

/* Let go of @mod's rings; with @mod NULL, of every module's. */
static void frec_static_rings_going(struct module *mod)
{
	struct frec_static_ring *sr, *next;

	mutex_lock(&frec_static_lock);
	list_for_each_entry_safe(sr, next, &frec_static_rings, node) {
		if (mod && sr->mod != mod)
			continue;
		if (sr->def->ring) {
			frec_ring_disown(sr->def->ring);
			WRITE_ONCE(sr->def->ring, NULL);
		}
		list_del(&sr->node);
		kfree(sr);
	}
	mutex_unlock(&frec_static_lock);
}

static int frec_static_rings_notify(struct notifier_block *nb, unsigned long state,
				    void *data)
{
	struct module *mod = data;

	if (mod == THIS_MODULE)
		return NOTIFY_DONE;
	if (state == MODULE_STATE_COMING)
		frec_static_rings_coming(mod);
	else if (state == MODULE_STATE_GOING)
		frec_static_rings_going(mod);
	return NOTIFY_OK;
}

static struct notifier_block frec_static_rings_nb = {
	.notifier_call = frec_static_rings_notify,
};

/* Called when frec loads: no client is loaded yet (they depend on frec). */
int frec_static_rings_init(void)
{
	return register_module_notifier(&frec_static_rings_nb);
}

/* Called when frec unloads, before the rings are freed. */
void frec_static_rings_exit(void)
{
	unregister_module_notifier(&frec_static_rings_nb);
	frec_static_rings_going(NULL);
}
