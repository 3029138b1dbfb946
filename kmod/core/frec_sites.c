// SPDX-License-Identifier: GPL-2.0
/*
 * frec_sites.c - call sites: every frec_record() and frec_printk() in the
 * code, numbered, so that a record names its site (format, file, line,
 * function, module, level) with one word, and a site can be switched off
 * or given another level (frec_control.c).
 *
 * Each expansion of the record macros defines a static struct frec_site
 * (include/frec.h).  frec numbers it, its id, in one of two ways:
 *
 *  - when its module loads (MODULE_STATE_COMING): frec_modules.c finds the
 *    module's objects named __frec_site (as it finds ring definitions), so
 *    frec/control lists a site before it ever ran;
 *  - else on its first record, from whatever context that is, NMI
 *    included: a site built into something frec could not walk, or one
 *    whose symbol the compiler renamed.
 *
 * Both go through frec_site_register(), which takes no lock and does not
 * allocate: the table of sites is allocated when frec loads.
 *
 *   site->id            table
 *   --------            -----
 *   0                   id = next++  (atomic)
 *   cmpxchg -> CLAIMING table[id] = site, release   (A)
 *   store id, release   (B)
 *
 * The cmpxchg picks one registering context; any other that meets the site
 * CLAIMING (another CPU, or an NMI that interrupted the registration on
 * this one) cannot wait for it, so its record stores the format's address
 * instead of an id, which readers resolve as before sites existed.  A full
 * table (sites_max) leaves the site FREC_SITE_NO_ID, counted in refused,
 * and its records store the format's address too: nothing is lost.
 *
 * A record carries the id to readers (the raw dump, the dump, the crash
 * dump), which look it up in the table:
 *
 *   writer CPU                         reader
 *   ----------                         ------
 *   id = READ_ONCE(site->id)           acquire the record's state
 *   store the record, release   (C)    rcu_dereference(table[id])   (D)
 *
 * (B) orders (A) before the id, and the release (C) is cumulative: the
 * table entry reached the writer's CPU before the id did, so it reaches
 * every reader before the record.  A reader still checks for an empty
 * entry and prints the format as unreadable rather than trust this.
 * arm64: (A) and (B) are STLRs, so the entry is visible before the id;
 * the writer's READ_ONCE() of the id is ordered before its commit STLR
 * (C), which a release does for every earlier load, not only acquires;
 * ARMv8 being other-multi-copy atomic, the entry the writer's CPU could
 * see reaches the reader before the record, and the reader's LDAR of the
 * state orders (D) after it (the pattern LKMM calls ISA2, forbidden).
 *
 * A site's text that lies in init data is repointed at frec's copy
 * before the init sections go:
 *
 * frec_site_keep_init_text:A / frec_site_format:G
 *	(the copy is written before its address is stored) A lock-free
 *	reader that loads the new address follows it, an address
 *	dependency, and reads the whole copy.  Readers under
 *	frec_sites_lock (frec_site_texts()) are ordered by the lock the
 *	writer holds.  arm64: STLR against an address dependency, which
 *	arm64 keeps for READ_ONCE() (no DMB needed on the reader).
 *
 * Sites live in their module's memory.  When a module goes
 * (MODULE_STATE_GOING, its memory still there), every entry that points
 * into it is replaced, under frec_sites_lock, by a copy frec owns: the
 * texts, and the first caller named as the dump names it.  Readers look at
 * an entry inside an RCU read-side section (or holding frec_sites_lock);
 * the notifier waits for a grace period before the memory can go.
 *
 * Ids are given again, so that modules loaded and unloaded any number of
 * times never fill the table.  Before a going module's ids are given
 * back, every record that names one of its sites by id is repointed at a
 * copy of the site's format (frec_formats.c), as a site without an id
 * stores it, and readers holding older copies of those records learn it
 * from frec_texts_gen as for any repointed word.  A given-back id keeps
 * frec's copy of its site in the table, listed in frec/sites, until a
 * module loaded later takes it (frec_sites_coming(), in process context;
 * a site registering on its first record takes a new id, lock-free).
 * The copy is then freed after a grace period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/export.h>
#include <linux/kallsyms.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "frec_debugfs.h"
#include "frec_format.h"
#include "frec_format_quote.h"
#include "frec_hooks.h"
#include "frec_kernel_text.h"
#include "frec_module_objects.h"
#include "frec_modules.h"
#include "frec_persist.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_texts.h"

/* The prefix of the symbol of every site (include/frec.h). */
#define FREC_SITE_SYMBOL	"__frec_site"

static unsigned int sites_max = 16384;
module_param(sites_max, uint, 0444);
MODULE_PARM_DESC(sites_max,
		 "call sites frec numbers (default 16384, at most 16777215; with a region, at most its site table's); later sites record format addresses");

/**
 * struct frec_site_kept - a site whose module went, as frec keeps it
 * @site: the site, its strings pointing into @text.
 * @caller_symbol: its first caller, named when the module went ("" if none).
 * @rcu: to free it once its id is given to another site.
 * @text: the strings.
 */
struct frec_site_kept {
	struct frec_site site;
	const char *caller_symbol;
	struct rcu_head rcu;
	char text[];
};

/* Sites by id, [1, sites_max]; entries are written once, then replaced once. */
static struct frec_site __rcu **frec_sites_table;
/* Ids handed out, some maybe past sites_max (refused). */
static atomic_t frec_sites_taken = ATOMIC_INIT(0);
static atomic_t frec_sites_refused = ATOMIC_INIT(0);
/*
 * Ids given back by sites whose module went, to give again when a module
 * loads; and how many, for the header of frec/sites.  Under
 * frec_sites_lock.
 */
static unsigned long *frec_sites_free;
static unsigned int frec_sites_nr_free;

/* Serializes replacing entries, and control's changes, against each other. */
DEFINE_MUTEX(frec_sites_lock);

/*
 * Give @site an id, unless another context is doing so: one given back,
 * if @reuse (frec_sites_lock held), else a new one.  Returns the site's
 * id word as it then is.  Any context, NMI included.
 */
static unsigned int frec_site_register(struct frec_site *site, bool reuse)
{
	struct frec_site *kept = NULL;
	unsigned int id = 0;

	if (cmpxchg(&site->id, 0, FREC_SITE_CLAIMING))
		return READ_ONCE(site->id);
	if (reuse && frec_sites_nr_free) {
		id = find_first_bit(frec_sites_free, sites_max + 1);
		__clear_bit(id, frec_sites_free);
		WRITE_ONCE(frec_sites_nr_free, frec_sites_nr_free - 1);
		kept = rcu_dereference_protected(frec_sites_table[id],
						 lockdep_is_held(&frec_sites_lock));
		/* The id's histogram starts over with its new site. */
		frec_hook_site_id_reused(id);
	}
	if (!id)
		id = atomic_inc_return(&frec_sites_taken);
	if (id > sites_max) {
		atomic_inc(&frec_sites_refused);
		id = FREC_SITE_NO_ID;
	} else {
		/* A trigger armed on the site that had the id is not this one's. */
		frec_hook_site_id_given(id);
		/* Pairs with frec_site_entry:D, through the record (C). */
		rcu_assign_pointer(frec_sites_table[id], site); /* LMM(frec_site_register:A) */
		/* Its entry in the black box, before any record names it. */
		frec_persist_site(site, id);
		/* A span's end: its histogram, before its first end. */
		frec_hook_site_registered(site, id);
		id |= FREC_SITE_UNSEEN;
	}
	/* Orders (A) before the id readers find in records. */
	smp_store_release(&site->id, id); /* LMM(frec_site_register:B) */
	/* The copy of the site that had the id, once no reader holds it. */
	if (kept)
		kfree_rcu(container_of(kept, struct frec_site_kept, site), rcu);
	return id;
}

/**
 * frec_site_word_slow() - a site's word when it has no plain id yet
 * @site: the site.
 * @ring: the ring of the record.
 * @caller: the record's caller.
 *
 * Registers @site if nobody did; on its first record notes @caller and
 * @ring (whoever wins the cmpxchg of the caller).
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: the site's id, or the format's address if it has none.
 */
u64 frec_site_word_slow(struct frec_site *site, const struct frec_ring *ring,
			unsigned long caller)
{
	unsigned int id = READ_ONCE(site->id);

	if (!id)
		id = frec_site_register(site, false);
	if (id >= FREC_SITE_NO_ID)
		return (unsigned long)site->fmt;
	if (id & FREC_SITE_UNSEEN) {
		/* An armed trigger's bit stays: frec_trigger_claim() takes it. */
		/*
		 * The first caller wins; readers of frec/sites and frec/control
		 * take caller and ring_id racily (READ_ONCE, 0 or "-" until
		 * set), so these pair with nothing: the fully ordered cmpxchg()
		 * below only keeps them before the plain id that later records
		 * store (on arm64 as on x86: a successful cmpxchg() is a full
		 * barrier on both).
		 */
		if (!cmpxchg(&site->caller, 0, caller)) { /* LMM(frec_site_word_slow:E) */
			WRITE_ONCE(site->ring_id, ring->id);
			frec_persist_site_caller(site, id & ~(FREC_SITE_UNSEEN |
							      FREC_SITE_TRIGGER));
		}
		cmpxchg(&site->id, id, id & ~FREC_SITE_UNSEEN); /* LMM(frec_site_word_slow:F) */
	}
	return id & ~(FREC_SITE_UNSEEN | FREC_SITE_TRIGGER);
}

/**
 * frec_sites_last_id() - the highest id given so far; ids from 1 to it
 * may have a site (some were given back and have none)
 *
 * Context: Any context.
 * Return: the id.
 */
unsigned int frec_sites_last_id(void)
{
	return min_t(unsigned int, atomic_read(&frec_sites_taken), sites_max);
}

/* The site of @id, inside an RCU read-side section; NULL if none. */
static const struct frec_site *frec_site_entry(u64 id)
{
	if (!id || id > frec_sites_last_id())
		return NULL;
	/* Pairs with frec_site_register:A. */
	return rcu_dereference(frec_sites_table[id]); /* LMM(frec_site_entry:D) */
}

/**
 * frec_site_format() - the format a record's site word stands for
 * @buf: where the format goes, NUL-terminated.
 * @size: bytes at @buf, at least 1; a longer format is cut.
 * @word: the record's site word.
 *
 * Context: Any context, NMI included.
 * Return: the format's length, or a negative errno if there is none to
 * read (an id frec never gave, or an unreadable address).
 */
int frec_site_format(char *buf, size_t size, u64 word)
{
	const struct frec_site *site;
	const char *fmt;
	ssize_t len = -ENOENT;

	if (word >= FREC_SITE_ID_LIMIT)
		return frec_format_kernel_string(buf, size, word);
	rcu_read_lock();
	site = frec_site_entry(word);
	/* A site's texts are read as any address: a bad one cannot fault. */
	if (site) {
		/* Pairs with frec_site_keep_init_text:A. */
		fmt = READ_ONCE(site->fmt); /* LMM(frec_site_format:G) */
		len = frec_format_kernel_string(buf, size, (unsigned long)fmt);
	}
	rcu_read_unlock();
	return len;
}
EXPORT_SYMBOL_GPL(frec_site_format);

/**
 * frec_site_format_in() - the format of a site of a module that is going
 * @id: a site id, from a record.
 * @mod: the module, going (its memory still there).
 *
 * Context: Process context, the module notifier (frec_formats.c).
 * Return: the format of site @id if the site lives in @mod's memory, else
 * NULL.
 */
const char *frec_site_format_in(u64 id, struct module *mod)
{
	const struct frec_site *site;
	const char *fmt = NULL;

	rcu_read_lock();
	site = frec_site_entry(id);
	/* Only the address: an entry elsewhere may not be ours to read. */
	if (site && within_module((unsigned long)site, mod))
		fmt = READ_ONCE(site->fmt);
	rcu_read_unlock();
	return fmt;
}

/**
 * frec_sites_counts() - how full the table is
 * @registered: sites with an id (racy: an id being given back or again
 *	may be counted or not).
 * @refused: sites that found the table full.
 * @capacity: sites_max.
 *
 * Context: Any context.
 */
void frec_sites_counts(unsigned int *registered, unsigned int *refused,
		       unsigned int *capacity)
{
	*registered = frec_sites_last_id() - READ_ONCE(frec_sites_nr_free);
	*refused = atomic_read(&frec_sites_refused);
	*capacity = sites_max;
}

/**
 * frec_site_locked() - the site of an id, frec_sites_lock held
 * @id: the id.
 *
 * Context: Process context, frec_sites_lock held: the site (a live one in
 * its module, or frec's copy, FREC_SITE_KEPT) stays while it is held.
 * Return: the site, or NULL if @id has none (yet).
 */
struct frec_site *frec_site_locked(unsigned int id)
{
	if (!id || id > frec_sites_last_id())
		return NULL;
	return rcu_dereference_protected(frec_sites_table[id],
					 lockdep_is_held(&frec_sites_lock));
}

/* The texts frec_site_texts() read, under frec_sites_lock. */
static struct frec_site_texts frec_site_texts_buf;

/* Read the string at @s into @buf, or "(efault)" if it cannot be read. */
static void frec_site_text(char *buf, size_t size, const char *s)
{
	if (frec_format_kernel_string(buf, size, (unsigned long)s) < 0)
		strscpy(buf, "(efault)", size);
}

/**
 * frec_site_texts() - a site's texts, read so that no pointer can fault
 * @site: from frec_site_locked().
 *
 * A hand-written site may point anywhere; a text frec cannot read reads
 * "(efault)", as a %s does, and a long one is cut.
 *
 * Context: Process context, frec_sites_lock held.
 * Return: the texts, valid until frec_sites_lock is released or this is
 * called again.
 */
const struct frec_site_texts *frec_site_texts(const struct frec_site *site)
{
	struct frec_site_texts *t = &frec_site_texts_buf;

	lockdep_assert_held(&frec_sites_lock);
	frec_site_text(t->fmt, sizeof(t->fmt), READ_ONCE(site->fmt));
	frec_site_text(t->file, sizeof(t->file), READ_ONCE(site->file));
	frec_site_text(t->func, sizeof(t->func), READ_ONCE(site->func));
	frec_site_text(t->modname, sizeof(t->modname), READ_ONCE(site->modname));
	return t;
}

/**
 * frec_site_caller_symbol() - a site's first caller, as the dump names it
 * @site: from frec_site_locked().
 * @buf: KSYM_SYMBOL_LEN bytes.
 *
 * Context: Process context, frec_sites_lock held.
 * Return: the name, "" if the site has not stored a record.
 */
const char *frec_site_caller_symbol(const struct frec_site *site, char *buf)
{
	unsigned long caller = READ_ONCE(site->caller);

	const char *saved;

	if (site->flags & FREC_SITE_KEPT)
		return container_of(site, struct frec_site_kept, site)->caller_symbol;
	/* A caller in init code is named by the text kept when init went. */
	saved = frec_texts_saved_symbol(caller);
	if (saved)
		return saved;
	if (!caller || frec_format_kernel_symbol_name(buf, caller, 'S') < 0)
		return "";
	return buf;
}

/*
 * seq_file over ids: position 0 is the header (SEQ_START_TOKEN), position
 * N site N, whose cookie is N + 1 (SEQ_START_TOKEN is 1).
 */

/**
 * frec_sites_seq_id() - the site id of a frec_sites_seq_start() cookie
 * @v: the cookie, not SEQ_START_TOKEN.
 *
 * Context: Any context.
 * Return: the id.
 */
unsigned int frec_sites_seq_id(void *v)
{
	return (unsigned long)v - 1;
}

static void *frec_sites_seq_at(loff_t pos)
{
	if (!pos)
		return SEQ_START_TOKEN;
	return pos <= frec_sites_last_id() ? (void *)(unsigned long)(pos + 1) : NULL;
}

void *frec_sites_seq_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&frec_sites_lock);
	return frec_sites_seq_at(*pos);
}

void *frec_sites_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	return frec_sites_seq_at(++*pos);
}

void frec_sites_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&frec_sites_lock);
}

/**
 * frec_sites_seq_quote() - write a string as frec/formats quotes it
 * @m: the file.
 * @s: the string.
 *
 * Context: Process context.
 */
void frec_sites_seq_quote(struct seq_file *m, const char *s)
{
	char buf[128];
	size_t n, used;

	seq_putc(m, '"');
	do {
		n = frec_format_quote(buf, sizeof(buf), s, &used);
		seq_write(m, buf, n);
		s += used;
	} while (*s);
	seq_putc(m, '"');
}

/* frec/sites: the lines uapi/frec_raw.h specifies. */
static int frec_sites_show(struct seq_file *m, void *v)
{
	unsigned int registered, refused, capacity;
	const struct frec_site_texts *t;
	const struct frec_site *site;
	char sym[KSYM_SYMBOL_LEN];

	if (v == SEQ_START_TOKEN) {
		frec_sites_counts(&registered, &refused, &capacity);
		seq_printf(m, "# frec sites: %u registered, %u refused, room for %u\n",
			   registered, refused, capacity);
		seq_puts(m, "# id level line \"module\" \"file\" \"function\" caller \"caller symbol\" \"format\"\n");
		return 0;
	}
	site = frec_site_locked(frec_sites_seq_id(v));
	if (!site)
		return 0;	/* being registered: not yet readable */
	t = frec_site_texts(site);
	seq_printf(m, "%u %s %u ", frec_sites_seq_id(v), frec_level_name(site->code_level),
		   site->line);
	frec_sites_seq_quote(m, t->modname);
	seq_putc(m, ' ');
	frec_sites_seq_quote(m, t->file);
	seq_putc(m, ' ');
	frec_sites_seq_quote(m, t->func);
	seq_printf(m, " 0x%lx ", READ_ONCE(site->caller));
	frec_sites_seq_quote(m, frec_site_caller_symbol(site, sym));
	seq_putc(m, ' ');
	frec_sites_seq_quote(m, t->fmt);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations frec_sites_seq_ops = {
	.start = frec_sites_seq_start,
	.next = frec_sites_seq_next,
	.stop = frec_sites_seq_stop,
	.show = frec_sites_show,
};

static int frec_sites_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &frec_sites_seq_ops);
}

const struct file_operations frec_sites_fops = {
	.owner = THIS_MODULE,
	.open = frec_sites_open,
	/* read_iter: kernel_read() takes nothing else (the KUnit suite reads it). */
	.read_iter = seq_read_iter,
	.llseek = seq_lseek,
	.release = seq_release,
};

/* Copy @s to *@p, move *@p past it; the copy. */
static const char *frec_site_keep_string(char **p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = memcpy(*p, s, n);

	*p += n;
	return copy;
}

/* A copy of @site that frec owns, or NULL if out of memory. */
static struct frec_site *frec_site_keep(const struct frec_site *site)
{
	struct frec_site_kept *k;
	char sym[KSYM_SYMBOL_LEN];
	const char *caller;
	size_t bytes;
	char *p;

	const struct frec_site_texts *t = frec_site_texts(site);

	caller = frec_site_caller_symbol(site, sym);
	bytes = strlen(t->fmt) + strlen(t->file) + strlen(t->func) +
		strlen(t->modname) + strlen(caller) + 5;
	k = kmalloc(struct_size(k, text, bytes), GFP_KERNEL);
	if (!k)
		return NULL;
	k->site = *site;
	k->site.flags |= FREC_SITE_KEPT;
	p = k->text;
	k->site.fmt = frec_site_keep_string(&p, t->fmt);
	k->site.file = frec_site_keep_string(&p, t->file);
	k->site.func = frec_site_keep_string(&p, t->func);
	k->site.modname = frec_site_keep_string(&p, t->modname);
	k->caller_symbol = frec_site_keep_string(&p, caller);
	return &k->site;
}

/*
 * The next site in @mod's memory after id *@id (0 to start), its id in
 * *@id; NULL after the last.  frec_sites_lock held.
 */
static struct frec_site *frec_site_next_in(struct module *mod, unsigned int *id)
{
	struct frec_site *site;

	while (++*id <= frec_sites_last_id()) {
		site = frec_site_locked(*id);
		/* Only the address: an entry elsewhere may not be ours to read. */
		if (site && within_module((unsigned long)site, mod))
			return site;
	}
	return NULL;
}

/**
 * frec_sites_going() - let go of @mod's sites
 * @mod: a module going, its memory still there.
 * @give_back: no record names one of @mod's sites by id any more
 *	(frec_formats_module_going() repointed them): their ids may be
 *	given to sites loaded later.
 *
 * Every table entry in @mod's memory is replaced by a copy frec owns, so
 * that frec/sites lists the site until its id is given again (a raw dump
 * read before the module went still decodes with a sites file read
 * after), and for good if not @give_back.
 *
 * Context: Process context, the module notifier (frec_modules.c).
 */
void frec_sites_going(struct module *mod, bool give_back)
{
	struct frec_site *site, *kept;
	bool replaced = false;
	unsigned int id = 0;

	/*
	 * The records repointed away from the ids in memory before an id
	 * is given again: a reset must not show them under the new site.
	 */
	if (give_back)
		frec_persist_records_wb();
	mutex_lock(&frec_sites_lock);
	while ((site = frec_site_next_in(mod, &id))) {
		kept = frec_site_keep(site);
		if (!kept)
			pr_err("%s: out of memory: site %u's text is lost\n", mod->name, id);
		rcu_assign_pointer(frec_sites_table[id], kept);
		if (give_back) {
			__set_bit(id, frec_sites_free);
			WRITE_ONCE(frec_sites_nr_free, frec_sites_nr_free + 1);
		}
		replaced = true;
	}
	mutex_unlock(&frec_sites_lock);
	/* Readers that found the module's site are done with it. */
	if (replaced)
		synchronize_rcu();
}

/*
 * Repoint text @*text of a site of @mod at frec's copy if it lies in
 * @mod's init sections.  Readers that load the old pointer do so inside
 * an RCU read-side section (the init sections are freed after a grace
 * period) or under frec_sites_lock, which we hold.
 */
static void frec_site_keep_init_text(struct module *mod, const char **text)
{
	const char *copy;

	if (!within_module_init((unsigned long)*text, mod))
		return;
	copy = frec_texts_keep(*text, mod->name);
	if (!copy) {
		pr_err("%s: out of memory: a site's text in init data is lost\n", mod->name);
		copy = "(efault)";
	}
	/*
	 * The copy is whole before readers can load its address, which they
	 * follow (an address dependency).  Pairs with frec_site_format:G.
	 */
	smp_store_release(text, copy); /* LMM(frec_site_keep_init_text:A) */
}

/**
 * frec_sites_init_going() - keep what @mod's sites point to in init sections
 * @mod: a module whose init sections are about to be freed
 *	(MODULE_STATE_LIVE).
 *
 * The record macros take only literals, but a site written by hand may
 * point at init data, and a site's first caller may be init code: its
 * texts are copied and its caller named now, as records' words are
 * (frec_formats.c), so that control, sites and the dump never read freed
 * memory.
 *
 * Context: Process context, the module notifier (frec_modules.c).
 */
void frec_sites_init_going(struct module *mod)
{
	struct frec_site *site;
	unsigned long caller;
	unsigned int id = 0;
	const char *name;

	mutex_lock(&frec_sites_lock);
	while ((site = frec_site_next_in(mod, &id))) {
		frec_site_keep_init_text(mod, &site->fmt);
		frec_site_keep_init_text(mod, &site->file);
		frec_site_keep_init_text(mod, &site->func);
		frec_site_keep_init_text(mod, &site->modname);
		caller = READ_ONCE(site->caller);
		if (within_module_init(caller, mod)) {
			name = frec_texts_keep_caller(caller);
			/* frec_site_caller_symbol() tells the saved name from code. */
			if (name)
				cmpxchg(&site->caller, caller, (unsigned long)name);
		}
	}
	mutex_unlock(&frec_sites_lock);
}

static void frec_site_found(struct module *mod, void *site)
{
	frec_site_register(site, true);
}

/**
 * frec_sites_coming() - number every site of @mod
 * @mod: a module being loaded, before its init function.
 *
 * Context: Process context, the module notifier (frec_modules.c).
 */
void frec_sites_coming(struct module *mod)
{
	mutex_lock(&frec_sites_lock);
	frec_module_objects(mod, FREC_SITE_SYMBOL, sizeof(struct frec_site), frec_site_found);
	mutex_unlock(&frec_sites_lock);
}

/**
 * frec_sites_check() - can the site table be made as sites_max= asks?
 *
 * Context: Process context, when frec loads, before the region is
 * touched (frec_persist_check()).
 * Return: 0, or -EINVAL for a bad sites_max (logged with the value).
 */
int frec_sites_check(void)
{
	if (!sites_max || sites_max >= FREC_SITE_ID_LIMIT) {
		pr_err("sites_max=%u: must be 1 to %u\n", sites_max, FREC_SITE_ID_LIMIT - 1);
		return -EINVAL;
	}
	/* A site word below the limit is an id: no address may be there. */
	if ((unsigned long)frec_sites_check < FREC_SITE_ID_LIMIT) {
		pr_err("kernel addresses below %u cannot be told from site ids\n",
		       FREC_SITE_ID_LIMIT);
		return -EINVAL;
	}
	return 0;
}

/**
 * frec_sites_wanted() - the highest id sites_max= asks for
 *
 * Context: Process context, when frec loads, after frec_sites_check().
 * Return: sites_max.
 */
unsigned int frec_sites_wanted(void)
{
	return sites_max;
}

/**
 * frec_sites_init() - allocate the table, ids stopping where the
 *	region's site table does
 *
 * Context: Process context, when frec loads, after frec_sites_check() and
 * frec_region_init().
 * Return: 0, -ENOMEM.
 */
int frec_sites_init(void)
{
	unsigned int limit = frec_persist_site_ids();

	/*
	 * A site past the region's table records its format's address, as
	 * a site of a full table does, and the region keeps that format
	 * among its texts; an id past the table would have no entry, and
	 * the next boot would reject its records.
	 */
	if (limit && sites_max > limit) {
		pr_warn("sites_max=%u: the region's site table holds ids 1 to %u; later sites record their format's address\n",
			sites_max, limit);
		sites_max = limit;
	}
	frec_sites_table = vzalloc(array_size(sites_max + 1, sizeof(*frec_sites_table)));
	frec_sites_free = bitmap_zalloc(sites_max + 1, GFP_KERNEL);
	if (!frec_sites_table || !frec_sites_free) {
		vfree(frec_sites_table);
		bitmap_free(frec_sites_free);
		return -ENOMEM;
	}
	return 0;
}

/**
 * frec_sites_exit() - free the table and every copy
 *
 * Context: Process context, when frec unloads (no client is loaded),
 * after frec_modules_exit().
 */
void frec_sites_exit(void)
{
	struct frec_site *site;
	unsigned int id;

	mutex_lock(&frec_sites_lock);
	for (id = 1; id <= frec_sites_last_id(); id++) {
		site = frec_site_locked(id);
		if (site && (site->flags & FREC_SITE_KEPT))
			kfree(container_of(site, struct frec_site_kept, site));
	}
	mutex_unlock(&frec_sites_lock);
	vfree(frec_sites_table);
	bitmap_free(frec_sites_free);
}
