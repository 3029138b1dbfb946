// SPDX-License-Identifier: GPL-2.0
/*
 * frec_debugfs.c - /sys/kernel/debug/frec/ and its root files; each
 * ring's directory is frec_debugfs_ring.c's, the parsing every control
 * file shares frec_debugfs_input.c's.
 *
 *   version              API and raw format versions
 *   order                the order a dump merges records of per-CPU-order
 *                        rings in: time (the clock is synchronised across
 *                        CPUs) or time-approximate (frec_order.c)
 *   dump, raw, formats   records out (frec_dump.c)
 *   sites                every call site, for frec-decode (frec_sites.c)
 *   control              list call sites, switch them on, off, or to another
 *                        level (frec_control.c)
 *   filter               what dump shows (frec_filter_file.c)
 *   enable               1/0: frec as a whole (a static key)
 *   clear                write 1: clear every ring
 *   dump_to_console, oops_dump, oops_records, oops_bytes, oops_rings
 *                        the console dump (frec_crash_settings.c)
 *   test_fault           tests only (frec_fault.c)
 *   rings/<name>/        dump, enable, level, size, clear, stats
 *                        (frec_debugfs_ring.c)
 *
 * Every file is root-only: records hold kernel addresses.  Every write is
 * parsed whole and strictly; a bad one returns an error and changes
 * nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_debugfs.h"
#include "frec_dump.h"
#include "frec_filter_file.h"
#include "frec_filter.h"
#include "frec_format.h"
#include "frec_order.h"
#include "frec_rings.h"

static struct dentry *frec_debugfs_root;
static struct dentry *frec_debugfs_rings;

/* frec/enable */

static ssize_t frec_enable_read(struct file *file, char __user *ubuf, size_t count,
				loff_t *ppos)
{
	char buf[3];

	snprintf(buf, sizeof(buf), "%d\n", static_key_enabled(&frec_enabled_key));
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t frec_enable_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	bool on;
	int err = frec_debugfs_get_bool(file, ubuf, count, ppos, &on);

	if (err)
		return err;
	if (on)
		static_branch_enable(&frec_enabled_key);
	else
		static_branch_disable(&frec_enabled_key);
	return count;
}

static const struct file_operations frec_enable_fops = {
	.owner = THIS_MODULE,
	.read = frec_enable_read,
	.write = frec_enable_write,
	.llseek = default_llseek,
};

/* frec/clear and rings/<name>/clear */

static ssize_t frec_clear_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	bool yes;
	int err = frec_debugfs_get_bool(file, ubuf, count, ppos, &yes);

	if (err)
		return err;
	if (!yes) {
		frec_debugfs_refuse(file, "0", "write 1 to clear");
		return -EINVAL;
	}
	err = ring ? frec_ring_clear(ring) : frec_rings_clear_all();
	return err ?: count;
}

const struct file_operations frec_clear_fops = {
	.owner = THIS_MODULE,
	.write = frec_clear_write,
	.llseek = noop_llseek,
};

/* frec/version */

static int frec_version_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "frec api %d.%d raw-format %d\n",
		   FREC_API_VERSION_MAJOR, FREC_API_VERSION_MINOR,
		   FREC_RAW_VERSION);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frec_version);

/* frec/order */

static int frec_order_show(struct seq_file *m, void *unused)
{
	u32 tick = frec_clock_tick_ns();

	seq_printf(m, "%s\n", frec_format_order(frec_raw_order_flags(false)));
	/* What the order cannot tell: records of two CPUs within a tick. */
	if (tick)
		seq_printf(m, "tick %u ns: records of two CPUs less than a tick apart may tie, and a tie comes by CPU; one CPU's never tie\n",
			   tick);
	else
		seq_puts(m, "tick unknown: records of two CPUs less than a tick apart may tie, and a tie comes by CPU; one CPU's never tie\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frec_order);

/**
 * frec_debugfs_init() - create /sys/kernel/debug/frec/
 *
 * Context: Process context; sleeps.
 * Return: 0 or a negative errno.
 */
int frec_debugfs_init(void)
{
	struct dentry *root;
	int err;

	err = frec_filter_file_init();
	if (err)
		return err;
	root = debugfs_create_dir("frec", NULL);
	if (IS_ERR(root)) {
		pr_err("cannot create debugfs directory: %pe\n", root);
		frec_filter_file_exit();
		return PTR_ERR(root);
	}
	frec_debugfs_root = root;
	frec_debugfs_rings = debugfs_create_dir("rings", root);
	debugfs_create_file("version", 0400, root, NULL, &frec_version_fops);
	debugfs_create_file("order", 0400, root, NULL, &frec_order_fops);
	debugfs_create_file("dump", 0400, root, NULL, &frec_dump_fops);
	/*
	 * Without debugfs's proxy, whose fops lack read_iter (frec_dump.c).
	 * The proxy guards reads against the file's removal; this one is
	 * removed only when frec unloads, which an open file prevents (the
	 * fops' owner is held while it is open).
	 */
	debugfs_create_file_unsafe("raw", 0400, root, NULL, &frec_raw_fops);
	debugfs_create_file("formats", 0400, root, NULL, &frec_formats_fops);
	/* Without the proxy too: its fops lack read_iter and write_iter. */
	debugfs_create_file_unsafe("sites", 0400, root, NULL, &frec_sites_fops);
	debugfs_create_file_unsafe("control", 0600, root, NULL, &frec_control_fops);
	debugfs_create_file("filter", 0600, root, NULL, &frec_filter_fops);
	debugfs_create_file("enable", 0600, root, NULL, &frec_enable_fops);
	debugfs_create_file("clear", 0200, root, NULL, &frec_clear_fops);
	return 0;
}

/**
 * frec_debugfs_rings_dir() - /sys/kernel/debug/frec/rings/
 *
 * Context: Any context, after frec_debugfs_init().
 * Return: the directory's dentry.
 */
struct dentry *frec_debugfs_rings_dir(void)
{
	return frec_debugfs_rings;
}

/**
 * frec_debugfs_dir() - /sys/kernel/debug/frec/, which init hands to each
 *	part that makes files there
 *
 * Context: Any context, after frec_debugfs_init().
 * Return: the directory's dentry.
 */
struct dentry *frec_debugfs_dir(void)
{
	return frec_debugfs_root;
}

/**
 * frec_debugfs_exit() - remove /sys/kernel/debug/frec/
 *
 * Context: Process context; sleeps.
 */
void frec_debugfs_exit(void)
{
	debugfs_remove(frec_debugfs_root);
	frec_filter_file_exit();
}
