// SPDX-License-Identifier: GPL-2.0
/*
 * frec_modules.c - what frec does as other modules come and go:
 *
 *  - MODULE_STATE_COMING, before the module's init function runs: register
 *    its FREC_DEFINE_RING() rings (frec_static_rings.c) and its call sites
 *    (frec_sites.c);
 *  - MODULE_STATE_LIVE, before its init sections are freed: keep what its
 *    sites and every record point to there (frec_formats.c);
 *  - MODULE_STATE_GOING, after its exit function or a failed init, with
 *    its memory still there: repoint every record away from it, its site
 *    ids included, copy into the black box what its persisted records now
 *    point to (frec_persist_texts.c), then let go of its rings and give
 *    its site ids back.
 *
 * Both are static objects in the module's data, found by symbol name
 * (frec_module_objects.c).
 *
 * The notifier steers services (frec_formats.c, frec_persist_texts.c) and
 * the registries under them (frec_sites.c, frec_static_rings.c), so it
 * sits above them all: the registries never call up to say a module is
 * going (doc/design.md, "Layers").
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>

#include "frec_formats.h"
#include "frec_modules.h"
#include "frec_persist.h"

static int frec_modules_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	bool sites_moved;

	if (mod == THIS_MODULE)
		return NOTIFY_DONE;
	if (state == MODULE_STATE_COMING) {
		frec_static_rings_coming(mod);
		frec_sites_coming(mod);
	} else if (state == MODULE_STATE_LIVE) {
		/* Its init sections are freed next. */
		frec_sites_init_going(mod);
		frec_formats_module_going(mod, true);
	} else if (state == MODULE_STATE_GOING) {
		/* Records first: they stop naming its sites by id. */
		sites_moved = frec_formats_module_going(mod, false);
		/* The black box's copies of what they now point to. */
		frec_persist_texts_sweep();
		frec_static_rings_going(mod);
		frec_sites_going(mod, sites_moved);
	}
	return NOTIFY_OK;
}

static struct notifier_block frec_modules_nb = {
	.notifier_call = frec_modules_notify,
};

/**
 * frec_modules_init() - start watching modules come and go
 *
 * Context: Process context, last when frec loads: no client is loaded yet
 * (they depend on frec).
 * Return: 0 or a negative errno.
 */
int frec_modules_init(void)
{
	return register_module_notifier(&frec_modules_nb);
}

/**
 * frec_modules_exit() - stop watching modules
 *
 * Context: Process context, when frec unloads.
 */
void frec_modules_exit(void)
{
	unregister_module_notifier(&frec_modules_nb);
}
