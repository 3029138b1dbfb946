// SPDX-License-Identifier: GPL-2.0
/*
 * frec_crash_settings.c - what the console dump prints, set as module
 * parameters at load and through debugfs at run time (each debugfs file
 * takes what its parameter takes):
 *
 *   oops_dump        1/0: dump on oops and panic
 *   oops_records     newest records per ring, 1 to 2^20 (default 64)
 *   oops_bytes       bytes of records an oops, panic or atomic dump prints
 *                    at most, 4 KiB to 64 MiB (default 64 KiB)
 *   oops_rings       comma-separated ring globs (default all); names may
 *                    be of rings not created yet
 *
 * The settings are below the dump that reads them (frec_crash.c), which
 * has the one file that dumps, dump_to_console.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include <frec.h>

#include "frec_crash.h"
#include "frec_debugfs_input.h"
#include "frec_filter.h"

bool frec_crash_oops_dump = true;
module_param_named(oops_dump, frec_crash_oops_dump, bool, 0644);
MODULE_PARM_DESC(oops_dump, "dump the rings to the console on oops and panic (default 1)");

unsigned int frec_crash_records = 64;

/* The sysfs parameter takes the range the debugfs file takes. */
static int frec_crash_records_param_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, FREC_CRASH_RECORDS_MIN, FREC_CRASH_RECORDS_MAX);
}

static const struct kernel_param_ops frec_crash_records_param_ops = {
	.set = frec_crash_records_param_set,
	.get = param_get_uint,
};

module_param_cb(oops_records, &frec_crash_records_param_ops, &frec_crash_records, 0644);
MODULE_PARM_DESC(oops_records,
		 "newest records per ring an oops or panic dump prints, 1 to 1048576 (default 64)");

unsigned int frec_crash_bytes = 65536;

static int frec_crash_bytes_param_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, FREC_CRASH_BYTES_MIN, FREC_CRASH_BYTES_MAX);
}

static const struct kernel_param_ops frec_crash_bytes_param_ops = {
	.set = frec_crash_bytes_param_set,
	.get = param_get_uint,
};

module_param_cb(oops_bytes, &frec_crash_bytes_param_ops, &frec_crash_bytes, 0644);
MODULE_PARM_DESC(oops_bytes,
		 "bytes of records an oops, panic or atomic dump prints at most, 4096 to 67108864 (default 65536)");

static char *oops_rings;
module_param(oops_rings, charp, 0444);
MODULE_PARM_DESC(oops_rings, "rings to dump, comma-separated globs (default: all)");

/* Which rings to dump; NULL for all.  RCU, replaced under the mutex. */
struct frec_filter __rcu *frec_crash_filter;
/* Serializes replacing frec_crash_filter, and a task's dump that reads it. */
DEFINE_MUTEX(frec_crash_filter_lock);

/**
 * frec_crash_set_rings() - choose the rings an oops or panic dump prints
 * @globs: comma-separated ring name globs; "" for all rings.  Names
 *	need not be of rings that exist yet.
 * @msg: on -EINVAL or -E2BIG, what is wrong, naming the glob at fault
 *	(frec_filter_parse_ring_list()); "" otherwise.
 * @msg_size: its size (FREC_FILTER_MSG_MAX is enough).
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL for a bad glob list, -E2BIG for too many globs,
 * -ENOMEM.
 */
int frec_crash_set_rings(const char *globs, char *msg, size_t msg_size)
{
	struct frec_filter *f = NULL, *old;
	int err;

	if (msg_size)
		msg[0] = '\0';
	if (*globs) {
		f = kmalloc(sizeof(*f), GFP_KERNEL);
		if (!f)
			return -ENOMEM;
		/* Rings named here may be created later, by drivers not yet loaded. */
		err = frec_filter_parse_ring_list(f, globs, msg, msg_size);
		if (err) {
			kfree(f);
			return err;
		}
	}
	mutex_lock(&frec_crash_filter_lock);
	old = rcu_replace_pointer(frec_crash_filter, f,
				  lockdep_is_held(&frec_crash_filter_lock));
	mutex_unlock(&frec_crash_filter_lock);
	/* A dump walks the filter with preemption off. */
	synchronize_rcu();
	kfree(old);
	return 0;
}

/**
 * frec_crash_get_rings() - the rings an oops or panic dump prints
 * @buf: where to write them, comma-separated, with a newline; "*" for all.
 * @size: its size.
 *
 * Context: Process context; sleeps.
 * Return: the length written.
 */
int frec_crash_get_rings(char *buf, size_t size)
{
	const struct frec_filter *f;
	unsigned int i;
	int n = 0;

	mutex_lock(&frec_crash_filter_lock);
	f = rcu_dereference_protected(frec_crash_filter, lockdep_is_held(&frec_crash_filter_lock));
	if (!f || !f->nr_globs)
		n = scnprintf(buf, size, "*");
	for (i = 0; f && i < f->nr_globs; i++)
		n += scnprintf(buf + n, size - n, "%s%s", i ? "," : "", f->globs[i]);
	n += scnprintf(buf + n, size - n, "\n");
	mutex_unlock(&frec_crash_filter_lock);
	return n;
}

/* debugfs: oops_dump, oops_records, oops_bytes, oops_rings */

/* oops_records and oops_bytes, as the module parameters take them. */
static const struct frec_debugfs_uint frec_crash_records_knob = {
	.val = &frec_crash_records, .min = FREC_CRASH_RECORDS_MIN, .max = FREC_CRASH_RECORDS_MAX,
};

static const struct frec_debugfs_uint frec_crash_bytes_knob = {
	.val = &frec_crash_bytes, .min = FREC_CRASH_BYTES_MIN, .max = FREC_CRASH_BYTES_MAX,
};

static ssize_t frec_crash_rings_read(struct file *file, char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	char *buf = kmalloc(FREC_FILTER_MAX + 2, GFP_KERNEL);
	ssize_t ret;
	int n;

	if (!buf)
		return -ENOMEM;
	n = frec_crash_get_rings(buf, FREC_FILTER_MAX + 2);
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, n);
	kfree(buf);
	return ret;
}

static ssize_t frec_crash_rings_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char *buf = kmalloc(FREC_FILTER_MAX + 2, GFP_KERNEL);
	char msg[FREC_FILTER_MSG_MAX];
	int err;

	if (!buf)
		return -ENOMEM;
	err = frec_debugfs_get_input(file, ubuf, count, ppos, buf, FREC_FILTER_MAX + 2);
	if (!err) {
		err = frec_crash_set_rings(buf, msg, sizeof(msg));
		if (msg[0])
			frec_debugfs_refuse(file, buf, msg);
	}
	kfree(buf);
	return err ?: count;
}

static const struct file_operations frec_crash_rings_fops = {
	.owner = THIS_MODULE,
	.read = frec_crash_rings_read,
	.write = frec_crash_rings_write,
	.llseek = default_llseek,
};

/**
 * frec_crash_settings_check() - is the oops_rings parameter one frec can
 *	take?
 *
 * Context: Process context; sleeps.  Before the region is touched
 * (frec_persist_check()).
 * Return: 0, -EINVAL for a bad oops_rings parameter (logged), -ENOMEM.
 */
int frec_crash_settings_check(void)
{
	char msg[FREC_FILTER_MSG_MAX];
	struct frec_filter *f;
	int err;

	if (!oops_rings || !*oops_rings)
		return 0;
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	err = frec_filter_parse_ring_list(f, oops_rings, msg, sizeof(msg));
	kfree(f);
	if (err)
		pr_err("oops_rings=%.64s: %s\n", oops_rings, msg);
	return err;
}

/**
 * frec_crash_settings_init() - take the oops_rings parameter, create the
 *	debugfs files
 * @root: frec's debugfs directory.
 *
 * Context: Process context; sleeps.  After debugfs is up.
 * Return: 0, -EINVAL for a bad oops_rings parameter (logged), -ENOMEM.
 */
int frec_crash_settings_init(struct dentry *root)
{
	int err;

	if (oops_rings) {
		char msg[FREC_FILTER_MSG_MAX];

		err = frec_crash_set_rings(oops_rings, msg, sizeof(msg));
		if (err) {
			pr_err("oops_rings=%.64s: %s\n", oops_rings,
			       msg[0] ? msg : "out of memory");
			return err;
		}
	}
	frec_debugfs_create_bool("oops_dump", root, &frec_crash_oops_dump);
	frec_debugfs_create_uint("oops_records", root, &frec_crash_records_knob);
	frec_debugfs_create_uint("oops_bytes", root, &frec_crash_bytes_knob);
	debugfs_create_file("oops_rings", 0600, root, NULL, &frec_crash_rings_fops);
	return 0;
}

/**
 * frec_crash_settings_exit() - forget the ring list
 *
 * Context: Process context; sleeps.  After the dumps are unhooked.
 */
void frec_crash_settings_exit(void)
{
	frec_crash_set_rings("", NULL, 0);
}
