// SPDX-License-Identifier: GPL-2.0
/*
 * frec_static_rings.c - register the rings modules define with
 * FREC_DEFINE_RING() when they load, and let go of them when they unload.
 *
 * A module's definitions are static variables named FREC_RING_DEF_PREFIX
 * + the ring's name, which frec_modules.c finds in the module's symbol
 * table before the module's init function runs, so the module can record
 * from its very first line.  Registered definitions are remembered here, so
 * MODULE_STATE_GOING (after the module's exit function, or after a
 * failed init) needs no symbol table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <frec.h>

#include "frec_module_objects.h"
#include "frec_modules.h"
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

static void frec_static_ring_found(struct module *mod, void *def)
{
	frec_static_ring_register(mod, def);
}

/**
 * frec_static_rings_coming() - register @mod's FREC_DEFINE_RING() rings
 * @mod: a module being loaded, before its init function.
 *
 * Context: Process context, the module notifier (frec_modules.c).
 */
void frec_static_rings_coming(struct module *mod)
{
	frec_module_objects(mod, FREC_RING_DEF_PREFIX, sizeof(struct frec_ring_def),
			    frec_static_ring_found);
}

/**
 * frec_static_rings_going() - let go of @mod's rings
 * @mod: a module going, or NULL for every module's (frec unloads).
 *
 * Context: Process context.
 */
void frec_static_rings_going(struct module *mod)
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

/**
 * frec_static_rings_exit() - let go of every module's rings
 *
 * Context: Process context, when frec unloads, before the rings are freed
 * and after frec_modules_exit().
 */
void frec_static_rings_exit(void)
{
	frec_static_rings_going(NULL);
}
