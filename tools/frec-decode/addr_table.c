// SPDX-License-Identifier: GPL-2.0
/*
 * addr_table.c - what the formats, sites and kallsyms files have in
 * common: a text file read line by line (numbered from 1, empty lines
 * skipped), one entry per line in an array sorted by a key, an address or
 * a site id (file order among equal keys: a stable sort), the lookup of
 * the entry at or below a key by binary search, and quoted strings read
 * into one block.  formats.c, sites.c and kallsyms.c say what a line holds
 * and what an entry found means.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"
#include "frec_format_quote.h"

static int addr_key_cmp(const void *a, const void *b)
{
	const struct frec_addr_key *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/**
 * frec_addr_table_read() - read a file's lines into a table sorted by
 *	address
 * @data: the file's bytes.
 * @len: how many.
 * @size: bytes per entry; an entry starts with a struct frec_addr_key.
 * @nr: set to the number of entries.
 * @line: called for each non-empty line with its entry to fill (the key's
 *	address; the line number is set here); returns 1 to keep the entry,
 *	0 to skip the line, -1 with @err set to stop.
 * @ctx: passed to @line.
 * @err: what went wrong.
 *
 * Context: userspace.
 * Return: the entries (free() them), or NULL with @err set.
 */
void *frec_addr_table_read(const char *data, size_t len, size_t size, size_t *nr,
			   frec_addr_line_fn line, void *ctx, struct frec_err *err)
{
	size_t lines = 1, i, line_no = 0, start, end;
	struct frec_addr_key *key;
	char *entries;
	int kept;

	for (i = 0; i < len; i++)
		lines += data[i] == '\n';
	entries = calloc(lines, size);
	*nr = 0;
	if (!entries) {
		frec_errf(err, 0, "out of memory");
		return NULL;
	}
	for (start = 0; start < len; start = end + 1) {
		const char *nl = memchr(data + start, '\n', len - start);

		end = nl ? (size_t)(nl - data) : len;
		line_no++;
		if (end == start)
			continue;
		key = (struct frec_addr_key *)(entries + *nr * size);
		kept = line(ctx, key, data + start, end - start, line_no, err);
		if (kept < 0) {
			free(entries);
			*nr = 0;
			return NULL;
		}
		key->line = line_no;
		*nr += (size_t)kept;
	}
	frec_addr_table_sort(entries, *nr, size);
	return entries;
}

/**
 * frec_addr_table_sort() - sort entries by address, file order among equals
 * @entries: the entries; each starts with a struct frec_addr_key.
 * @nr: how many.
 * @size: bytes per entry.
 *
 * Context: userspace.
 */
void frec_addr_table_sort(void *entries, size_t nr, size_t size)
{
	qsort(entries, nr, size, addr_key_cmp);
}

/**
 * frec_addr_table_find() - the entry at or below an address
 * @entries: a table from frec_addr_table_read().
 * @nr: its entries.
 * @size: bytes per entry.
 * @addr: the address.
 *
 * Context: userspace.
 * Return: the entry with the highest address not above @addr (the last in
 * file order of those with that address), or NULL if all are above it.
 */
void *frec_addr_table_find(const void *entries, size_t nr, size_t size, u64 addr)
{
	const char *base = entries;
	size_t lo = 0, hi = nr, mid;

	while (lo < hi) {		/* the first entry above addr */
		mid = lo + (hi - lo) / 2;
		if (((const struct frec_addr_key *)(base + mid * size))->addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (void *)(base + (lo - 1) * size) : NULL;
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

/**
 * frec_addr_parse_hex() - an address in hex digits, as both files write it
 * @s: where the digits start (no "0x").
 * @len: bytes there.
 * @addr: the address.
 *
 * Context: userspace.
 * Return: how many digits were read, 1 to 16; 0 if none, or more than 16.
 */
size_t frec_addr_parse_hex(const char *s, size_t len, u64 *addr)
{
	size_t i;
	int d;

	*addr = 0;
	for (i = 0; i < len && i < 17 && (d = hex_digit(s[i])) >= 0; i++)
		*addr = *addr << 4 | (u64)d;
	return i > 16 ? 0 : i;
}

/**
 * frec_addr_unquote() - a quoted string of a line, into a table's text block
 * @block: the block; a file's strings fit in its size plus one byte, as a
 *	string and its NUL never take more bytes than the string quoted.
 * @used: bytes of @block used; moved past the string and its NUL.
 * @q: the bytes between the quotes.
 * @n: how many.
 * @off: set to where the string starts in @block.
 * @len: set to its length.
 *
 * Unquoted with frec_format_unquote(), the one the module quotes with.
 *
 * Context: userspace.
 * Return: 0, or -1 if the string holds a NUL byte (nothing is used).
 */
int frec_addr_unquote(char *block, size_t *used, const char *q, size_t n,
		      size_t *off, size_t *len)
{
	if (memchr(q, '\0', n))
		return -1;
	*off = *used;
	*len = frec_format_unquote(block + *used, n + 1, q, n);
	*used += *len + 1;
	return 0;
}
