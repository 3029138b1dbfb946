// SPDX-License-Identifier: GPL-2.0
/*
 * frec_previous.c - the black box region as this boot found it, before
 * this boot takes it: debugfs frec/previous/.
 *
 *   info   what was found: the boot that wrote the region (boot id,
 *          kernel release, how it ended), its rings, and the records
 *          recovered and rejected, by reason; or why no previous boot
 *          was found (not a region, another layout version, a region
 *          written at another physical address, a region an older boot
 *          left: its times, nothing of it shown)
 *   raw    the region's image as it was, byte for byte, up to where what
 *          a reader reads of it ends, zeros after it (frec_previous_keep()),
 *          which frec-decode reads (doc/blackbox.md)
 *   dump   its records, each line the one the old boot's dump printed,
 *          then the spans in flight when it ended (kmod/lib/frec_inflight.c)
 *   sites, formats
 *          its sites and texts, as the live sites and formats files
 *          list them
 *   stats  per ring and CPU: records recovered, rejected by reason
 *
 * What a reader reads of the image (its tables and the parts of its valid
 * rings, frec_region_in_use()) is copied into ordinary memory before
 * anything is written to the region, and read only through the shared
 * reader (kmod/lib/frec_region.c), which trusts none of it.  The text comes from
 * the code frec-decode makes a region image's text with
 * (kmod/lib/frec_region_text.c, frec_region_dump.c): callers, formats and
 * %s strings are named only by the region's own sites and texts, never by
 * this boot's kallsyms (the old boot may have run another kernel).  The
 * records are found and ordered once, at load, in time and memory linear
 * in the region's size; a line is formatted when it is read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "frec_inflight.h"
#include "frec_previous.h"
#include "frec_region_text.h"

#define FREC_PREVIOUS_INFO_MAX		4096
/* What the copy of the region copies between two reschedules. */
#define FREC_PREVIOUS_COPY_CHUNK	SZ_16M

static struct dentry *frec_previous_dir;
static struct debugfs_blob_wrapper frec_previous_info;
/* raw: the copy (@kept bytes), then zeros up to the region's @bytes. */
static void *frec_previous_image;
static u64 frec_previous_kept;
static u64 frec_previous_bytes;

/*
 * The image, opened, and its records found and ordered, when it holds a
 * previous boot (frec_previous_found); the dump's lines are formatted on
 * read, one reader at a time (frec_region_dump_line() uses the dump's
 * scratch space).
 */
static struct frec_region_view frec_previous_view;
static struct frec_region_dump frec_previous_dump;
/* Its spans in flight at its end: none listed if it could not be made. */
static struct frec_inflight frec_previous_inflight;
static bool frec_previous_found;
static DEFINE_MUTEX(frec_previous_lock);

/*
 * Where and when the image was written, what this boot calls older, and
 * the size region= gives it.
 */
struct frec_previous_when {
	u64 region_bytes;
	u64 phys_addr;
	u64 boot_wall_ns;
	u64 older_ns;
};

/*
 * Is the valid image @v another boot's than the previous one?  Fill @s
 * (of @size) with why and return its length, or return 0: it is the
 * previous boot's.  Its image stays in raw either way.
 */
static size_t frec_previous_not_previous(char *s, size_t size,
					 const struct frec_region_view *v,
					 const struct frec_previous_when *w)
{
	const struct frec_region_header *h = v->hdr;
	u64 alive = v->state.alive_wall_ns;
	size_t n;

	if (le64_to_cpu(h->phys_addr) != w->phys_addr)
		return scnprintf(s, size,
				 "previous boot: none found: the region was written at another physical address (moved)\n"
				 "raw holds its image\n");
	/*
	 * No valid state copy: no last sign of life to judge by; a clock
	 * behind the region's (no RTC) cannot tell either.
	 */
	if (!v->state_ok || alive >= w->boot_wall_ns ||
	    w->boot_wall_ns - alive <= w->older_ns)
		return 0;
	n = scnprintf(s, size,
		      "previous boot: none found: the region is an older boot's, last alive %llu s before this boot started (more than %llu s)\n",
		      (w->boot_wall_ns - alive) / NSEC_PER_SEC, w->older_ns / NSEC_PER_SEC);
	n += scnprintf(s + n, size - n, "older boot: %16phN\n", h->boot_id);
	n += scnprintf(s + n, size - n, "older boot release: %.*s\n",
		       (int)strnlen(h->release, sizeof(h->release)), h->release);
	n += scnprintf(s + n, size - n, "older boot wall ns: %llu\n",
		       le64_to_cpu(h->boot_wall_ns));
	n += scnprintf(s + n, size - n, "older boot alive wall ns: %llu\n", alive);
	n += scnprintf(s + n, size - n, "this boot wall ns: %llu\n", w->boot_wall_ns);
	n += scnprintf(s + n, size - n,
		       "raw holds its image, for forensics: frec-decode reads it\n");
	return n;
}

/* Fill @s (of @size) with info's text for the image @v opened as @verdict. */
static size_t frec_previous_describe(char *s, size_t size,
				     struct frec_region_view *v, int verdict,
				     const char *msg, u64 where,
				     const struct frec_previous_when *w, int built)
{
	const struct frec_region_dump *d = &frec_previous_dump;
	const struct frec_region_header *h = v->hdr;
	struct frec_region_counts sum;
	u64 total_rej = 0;
	size_t n = 0;
	u32 i;

	if (verdict != FREC_REGION_VALID)
		return scnprintf(s, size, "previous boot: none found: %s (at byte %llu)\n",
				 msg, where);
	n = frec_previous_not_previous(s, size, v, w);
	if (n)
		return n;
	/* Not v->truncated: the copy ends where what is read of it does. */
	if (w->region_bytes < le64_to_cpu(h->region_bytes))
		n += scnprintf(s + n, size - n,
			       "region cut short: %llu of its %llu bytes read (region= smaller than it was)\n",
			       w->region_bytes, le64_to_cpu(h->region_bytes));
	n += scnprintf(s + n, size - n, "previous boot: %16phN\n", h->boot_id);
	n += scnprintf(s + n, size - n, "release: %.*s\n",
		       (int)strnlen(h->release, sizeof(h->release)), h->release);
	n += scnprintf(s + n, size - n, "boot wall ns: %llu\n",
		       le64_to_cpu(h->boot_wall_ns));
	if (v->state_ok)
		n += scnprintf(s + n, size - n, "end: %s\nalive wall ns: %llu\n",
			       frec_region_end_name(v->state.end),
			       v->state.alive_wall_ns);
	if (v->state_ok && (v->state.clock.flags & FREC_REGION_STATE_TRACE_OFFSET))
		n += scnprintf(s + n, size - n,
			       "trace clock offset ns: %lld (window %u ns%s)\n",
			       (long long)v->state.clock.trace_offset, v->state.clock.window,
			       v->state.clock.flags & FREC_REGION_STATE_OFFSET_CONSTANT ?
			       "" : ", not constant");
	if (!v->state_ok)
		n += scnprintf(s + n, size - n, "end: unknown (no valid state copy)\n");
	if (built)
		return n + scnprintf(s + n, size - n, "records: not read: %s (at byte %llu)\n",
				     d->msg, d->where);
	for (i = 0; i < d->nr_rings; i++)
		n += scnprintf(s + n, size - n, "ring: %s, %u cpus, %llu slots each\n",
			       d->rings[i].name, d->rings[i].nr_cpus, d->rings[i].nr_slots);
	frec_region_dump_totals(d, &sum);
	for (i = 0; i < FREC_REGION_REJ_NR; i++)
		total_rej += sum.rejected[i];
	n += scnprintf(s + n, size - n, "rings: %u, rejected %u\n", d->nr_rings, d->bad_rings);
	n += scnprintf(s + n, size - n, "records recovered: %llu\nrecords rejected: %llu",
		       sum.recovered, total_rej);
	for (i = 0; i < FREC_REGION_REJ_NR; i++)
		if (sum.rejected[i])
			n += scnprintf(s + n, size - n, ", %s %llu",
				       frec_region_reject_name(i), sum.rejected[i]);
	n += scnprintf(s + n, size - n, "\n");
	if (sum.not_decoded)
		n += scnprintf(s + n, size - n,
			       "records not decoded (frec_printk() arguments): %llu\n",
			       sum.not_decoded);
	return n;
}

/*
 * previous/raw: the copy, then zeros to the region's size: the image's
 * size and offsets stay the region's, for frec-decode.
 */
static ssize_t frec_previous_raw_read(struct file *file, char __user *buf,
				      size_t count, loff_t *ppos)
{
	loff_t pos = *ppos;
	size_t n;

	if (pos < 0)
		return -EINVAL;
	if (pos >= frec_previous_bytes)
		return 0;
	if (pos < frec_previous_kept)
		return simple_read_from_buffer(buf, count, ppos, frec_previous_image,
					       frec_previous_kept);
	n = min_t(u64, count, frec_previous_bytes - pos);
	if (clear_user(buf, n))
		return -EFAULT;
	*ppos = pos + n;
	return n;
}

static const struct file_operations frec_previous_raw_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = frec_previous_raw_read,
	.llseek = default_llseek,
};

static void frec_previous_seq_write(void *ctx, const char *s, size_t len)
{
	seq_write(ctx, s, len);
}

/* previous/sites, formats and stats: the shared writers, into the file. */
static int frec_previous_text_show(struct seq_file *m, void *unused)
{
	const struct frec_text_sink out = { frec_previous_seq_write, m };
	const char *name = m->private;

	if (!frec_previous_found)
		return 0;
	if (!strcmp(name, "sites"))
		frec_region_sites_write(&frec_previous_view, &out, NULL);
	else if (!strcmp(name, "formats"))
		frec_region_texts_write(&frec_previous_view, &out, NULL);
	else
		frec_region_dump_stats(&frec_previous_dump, &out);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frec_previous_text);

/*
 * previous/dump: the header, then a line per record, in the merged order,
 * then the list of spans in flight; the seq_file position is the header
 * (0), the record's index plus one, or the list's line plus the records
 * plus one.
 */
static void *frec_previous_dump_start(struct seq_file *m, loff_t *pos)
{
	if (!frec_previous_found ||
	    *pos > frec_previous_dump.nr_recs + frec_inflight_lines(&frec_previous_inflight))
		return NULL;
	return pos;
}

static void *frec_previous_dump_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return frec_previous_dump_start(m, pos);
}

static void frec_previous_dump_stop(struct seq_file *m, void *v)
{
}

static int frec_previous_dump_show(struct seq_file *m, void *v)
{
	const struct frec_text_sink out = { frec_previous_seq_write, m };
	loff_t pos = *(loff_t *)v;
	char *line = m->private;
	size_t n;

	if (!pos) {
		frec_region_dump_header(&frec_previous_dump, &out);
		return 0;
	}
	mutex_lock(&frec_previous_lock);
	if (pos > frec_previous_dump.nr_recs) {
		frec_region_dump_inflight_print(&frec_previous_dump, &frec_previous_inflight,
						pos - 1 - frec_previous_dump.nr_recs, &out, line);
		mutex_unlock(&frec_previous_lock);
		return 0;
	}
	n = frec_region_dump_line(&frec_previous_dump, pos - 1, line, FREC_FORMAT_LINE_MAX);
	mutex_unlock(&frec_previous_lock);
	seq_write(m, line, n);
	return 0;
}

static const struct seq_operations frec_previous_dump_ops = {
	.start = frec_previous_dump_start,
	.next = frec_previous_dump_next,
	.stop = frec_previous_dump_stop,
	.show = frec_previous_dump_show,
};

static int frec_previous_dump_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &frec_previous_dump_ops, FREC_FORMAT_LINE_MAX) ?
		-ENOMEM : 0;
}

static const struct file_operations frec_previous_dump_fops = {
	.owner = THIS_MODULE,
	.open = frec_previous_dump_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/**
 * frec_previous_keep() - keep what the region holds, for frec/previous/
 * @region: the region, mapped; only read here.
 * @bytes: its size.
 * @phys_addr: its physical address (a region written at another was moved).
 * @root: frec's debugfs directory.
 * @boot_wall_ns: CLOCK_REALTIME of this boot's start.
 * @older_ns: a region last alive longer than this before @boot_wall_ns is
 *	an older boot's than the previous one: reported, not shown.
 *
 * Copies first what a reader reads of the image, and reads only the copy:
 * the caller lays the region out for this boot as soon as this returns.
 * That is the tables and the parts of the valid rings entries
 * (frec_region_in_use(), which reads the entries in place, checked as
 * any reader checks them), or the first block of an image this reader
 * cannot open: what lies past them is no record of a ring, and a large
 * region (up to FREC_REGION_MAX_BYTES) costs memory only for the parts
 * its previous boot persisted.
 *
 * Context: Process context, module load.
 * Return: 0, or -ENOMEM: the copy is one vmalloc(), so parts in use
 * larger than vmalloc() can give refuse the load (frec_init() fails).
 */
int frec_previous_keep(const void *region, u64 bytes, u64 phys_addr,
		       struct dentry *root, u64 boot_wall_ns, u64 older_ns)
{
	const struct frec_previous_when when = {
		.region_bytes = bytes,
		.phys_addr = phys_addr,
		.boot_wall_ns = boot_wall_ns,
		.older_ns = older_ns,
	};
	char msg[FREC_REGION_MSG_MAX] = "";
	struct frec_region_view *v = &frec_previous_view;
	u64 where = 0, kept, off, n;
	int verdict, built = 0;
	void *image;
	char *info;

	verdict = frec_region_open(v, region, bytes, msg, sizeof(msg), &where);
	kept = verdict == FREC_REGION_VALID ? frec_region_in_use(v) : FREC_REGION_BLOCK;
	image = vmalloc(kept);
	info = kzalloc(FREC_PREVIOUS_INFO_MAX, GFP_KERNEL);
	if (!image || !info) {
		vfree(image);
		kfree(info);
		pr_err("region: no memory to keep the previous boot's %llu bytes\n", kept);
		return -ENOMEM;
	}
	/* In chunks: a previous boot's rings can be gigabytes. */
	for (off = 0; off < kept; off += n) {
		n = min_t(u64, kept - off, FREC_PREVIOUS_COPY_CHUNK);
		memcpy(image + off, region + off, n);
		cond_resched();
	}
	/* What is shown is the copy's, read anew: the region is untrusted. */
	verdict = frec_region_open(v, image, kept, msg, sizeof(msg), &where);
	/*
	 * Only a region this boot's address wrote, last alive shortly before
	 * this boot, holds the previous boot.
	 */
	if (verdict == FREC_REGION_VALID &&
	    !frec_previous_not_previous(info, FREC_PREVIOUS_INFO_MAX, v, &when)) {
		built = frec_region_dump_build(&frec_previous_dump, v, NULL);
		frec_previous_found = !built;
		if (built)
			pr_warn("region: previous boot's records not read: %s (at byte %llu)\n",
				frec_previous_dump.msg, frec_previous_dump.where);
		/* A list that may miss spans is worse than none: none, and a log line. */
		if (!built &&
		    frec_region_dump_inflight(&frec_previous_dump, &frec_previous_inflight)) {
			pr_warn("region: previous boot's spans in flight not listed: no memory\n");
			frec_inflight_free(&frec_previous_inflight);
		}
	}
	frec_previous_info.data = info;
	frec_previous_info.size = frec_previous_describe(info, FREC_PREVIOUS_INFO_MAX, v,
							 verdict, msg, where, &when, built);
	if (!frec_previous_found)
		frec_region_dump_free(&frec_previous_dump);
	frec_previous_image = image;
	frec_previous_kept = kept;
	frec_previous_bytes = bytes;
	pr_info("region: %.*s", (int)strcspn(info, "\n") + 1, info);
	frec_previous_dir = debugfs_create_dir("previous", root);
	debugfs_create_blob("info", 0400, frec_previous_dir, &frec_previous_info);
	debugfs_create_file("raw", 0400, frec_previous_dir, NULL, &frec_previous_raw_fops);
	debugfs_create_file("dump", 0400, frec_previous_dir, NULL, &frec_previous_dump_fops);
	debugfs_create_file("sites", 0400, frec_previous_dir, "sites", &frec_previous_text_fops);
	debugfs_create_file("formats", 0400, frec_previous_dir, "formats",
			    &frec_previous_text_fops);
	debugfs_create_file("stats", 0400, frec_previous_dir, "stats", &frec_previous_text_fops);
	return 0;
}

/**
 * frec_previous_exit() - remove frec/previous/ and free what it showed
 *
 * Context: Process context, module unload.
 */
void frec_previous_exit(void)
{
	debugfs_remove_recursive(frec_previous_dir);
	frec_previous_dir = NULL;
	frec_previous_found = false;
	frec_inflight_free(&frec_previous_inflight);
	frec_region_dump_free(&frec_previous_dump);
	vfree(frec_previous_image);
	kfree(frec_previous_info.data);
	frec_previous_image = NULL;
	frec_previous_kept = 0;
	frec_previous_bytes = 0;
	frec_previous_info.data = NULL;
}
