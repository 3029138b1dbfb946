// SPDX-License-Identifier: GPL-2.0
/*
 * frec_dump.c - the debugfs files that stream records out:
 *
 *   dump            every ring (or, as rings/<name>/dump, one ring) merged
 *                   in the merged order, one line per record (frec_format.h),
 *                   narrowed by the filter in force when the file is opened
 *   raw             the same records, all of them, as the binary stream of
 *                   uapi/frec_raw.h, for tools/frec-decode
 *
 * A read() fills a chunk of a few KiB under the ring lock, looking at no
 * more than FREC_DUMP_BATCH records, drops the lock, copies the chunk to
 * the user, reschedules and checks for signals; so a ring of any size
 * streams through a fixed amount of memory, a filter that rejects
 * everything never holds the lock for long, and a reader that is killed
 * stops at once.  A reader never stops writers (frec_reader.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/xarray.h>

#include <frec_raw.h>

#include "frec_caller_word.h"
#include "frec_dump.h"
#include "frec_filter.h"
#include "frec_filter_file.h"
#include "frec_format_kernel.h"
#include "frec_order.h"
#include "frec_reader.h"
#include "frec_task_name.h"
#include "frec_trace_clock.h"

/* Records one fill of a chunk looks at, at most, with the lock held. */
#define FREC_DUMP_BATCH		256

/*
 * Largest entry of any file: a raw record of the longest payload, and the
 * task entry that may come before it.
 */
#define FREC_DUMP_ENTRY_MAX	(sizeof(struct frec_raw_task) + sizeof(struct frec_raw_record) + \
				 FREC_RING_MAX_RECORD_LEN + 8)

/* A chunk holds a few entries; the user copy happens without the lock. */
#define FREC_DUMP_CHUNK		(4 * FREC_DUMP_ENTRY_MAX)

enum frec_dump_kind { FREC_DUMP_TEXT, FREC_DUMP_RAW };

/**
 * struct frec_dump_file - an open dump or raw file
 * @kind: which.
 * @rd: the merged reader (dump and raw).
 * @filter: the filter in force at open (dump).
 * @header_done: the header is out.
 * @rings_done: how many FREC_RAW_RING entries are out (raw).
 * @tasks: the pids a FREC_RAW_TASK entry was written for (raw).
 * @end: nothing more to produce.
 * @chunk_len: bytes in @chunk.
 * @chunk_off: how many of them were copied to the user.
 * @fk: formatting scratch space.
 * @chunk: what the next read()s copy out.
 */
struct frec_dump_file {
	enum frec_dump_kind kind;
	struct frec_reader *rd;
	struct frec_filter filter;
	bool header_done;
	unsigned int rings_done;
	struct xarray tasks;
	bool end;
	size_t chunk_len, chunk_off;
	struct frec_format_kernel fk;
	char chunk[FREC_DUMP_CHUNK];
};

static struct frec_dump_file *frec_dump_alloc(enum frec_dump_kind kind)
{
	struct frec_dump_file *df = kvzalloc(sizeof(*df), GFP_KERNEL);

	if (!df)
		return NULL;
	df->kind = kind;
	xa_init(&df->tasks);
	frec_filter_init(&df->filter);
	frec_format_kernel_init(&df->fk, false);
	return df;
}

static void frec_dump_free(struct frec_dump_file *df)
{
	if (df->rd)
		frec_reader_close(df->rd);
	xa_destroy(&df->tasks);
	kvfree(df);
}

static int frec_dump_release(struct inode *inode, struct file *file)
{
	frec_dump_free(file->private_data);
	return 0;
}

/* Room in the chunk for one more entry of the largest size. */
static bool frec_dump_room(const struct frec_dump_file *df)
{
	return df->chunk_len + FREC_DUMP_ENTRY_MAX <= sizeof(df->chunk);
}

static void frec_dump_put(struct frec_dump_file *df, const void *p, size_t n)
{
	memcpy(df->chunk + df->chunk_len, p, n);
	df->chunk_len += n;
}

/* Lines of a text dump into the chunk, with the reader locked. */
static void frec_dump_fill_text(struct frec_dump_file *df)
{
	unsigned int budget = FREC_DUMP_BATCH;
	struct frec_reader_record rec;
	enum frec_reader_status st;
	size_t len;

	if (!df->header_done) {
		u32 order = frec_raw_order_flags(frec_reader_by_seq(df->rd));

		df->header_done = true;
		df->chunk_len = scnprintf(df->chunk, sizeof(df->chunk), FREC_FORMAT_HEADER_FMT,
					  FREC_CLOCK_NAME, frec_format_order(order),
					  FREC_FORMAT_CONTEXT_COLUMN);
	}
	while (frec_dump_room(df) && budget) {
		rcu_read_lock();
		st = frec_reader_next(df->rd, &rec, &budget);
		len = st == FREC_READER_RECORD ? frec_format_kernel_line(&df->fk, &rec) : 0;
		rcu_read_unlock();
		if (st == FREC_READER_END)
			df->end = true;
		if (st != FREC_READER_RECORD)
			return;
		if (frec_filter_text(&df->filter, df->fk.line))
			frec_dump_put(df, df->fk.line, len);
	}
}

static void frec_dump_raw_header(struct frec_dump_file *df)
{
	struct frec_raw_header h = {
		.byte_order = FREC_RAW_BYTE_ORDER,
		.version = FREC_RAW_VERSION,
		.header_bytes = sizeof(h),
		.slot_bytes = FREC_SLOT_BYTES,
		.word_bytes = sizeof(unsigned long),
		.flags = frec_raw_order_flags(frec_reader_by_seq(df->rd)),
	};

	memcpy(h.magic, FREC_RAW_MAGIC, sizeof(FREC_RAW_MAGIC));
	strscpy(h.clock, FREC_CLOCK_NAME, sizeof(h.clock));
	frec_dump_put(df, &h, sizeof(h));
}

/*
 * The clock's raw entry, after the header: the offset from ftrace's clock,
 * measured as the dump is read, for readers that put the records on
 * ftrace's timeline (frec_trace_clock.c).
 */
static void frec_dump_raw_clock(struct frec_dump_file *df)
{
	struct frec_raw_clock c = {
		.head = { .type = FREC_RAW_CLOCK, .bytes = sizeof(c) },
	};

	if (!frec_trace_clock_offset(&c.offset, &c.window))
		return;
	if (frec_clock_synchronized())
		c.flags |= FREC_RAW_CLOCK_OFFSET_CONSTANT;
	c.tick_ns = frec_clock_tick_ns();
	strscpy(c.trace_clock, FREC_RAW_TRACE_CLOCK_NAME, sizeof(c.trace_clock));
	frec_dump_put(df, &c, sizeof(c));
}

/*
 * A ring's raw entry, as the ring was when the file opened: one that
 * changed or went since is named all the same, and has no records.
 */
static void frec_dump_raw_ring(struct frec_dump_file *df, unsigned int index)
{
	const struct frec_reader_ring_info *info = frec_reader_ring_info(df->rd, index);
	struct frec_raw_ring r = {
		.head = { .type = FREC_RAW_RING, .bytes = sizeof(r) },
		.id = index,
		.kind = info->kind,
		.order = info->global_order ? FREC_RING_ORDER_GLOBAL : FREC_RING_ORDER_CPU,
	};

	strscpy(r.name, info->name, sizeof(r.name));
	frec_dump_put(df, &r, sizeof(r));
}

/*
 * The name of the task a record's context names, before the record's
 * first entry (uapi/frec_raw.h, struct frec_raw_task), as the task is
 * called now: none for the idle task (pid 0: readers name it as ftrace
 * does) or a task that has exited.  A pid is named once a file; if the
 * note that it was cannot be kept (no memory), it is named again.
 */
static void frec_dump_raw_task(struct frec_dump_file *df, u32 pid)
{
	struct frec_raw_task t = {
		.head = { .type = FREC_RAW_TASK, .bytes = sizeof(t) },
		.pid = pid,
	};

	if (!pid || xa_load(&df->tasks, pid))
		return;
	xa_store(&df->tasks, pid, xa_mk_value(1), GFP_NOWAIT | __GFP_NOWARN);
	BUILD_BUG_ON(sizeof(t.comm) != TASK_COMM_LEN);
	if (frec_task_name(pid, t.comm))
		frec_dump_put(df, &t, sizeof(t));
}

/* A record's raw entry into the chunk, with its task's name first. */
static void frec_dump_raw_record(struct frec_dump_file *df, const struct frec_reader_record *rec)
{
	struct frec_raw_record *r;
	const char *text;
	unsigned int i;

	frec_dump_raw_task(df, frec_context_pid(rec->ent.context));
	r = (struct frec_raw_record *)(df->chunk + df->chunk_len);
	memset(r, 0, sizeof(*r));
	r->head.type = rec->ring->kind == FREC_RING_EVENTS ? FREC_RAW_EVENT : FREC_RAW_TEXT;
	r->seq = rec->ent.seq;
	r->ts = rec->ent.ts;
	r->site = rec->ent.site;
	r->caller = rec->ent.caller;
	r->context = rec->ent.context;
	r->ring = rec->ring_index;
	r->cpu = rec->cpu;
	if (rec->ring->kind == FREC_RING_EVENTS) {
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			r->args[i] = rec->ent.args[i];
	} else {
		/* A record of arguments is text here too: uapi/frec_raw.h. */
		text = frec_format_kernel_text(&df->fk, rec, &r->len);
		memcpy(r + 1, text, r->len);
		memset((char *)(r + 1) + r->len, 0, ALIGN(r->len, 8) - r->len);
	}
	r->head.bytes = sizeof(*r) + ALIGN(r->len, 8);
	df->chunk_len += r->head.bytes;
}

/* Entries of a raw dump into the chunk, with the reader locked. */
static void frec_dump_fill_raw(struct frec_dump_file *df)
{
	unsigned int budget = FREC_DUMP_BATCH, i;
	struct frec_reader_record rec;
	enum frec_reader_status st;

	if (!df->header_done) {
		df->header_done = true;
		frec_dump_raw_header(df);
		frec_dump_raw_clock(df);
	}
	while (frec_dump_room(df) && df->rings_done < frec_reader_nr_rings(df->rd)) {
		i = df->rings_done++;
		frec_dump_raw_ring(df, i);
	}
	while (frec_dump_room(df) && budget) {
		rcu_read_lock();
		st = frec_reader_next(df->rd, &rec, &budget);
		if (st == FREC_READER_RECORD)
			frec_dump_raw_record(df, &rec);
		rcu_read_unlock();
		if (st == FREC_READER_END)
			df->end = true;
		if (st != FREC_READER_RECORD)
			return;
	}
}

/* Refill the chunk, holding the ring lock for a bounded stretch. */
static void frec_dump_fill(struct frec_dump_file *df)
{
	df->chunk_len = 0;
	df->chunk_off = 0;
	frec_reader_lock(df->rd);
	if (df->kind == FREC_DUMP_TEXT)
		frec_dump_fill_text(df);
	else
		frec_dump_fill_raw(df);
	frec_reader_unlock(df->rd);
}

/*
 * Where a read copies to: a user buffer (read()) or an iov_iter
 * (read_iter(), which kernel_read() needs).  Returns the bytes copied.
 */
struct frec_dump_dest {
	char __user *ubuf;
	struct iov_iter *iter;
};

static size_t frec_dump_copy(struct frec_dump_dest *dest, size_t done, const void *src,
			     size_t n)
{
	if (dest->iter)
		return copy_to_iter(src, n, dest->iter);
	return n - copy_to_user(dest->ubuf + done, src, n);
}

static ssize_t frec_dump_out(struct frec_dump_file *df, struct frec_dump_dest *dest,
			     size_t count)
{
	ssize_t done = 0;
	size_t n, copied;

	while (count) {
		if (df->chunk_off < df->chunk_len) {
			n = min(count, df->chunk_len - df->chunk_off);
			/* No lock held: a slow fault delays nobody but us. */
			copied = frec_dump_copy(dest, done, df->chunk + df->chunk_off, n);
			df->chunk_off += copied;
			done += copied;
			count -= copied;
			if (copied < n) {
				if (!done)
					done = -EFAULT;
				break;
			}
			continue;
		}
		if (df->end)
			break;
		if (signal_pending(current)) {
			if (!done)
				done = -ERESTARTSYS;	/* a restart goes on where this stopped */
			break;
		}
		cond_resched();
		frec_dump_fill(df);
	}
	return done;
}

static ssize_t frec_dump_read(struct file *file, char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	struct frec_dump_dest dest = { .ubuf = ubuf };
	ssize_t done = frec_dump_out(file->private_data, &dest, count);

	if (done > 0)
		*ppos += done;
	return done;
}

static ssize_t frec_dump_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct frec_dump_dest dest = { .iter = to };
	ssize_t done = frec_dump_out(iocb->ki_filp->private_data, &dest, iov_iter_count(to));

	if (done > 0)
		iocb->ki_pos += done;
	return done;
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
		frec_filter_file_get(&df->filter);
	df->rd = frec_reader_open(kind == FREC_DUMP_TEXT ? &df->filter : NULL, only);
	if (IS_ERR(df->rd)) {
		int err = PTR_ERR(df->rd);

		df->rd = NULL;
		frec_dump_free(df);
		return err;
	}
	file->private_data = df;
	return nonseekable_open(inode, file);
}

static int frec_dump_open(struct inode *inode, struct file *file)
{
	return frec_dump_open_kind(inode, file, FREC_DUMP_TEXT);
}

static int frec_raw_open(struct inode *inode, struct file *file)
{
	return frec_dump_open_kind(inode, file, FREC_DUMP_RAW);
}

const struct file_operations frec_dump_fops = {
	.owner = THIS_MODULE,
	.open = frec_dump_open,
	.read = frec_dump_read,
	.release = frec_dump_release,
};

/*
 * read_iter, not read: a test module reads frec/raw with kernel_read()
 * (samples/frec_litmus.c), which wants read_iter and refuses a file that
 * has both.  debugfs's proxy passes only read() on, so frec/raw is created
 * without the proxy (frec_debugfs.c).
 */
const struct file_operations frec_raw_fops = {
	.owner = THIS_MODULE,
	.open = frec_raw_open,
	.read_iter = frec_dump_read_iter,
	.release = frec_dump_release,
};

