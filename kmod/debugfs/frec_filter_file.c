// SPDX-License-Identifier: GPL-2.0
/*
 * frec_filter_file.c - debugfs frec/filter: what frec/dump and raw show.
 * The language is lib/frec_filter.c's; the filter in force is here, read
 * by each dump as it opens (frec_dump.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <frec.h>

#include "frec_debugfs_input.h"
#include "frec_filter.h"
#include "frec_filter_file.h"
#include "frec_rings.h"

static_assert(FREC_FILTER_GLOB_MAX == FREC_RING_NAME_MAX);

static struct frec_filter *frec_filter_active;
static DEFINE_MUTEX(frec_filter_lock);

/**
 * frec_filter_file_get() - a copy of the filter in force
 * @f: where to copy it.
 *
 * Context: Process context; sleeps.
 */
void frec_filter_file_get(struct frec_filter *f)
{
	mutex_lock(&frec_filter_lock);
	*f = *frec_filter_active;
	mutex_unlock(&frec_filter_lock);
}

/* A ring glob without wildcards must name a ring that exists. */
static bool frec_filter_ring_exists(void *ctx, const char *name)
{
	bool found;

	down_read(&frec_rings_rwsem);
	found = frec_ring_find(name);
	up_read(&frec_rings_rwsem);
	return found;
}

static ssize_t frec_filter_read(struct file *file, char __user *ubuf, size_t count,
				loff_t *ppos)
{
	char *buf = kmalloc(2 * FREC_FILTER_MAX, GFP_KERNEL);
	ssize_t ret;
	int n;

	if (!buf)
		return -ENOMEM;
	mutex_lock(&frec_filter_lock);
	n = frec_filter_print(frec_filter_active, buf, 2 * FREC_FILTER_MAX);
	mutex_unlock(&frec_filter_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, n);
	kfree(buf);
	return ret;
}

static ssize_t frec_filter_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	const struct frec_filter_env env = {
		.nr_cpus = min_t(unsigned int, nr_cpu_ids, FREC_FILTER_CPUS),
		.ring_exists = frec_filter_ring_exists,
	};
	char msg[FREC_FILTER_MSG_MAX];
	struct frec_filter *f, *old;
	char *line;
	int err;

	line = kmalloc(FREC_FILTER_MAX + 2, GFP_KERNEL);
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	err = -ENOMEM;
	if (!line || !f)
		goto out;
	err = frec_debugfs_get_input(file, ubuf, count, ppos, line, FREC_FILTER_MAX + 2);
	if (err)
		goto out;
	/*
	 * An empty line clears the filter.  One whose print (what cat shows)
	 * would not fit is refused too, so that it can always be written back.
	 */
	err = frec_filter_parse(f, line, &env, msg, sizeof(msg));
	if (err) {
		frec_debugfs_refuse(file, line, msg);
		goto out;
	}
	mutex_lock(&frec_filter_lock);
	old = frec_filter_active;
	frec_filter_active = f;
	mutex_unlock(&frec_filter_lock);
	f = old;
out:
	kfree(line);
	kfree(f);
	return err ?: count;
}

const struct file_operations frec_filter_fops = {
	.owner = THIS_MODULE,
	.read = frec_filter_read,
	.write = frec_filter_write,
	.llseek = default_llseek,
};

/**
 * frec_filter_file_init() - start with no filter
 *
 * Context: Process context; sleeps.  Before frec/filter and frec/dump exist.
 * Return: 0 or -ENOMEM.
 */
int frec_filter_file_init(void)
{
	frec_filter_active = kmalloc(sizeof(*frec_filter_active), GFP_KERNEL);
	if (!frec_filter_active)
		return -ENOMEM;
	frec_filter_init(frec_filter_active);
	return 0;
}

/**
 * frec_filter_file_exit() - free the filter in force
 *
 * Context: Process context, once frec/filter and frec/dump are gone.
 */
void frec_filter_file_exit(void)
{
	kfree(frec_filter_active);
	frec_filter_active = NULL;
}
