// SPDX-License-Identifier: GPL-2.0
/*
 * frec_main.c - module load and unload: the parts of frec, in order.
 *
 * Everything frec shows userspace lives under /sys/kernel/debug/frec/
 * (frec_debugfs.c), created first and removed last.
 *
 * The top layer (doc/design.md, "Layers"): the one file that names every
 * other.  It wires the core's calls up to the services (frec_hooks.h)
 * before anything can make one, and unwires them after the last.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "frec_crash.h"
#include "frec_debugfs.h"
#include "frec_fault.h"
#include "frec_hooks.h"
#include "frec_modules.h"
#include "frec_persist.h"
#include "frec_region_kernel.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_hist_sites.h"
#include "frec_static_rings.h"
#include "frec_texts.h"
#include "frec_trigger.h"

static const struct frec_record_hooks frec_record_hooks = {
	.trigger_claim = frec_trigger_claim,
	.trigger_fired = frec_trigger_fired,
	.span_over = frec_trigger_span,
	.span_hist_slow = frec_hist_span_add_slow,
};

static const struct frec_site_hooks frec_site_hooks = {
	.id_reused = frec_hist_site_reused,
	.id_given = frec_trigger_forget,
	.registered = frec_hist_site_registered,
};

static const struct frec_ring_hooks frec_ring_hooks = {
	.added = frec_debugfs_add_ring,
	.removed = frec_debugfs_remove_ring,
};

static int __init frec_init(void)
{
	int err;

	/*
	 * Every parameter is checked before the region is touched: taking it
	 * ends the previous boot's black box, which a load refused for a bad
	 * value must leave for the next good one.
	 */
	err = frec_persist_check() ?: frec_sites_check() ?: frec_crash_settings_check();
	if (err)
		return err;
	/* Before any ring, site or client module can call a hook. */
	frec_hooks_wire(&frec_record_hooks, &frec_site_hooks, &frec_ring_hooks);
	/* Rings get their debugfs directory as they are created. */
	err = frec_debugfs_init();
	if (err)
		goto out_hooks;
	frec_fault_init(frec_debugfs_dir());
	/* The previous boot's region is kept before any ring records. */
	err = frec_region_init(frec_debugfs_dir(), frec_sites_wanted());
	if (err)
		goto out_debugfs;
	err = frec_persist_init();
	if (err)
		goto out_region;
	err = frec_sites_init();
	if (err)
		goto out_persist;
	/* Trigger words by site id; ids given before it have none. */
	err = frec_trigger_init(frec_debugfs_dir());
	if (err)
		goto out_sites;
	/* Span ends' histograms by site id, as triggers. */
	err = frec_hist_sites_init(frec_debugfs_dir());
	if (err)
		goto out_trigger;
	err = frec_rings_init();
	if (err)
		goto out_hist;
	/* Sweeps of the persisted rings' texts read records. */
	err = frec_persist_texts_init(frec_debugfs_dir());
	if (err)
		goto out_rings;
	err = frec_crash_settings_init(frec_debugfs_dir());
	if (err)
		goto out_texts;
	err = frec_crash_init(frec_debugfs_dir());
	if (err)
		goto out_settings;
	err = frec_modules_init();
	if (err)
		goto out_crash;
	return 0;

out_crash:
	frec_crash_exit();
out_settings:
	frec_crash_settings_exit();
out_texts:
	frec_persist_texts_exit();
out_rings:
	frec_rings_exit();
out_hist:
	frec_hist_sites_exit();
out_trigger:
	frec_trigger_exit();
out_sites:
	frec_sites_exit();
out_persist:
	frec_texts_exit();
	frec_persist_exit();
out_region:
	frec_region_exit();
out_debugfs:
	frec_debugfs_exit();
out_hooks:
	frec_hooks_unwire();
	return err;
}

static void __exit frec_exit(void)
{
	frec_modules_exit();
	/* The last sweep, while every ring is there. */
	frec_persist_texts_exit();
	frec_static_rings_exit();
	frec_crash_exit();
	frec_crash_settings_exit();
	frec_rings_exit();
	frec_hist_sites_exit();
	frec_sites_exit();
	frec_trigger_exit();
	frec_texts_exit();
	frec_persist_exit();
	frec_region_exit();
	frec_debugfs_exit();
	/* Nothing is left to call a hook. */
	frec_hooks_unwire();
}

module_init(frec_init);
module_exit(frec_exit);

MODULE_DESCRIPTION("frec: a printk-style flight recorder");
MODULE_LICENSE("GPL");
MODULE_VERSION(FREC_VERSION);
