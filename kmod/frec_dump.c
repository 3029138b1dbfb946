// SPDX-License-Identifier: GPL-2.0
/*
 * frec_dump.c - the debugfs files that stream records out:
 *
 *   dump            every ring (or, as rings/<name>/dump, one ring) merged
 *                   in sequence order, one line per record (frec_format.h),
 *                   narrowed by the filter in force when the file is opened
 *   raw             the same records, all of them, as the binary stream of
 *                   uapi/frec_raw.h, for tools/frec-decode
 *   formats         every format and %s string the event rings point to,
 *                   as /sys/kernel/tracing/printk_formats lists them
 *
 * Each read() formats records one at a time into a buffer of one line
 * and copies it out, so a ring of any size streams through a fixed amount
 * of memory; a reader never stops writers (frec_reader.c).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <frec_raw.h>

#include "frec_debugfs.h"
#include "frec_dump.h"
#include "frec_filter.h"
#include "frec_format_env.h"
#include "frec_format_quote.h"
#include "frec_formats.h"
#include "frec_reader.h"

/* Addresses the formats file lists at most. */
#define FREC_DUMP_MAX_ADDRS	(1024 * 1024)

enum frec_dump_kind { FREC_DUMP_TEXT, FREC_DUMP_RAW, FREC_DUMP_FORMATS };

/**
 * struct frec_dump_file - an open dump, raw or formats file
 * @kind: which.
 * @rd: the merged reader (dump and raw).
 * @filter: the filter in force at open (dump).
 * @header_done: the header is out.
 * @rings_done: how many FREC_RAW_RING entries are out (raw).
 * @addrs: sorted distinct string addresses (formats).
 * @nr_addrs: their number.
 * @next_addr: the next to print.
 * @out: bytes produced but not yet read.
 * @out_len: their number.
 * @out_off: how many of them were read.
 * @fk: formatting scratch space; its line also serves as @out.
 * @raw: one raw entry, the largest a record ring can give.
 */
struct frec_dump_file {
	enum frec_dump_kind kind;
	struct frec_reader *rd;
	struct frec_filter filter;
	bool header_done;
	unsigned int rings_done;
	u64 *addrs;
	size_t nr_addrs, next_addr;
	char *out;
	size_t out_len, out_off;
	struct frec_format_kernel fk;
	char raw[sizeof(struct frec_raw_record) + FREC_RING_MAX_RECORD_LEN + 8];
};

static struct frec_dump_file *frec_dump_alloc(enum frec_dump_kind kind)
{
	struct frec_dump_file *df = kvzalloc(sizeof(*df), GFP_KERNEL);

	if (!df)
		return NULL;
	df->kind = kind;
	frec_filter_init(&df->filter);
	frec_format_kernel_init(&df->fk);
	return df;
}

static int frec_dump_release(struct inode *inode, struct file *file)
{
	struct frec_dump_file *df = file->private_data;

	if (df->rd)
		frec_reader_close(df->rd);
	kvfree(df->addrs);
	kvfree(df);
	return 0;
}

/* rings/<name>/dump has its ring in i_private; frec/dump has none. */
static int frec_dump_open_kind(struct inode *inode, struct file *file,
			       enum frec_dump_kind kind)
{
	struct frec_ring *only = inode->i_private;
	struct frec_dump_file *df;

	df = frec_dump_alloc(kind);
	if (!df)
		return -ENOMEM;
	if (kind == FREC_DUMP_TEXT)
		frec_debugfs_get_filter(&df->filter);
	df->rd = frec_reader_open(kind == FREC_DUMP_TEXT ? &df->filter : NULL, only);
	if (IS_ERR(df->rd)) {
		int err = PTR_ERR(df->rd);

		kvfree(df);
		return err;
	}
	file->private_data = df;
	return nonseekable_open(inode, file);
}

/* The next line of a text dump into df->out; false at the end. */
static bool frec_dump_produce_text(struct frec_dump_file *df)
{
	struct frec_reader_record rec;
	size_t len;

	if (!df->header_done) {
		df->header_done = true;
		df->out = df->fk.line;
		df->out_len = scnprintf(df->fk.line, sizeof(df->fk.line),
					FREC_FORMAT_HEADER_FMT, FREC_CLOCK_NAME);
		return true;
	}
	while (frec_reader_next(df->rd, &rec)) {
		len = frec_format_kernel_line(&df->fk, &rec);
		if (!frec_filter_text(&df->filter, df->fk.line)) {
			cond_resched();
			continue;
		}
		df->out = df->fk.line;
		df->out_len = len;
		return true;
	}
	return false;
}

static void frec_dump_raw_ring(struct frec_dump_file *df, unsigned int index,
			       struct frec_ring *ring)
{
	struct frec_raw_ring *r = (struct frec_raw_ring *)df->raw;

	memset(r, 0, sizeof(*r));
	r->head.type = FREC_RAW_RING;
	r->head.bytes = sizeof(*r);
	r->id = index;
	r->kind = ring ? ring->kind : 0;
	if (ring)
		strscpy(r->name, ring->name, sizeof(r->name));
	df->out = df->raw;
	df->out_len = sizeof(*r);
}

/* The next entry of a raw dump into df->out; false at the end. */
static bool frec_dump_produce_raw(struct frec_dump_file *df)
{
	struct frec_raw_header *h = (struct frec_raw_header *)df->raw;
	struct frec_raw_record *r = (struct frec_raw_record *)df->raw;
	struct frec_reader_record rec;
	unsigned int i;

	if (!df->header_done) {
		df->header_done = true;
		memset(h, 0, sizeof(*h));
		memcpy(h->magic, FREC_RAW_MAGIC, sizeof(FREC_RAW_MAGIC));
		h->byte_order = FREC_RAW_BYTE_ORDER;
		h->version = FREC_RAW_VERSION;
		h->header_bytes = sizeof(*h);
		h->slot_bytes = FREC_SLOT_BYTES;
		h->word_bytes = sizeof(unsigned long);
		strscpy(h->clock, FREC_CLOCK_NAME, sizeof(h->clock));
		df->out = df->raw;
		df->out_len = sizeof(*h);
		return true;
	}
	if (df->rings_done < frec_reader_nr_rings(df->rd)) {
		i = df->rings_done++;
		frec_dump_raw_ring(df, i, frec_reader_ring(df->rd, i));
		return true;
	}
	if (!frec_reader_next(df->rd, &rec))
		return false;
	memset(r, 0, sizeof(*r));
	r->head.type = rec.ring->kind == FREC_RING_EVENTS ? FREC_RAW_EVENT : FREC_RAW_TEXT;
	r->seq = rec.ent.seq;
	r->ts = rec.ent.ts;
	r->fmt = rec.ent.fmt;
	r->caller = rec.ent.caller;
	r->ring = rec.ring_index;
	r->cpu = rec.cpu;
	if (rec.ring->kind == FREC_RING_EVENTS) {
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			r->args[i] = rec.ent.args[i];
	} else {
		r->len = rec.ent.len;
		memcpy(r + 1, rec.payload, rec.ent.len);
		memset((char *)(r + 1) + rec.ent.len, 0, ALIGN(rec.ent.len, 8) - rec.ent.len);
	}
	r->head.bytes = sizeof(*r) + ALIGN(r->len, 8);
	df->out = df->raw;
	df->out_len = r->head.bytes;
	return true;
}

/* The next line of the formats file; false at the end. */
static bool frec_dump_produce_format(struct frec_dump_file *df)
{
	struct frec_format_kernel *fk = &df->fk;
	char *line = fk->line;
	size_t n;
	u64 addr;

	while (df->next_addr < df->nr_addrs) {
		addr = df->addrs[df->next_addr++];
		if (frec_format_kernel_string(fk->fmt, sizeof(fk->fmt), addr) < 0)
			continue;
		n = scnprintf(line, sizeof(fk->line), "0x%llx : \"", addr);
		n += frec_format_quote(line + n, sizeof(fk->line) - n - 2, fk->fmt, NULL);
		line[n++] = '"';
		line[n++] = '\n';
		df->out = line;
		df->out_len = n;
		return true;
	}
	return false;
}

static bool frec_dump_produce(struct frec_dump_file *df)
{
	switch (df->kind) {
	case FREC_DUMP_TEXT:
		return frec_dump_produce_text(df);
	case FREC_DUMP_RAW:
		return frec_dump_produce_raw(df);
	default:
		return frec_dump_produce_format(df);
	}
}

static ssize_t frec_dump_read(struct file *file, char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	struct frec_dump_file *df = file->private_data;
	ssize_t done = 0;
	size_t n;

	if (df->rd)
		frec_reader_lock(df->rd);
	while (count) {
		if (df->out_off == df->out_len) {
			df->out_off = 0;
			df->out_len = 0;
			if (fatal_signal_pending(current) || !frec_dump_produce(df))
				break;
			continue;
		}
		n = min(count, df->out_len - df->out_off);
		if (copy_to_user(ubuf + done, df->out + df->out_off, n)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		df->out_off += n;
		done += n;
		count -= n;
	}
	if (df->rd)
		frec_reader_unlock(df->rd);
	if (done > 0)
		*ppos += done;
	return done;
}

static int frec_dump_open(struct inode *inode, struct file *file)
{
	return frec_dump_open_kind(inode, file, FREC_DUMP_TEXT);
}

static int frec_raw_open(struct inode *inode, struct file *file)
{
	return frec_dump_open_kind(inode, file, FREC_DUMP_RAW);
}

static int frec_dump_cmp_addr(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Collect every format and %s address the event rings hold. */
static int frec_formats_collect(struct frec_dump_file *df)
{
	struct frec_reader_record rec;
	struct frec_reader *rd;
	size_t cap = 1024, n = 0, i, j;
	unsigned int sargs, a;
	u64 *addrs, *bigger;
	int err = 0;

	addrs = kvmalloc_array(cap, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return -ENOMEM;
	rd = frec_reader_open(NULL, NULL);
	if (IS_ERR(rd)) {
		kvfree(addrs);
		return PTR_ERR(rd);
	}
	frec_reader_lock(rd);
	while (frec_reader_next(rd, &rec)) {
		if (rec.ring->kind != FREC_RING_EVENTS)
			continue;
		if (n + 1 + FREC_EVENT_MAX_ARGS > cap) {
			if (cap >= FREC_DUMP_MAX_ADDRS) {
				err = -E2BIG;
				break;
			}
			bigger = kvmalloc_array(cap * 2, sizeof(*addrs), GFP_KERNEL);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			memcpy(bigger, addrs, n * sizeof(*addrs));
			kvfree(addrs);
			addrs = bigger;
			cap *= 2;
		}
		addrs[n++] = rec.ent.fmt;
		if (frec_format_kernel_string(df->fk.fmt, sizeof(df->fk.fmt), rec.ent.fmt) < 0)
			continue;
		sargs = frec_format_string_args(df->fk.fmt);
		for (a = 0; a < FREC_EVENT_MAX_ARGS; a++)
			if (sargs & (1U << a) && rec.ent.args[a])
				addrs[n++] = rec.ent.args[a];
		if (!(n & 1023))
			cond_resched();
	}
	frec_reader_unlock(rd);
	frec_reader_close(rd);
	if (err) {
		kvfree(addrs);
		return err;
	}
	sort(addrs, n, sizeof(*addrs), frec_dump_cmp_addr, NULL);
	for (i = 0, j = 0; i < n; i++)
		if (!j || addrs[j - 1] != addrs[i])
			addrs[j++] = addrs[i];
	df->addrs = addrs;
	df->nr_addrs = j;
	return 0;
}

static int frec_formats_open(struct inode *inode, struct file *file)
{
	struct frec_dump_file *df;
	int err;

	df = frec_dump_alloc(FREC_DUMP_FORMATS);
	if (!df)
		return -ENOMEM;
	err = frec_formats_collect(df);
	if (err) {
		kvfree(df);
		return err;
	}
	file->private_data = df;
	return nonseekable_open(inode, file);
}

const struct file_operations frec_dump_fops = {
	.owner = THIS_MODULE,
	.open = frec_dump_open,
	.read = frec_dump_read,
	.release = frec_dump_release,
};

const struct file_operations frec_raw_fops = {
	.owner = THIS_MODULE,
	.open = frec_raw_open,
	.read = frec_dump_read,
	.release = frec_dump_release,
};

const struct file_operations frec_formats_fops = {
	.owner = THIS_MODULE,
	.open = frec_formats_open,
	.read = frec_dump_read,
	.release = frec_dump_release,
};
