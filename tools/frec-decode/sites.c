// SPDX-License-Identifier: GPL-2.0
/*
 * sites.c - the sites file: what a record's site id stands for, and how
 * callers are named without kallsyms.
 *
 * The module's debugfs "sites" file has a line per call site, in id order,
 * after '#' comment lines (uapi/frec_raw.h, FREC_SITE_ID_LIMIT):
 *
 *   3 info 57 "frec_hanoi" "/src/frec/kmod/samples/frec_hanoi.c" "hanoi_move" 0xffffffffc0a0109a "hanoi_move+0x1a/0x80 [frec_hanoi]" "disk %u from %c to %c"
 *
 * A record whose site word is below FREC_SITE_ID_LIMIT takes its format
 * from its site's line.  The caller symbol is the first record's caller
 * named as the dump names callers; a site's records all come from one
 * place in the code (the caller is _THIS_IP_), so it names the caller of
 * nearly every record of the site, kallsyms or not.
 *
 * The strings are quoted as in the formats file and unquoted into one
 * block (addr_table.c).  Sites are found by id directly when the ids are
 * 1, 2, 3... as the module numbers them, else by binary search; callers
 * by binary search in a second table, sorted by address.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"

const char *const frec_site_levels[6] = {
	NULL, "err", "warn", "info", "debug", "trace",
};

/**
 * struct frec_site_caller - a caller address some site names
 * @key: the address; key.line orders equal addresses by site id.
 * @symbol: its name, the site's caller symbol.
 */
struct frec_site_caller {
	struct frec_addr_key key;
	const char *symbol;
};

/* While a file is read: the table, and how much of its text block is used. */
struct sites_reading {
	struct frec_sites *t;
	size_t used;
};

/* One line being read: its bytes, where the next field starts, its number. */
struct site_line {
	struct sites_reading *r;
	const char *s;
	size_t len;
	size_t pos;
	size_t line_no;
	struct frec_err *err;
};

/*
 * Step over the space before field @name: every field but the first
 * follows the previous one after exactly one space (a second space makes
 * the field empty, which its own check refuses).
 */
static int site_next(struct site_line *l, const char *name)
{
	if (l->pos >= l->len)
		return frec_errf(l->err, l->line_no, "missing %s", name);
	l->pos++;
	return 0;
}

/* The next unquoted field: its bytes up to a space or the end of the line. */
static const char *site_token(struct site_line *l, size_t *n)
{
	const char *tok = l->s + l->pos;
	const char *sp = memchr(tok, ' ', l->len - l->pos);

	*n = sp ? (size_t)(sp - tok) : l->len - l->pos;
	l->pos += *n;
	return tok;
}

/* A decimal field below @limit, for @name. */
static int site_number(struct site_line *l, const char *name, u64 limit, u64 *v)
{
	size_t n, i;
	const char *tok = site_token(l, &n);
	int shown = (int)(n < 32 ? n : 32);

	for (i = 0; i < n && tok[i] >= '0' && tok[i] <= '9'; i++)
		;
	if (!n || i < n)
		return frec_errf(l->err, l->line_no, "%s '%.*s': not a decimal number",
				 name, shown, tok);
	/* stop once past the limit: no overflow, however many digits */
	for (i = 0, *v = 0; i < n && *v < limit; i++)
		*v = *v * 10 + (u64)(tok[i] - '0');
	if (*v >= limit)
		return frec_errf(l->err, l->line_no, "%s %.*s: not below %llu", name,
				 shown, tok, (unsigned long long)limit);
	return 0;
}

/*
 * A quoted field, for @name: from its opening quote to the first quote
 * not escaped by a backslash (frec_format_quote() writes a backslash as
 * two), unquoted into the text block.
 */
static int site_string(struct site_line *l, const char *name, const char **out)
{
	size_t i = l->pos + 1, off, len;

	if (l->pos >= l->len || l->s[l->pos] != '"')
		return frec_errf(l->err, l->line_no, "%s: expected a quoted string", name);
	while (i < l->len && l->s[i] != '"')
		i += l->s[i] == '\\' ? 2 : 1;
	if (i >= l->len)
		return frec_errf(l->err, l->line_no, "%s: no closing quote", name);
	if (frec_addr_unquote(l->r->t->text, &l->r->used, l->s + l->pos + 1,
			      i - l->pos - 1, &off, &len))
		return frec_errf(l->err, l->line_no, "%s: a NUL byte inside the string",
				 name);
	*out = l->r->t->text + off;
	l->pos = i + 1;
	if (l->pos < l->len && l->s[l->pos] != ' ')
		return frec_errf(l->err, l->line_no, "%s: a byte after the closing quote",
				 name);
	return 0;
}

static int site_level(struct site_line *l, unsigned int *level)
{
	size_t n;
	const char *tok = site_token(l, &n);
	unsigned int i;

	for (i = 1; i < sizeof(frec_site_levels) / sizeof(frec_site_levels[0]); i++)
		if (strlen(frec_site_levels[i]) == n && !memcmp(tok, frec_site_levels[i], n)) {
			*level = i;
			return 0;
		}
	return frec_errf(l->err, l->line_no,
			 "level '%.*s': not err, warn, info, debug or trace",
			 (int)(n < 32 ? n : 32), tok);
}

static int site_caller(struct site_line *l, u64 *caller)
{
	size_t n;
	const char *tok = site_token(l, &n);

	if (n < 3 || tok[0] != '0' || tok[1] != 'x' ||
	    frec_addr_parse_hex(tok + 2, n - 2, caller) != n - 2)
		return frec_errf(l->err, l->line_no,
				 "caller '%.*s': not 0x and 1 to 16 hex digits",
				 (int)(n < 32 ? n : 32), tok);
	return 0;
}

/*
 * One line: "<id> <level> <line> "<module>" "<file>" "<function>"
 * 0x<caller> "<caller symbol>" "<format>"", or a comment.
 */
static int sites_line(void *ctx, void *entry, const char *s, size_t len,
		      size_t line_no, struct frec_err *err)
{
	struct site_line l = { ctx, s, len, 0, line_no, err };
	struct frec_site *site = entry;
	u64 v;

	if (s[0] == '#')
		return 0;
	memset(site, 0, sizeof(*site));
	if (site_number(&l, "id", FREC_SITE_ID_LIMIT, &site->key.addr))
		return -1;
	if (!site->key.addr)
		return frec_errf(err, line_no, "id 0: site ids start at 1");
	if (site_next(&l, "level") || site_level(&l, &site->level) ||
	    site_next(&l, "line") || site_number(&l, "line", 1ULL << 32, &v))
		return -1;
	site->line = (unsigned int)v;
	if (site_next(&l, "module") || site_string(&l, "module", &site->module) ||
	    site_next(&l, "file") || site_string(&l, "file", &site->file) ||
	    site_next(&l, "function") || site_string(&l, "function", &site->function) ||
	    site_next(&l, "caller") || site_caller(&l, &site->caller) ||
	    site_next(&l, "caller symbol") ||
	    site_string(&l, "caller symbol", &site->caller_symbol) ||
	    site_next(&l, "format") || site_string(&l, "format", &site->format))
		return -1;
	if (l.pos < len)
		return frec_errf(err, line_no, "a byte after the format");
	return 1;
}

/* The table of callers with a name, one per address: the lowest id's. */
static int sites_callers(struct frec_sites *t)
{
	size_t i, kept = 0;

	t->callers = calloc(t->nr ? t->nr : 1, sizeof(*t->callers));
	if (!t->callers)
		return -1;
	for (i = 0; i < t->nr; i++) {
		if (!t->sites[i].caller || !t->sites[i].caller_symbol[0])
			continue;
		t->callers[kept].key.addr = t->sites[i].caller;
		t->callers[kept].key.line = i;
		t->callers[kept++].symbol = t->sites[i].caller_symbol;
	}
	frec_addr_table_sort(t->callers, kept, sizeof(*t->callers));
	for (i = 0, t->nr_callers = 0; i < kept; i++)
		if (!t->nr_callers ||
		    t->callers[i].key.addr != t->callers[t->nr_callers - 1].key.addr)
			t->callers[t->nr_callers++] = t->callers[i];
	return 0;
}

/**
 * frec_sites_parse() - read a sites file
 * @t: the table to fill; frec_sites_free() it after use, even on error.
 * @data: the file's bytes.
 * @len: how many.
 * @err: the line and what is wrong with it, on failure.
 *
 * Empty lines and lines starting with '#' are skipped.  Every other line
 * must be a site's, each id (1 to FREC_SITE_ID_LIMIT - 1) listed once.
 *
 * Context: userspace.
 * Return: 0, or -1 with @err set (err->where is a line number).
 */
int frec_sites_parse(struct frec_sites *t, const char *data, size_t len,
		     struct frec_err *err)
{
	struct sites_reading r = { t, 0 };
	size_t i;

	memset(t, 0, sizeof(*t));
	t->text = malloc(len + 1);
	if (!t->text)
		return frec_errf(err, 0, "out of memory");
	t->sites = frec_addr_table_read(data, len, sizeof(*t->sites), &t->nr,
					sites_line, &r, err);
	if (!t->sites)
		return -1;
	for (i = 1; i < t->nr; i++)
		if (t->sites[i].key.addr == t->sites[i - 1].key.addr)
			return frec_errf(err, t->sites[i].key.line,
					 "id %llu: listed on line %zu already",
					 (unsigned long long)t->sites[i].key.addr,
					 t->sites[i - 1].key.line);
	if (sites_callers(t))
		return frec_errf(err, 0, "out of memory");
	return 0;
}

/**
 * frec_sites_find() - the site of an id
 * @t: the table.
 * @id: a site word below FREC_SITE_ID_LIMIT.
 *
 * Context: userspace.
 * Return: the site, or NULL if no line has @id.
 */
struct frec_site *frec_sites_find(const struct frec_sites *t, u64 id)
{
	struct frec_site *s;

	if (id - 1 < t->nr && t->sites[id - 1].key.addr == id)
		return &t->sites[id - 1];
	s = frec_addr_table_find(t->sites, t->nr, sizeof(*s), id);
	return s && s->key.addr == id ? s : NULL;
}

/**
 * frec_sites_caller() - the name a site gives a caller address
 * @t: the table.
 * @addr: a caller address.
 *
 * Context: userspace.
 * Return: the caller symbol of the (lowest-numbered) site whose first
 * record had @addr as its caller, or NULL if no site names @addr.
 */
const char *frec_sites_caller(const struct frec_sites *t, u64 addr)
{
	const struct frec_site_caller *c;

	c = frec_addr_table_find(t->callers, t->nr_callers, sizeof(*c), addr);
	return c && c->key.addr == addr ? c->symbol : NULL;
}

/**
 * frec_sites_free() - free a table
 * @t: the table.
 *
 * Context: userspace.
 */
void frec_sites_free(struct frec_sites *t)
{
	free(t->sites);
	free(t->callers);
	free(t->text);
	memset(t, 0, sizeof(*t));
}
