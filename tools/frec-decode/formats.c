// SPDX-License-Identifier: GPL-2.0
/*
 * formats.c - the formats file: what an event's format address and its
 * %s arguments point to.
 *
 * The module's debugfs "formats" file has a line per format and per %s
 * string literal a record may point to, as the kernel's printk_formats
 * writes them (see kmod/lib/frec_format_quote.h):
 *
 *   0xffffffffc0a01234 : "irq %d status %#lx\n"
 *
 * and a line per code address a record holds (a caller, a %pS argument)
 * into a module that has gone, with the name frec gave it when the module
 * went (kmod/services/frec_formats.c):
 *
 *   0xffff888003a1c000 : symbol "hanoi_move+0x1a/0x80 [frec_hanoi]"
 *
 * A black box region's texts (kmod/lib/frec_region_text.c) may give an
 * address a later text, for the records stamped after a time (ns, the
 * records' clock): a buffer rewritten, a module loaded where another was:
 *
 *   0xffff888003a1c000 from 5123456789 : "second"
 *
 * A record takes the text of its time (frec_formats_at()): of an
 * address's lines, the last whose time is below its timestamp, else the
 * first.
 *
 * The strings are unquoted with frec_format_unquote(), the one the module
 * quotes with, into one block, and found by binary search (addr_table.c).
 * An address inside a string finds the rest of it, as reading memory
 * there would (compilers merge a literal into the tail of a longer one);
 * a symbol is found at its exact address only.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"

/**
 * struct frec_formats_entry - one line of the formats file
 * @key: the string's address, and the line.
 * @from: the text is that of records stamped after this (0: from the
 *	start).
 * @off: where its text starts in frec_formats.text.
 * @len: its length.
 * @checked: the decoder has checked this format (and reported it if bad).
 * @symbol: a saved symbol's name, not a string.
 */
struct frec_formats_entry {
	struct frec_addr_key key;
	u64 from;
	size_t off;
	size_t len;
	bool checked;
	bool symbol;
};

/* While a file is read: the table, and how much of its text block is used. */
struct formats_reading {
	struct frec_formats *t;
	size_t used;
};

/*
 * One line, "0xADDR [from NS ]: [symbol ]\"text\"", its text unquoted to
 * the end of the text block.
 */
static int formats_line(void *ctx, void *entry, const char *s, size_t len,
			size_t line_no, struct frec_err *err)
{
	static const char sym[] = "symbol ";
	struct formats_reading *r = ctx;
	struct frec_formats_entry *e = entry;
	size_t n = 0, m;

	if (len >= 3 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		n = frec_addr_parse_hex(s + 2, len - 2, &e->key.addr);
	if (n)
		n += 2;
	e->from = 0;
	if (n && len - n > 6 && !memcmp(s + n, " from ", 6)) {
		bool over = false;

		n += 6;
		/* Any u64 the kernel's clock gives: up to 20 digits. */
		for (m = 0; n < len && s[n] >= '0' && s[n] <= '9' && m <= 20; n++, m++) {
			over |= e->from > (U64_MAX - (u64)(s[n] - '0')) / 10;
			e->from = e->from * 10 + (u64)(s[n] - '0');
		}
		if (!m || m > 20 || over || !e->from)
			return frec_errf(err, line_no, "expected from <ns, 1 to 2^64 - 1>");
	}

	if (!n || len - n < 5 || memcmp(s + n, " : ", 3) || s[len - 1] != '"')
		return frec_errf(err, line_no,
				 "expected 0x<address> : [symbol ]\"<string>\"");
	n += 3;
	e->symbol = len - n > sizeof(sym) && !memcmp(s + n, sym, sizeof(sym) - 1);
	if (e->symbol)
		n += sizeof(sym) - 1;
	if (s[n] != '"')
		return frec_errf(err, line_no,
				 "expected 0x<address> : [symbol ]\"<string>\"");
	n++;
	if (frec_addr_unquote(r->t->text, &r->used, s + n, len - 1 - n, &e->off,
			      &e->len))
		return frec_errf(err, line_no, "a NUL byte inside the string");
	e->checked = false;
	r->t->nr_symbols += e->symbol;
	return 1;
}

/* Address, then time, then line: the order a region's dump takes texts in. */
static int formats_entry_cmp(const void *a, const void *b)
{
	const struct frec_formats_entry *x = a, *y = b;

	if (x->key.addr != y->key.addr)
		return x->key.addr < y->key.addr ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->key.line < y->key.line ? -1 : x->key.line > y->key.line;
}

static int formats_read(struct frec_formats *t, const char *data, size_t len,
			bool region, struct frec_err *err)
{
	struct formats_reading r = { t, 0 };
	size_t i, kept;

	memset(t, 0, sizeof(*t));
	t->text = malloc(len + 1);
	if (!t->text)
		return frec_errf(err, 0, "out of memory");
	t->entries = frec_addr_table_read(data, len, sizeof(*t->entries), &t->nr,
					  formats_line, &r, err);
	if (!t->entries)
		return -1;
	if (region)
		qsort(t->entries, t->nr, sizeof(*t->entries), formats_entry_cmp);
	for (i = 1, kept = t->nr ? 1 : 0; i < t->nr; i++) {
		struct frec_formats_entry *prev = &t->entries[kept - 1];
		struct frec_formats_entry *e = &t->entries[i];

		if (e->key.addr == prev->key.addr && e->from != prev->from) {
			if (e->from < prev->from)
				return frec_errf(err, e->key.line,
						 "0x%llx from %llu after line %zu's later time",
						 (unsigned long long)e->key.addr,
						 (unsigned long long)e->from, prev->key.line);
			t->timed = true;
		} else if (e->key.addr == prev->key.addr) {
			/* A region's dump keeps the first of an address and time. */
			if (region)
				continue;
			if (e->len != prev->len || e->symbol != prev->symbol ||
			    memcmp(t->text + e->off, t->text + prev->off, e->len))
				return frec_errf(err, e->key.line,
						 "0x%llx listed on line %zu with another string",
						 (unsigned long long)e->key.addr, prev->key.line);
			continue;
		}
		t->entries[kept++] = *e;
	}
	t->nr = kept;
	return 0;
}

/**
 * frec_formats_parse() - read a formats file
 * @t: the table to fill; frec_formats_free() it after use, even on error.
 * @data: the file's bytes.
 * @len: how many.
 * @err: the line and what is wrong with it, on failure.
 *
 * Empty lines are skipped.  An address listed twice must have the same
 * string both times, unless the later line's time is later than the
 * earlier's ("from NS"): an address's times rise line by line.
 *
 * Context: userspace.
 * Return: 0, or -1 with @err set (err->where is a line number).
 */
int frec_formats_parse(struct frec_formats *t, const char *data, size_t len,
		       struct frec_err *err)
{
	return formats_read(t, data, len, false, err);
}

/**
 * frec_formats_parse_region() - read the formats a region's texts make
 *	(frec_region_texts_write())
 * @t: the table to fill; frec_formats_free() it after use, even on error.
 * @data: the text.
 * @len: its length.
 * @err: the line and what is wrong with it, on failure.
 *
 * A region's texts are in the table's order, as the sweeps wrote them.
 * They are taken as the kernel's previous dump takes them
 * (frec_region_names_sort()): by address and time, the first of an
 * address and time kept.  So what the kernel shows is never refused here:
 * an address's times out of table order (each sweep's clock is its CPU's)
 * or an address and time listed twice.
 *
 * Context: userspace.
 * Return: 0, or -1 with @err set (err->where is a line number).
 */
int frec_formats_parse_region(struct frec_formats *t, const char *data, size_t len,
			      struct frec_err *err)
{
	return formats_read(t, data, len, true, err);
}

/*
 * The entry whose string holds @addr (its NUL included), or NULL: of the
 * lines at the highest address at or below @addr, the one of @t->at.
 */
static struct frec_formats_entry *formats_lookup(const struct frec_formats *t,
						 u64 addr)
{
	struct frec_formats_entry *e = frec_addr_table_find(t->entries, t->nr,
							    sizeof(*e), addr);

	while (e && e > t->entries && e[-1].key.addr == e->key.addr && e->from >= t->at)
		e--;
	return e && addr - e->key.addr <= e->len ? e : NULL;
}

/**
 * frec_formats_at() - the time whose texts the lookups give
 * @t: the table.
 * @ts: a record's timestamp: an address with lines of several times gives
 *	the text of the last line whose time is below it, else of its first.
 *
 * Context: userspace.
 */
void frec_formats_at(struct frec_formats *t, u64 ts)
{
	t->at = ts;
}

/**
 * frec_formats_find() - the string at an address
 * @t: the table.
 * @addr: the address, of a string's start or inside one.
 *
 * Context: userspace.
 * Return: the NUL-terminated string, or NULL if no line holds @addr.
 */
const char *frec_formats_find(const struct frec_formats *t, u64 addr)
{
	struct frec_formats_entry *e = formats_lookup(t, addr);

	return e && !e->symbol ? t->text + e->off + (addr - e->key.addr) : NULL;
}

/**
 * frec_formats_symbol() - the saved name of a code address
 * @t: the table.
 * @addr: a caller or symbol argument as a record holds it.
 *
 * Context: userspace.
 * Return: the name frec gave the address when its module went, or NULL
 * if @addr is not such a saved name (look it up in kallsyms).
 */
const char *frec_formats_symbol(const struct frec_formats *t, u64 addr)
{
	struct frec_formats_entry *e;

	if (!t->nr_symbols)
		return NULL;	/* the usual case: no module went */
	e = formats_lookup(t, addr);

	return e && e->symbol && e->key.addr == addr ? t->text + e->off : NULL;
}

/**
 * frec_formats_checked() - the "already checked" flag of a format
 * @t: the table.
 * @addr: the format's address.
 *
 * Context: userspace.
 * Return: the flag of the line holding @addr, or NULL if none does.
 */
bool *frec_formats_checked(const struct frec_formats *t, u64 addr)
{
	struct frec_formats_entry *e = formats_lookup(t, addr);

	return e ? &e->checked : NULL;
}

/**
 * frec_formats_string() - struct frec_format_env's string() for a table
 * @ctx: the struct frec_formats.
 * @buf: where the string goes.
 * @size: its size, at least 1.
 * @addr: the string's address.
 *
 * Context: userspace.
 * Return: bytes copied, or -1 if no line holds @addr.
 */
int frec_formats_string(void *ctx, char *buf, size_t size, u64 addr)
{
	const char *s = frec_formats_find(ctx, addr);
	size_t n;

	if (!s)
		return -1;
	n = strnlen(s, size - 1);
	memcpy(buf, s, n);
	buf[n] = '\0';
	return (int)n;
}

/**
 * frec_formats_free() - free a table
 * @t: the table.
 *
 * Context: userspace.
 */
void frec_formats_free(struct frec_formats *t)
{
	free(t->entries);
	free(t->text);
	memset(t, 0, sizeof(*t));
}
