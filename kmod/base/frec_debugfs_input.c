// SPDX-License-Identifier: GPL-2.0
/*
 * frec_debugfs_input.c - what every frec control file takes, and how it
 * refuses the rest.  A write is one line in one write(): no NUL, no
 * newline but one at the end, each value in one spelling (plain decimal,
 * 0 or 1).  A refused write returns an error, changes nothing, and logs
 * the file and the value (rate-limited).  Also the generic files built on
 * that: a bool and a bounded unsigned int, read and written in the
 * spelling they take.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "frec_debugfs_input.h"

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
			    (int)min_t(size_t, strlen(what), 64), what, why);
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
	int err = frec_debugfs_check_size(file, count, *ppos, size);

	if (err)
		return err;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	return frec_debugfs_check_line(file, buf, count);
}

/**
 * frec_debugfs_check_size() - is a control file's write of a size it takes?
 * @file: the file written, named in the log when the write is refused.
 * @count: the write's length.
 * @pos: its file position, which must be 0.
 * @size: the buffer it goes to; a write of @size bytes or more is refused.
 *
 * The first half of frec_debugfs_get_input(), for a write_iter() handler.
 *
 * Context: Process context (a write handler).
 * Return: 0, or -EINVAL (logged).
 */
int frec_debugfs_check_size(struct file *file, size_t count, loff_t pos, size_t size)
{
	if (pos || !count || count >= size) {
		frec_debugfs_refuse(file, "", pos ? "not written at offset 0" :
				    !count ? "empty write" : "too long");
		return -EINVAL;
	}
	return 0;
}

/**
 * frec_debugfs_check_line() - is a control file's write one line of text?
 * @file: the file written, named in the log when the write is refused.
 * @buf: the @count bytes written, with room for one more.
 * @count: their number, checked by frec_debugfs_check_size().
 *
 * The second half of frec_debugfs_get_input(): NUL-terminates @buf and
 * removes one final newline.
 *
 * Context: Process context (a write handler).
 * Return: 0, or -EINVAL (logged) for a NUL byte or an inner newline.
 */
int frec_debugfs_check_line(struct file *file, char *buf, size_t count)
{
	size_t len = count;

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
