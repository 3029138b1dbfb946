// SPDX-License-Identifier: GPL-2.0
/*
 * test_decode.c - unit tests of frec-decode's parts: the formats table,
 * the kallsyms table and its lookup, the raw reader and the decoder's
 * messages, against hand-written expectations.  (The format parser
 * itself, kmod/lib/frec_format.c, has tools/harness/test_format.c.)
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frec_caller_word.h"
#include "frec_decode.h"
#include "harness_test.h"

/* ---- formats ---------------------------------------------------------- */

static const char small_formats[] =
	"0x1000 : \"irq %d status %#lx\"\n"
	"\n"
	"0x2000 : \"hello world\"\n"
	"0x2006 : \"world\"\n"
	"0x3000 : \"esc \\n \\t \\\" \\\\ \\d end\\\\\"\n"
	"0X4000 : \"\"\n"
	"0x5000 : \"bad %y\"\n"
	"0xffffffffc0a01234 : \"upper\"";

static void formats_parse_and_find(struct ht_case *c)
{
	struct frec_formats t;
	struct frec_err err;
	char buf[8];
	const char *s;

	HT_EXPECT_EQ(c, frec_formats_parse(&t, small_formats, strlen(small_formats), &err), 0);
	HT_EXPECT_EQ(c, t.nr, 7);
	s = frec_formats_find(&t, 0x1000);
	HT_EXPECT(c, s && !strcmp(s, "irq %d status %#lx"), "0x1000: %s", s);
	s = frec_formats_find(&t, 0x2003);	/* inside "hello world" */
	HT_EXPECT(c, s && !strcmp(s, "lo world"), "0x2003: %s", s);
	s = frec_formats_find(&t, 0x2008);	/* inside the merged "world" */
	HT_EXPECT(c, s && !strcmp(s, "rld"), "0x2008: %s", s);
	s = frec_formats_find(&t, 0x200b);	/* the NUL of both */
	HT_EXPECT(c, s && !*s, "0x200b: %s", s);
	HT_EXPECT(c, !frec_formats_find(&t, 0x200c), "past the NUL");
	HT_EXPECT(c, !frec_formats_find(&t, 0xfff), "before the first");
	HT_EXPECT(c, !frec_formats_find(&t, 0x1500), "between");
	HT_EXPECT(c, !frec_formats_find(&t, ~0ULL), "after the last");
	s = frec_formats_find(&t, 0x3000);
	HT_EXPECT(c, s && !strcmp(s, "esc \n \t \" \\ \\d end\\"), "0x3000: %s", s);
	s = frec_formats_find(&t, 0x4000);
	HT_EXPECT(c, s && !*s, "0X4000: %s", s);
	s = frec_formats_find(&t, 0xffffffffc0a01234ULL);
	HT_EXPECT(c, s && !strcmp(s, "upper"), "last line without newline: %s", s);
	HT_EXPECT_EQ(c, frec_formats_string(&t, buf, sizeof(buf), 0x2000), 7);
	HT_EXPECT(c, !strcmp(buf, "hello w"), "cut: %s", buf);
	HT_EXPECT_EQ(c, frec_formats_string(&t, buf, 1, 0x2000), 0);
	HT_EXPECT_EQ(c, frec_formats_string(&t, buf, sizeof(buf), 0x6000), -1);
	HT_EXPECT(c, frec_formats_checked(&t, 0x1000) &&
		  !*frec_formats_checked(&t, 0x1000), "checked flag");
	HT_EXPECT(c, !frec_formats_checked(&t, 0x1500), "no flag between");
	frec_formats_free(&t);
}

/*
 * A region's later texts of one address ("0xADDR from NS"): a lookup gives
 * the text of the time set, the last whose time is below it, else the
 * first; inside a string too.
 */
static void formats_later_texts(struct ht_case *c)
{
	static const char f[] = "0x2000 : \"first\"\n0x3000 : \"other\"\n"
		"0x2000 from 100 : \"second\"\n0x2000 from 250 : \"third!\"\n";
	struct frec_formats t;
	struct frec_err err;
	const char *s;

	HT_EXPECT_EQ(c, frec_formats_parse(&t, f, strlen(f), &err), 0);
	HT_EXPECT_EQ(c, t.nr, 4);
	HT_EXPECT(c, t.timed, "timed");
	frec_formats_at(&t, 50);
	s = frec_formats_find(&t, 0x2000);
	HT_EXPECT(c, s && !strcmp(s, "first"), "at 50: %s", s);
	frec_formats_at(&t, 100);
	s = frec_formats_find(&t, 0x2000);
	HT_EXPECT(c, s && !strcmp(s, "first"), "at 100, the time itself: %s", s);
	frec_formats_at(&t, 101);
	s = frec_formats_find(&t, 0x2001);
	HT_EXPECT(c, s && !strcmp(s, "econd"), "at 101, inside: %s", s);
	frec_formats_at(&t, 1000);
	s = frec_formats_find(&t, 0x2000);
	HT_EXPECT(c, s && !strcmp(s, "third!"), "at 1000: %s", s);
	HT_EXPECT(c, !frec_formats_find(&t, 0x2007), "past the later text's NUL");
	frec_formats_at(&t, 0);
	s = frec_formats_find(&t, 0x2000);
	HT_EXPECT(c, s && !strcmp(s, "first"), "at 0: %s", s);
	s = frec_formats_find(&t, 0x3000);
	HT_EXPECT(c, s && !strcmp(s, "other"), "another address: %s", s);
	frec_formats_free(&t);
}

/*
 * A region's texts as the kernel's previous dump takes them: a time of 20
 * digits, an address's times out of table order, an address and time
 * twice (the first kept).  A formats file from the live kernel refuses the
 * last two.
 */
static void formats_of_a_region_as_the_kernel_takes_them(struct ht_case *c)
{
	static const char f[] = "0x10 : \"a\"\n0x10 from 18446744073709551615 : \"z\"\n"
		"0x20 from 300 : \"c\"\n0x20 from 100 : \"b\"\n0x20 : \"a\"\n"
		"0x30 from 5 : \"x\"\n0x30 from 5 : \"y\"\n";
	struct frec_formats t;
	struct frec_err err;
	const char *s;

	HT_EXPECT(c, frec_formats_parse(&t, f, strlen(f), &err) == -1,
		  "a live formats file with times out of order taken");
	frec_formats_free(&t);
	HT_EXPECT(c, !frec_formats_parse_region(&t, f, strlen(f), &err),
		  "refused: line %llu: %s", err.where, err.msg);
	HT_EXPECT_EQ(c, t.nr, 6);
	frec_formats_at(&t, 50);
	s = frec_formats_find(&t, 0x20);
	HT_EXPECT(c, s && !strcmp(s, "a"), "0x20 at 50: %s", s);
	frec_formats_at(&t, 200);
	s = frec_formats_find(&t, 0x20);
	HT_EXPECT(c, s && !strcmp(s, "b"), "0x20 at 200: %s", s);
	frec_formats_at(&t, 400);
	s = frec_formats_find(&t, 0x20);
	HT_EXPECT(c, s && !strcmp(s, "c"), "0x20 at 400: %s", s);
	s = frec_formats_find(&t, 0x30);
	HT_EXPECT(c, s && !strcmp(s, "x"), "0x30: the first of its time, not %s", s);
	s = frec_formats_find(&t, 0x10);
	HT_EXPECT(c, s && !strcmp(s, "a"), "0x10 before 2^64 - 1: %s", s);
	frec_formats_free(&t);
}

static void expect_formats_error(struct ht_case *c, const char *data,
				 unsigned long long line, const char *msg)
{
	struct frec_formats t;
	struct frec_err err;

	HT_EXPECT(c, frec_formats_parse(&t, data, strlen(data), &err) == -1 &&
		  err.where == line && strstr(err.msg, msg),
		  "\"%s\": line %llu \"%s\"", data, err.where, err.msg);
	frec_formats_free(&t);
}

static void formats_errors_name_the_line(struct ht_case *c)
{
	const char nul[] = "0x10 : \"a\0b\"\n";
	struct frec_formats t;
	struct frec_err err;

	expect_formats_error(c, "0x10 : \"a\"\nx10 : \"b\"\n", 2, "expected 0x<address>");
	expect_formats_error(c, "0x : \"a\"\n", 1, "expected");
	expect_formats_error(c, "0x12345678901234567 : \"a\"\n", 1, "expected");
	expect_formats_error(c, "0x10 \"a\"\n", 1, "expected");
	expect_formats_error(c, "0x10 : \"a\n", 1, "expected");
	expect_formats_error(c, "0x10 : a\"\n", 1, "expected");
	expect_formats_error(c, "0x10 : \"\n", 1, "expected");
	expect_formats_error(c, "\n\n0x10 : \"a\" \n", 3, "expected");
	expect_formats_error(c, "0x10 : \"a\"\n0x10 : \"b\"\n", 2,
			     "0x10 listed on line 1 with another string");
	expect_formats_error(c, "0x10 from 9 : \"a\"\n0x10 from 8 : \"b\"\n", 2,
			     "0x10 from 8 after line 1's later time");
	expect_formats_error(c, "0x10 from 0 : \"a\"\n", 1, "expected from");
	expect_formats_error(c, "0x10 from : \"a\"\n", 1, "expected from");
	HT_EXPECT(c, frec_formats_parse(&t, nul, sizeof(nul) - 1, &err) == -1 &&
		  strstr(err.msg, "NUL"), "NUL: %s", err.msg);
	frec_formats_free(&t);
	/* the same string twice is fine */
	HT_EXPECT_EQ(c, frec_formats_parse(&t, "0x10 : \"a\"\n0x10 : \"a\"\n", 22, &err), 0);
	HT_EXPECT_EQ(c, t.nr, 1);
	frec_formats_free(&t);
	HT_EXPECT_EQ(c, frec_formats_parse(&t, "", 0, &err), 0);
	HT_EXPECT_EQ(c, t.nr, 0);
	HT_EXPECT(c, !frec_formats_find(&t, 0), "empty table");
	frec_formats_free(&t);
}

/* Saved symbols: found at their exact address only, never as strings. */
static void formats_symbols_are_names_not_strings(struct ht_case *c)
{
	static const char data[] =
		"0x1000 : \"fmt %pS\"\n"
		"0x2000 : symbol \"fn+0x1a/0x80 [gone]\"\n"
		"0x3000 : symbol \"symbol \\\" q\"\n";
	struct frec_formats t;
	struct frec_err err;
	const char *s;

	HT_EXPECT_EQ(c, frec_formats_parse(&t, data, strlen(data), &err), 0);
	HT_EXPECT_EQ(c, t.nr, 3);
	s = frec_formats_symbol(&t, 0x2000);
	HT_EXPECT(c, s && !strcmp(s, "fn+0x1a/0x80 [gone]"), "0x2000: %s", s);
	s = frec_formats_symbol(&t, 0x3000);
	HT_EXPECT(c, s && !strcmp(s, "symbol \" q"), "0x3000: %s", s);
	HT_EXPECT(c, !frec_formats_symbol(&t, 0x2001), "inside a symbol");
	HT_EXPECT(c, !frec_formats_symbol(&t, 0x1000), "a string is not a symbol");
	HT_EXPECT(c, !frec_formats_find(&t, 0x2000), "a symbol is not a string");
	HT_EXPECT(c, !frec_formats_find(&t, 0x2004), "nor inside one");
	frec_formats_free(&t);
	expect_formats_error(c, "0x10 : symbol\"a\"\n", 1, "expected");
	expect_formats_error(c, "0x10 : \"a\"\n0x10 : symbol \"a\"\n", 2,
			     "0x10 listed on line 1 with another string");
}

/* ---- sites -------------------------------------------------------------- */

/* A sites file as the module writes it, and what a reader may meet. */
static const char small_sites[] =
	"# frec sites: <id> <level> <line> \"<module>\" \"<file>\" ...\n"
	"1 info 57 \"frec_hanoi\" \"/src/frec/kmod/samples/frec_hanoi.c\" \"hanoi_move\" "
	"0xffffffffc0a0109a \"hanoi_move+0x1a/0x80 [frec_hanoi]\" \"disk %u from %c to %c\"\n"
	"2 err 3 \"\" \"a \\\"q\\\" \\\\ b\" \"fn\" 0x0 \"\" \"tab\\there\\n\"\n"
	"\n"
	"#3 is below, out of order\n"
	"4 trace 4294967295 \"m\" \"f\" \"g\" 0xffffffffc0a0109a \"other+0x0/0x10\" \"x\"\n"
	"5 debug 0 \"m\" \"f\" \"g\" 0xFFFFFFFF81000010 \"do_work+0x10/0x80\" \"y %d\"\n"
	"3 warn 1 \"m\" \"f\" \"g\" 0x1234 \"\" \"z\"";

static void sites_parse_and_find(struct ht_case *c)
{
	static const char sparse[] =
		"20 info 1 \"m\" \"f\" \"g\" 0x0 \"\" \"b\"\n"
		"10 info 1 \"m\" \"f\" \"g\" 0x0 \"\" \"a\"\n";
	struct frec_sites t;
	struct frec_err err;
	const struct frec_site *s;
	const char *name;

	HT_EXPECT_EQ(c, frec_sites_parse(&t, small_sites, strlen(small_sites), &err), 0);
	HT_EXPECT_EQ(c, t.nr, 5);
	s = frec_sites_find(&t, 1);
	HT_EXPECT(c, s && s->key.addr == 1 && s->key.line == 2 && s->level == 3 &&
		  s->line == 57 && !strcmp(s->module, "frec_hanoi") &&
		  !strcmp(s->file, "/src/frec/kmod/samples/frec_hanoi.c") &&
		  !strcmp(s->function, "hanoi_move") && s->caller == 0xffffffffc0a0109aULL &&
		  !strcmp(s->caller_symbol, "hanoi_move+0x1a/0x80 [frec_hanoi]") &&
		  !strcmp(s->format, "disk %u from %c to %c") && !s->checked, "site 1");
	s = frec_sites_find(&t, 2);
	HT_EXPECT(c, s && s->level == 1 && !strcmp(s->module, "") &&
		  !strcmp(s->file, "a \"q\" \\ b") && !s->caller &&
		  !strcmp(s->caller_symbol, "") && !strcmp(s->format, "tab\there\n"),
		  "site 2: file \"%s\" format \"%s\"", s ? s->file : "", s ? s->format : "");
	s = frec_sites_find(&t, 3);
	HT_EXPECT(c, s && s->level == 2 && s->line == 1 && !strcmp(s->format, "z"), "site 3");
	s = frec_sites_find(&t, 4);
	HT_EXPECT(c, s && s->level == 5 && s->line == 4294967295U, "site 4");
	s = frec_sites_find(&t, 5);
	HT_EXPECT(c, s && s->level == 4 && !strcmp(frec_site_levels[s->level], "debug"),
		  "site 5");
	HT_EXPECT(c, !frec_sites_find(&t, 0) && !frec_sites_find(&t, 6) &&
		  !frec_sites_find(&t, FREC_SITE_ID_LIMIT) && !frec_sites_find(&t, ~0ULL),
		  "no such ids");
	/* callers: the lowest id's name for an address; none for "" or 0 */
	name = frec_sites_caller(&t, 0xffffffffc0a0109aULL);
	HT_EXPECT(c, name && !strcmp(name, "hanoi_move+0x1a/0x80 [frec_hanoi]"), "%s", name);
	name = frec_sites_caller(&t, 0xffffffff81000010ULL);
	HT_EXPECT(c, name && !strcmp(name, "do_work+0x10/0x80"), "%s", name);
	HT_EXPECT(c, !frec_sites_caller(&t, 0x1234) && !frec_sites_caller(&t, 0) &&
		  !frec_sites_caller(&t, 0xffffffffc0a0109bULL), "no caller names");
	frec_sites_free(&t);

	/* ids need not be 1, 2, 3...: found by binary search */
	HT_EXPECT_EQ(c, frec_sites_parse(&t, sparse, strlen(sparse), &err), 0);
	s = frec_sites_find(&t, 10);
	HT_EXPECT(c, s && !strcmp(s->format, "a"), "site 10");
	s = frec_sites_find(&t, 20);
	HT_EXPECT(c, s && !strcmp(s->format, "b"), "site 20");
	HT_EXPECT(c, !frec_sites_find(&t, 1) && !frec_sites_find(&t, 2) &&
		  !frec_sites_find(&t, 15), "between");
	frec_sites_free(&t);
	HT_EXPECT_EQ(c, frec_sites_parse(&t, "# nothing yet\n", 14, &err), 0);
	HT_EXPECT(c, !t.nr && !frec_sites_find(&t, 1) && !frec_sites_caller(&t, 1), "empty");
	frec_sites_free(&t);
}

static void expect_sites_error(struct ht_case *c, int line, const char *data,
			       size_t len, unsigned long long where, const char *msg)
{
	struct frec_sites t;
	struct frec_err err = { "", 0 };

	HT_EXPECT(c, frec_sites_parse(&t, data, len, &err) == -1 && err.where == where &&
		  strstr(err.msg, msg), "line %d: \"%s\": line %llu \"%s\", expected \"%s\"",
		  line, data, err.where, err.msg, msg);
	frec_sites_free(&t);
}

#define EXPECT_SITES_ERROR(c, data, where, msg) \
	expect_sites_error(c, __LINE__, data, strlen(data), where, msg)

/* The fields after the level and the line: module to format, good. */
#define SITE_REST " \"m\" \"f\" \"g\" 0x10 \"s\" \"fmt\""

static void sites_errors_name_the_line_and_field(struct ht_case *c)
{
	static const char nul[] = "1 info 1 \"m\" \"f\0x\" \"g\" 0x0 \"\" \"f\"\n";

	EXPECT_SITES_ERROR(c, "1 info 1" SITE_REST "\nx info 1" SITE_REST, 2,
			   "id 'x': not a decimal number");
	EXPECT_SITES_ERROR(c, "-1 info 1" SITE_REST, 1, "id '-1': not a decimal number");
	EXPECT_SITES_ERROR(c, " 1 info 1" SITE_REST, 1, "id '': not a decimal number");
	EXPECT_SITES_ERROR(c, "0 info 1" SITE_REST, 1, "id 0: site ids start at 1");
	EXPECT_SITES_ERROR(c, "16777216 info 1" SITE_REST, 1, "id 16777216: not below 16777216");
	EXPECT_SITES_ERROR(c, "99999999999999999999999 info 1" SITE_REST, 1,
			   "id 99999999999999999999999: not below 16777216");
	EXPECT_SITES_ERROR(c, "#\n7 info 1" SITE_REST "\n\n7 info 1" SITE_REST, 4,
			   "id 7: listed on line 2 already");
	EXPECT_SITES_ERROR(c, "1 fatal 1" SITE_REST, 1,
			   "level 'fatal': not err, warn, info, debug or trace");
	EXPECT_SITES_ERROR(c, "1 INFO 1" SITE_REST, 1, "level 'INFO'");
	EXPECT_SITES_ERROR(c, "1  info 1" SITE_REST, 1, "level '': not");
	EXPECT_SITES_ERROR(c, "1 info x" SITE_REST, 1, "line 'x': not a decimal number");
	EXPECT_SITES_ERROR(c, "1 info 4294967296" SITE_REST, 1,
			   "line 4294967296: not below 4294967296");
	EXPECT_SITES_ERROR(c, "1 info 1 m \"f\" \"g\" 0x10 \"s\" \"fmt\"", 1,
			   "module: expected a quoted string");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\"x \"g\" 0x10 \"s\" \"fmt\"", 1,
			   "file: a byte after the closing quote");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x10 \"s\" \"fmt", 1,
			   "format: no closing quote");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x10 \"s\" \"fmt\\\"", 1,
			   "format: no closing quote");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x10 \"s\\\" \"fmt\"", 1,
			   "caller symbol: a byte after the closing quote");
	expect_sites_error(c, __LINE__, nul, sizeof(nul) - 1, 1,
			   "file: a NUL byte inside the string");
	EXPECT_SITES_ERROR(c, "1", 1, "missing level");
	EXPECT_SITES_ERROR(c, "1 info", 1, "missing line");
	EXPECT_SITES_ERROR(c, "1 info 1", 1, "missing module");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\"", 1, "missing function");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\"", 1, "missing caller");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x10", 1, "missing caller symbol");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x10 \"s\"\n", 1, "missing format");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x10 \"s\" ", 1,
			   "format: expected a quoted string");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 10 \"s\" \"fmt\"", 1,
			   "caller '10': not 0x and 1 to 16 hex digits");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x \"s\" \"fmt\"", 1, "caller '0x'");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x1g \"s\" \"fmt\"", 1, "caller '0x1g'");
	EXPECT_SITES_ERROR(c, "1 info 1 \"m\" \"f\" \"g\" 0x12345678901234567 \"s\" \"fmt\"",
			   1, "caller '0x12345678901234567'");
	EXPECT_SITES_ERROR(c, "1 info 1" SITE_REST " \"more\"", 1, "a byte after the format");
	EXPECT_SITES_ERROR(c, "1 info 1" SITE_REST " ", 1, "a byte after the format");
	EXPECT_SITES_ERROR(c, "1 info 1" SITE_REST "x", 1, "format: a byte after the closing quote");
}

/* ---- kallsyms ----------------------------------------------------------- */

static const char small_kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t do_work\n"
	"ffffffff81000180 W weak_fn\n"
	"ffffffff81000400 D some_data\n"
	"ffffffffc0a00100 t frec_fn2\t[frec]\n"
	"ffffffffc0a00000 t frec_fn\t[frec]\n"
	"ffffffffc0a00300 d __this_module\t[frec]\n"
	"ffffffffc0b00000   t   other_fn  [other]\n";

static void expect_sym(struct ht_case *c, int line, struct frec_kallsyms *k,
		       u64 addr, char ext, const char *want)
{
	char buf[128];
	int n = frec_kallsyms_symbol(k, buf, sizeof(buf), addr, ext);

	if (!want)
		HT_EXPECT(c, n == -1, "line %d: %#llx %c: \"%s\", expected nothing",
			  line, (unsigned long long)addr, ext, n >= 0 ? buf : "");
	else
		HT_EXPECT(c, n == (int)strlen(want) && !strcmp(buf, want),
			  "line %d: %#llx %c: \"%s\" (%d), expected \"%s\"", line,
			  (unsigned long long)addr, ext, n >= 0 ? buf : "", n, want);
}

#define EXPECT_SYM(c, k, addr, ext, want) \
	expect_sym(c, __LINE__, k, addr, ext, want)

static void kallsyms_names_as_the_kernel(struct ht_case *c)
{
	struct frec_kallsyms k;
	struct frec_err err;
	char buf[12];

	HT_EXPECT_EQ(c, frec_kallsyms_parse(&k, small_kallsyms, strlen(small_kallsyms), &err), 0);
	HT_EXPECT_EQ(c, k.nr, 9);	/* the absolute symbol left out */
	HT_EXPECT(c, !k.all_zero, "all_zero");
	EXPECT_SYM(c, &k, 0xffffffff81000000ULL, 'S', "_stext+0x0/0x100");
	EXPECT_SYM(c, &k, 0xffffffff81000010ULL, 'S', "_stext+0x10/0x100");
	EXPECT_SYM(c, &k, 0xffffffff81000010ULL, 's', "_stext");
	EXPECT_SYM(c, &k, 0xffffffff8100017fULL, 'S', "do_work+0x7f/0x80");
	EXPECT_SYM(c, &k, 0xffffffff81000180ULL, 'S', "weak_fn+0x0/0x280");
	/* a return address just past do_work names do_work */
	EXPECT_SYM(c, &k, 0xffffffff81000180ULL, 'B', "do_work+0x80/0x80");
	EXPECT_SYM(c, &k, 0xffffffff81000181ULL, 'B', "weak_fn+0x1/0x280");
	EXPECT_SYM(c, &k, 0xffffffff81000400ULL, 'S', "some_data+0x0/0x3f9ffc00");
	EXPECT_SYM(c, &k, 0xffffffffc0a00000ULL, 'S', "frec_fn+0x0/0x100 [frec]");
	EXPECT_SYM(c, &k, 0xffffffffc0a00123ULL, 'S', "frec_fn2+0x23/0x200 [frec]");
	EXPECT_SYM(c, &k, 0xffffffffc0a00123ULL, 's', "frec_fn2 [frec]");
	EXPECT_SYM(c, &k, 0xffffffffc0a00300ULL, 'S', "__this_module+0x0/0xffd00 [frec]");
	EXPECT_SYM(c, &k, 0xffffffffc0b00000ULL, 'S', "other_fn+0x0/0x0 [other]");
	/* before the first, past the last (whose end is unknown), near 0 */
	EXPECT_SYM(c, &k, 0xffffffff80ffffffULL, 'S', NULL);
	EXPECT_SYM(c, &k, 0xffffffffc0b00001ULL, 'S', NULL);
	EXPECT_SYM(c, &k, 0x10, 'S', NULL);
	EXPECT_SYM(c, &k, 0, 'B', NULL);
	EXPECT_SYM(c, &k, 0xffffffff81000000ULL, 'B', NULL);
	/* cut: the whole length returned, as snprintf() */
	HT_EXPECT_EQ(c, frec_kallsyms_symbol(&k, buf, sizeof(buf),
					     0xffffffffc0a00123ULL, 'S'), 26);
	HT_EXPECT(c, !strcmp(buf, "frec_fn2+0x"), "cut: \"%s\"", buf);
	HT_EXPECT_EQ(c, frec_kallsyms_symbol(&k, buf, 1, 0xffffffffc0a00123ULL, 's'), 15);
	HT_EXPECT(c, !buf[0], "size 1");
	frec_kallsyms_free(&k);
}

static void kallsyms_of_zeros_is_detected(struct ht_case *c)
{
	static const char zeros[] =
		"0000000000000000 A fixed_percpu_data\n"
		"0000000000000000 T _stext\n"
		"0000000000000000 t frec_fn\t[frec]\n";
	struct frec_kallsyms k;
	struct frec_err err;

	HT_EXPECT_EQ(c, frec_kallsyms_parse(&k, zeros, strlen(zeros), &err), 0);
	HT_EXPECT(c, k.all_zero && !k.nr, "all_zero %d nr %zu", k.all_zero, k.nr);
	EXPECT_SYM(c, &k, 0, 'S', NULL);
	frec_kallsyms_free(&k);
	HT_EXPECT_EQ(c, frec_kallsyms_parse(&k, "", 0, &err), 0);
	HT_EXPECT(c, !k.all_zero && !k.nr, "empty");
	EXPECT_SYM(c, &k, 0x1234, 'S', NULL);
	frec_kallsyms_free(&k);
}

static void expect_kallsyms_error(struct ht_case *c, const char *data,
				  unsigned long long line)
{
	struct frec_kallsyms k;
	struct frec_err err;

	HT_EXPECT(c, frec_kallsyms_parse(&k, data, strlen(data), &err) == -1 &&
		  err.where == line && strstr(err.msg, "expected <hex address>"),
		  "\"%s\": line %llu \"%s\"", data, err.where, err.msg);
	frec_kallsyms_free(&k);
}

static void kallsyms_errors_name_the_line(struct ht_case *c)
{
	expect_kallsyms_error(c, "ffffffff81000000 T a\nffffffff81000100\n", 2);
	expect_kallsyms_error(c, "ffffffff81000000 T\n", 1);
	expect_kallsyms_error(c, "ffffffff81000000 T \n", 1);
	expect_kallsyms_error(c, "ffffffff81000000 TT a\n", 1);
	expect_kallsyms_error(c, "xfffffff81000000 T a\n", 1);
	expect_kallsyms_error(c, "1ffffffff81000000 T a\n", 1);
	expect_kallsyms_error(c, " ffffffff81000000 T a\n", 1);
	expect_kallsyms_error(c, "ffffffff81000000 t a\t[mod\n", 1);
	expect_kallsyms_error(c, "ffffffff81000000 t a\t[]\n", 1);
	expect_kallsyms_error(c, "ffffffff81000000 t a\t[m] x\n", 1);
	expect_kallsyms_error(c, "ffffffff81000000 t a b\n", 1);
}

/* Random tables: the binary search finds what a linear scan finds. */
static void kallsyms_lookup_matches_a_linear_scan(struct ht_case *c)
{
	enum { N = 3000 };
	static u64 addrs[N];
	static char data[N * 48];
	uint64_t rng = 12345;
	struct frec_kallsyms k;
	struct frec_err err;
	char got[128], want[128];
	size_t len = 0;
	unsigned int i, j, iter, failures = 0;

	for (i = 0; i < N; i++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		/* clustered addresses, some equal (aliases) */
		addrs[i] = 0xffffffff81000000ULL + (rng % 40000) * 16;
		len += (size_t)sprintf(data + len, "%016llx t s%u\n",
				       (unsigned long long)addrs[i], i);
	}
	HT_EXPECT_EQ(c, frec_kallsyms_parse(&k, data, len, &err), 0);
	for (iter = 0; iter < 20000 && failures < 5; iter++) {
		u64 a, best = 0, next = 0;
		int bi = -1, n;

		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		a = 0xffffffff81000000ULL - 64 + rng % (40000 * 16 + 128);
		for (j = 0; j < N; j++)		/* first of the highest <= a */
			if (addrs[j] <= a && (bi < 0 || addrs[j] > best))
				bi = (int)j, best = addrs[j];
		for (j = 0; j < N; j++)
			if (addrs[j] > best && (!next || addrs[j] < next))
				next = addrs[j];
		if (bi < 0 || (!next && a != best))
			snprintf(want, sizeof(want), "-");
		else
			snprintf(want, sizeof(want), "s%d+0x%llx/0x%llx", bi,
				 (unsigned long long)(a - best),
				 (unsigned long long)(next ? next - best : 0));
		n = frec_kallsyms_symbol(&k, got, sizeof(got), a, 'S');
		if (n < 0)
			strcpy(got, "-");
		if (strcmp(got, want)) {
			failures++;
			HT_EXPECT(c, 0, "%#llx: \"%s\", expected \"%s\"",
				  (unsigned long long)a, got, want);
		}
	}
	frec_kallsyms_free(&k);
}

/* ---- the raw reader ---------------------------------------------------- */

/* make_bad.py builds dumps from these sizes and offsets. */
static void raw_layout_is_what_the_test_data_assumes(struct ht_case *c)
{
	HT_EXPECT_EQ(c, sizeof(struct frec_raw_header), 48);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_header, byte_order), 8);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_header, word_bytes), 24);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_header, clock), 32);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_header, flags), 28);
	HT_EXPECT_EQ(c, sizeof(struct frec_raw_ring), 56);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_ring, order), 16);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_ring, name), 24);
	HT_EXPECT_EQ(c, sizeof(struct frec_raw_record), 88);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_record, ring), 40);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_record, cpu), 44);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_record, len), 48);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_record, args), 56);
	HT_EXPECT_EQ(c, sizeof(struct frec_raw_clock), 48);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_clock, offset), 8);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_clock, flags), 24);
	HT_EXPECT_EQ(c, offsetof(struct frec_raw_clock, trace_clock), 32);
}

/* A small dump in memory: header, ring 7 "events", then events. */
struct dump {
	unsigned char bytes[8192];
	size_t len;
};

static void dump_put(struct dump *d, const void *p, size_t n)
{
	if (n > sizeof(d->bytes) - d->len)
		abort();	/* a test's dump outgrew the buffer */
	memcpy(d->bytes + d->len, p, n);
	d->len += n;
}

/*
 * The version the dumps here are written in: most cases are of a dump
 * from before contexts (a dump an older frec wrote still decodes the
 * same); the context cases set FREC_RAW_VERSION.
 */
static unsigned int dump_version = FREC_RAW_VERSION_OLDEST;

/* Header with @flags, then ring 7 "events" numbering its records by @order. */
static void dump_header_as(struct dump *d, unsigned int flags, unsigned int order)
{
	struct frec_raw_header h = {
		.magic = FREC_RAW_MAGIC, .byte_order = FREC_RAW_BYTE_ORDER,
		.version = dump_version, .header_bytes = sizeof(h),
		.slot_bytes = FREC_SLOT_BYTES, .word_bytes = 8,
		.flags = flags, .clock = "local",
	};
	struct frec_raw_ring r = {
		.head = { FREC_RAW_RING, sizeof(r) }, .id = 7, .order = order,
		.name = "events",
	};

	d->len = 0;
	dump_put(d, &h, sizeof(h));
	dump_put(d, &r, sizeof(r));
}

static void dump_header(struct dump *d)
{
	dump_header_as(d, FREC_RAW_CLOCK_SYNCED, FREC_RING_ORDER_CPU);
}

/* The clock entry, after the header: ftrace's clock and the tick. */
static void dump_clock(struct dump *d, u32 tick_ns)
{
	struct frec_raw_clock k = {
		.head = { FREC_RAW_CLOCK, sizeof(k) }, .offset = -3100000,
		.window = 120, .flags = FREC_RAW_CLOCK_OFFSET_CONSTANT,
		.tick_ns = tick_ns, .trace_clock = FREC_RAW_TRACE_CLOCK_NAME,
	};

	dump_put(d, &k, sizeof(k));
}

static void dump_event(struct dump *d, u64 seq, u64 ts, u64 site, u64 caller,
		       unsigned int cpu, u64 a0, u64 a1)
{
	struct frec_raw_record r = {
		.head = { FREC_RAW_EVENT, sizeof(r) }, .seq = seq, .ts = ts,
		.site = site, .caller = caller, .ring = 7, .cpu = cpu,
		.args = { a0, a1 },
	};

	dump_put(d, &r, sizeof(r));
}

static void dump_text(struct dump *d, u64 seq, u64 ts, u64 site, u64 caller,
		      unsigned int cpu, const char *text)
{
	static const char pad[8];
	size_t len = strlen(text);
	struct frec_raw_record r = {
		.head = { FREC_RAW_TEXT, (__u32)((sizeof(r) + len + 7) & ~(size_t)7) },
		.seq = seq, .ts = ts, .site = site, .caller = caller, .ring = 7,
		.cpu = cpu, .len = (__u32)len,
	};

	dump_put(d, &r, sizeof(r));
	dump_put(d, text, len);
	dump_put(d, pad, r.head.bytes - sizeof(r) - len);
}

static void raw_reader_reads_and_swaps(struct ht_case *c)
{
	struct frec_raw_reader r;
	struct frec_raw_item item;
	struct frec_err err;
	struct dump d;
	FILE *f;
	size_t i;

	dump_header(&d);
	dump_event(&d, 5, 1000, 0x1000, 0x20, 3, 42, 0xff);
	f = fmemopen(d.bytes, d.len, "rb");
	HT_EXPECT_EQ(c, frec_raw_open(&r, f, &err), 0);
	HT_EXPECT(c, !r.swap && !strcmp(r.clock, "local"), "clock %s", r.clock);
	HT_EXPECT_EQ(c, frec_raw_next(&r, &item, &err), 1);
	HT_EXPECT(c, item.type == FREC_RAW_RING && item.ring_id == 7 &&
		  item.ring_order == FREC_RING_ORDER_CPU &&
		  !strcmp(item.ring_name, "events") && item.offset == 48, "ring");
	HT_EXPECT_EQ(c, frec_raw_next(&r, &item, &err), 1);
	HT_EXPECT(c, item.type == FREC_RAW_EVENT && item.rec.seq == 5 &&
		  item.rec.cpu == 3 && item.rec.args[1] == 0xff && item.offset == 104,
		  "event");
	HT_EXPECT_EQ(c, frec_raw_next(&r, &item, &err), 0);
	frec_raw_close(&r);
	fclose(f);

	/* the same dump in the other byte order: swap each field */
	{
		__u32 *w32;
		u64 *w64;

		for (i = 8; i < 32; i += 4) {
			w32 = (__u32 *)(d.bytes + i);
			*w32 = __builtin_bswap32(*w32);
		}
		for (i = 48; i < 72; i += 4) {
			w32 = (__u32 *)(d.bytes + i);
			*w32 = __builtin_bswap32(*w32);
		}
		for (i = 104; i < 112; i += 4) {
			w32 = (__u32 *)(d.bytes + i);
			*w32 = __builtin_bswap32(*w32);
		}
		for (i = 112; i < 144; i += 8) {
			w64 = (u64 *)(d.bytes + i);
			*w64 = __builtin_bswap64(*w64);
		}
		for (i = 144; i < 160; i += 4) {
			w32 = (__u32 *)(d.bytes + i);
			*w32 = __builtin_bswap32(*w32);
		}
		for (i = 160; i < 192; i += 8) {
			w64 = (u64 *)(d.bytes + i);
			*w64 = __builtin_bswap64(*w64);
		}
	}
	f = fmemopen(d.bytes, d.len, "rb");
	HT_EXPECT_EQ(c, frec_raw_open(&r, f, &err), 0);
	HT_EXPECT(c, r.swap && r.flags == FREC_RAW_CLOCK_SYNCED, "swap");
	HT_EXPECT_EQ(c, frec_raw_next(&r, &item, &err), 1);
	HT_EXPECT(c, item.ring_id == 7, "swapped ring id %u", item.ring_id);
	HT_EXPECT_EQ(c, frec_raw_next(&r, &item, &err), 1);
	HT_EXPECT(c, item.rec.seq == 5 && item.rec.ts == 1000 && item.rec.site == 0x1000 &&
		  item.rec.cpu == 3 && item.rec.ring == 7 && item.rec.args[0] == 42 &&
		  item.rec.args[1] == 0xff, "swapped event seq %llu",
		  (unsigned long long)item.rec.seq);
	frec_raw_close(&r);
	fclose(f);
}

/* ---- the decoder -------------------------------------------------------- */

/* A decoding run: its output, messages, exit code, records it kept. */
struct run {
	char out[8192];
	char errs[2048];
	int ret;
	size_t kept;
};

/*
 * The decoder's tables: formats at kernel addresses (site words below
 * FREC_SITE_ID_LIMIT are site ids), and sites whose first callers are
 * named otherwise than kallsyms would (site 1, as if its module had
 * moved) or alike (site 2, 4).
 */
#define F(x)	(0xffffffffc0000000ULL | (x))

static const char dec_formats[] =
	"0xffffffffc0001000 : \"irq %d status %#lx\"\n"
	"0xffffffffc0002000 : \"hello world\"\n"
	"0xffffffffc0002006 : \"world\"\n"
	"0xffffffffc0005000 : \"bad %y\"\n"
	"0xffffffffc0006000 : symbol \"gone_fn+0x0/0x10 [gone]\"\n";

static const char dec_sites[] =
	"1 info 10 \"frec_hanoi\" \"hanoi.c\" \"hanoi_move\" 0xffffffffc0a00015 "
	"\"hanoi_move+0x15/0x80 [frec_hanoi]\" \"disk %u to %c\"\n"
	"2 warn 20 \"\" \"irq.c\" \"handle\" 0xffffffff81000110 \"do_work+0x10/0x80\" "
	"\"at %pS (%ps)\"\n"
	"3 err 30 \"\" \"x.c\" \"bad\" 0x0 \"\" \"bad %y\"\n"
	"4 info 40 \"m\" \"t.c\" \"log\" 0xffffffff81000120 \"do_work+0x20/0x80\" \"%s\"\n";

/* Decode @d with the decoder's tables, kallsyms too if @with_kallsyms. */
static void run_once(struct run *run, const struct dump *d,
		     const struct frec_decode_opts *opts, bool with_kallsyms)
{
	struct frec_formats formats;
	struct frec_sites sites;
	struct frec_kallsyms kallsyms;
	static struct frec_decoder dec;
	struct frec_err err;
	FILE *in, *out, *errs;

	if (frec_formats_parse(&formats, dec_formats, strlen(dec_formats), &err) ||
	    frec_sites_parse(&sites, dec_sites, strlen(dec_sites), &err) ||
	    frec_kallsyms_parse(&kallsyms, small_kallsyms, strlen(small_kallsyms), &err))
		abort();
	memset(run, 0, sizeof(*run));
	in = fmemopen((void *)d->bytes, d->len, "rb");
	out = fmemopen(run->out, sizeof(run->out) - 1, "w");
	errs = fmemopen(run->errs, sizeof(run->errs) - 1, "w");
	frec_decoder_init(&dec, opts, &formats, &sites, with_kallsyms ? &kallsyms : NULL,
			  out, errs);
	run->ret = frec_decode_stream(&dec, in, "mem");
	run->kept = dec.nr_stored;
	frec_decoder_free(&dec);
	fclose(in);
	fclose(out);
	fclose(errs);
	frec_formats_free(&formats);
	frec_sites_free(&sites);
	frec_kallsyms_free(&kallsyms);
}

/*
 * Decode @d twice: kept whole and merged, as a pipe is, and read twice,
 * as a file is (the run @run reports); both must print the same.
 */
static void run_decoder_with(struct ht_case *c, struct run *run, const struct dump *d,
			     const struct frec_decode_opts *opts, bool with_kallsyms)
{
	static struct run kept;
	struct frec_decode_opts o = *opts;

	o.reread = false;
	run_once(&kept, d, &o, with_kallsyms);
	o.reread = true;
	run_once(run, d, &o, with_kallsyms);
	HT_EXPECT(c, kept.ret == run->ret && !strcmp(kept.out, run->out) &&
		  !strcmp(kept.errs, run->errs),
		  "kept and merged: exit %d, errs:\n%s\nout:\n%s\nread twice: exit %d, "
		  "errs:\n%s\nout:\n%s", kept.ret, kept.errs, kept.out, run->ret,
		  run->errs, run->out);
}

static void run_decoder(struct ht_case *c, struct run *run, const struct dump *d,
			const struct frec_decode_opts *opts)
{
	run_decoder_with(c, run, d, opts, true);
}

static const struct frec_decode_opts all = { 0 };

static void decoder_prints_the_dump(struct ht_case *c)
{
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 1, 12027638123ULL, F(0x1000), 0xffffffff81000110ULL, 1, (u64)-3, 255);
	dump_event(&d, 2, 12027638200ULL, F(0x2006), 0xffffffffc0a00005ULL, 0, 0, 0);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, !strcmp(run.out,
		"# frec dump: clock=local order=time\n"
		"# seq [seconds] cpu ring: caller message\n"
		"1 [   12.027638123] cpu1 events: do_work+0x10/0x80 irq -3 status 0xff\n"
		"2 [   12.027638200] cpu0 events: frec_fn+0x5/0x100 [frec] world\n"),
		"got:\n%s", run.out);
	HT_EXPECT(c, !run.errs[0], "errs: %s", run.errs);
}

/* A dump of version 4: each line names where its record was made. */
static void decoder_prints_contexts(struct ht_case *c)
{
	static const u32 contexts[] = {
		1234, 0, FREC_CTX_PID_MASK,
		57 | FREC_CTX_SOFTIRQ << FREC_CTX_KIND_SHIFT,
		57 | FREC_CTX_HARDIRQ << FREC_CTX_KIND_SHIFT,
		FREC_CTX_NMI << FREC_CTX_KIND_SHIFT,
	};
	struct frec_raw_record *r;
	struct dump d;
	struct run run;
	size_t i, at;

	dump_version = FREC_RAW_VERSION;
	dump_header(&d);
	for (i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++) {
		at = d.len;
		dump_event(&d, i + 1, 10 * (i + 1), F(0x2006), 0xffffffffc0a00005ULL, 0, 0, 0);
		r = (struct frec_raw_record *)(d.bytes + at);
		r->context = contexts[i];
	}
	dump_version = FREC_RAW_VERSION_OLDEST;
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, !strcmp(run.out,
		"# frec dump: clock=local order=time\n"
		"# seq [seconds] cpu context ring: caller message\n"
		"1 [    0.000000010] cpu0 T1234 events: frec_fn+0x5/0x100 [frec] world\n"
		"2 [    0.000000020] cpu0 T0 events: frec_fn+0x5/0x100 [frec] world\n"
		"3 [    0.000000030] cpu0 T4194303 events: frec_fn+0x5/0x100 [frec] world\n"
		"4 [    0.000000040] cpu0 softirq events: frec_fn+0x5/0x100 [frec] world\n"
		"5 [    0.000000050] cpu0 hardirq events: frec_fn+0x5/0x100 [frec] world\n"
		"6 [    0.000000060] cpu0 nmi events: frec_fn+0x5/0x100 [frec] world\n"),
		"got:\n%s", run.out);
	HT_EXPECT(c, !run.errs[0], "errs: %s", run.errs);
}

static void decoder_reports_bad_and_missing_formats_once(struct ht_case *c)
{
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 1, 10, F(0x5000), 0x20, 0, 0, 0);	/* offset 104 */
	dump_event(&d, 2, 20, F(0x5000), 0x20, 0, 0, 0);
	dump_event(&d, 3, 30, F(0x9999), 0x20, 0, 1, 2);	/* offset 280 */
	dump_event(&d, 4, 40, F(0x9999), 0x20, 0, 3, 4);
	dump_event(&d, 5, 50, F(0x1004), 0x20, 0, 7, 8);	/* inside a format */
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_WARNINGS);
	HT_EXPECT(c, strstr(run.out,
		"1 [    0.000000010] cpu0 events: 0x20 bad [bad format at byte 4]\n"
		"2 [    0.000000020] cpu0 events: 0x20 bad [bad format at byte 4]\n"
		"3 [    0.000000030] cpu0 events: 0x20 "
		"[format 0xffffffffc0009999 missing; args 0x1 0x2 0x0 0x0]\n"
		"4 [    0.000000040] cpu0 events: 0x20 "
		"[format 0xffffffffc0009999 missing; args 0x3 0x4 0x0 0x0]\n"
		"5 [    0.000000050] cpu0 events: 0x20 7 status 0x8\n"),
		"got:\n%s", run.out);
	HT_EXPECT(c, !strcmp(run.errs,
		"frec-decode: mem: offset 104: format 0xffffffffc0005000: bad format at byte 4\n"
		"frec-decode: mem: offset 280: format 0xffffffffc0009999 is not in the formats file\n"),
		"errs: %s", run.errs);

	dump_header(&d);
	dump_event(&d, 1, 10, F(0x1000), 0x20, 0, 0, 0);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
}

/*
 * A site id names the event's format; a caller that is a site's first
 * caller is named by that site, kallsyms or not ('S' only: %ps is not
 * the caller's form); a name saved in the formats file comes next, then
 * kallsyms.
 */
static void decoder_formats_and_callers_from_sites(struct ht_case *c)
{
	static const char head[] =
		"# frec dump: clock=local order=time\n"
		"# seq [seconds] cpu ring: caller message\n";
	static const char lines[] =
		"1 [    0.000000010] cpu0 events: hanoi_move+0x15/0x80 [frec_hanoi] disk 3 to C\n"
		"2 [    0.000000020] cpu0 events: do_work+0x10/0x80 at do_work+0x10/0x80 (%s)\n"
		"3 [    0.000000030] cpu0 events: do_work+0x20/0x80 disk 4 to D\n"
		"4 [    0.000000040] cpu0 events: %s disk 5 to E\n"
		"5 [    0.000000050] cpu0 events: gone_fn+0x0/0x10 [gone] disk 6 to F\n"
		"6 [    0.000000060] cpu0 events: do_work+0x20/0x80 a text %%d\n"
		"7 [    0.000000070] cpu0 events: hanoi_move+0x15/0x80 [frec_hanoi] irq 1 status 0x2\n"
		"8 [    0.000000080] cpu0 events: 0x0 not its site's text\n";
	char want[2048];
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 1, 10, 1, 0xffffffffc0a00015ULL, 0, 3, 'C');
	dump_event(&d, 2, 20, 2, 0xffffffff81000110ULL, 0, 0xffffffff81000110ULL,
		   0xffffffff81000110ULL);
	dump_event(&d, 3, 30, 1, 0xffffffff81000120ULL, 0, 4, 'D');	/* site 4's */
	dump_event(&d, 4, 40, 1, 0xffffffffc0a00016ULL, 0, 5, 'E');	/* no site's */
	dump_event(&d, 5, 50, 1, F(0x6000), 0, 6, 'F');		/* saved */
	dump_text(&d, 6, 60, 4, 0xffffffff81000120ULL, 0, "a text %d");
	dump_event(&d, 7, 70, F(0x1000), 0xffffffffc0a00015ULL, 0, 1, 2);
	dump_text(&d, 8, 80, 77, 0, 0, "not its site's text");	/* unknown: no matter */
	run_decoder_with(c, &run, &d, &all, false);
	strcpy(want, head);
	snprintf(want + strlen(head), sizeof(want) - strlen(head), lines,
		 "0xffffffff81000110", "0xffffffffc0a00016");
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, !strcmp(run.out, want), "without kallsyms, got:\n%s", run.out);
	HT_EXPECT(c, !run.errs[0], "errs: %s", run.errs);

	/* with kallsyms: the sites' names still come first */
	run_decoder(c, &run, &d, &all);
	snprintf(want + strlen(head), sizeof(want) - strlen(head), lines,
		 "do_work", "frec_fn+0x16/0x100 [frec]");
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, !strcmp(run.out, want), "with kallsyms, got:\n%s", run.out);
}

/* An unknown site id is reported as a missing format is; a bad one once. */
static void decoder_reports_unknown_and_bad_sites_once(struct ht_case *c)
{
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 1, 10, 9, 0x20, 0, 1, 2);	/* offset 104 */
	dump_event(&d, 2, 20, 9, 0x20, 0, 3, 4);
	dump_event(&d, 3, 30, 3, 0x20, 0, 0, 0);	/* offset 280 */
	dump_event(&d, 4, 40, 3, 0x20, 0, 0, 0);
	dump_event(&d, 5, 50, 0, 0x20, 0, 0, 0);	/* offset 456: ids start at 1 */
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_WARNINGS);
	HT_EXPECT(c, strstr(run.out,
		"1 [    0.000000010] cpu0 events: 0x20 [format 0x9 missing; args 0x1 0x2 0x0 0x0]\n"
		"2 [    0.000000020] cpu0 events: 0x20 [format 0x9 missing; args 0x3 0x4 0x0 0x0]\n"
		"3 [    0.000000030] cpu0 events: 0x20 bad [bad format at byte 4]\n"
		"4 [    0.000000040] cpu0 events: 0x20 bad [bad format at byte 4]\n"
		"5 [    0.000000050] cpu0 events: 0x20 [format 0x0 missing; args 0x0 0x0 0x0 0x0]\n"),
		"got:\n%s", run.out);
	HT_EXPECT(c, !strcmp(run.errs,
		"frec-decode: mem: offset 104: site 9 is not in the sites file\n"
		"frec-decode: mem: offset 280: site 3: bad format at byte 4\n"
		"frec-decode: mem: offset 456: site 0 is not in the sites file\n"),
		"errs: %s", run.errs);
}

static void decoder_json_slices_and_unmatched_ends(struct ht_case *c)
{
	static const char fmts[] = "0xffffffffc0000010 : \"> work %d\"\n"
				   "0xffffffffc0000020 : \"< work %d\"\n";
	struct frec_decode_opts opts = all;
	struct frec_formats formats;
	static struct frec_decoder dec;
	struct frec_err err;
	struct dump d;
	struct run run;
	FILE *in, *out;

	dump_header(&d);
	dump_event(&d, 1, 1000, F(0x20), 0, 0, 1, 0);	/* an end with no begin */
	dump_event(&d, 2, 2000, F(0x10), 0, 0, 2, 0);
	dump_event(&d, 3, 3000, F(0x20), 0, 0, 2, 0);
	opts.output = FREC_OUT_JSON;
	frec_formats_parse(&formats, fmts, strlen(fmts), &err);
	memset(&run, 0, sizeof(run));
	in = fmemopen(d.bytes, d.len, "rb");
	out = fmemopen(run.out, sizeof(run.out) - 1, "w");
	frec_decoder_init(&dec, &opts, &formats, NULL, NULL, out, NULL);
	run.ret = frec_decode_stream(&dec, in, "mem");
	frec_decoder_free(&dec);
	fclose(in);
	fclose(out);
	frec_formats_free(&formats);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, strstr(run.out, "{\"name\":\"< work 1\",\"cat\":\"events\",\"ph\":\"i\","
			    "\"s\":\"t\",\"ts\":1.000,") &&
		  strstr(run.out, "\"unmatched_end\":true") &&
		  strstr(run.out, "{\"name\":\"work 2\",\"cat\":\"events\",\"ph\":\"B\",\"ts\":2.000,") &&
		  strstr(run.out, "{\"name\":\"work 2\",\"cat\":\"events\",\"ph\":\"E\",\"ts\":3.000,") &&
		  strstr(run.out, "\"tid\":100000,\"args\":{\"name\":\"cpu0\"}"),
		  "got:\n%s", run.out);
}

/* The decoder's filter: the module's language, from its own parser. */
static void use_filter(struct frec_decode_opts *opts, const char *line)
{
	static struct frec_filter f;

	if (frec_filter_parse(&f, line, NULL, NULL, 0))
		abort();
	opts->filter = &f;
}

static void decoder_deltas_and_filters(struct ht_case *c)
{
	struct frec_decode_opts opts = all;
	struct dump d;
	struct run run;

	/* merged by seq (global-order rings), a CPU's clock may be behind */
	dump_header_as(&d, FREC_RAW_MERGE_BY_SEQ, FREC_RING_ORDER_GLOBAL);
	dump_event(&d, 1, 5000000000ULL, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 2, 4999999999ULL, F(0x2000), 0, 1, 0, 0);
	dump_event(&d, 3, 6500000000ULL, F(0x2000), 0, 2, 0, 0);
	opts.deltas = true;
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT(c, strstr(run.out, "# frec dump: clock=local order=global\n"
			    "# seq [seconds] cpu ring: caller message\n"
			    "# +delta: time since the previous line\n"
			    "+0.000000000 1 [    5.000000000] cpu0 events: 0x0 hello world\n"
			    "-0.000000001 2 [    4.999999999] cpu1 events: 0x0 hello world\n"
			    "+1.500000001 3 [    6.500000000] cpu2 events: 0x0 hello world\n"),
		  "got:\n%s", run.out);
	/* merged by time, the same records come in timestamp order */
	dump_header_as(&d, 0, FREC_RING_ORDER_CPU);
	dump_event(&d, 1, 5000000000ULL, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 2, 4999999999ULL, F(0x2000), 0, 1, 0, 0);
	dump_event(&d, 3, 6500000000ULL, F(0x2000), 0, 2, 0, 0);
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT(c, !strcmp(run.out, "# frec dump: clock=local order=time-approximate\n"
			     "# seq [seconds] cpu ring: caller message\n"
			     "# +delta: time since the previous line\n"
			     "+0.000000000 2 [    4.999999999] cpu1 events: 0x0 hello world\n"
			     "+0.000000001 1 [    5.000000000] cpu0 events: 0x0 hello world\n"
			     "+1.500000000 3 [    6.500000000] cpu2 events: 0x0 hello world\n"),
		  "got:\n%s", run.out);
	opts.deltas = false;
	use_filter(&opts, "cpu=1-2 time=5-");
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT(c, !strstr(run.out, "cpu0") && !strstr(run.out, "cpu1") &&
		  strstr(run.out, "cpu2"), "got:\n%s", run.out);
	use_filter(&opts, "ring=oth*");
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT(c, !strstr(run.out, "events:"), "got:\n%s", run.out);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	use_filter(&opts, "ring=ev?nts seq=2");
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT(c, strstr(run.out, "\n2 [") && !strstr(run.out, "\n1 [") &&
		  !strstr(run.out, "\n3 ["), "got:\n%s", run.out);
}

/* text= finds its text in the line the dump prints, for every output. */
static void decoder_text_filter_reads_the_line(struct ht_case *c)
{
	struct frec_decode_opts opts = all;
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 1, 12027638123ULL, F(0x1000), 0xffffffff81000110ULL, 1, (u64)-3, 255);
	dump_event(&d, 2, 12027638200ULL, F(0x2006), 0xffffffffc0a00005ULL, 0, 0, 0);
	dump_event(&d, 3, 12027638300ULL, F(0x1000), 0xffffffff81000110ULL, 1, 4, 255);
	use_filter(&opts, "text=cpu1 events: do_work+0x10/0x80 irq -3");
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, !strcmp(run.out,
		"# frec dump: clock=local order=time\n"
		"# seq [seconds] cpu ring: caller message\n"
		"1 [   12.027638123] cpu1 events: do_work+0x10/0x80 irq -3 status 0xff\n"),
		"got:\n%s", run.out);
	opts.output = FREC_OUT_CSV;
	opts.deltas = true;
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT(c, strstr(run.out, "\n1,12027638123,0,1,,events,") &&
		  !strstr(run.out, "\n2,") && !strstr(run.out, "\n3,"), "got:\n%s", run.out);
}

/* A ring name without wildcards must be a ring of the dump, as in the module. */
static void decoder_filter_ring_must_exist(struct ht_case *c)
{
	struct frec_decode_opts opts = all;
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 1, 10, F(0x2000), 0, 0, 0, 0);
	use_filter(&opts, "ring=nosuch,events");
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_USAGE);
	HT_EXPECT(c, !strcmp(run.errs, "frec-decode: mem: filter: ring=nosuch,events: "
			     "no ring named nosuch in the dump\n"), "errs: %s", run.errs);
	HT_EXPECT(c, strstr(run.out, "\n1 [    0.000000010] cpu0 events: 0x0 hello world\n"),
		  "the rings that are there still print; got:\n%s", run.out);
	use_filter(&opts, "ring=nosuch*,events");
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, !run.errs[0], "errs: %s", run.errs);
}

/* The dump's order is not trusted: sources are merged as the module merges. */
static void decoder_merges_whatever_the_dump_order(struct ht_case *c)
{
	struct dump d;
	struct run run;

	dump_header(&d);
	/* all of CPU 1, then all of CPU 0: the module would interleave them */
	dump_event(&d, 1, 20, F(0x2000), 0, 1, 0, 0);
	dump_event(&d, 2, 40, F(0x2000), 0, 1, 0, 0);
	dump_event(&d, 1, 10, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 2, 30, F(0x2000), 0, 0, 0, 0);
	/* a tie on the timestamp goes to the lower CPU */
	dump_event(&d, 3, 40, F(0x2000), 0, 0, 0, 0);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, !strcmp(run.out,
		"# frec dump: clock=local order=time\n"
		"# seq [seconds] cpu ring: caller message\n"
		"1 [    0.000000010] cpu0 events: 0x0 hello world\n"
		"1 [    0.000000020] cpu1 events: 0x0 hello world\n"
		"2 [    0.000000030] cpu0 events: 0x0 hello world\n"
		"3 [    0.000000040] cpu0 events: 0x0 hello world\n"
		"2 [    0.000000040] cpu1 events: 0x0 hello world\n"),
		"got:\n%s", run.out);
	HT_EXPECT(c, !run.errs[0], "errs: %s", run.errs);
	HT_EXPECT_EQ(c, run.kept, 5);	/* read twice: found out of order, merged */
}

/*
 * A dump that can be read twice is printed as it is read the second time
 * if the first found it in the merged order, which is not the order of
 * the keys where a source's seq steps back, and not otherwise: a record
 * that belongs before one printed since its source's previous record.
 */
static void decoder_prints_a_dump_in_order_as_it_reads_it(struct ht_case *c)
{
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 1, 10, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 1, 20, F(0x2000), 0, 1, 0, 0);
	dump_event(&d, 2, 20, F(0x2000), 0, 1, 0, 0);	/* after its own */
	dump_event(&d, 1, 30, F(0x2000), 0, 2, 0, 0);	/* a late CPU, in place */
	dump_event(&d, 2, 40, F(0x2000), 0, 0, 0, 0);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT(c, run.ret == FREC_EXIT_OK && !run.kept, "exit %d, kept %zu",
		  run.ret, run.kept);

	/* merged by seq, cpu0's seq 5 interrupted by its seq 6: still in order */
	dump_header_as(&d, FREC_RAW_MERGE_BY_SEQ, FREC_RING_ORDER_GLOBAL);
	dump_event(&d, 4, 10, F(0x2000), 0, 1, 0, 0);
	dump_event(&d, 6, 20, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 5, 30, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 7, 40, F(0x2000), 0, 1, 0, 0);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT(c, run.ret == FREC_EXIT_OK && !run.kept && strstr(run.out,
		"\n4 [    0.000000010] cpu1 events: 0x0 hello world\n"
		"6 [    0.000000020] cpu0 events: 0x0 hello world\n"
		"5 [    0.000000030] cpu0 events: 0x0 hello world\n"
		"7 [    0.000000040] cpu1 events: 0x0 hello world\n"),
		"exit %d, kept %zu, got:\n%s", run.ret, run.kept, run.out);

	/* cpu1's 2 belongs before cpu0's 3, printed since cpu1's 1 */
	dump_header(&d);
	dump_event(&d, 1, 10, F(0x2000), 0, 1, 0, 0);
	dump_event(&d, 2, 20, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 3, 40, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 2, 30, F(0x2000), 0, 1, 0, 0);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT(c, run.ret == FREC_EXIT_OK && run.kept == 4 && strstr(run.out,
		"\n1 [    0.000000010] cpu1 events: 0x0 hello world\n"
		"2 [    0.000000020] cpu0 events: 0x0 hello world\n"
		"2 [    0.000000030] cpu1 events: 0x0 hello world\n"
		"3 [    0.000000040] cpu0 events: 0x0 hello world\n"),
		"exit %d, kept %zu, got:\n%s", run.ret, run.kept, run.out);
}

static uint64_t test_rnd(uint64_t *rng)
{
	*rng ^= *rng << 13;
	*rng ^= *rng >> 7;
	*rng ^= *rng << 17;
	return *rng;
}

/*
 * Random dumps, by time and by seq, with ties and seqs that step back,
 * listed in the merged order (frec_merge.c's) or interleaved at random:
 * read twice or kept and merged, they print the same (run_decoder()
 * checks), and one in the merged order is never kept.
 */
static void decoder_reads_twice_as_it_merges(struct ht_case *c)
{
	enum { SOURCES = 5, PER = 12 };
	static struct dump d;
	struct frec_raw_record recs[SOURCES][PER];
	struct frec_merge_item items[SOURCES];
	struct frec_merge_key key;
	struct frec_merge m;
	unsigned int nr[SOURCES], next[SOURCES], s, i, n, iter, left, src;
	uint64_t rng = 0x9e3779b97f4a7c15ULL, seq;
	struct run run;

	for (iter = 0; iter < 400; iter++) {
		bool global = iter % 3 == 0, merged = iter % 2;
		unsigned int nr_src = 1 + test_rnd(&rng) % SOURCES;

		dump_header_as(&d, global ? FREC_RAW_MERGE_BY_SEQ : FREC_RAW_CLOCK_SYNCED,
			       global ? FREC_RING_ORDER_GLOBAL : FREC_RING_ORDER_CPU);
		for (s = 0, seq = 1, left = 0; s < nr_src; s++) {
			u64 ts = test_rnd(&rng) % 4;

			nr[s] = 1 + test_rnd(&rng) % PER;
			left += nr[s];
			for (i = 0; i < nr[s]; i++) {
				ts += test_rnd(&rng) % 3;	/* ties, within and across CPUs */
				recs[s][i] = (struct frec_raw_record){
					.head = { FREC_RAW_EVENT, sizeof(recs[s][i]) },
					.seq = global ? seq + s + nr_src * i : 1 + i, .ts = ts,
					.site = F(0x2000), .ring = 7, .cpu = s,
				};
			}
			/* now and then an interrupted writer: seqs step back */
			for (i = 1; i < nr[s]; i++)
				if (!(test_rnd(&rng) % 5)) {
					seq = recs[s][i].seq;
					recs[s][i].seq = recs[s][i - 1].seq;
					recs[s][i - 1].seq = seq;
				}
			seq = 1;
		}
		frec_merge_init(&m, items, SOURCES, global);
		for (s = 0; s < nr_src; s++) {
			next[s] = 0;
			key = (struct frec_merge_key){ recs[s][0].ts, recs[s][0].seq, s, 7 };
			frec_merge_push(&m, s, &key);
		}
		for (n = 0; n < left; n++) {
			if (merged) {
				frec_merge_pop(&m, &src);
			} else {
				do
					src = (unsigned int)(test_rnd(&rng) % nr_src);
				while (next[src] == nr[src]);
			}
			dump_put(&d, &recs[src][next[src]], sizeof(recs[src][0]));
			if (++next[src] < nr[src] && merged) {
				i = next[src];
				key = (struct frec_merge_key){ recs[src][i].ts, recs[src][i].seq,
							       src, 7 };
				frec_merge_push(&m, src, &key);
			}
		}
		run_decoder(c, &run, &d, &all);
		HT_EXPECT(c, run.ret == FREC_EXIT_OK && (!merged || !run.kept),
			  "iteration %u: exit %d, kept %zu of a dump in the merged order; %s",
			  iter, run.ret, run.kept, run.errs);
	}
}

/*
 * Within one (ring, CPU) timestamps never go back and a seq does not
 * repeat; seqs may step back (an interrupted writer's); across CPUs they
 * repeat.
 */
static void decoder_checks_seq_per_ring_and_cpu(struct ht_case *c)
{
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 7, 10, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 7, 20, F(0x2000), 0, 1, 0, 0);	/* another CPU: fine */
	dump_event(&d, 6, 30, F(0x2000), 0, 0, 0, 0);	/* seq back, time on: fine */
	dump_event(&d, 8, 25, F(0x2000), 0, 0, 0, 0);	/* offset 368: time back */
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_INPUT);
	HT_EXPECT(c, !strcmp(run.errs, "frec-decode: mem: offset 384: timestamp 25 after 30 "
			     "of ring 7 on cpu 0: records out of order\n"), "errs: %s", run.errs);
	/* what was read before the error is printed, merged */
	HT_EXPECT(c, strstr(run.out, "\n7 [    0.000000010] cpu0 events: ") &&
		  strstr(run.out, "\n7 [    0.000000020] cpu1 events: "), "got:\n%s", run.out);

	dump_header(&d);
	dump_event(&d, 0, 10, F(0x2000), 0, 0, 0, 0);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_INPUT);
	HT_EXPECT(c, !strcmp(run.errs, "frec-decode: mem: offset 112: seq 0: seqs start at 1\n"),
		  "errs: %s", run.errs);

	/* merged by seq, every ring must number its records globally */
	dump_header_as(&d, FREC_RAW_MERGE_BY_SEQ, FREC_RING_ORDER_CPU);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_INPUT);
	HT_EXPECT(c, !strcmp(run.errs, "frec-decode: mem: offset 64: ring events numbers "
			     "its records per CPU, in a dump merged by seq\n"), "errs: %s", run.errs);
}

/* --stats: per (ring, CPU), records and the seqs that say what was lost. */
static void decoder_stats_prove_losses(struct ht_case *c)
{
	/* 0: an older frec's reserved word, a tick not known */
	static const struct {
		u32 ns;
		const char *line;
	} ticks[] = {
		{ 16, "# frec-decode stats: clock=local order=time tick=16ns\n" },
		{ 0, "# frec-decode stats: clock=local order=time\n" },
	};
	struct frec_decode_opts opts = all;
	struct dump d;
	struct run run;
	size_t i;

	dump_header(&d);
	dump_event(&d, 1, 10, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 2, 20, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 5, 30, F(0x2000), 0, 0, 0, 0);	/* 3 and 4 lost */
	dump_event(&d, 4, 15, F(0x2000), 0, 2, 0, 0);	/* 1 to 3 lost */
	dump_event(&d, 5, 25, F(0x2000), 0, 2, 0, 0);
	opts.stats = true;
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_OK);
	HT_EXPECT(c, !strcmp(run.out,
		"# frec-decode stats: clock=local order=time\n"
		"# ring id cpu records first_seq last_seq missing before\n"
		"events 7 0 3 1 5 2 0\n"
		"events 7 2 2 4 5 0 3\n"
		"# total records 5 missing 2\n"), "got:\n%s", run.out);

	/* a global seq's gaps are other CPUs' records: nothing to prove */
	dump_header_as(&d, FREC_RAW_MERGE_BY_SEQ, FREC_RING_ORDER_GLOBAL);
	dump_event(&d, 1, 10, F(0x2000), 0, 0, 0, 0);
	dump_event(&d, 3, 20, F(0x2000), 0, 0, 0, 0);
	run_decoder(c, &run, &d, &opts);
	HT_EXPECT(c, strstr(run.out, "\nevents 7 0 2 1 3 - -\n# total records 2 missing 0\n"),
		  "got:\n%s", run.out);

	/* the clock's tick, from the clock entry: what a tie across CPUs spans */
	for (i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++) {
		dump_header(&d);
		dump_clock(&d, ticks[i].ns);
		dump_event(&d, 1, 10, F(0x2000), 0, 0, 0, 0);
		run_decoder(c, &run, &d, &opts);
		HT_EXPECT(c, !strncmp(run.out, ticks[i].line, strlen(ticks[i].line)),
			  "tick %u: got:\n%s", ticks[i].ns, run.out);
	}
}

/* Any other raw version is refused, naming both and the offset. */
static void decoder_refuses_other_versions(struct ht_case *c)
{
	struct frec_raw_header *h;
	struct dump d;
	struct run run;

	static const unsigned int versions[] = { 1, 2, 5, 0x03000000 };
	char want[128];
	size_t i;

	for (i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		dump_header(&d);
		dump_event(&d, 1, 10, F(0x2000), 0, 0, 0, 0);
		h = (struct frec_raw_header *)d.bytes;
		h->version = versions[i];
		run_decoder(c, &run, &d, &all);
		HT_EXPECT_EQ(c, run.ret, FREC_EXIT_INPUT);
		snprintf(want, sizeof(want), "frec-decode: mem: offset 12: version %u; "
			 "this frec-decode reads versions 3 to 4\n", versions[i]);
		HT_EXPECT(c, !strcmp(run.errs, want), "errs: %s", run.errs);
		HT_EXPECT(c, !run.out[0], "got:\n%s", run.out);
	}
}

/* The region's checksum is CRC-32C: the standard check value, and chaining. */
static void region_csum_is_crc32c(struct ht_case *c)
{
	u32 crc;

	HT_EXPECT_EQ(c, frec_region_csum("123456789", 9), 0xe3069283U);
	HT_EXPECT_EQ(c, frec_region_csum("", 0), 0);
	crc = frec_region_csum_add(FREC_REGION_CSUM_START, "1234", 4);
	crc = frec_region_csum_add(crc, "56789", 5);
	HT_EXPECT_EQ(c, frec_region_csum_end(crc), 0xe3069283U);
}

/*
 * The layout the builder makes is what the reader accepts; the state
 * copies alternate, the newer wins, a copy of another boot is stale.
 */
static void region_layout_and_state(struct ht_case *c)
{
	static u8 img[16 * FREC_REGION_BLOCK];
	struct frec_region_geometry geo = {
		.region_bytes = sizeof(img), .boot_id = "0123456789abcdef",
		.release = "6.1.0-test", .rings_max = 4, .sites_max = 10,
		.texts_max = 10, .pool_bytes = 100,
	};
	struct frec_region_header *h = (void *)img;
	struct frec_region_state *copies[2] = {
		(void *)(img + FREC_REGION_STATE_OFF(0)),
		(void *)(img + FREC_REGION_STATE_OFF(1)),
	};
	static const struct frec_region_trace_clock none, clock = {
		.trace_offset = -3100000, .window = 120,
		.flags = FREC_REGION_STATE_TRACE_OFFSET | FREC_REGION_STATE_OFFSET_CONSTANT,
	};
	struct frec_region_view v;
	char msg[FREC_REGION_MSG_MAX];
	u64 where;

	HT_EXPECT_EQ(c, frec_region_layout(h, &geo), 0);
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	HT_EXPECT(c, !v.state_ok, "a state before any was written");
	HT_EXPECT_EQ(c, v.sect_off[FREC_REGION_RINGS], FREC_REGION_BLOCK);
	HT_EXPECT_EQ(c, v.nr_entries[FREC_REGION_SITES], 10);
	HT_EXPECT_EQ(c, v.sect_off[FREC_REGION_PARTS] + v.sect_bytes[FREC_REGION_PARTS],
		     sizeof(img));
	frec_region_state_write(copies, h, FREC_REGION_END_NONE, 1, 2, &none);
	frec_region_state_write(copies, h, FREC_REGION_END_OOPS, 3, 4, &clock);
	frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where);
	HT_EXPECT(c, v.state_ok && v.state.end == FREC_REGION_END_OOPS && v.state.gen == 2 &&
		  v.state.alive_wall_ns == 3, "end %u gen %llu", v.state.end,
		  (unsigned long long)v.state.gen);
	HT_EXPECT(c, v.state.clock.trace_offset == clock.trace_offset &&
		  v.state.clock.window == clock.window &&
		  v.state.clock.flags == clock.flags, "trace offset %lld flags %u",
		  (long long)v.state.clock.trace_offset, v.state.clock.flags);
	/* the third write goes to the older copy: a torn one leaves the second */
	frec_region_state_write(copies, h, FREC_REGION_END_PANIC, 5, 6, &none);
	HT_EXPECT_EQ(c, le64toh(copies[0]->gen), 3);
	copies[0]->alive_ts ^= 1;
	frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where);
	HT_EXPECT(c, v.state_ok && v.state.end == FREC_REGION_END_OOPS, "end %u", v.state.end);
	/* a copy of another boot is stale */
	memset(copies[1]->boot_id, 'x', sizeof(copies[1]->boot_id));
	frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where);
	HT_EXPECT(c, !v.state_ok, "a stale copy taken");

	geo.region_bytes = 5 * FREC_REGION_BLOCK;
	HT_EXPECT_EQ(c, frec_region_layout(h, &geo), -EINVAL);
	geo.region_bytes = 6 * FREC_REGION_BLOCK;
	geo.pool_bytes = 2 * FREC_REGION_BLOCK;
	HT_EXPECT_EQ(c, frec_region_layout(h, &geo), -ENOSPC);
	geo.region_bytes = sizeof(img) + 1;
	HT_EXPECT_EQ(c, frec_region_layout(h, &geo), -EINVAL);
}

/*
 * The tables the kernel sizes to its region (frec_region_tables_fit())
 * leave a block of parts in every region from the smallest up, keep a
 * 1 MiB region's tables as they were, and hold every site id a boot gives
 * once the region is large enough.
 */
static void region_tables_fit_every_size(struct ht_case *c)
{
	struct frec_region_geometry geo = { .release = "6.1.0-test" };
	struct frec_region_header h;
	u64 r, parts;

	for (r = FREC_REGION_MIN_BYTES; r <= 64ULL << 20; r += FREC_REGION_BLOCK) {
		geo.region_bytes = r;
		frec_region_tables_fit(&geo, 16384);
		if (frec_region_layout(&h, &geo)) {
			HT_EXPECT(c, 0, "a %llu-byte region does not fit its tables",
				  (unsigned long long)r);
			return;
		}
		parts = le64toh(h.sect[FREC_REGION_PARTS].bytes);
		HT_EXPECT(c, parts >= FREC_REGION_BLOCK && (parts >= r / 4 || r < (128 << 10)),
			  "a %llu-byte region keeps %llu bytes of parts",
			  (unsigned long long)r, (unsigned long long)parts);
		HT_EXPECT(c, geo.sites_max >= 2 && geo.texts_max >= 1, "%llu bytes: no site",
			  (unsigned long long)r);
	}
	geo.region_bytes = 1 << 20;
	frec_region_tables_fit(&geo, 16384);
	HT_EXPECT(c, geo.rings_max == 32 && geo.sites_max == 4096 && geo.texts_max == 4096 &&
		  geo.pool_bytes == 256 * 1024, "1 MiB: %u rings %u sites %u texts %llu pool",
		  geo.rings_max, geo.sites_max, geo.texts_max,
		  (unsigned long long)geo.pool_bytes);
	geo.region_bytes = 8 << 20;
	frec_region_tables_fit(&geo, 16384);
	HT_EXPECT_EQ(c, geo.sites_max, 16385);
	frec_region_tables_fit(&geo, 100);
	HT_EXPECT_EQ(c, geo.sites_max, 101);
}

/*
 * One rule for a ring's name (frec_filter.h): the kernel creates no ring
 * by another, and the region's reader and the raw reader skip an entry
 * naming another, the same names: what the region reader passes on, the
 * raw reader takes.  A Latin-1 letter is refused, though the kernel's
 * isalnum() calls it a letter.
 */
static void ring_names_one_rule_everywhere(struct ht_case *c)
{
	static const struct {
		char name[FREC_RAW_RING_NAME_LEN];
		bool ok;
	} names[] = {
		{ "events", true }, { "a", true }, { "hanoi_moves-2_X", true },
		{ "0123456789012345678901234567890", true },	/* 31 */
		{ "", false }, { "bad name", false }, { "caf\xe9", false },
		{ "\xc0", false }, { "a/b", false }, { "dot.ted", false },
		{ "tab\t", false }, { "new\nline", false },
		{ "01234567890123456789012345678901", false },	/* 32, no NUL */
	};
	static u8 img[16 * FREC_REGION_BLOCK];
	struct frec_region_geometry geo = {
		.region_bytes = sizeof(img), .boot_id = "0123456789abcdef",
		.release = "6.1.0-test", .rings_max = 4, .sites_max = 10,
		.texts_max = 10, .pool_bytes = 100,
	};
	struct frec_region_header *h = (void *)img;
	struct frec_region_ring *e;
	struct frec_region_ring_info ring;
	struct frec_region_view v;
	char msg[FREC_REGION_MSG_MAX];
	struct frec_raw_reader r;
	struct frec_raw_item item;
	struct frec_err err;
	struct dump d;
	u64 where;
	size_t i;
	FILE *f;

	HT_EXPECT_EQ(c, frec_region_layout(h, &geo), 0);
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	e = (void *)(img + v.sect_off[FREC_REGION_RINGS]);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct frec_raw_ring rr = {
			.head = { FREC_RAW_RING, sizeof(rr) }, .id = 8,
		};

		HT_EXPECT(c, frec_ring_name_ok(names[i].name, sizeof(names[i].name)) ==
			  names[i].ok, "rule, name %zu", i);
		memset(e, 0, sizeof(*e));
		e->nr_cpus = htole32(1);
		e->nr_slots = htole64(2);
		e->parts_offset = htole64(v.sect_off[FREC_REGION_PARTS]);
		memcpy(e->name, names[i].name, sizeof(e->name));
		frec_region_ring_seal(e, NULL);
		HT_EXPECT_EQ(c, frec_region_ring_get(&v, 0, &ring, &where), names[i].ok ? 1 : -1);

		dump_header(&d);
		memcpy(rr.name, names[i].name, sizeof(rr.name));
		dump_put(&d, &rr, sizeof(rr));
		f = fmemopen(d.bytes, d.len, "rb");
		HT_EXPECT_EQ(c, frec_raw_open(&r, f, &err), 0);
		HT_EXPECT_EQ(c, frec_raw_next(&r, &item, &err), 1);
		HT_EXPECT_EQ(c, frec_raw_next(&r, &item, &err), 1);
		HT_EXPECT(c, item.type == FREC_RAW_RING && item.ring_id == 8 &&
			  item.ring_bad == !names[i].ok, "raw reader, name %zu", i);
		if (!names[i].ok)
			HT_EXPECT(c, err.where == 104 + offsetof(struct frec_raw_ring, name) &&
				  strstr(err.msg, "ring name is not"), "name %zu: %llu: %s",
				  i, err.where, err.msg);
		HT_EXPECT_EQ(c, frec_raw_next(&r, &item, &err), 0);
		frec_raw_close(&r);
		fclose(f);
	}
}

/*
 * A bad ring entry among good ones is skipped with its records, alone:
 * the others print as they would have, whether the dump is kept whole or
 * read twice; a bad entry of an id a good one defined leaves it be.
 */
static void decoder_skips_a_bad_ring_alone(struct ht_case *c)
{
	struct frec_raw_ring bad = {
		.head = { FREC_RAW_RING, sizeof(bad) }, .id = 9, .name = "bad name",
	};
	struct frec_raw_ring again = {
		.head = { FREC_RAW_RING, sizeof(again) }, .id = 7, .name = "caf\xe9",
	};
	struct frec_raw_record rec = {
		.head = { FREC_RAW_EVENT, sizeof(rec) }, .seq = 1, .ts = 12027638150ULL,
		.site = F(0x2006), .ring = 9,
	};
	struct frec_decode_opts json = { .output = FREC_OUT_JSON };
	struct dump d;
	struct run run;

	dump_header(&d);
	dump_event(&d, 1, 12027638123ULL, F(0x1000), 0xffffffff81000110ULL, 1, (u64)-3, 255);
	dump_put(&d, &bad, sizeof(bad));
	dump_put(&d, &rec, sizeof(rec));
	dump_put(&d, &again, sizeof(again));
	dump_event(&d, 2, 12027638200ULL, F(0x2006), 0xffffffffc0a00005ULL, 0, 0, 0);
	run_decoder(c, &run, &d, &all);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_WARNINGS);
	HT_EXPECT(c, !strcmp(run.out,
		"# frec dump: clock=local order=time\n"
		"# seq [seconds] cpu ring: caller message\n"
		"1 [   12.027638123] cpu1 events: do_work+0x10/0x80 irq -3 status 0xff\n"
		"2 [   12.027638200] cpu0 events: frec_fn+0x5/0x100 [frec] world\n"),
		"got:\n%s", run.out);
	HT_EXPECT(c, !strcmp(run.errs,
		"frec-decode: mem: offset 216: ring name is not 1-31 characters of "
		"[A-Za-z0-9_-]: ring entry skipped, with its records\n"
		"frec-decode: mem: offset 360: ring name is not 1-31 characters of "
		"[A-Za-z0-9_-]: ring entry skipped; the ring keeps its earlier entry\n"
		"frec-decode: mem: 1 records of rings whose entries were skipped left out\n"),
		"errs:\n%s", run.errs);
	/* JSON: the skipped ring takes no process, the one after it pid 2 */
	bad.id = 10;
	bad.name[3] = '_';
	dump_put(&d, &bad, sizeof(bad));
	rec.ring = 10;
	rec.seq = 3;
	rec.ts = 12027638300ULL;
	dump_put(&d, &rec, sizeof(rec));
	run_decoder(c, &run, &d, &json);
	HT_EXPECT_EQ(c, run.ret, FREC_EXIT_WARNINGS);
	HT_EXPECT(c, strstr(run.out, "\"pid\":2") && !strstr(run.out, "\"pid\":3") &&
		  strstr(run.out, "bad_name"), "json:\n%s", run.out);
}

/*
 * What a region's header claims is bounded by the image: a table of 2^32 - 1
 * entries in an image of half a MiB is read as the entries the image
 * holds, and indexing it allocates for those.
 */
static void region_tables_bounded_by_the_image(struct ht_case *c)
{
	static u8 img[FREC_REGION_MIN_BYTES + (512 << 10)];
	struct frec_region_geometry geo = {
		.region_bytes = sizeof(img), .boot_id = "0123456789abcdef",
		.release = "6.1.0-test", .rings_max = 1, .sites_max = 1, .texts_max = 1,
	};
	struct frec_region_header *h = (void *)img;
	u64 rings = 0xffffffffULL * sizeof(struct frec_region_ring), off, where;
	char msg[FREC_REGION_MSG_MAX];
	struct frec_region_view v;
	struct frec_region_dump d;
	unsigned int i;

	memset(img, 0, sizeof(img));
	HT_EXPECT_EQ(c, frec_region_layout(h, &geo), 0);
	/* the rings section grown to 2^32 - 1 entries, the others after it */
	rings = (rings + FREC_REGION_BLOCK - 1) / FREC_REGION_BLOCK * FREC_REGION_BLOCK;
	h->sect[FREC_REGION_RINGS].bytes = htole64(rings);
	h->sect[FREC_REGION_RINGS].nr_entries = htole32(0xffffffffU);
	for (off = FREC_REGION_BLOCK + rings, i = FREC_REGION_SITES; i < FREC_REGION_NR_SECT; i++) {
		h->sect[i].offset = htole64(off);
		off += le64toh(h->sect[i].bytes);
	}
	h->region_bytes = htole64(FREC_REGION_MAX_BYTES);
	h->csum = 0;
	h->csum = htole32(frec_region_csum(h, sizeof(*h)));
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	HT_EXPECT(c, v.truncated, "an image of half a MiB of a 1 TiB region");
	HT_EXPECT_EQ(c, v.nr_entries[FREC_REGION_RINGS],
		     (sizeof(img) - FREC_REGION_BLOCK) / sizeof(struct frec_region_ring));
	HT_EXPECT_EQ(c, v.nr_entries[FREC_REGION_SITES], 0);
	HT_EXPECT_EQ(c, v.nr_entries[FREC_REGION_TEXTS], 0);
	HT_EXPECT_EQ(c, frec_region_dump_build(&d, &v, NULL), 0);
	HT_EXPECT_EQ(c, d.nr_rings, 0);
	frec_region_dump_free(&d);
}

/*
 * An honest region too large to index (in the kernel, tables of more than
 * INT_MAX bytes, which kvmalloc() refuses with a warning; this test is
 * built with a bound of 1 MiB) is refused before anything is allocated,
 * saying which table, how large, and its section; an image of the same
 * region cut short indexes only what it holds.
 */
static void region_too_large_to_index_is_refused(struct ht_case *c)
{
	static u8 img[FREC_REGION_MIN_BYTES + (2 << 20)];
	struct frec_region_geometry geo = {
		.region_bytes = sizeof(img), .boot_id = "0123456789abcdef",
		.release = "6.1.0-test", .rings_max = 1, .sites_max = 1, .texts_max = 1,
	};
	struct frec_region_header *h = (void *)img;
	struct frec_region_ring *e = (void *)(img + FREC_REGION_BLOCK);
	char msg[FREC_REGION_MSG_MAX], want[FREC_REGION_MSG_MAX];
	struct frec_region_view v;
	struct frec_region_dump d;
	u64 where, parts;

	HT_EXPECT_EQ(c, FREC_REGION_ALLOC_MAX, 1ULL << 20);
	memset(img, 0, sizeof(img));
	HT_EXPECT_EQ(c, frec_region_layout(h, &geo), 0);
	parts = le64toh(h->sect[FREC_REGION_PARTS].offset);
	e->nr_cpus = htole32(1);
	e->nr_slots = htole64(32768);
	e->parts_offset = htole64(parts);
	strcpy(e->name, "big");
	frec_region_ring_seal(e, NULL);
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	HT_EXPECT_EQ(c, frec_region_dump_build(&d, &v, NULL), -EFBIG);
	snprintf(want, sizeof(want),
		 "record index: 32769 entries of %zu bytes, more than can be allocated (%llu bytes)",
		 sizeof(struct frec_region_rec), 1ULL << 20);
	HT_EXPECT(c, !strcmp(d.msg, want), "msg: %s", d.msg);
	HT_EXPECT_EQ(c, d.where, parts);
	frec_region_dump_free(&d);

	/* cut after 1 MiB of parts (a smaller region= this boot) */
	HT_EXPECT_EQ(c, frec_region_open(&v, img, parts + (1 << 20), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	HT_EXPECT_EQ(c, frec_region_dump_build(&d, &v, NULL), 0);
	HT_EXPECT(c, d.nr_rings == 1 && d.rings[0].slots_in_image == 16384 &&
		  d.rings[0].cpus_in_image == 1, "%u rings", d.nr_rings);
	frec_region_dump_free(&d);
}

/* A frec_text_sink into a buffer. */
struct sink_buf {
	char s[1024];
	size_t len;
};

static void sink_buf_write(void *ctx, const char *s, size_t len)
{
	struct sink_buf *b = ctx;

	len = len < sizeof(b->s) - 1 - b->len ? len : sizeof(b->s) - 1 - b->len;
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
}

/*
 * A 64 KiB region taken for a boot, with sites 1 and 2 written as the
 * kernel writes them: with texts at pool offset 0 (@off is 0), or
 * without, the pool having had no room (@off is -1).
 */
static void region_two_sites(struct ht_case *c, u8 img[16 * FREC_REGION_BLOCK],
			     s64 off1, s64 off2)
{
	struct frec_region_geometry geo = {
		.region_bytes = 16 * FREC_REGION_BLOCK, .boot_id = "0123456789abcdef",
		.release = "6.1.0-test", .rings_max = 1, .sites_max = 4,
		.texts_max = 1, .pool_bytes = 1,
	};
	static const struct frec_region_trace_clock none;
	static const char *const text[FREC_REGION_SITE_TEXTS] = {
		"m", "m.c", "f", "site %llx"
	};
	static const u32 len[FREC_REGION_SITE_TEXTS] = { 1, 3, 1, 9 };
	struct frec_region_header *h = (void *)img, hdr;
	struct frec_region_site *sites;
	u8 *pool;

	memset(img, 0, 16 * FREC_REGION_BLOCK);
	HT_EXPECT_EQ(c, frec_region_layout(&hdr, &geo), 0);
	frec_region_begin(img, &hdr, 1, 1, &none, NULL);
	sites = (void *)(img + le64toh(h->sect[FREC_REGION_SITES].offset));
	pool = img + le64toh(h->sect[FREC_REGION_POOL].offset);
	frec_region_site_write(&sites[1], pool, off1, 1, 3, 10, text, len, NULL);
	frec_region_site_write(&sites[2], pool, off2, 2, 3, 20, text, len, NULL);
}

/*
 * Ring 0, "r", of region_two_sites()'s image: one CPU, @nr_slots slots,
 * slot i holding record i + 1 of site 1 + i % @sites at time i + 1, its
 * caller word @words[i] (0 if @words is NULL).  Returns its part.
 */
static struct frec_slot *region_one_ring(u8 img[16 * FREC_REGION_BLOCK], u32 nr_slots,
					 u32 sites, const u64 *words)
{
	struct frec_region_header *h = (void *)img;
	struct frec_region_ring *e = (void *)(img + FREC_REGION_BLOCK);
	u64 parts = le64toh(h->sect[FREC_REGION_PARTS].offset);
	struct frec_slot *slot = (void *)(img + parts);
	u32 i;

	e->nr_cpus = htole32(1);
	e->nr_slots = htole64(nr_slots);
	e->parts_offset = htole64(parts);
	strcpy(e->name, "r");
	frec_region_ring_seal(e, NULL);
	for (i = 0; i < nr_slots; i++) {
		slot[i].data[FREC_EVENT_TS] = htole64(i + 1);
		slot[i].data[FREC_EVENT_SITE] = htole64(1 + i % sites);
		slot[i].data[FREC_EVENT_CALLER] = htole64(words ? words[i] : 0);
		slot[i].state = htole64((u64)(i + 1) << FREC_SLOT_SEQ_SHIFT);
	}
	return slot;
}

/*
 * frec/previous/sites of a region whose site 1 the pool had no room for:
 * that entry names no texts and no caller, so it is not listed (its
 * fields were read unset), and site 2 beside it is.
 */
static void region_sites_skip_a_site_without_texts(struct ht_case *c)
{
	static u8 img[16 * FREC_REGION_BLOCK];
	struct sink_buf out = { .len = 0 };
	const struct frec_text_sink sink = { sink_buf_write, &out };
	char msg[FREC_REGION_MSG_MAX];
	struct frec_region_view v;
	u64 where;

	region_two_sites(c, img, -1, 0);
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	HT_EXPECT_EQ(c, frec_region_sites_write(&v, &sink, NULL), 0);
	HT_EXPECT(c, !strstr(out.s, "\n1 "), "site 1 listed: %s", out.s);
	HT_EXPECT(c, strstr(out.s, "\n2 info 20 \"m\" \"m.c\" \"f\" 0x0 \"\" \"site %llx\"\n"),
		  "site 2 not listed: %s", out.s);
}

/* The largest range one call of region_begin_wb was given, and the calls. */
static u64 region_begin_wb_max, region_begin_wb_calls;

static void region_begin_wb(const void *p, u64 len)
{
	(void)p;
	if (len > region_begin_wb_max)
		region_begin_wb_max = len;
	region_begin_wb_calls++;
}

/*
 * Taking a region zeroes it and writes it back a chunk at a time, so that
 * the kernel's write-back can reschedule between chunks: a region of
 * gigabytes zeroed in one go holds the CPU for seconds at load.
 */
static void region_begin_zeroes_in_chunks(struct ht_case *c)
{
	const u64 bytes = 3 * FREC_REGION_ZERO_CHUNK + FREC_REGION_BLOCK;
	struct frec_region_geometry geo = {
		.region_bytes = bytes, .boot_id = "0123456789abcdef",
		.release = "6.1.0-test", .rings_max = 1, .sites_max = 4,
		.texts_max = 1, .pool_bytes = 1,
	};
	static const struct frec_region_trace_clock none;
	struct frec_region_header hdr;
	u8 *img = malloc(bytes);
	u64 i;

	HT_EXPECT(c, img, "no memory for %llu bytes", (unsigned long long)bytes);
	if (!img)
		return;
	memset(img, 0xa5, bytes);
	HT_EXPECT_EQ(c, frec_region_layout(&hdr, &geo), 0);
	frec_region_begin(img, &hdr, 1, 1, &none, region_begin_wb);
	HT_EXPECT(c, region_begin_wb_max <= FREC_REGION_ZERO_CHUNK,
		  "one write-back of %llu bytes", (unsigned long long)region_begin_wb_max);
	HT_EXPECT(c, region_begin_wb_calls >= 4, "%llu write-backs",
		  (unsigned long long)region_begin_wb_calls);
	for (i = FREC_REGION_BLOCK; i < bytes && !img[i]; i++)
		;
	HT_EXPECT_EQ(c, i, bytes);
	free(img);
}

/*
 * A site whose texts the pool had no room for, as the kernel writes its
 * entry (frec_region_site_write() with no pool offset): its records are
 * dropped and counted as no_text, told apart from records naming no valid
 * site; the site with texts beside it is shown.
 */
static void region_site_without_texts_is_counted(struct ht_case *c)
{
	static u8 img[16 * FREC_REGION_BLOCK];
	struct sink_buf out = { .len = 0 };
	const struct frec_text_sink sink = { sink_buf_write, &out };
	char msg[FREC_REGION_MSG_MAX];
	struct frec_region_view v;
	struct frec_region_dump d;
	u64 where;

	region_two_sites(c, img, 0, -1);
	region_one_ring(img, 4, 2, NULL);
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	HT_EXPECT_EQ(c, frec_region_dump_build(&d, &v, NULL), 0);
	HT_EXPECT_EQ(c, d.nr_recs, 2);
	frec_region_dump_stats(&d, &sink);
	HT_EXPECT(c, strstr(out.s, "all   recovered=2 torn=0 bad_length=0 no_site=0 cut=0 no_text=2 "),
		  "stats: %s", out.s);
	frec_region_dump_free(&d);
}

/*
 * A record's caller word is an offset from the caller base of the kernel
 * that made it: a version 4 header keeps the base (arm64's is a kernel
 * text address, its modules up to 2 GiB below it), and a reader resolves
 * the words with it; a version 3 header ends before it, and its words
 * are offsets from FREC_CALLER_BASE, as they were.
 */
static void region_callers_from_the_header_base(struct ht_case *c)
{
	static u8 img[16 * FREC_REGION_BLOCK];
	static const u64 base = 0xffff800080210000ULL;
	static const u64 callers[2] = {
		0xffff800080210000ULL - 0x7ff00000ULL,	/* a module */
		0xffff800080210000ULL + 0x1234,		/* the image */
	};
	struct frec_region_header *h = (void *)img;
	struct frec_region_ring_info ring;
	struct frec_region_record rec;
	char msg[FREC_REGION_MSG_MAX];
	struct frec_region_view v;
	struct frec_slot *slot;
	u64 where, words[2];
	u32 i;

	region_two_sites(c, img, 0, 0);
	/* The kernel's header, as frec_region_layout() makes it, with a base. */
	h->caller_base = htole64(base);
	h->csum = 0;
	h->csum = htole32(frec_region_csum(h, sizeof(*h)));
	for (i = 0; i < 2; i++)
		words[i] = frec_caller_word(callers[i], base, 7);
	slot = region_one_ring(img, 2, 1, words);
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	HT_EXPECT_EQ(c, v.caller_base, base);
	HT_EXPECT_EQ(c, frec_region_ring_get(&v, 0, &ring, &where), 1);
	for (i = 0; i < 2; i++) {
		HT_EXPECT_EQ(c, frec_region_record_get(&v, &ring, 0, i, &rec, NULL, 0), 1);
		HT_EXPECT(c, rec.caller == callers[i] && rec.context == 7,
			  "record %u: caller 0x%llx context %u", i,
			  (unsigned long long)rec.caller, rec.context);
	}

	/* A version 3 header: no base, the words offsets from 0. */
	h->version = htole32(3);
	h->header_bytes = htole32(FREC_REGION_HEADER_V3_BYTES);
	h->caller_base = 0;
	h->csum = 0;
	h->csum = htole32(frec_region_csum(h, FREC_REGION_HEADER_V3_BYTES));
	slot->data[FREC_EVENT_CALLER] = htole64(frec_caller_word(0xffffffffc0a01234ULL,
								  FREC_CALLER_BASE, 7));
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_VALID);
	HT_EXPECT_EQ(c, v.caller_base, FREC_CALLER_BASE);
	HT_EXPECT_EQ(c, frec_region_record_get(&v, &ring, 0, 0, &rec, NULL, 0), 1);
	HT_EXPECT_EQ(c, rec.caller, 0xffffffffc0a01234ULL);
	/* A version 4 header of the old size is refused, not misread. */
	h->version = htole32(4);
	h->csum = 0;
	h->csum = htole32(frec_region_csum(h, sizeof(*h)));
	HT_EXPECT_EQ(c, frec_region_open(&v, img, sizeof(img), msg, sizeof(msg), &where),
		     FREC_REGION_BAD_HEADER);
}

static struct ht_case cases[] = {
	HT_CASE(formats_parse_and_find),
	HT_CASE(formats_later_texts),
	HT_CASE(formats_of_a_region_as_the_kernel_takes_them),
	HT_CASE(formats_errors_name_the_line),
	HT_CASE(formats_symbols_are_names_not_strings),
	HT_CASE(sites_parse_and_find),
	HT_CASE(sites_errors_name_the_line_and_field),
	HT_CASE(kallsyms_names_as_the_kernel),
	HT_CASE(kallsyms_of_zeros_is_detected),
	HT_CASE(kallsyms_errors_name_the_line),
	HT_CASE(kallsyms_lookup_matches_a_linear_scan),
	HT_CASE(raw_layout_is_what_the_test_data_assumes),
	HT_CASE(raw_reader_reads_and_swaps),
	HT_CASE(decoder_prints_the_dump),
	HT_CASE(decoder_prints_contexts),
	HT_CASE(decoder_reports_bad_and_missing_formats_once),
	HT_CASE(decoder_formats_and_callers_from_sites),
	HT_CASE(decoder_reports_unknown_and_bad_sites_once),
	HT_CASE(decoder_json_slices_and_unmatched_ends),
	HT_CASE(decoder_deltas_and_filters),
	HT_CASE(decoder_text_filter_reads_the_line),
	HT_CASE(decoder_filter_ring_must_exist),
	HT_CASE(decoder_merges_whatever_the_dump_order),
	HT_CASE(decoder_prints_a_dump_in_order_as_it_reads_it),
	HT_CASE(decoder_reads_twice_as_it_merges),
	HT_CASE(decoder_checks_seq_per_ring_and_cpu),
	HT_CASE(decoder_stats_prove_losses),
	HT_CASE(decoder_refuses_other_versions),
	HT_CASE(region_csum_is_crc32c),
	HT_CASE(region_callers_from_the_header_base),
	HT_CASE(region_layout_and_state),
	HT_CASE(region_tables_fit_every_size),
	HT_CASE(ring_names_one_rule_everywhere),
	HT_CASE(decoder_skips_a_bad_ring_alone),
	HT_CASE(region_tables_bounded_by_the_image),
	HT_CASE(region_too_large_to_index_is_refused),
	HT_CASE(region_site_without_texts_is_counted),
	HT_CASE(region_begin_zeroes_in_chunks),
	HT_CASE(region_sites_skip_a_site_without_texts),
};

int main(int argc, char **argv)
{
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
