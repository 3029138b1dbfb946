// SPDX-License-Identifier: GPL-2.0
/*
 * frec_control.c - debugfs frec/control: list the call sites, and switch
 * them on or off or give them another level, as the kernel's dynamic
 * debug control file does for pr_debug().
 *
 * Reading lists every site of a loaded module, a line each:
 *
 *   <file>:<line> [<module>]<function> <level> <ring> =<flags> "<format>"
 *   /src/frec/kmod/samples/frec_hanoi.c:52 [frec_hanoi]hanoi_frec info hanoi_moves =r
 *	"move disk %u from %s to %s"
 *
 * (one line).
 *
 * <level> is the level its records are taken at (frec/control's, or the
 * one written at the call); <ring> the ring of its first record ("-"
 * before); <flags> "r" while it records, "_" while it is off, then, for
 * an armed trigger, each of its actions after a comma with its threshold
 * ("=r,freeze>500us,dump>500us").
 *
 * A write is one line of commands separated by ';'.  A command is
 * selectors and at least one action, words separated by spaces:
 *
 *   module GLOB     the module's name
 *   file GLOB       the source file's path, or its last component
 *   func GLOB       the function the call is written in
 *   line N | N-M    the line, or a range (N- and -M leave it open)
 *   format TEXT     a substring of the format; TEXT may be "quoted", with
 *                   \n, \t, \" and \\ inside, as frec/formats quotes
 *   ring GLOB       the ring of the site's first record
 *   +r  -r  =r  =_  switch recording on, off, on, off
 *   level=LEVEL     take the site's records at err, warn, info, debug or
 *                   trace (or 1-5), whatever the call says
 *   freeze          arm a trigger (frec_trigger.c): when the site next
 *                   stores a record, stop storing into that record's ring
 *   freeze=all      the same, into every ring
 *   dump            the same, print the console dump (as on an oops)
 *   freeze>T ...    the same with a threshold: T a number and a unit, ns,
 *                   us, ms or s (freeze>500us); fires when a span ending
 *                   at the site lasted more than T (frec_trigger_span());
 *                   a command that selects a site that is not a span's
 *                   end is refused
 *   -freeze  -dump  disarm those actions
 *
 * A trigger fires once; the words arm it again.  A command's arming words
 * replace the site's trigger and give one threshold or none; a command
 * does not both arm and disarm.
 *
 * Every selector given must match; none matches every site.  The whole
 * line is parsed before anything changes: a bad word refuses the write
 * with -EINVAL, logs the word, and changes nothing.  A site of a module
 * that has gone is no longer listed or changed (frec/sites keeps it).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/parser.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "frec_debugfs.h"
#include "frec_format_quote.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_span.h"
#include "frec_trigger.h"

/* Longest write. */
#define FREC_CONTROL_MAX	1024
/* Commands in one write. */
#define FREC_CONTROL_COMMANDS	16

/**
 * struct frec_control_cmd - one parsed command
 * @module: glob, or NULL.
 * @file: glob, or NULL.
 * @func: glob, or NULL.
 * @ring: glob, or NULL.
 * @format: substring, or NULL.
 * @line_min: first line selected.
 * @line_max: last line selected.
 * @set_on: change recording.
 * @on: to this.
 * @level: the level to set, 0 to leave it.
 * @set_trigger: arm @trigger, replacing the site's.
 * @trigger: the trigger word (frec_trigger.h).
 * @disarm: the trigger actions to disarm.
 */
struct frec_control_cmd {
	const char *module, *file, *func, *ring, *format;
	unsigned int line_min, line_max;
	bool set_on, on;
	unsigned int level;
	bool set_trigger;
	u64 trigger;
	unsigned int disarm;
};

/* The name of the ring of @site's first record, or "-". */
static const char *frec_control_ring(const struct frec_site *site)
{
	unsigned long id = READ_ONCE(site->ring_id);
	struct frec_ring *ring;

	lockdep_assert_held(&frec_rings_rwsem);
	if (id)
		list_for_each_entry(ring, &frec_rings_list, node)
			if ((unsigned long)ring->id == id)
				return ring->name;
	return "-";
}

static int frec_control_show(struct seq_file *m, void *v)
{
	const struct frec_site_texts *t;
	const struct frec_site *site;
	unsigned int level;
	u64 trigger;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "# file:line [module]function level ring =flags \"format\"\n");
		return 0;
	}
	site = frec_site_locked(frec_sites_seq_id(v));
	if (!site || (site->flags & FREC_SITE_KEPT))
		return 0;
	level = READ_ONCE(site->level);
	t = frec_site_texts(site);
	seq_printf(m, "%s:%u [%s]%s %s ", t->file, site->line, t->modname, t->func,
		   frec_level_name(site->set_level));
	down_read(&frec_rings_rwsem);
	seq_puts(m, frec_control_ring(site));
	up_read(&frec_rings_rwsem);
	trigger = frec_trigger_armed(site, frec_sites_seq_id(v));
	seq_printf(m, " =%s", level == FREC_SITE_OFF ? "_" : "r");
	frec_trigger_show(m, trigger, ",");
	seq_putc(m, ' ');
	frec_sites_seq_quote(m, t->fmt);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations frec_control_seq_ops = {
	.start = frec_sites_seq_start,
	.next = frec_sites_seq_next,
	.stop = frec_sites_seq_stop,
	.show = frec_control_show,
};

/*
 * The next word of @*s, NUL-terminated in place; a word that starts with
 * '"' runs to the closing quote and is unquoted.  NULL at the end, or
 * ERR_PTR(-EINVAL) for a quote that does not close.
 */
static char *frec_control_word(char **s)
{
	char *p = skip_spaces(*s), *w = p, *end;

	if (!*p)
		return NULL;
	if (*p == '"') {
		for (end = p + 1; *end && *end != '"'; end++)
			if (*end == '\\' && end[1])
				end++;
		if (*end != '"')
			return ERR_PTR(-EINVAL);
		*end = '\0';
		/* Unquoting only shortens: in place is safe. */
		frec_format_unquote(w, end - p, p + 1, end - p - 1);
		*s = end + 1;
		if (**s && !isspace(**s))
			return ERR_PTR(-EINVAL);
		return w;
	}
	while (*p && !isspace(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

/* "N", "N-M", "N-" or "-M" into @cmd; false if it is none of them. */
static bool frec_control_lines(const char *s, struct frec_control_cmd *cmd)
{
	const char *dash = strchr(s, '-');
	char first[16];
	size_t n;

	if (!dash) {
		if (kstrtouint(s, 10, &cmd->line_min))
			return false;
		cmd->line_max = cmd->line_min;
		return true;
	}
	n = dash - s;
	if (n >= sizeof(first) || (!n && !dash[1]))
		return false;
	memcpy(first, s, n);
	first[n] = '\0';
	if (n && kstrtouint(first, 10, &cmd->line_min))
		return false;
	if (dash[1] && kstrtouint(dash + 1, 10, &cmd->line_max))
		return false;
	return cmd->line_min <= cmd->line_max;
}

/* An arming word (freeze>500us) into @cmd; logs what is wrong. */
static int frec_control_trigger(struct file *file, const char *w, struct frec_control_cmd *cmd)
{
	const char *why;
	u64 word;

	if (frec_trigger_parse(w, &word, &why)) {
		frec_debugfs_refuse(file, w, why);
		return -EINVAL;
	}
	if (cmd->set_trigger &&
	    frec_trigger_threshold(word) != frec_trigger_threshold(cmd->trigger)) {
		frec_debugfs_refuse(file, w, "another threshold than the command's other trigger");
		return -EINVAL;
	}
	if (cmd->trigger & word & FREC_TRIGGER_ACTIONS) {
		frec_debugfs_refuse(file, w, "trigger given twice");
		return -EINVAL;
	}
	cmd->set_trigger = true;
	cmd->trigger |= word;
	return 0;
}

/*
 * Parse one command of @s (NUL-terminated, no ';'), in place; logs what
 * is wrong (@scratch, FREC_CONTROL_MAX bytes, keeps the command whole
 * for the log).
 */
static int frec_control_parse(struct file *file, char *s, struct frec_control_cmd *cmd,
			      char *scratch)
{
	static const char * const keys[] = { "module", "file", "func", "ring", "format", "line" };
	const char **fields[] = { &cmd->module, &cmd->file, &cmd->func, &cmd->ring, &cmd->format };
	bool seen_line = false;
	char *w, *val;
	unsigned int k;

	strscpy(scratch, s, FREC_CONTROL_MAX);
	memset(cmd, 0, sizeof(*cmd));
	cmd->line_max = UINT_MAX;
	while ((w = frec_control_word(&s))) {
		if (IS_ERR(w)) {
			frec_debugfs_refuse(file, scratch, "a quote that does not close");
			return -EINVAL;
		}
		if (!strcmp(w, "+r") || !strcmp(w, "=r") || !strcmp(w, "-r") || !strcmp(w, "=_")) {
			if (cmd->set_on) {
				frec_debugfs_refuse(file, w, "flags given twice");
				return -EINVAL;
			}
			cmd->set_on = true;
			cmd->on = w[1] == 'r' && w[0] != '-';
			continue;
		}
		if (!strcmp(w, "-freeze") || !strcmp(w, "-dump")) {
			cmd->disarm |= w[1] == 'd' ? FREC_TRIGGER_DUMP :
				       FREC_TRIGGER_FREEZE | FREC_TRIGGER_FREEZE_ALL;
			continue;
		}
		if (str_has_prefix(w, "freeze") || str_has_prefix(w, "dump")) {
			if (frec_control_trigger(file, w, cmd))
				return -EINVAL;
			continue;
		}
		if (str_has_prefix(w, "level=")) {
			cmd->level = frec_level_parse(w + 6);
			if (!cmd->level) {
				frec_debugfs_refuse(file, w, "not a level");
				return -EINVAL;
			}
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (!strcmp(w, keys[k]))
				break;
		if (k == ARRAY_SIZE(keys)) {
			frec_debugfs_refuse(file, w, "unknown word");
			return -EINVAL;
		}
		val = frec_control_word(&s);
		if (IS_ERR_OR_NULL(val)) {
			frec_debugfs_refuse(file, w, IS_ERR(val) ? "a quote that does not close" :
					    "a selector without its value");
			return -EINVAL;
		}
		if (k == ARRAY_SIZE(fields)) {
			if (seen_line || !frec_control_lines(val, cmd)) {
				frec_debugfs_refuse(file, val, seen_line ? "line given twice" :
						    "not a line or range (N, N-M, N-, -M)");
				return -EINVAL;
			}
			seen_line = true;
			continue;
		}
		if (*fields[k]) {
			frec_debugfs_refuse(file, w, "selector given twice");
			return -EINVAL;
		}
		*fields[k] = val;
	}
	if (cmd->set_trigger && cmd->disarm) {
		frec_debugfs_refuse(file, scratch, "a command that arms and disarms a trigger");
		return -EINVAL;
	}
	if (!cmd->set_on && !cmd->level && !cmd->set_trigger && !cmd->disarm) {
		frec_debugfs_refuse(file, scratch,
				    "a command without +r, -r, =r, =_, level= or a trigger");
		return -EINVAL;
	}
	return 0;
}

static bool frec_control_glob(const char *glob, const char *s)
{
	return !glob || match_wildcard(glob, s);
}

/* Does @cmd select @site?  frec_sites_lock and frec_rings_rwsem held. */
static bool frec_control_match(const struct frec_control_cmd *cmd,
			       const struct frec_site *site)
{
	const struct frec_site_texts *t = frec_site_texts(site);

	return frec_control_glob(cmd->module, t->modname) &&
	       (frec_control_glob(cmd->file, t->file) ||
		frec_control_glob(cmd->file, kbasename(t->file))) &&
	       frec_control_glob(cmd->func, t->func) &&
	       site->line >= cmd->line_min && site->line <= cmd->line_max &&
	       (!cmd->format || strstr(t->fmt, cmd->format)) &&
	       frec_control_glob(cmd->ring, frec_control_ring(site));
}

/* @site's armed trigger without the actions @disarm; 0 if none is left. */
static u64 frec_control_disarmed(const struct frec_site *site, unsigned int id,
				 unsigned int disarm)
{
	u64 w = frec_trigger_armed(site, id) & ~(u64)disarm;

	return w & FREC_TRIGGER_ACTIONS ? w : 0;
}

/* Apply @cmd to every site it selects; the number changed. */
/*
 * A threshold fires only on a span's end (frec_trigger_span()): one given
 * to a site of another kind would never fire, so the write is refused,
 * naming the first such site.  With frec_sites_lock held.
 */
static int frec_control_check_thresholds(struct file *file, const struct frec_control_cmd *cmd)
{
	const struct frec_site_texts *t;
	struct frec_site *site;
	char where[80];
	unsigned int id;

	if (!cmd->set_trigger || !frec_trigger_threshold(cmd->trigger))
		return 0;
	for (id = 1; id <= frec_sites_last_id(); id++) {
		site = frec_site_locked(id);
		if (!site || (site->flags & FREC_SITE_KEPT) || !frec_control_match(cmd, site) ||
		    frec_span_kind(site->fmt) == FREC_SPAN_END)
			continue;
		t = frec_site_texts(site);
		snprintf(where, sizeof(where), "%u %.48s:%u", id, kbasename(t->file), site->line);
		frec_debugfs_refuse(file, where,
				    "a threshold trigger on a site that is not a span's end (frec_span_end())");
		return -EINVAL;
	}
	return 0;
}

static unsigned int frec_control_apply(const struct frec_control_cmd *cmd)
{
	unsigned int id, n = 0;
	struct frec_site *site;
	bool on;

	for (id = 1; id <= frec_sites_last_id(); id++) {
		site = frec_site_locked(id);
		if (!site || (site->flags & FREC_SITE_KEPT) || !frec_control_match(cmd, site))
			continue;
		on = cmd->set_on ? cmd->on : READ_ONCE(site->level) != FREC_SITE_OFF;
		if (cmd->level)
			site->set_level = cmd->level;
		/* Call sites read it racily: a record in flight may use either. */
		WRITE_ONCE(site->level, on ? site->set_level : FREC_SITE_OFF);
		if (cmd->set_trigger)
			frec_trigger_set(site, id, cmd->trigger);
		else if (cmd->disarm)
			frec_trigger_set(site, id, frec_control_disarmed(site, id, cmd->disarm));
		n++;
	}
	return n;
}

/*
 * A write, through write_iter() so that a module can write it too
 * (kernel_write() takes only write_iter()): frec_bench does.
 */
static ssize_t frec_control_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	size_t count = iov_iter_count(from);
	struct frec_control_cmd *cmds;
	unsigned int nr = 0, i, changed = 0;
	char *buf, *scratch, *s, *one;
	int err;

	buf = kmalloc(2 * FREC_CONTROL_MAX, GFP_KERNEL);
	cmds = kcalloc(FREC_CONTROL_COMMANDS, sizeof(*cmds), GFP_KERNEL);
	err = -ENOMEM;
	if (!buf || !cmds)
		goto out;
	scratch = buf + FREC_CONTROL_MAX;
	err = frec_debugfs_check_size(file, count, iocb->ki_pos, FREC_CONTROL_MAX);
	if (err)
		goto out;
	err = -EFAULT;
	if (copy_from_iter(buf, count, from) != count)
		goto out;
	err = frec_debugfs_check_line(file, buf, count);
	if (err)
		goto out;
	/* Parse all, then change: a bad command changes nothing. */
	s = buf;
	while ((one = strsep(&s, ";"))) {
		if (!*skip_spaces(one) && (nr || s))
			continue;	/* an empty command between ';'s */
		if (nr == FREC_CONTROL_COMMANDS) {
			frec_debugfs_refuse(file, one, "more than 16 commands");
			err = -EINVAL;
			goto out;
		}
		err = frec_control_parse(file, one, &cmds[nr++], scratch);
		if (err)
			goto out;
	}
	mutex_lock(&frec_sites_lock);
	down_read(&frec_rings_rwsem);
	for (i = 0; i < nr; i++) {
		err = frec_control_check_thresholds(file, &cmds[i]);
		if (err) {
			up_read(&frec_rings_rwsem);
			mutex_unlock(&frec_sites_lock);
			goto out;
		}
	}
	for (i = 0; i < nr; i++)
		changed += frec_control_apply(&cmds[i]);
	up_read(&frec_rings_rwsem);
	mutex_unlock(&frec_sites_lock);
	pr_debug("control: %u sites changed\n", changed);
	err = count;
out:
	kfree(cmds);
	kfree(buf);
	return err;
}

static int frec_control_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &frec_control_seq_ops);
}

const struct file_operations frec_control_fops = {
	.owner = THIS_MODULE,
	.open = frec_control_open,
	.read_iter = seq_read_iter,
	.write_iter = frec_control_write_iter,
	.llseek = seq_lseek,
	.release = seq_release,
};
