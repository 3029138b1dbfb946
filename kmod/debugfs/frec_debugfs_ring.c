// SPDX-License-Identifier: GPL-2.0
/*
 * frec_debugfs_ring.c - /sys/kernel/debug/frec/rings/<name>/, one
 * directory per ring, created with the ring and removed with it:
 *
 *   dump      that ring alone (frec_dump.c)
 *   enable    1/0
 *   level     err, warn, info, debug, trace (or 1 to 5); reads the name
 *   size      bytes per CPU; writing a power of two resizes the ring
 *   clear     write 1: throw away what the ring holds
 *   order     cpu (each CPU numbers its records; the default) or global
 *             (one counter for all CPUs); writing clears the ring
 *   stats     per CPU and in all: written, readable, overwritten, dropped
 *             by reason, cleared, and seq, the last seq given on that CPU
 *             since the last clear (seq - readable records were lost)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_debugfs.h"
#include "frec_dump.h"
#include "frec_hist_sites.h"
#include "frec_rb.h"
#include "frec_rings.h"

static const char * const frec_drop_names[FREC_DROP_NR] = {
	[FREC_DROP_NEST] = "dropped_nest",
	[FREC_DROP_LAP] = "dropped_lap",
	[FREC_DROP_FULL] = "dropped_full",
	[FREC_DROP_SIZE] = "dropped_size",
	[FREC_DROP_DISABLED] = "dropped_disabled",
	[FREC_DROP_ABANDONED] = "dropped_abandoned",
	[FREC_DROP_NMI] = "dropped_nmi",
	[FREC_DROP_FROZEN] = "dropped_frozen",
};

/* rings/<name>/enable */

static ssize_t frec_ring_enable_read(struct file *file, char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;

	return simple_read_from_buffer(ubuf, count, ppos,
				       frec_ring_enabled(ring) ? "1\n" : "0\n", 2);
}

static ssize_t frec_ring_enable_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	bool on;
	int err = frec_debugfs_get_bool(file, ubuf, count, ppos, &on);

	if (err)
		return err;
	frec_ring_set_enabled(ring, on);
	return count;
}

static const struct file_operations frec_ring_enable_fops = {
	.owner = THIS_MODULE,
	.read = frec_ring_enable_read,
	.write = frec_ring_enable_write,
	.llseek = default_llseek,
};

/* rings/<name>/level: a name (err warn info debug trace) or its number */

static ssize_t frec_ring_level_read(struct file *file, char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	unsigned int level = frec_ring_level(ring);
	char buf[16];
	int n;

	n = scnprintf(buf, sizeof(buf), "%s\n", frec_level_name(level));
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static ssize_t frec_ring_level_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	unsigned int level;
	char buf[16];
	int err = frec_debugfs_get_input(file, ubuf, count, ppos, buf, sizeof(buf));

	if (err)
		return err;
	level = frec_level_parse(buf);
	if (!level) {
		frec_debugfs_refuse(file, buf, "want err, warn, info, debug, trace or 1 to 5");
		return -EINVAL;
	}
	err = frec_ring_set_level(ring, level);
	return err ?: count;
}

static const struct file_operations frec_ring_level_fops = {
	.owner = THIS_MODULE,
	.read = frec_ring_level_read,
	.write = frec_ring_level_write,
	.llseek = default_llseek,
};

/* rings/<name>/size: bytes per CPU; writing resizes */

static ssize_t frec_ring_size_read(struct file *file, char __user *ubuf, size_t count,
				   loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	unsigned long bytes;
	char buf[24];
	int n;

	down_read(&frec_rings_rwsem);
	bytes = frec_ring_store_locked(ring)->bytes_per_cpu;
	up_read(&frec_rings_rwsem);
	n = scnprintf(buf, sizeof(buf), "%lu\n", bytes);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static ssize_t frec_ring_size_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	char buf[24];
	u64 bytes;
	int err = frec_debugfs_get_input(file, ubuf, count, ppos, buf, sizeof(buf));

	if (!err)
		err = frec_debugfs_parse_u64(file, buf, U64_MAX, &bytes);
	if (err)
		return err;
	if (bytes < FREC_RING_MIN_BYTES || bytes > FREC_RING_MAX_BYTES) {
		frec_debugfs_refuse(file, buf, "out of range");
		return -ERANGE;
	}
	err = frec_ring_resize(ring, bytes);
	return err ?: count;
}

static const struct file_operations frec_ring_size_fops = {
	.owner = THIS_MODULE,
	.read = frec_ring_size_read,
	.write = frec_ring_size_write,
	.llseek = default_llseek,
};

/* rings/<name>/order: cpu or global */

static ssize_t frec_ring_order_read(struct file *file, char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	const char *order;

	down_read(&frec_rings_rwsem);
	order = frec_ring_store_locked(ring)->layout.global_order ? "global\n" : "cpu\n";
	up_read(&frec_rings_rwsem);
	return simple_read_from_buffer(ubuf, count, ppos, order, strlen(order));
}

static ssize_t frec_ring_order_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	char buf[16];
	int err = frec_debugfs_get_input(file, ubuf, count, ppos, buf, sizeof(buf));

	if (err)
		return err;
	if (strcmp(buf, "cpu") && strcmp(buf, "global")) {
		frec_debugfs_refuse(file, buf, "want cpu or global");
		return -EINVAL;
	}
	err = frec_ring_set_order(ring, !strcmp(buf, "global"));
	return err ?: count;
}

static const struct file_operations frec_ring_order_fops = {
	.owner = THIS_MODULE,
	.read = frec_ring_order_read,
	.write = frec_ring_order_write,
	.llseek = default_llseek,
};

/* rings/<name>/stats */

static void frec_ring_stats_line(struct seq_file *m, const char *who,
				 const struct frec_ring_totals *t, u64 readable, u64 seq)
{
	int i;

	seq_printf(m, "%-5s written=%llu readable=%llu overwritten=%llu", who, t->written,
		   readable, t->overwritten);
	for (i = 0; i < FREC_DROP_NR; i++)
		seq_printf(m, " %s=%llu", frec_drop_names[i], t->dropped[i]);
	seq_printf(m, " cleared=%llu seq=%llu\n", t->cleared, seq);
}

static int frec_ring_stats_show(struct seq_file *m, void *unused)
{
	struct frec_ring *ring = m->private;
	struct frec_ring_totals t, sum = {};
	struct frec_ring_store *store;
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	struct frec_rb_cpu *rc;
	u64 readable, all = 0, seq, all_seq = 0;
	char who[16];
	int cpu, i;

	down_read(&frec_rings_rwsem);
	store = frec_ring_store_locked(ring);
	for_each_possible_cpu(cpu) {
		frec_ring_totals(ring, cpu, &t);
		rc = per_cpu_ptr(store->cpus, cpu);
		readable = 0;
		/* A global-order ring's seqs are not this CPU's count. */
		seq = store->layout.global_order ? 0 : local_read(&rc->seq);
		frec_rb_cursor_init(&store->layout, rc, &cur);
		while (frec_rb_cursor_next(&store->layout, rc, &cur, &ent, NULL, 0))
			readable++;
		snprintf(who, sizeof(who), "cpu%d", cpu);
		frec_ring_stats_line(m, who, &t, readable, seq);
		sum.written += t.written;
		sum.overwritten += t.overwritten;
		for (i = 0; i < FREC_DROP_NR; i++)
			sum.dropped[i] += t.dropped[i];
		sum.cleared += t.cleared;
		all += readable;
		all_seq += seq;
	}
	up_read(&frec_rings_rwsem);
	frec_ring_stats_line(m, "all", &sum, all, all_seq);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frec_ring_stats);

/**
 * frec_debugfs_add_ring() - create rings/<name>/ for a new ring
 * @ring: the ring.
 *
 * The ring registry's added hook (frec_hooks.h), which frec_main.c wires
 * here.  A failure is logged; the ring records all the same.
 *
 * Context: Process context; sleeps.
 */
void frec_debugfs_add_ring(struct frec_ring *ring)
{
	struct dentry *dir;

	dir = debugfs_create_dir(ring->name, frec_debugfs_rings_dir());
	if (IS_ERR(dir)) {
		pr_warn("ring %s: no debugfs directory (%pe)\n", ring->name, dir);
		return;
	}
	ring->debugfs = dir;
	debugfs_create_file("dump", 0400, dir, ring, &frec_dump_fops);
	debugfs_create_file("enable", 0600, dir, ring, &frec_ring_enable_fops);
	debugfs_create_file("level", 0600, dir, ring, &frec_ring_level_fops);
	debugfs_create_file("size", 0600, dir, ring, &frec_ring_size_fops);
	debugfs_create_file("clear", 0200, dir, ring, &frec_clear_fops);
	debugfs_create_file("order", 0600, dir, ring, &frec_ring_order_fops);
	debugfs_create_file("stats", 0400, dir, ring, &frec_ring_stats_fops);
	debugfs_create_file("hist", 0600, dir, ring, &frec_hist_fops);
}

/**
 * frec_debugfs_remove_ring() - remove rings/<name>/
 * @ring: the ring.
 *
 * The ring registry's removed hook (frec_hooks.h).  Waits for every
 * operation in progress on its files to finish; later ones fail.
 *
 * Context: Process context; sleeps.  Not under frec_rings_rwsem.
 */
void frec_debugfs_remove_ring(struct frec_ring *ring)
{
	debugfs_remove(ring->debugfs);
	ring->debugfs = NULL;
}
