// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - naming addresses as the kernel's %pS names them, from a
 * copy of /proc/kallsyms.
 *
 * Lines are "<address> <type> <name>", module symbols followed by
 * "\t[<module>]".  Symbols are sorted by address (file order among
 * aliases, so the first alias wins, as in the kernel's get_symbol_pos()
 * and find_kallsyms_symbol()) and found by binary search (addr_table.c).
 * A symbol's size is the distance to the next higher address, as the
 * kernel computes it.  What an offline table cannot know, and how it is guessed:
 *
 *   - where a module's (or vmlinux's) last symbol ends: the kernel knows
 *     the module's text size; here the next symbol in the table bounds it,
 *     and the very last symbol of the table is only found at its address;
 *     an address past the 4 KiB page of a module's last symbol, when the
 *     next symbol is another module's, resolves nowhere: it is most likely
 *     in a module that has gone, or in freed init memory, which the
 *     kernel prints as an address too (module memory starts on a page);
 *   - absolute symbols ('A', the per-CPU offsets near 0) are left out, as
 *     the kernel only resolves addresses inside its text and modules.
 *
 * Read by an unprivileged user, /proc/kallsyms shows every address as 0
 * (kptr_restrict); such a table is marked all_zero and resolves nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"

/**
 * struct frec_ksym - one symbol
 * @key: its address, and its line in the file.
 * @size: bytes to the next higher symbol; 0 if none is known.
 * @name: its name's offset in frec_kallsyms.names.
 * @mod: its module's name's offset there; 0 (an empty name) for vmlinux.
 */
struct frec_ksym {
	struct frec_addr_key key;
	u64 size;
	unsigned int name;
	unsigned int mod;
};

/* While a file is read: the table, its names block, the last module's name. */
struct ksym_reading {
	struct frec_kallsyms *k;
	size_t used;
	size_t last_mod;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Skip blanks; returns the new position. */
static size_t skip_blanks(const char *s, size_t i, size_t len)
{
	while (i < len && is_blank(s[i]))
		i++;
	return i;
}

/* Copy @n bytes at @s into the names block as a string; its offset. */
static unsigned int ksym_name(struct ksym_reading *r, const char *s, size_t n)
{
	size_t off = r->used;

	memcpy(r->k->names + off, s, n);
	r->k->names[off + n] = '\0';
	r->used += n + 1;
	return (unsigned int)off;
}

/* One line; keeps a symbol unless it is absolute. */
static int ksym_line(void *ctx, void *entry, const char *s, size_t len,
		     size_t line_no, struct frec_err *err)
{
	struct ksym_reading *r = ctx;
	struct frec_kallsyms *k = r->k;
	struct frec_ksym *sym = entry;
	size_t i, name, name_len, mod, mod_len = 0;
	char type;

	i = frec_addr_parse_hex(s, len, &sym->key.addr);
	if (!i || i == len || !is_blank(s[i]))
		goto bad;
	i = skip_blanks(s, i, len);
	if (i + 1 >= len || !is_blank(s[i + 1]) || is_blank(s[i]))
		goto bad;
	type = s[i];
	name = skip_blanks(s, i + 1, len);
	for (i = name; i < len && !is_blank(s[i]); i++)
		;
	name_len = i - name;
	if (!name_len)
		goto bad;
	i = skip_blanks(s, i, len);
	if (i < len) {
		if (s[i] != '[' || s[len - 1] != ']' || len - i < 3)
			goto bad;
		mod = i + 1;
		mod_len = len - 1 - mod;
		if (memchr(s + mod, ']', mod_len) || memchr(s + mod, ' ', mod_len) ||
		    memchr(s + mod, '\t', mod_len))
			goto bad;
	}
	if (sym->key.addr)
		k->all_zero = false;
	if (type == 'A' || type == 'a')
		return 0;
	sym->name = ksym_name(r, s + name, name_len);
	sym->mod = 0;
	if (mod_len) {
		/* module symbols come in runs: store each run's name once */
		if (r->last_mod && strlen(k->names + r->last_mod) == mod_len &&
		    !memcmp(k->names + r->last_mod, s + mod, mod_len))
			sym->mod = (unsigned int)r->last_mod;
		else
			sym->mod = ksym_name(r, s + mod, mod_len);
		r->last_mod = sym->mod;
	}
	return 1;
bad:
	return frec_errf(err, line_no,
			 "expected <hex address> <type> <name>, then [<module>] or nothing");
}

/**
 * frec_kallsyms_parse() - read a kallsyms file
 * @k: the table to fill; frec_kallsyms_free() it after use, even on error.
 * @data: the file's bytes.
 * @len: how many (less than 4 GiB).
 * @err: the line and what is wrong with it, on failure.
 *
 * Context: userspace.
 * Return: 0, or -1 with @err set (err->where is a line number).
 */
int frec_kallsyms_parse(struct frec_kallsyms *k, const char *data, size_t len,
			struct frec_err *err)
{
	struct ksym_reading r = { k, 1, 0 };
	size_t i, j;

	memset(k, 0, sizeof(*k));
	k->names = malloc(len + 2);
	if (!k->names)
		return frec_errf(err, 0, "out of memory");
	k->names[0] = '\0';		/* offset 0: vmlinux, no module */
	k->all_zero = true;
	k->syms = frec_addr_table_read(data, len, sizeof(*k->syms), &k->nr, ksym_line,
				       &r, err);
	if (!k->syms)
		return -1;
	if (!k->nr)
		k->all_zero = false;	/* an empty table hides nothing */
	if (k->all_zero) {
		k->nr = 0;
		return 0;
	}
	/* a symbol's size: up to the next higher address */
	for (i = k->nr; i--;) {
		for (j = i + 1; j < k->nr && k->syms[j].key.addr == k->syms[i].key.addr; j++)
			;
		k->syms[i].size = j < k->nr ? k->syms[j].key.addr - k->syms[i].key.addr : 0;
	}
	return 0;
}

/*
 * The symbol holding @addr (the first of its aliases), or NULL; *@offset
 * is @addr's offset in it.
 */
static const struct frec_ksym *ksym_lookup(const struct frec_kallsyms *k,
					   u64 addr, u64 *offset)
{
	const struct frec_ksym *sym, *next;

	sym = frec_addr_table_find(k->syms, k->nr, sizeof(*sym), addr);
	if (!sym)
		return NULL;
	while (sym > k->syms && sym[-1].key.addr == sym->key.addr)
		sym--;
	*offset = addr - sym->key.addr;
	if (!sym->size && *offset)
		return NULL;		/* past the last symbol: no known end */
	next = sym + 1;
	while (next < k->syms + k->nr && next->key.addr == sym->key.addr)
		next++;
	if (sym->mod && next < k->syms + k->nr &&
	    strcmp(k->names + next->mod, k->names + sym->mod) &&
	    addr >= ((sym->key.addr | 4095) + 1))
		return NULL;		/* past its module's last page */
	return sym;
}

/* Append @s at *@len, as much as fits in @size - 1; *@len counts it all. */
static void ksym_puts(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len < size - 1)
		memcpy(buf + *len, s, n < size - 1 - *len ? n : size - 1 - *len);
	*len += n;
}

/* "0x<hex>", as the kernel's %#lx prints it (0 too: "0x0"). */
static void ksym_hex(char *buf, size_t size, size_t *len, u64 v)
{
	char hex[19];
	int i = sizeof(hex) - 1;

	hex[i] = '\0';
	do
		hex[--i] = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	hex[--i] = 'x';
	hex[--i] = '0';
	ksym_puts(buf, size, len, hex + i);
}

/**
 * frec_kallsyms_symbol() - struct frec_format_env's symbol() for a table
 * @ctx: the struct frec_kallsyms.
 * @buf: where the text goes.
 * @size: its size, at least 1.
 * @addr: the address.
 * @ext: 'S' "sym+0xoff/0xsize [mod]", 's' "sym [mod]", 'B' as 'S' but
 *	looked up at @addr - 1 (a return address), as sprint_backtrace().
 *
 * Context: userspace.
 * Return: the length of the whole text, as snprintf(), or -1 if @addr
 * resolves nowhere.
 */
int frec_kallsyms_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	const struct frec_kallsyms *k = ctx;
	const struct frec_ksym *sym;
	const char *mod;
	size_t len = 0;
	u64 offset;

	sym = ksym_lookup(k, ext == 'B' ? addr - 1 : addr, &offset);
	if (!sym)
		return -1;
	mod = k->names + sym->mod;
	ksym_puts(buf, size, &len, k->names + sym->name);
	if (ext != 's') {
		ksym_puts(buf, size, &len, "+");
		ksym_hex(buf, size, &len, ext == 'B' ? offset + 1 : offset);
		ksym_puts(buf, size, &len, "/");
		ksym_hex(buf, size, &len, sym->size);
	}
	if (*mod) {
		ksym_puts(buf, size, &len, " [");
		ksym_puts(buf, size, &len, mod);
		ksym_puts(buf, size, &len, "]");
	}
	buf[len < size ? len : size - 1] = '\0';
	return (int)len;
}

/**
 * frec_kallsyms_free() - free a table
 * @k: the table.
 *
 * Context: userspace.
 */
void frec_kallsyms_free(struct frec_kallsyms *k)
{
	free(k->syms);
	free(k->names);
	memset(k, 0, sizeof(*k));
}
