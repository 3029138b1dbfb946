// SPDX-License-Identifier: GPL-2.0
/*
 * frec_main.c - module load and unload, and the debugfs root directory.
 *
 * Everything frec shows userspace lives under /sys/kernel/debug/frec/.
 * The directory is created when the module loads and removed, with all
 * files below it, when it unloads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_formats.h"
#include "frec_rings.h"
#include "frec_static_rings.h"

static struct dentry *frec_debugfs_root;

static int frec_version_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "frec api %d.%d raw-format %d\n",
		   FREC_API_VERSION_MAJOR, FREC_API_VERSION_MINOR,
		   FREC_RAW_VERSION);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frec_version);

static int __init frec_init(void)
{
	struct dentry *root;
	int err;

	err = frec_formats_init();
	if (err)
		return err;
	err = frec_rings_init();
	if (err)
		goto out_formats;
	err = frec_static_rings_init();
	if (err)
		goto out_rings;
	root = debugfs_create_dir("frec", NULL);
	if (IS_ERR(root)) {
		pr_err("cannot create debugfs directory: %ld\n", PTR_ERR(root));
		err = PTR_ERR(root);
		goto out_static;
	}
	frec_debugfs_root = root;

	/* Root only: later files expose kernel addresses. */
	debugfs_create_file("version", 0400, root, NULL, &frec_version_fops);
	return 0;

out_static:
	frec_static_rings_exit();
out_rings:
	frec_rings_exit();
out_formats:
	frec_formats_exit();
	return err;
}

static void __exit frec_exit(void)
{
	debugfs_remove(frec_debugfs_root);
	frec_static_rings_exit();
	frec_rings_exit();
	frec_formats_exit();
}

module_init(frec_init);
module_exit(frec_exit);

MODULE_DESCRIPTION("frec: a printk-style flight recorder");
MODULE_LICENSE("GPL");
