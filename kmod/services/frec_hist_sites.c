// SPDX-License-Identifier: GPL-2.0
/*
 * frec_hist_sites.c - a latency histogram per span end: every
 * frec_span_end() site counts its spans' durations (kmod/lib/frec_hist.c:
 * log-linear buckets, within 1/32), per CPU, with no shared write and no
 * lock on the record path; debugfs frec/hist sums the CPUs when read, and
 * a write of "0" resets them; rings/<name>/hist does the same for the span
 * ends whose first record went into that ring.
 *
 * The histograms are a pool of hist_sites= (default 32), allocated when
 * frec loads: each a per-CPU struct frec_hist_cpu (4752 bytes a CPU) and
 * one struct frec_hist (what readers share).  A span-end site takes one
 * by its site id, from whatever context that is, NMI included, and keeps
 * its per-CPU counts' address in the site itself (frec_site.span_hist),
 * so that the record path finds them with one load:
 *
 *   frec_hist_slot[id]          pool                    the site
 *   ------------------          ----                    --------
 *   0 -> CLAIMING (cmpxchg)     n: a bit clear in
 *                               frec_hist_used, set by
 *                               test_and_set_bit()
 *   n + 1, release        (A)   (zeroed at load, reset  span_hist = the
 *                               when given back:        counts of n
 *                               nothing to publish)
 *
 * A span-end site claims its histogram when it is given its id
 * (frec_hist_site_registered()): for the sites of a module, when the
 * module loads, before any of its spans; only a site registered on its
 * first record races its own ends, which find span_hist NULL and go
 * out of line.  The cmpxchg picks one context; any other that finds the
 * site CLAIMING (another CPU, or an NMI that interrupted the claim on this
 * one) cannot wait: its span is not counted, and neither are the spans
 * of a site that found the pool used up (FULL); both are counted in
 * missed, which hist prints.  A span end
 * that never ended has a histogram of count 0.  A site without an id (a
 * full sites table) has no histogram either.  A reader acquires the slot
 * (B), pairing with (A), only to know which histograms are in use; the
 * counts' own ordering is frec_hist.c's.  A histogram given back is reset
 * (its base loaded from the counts) before its bit is cleared with a
 * release (C), pairing with the fully ordered test_and_set_bit() of the
 * claim that takes it (D), before the new site's first add: no add of the
 * new site is in the base.  arm64: (A) an STLR, (B) an LDAR, (C)
 * clear_bit_unlock() a release, (D) a successful test_and_set_bit(), a
 * value-returning atomic: fully ordered (a failed one is unordered, but
 * it takes nothing and tries the next bit).
 *
 * A histogram stays with its site id.  After the site's module went, its
 * histogram is still listed (as frec/sites keeps the site) until the id
 * is given to a site of a module loaded later: frec_hist_site_reused()
 * then resets it and gives it back to the pool (clear_bit_unlock(), after
 * the reset), before that module's code runs; the new site, if a span's
 * end, claims one as it registers, that one or another.  A pool number is
 * so bound to one id at a time, and only to an id whose site is a span's
 * end (live, or kept after its module went).
 *
 * Reads and resets of the pool are serialised by frec_hist_lock, taken
 * after frec_sites_lock where both are held.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "frec_hist.h"
#include "frec_hist_sites.h"
#include "frec_rb.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_span.h"
#include "frec_text_sink.h"

static unsigned int hist_sites = 32;
module_param(hist_sites, uint, 0444);
MODULE_PARM_DESC(hist_sites,
		 "span ends with a latency histogram (default 32, 4752 bytes each per CPU; at most 4096)");

#define FREC_HIST_SITES_MAX	4096
/* frec_hist_slot[] beyond the pool's numbers 1 .. hist_sites */
#define FREC_HIST_CLAIMING	(~0U)
#define FREC_HIST_FULL		(~0U - 1)

static unsigned int *frec_hist_slot;		/* by site id: pool number + 1 */
static unsigned int frec_hist_ids;		/* its size */
static unsigned int frec_hist_nr;		/* hist_sites, once allocated */
static struct frec_hist *frec_hist_shared;	/* [frec_hist_nr] */
static struct frec_hist_cpu __percpu **frec_hist_pcpu;	/* [frec_hist_nr] */
/* Pool numbers bound to a site id: frec_hist_nr bits. */
static unsigned long *frec_hist_used;
static atomic_long_t frec_hist_missed = ATOMIC_LONG_INIT(0);
static DEFINE_MUTEX(frec_hist_lock);

/* A free histogram's pool number, taken; -1 if none.  Any context, NMI too. */
static int frec_hist_take(void)
{
	unsigned int n;

	/* A bit another context set meanwhile sends this one to the next. */
	do {
		n = find_first_zero_bit(frec_hist_used, frec_hist_nr);
		if (n >= frec_hist_nr)
			return -1;
	} while (test_and_set_bit(n, frec_hist_used)); /* LMM(frec_hist_take:D) */
	return n;
}

/*
 * The pool number of the histogram of @site, id @id, claiming one; -1 if
 * none.  Hands it to @site (frec_site.span_hist), where the record path
 * looks: the counts were zeroed at load and a reset never writes them, so
 * there is nothing to publish with the pointer.
 */
static int frec_hist_claim(struct frec_site *site, unsigned int id)
{
	unsigned int slot = READ_ONCE(frec_hist_slot[id]);
	int n;

	if (likely(slot - 1 < frec_hist_nr)) {
		n = slot - 1;
		goto found;
	}
	if (slot || frec_rb_nmi_refused() ||
	    cmpxchg(&frec_hist_slot[id], 0, FREC_HIST_CLAIMING) != 0)
		return -1;
	n = frec_hist_take();
	if (n < 0) {
		WRITE_ONCE(frec_hist_slot[id], FREC_HIST_FULL);
		return -1;
	}
	smp_store_release(&frec_hist_slot[id], n + 1); /* LMM(frec_hist_claim:A) */
found:
	WRITE_ONCE(site->span_hist, frec_hist_pcpu[n]);
	return n;
}

/**
 * frec_hist_site_registered() - a site was given id @id
 * @site: the site.
 * @id: its id.
 *
 * Claims a histogram for a span's end, so that its first ends, on any
 * CPU, find it there.
 *
 * Context: Any context, NMI included (frec_site_register()).
 */
void frec_hist_site_registered(struct frec_site *site, unsigned int id)
{
	if (id && id < frec_hist_ids && frec_span_kind(site->fmt) == FREC_SPAN_END)
		frec_hist_claim(site, id);
}

/**
 * frec_hist_span_add_slow() - frec_hist_span_add()'s uncommon cases
 * @site: the span end's call site.
 * @duration_ns: the span's duration (0 for a skew).
 *
 * A skew, a value from FREC_HIST_TOP up, or a site without its
 * histogram yet: finds or claims it by the site's id; a site with no id,
 * or no histogram to be had, is counted in missed.
 *
 * Context: Any context, NMI included, preemption disabled.
 */
void frec_hist_span_add_slow(struct frec_site *site, u64 duration_ns)
{
	unsigned int id = READ_ONCE(site->id) & ~FREC_SITE_TRIGGER;
	int n;

	if (!frec_site_id_plain(id) || id >= frec_hist_ids) {
		atomic_long_inc(&frec_hist_missed);
		return;
	}
	n = frec_hist_claim(site, id);
	if (n < 0) {
		atomic_long_inc(&frec_hist_missed);
		return;
	}
	frec_hist_add(this_cpu_ptr(frec_hist_pcpu[n]), duration_ns);
}

/* The copy of CPU @cpu of the histogram @ctx (its pool number + 1). */
static struct frec_hist_cpu *frec_hist_get(void *ctx, unsigned int cpu)
{
	if (!cpu_possible(cpu))
		return NULL;
	return per_cpu_ptr(frec_hist_pcpu[(unsigned long)ctx - 1], cpu);
}

static void frec_hist_cpus(struct frec_hist_cpus *cpus, unsigned int n)
{
	cpus->get = frec_hist_get;
	cpus->ctx = (void *)(unsigned long)(n + 1);
	cpus->nr = nr_cpu_ids;
}

/* The pool number site id @id uses (acquired), or -1. */
static int frec_hist_of(unsigned int id)
{
	unsigned int slot = smp_load_acquire(&frec_hist_slot[id]); /* LMM(frec_hist_of:B) */

	return slot - 1 < frec_hist_nr ? (int)(slot - 1) : -1;
}

/**
 * frec_hist_site_reused() - site id @id was given to a new site
 * @id: the id.
 *
 * Resets the histogram the id's old site had and gives it back to the
 * pool: the new site, if a span's end, claims one as it registers
 * (frec_hist_site_registered()), and a site that is not keeps none.  An
 * id that found the pool used up may find one now.  Called with
 * frec_sites_lock held, while the new site's module is coming, before its
 * code runs; the old site's module is gone: nothing adds to its
 * histogram.
 *
 * Context: Process context; sleeps.
 */
void frec_hist_site_reused(unsigned int id)
{
	struct frec_hist_cpus cpus;
	int n;

	if (!frec_hist_slot || id >= frec_hist_ids)
		return;
	n = frec_hist_of(id);
	/* Readers of the slots hold frec_sites_lock, as this caller does. */
	WRITE_ONCE(frec_hist_slot[id], 0);
	if (n < 0)
		return;
	frec_hist_cpus(&cpus, n);
	mutex_lock(&frec_hist_lock);
	frec_hist_reset(&frec_hist_shared[n], &cpus);
	mutex_unlock(&frec_hist_lock);
	/* Free for a claim only once reset: the next site's counts start at 0. */
	clear_bit_unlock(n, frec_hist_used); /* LMM(frec_hist_site_reused:C) */
}

static void frec_hist_seq_write(void *ctx, const char *s, size_t len)
{
	seq_write(ctx, s, len);
}

/*
 * The next histogram after site id *@id that frec/hist shows (@ring NULL:
 * every span end's) or rings/<name>/hist (the span ends whose first record
 * went into @ring, frec/control's ring column): its pool number, with its
 * id in *@id and its site in *@site; -1 after the last.  frec_sites_lock
 * and frec_hist_lock held.
 */
static int frec_hist_next_shown(const struct frec_ring *ring, unsigned int *id,
				struct frec_site **site)
{
	unsigned int last = min(frec_sites_last_id(), frec_hist_ids - 1);
	int n;

	while (++*id <= last) {
		n = frec_hist_of(*id);
		*site = n < 0 ? NULL : frec_site_locked(*id);
		if (*site && frec_span_kind((*site)->fmt) == FREC_SPAN_END &&
		    (!ring || READ_ONCE((*site)->ring_id) == (unsigned long)ring->id))
			return n;
	}
	return -1;
}

/* frec/hist, or rings/<name>/hist with @ring (frec_hist_next_shown()). */
static int frec_hist_show(struct seq_file *m, void *v)
{
	const struct frec_text_sink out = { frec_hist_seq_write, m };
	const struct frec_ring *ring = m->private;
	const struct frec_site_texts *t;
	struct frec_hist_summary *s;
	struct frec_hist_cpus cpus;
	struct frec_site *site;
	unsigned int id = 0;
	char name[96 + sizeof(t->file) + sizeof(t->func)];
	int n;

	s = kvmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	seq_puts(m, FREC_HIST_HEADER);
	seq_printf(m, "# %u of %u histograms in use, %ld spans not counted (no histogram)\n",
		   bitmap_weight(frec_hist_used, frec_hist_nr), frec_hist_nr,
		   atomic_long_read(&frec_hist_missed));
	mutex_lock(&frec_sites_lock);
	mutex_lock(&frec_hist_lock);
	while ((n = frec_hist_next_shown(ring, &id, &site)) >= 0) {
		t = frec_site_texts(site);
		snprintf(name, sizeof(name), "%u %s:%u %s [%s]", id, t->file, site->line,
			 t->func, t->modname);
		frec_hist_cpus(&cpus, n);
		frec_hist_read(&frec_hist_shared[n], &cpus, s);
		frec_hist_write(s, name, &out);
	}
	mutex_unlock(&frec_hist_lock);
	mutex_unlock(&frec_sites_lock);
	kvfree(s);
	return 0;
}

static int frec_hist_open(struct inode *inode, struct file *file)
{
	return single_open(file, frec_hist_show, inode->i_private);
}

/*
 * Writing "0" (or "reset") resets the histograms the file shows (every
 * one, or @ring's); anything else is refused.
 */
static ssize_t frec_hist_write_file(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	const struct frec_ring *ring = file->f_inode->i_private;
	struct frec_hist_cpus cpus;
	struct frec_site *site;
	char buf[16];
	size_t len = min(count, sizeof(buf) - 1);
	unsigned int id = 0;
	int n;

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);
	if (count >= sizeof(buf) || (strcmp(buf, "0") && strcmp(buf, "reset"))) {
		pr_err("hist: \"%.15s\" refused: write 0 or reset to reset the histograms\n", buf);
		return -EINVAL;
	}
	mutex_lock(&frec_sites_lock);
	mutex_lock(&frec_hist_lock);
	while ((n = frec_hist_next_shown(ring, &id, &site)) >= 0) {
		frec_hist_cpus(&cpus, n);
		frec_hist_reset(&frec_hist_shared[n], &cpus);
	}
	mutex_unlock(&frec_hist_lock);
	mutex_unlock(&frec_sites_lock);
	if (!ring)
		atomic_long_set(&frec_hist_missed, 0);
	return count;
}

/* frec/hist and rings/<name>/hist (frec_debugfs_ring.c), @i_private the ring. */
const struct file_operations frec_hist_fops = {
	.owner = THIS_MODULE,
	.open = frec_hist_open,
	.read = seq_read,
	.write = frec_hist_write_file,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * frec_hist_sites_init() - allocate the pool, create debugfs frec/hist
 * @dir: frec's debugfs directory.
 *
 * Context: Process context; sleeps.  After frec_sites_init() (the size of
 * the sites table) and frec_debugfs_init().
 * Return: 0, -EINVAL for a bad hist_sites=, or -ENOMEM.
 */
int frec_hist_sites_init(struct dentry *dir)
{
	unsigned int registered, refused, capacity, n;

	if (hist_sites > FREC_HIST_SITES_MAX) {
		pr_err("hist_sites=%u: at most %u\n", hist_sites, FREC_HIST_SITES_MAX);
		return -EINVAL;
	}
	frec_sites_counts(&registered, &refused, &capacity);
	frec_hist_slot = vzalloc(array_size(capacity + 1, sizeof(*frec_hist_slot)));
	frec_hist_shared = vzalloc(array_size(max(hist_sites, 1U), sizeof(*frec_hist_shared)));
	frec_hist_pcpu = kcalloc(max(hist_sites, 1U), sizeof(*frec_hist_pcpu), GFP_KERNEL);
	frec_hist_used = bitmap_zalloc(max(hist_sites, 1U), GFP_KERNEL);
	if (!frec_hist_slot || !frec_hist_shared || !frec_hist_pcpu || !frec_hist_used)
		goto nomem;
	for (n = 0; n < hist_sites; n++) {
		frec_hist_pcpu[n] = alloc_percpu(struct frec_hist_cpu);
		if (!frec_hist_pcpu[n])
			goto nomem;
	}
	frec_hist_nr = hist_sites;
	/* Last: the record path looks at nothing else before the ids. */
	frec_hist_ids = capacity + 1;
	debugfs_create_file("hist", 0600, dir, NULL, &frec_hist_fops);
	return 0;
nomem:
	frec_hist_sites_exit();
	return -ENOMEM;
}

/**
 * frec_hist_sites_exit() - free the pool
 *
 * Context: Process context, after every record has stopped (frec is
 * unloading).
 */
void frec_hist_sites_exit(void)
{
	unsigned int n;

	frec_hist_ids = 0;
	frec_hist_nr = 0;
	if (frec_hist_pcpu)
		for (n = 0; n < hist_sites; n++)
			free_percpu(frec_hist_pcpu[n]);
	kfree(frec_hist_pcpu);
	vfree(frec_hist_shared);
	vfree(frec_hist_slot);
	bitmap_free(frec_hist_used);
	frec_hist_used = NULL;
	frec_hist_pcpu = NULL;
	frec_hist_shared = NULL;
	frec_hist_slot = NULL;
}
