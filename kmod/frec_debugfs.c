// SPDX-License-Identifier: GPL-2.0
/*
 * frec_debugfs.c - /sys/kernel/debug/frec/: the control files, and the
 * directory of each ring.
 *
 *   version              API and raw format versions
 *   dump, raw, formats   records out (frec_dump.c)
 *   filter               what dump shows (frec_filter.c); read: the filter
 *   enable               1/0: frec as a whole (a static key)
 *   clear                write 1: clear every ring
 *   dump_to_console, oops_dump, oops_records, oops_rings, [test_fault]
 *                        the console dump on oops and panic (frec_crash.c)
 *   rings/<name>/        dump, enable, level, size, clear, stats
 *
 * Every file is root-only: records hold kernel addresses.  Every write is
 * parsed whole and strictly; a bad one returns an error and changes
 * nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_debugfs.h"
#include "frec_dump.h"
#include "frec_filter.h"
#include "frec_rings.h"

static struct dentry *frec_debugfs_root;
static struct dentry *frec_debugfs_rings;

static struct frec_filter *frec_filter_active;
static DEFINE_MUTEX(frec_filter_lock);

static const char * const frec_level_names[] = {
	[FREC_LEVEL_ERR] = "err",
	[FREC_LEVEL_WARN] = "warn",
	[FREC_LEVEL_INFO] = "info",
	[FREC_LEVEL_DEBUG] = "debug",
	[FREC_LEVEL_TRACE] = "trace",
};

static const char * const frec_drop_names[FREC_DROP_NR] = {
	[FREC_DROP_NEST] = "dropped_nest",
	[FREC_DROP_LAP] = "dropped_lap",
	[FREC_DROP_FULL] = "dropped_full",
	[FREC_DROP_SIZE] = "dropped_size",
	[FREC_DROP_DISABLED] = "dropped_disabled",
	[FREC_DROP_ABANDONED] = "dropped_abandoned",
	[FREC_DROP_NMI] = "dropped_nmi",
};

/**
 * frec_debugfs_refuse() - log a refused control-file write
 * @file: the file written.
 * @what: what was written (any bytes, NUL-terminated).
 * @why: what is wrong with it.
 *
 * Every refused write is logged, rate-limited, with the file's path under
 * frec/ and the bytes escaped, so that the log names the bad value.
 *
 * Context: Process context (a write() handler).
 */
void frec_debugfs_refuse(struct file *file, const char *what, const char *why)
{
	struct dentry *d = file->f_path.dentry;

	pr_warn_ratelimited("%pd2: refused \"%*pE\": %s\n", d,
			    (int)strnlen(what, 64), what, why);
}

/**
 * frec_debugfs_get_input() - copy a control file's write, whole
 * @file: the file written, named in the log when the write is refused.
 * @ubuf: the user's buffer.
 * @count: its length.
 * @ppos: the file position, which must be 0.
 * @buf: where to copy it, NUL-terminated, one final newline removed.
 * @size: @buf's size; a write of @size bytes or more is refused.
 *
 * A control file takes one line of text in one write(): no NUL byte, and
 * no newline but one at the very end.  "1\0", "1\n\n" or a second line
 * are refused, so that each value has one spelling.
 *
 * Context: Process context (a write() handler).
 * Return: 0, -EINVAL for an empty, overlong, partial or non-text write
 * (logged), -EFAULT.
 */
int frec_debugfs_get_input(struct file *file, const char __user *ubuf, size_t count,
			   loff_t *ppos, char *buf, size_t size)
{
	size_t len = count;

	if (*ppos || !count || count >= size) {
		frec_debugfs_refuse(file, "", *ppos ? "not written at offset 0" :
				    !count ? "empty write" : "too long");
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (strlen(buf) != len || memchr(buf, '\n', len)) {
		frec_debugfs_refuse(file, buf, "a NUL byte or a newline inside the line");
		return -EINVAL;
	}
	return 0;
}

/**
 * frec_debugfs_parse_u64() - a control file's number, in its one spelling
 * @file: the file written, named in the log when the number is refused.
 * @s: the text, as frec_debugfs_get_input() returns it.
 * @max: the largest value taken.
 * @val: the value.
 *
 * Plain decimal: digits only, no sign, no space, no leading zero (but
 * "0" itself), no "0x"; what the file reads back is what it takes.
 *
 * Context: Process context.
 * Return: 0, -EINVAL for anything but plain decimal, -ERANGE above @max
 * (both logged).
 */
int frec_debugfs_parse_u64(struct file *file, const char *s, u64 max, u64 *val)
{
	const char *p;
	u64 v = 0;

	if (!*s || (s[0] == '0' && s[1])) {
		frec_debugfs_refuse(file, s, "not a plain decimal number");
		return -EINVAL;
	}
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9') {
			frec_debugfs_refuse(file, s, "not a plain decimal number");
			return -EINVAL;
		}
		if (v > (max - (*p - '0')) / 10) {
			frec_debugfs_refuse(file, s, "out of range");
			return -ERANGE;
		}
		v = v * 10 + (*p - '0');
	}
	*val = v;
	return 0;
}

/**
 * frec_debugfs_get_bool() - a control file's write of "0" or "1"
 * @file: the file written.
 * @ubuf: the user's buffer.
 * @count: its length.
 * @ppos: the file position, which must be 0.
 * @val: the value written.
 *
 * Context: Process context (a write() handler).
 * Return: 0, -EINVAL for anything but "0" or "1" (and a newline),
 * logged, -EFAULT.
 */
int frec_debugfs_get_bool(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos, bool *val)
{
	char buf[4];
	int err = frec_debugfs_get_input(file, ubuf, count, ppos, buf, sizeof(buf));

	if (err)
		return err;
	if (strcmp(buf, "0") && strcmp(buf, "1")) {
		frec_debugfs_refuse(file, buf, "want 0 or 1");
		return -EINVAL;
	}
	*val = buf[0] == '1';
	return 0;
}

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

/* Strict bool and bounded unsigned int files: i_private is the variable. */

static ssize_t frec_debugfs_bool_read(struct file *file, char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	bool *val = file->f_inode->i_private;
	char buf[3];

	snprintf(buf, sizeof(buf), "%d\n", READ_ONCE(*val));
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t frec_debugfs_bool_write(struct file *file, const char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	bool *val = file->f_inode->i_private;
	bool on;
	int err = frec_debugfs_get_bool(file, ubuf, count, ppos, &on);

	if (err)
		return err;
	WRITE_ONCE(*val, on);
	return count;
}

static const struct file_operations frec_debugfs_bool_fops = {
	.owner = THIS_MODULE,
	.read = frec_debugfs_bool_read,
	.write = frec_debugfs_bool_write,
	.llseek = default_llseek,
};

/**
 * frec_debugfs_create_bool() - a 0600 file for a bool: reads "0"/"1",
 *	takes "0" or "1" and nothing else
 * @name: the file's name.
 * @dir: its directory.
 * @val: the variable, read and written with READ_ONCE()/WRITE_ONCE().
 *
 * Context: Process context.
 */
void frec_debugfs_create_bool(const char *name, struct dentry *dir, bool *val)
{
	debugfs_create_file(name, 0600, dir, val, &frec_debugfs_bool_fops);
}

static ssize_t frec_debugfs_uint_read(struct file *file, char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct frec_debugfs_uint *u = file->f_inode->i_private;
	char buf[16];
	int n = scnprintf(buf, sizeof(buf), "%u\n", READ_ONCE(*u->val));

	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static ssize_t frec_debugfs_uint_write(struct file *file, const char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct frec_debugfs_uint *u = file->f_inode->i_private;
	char buf[16];
	u64 n;
	int err = frec_debugfs_get_input(file, ubuf, count, ppos, buf, sizeof(buf));

	if (!err)
		err = frec_debugfs_parse_u64(file, buf, U32_MAX, &n);
	if (err)
		return err;
	if (n < u->min || n > u->max) {
		frec_debugfs_refuse(file, buf, "out of range");
		return -ERANGE;
	}
	WRITE_ONCE(*u->val, n);
	return count;
}

static const struct file_operations frec_debugfs_uint_fops = {
	.owner = THIS_MODULE,
	.read = frec_debugfs_uint_read,
	.write = frec_debugfs_uint_write,
	.llseek = default_llseek,
};

/**
 * frec_debugfs_create_uint() - a 0600 file for an unsigned int in a range:
 *	reads and takes it in plain decimal
 * @name: the file's name.
 * @dir: its directory.
 * @u: the variable and its range; it must outlive the file.
 *
 * A value out of range is -ERANGE, anything but plain decimal -EINVAL.
 *
 * Context: Process context.
 */
void frec_debugfs_create_uint(const char *name, struct dentry *dir,
			      const struct frec_debugfs_uint *u)
{
	debugfs_create_file(name, 0600, dir, (void *)u, &frec_debugfs_uint_fops);
}

/* frec/clear and rings/<name>/clear */

static ssize_t frec_clear_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct frec_ring *ring = file->f_inode->i_private;
	bool yes;
	int err = frec_debugfs_get_bool(file, ubuf, count, ppos, &yes);

	if (err)
		return err;
	if (!yes)
		return -EINVAL;
	err = ring ? frec_ring_clear(ring) : frec_rings_clear_all();
	return err ?: count;
}

static const struct file_operations frec_clear_fops = {
	.owner = THIS_MODULE,
	.write = frec_clear_write,
	.llseek = noop_llseek,
};

/* frec/filter */

/**
 * frec_debugfs_get_filter() - a copy of the filter in force
 * @f: where to copy it; its ring globs point into its own buffer.
 *
 * Context: Process context; sleeps.
 */
void frec_debugfs_get_filter(struct frec_filter *f)
{
	unsigned int i;

	mutex_lock(&frec_filter_lock);
	*f = *frec_filter_active;
	for (i = 0; i < f->nr_globs; i++)
		f->globs[i] = f->buf + (frec_filter_active->globs[i] - frec_filter_active->buf);
	mutex_unlock(&frec_filter_lock);
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
	struct frec_filter *f, *old;
	char *line, *canon;
	int err, n;

	line = kmalloc(FREC_FILTER_MAX + 2, GFP_KERNEL);
	canon = kmalloc(2 * FREC_FILTER_MAX, GFP_KERNEL);
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	err = -ENOMEM;
	if (!line || !canon || !f)
		goto out;
	err = frec_debugfs_get_input(file, ubuf, count, ppos, line, FREC_FILTER_MAX + 2);
	if (err)
		goto out;
	/* An empty line clears the filter. */
	err = frec_filter_parse(f, line);
	if (err) {
		frec_debugfs_refuse(file, line, err == -ENOENT ? "no such ring" :
				    err == -ERANGE ? "a number or CPU out of range" :
				    "not a filter line (see README, Filtering)");
		goto out;
	}
	/* What cat shows must be writable back: its spelling must fit too. */
	n = frec_filter_print(f, canon, 2 * FREC_FILTER_MAX);
	if (n - 1 > FREC_FILTER_MAX) {
		frec_debugfs_refuse(file, line, "longer than 1024 bytes once written out");
		err = -EINVAL;
		goto out;
	}
	mutex_lock(&frec_filter_lock);
	old = frec_filter_active;
	frec_filter_active = f;
	mutex_unlock(&frec_filter_lock);
	f = old;
out:
	kfree(line);
	kfree(canon);
	kfree(f);
	return err ?: count;
}

static const struct file_operations frec_filter_fops = {
	.owner = THIS_MODULE,
	.read = frec_filter_read,
	.write = frec_filter_write,
	.llseek = default_llseek,
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

	n = scnprintf(buf, sizeof(buf), "%s\n", frec_level_names[level]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

/* A level's name or number, as enum frec_level; 0 if it is neither. */
static unsigned int frec_level_parse(const char *s)
{
	unsigned int level;

	/* Not match_string(): it stops at the NULL of the unused index 0. */
	for (level = FREC_LEVEL_ERR; level <= FREC_LEVEL_MAX; level++)
		if (!strcmp(s, frec_level_names[level]))
			return level;
	if (s[0] >= '1' && s[0] <= '0' + FREC_LEVEL_MAX && !s[1])
		return s[0] - '0';
	return 0;
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

/* rings/<name>/stats */

static void frec_ring_stats_line(struct seq_file *m, const char *who,
				 const struct frec_ring_totals *t, u64 readable)
{
	int i;

	seq_printf(m, "%-5s written=%llu readable=%llu overwritten=%llu", who, t->written,
		   readable, t->overwritten);
	for (i = 0; i < FREC_DROP_NR; i++)
		seq_printf(m, " %s=%llu", frec_drop_names[i], t->dropped[i]);
	seq_printf(m, " cleared=%llu\n", t->cleared);
}

static int frec_ring_stats_show(struct seq_file *m, void *unused)
{
	struct frec_ring *ring = m->private;
	struct frec_ring_totals t, sum = {};
	struct frec_ring_store *store;
	struct frec_ring_cursor cur;
	struct frec_ring_entry ent;
	struct frec_ring_cpu *rc;
	u64 readable, all = 0;
	char who[16];
	int cpu, i;

	down_read(&frec_rings_rwsem);
	store = frec_ring_store_locked(ring);
	for_each_possible_cpu(cpu) {
		frec_ring_totals(ring, cpu, &t);
		rc = per_cpu_ptr(store->cpus, cpu);
		readable = 0;
		frec_ring_cursor_init(&store->layout, rc, &cur);
		while (frec_ring_cursor_next(&store->layout, rc, &cur, &ent, NULL, 0))
			readable++;
		snprintf(who, sizeof(who), "cpu%d", cpu);
		frec_ring_stats_line(m, who, &t, readable);
		sum.written += t.written;
		sum.overwritten += t.overwritten;
		for (i = 0; i < FREC_DROP_NR; i++)
			sum.dropped[i] += t.dropped[i];
		sum.cleared += t.cleared;
		all += readable;
	}
	up_read(&frec_rings_rwsem);
	frec_ring_stats_line(m, "all", &sum, all);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frec_ring_stats);

/* frec/version */

static int frec_version_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "frec api %d.%d raw-format %d\n",
		   FREC_API_VERSION_MAJOR, FREC_API_VERSION_MINOR,
		   FREC_RAW_VERSION);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frec_version);

/**
 * frec_debugfs_add_ring() - create rings/<name>/ for a new ring
 * @ring: the ring.
 *
 * A failure is logged; the ring records all the same.
 *
 * Context: Process context; sleeps.
 */
void frec_debugfs_add_ring(struct frec_ring *ring)
{
	struct dentry *dir;

	dir = debugfs_create_dir(ring->name, frec_debugfs_rings);
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
	debugfs_create_file("stats", 0400, dir, ring, &frec_ring_stats_fops);
}

/**
 * frec_debugfs_remove_ring() - remove rings/<name>/
 * @ring: the ring.
 *
 * Waits for every operation in progress on its files to finish; later
 * ones fail.
 *
 * Context: Process context; sleeps.  Not under frec_rings_rwsem.
 */
void frec_debugfs_remove_ring(struct frec_ring *ring)
{
	debugfs_remove(ring->debugfs);
	ring->debugfs = NULL;
}

/**
 * frec_debugfs_init() - create /sys/kernel/debug/frec/
 *
 * Context: Process context; sleeps.
 * Return: 0 or a negative errno.
 */
int frec_debugfs_init(void)
{
	struct dentry *root;

	frec_filter_active = kmalloc(sizeof(*frec_filter_active), GFP_KERNEL);
	if (!frec_filter_active)
		return -ENOMEM;
	frec_filter_init(frec_filter_active);
	root = debugfs_create_dir("frec", NULL);
	if (IS_ERR(root)) {
		pr_err("cannot create debugfs directory: %pe\n", root);
		kfree(frec_filter_active);
		return PTR_ERR(root);
	}
	frec_debugfs_root = root;
	frec_debugfs_rings = debugfs_create_dir("rings", root);
	debugfs_create_file("version", 0400, root, NULL, &frec_version_fops);
	debugfs_create_file("dump", 0400, root, NULL, &frec_dump_fops);
	debugfs_create_file("raw", 0400, root, NULL, &frec_raw_fops);
	debugfs_create_file("formats", 0400, root, NULL, &frec_formats_fops);
	debugfs_create_file("filter", 0600, root, NULL, &frec_filter_fops);
	debugfs_create_file("enable", 0600, root, NULL, &frec_enable_fops);
	debugfs_create_file("clear", 0200, root, NULL, &frec_clear_fops);
	return 0;
}

/**
 * frec_debugfs_dir() - /sys/kernel/debug/frec/, for other parts' files
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
	kfree(frec_filter_active);
}
