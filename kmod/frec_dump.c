// SPDX-License-Identifier: GPL-2.0
/*
 * frec_dump.c - the debugfs files that stream records out:
 *
 *   dump            every ring (or, as rings/<name>/dump, one ring) merged
 *                   in sequence order, one line per record (frec_format.h),
 *                   narrowed by the filter in force when the file is opened
 *   raw             the same records, all of them, as the binary stream of
 *                   uapi/frec_raw.h, for tools/frec-decode
 *   formats         every format, %s string and saved symbol the records
 *                   point to, as /sys/kernel/tracing/printk_formats lists
 *                   them, taken when the file is opened
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
#include <linux/kallsyms.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include <frec_raw.h>

#include "frec_debugfs.h"
#include "frec_dump.h"
#include "frec_filter.h"
#include "frec_format_env.h"
#include "frec_format_quote.h"
#include "frec_formats.h"
#include "frec_reader.h"

/* Records one fill of a chunk looks at, at most, with the lock held. */
#define FREC_DUMP_BATCH		256

/* Largest entry of any file: a raw record of the longest payload. */
#define FREC_DUMP_ENTRY_MAX	(sizeof(struct frec_raw_record) + FREC_RING_MAX_RECORD_LEN + 8)

/* A chunk holds a few entries; the user copy happens without the lock. */
#define FREC_DUMP_CHUNK		(4 * FREC_DUMP_ENTRY_MAX)

/* Longest string the formats file lists (the longest one frec keeps). */
#define FREC_DUMP_STRING_MAX	4096

/* Text the formats file may hold in all, and addresses. */
#define FREC_DUMP_FORMATS_BYTES	(64UL << 20)

enum frec_dump_kind { FREC_DUMP_TEXT, FREC_DUMP_RAW, FREC_DUMP_FORMATS };

/**
 * struct frec_dump_string - one address the formats file lists
 * @addr: the address records hold.
 * @off: where its text starts in frec_dump_file.text.
 * @len: the text's length.
 * @symbol: a saved symbol (frec_formats_saved_symbol()), not a string.
 */
struct frec_dump_string {
	u64 addr;
	u32 off;
	u32 len;
	bool symbol;
};

/**
 * struct frec_dump_file - an open dump, raw or formats file
 * @kind: which.
 * @rd: the merged reader (dump and raw).
 * @filter: the filter in force at open (dump).
 * @header_done: the header is out.
 * @rings_done: how many FREC_RAW_RING entries are out (raw).
 * @end: nothing more to produce.
 * @strings: the formats file's addresses, a hash table while collecting,
 *	then sorted.
 * @cap: its size (a power of two).
 * @nr_strings: the addresses in it.
 * @next_string: the next to print.
 * @text: the formats file's texts.
 * @text_len: bytes used.
 * @text_cap: bytes allocated.
 * @chunk_len: bytes in @chunk.
 * @chunk_off: how many of them were copied to the user.
 * @fk: formatting scratch space.
 * @quoted: a formats line.
 * @chunk: what the next read()s copy out.
 */
struct frec_dump_file {
	enum frec_dump_kind kind;
	struct frec_reader *rd;
	struct frec_filter filter;
	bool header_done;
	unsigned int rings_done;
	bool end;
	struct frec_dump_string *strings;
	size_t cap, nr_strings, next_string;
	char *text;
	size_t text_len, text_cap;
	size_t chunk_len, chunk_off;
	struct frec_format_kernel fk;
	char quoted[2 * FREC_DUMP_STRING_MAX + 64];
	char chunk[FREC_DUMP_CHUNK];
};

static struct frec_dump_file *frec_dump_alloc(enum frec_dump_kind kind)
{
	struct frec_dump_file *df = kvzalloc(sizeof(*df), GFP_KERNEL);

	if (!df)
		return NULL;
	df->kind = kind;
	frec_filter_init(&df->filter);
	frec_format_kernel_init(&df->fk, false);
	return df;
}

static void frec_dump_free(struct frec_dump_file *df)
{
	if (df->rd)
		frec_reader_close(df->rd);
	kvfree(df->strings);
	kvfree(df->text);
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
		df->header_done = true;
		df->chunk_len = scnprintf(df->chunk, sizeof(df->chunk),
					  FREC_FORMAT_HEADER_FMT, FREC_CLOCK_NAME);
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
	};

	memcpy(h.magic, FREC_RAW_MAGIC, sizeof(FREC_RAW_MAGIC));
	strscpy(h.clock, FREC_CLOCK_NAME, sizeof(h.clock));
	frec_dump_put(df, &h, sizeof(h));
}

static void frec_dump_raw_ring(struct frec_dump_file *df, unsigned int index,
			       struct frec_ring *ring)
{
	struct frec_raw_ring r = {
		.head = { .type = FREC_RAW_RING, .bytes = sizeof(r) },
		.id = index,
		.kind = ring ? ring->kind : 0,
	};

	if (ring)
		strscpy(r.name, ring->name, sizeof(r.name));
	frec_dump_put(df, &r, sizeof(r));
}

/* A record's raw entry into the chunk. */
static void frec_dump_raw_record(struct frec_dump_file *df, const struct frec_reader_record *rec)
{
	struct frec_raw_record *r = (struct frec_raw_record *)(df->chunk + df->chunk_len);
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->head.type = rec->ring->kind == FREC_RING_EVENTS ? FREC_RAW_EVENT : FREC_RAW_TEXT;
	r->seq = rec->ent.seq;
	r->ts = rec->ent.ts;
	r->fmt = rec->ent.fmt;
	r->caller = rec->ent.caller;
	r->ring = rec->ring_index;
	r->cpu = rec->cpu;
	if (rec->ring->kind == FREC_RING_EVENTS) {
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			r->args[i] = rec->ent.args[i];
	} else {
		r->len = rec->ent.len;
		memcpy(r + 1, rec->payload, rec->ent.len);
		memset((char *)(r + 1) + rec->ent.len, 0, ALIGN(rec->ent.len, 8) - rec->ent.len);
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
	}
	while (frec_dump_room(df) && df->rings_done < frec_reader_nr_rings(df->rd)) {
		i = df->rings_done++;
		frec_dump_raw_ring(df, i, frec_reader_ring(df->rd, i));
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

/* Lines of the formats file into the chunk, from what the open collected. */
static void frec_dump_fill_formats(struct frec_dump_file *df)
{
	const struct frec_dump_string *s;
	size_t n;

	while (df->next_string < df->nr_strings) {
		s = &df->strings[df->next_string];
		n = scnprintf(df->quoted, sizeof(df->quoted), "0x%llx : %s\"", s->addr,
			      s->symbol ? "symbol " : "");
		n += frec_format_quote(df->quoted + n, sizeof(df->quoted) - n - 2,
				       df->text + s->off, NULL);
		df->quoted[n++] = '"';
		df->quoted[n++] = '\n';
		if (df->chunk_len + n > sizeof(df->chunk))
			return;
		frec_dump_put(df, df->quoted, n);
		df->next_string++;
	}
	df->end = true;
}

/* Refill the chunk, holding the ring lock for a bounded stretch. */
static void frec_dump_fill(struct frec_dump_file *df)
{
	df->chunk_len = 0;
	df->chunk_off = 0;
	if (df->kind == FREC_DUMP_FORMATS) {
		frec_dump_fill_formats(df);
		return;
	}
	frec_reader_lock(df->rd);
	if (df->kind == FREC_DUMP_TEXT)
		frec_dump_fill_text(df);
	else
		frec_dump_fill_raw(df);
	frec_reader_unlock(df->rd);
}

static ssize_t frec_dump_read(struct file *file, char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	struct frec_dump_file *df = file->private_data;
	ssize_t done = 0;
	size_t n;

	while (count) {
		if (df->chunk_off < df->chunk_len) {
			n = min(count, df->chunk_len - df->chunk_off);
			/* No lock held: a slow fault delays nobody but us. */
			if (copy_to_user(ubuf + done, df->chunk + df->chunk_off, n)) {
				if (!done)
					done = -EFAULT;
				break;
			}
			df->chunk_off += n;
			done += n;
			count -= n;
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
	if (done > 0)
		*ppos += done;
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
		frec_debugfs_get_filter(&df->filter);
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

/* The formats file's texts: a hash table of addresses while collecting. */

static size_t frec_dump_hash(u64 addr, size_t cap)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

static int frec_dump_grow_strings(struct frec_dump_file *df)
{
	size_t cap = df->cap ? 2 * df->cap : 1024, i, j;
	struct frec_dump_string *t;

	if (cap * sizeof(*t) > FREC_DUMP_FORMATS_BYTES)
		return -E2BIG;
	t = kvcalloc(cap, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	for (i = 0; i < df->cap; i++) {
		if (!df->strings[i].addr)
			continue;
		j = frec_dump_hash(df->strings[i].addr, cap);
		while (t[j].addr)
			j = (j + 1) & (cap - 1);
		t[j] = df->strings[i];
	}
	kvfree(df->strings);
	df->strings = t;
	df->cap = cap;
	return 0;
}

/*
 * Text one record may add to the formats file at most: its format, four
 * %s strings, and the saved names of its caller and four symbols.
 */
#define FREC_DUMP_RECORD_TEXT	(FREC_FORMAT_FMT_MAX + 4 * FREC_DUMP_STRING_MAX + \
				 5 * KSYM_SYMBOL_LEN)
#define FREC_DUMP_RECORD_ADDRS	(2 + 2 * FREC_EVENT_MAX_ARGS)

/*
 * Room for one more record's addresses and text, made before the RCU
 * section that reads the record: nothing may allocate inside it.
 */
static int frec_dump_reserve(struct frec_dump_file *df)
{
	size_t cap;
	char *bigger;
	int err;

	if (2 * (df->nr_strings + FREC_DUMP_RECORD_ADDRS) > df->cap) {
		err = frec_dump_grow_strings(df);
		if (err)
			return err;
	}
	if (df->text_len + FREC_DUMP_RECORD_TEXT > df->text_cap) {
		cap = max(2 * df->text_cap, df->text_len + FREC_DUMP_RECORD_TEXT);
		if (cap > FREC_DUMP_FORMATS_BYTES)
			return -E2BIG;
		bigger = kvmalloc(cap, GFP_KERNEL);
		if (!bigger)
			return -ENOMEM;
		memcpy(bigger, df->text, df->text_len);
		kvfree(df->text);
		df->text = bigger;
		df->text_cap = cap;
	}
	return 0;
}

/*
 * Keep @len bytes of @text for @addr, unless @addr is listed already;
 * frec_dump_reserve() made the room.
 */
static void frec_dump_add_string(struct frec_dump_file *df, u64 addr, const char *text,
				 size_t len, bool symbol)
{
	struct frec_dump_string *s;
	size_t i;

	if (!addr)
		return;
	for (i = frec_dump_hash(addr, df->cap); df->strings[i].addr; i = (i + 1) & (df->cap - 1))
		if (df->strings[i].addr == addr)
			return;
	s = &df->strings[i];
	s->addr = addr;
	s->off = df->text_len;
	s->len = len;
	s->symbol = symbol;
	memcpy(df->text + df->text_len, text, len);
	df->text[df->text_len + len] = '\0';
	df->text_len += len + 1;
	df->nr_strings++;
}

/* A string the record points to, read now (an unreadable one prints "(efault)"). */
static void frec_dump_add_memory(struct frec_dump_file *df, u64 addr, size_t max)
{
	int len;

	if (frec_formats_saved_symbol(addr))
		return;
	len = frec_format_kernel_string(df->quoted, max, addr);
	if (len >= 0)
		frec_dump_add_string(df, addr, df->quoted, len, false);
}

/* A code address the record holds, if frec saved its name. */
static void frec_dump_add_symbol(struct frec_dump_file *df, u64 addr)
{
	const char *saved = frec_formats_saved_symbol(addr);

	if (saved)
		frec_dump_add_string(df, addr, saved, strnlen(saved, KSYM_SYMBOL_LEN - 1), true);
}

/* What one record points to; inside the RCU section it was read in. */
static void frec_dump_collect_record(struct frec_dump_file *df,
				     const struct frec_reader_record *rec)
{
	struct frec_format_ptr_args pa;
	unsigned int a;

	frec_dump_add_symbol(df, rec->ent.caller);
	if (rec->ring->kind != FREC_RING_EVENTS)
		return;
	frec_dump_add_memory(df, rec->ent.fmt, FREC_FORMAT_FMT_MAX);
	if (frec_format_kernel_string(df->fk.fmt, sizeof(df->fk.fmt), rec->ent.fmt) < 0)
		return;
	frec_format_pointer_args(df->fk.fmt, &pa);
	for (a = 0; a < FREC_EVENT_MAX_ARGS; a++) {
		if (pa.strings & BIT(a))
			frec_dump_add_memory(df, rec->ent.args[a], FREC_DUMP_STRING_MAX);
		else if (pa.symbols & BIT(a))
			frec_dump_add_symbol(df, rec->ent.args[a]);
	}
}

static int frec_dump_cmp_string(const void *a, const void *b)
{
	u64 x = ((const struct frec_dump_string *)a)->addr;
	u64 y = ((const struct frec_dump_string *)b)->addr;

	return x < y ? -1 : x > y;
}

/*
 * Collect every address the records point to, with its text as it is
 * now, in bounded batches; the file then lists them sorted.
 */
static int frec_formats_collect(struct frec_dump_file *df)
{
	struct frec_reader_record rec;
	enum frec_reader_status st = FREC_READER_AGAIN;
	unsigned int budget;
	size_t i, j;
	int err = 0;

	df->rd = frec_reader_open(NULL, NULL);
	if (IS_ERR(df->rd)) {
		err = PTR_ERR(df->rd);
		df->rd = NULL;
		return err;
	}
	do {
		frec_reader_lock(df->rd);
		budget = FREC_DUMP_BATCH;
		do {
			err = frec_dump_reserve(df);
			if (err)
				break;
			rcu_read_lock();
			st = frec_reader_next(df->rd, &rec, &budget);
			if (st == FREC_READER_RECORD)
				frec_dump_collect_record(df, &rec);
			rcu_read_unlock();
		} while (st == FREC_READER_RECORD && budget);
		frec_reader_unlock(df->rd);
		if (!err && fatal_signal_pending(current))
			err = -EINTR;
		cond_resched();
	} while (st != FREC_READER_END && !err);
	frec_reader_close(df->rd);
	df->rd = NULL;
	if (err) {
		if (err == -E2BIG)
			pr_warn("formats: more than %lu bytes of text and addresses\n",
				FREC_DUMP_FORMATS_BYTES);
		return err;
	}
	for (i = 0, j = 0; i < df->cap; i++)
		if (df->strings[i].addr)
			df->strings[j++] = df->strings[i];
	sort(df->strings, j, sizeof(*df->strings), frec_dump_cmp_string, NULL);
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
		frec_dump_free(df);
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
