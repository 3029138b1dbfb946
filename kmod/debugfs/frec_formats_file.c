// SPDX-License-Identifier: GPL-2.0
/*
 * frec_formats_file.c - debugfs frec/formats: every format, %s string and
 * saved symbol the records point to, one line each, sorted by address,
 * as /sys/kernel/tracing/printk_formats lists its formats:
 *
 *   0xffffffffc0a01234 : "irq %d status %#lx"
 *   0xffff888003a1c000 : symbol "hanoi_move+0x1a/0x80 [frec_hanoi]"
 *
 * (quoting: frec_format_quote.h; saved symbols: frec_formats.c).
 * frec-decode reads it with the raw dump to print text identical to dump.
 *
 * The file is taken when it is opened: the records are walked in batches
 * of FREC_FORMATS_BATCH with the ring lock held, rescheduling and checking
 * for a fatal signal between them, and each address's text is read inside
 * the RCU section its record was read in (see frec_formats.c), into a hash
 * table, without allocating inside that section.  Then the lines are
 * rendered once and read() hands them out.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/minmax.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "frec_dump.h"
#include "frec_format.h"
#include "frec_format_kernel.h"
#include "frec_format_quote.h"
#include "frec_formats.h"
#include "frec_reader.h"
#include "frec_sites.h"
#include "frec_texts.h"

/* Records looked at, at most, with the lock held. */
#define FREC_FORMATS_BATCH		256

/* Longest string listed (the longest one frec keeps). */
#define FREC_FORMATS_STRING_MAX		4096

/* Text and addresses the file may hold, in all. */
#define FREC_FORMATS_FILE_BYTES		(64UL << 20)

/**
 * struct frec_formats_entry - one address the file lists
 * @addr: the address records hold.
 * @off: where its text starts in frec_formats_file.text.
 * @len: the text's length.
 * @symbol: a saved symbol (frec_texts_saved_symbol()), not a string.
 */
struct frec_formats_entry {
	u64 addr;
	u32 off;
	u32 len;
	bool symbol;
};

/**
 * struct frec_formats_file - an open formats file
 * @rd: the reader, while collecting.
 * @entries: a hash table of addresses while collecting, then sorted.
 * @cap: its size (a power of two).
 * @nr_entries: the addresses in it.
 * @text: their texts, NUL-terminated one after the other.
 * @text_len: bytes used.
 * @text_cap: bytes allocated.
 * @out: the rendered file.
 * @out_len: its length.
 * @fk: formatting scratch space (the format, read to find its arguments).
 * @buf: a string read out of memory; then a line being quoted.
 */
struct frec_formats_file {
	struct frec_reader *rd;
	struct frec_formats_entry *entries;
	size_t cap, nr_entries;
	char *text;
	size_t text_len, text_cap;
	char *out;
	size_t out_len;
	struct frec_format_kernel fk;
	char buf[2 * FREC_FORMATS_STRING_MAX + 64];
};

static size_t frec_formats_hash(u64 addr, size_t cap)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

static int frec_formats_grow(struct frec_formats_file *ff)
{
	size_t cap = ff->cap ? 2 * ff->cap : 1024, i, j;
	struct frec_formats_entry *t;

	if (cap * sizeof(*t) > FREC_FORMATS_FILE_BYTES)
		return -E2BIG;
	t = kvcalloc(cap, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	for (i = 0; i < ff->cap; i++) {
		if (!ff->entries[i].addr)
			continue;
		j = frec_formats_hash(ff->entries[i].addr, cap);
		while (t[j].addr)
			j = (j + 1) & (cap - 1);
		t[j] = ff->entries[i];
	}
	kvfree(ff->entries);
	ff->entries = t;
	ff->cap = cap;
	return 0;
}

/*
 * Text one record may add to the formats file at most: its format, four
 * %s strings, and the saved names of its caller and four symbols.
 */
#define FREC_FORMATS_RECORD_TEXT	(FREC_FORMAT_FMT_MAX + 4 * FREC_FORMATS_STRING_MAX + \
				 5 * KSYM_SYMBOL_LEN)
#define FREC_FORMATS_RECORD_ADDRS	(2 + 2 * FREC_EVENT_MAX_ARGS)

/*
 * Room for one more record's addresses and text, made before the RCU
 * section that reads the record: nothing may allocate inside it.
 */
static int frec_formats_reserve(struct frec_formats_file *ff)
{
	size_t cap;
	char *bigger;
	int err;

	if (2 * (ff->nr_entries + FREC_FORMATS_RECORD_ADDRS) > ff->cap) {
		err = frec_formats_grow(ff);
		if (err)
			return err;
	}
	if (ff->text_len + FREC_FORMATS_RECORD_TEXT > ff->text_cap) {
		cap = max(2 * ff->text_cap, ff->text_len + FREC_FORMATS_RECORD_TEXT);
		if (cap > FREC_FORMATS_FILE_BYTES)
			return -E2BIG;
		bigger = kvmalloc(cap, GFP_KERNEL);
		if (!bigger)
			return -ENOMEM;
		memcpy(bigger, ff->text, ff->text_len);
		kvfree(ff->text);
		ff->text = bigger;
		ff->text_cap = cap;
	}
	return 0;
}

/*
 * Keep @len bytes of @text for @addr, unless @addr is listed already;
 * frec_formats_reserve() made the room.
 */
static void frec_formats_add(struct frec_formats_file *ff, u64 addr, const char *text,
			     size_t len, bool symbol)
{
	struct frec_formats_entry *s;
	size_t i;

	if (!addr)
		return;
	for (i = frec_formats_hash(addr, ff->cap); ff->entries[i].addr; i = (i + 1) & (ff->cap - 1))
		if (ff->entries[i].addr == addr)
			return;
	s = &ff->entries[i];
	s->addr = addr;
	s->off = ff->text_len;
	s->len = len;
	s->symbol = symbol;
	memcpy(ff->text + ff->text_len, text, len);
	ff->text[ff->text_len + len] = '\0';
	ff->text_len += len + 1;
	ff->nr_entries++;
}

/* A string the record points to, read now (an unreadable one prints "(efault)"). */
static void frec_formats_add_memory(struct frec_formats_file *ff, u64 addr, size_t max)
{
	int len;

	if (frec_texts_saved_symbol(addr))
		return;
	len = frec_format_kernel_string(ff->buf, max, addr);
	if (len >= 0)
		frec_formats_add(ff, addr, ff->buf, len, false);
}

/* A code address the record holds, if frec saved its name. */
static void frec_formats_add_symbol(struct frec_formats_file *ff, u64 addr)
{
	const char *saved = frec_texts_saved_symbol(addr);

	if (saved)
		frec_formats_add(ff, addr, saved, strnlen(saved, KSYM_SYMBOL_LEN - 1), true);
}

/* What one record points to; inside the RCU section it was read in. */
static void frec_formats_collect_record(struct frec_formats_file *ff,
					const struct frec_reader_record *rec)
{
	struct frec_formats_ref refs[FREC_FORMATS_REFS_MAX];
	unsigned int i, n;

	n = frec_formats_record_refs(rec, ff->fk.fmt, sizeof(ff->fk.fmt), refs);
	for (i = 0; i < n; i++) {
		switch (refs[i].kind) {
		case FREC_FORMATS_REF_FORMAT:
			frec_formats_add_memory(ff, refs[i].addr, FREC_FORMAT_FMT_MAX);
			break;
		case FREC_FORMATS_REF_STRING:
			frec_formats_add_memory(ff, refs[i].addr, FREC_FORMATS_STRING_MAX);
			break;
		default:
			/* A live code address is named by kallsyms when decoded. */
			frec_formats_add_symbol(ff, refs[i].addr);
		}
	}
}

static int frec_formats_cmp(const void *a, const void *b)
{
	u64 x = ((const struct frec_formats_entry *)a)->addr;
	u64 y = ((const struct frec_formats_entry *)b)->addr;

	return x < y ? -1 : x > y;
}

/*
 * Collect every address the records point to, with its text as it is
 * now, in bounded batches; the file then lists them sorted.
 */
static int frec_formats_collect(struct frec_formats_file *ff)
{
	struct frec_reader_record rec;
	enum frec_reader_status st = FREC_READER_AGAIN;
	unsigned int budget;
	size_t i, j;
	int err = 0;

	ff->rd = frec_reader_open(NULL, NULL);
	if (IS_ERR(ff->rd)) {
		err = PTR_ERR(ff->rd);
		ff->rd = NULL;
		return err;
	}
	do {
		frec_reader_lock(ff->rd);
		budget = FREC_FORMATS_BATCH;
		do {
			err = frec_formats_reserve(ff);
			if (err)
				break;
			rcu_read_lock();
			st = frec_reader_next(ff->rd, &rec, &budget);
			if (st == FREC_READER_RECORD)
				frec_formats_collect_record(ff, &rec);
			rcu_read_unlock();
		} while (st == FREC_READER_RECORD && budget);
		frec_reader_unlock(ff->rd);
		if (!err && fatal_signal_pending(current))
			err = -EINTR;
		cond_resched();
	} while (st != FREC_READER_END && !err);
	frec_reader_close(ff->rd);
	ff->rd = NULL;
	if (err) {
		if (err == -E2BIG)
			pr_warn("formats: more than %lu bytes of text and addresses\n",
				FREC_FORMATS_FILE_BYTES);
		return err;
	}
	for (i = 0, j = 0; i < ff->cap; i++)
		if (ff->entries[i].addr)
			ff->entries[j++] = ff->entries[i];
	sort(ff->entries, j, sizeof(*ff->entries), frec_formats_cmp, NULL);
	return 0;
}

/* The file's lines, sorted by address, into one buffer. */
static int frec_formats_render(struct frec_formats_file *ff)
{
	const struct frec_formats_entry *e;
	size_t i, n, cap = 0;

	for (i = 0; i < ff->nr_entries; i++)
		cap += 2 * ff->entries[i].len + 40;
	ff->out = kvmalloc(cap ?: 1, GFP_KERNEL);
	if (!ff->out)
		return -ENOMEM;
	for (i = 0; i < ff->nr_entries; i++) {
		e = &ff->entries[i];
		n = scnprintf(ff->buf, sizeof(ff->buf), "0x%llx : %s\"", e->addr,
			      e->symbol ? "symbol " : "");
		n += frec_format_quote(ff->buf + n, sizeof(ff->buf) - n - 2,
				       ff->text + e->off, NULL);
		ff->buf[n++] = '"';
		ff->buf[n++] = '\n';
		memcpy(ff->out + ff->out_len, ff->buf, n);
		ff->out_len += n;
	}
	return 0;
}

static void frec_formats_free(struct frec_formats_file *ff)
{
	if (ff->rd)
		frec_reader_close(ff->rd);
	kvfree(ff->entries);
	kvfree(ff->text);
	kvfree(ff->out);
	kvfree(ff);
}

static int frec_formats_open(struct inode *inode, struct file *file)
{
	struct frec_formats_file *ff = kvzalloc(sizeof(*ff), GFP_KERNEL);
	int err;

	if (!ff)
		return -ENOMEM;
	frec_format_kernel_init(&ff->fk, false);
	err = frec_formats_collect(ff);
	if (!err)
		err = frec_formats_render(ff);
	if (err) {
		frec_formats_free(ff);
		return err;
	}
	file->private_data = ff;
	return nonseekable_open(inode, file);
}

static ssize_t frec_formats_read(struct file *file, char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	struct frec_formats_file *ff = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, ff->out, ff->out_len);
}

static int frec_formats_release(struct inode *inode, struct file *file)
{
	frec_formats_free(file->private_data);
	return 0;
}

const struct file_operations frec_formats_fops = {
	.owner = THIS_MODULE,
	.open = frec_formats_open,
	.read = frec_formats_read,
	.release = frec_formats_release,
};
