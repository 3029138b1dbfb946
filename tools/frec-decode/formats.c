// SPDX-License-Identifier: GPL-2.0
/*
 * formats.c - the formats file: what an event's format address and its
 * %s arguments point to.
 *
 * The module's debugfs "formats" file has a line per format and per %s
 * string literal a record may point to, as the kernel's printk_formats
 * writes them (see kmod/frec_format_quote.h):
 *
 *   0xffffffffc0a01234 : "irq %d status %#lx\n"
 *
 * and a line per code address a record holds (a caller, a %pS argument)
 * into a module that has gone, with the name frec gave it when the module
 * went (kmod/frec_formats.c):
 *
 *   0xffff888003a1c000 : symbol "hanoi_move+0x1a/0x80 [frec_hanoi]"
 *
 * The strings are unquoted with frec_format_unquote(), the one the module
 * quotes with, into one block, and found by binary search.  An address
 * inside a string finds the rest of it, as reading memory there would
 * (compilers merge a literal into the tail of a longer one); a symbol is
 * found at its exact address only.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"
#include "frec_format_quote.h"

/**
 * struct frec_formats_entry - one line of the formats file
 * @addr: the string's address.
 * @off: where its text starts in frec_formats.text.
 * @len: its length.
 * @line: its line in the file (ties in sorting keep file order).
 * @checked: the decoder has checked this format (and reported it if bad).
 * @symbol: a saved symbol's name, not a string.
 */
struct frec_formats_entry {
	u64 addr;
	size_t off;
	size_t len;
	size_t line;
	bool checked;
	bool symbol;
};

static int formats_cmp(const void *a, const void *b)
{
	const struct frec_formats_entry *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "0x<1-16 hex digits>" at @s (of @len bytes); returns bytes read or 0. */
static size_t parse_hex_addr(const char *s, size_t len, u64 *addr)
{
	size_t i;
	int d;

	if (len < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	*addr = 0;
	for (i = 2; i < len && i < 2 + 17 && (d = hex_digit(s[i])) >= 0; i++)
		*addr = *addr << 4 | (u64)d;
	return i == 2 || i > 2 + 16 ? 0 : i;
}

/*
 * One line, "0xADDR : \"text\"" or "0xADDR : symbol \"text\"", its text
 * unquoted to @t->text + @*used.
 */
static int formats_line(struct frec_formats *t, const char *s, size_t len,
			size_t line_no, size_t *used, struct frec_err *err)
{
	static const char sym[] = "symbol ";
	struct frec_formats_entry *e = &t->entries[t->nr];
	size_t n = parse_hex_addr(s, len, &e->addr);
	const char *q;

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
	q = s + n;
	e->off = *used;
	e->len = frec_format_unquote(t->text + *used, len - n, q,
				     (size_t)(s + len - 1 - q));
	if (memchr(q, '\0', (size_t)(s + len - 1 - q)))
		return frec_errf(err, line_no, "a NUL byte inside the string");
	e->line = line_no;
	e->checked = false;
	*used += e->len + 1;
	t->nr++;
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
 * string both times.
 *
 * Context: userspace.
 * Return: 0, or -1 with @err set (err->where is a line number).
 */
int frec_formats_parse(struct frec_formats *t, const char *data, size_t len,
		       struct frec_err *err)
{
	size_t lines = 1, i, used = 0, line_no = 0, start, end;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < len; i++)
		lines += data[i] == '\n';
	t->entries = calloc(lines, sizeof(*t->entries));
	t->text = malloc(len + 1);
	if (!t->entries || !t->text)
		return frec_errf(err, 0, "out of memory");
	for (start = 0; start < len; start = end + 1) {
		const char *nl = memchr(data + start, '\n', len - start);

		end = nl ? (size_t)(nl - data) : len;
		line_no++;
		if (end == start)
			continue;
		if (formats_line(t, data + start, end - start, line_no, &used, err))
			return -1;
	}
	qsort(t->entries, t->nr, sizeof(*t->entries), formats_cmp);
	for (i = 1, end = t->nr ? 1 : 0; i < t->nr; i++) {
		struct frec_formats_entry *prev = &t->entries[end - 1];
		struct frec_formats_entry *e = &t->entries[i];

		if (e->addr == prev->addr) {
			if (e->len != prev->len || e->symbol != prev->symbol ||
			    memcmp(t->text + e->off, t->text + prev->off, e->len))
				return frec_errf(err, e->line,
						 "0x%llx listed on line %zu with another string",
						 (unsigned long long)e->addr, prev->line);
			continue;
		}
		t->entries[end++] = *e;
	}
	t->nr = end;
	return 0;
}

/* The entry whose string holds @addr (its NUL included), or NULL. */
static struct frec_formats_entry *formats_lookup(const struct frec_formats *t,
						 u64 addr)
{
	size_t lo = 0, hi = t->nr, mid;
	struct frec_formats_entry *e;

	while (lo < hi) {		/* the first entry above addr */
		mid = lo + (hi - lo) / 2;
		if (t->entries[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	e = &t->entries[lo - 1];
	return addr - e->addr <= e->len ? e : NULL;
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

	return e && !e->symbol ? t->text + e->off + (addr - e->addr) : NULL;
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
	struct frec_formats_entry *e = formats_lookup(t, addr);

	return e && e->symbol && e->addr == addr ? t->text + e->off : NULL;
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
