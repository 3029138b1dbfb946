// SPDX-License-Identifier: GPL-2.0
/*
 * frec-gen.c - make a raw dump, its formats and kallsyms files, and the
 * text the module's dump would print for it, without a kernel.
 *
 *   frec-gen [-n RECORDS] [-s SEED] [-c CPUS] [--swap] [--bad] [--missing]
 *            [--unknown] [--global] [--shuffle] [--lose] [--unsynced]
 *            [--gaps] [--wrap] [--region] [--trace-offset NS] [--no-expected]
 *            PREFIX
 *
 * writes PREFIX.raw, PREFIX.formats, PREFIX.sites, PREFIX.kallsyms,
 * PREFIX.txt, PREFIX.nokallsyms.txt and PREFIX.stats (what frec-decode
 * --stats prints).  The records are events and text records on three
 * rings and CPUS CPUs, from call sites whose formats use every kind of
 * conversion, %s literals (and pointers into them), callers in vmlinux
 * and in modules (and some that resolve nowhere), nested begin/end pairs
 * ('>' and '<' formats), spans (frec_span_begin() and frec_span_end()
 * records: nested, ending on another CPU, some ends behind their begins'
 * clocks) and texts with control bytes, trailing newlines
 * and bytes that are not UTF-8.
 *
 * Most sites have an id, the site word of their records, and a line in
 * PREFIX.sites; a few have none (the module's table was full) and their
 * records hold their format's address.  A site's records mostly come from
 * one caller, its first; some from others (a site in an inline function).
 * Some sites never record: their caller is 0x0 and "".
 *
 * PREFIX.txt is the expected output of frec-decode: the generator knows
 * what every address holds, names symbols with its own lookup (a linear
 * scan, written apart from frec-decode's) and formats lines with
 * kmod/lib/frec_format.c, as the module does.  PREFIX.nokallsyms.txt is the
 * expected output without kallsyms (-n): the callers (and %pS arguments)
 * that are some site's first caller named as PREFIX.sites names them,
 * every other address as an address.  --bad adds events with a bad
 * format, --missing events whose format or site id is in neither file
 * (the text is then frec-decode's stand-in), --unknown entries of a type
 * no decoder knows, --swap writes the dump in the other byte order.
 *
 * Records are numbered per (ring, CPU) from 1, as the module numbers them,
 * or from one counter shared by all with --global (the rings are then
 * FREC_RING_ORDER_GLOBAL and the header has FREC_RAW_MERGE_BY_SEQ).  The
 * dump lists them in the module's merged order, sorted here by a
 * comparison written apart from kmod/lib/frec_merge.c; --shuffle lists
 * them in another order that keeps each (ring, CPU) in seq order, which
 * frec-decode must merge back.  --lose leaves records out, as a ring that
 * overwrote them would, gaps in their source's seqs.  --wrap leaves out
 * only each CPU's oldest records, more of a higher CPU's (CPU c the first
 * (c + 1) / (2 * CPUS) of the records made), as per-CPU rings that
 * overwrite at different rates: no gap, seqs starting above 1.  --unsynced clears
 * FREC_RAW_CLOCK_SYNCED.  --gaps leaves, now and then, a second or more
 * between a CPU's records: more than a trace.dat's 27-bit time delta holds,
 * so that its time-extend entries are needed.  --trace-offset NS writes the
 * clock entry a module writes after the header (struct frec_raw_clock),
 * saying the records' clock is NS ns ahead of ftrace's.  PREFIX.spans
 * says what became of every span begun, lost records or not: a line
 * "N BEGIN_TS END_TS" per span N (its begin's "span N cpu C"), END_TS "-"
 * for one never ended (kept for tests/check_inflight.py).  --region also writes PREFIX.region, the records
 * in a black box region image (see write_region()); not with --missing or
 * --lose, whose records a region cannot hold.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frec_caller_word.h"
#include "frec_format.h"
#include "frec_format_quote.h"
#include "frec_raw.h"
#include "frec_region_image.h"
#include "frec_span.h"
#include <endian.h>

/* ---- what the "kernel" holds ------------------------------------------ */

struct gen_sym {
	u64 addr;
	char type;
	char name[48];
	const char *mod;	/* NULL: vmlinux */
	bool text;		/* callers may point into it */
};

#define GEN_SYMS_MAX	2048
static struct gen_sym syms[GEN_SYMS_MAX];
static unsigned int nr_syms;

/*
 * A format and what its arguments are: d int, u unsigned, c char, l any
 * 64-bit value, s a %s literal, S a caller address, p a pointer, w a
 * width or precision (a small int).
 */
struct gen_format {
	const char *fmt;
	const char *kinds;
	u64 addr;
};

static struct gen_format formats[] = {
	{ .fmt = "irq %d status %#lx", .kinds = "dl" },
	{ .fmt = "move disk %u from %c to %c", .kinds = "ucc" },
	{ .fmt = "> work %s", .kinds = "s" },
	{ .fmt = "< work %s", .kinds = "s" },
	{ .fmt = "%s: read %zu bytes at %#llx", .kinds = "sll" },
	{ .fmt = "called from %pS (%ps) ret %pB", .kinds = "SSS" },
	{ .fmt = "ptr %p flags %08x", .kinds = "pu" },
	{ .fmt = "%-8s|%8s|", .kinds = "ss" },
	{ .fmt = "%.*s", .kinds = "ws" },
	{ .fmt = "%*d|%-*d|", .kinds = "wdwd" },
	{ .fmt = "tab\there %d\n", .kinds = "d" },
	{ .fmt = "neg %hhd %hd %ld %lld", .kinds = "ddll" },
	{ .fmt = "pct 100%% done", .kinds = "" },
	{ .fmt = "ip %pI4 mac %pM", .kinds = "pp" },
	{ .fmt = "float %f", .kinds = "l" },
	{ .fmt = "multi\nline %d\n\n", .kinds = "d" },
	{ .fmt = "quote \" and backslash \\ %d", .kinds = "d" },
	{ .fmt = "%s%s%s%s", .kinds = "ssss" },
	{ .fmt = "noarg %d %d %d %d %d", .kinds = "dddd" },
	{ .fmt = "% +05d %#o %#X %.3u %c", .kinds = "ddddc" },
	{ .fmt = "caf\xc3\xa9 %s \xff", .kinds = "s" },
	/* last: a span's begin and end (uapi/frec_raw.h, "Spans"), never picked at random */
	{ .fmt = FREC_SPAN_BEGIN_FMT "span %u cpu %u", .kinds = "uu" },
	{ .fmt = FREC_SPAN_END_FMT "span %u", .kinds = "u" },
};

#define NR_GOOD_FORMATS	(sizeof(formats) / sizeof(formats[0]))
#define NR_PICKED_FORMATS	(NR_GOOD_FORMATS - 2)
#define SPAN_BEGIN	(&formats[NR_GOOD_FORMATS - 2])
#define SPAN_END	(&formats[NR_GOOD_FORMATS - 1])

static struct gen_format bad_formats[] = {
	{ .fmt = "bad %y here %d", .kinds = "d" },
	{ .fmt = "ends in %", .kinds = "" },
	{ .fmt = "%d then %lh", .kinds = "dd" },
};

struct gen_string {
	const char *s;
	u64 addr;
};

static struct gen_string strings[] = {
	{ .s = "alpha" }, { .s = "beta" }, { .s = "a string with spaces" },
	{ .s = "ctrl\x01" "char" }, { .s = "" }, { .s = "newline at the end\n" },
	{ .s = "tab\tin the middle" },
	{ .s = "a rather long string that goes on and on, well past the widths "
	       "and precisions the formats ask for, to be cut" },
	{ .s = "not utf-8: \xc3\x28 \xe9t\xe9" },
};

#define NR_STRINGS	(sizeof(strings) / sizeof(strings[0]))

static const char *const texts[] = {
	"plain text record", "with a newline\n", "two newlines\n\n", "",
	"ctrl \x01\x02\x1f and del \x7f", "\ttab first", "utf-8: caf\xc3\xa9",
	"bad utf-8: \xff\xfe", "%d %s not a format", "> begin-looking text",
	"< end-looking text", "quote \" backslash \\",
	/* longer than a slot holds: records of several slots */
	"a text record long enough to take a first slot and a continuation slot",
	"a text record longer still, that takes a first slot and several continuation "
	"slots, so that in a region image some run past the end of their part's array "
	"into the next lap, where the continuation's lap bit differs from the first's",
};

#define NR_TEXTS	(sizeof(texts) / sizeof(texts[0]))

/* What frec_printk() sites of the log ring were called with. */
static struct gen_format printk_formats[] = {
	{ .fmt = "%s" }, { .fmt = "log: %s\n" }, { .fmt = "%s %d" },
};

#define NR_PRINTK_FORMATS	(sizeof(printk_formats) / sizeof(printk_formats[0]))

/*
 * A call site: its format (gf, an event's or a frec_printk()'s), where it
 * is, and its id (0: none, its records hold its format's address).
 * @home is the caller most of its records come from; @first the caller of
 * its first record, 0 until it records.
 */
struct gen_site {
	unsigned int id;
	const struct gen_format *gf;
	bool printk;
	unsigned int level;
	unsigned int line;
	const char *module;
	char file[48];
	char function[32];
	u64 home;
	u64 first;
	char first_symbol[96];
};

#define GEN_SITES_MAX	128
static struct gen_site sites[GEN_SITES_MAX];
static unsigned int nr_sites, nr_site_ids;

struct gen_ring {
	unsigned int id;
	unsigned int kind;
	const char *name;
	bool written;
};

static struct gen_ring rings[] = {
	{ .id = 7, .kind = 0, .name = "events" },
	{ .id = 1000, .kind = 1, .name = "log" },
	{ .id = 3, .kind = 0, .name = "hanoi_moves" },
};

/* ---- options and random numbers ---------------------------------------- */

static unsigned long long opt_records = 1000;
static unsigned int opt_cpus = 4;
static bool opt_swap, opt_bad, opt_missing, opt_unknown, opt_expected = true;
static bool opt_global, opt_shuffle, opt_lose, opt_unsynced, opt_region, opt_gaps, opt_wrap;
static bool opt_trace_clock;
static long long opt_trace_offset;
static uint64_t rng = 0x853c49e6748fea9bULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned int rnd_below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

/* ---- the symbol table -------------------------------------------------- */

static void add_sym(u64 addr, char type, const char *name, const char *mod,
		    bool text)
{
	struct gen_sym *s = &syms[nr_syms++];

	s->addr = addr;
	s->type = type;
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->mod = mod;
	s->text = text;
}

/*
 * vmlinux: text from 0xffffffff81000000, some aliases, then data; three
 * modules, each text then data, listed in a shuffled order as module
 * symbol tables are; absolute per-CPU symbols near 0.
 */
static void make_symbols(void)
{
	static const char *const mods[] = { "frec", "frec_hanoi", "nvme" };
	char name[48];
	u64 addr;
	unsigned int i, m, first;

	add_sym(0, 'A', "fixed_percpu_data", NULL, false);
	add_sym(0x1000, 'A', "cpu_debug_store", NULL, false);
	addr = 0xffffffff81000000ULL;
	add_sym(addr, 'T', "_stext", NULL, true);
	add_sym(addr, 'T', "_text", NULL, true);	/* alias: _stext wins */
	for (i = 0; i < 300; i++) {
		addr += 0x10 + rnd_below(0x400);
		snprintf(name, sizeof(name), "%s_%u", i % 3 ? "do_work" : "handle_irq", i);
		add_sym(addr, i % 5 ? 't' : 'T', name, NULL, true);
		if (i % 50 == 7) {
			snprintf(name, sizeof(name), "alias_of_%u", i);
			add_sym(addr, 'T', name, NULL, true);
		}
	}
	for (i = 0; i < 20; i++) {
		addr += 0x40 + rnd_below(0x100);
		snprintf(name, sizeof(name), "data_%u", i);
		add_sym(addr, i % 2 ? 'd' : 'D', name, NULL, false);
	}
	add_sym(addr + 0x1000, 'B', "_end", NULL, false);
	for (m = 0; m < 3; m++) {
		addr = 0xffffffffc0a00000ULL + m * 0x100000ULL;
		first = nr_syms;
		for (i = 0; i < 30; i++) {
			snprintf(name, sizeof(name), "%s_fn%u", mods[m], i);
			add_sym(addr, 't', name, mods[m], true);
			addr += 0x20 + rnd_below(0x200);
		}
		add_sym(addr, 'd', "__this_module", mods[m], false);
		add_sym(addr + 0x400, 'b', "module_state", mods[m], false);
		/* a module's symbol table is in no particular order */
		for (i = nr_syms - 1; i > first; i--) {
			unsigned int j = first + rnd_below(i - first + 1);
			struct gen_sym t = syms[i];

			syms[i] = syms[j];
			syms[j] = t;
		}
	}
}

/*
 * The expected symbol of @addr, found apart from frec-decode: the first
 * (in file order) of the highest symbols at or below it, sized to the
 * next higher address; absolute symbols do not count.
 */
static int gen_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	const struct gen_sym *best = NULL;
	u64 look = ext == 'B' ? addr - 1 : addr, next = 0, off;
	unsigned int i;

	for (i = 0; i < nr_syms; i++) {
		const struct gen_sym *s = &syms[i];

		if (s->type == 'A')
			continue;
		if (s->addr <= look && (!best || s->addr > best->addr))
			best = s;
	}
	if (!best)
		return -1;
	for (i = 0; i < nr_syms; i++)
		if (syms[i].type != 'A' && syms[i].addr > best->addr &&
		    (!next || syms[i].addr < next))
			next = syms[i].addr;
	off = look - best->addr;
	if (!next && off)
		return -1;
	if (ext == 'B')
		off++;
	if (ext == 's')
		return snprintf(buf, size, "%s%s%s%s", best->name,
				best->mod ? " [" : "", best->mod ? best->mod : "",
				best->mod ? "]" : "");
	return snprintf(buf, size, "%s+0x%llx/0x%llx%s%s%s", best->name,
			(unsigned long long)off,
			(unsigned long long)(next ? next - best->addr : 0),
			best->mod ? " [" : "", best->mod ? best->mod : "",
			best->mod ? "]" : "");
}

/* A caller: inside a text symbol, or (rarely) an address of nothing. */
static u64 pick_caller(void)
{
	const struct gen_sym *s;
	u64 next = 0;
	unsigned int i;

	if (!rnd_below(20))
		return rnd_below(2) ? 0xfffffffffff01234ULL : 0xffffffff80000000ULL;
	do
		s = &syms[rnd_below(nr_syms)];
	while (!s->text);
	for (i = 0; i < nr_syms; i++)
		if (syms[i].type != 'A' && syms[i].addr > s->addr &&
		    (!next || syms[i].addr < next))
			next = syms[i].addr;
	return s->addr + rnd() % (next - s->addr);
}

/* ---- strings at addresses ---------------------------------------------- */

/* Formats and literals in modules' rodata: 0xffffffffc0a80000 on. */
static void place_strings(void)
{
	u64 addr = 0xffffffffc0a80000ULL;
	unsigned int i;

	for (i = 0; i < NR_GOOD_FORMATS; i++) {
		formats[i].addr = addr;
		addr += (strlen(formats[i].fmt) + 8) & ~7ULL;
	}
	for (i = 0; i < sizeof(bad_formats) / sizeof(bad_formats[0]); i++) {
		bad_formats[i].addr = addr;
		addr += (strlen(bad_formats[i].fmt) + 8) & ~7ULL;
	}
	for (i = 0; i < NR_PRINTK_FORMATS; i++) {
		printk_formats[i].addr = addr;
		addr += (strlen(printk_formats[i].fmt) + 8) & ~7ULL;
	}
	addr = 0xffffffff82000000ULL;	/* %s literals in vmlinux rodata */
	for (i = 0; i < NR_STRINGS; i++) {
		strings[i].addr = addr;
		addr += (strlen(strings[i].s) + 8) & ~7ULL;
	}
}

static int gen_string(void *ctx, char *buf, size_t size, u64 addr)
{
	unsigned int i;
	size_t n;

	for (i = 0; i < NR_STRINGS; i++) {
		u64 off = addr - strings[i].addr;

		if (addr >= strings[i].addr && off <= strlen(strings[i].s)) {
			n = strnlen(strings[i].s + off, size - 1);
			memcpy(buf, strings[i].s + off, n);
			buf[n] = '\0';
			return (int)n;
		}
	}
	return -1;
}

/* @s in quotes, quoted as the module's formats and sites files quote it. */
static void write_quoted(FILE *f, const char *s)
{
	char chunk[64];
	size_t used, n;

	fputc('"', f);
	while (*s) {
		n = frec_format_quote(chunk, sizeof(chunk), s, &used);
		fwrite(chunk, 1, n, f);
		s += used;
	}
	fputc('"', f);
}

static void write_quoted_line(FILE *f, u64 addr, const char *s)
{
	fprintf(f, "0x%llx : ", (unsigned long long)addr);
	write_quoted(f, s);
	fputc('\n', f);
}

/* ---- call sites ------------------------------------------------------------ */

static struct gen_site *add_site(const struct gen_format *gf, bool printk, bool id)
{
	static const char *const mods[] = { "frec_hanoi", "", "nvme", "frec" };
	struct gen_site *site = &sites[nr_sites++];
	unsigned int n = nr_sites;

	site->id = id ? ++nr_site_ids : 0;
	site->gf = gf;
	site->printk = printk;
	site->level = 1 + n % 5;
	site->line = 10 + 7 * n;
	site->module = mods[n % 4];
	/* now and then a path that needs quoting */
	snprintf(site->file, sizeof(site->file), n % 9 ? "drivers/gen/site_%u.c" :
		 "drivers/\"gen\" \\ %u.c", n);
	snprintf(site->function, sizeof(site->function), "site_fn_%u", n);
	site->home = pick_caller();
	return site;
}

/*
 * A site per format with an id, a second for some (one format used in two
 * places), and some without (the table was full): for events, bad formats
 * and frec_printk() formats; two more span ends; and three sites that
 * never record, one a span's end (frec/hist lists it, count=0).
 */
static void make_sites(void)
{
	unsigned int i;

	for (i = 0; i < NR_GOOD_FORMATS; i++) {
		add_site(&formats[i], false, true);
		if (i % 4 == 1)
			add_site(&formats[i], false, true);
		if (i % 7 == 3)
			add_site(&formats[i], false, false);
	}
	for (i = 0; i < sizeof(bad_formats) / sizeof(bad_formats[0]); i++)
		add_site(&bad_formats[i], false, i != 1);
	for (i = 0; i < NR_PRINTK_FORMATS; i++)
		add_site(&printk_formats[i], true, i != 2);
	/* spans end at three sites, one without an id (no histogram) */
	add_site(SPAN_END, false, true);
	add_site(SPAN_END, false, false);
	add_site(SPAN_END, false, true);
	add_site(&formats[0], false, true);
	add_site(&printk_formats[0], true, true);
}

/* A site of format @gf (an event's), or of a frec_printk() if @gf is NULL. */
static struct gen_site *pick_site(const struct gen_format *gf)
{
	struct gen_site *site;

	/* the last three sites never record */
	do
		site = &sites[rnd_below(nr_sites - 3)];
	while (gf ? site->gf != gf : !site->printk);
	return site;
}

/*
 * A record's context: mostly one of a few tasks (the idle task's pid 0
 * and the largest pid among them), now and then an interrupt on top of
 * one.
 */
static const u32 gen_pids[] = { 0, 1, 57, 1234, FREC_CTX_PID_MASK };
/*
 * Their names, as the dump's task entries give them; the idle task has
 * none (readers name pid 0), nor has the last, a task that had exited.
 */
/* One with bytes prctl(PR_SET_NAME) allows and a line-based file cannot hold. */
static const char *const gen_comms[] = { NULL, "init", "kworker/0:1", "frec\ntest\x1b", NULL };

static u32 pick_context(void)
{
	const u32 *pids = gen_pids;
	u32 context = pids[rnd_below(sizeof(gen_pids) / sizeof(gen_pids[0]))];

	if (!rnd_below(8))
		context |= (1 + rnd_below(3)) << FREC_CTX_KIND_SHIFT;
	return context;
}

/* A record's caller: its site's home mostly, and the first one it records. */
static u64 site_caller(struct gen_site *site)
{
	u64 caller = rnd_below(10) ? site->home : pick_caller();

	if (!site->first) {
		site->first = caller;
		/* named as the module's dump names a caller */
		if (gen_symbol(NULL, site->first_symbol, sizeof(site->first_symbol),
			       caller, 'S') < 0)
			snprintf(site->first_symbol, sizeof(site->first_symbol), "0x%llx",
				 (unsigned long long)caller);
	}
	return caller;
}

/* The record's site word: the site's id, or its format's address. */
static u64 site_word(const struct gen_site *site)
{
	return site->id ? site->id : site->gf->addr;
}

/* PREFIX.sites, as the module's debugfs sites file: sites with ids only. */
static void write_sites(FILE *f)
{
	static const char *const levels[] = { "", "err", "warn", "info", "debug", "trace" };
	const struct gen_site *site;
	unsigned int id, i;

	fputs("# id level line \"module\" \"file\" \"function\" 0xcaller "
	      "\"caller symbol\" \"format\"\n", f);
	for (id = 1; id <= nr_site_ids; id++) {
		for (i = 0, site = sites; site->id != id; site = &sites[++i])
			;
		fprintf(f, "%u %s %u ", id, levels[site->level], site->line);
		write_quoted(f, site->module);
		fputc(' ', f);
		write_quoted(f, site->file);
		fputc(' ', f);
		write_quoted(f, site->function);
		fprintf(f, " 0x%llx ", (unsigned long long)site->first);
		write_quoted(f, site->first_symbol);
		fputc(' ', f);
		write_quoted(f, site->gf->fmt);
		fputc('\n', f);
	}
}

/*
 * The expected symbol without kallsyms: a caller's form ('S') of an
 * address that is some site's first caller, as the sites file names it;
 * nothing else resolves.
 */
static int gen_site_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	unsigned int i;

	for (i = 0; ext == 'S' && addr && i < nr_sites; i++)
		if (sites[i].id && sites[i].first == addr)
			return snprintf(buf, size, "%s", sites[i].first_symbol);
	return -1;
}

/* ---- the raw dump ------------------------------------------------------- */

static u64 out64(u64 v)
{
	return opt_swap ? __builtin_bswap64(v) : v;
}

static __u32 out32(__u32 v)
{
	return opt_swap ? __builtin_bswap32(v) : v;
}

static __u32 raw_flags(void)
{
	return (opt_unsynced ? 0 : FREC_RAW_CLOCK_SYNCED) |
	       (opt_global ? FREC_RAW_MERGE_BY_SEQ : 0);
}

static void write_header(FILE *f)
{
	struct frec_raw_header h;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, FREC_RAW_MAGIC, sizeof(FREC_RAW_MAGIC));
	h.byte_order = out32(FREC_RAW_BYTE_ORDER);
	h.version = out32(FREC_RAW_VERSION);
	h.header_bytes = out32(sizeof(h));
	h.slot_bytes = out32(FREC_SLOT_BYTES);
	h.word_bytes = out32(8);
	h.flags = out32(raw_flags());
	strcpy(h.clock, FREC_CLOCK_NAME);
	fwrite(&h, sizeof(h), 1, f);
	if (opt_trace_clock) {
		struct frec_raw_clock c;

		memset(&c, 0, sizeof(c));
		c.head.type = out32(FREC_RAW_CLOCK);
		c.head.bytes = out32(sizeof(c));
		c.offset = (__s64)out64((__u64)opt_trace_offset);
		c.window = out64(40);
		c.flags = out32(opt_unsynced ? 0 : FREC_RAW_CLOCK_OFFSET_CONSTANT);
		strcpy(c.trace_clock, FREC_RAW_TRACE_CLOCK_NAME);
		fwrite(&c, sizeof(c), 1, f);
	}
}

static void write_ring(FILE *f, struct gen_ring *ring)
{
	struct frec_raw_ring r;

	memset(&r, 0, sizeof(r));
	r.head.type = out32(FREC_RAW_RING);
	r.head.bytes = out32(sizeof(r));
	r.id = out32(ring->id);
	r.kind = out32(ring->kind);
	r.order = out32(opt_global ? FREC_RING_ORDER_GLOBAL : FREC_RING_ORDER_CPU);
	snprintf(r.name, sizeof(r.name), "%s", ring->name);
	fwrite(&r, sizeof(r), 1, f);
	ring->written = true;
}

static void write_unknown(FILE *f)
{
	struct frec_raw_entry_head h = {
		.type = out32(99), .bytes = out32(8 + 16),
	};
	static const char junk[16] = "skip me, please";

	fwrite(&h, sizeof(h), 1, f);
	fwrite(junk, sizeof(junk), 1, f);
}

/* One record's raw entry; @text for FREC_RAW_TEXT. */
static void write_record(FILE *f, const struct frec_raw_record *rec,
			 const char *text)
{
	struct frec_raw_record r;
	size_t len = rec->len, bytes = (sizeof(r) + len + 7) & ~(size_t)7;
	static const char pad[8];
	unsigned int i;

	r.head.type = out32(rec->head.type);
	r.head.bytes = out32((__u32)bytes);
	r.seq = out64(rec->seq);
	r.ts = out64(rec->ts);
	r.site = out64(rec->site);
	r.caller = out64(rec->caller);
	r.ring = out32(rec->ring);
	r.cpu = out32(rec->cpu);
	r.len = out32(rec->len);
	r.context = out32(rec->context);
	for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
		r.args[i] = out64(rec->args[i]);
	fwrite(&r, sizeof(r), 1, f);
	if (len) {
		fwrite(text, 1, len, f);
		fwrite(pad, 1, bytes - sizeof(r) - len, f);
	}
}

/* An argument of kind @k. */
static u64 pick_arg(char k)
{
	static const u64 ints[] = {
		0, 1, 42, 255, 256, 0x7fffffff, 0x80000000ULL, 0xffffffffULL,
		(u64)-1, (u64)-42, 0x8000000000000000ULL, 1000000007,
	};
	const struct gen_string *s;

	switch (k) {
	case 'w':
		return (u64)(long long)((int)rnd_below(24) - 6);
	case 'c':
		return rnd_below(5) ? 'A' + rnd_below(26) : rnd_below(256);
	case 's':
		if (!rnd_below(20))
			return rnd_below(2) ? 0 : 0xffffffffc0deadULL;	/* (null), (efault) */
		s = &strings[rnd_below(NR_STRINGS)];
		return s->addr + (rnd_below(4) ? 0 : rnd_below((unsigned int)strlen(s->s) + 1));
	case 'S':	/* now and then a site's caller: %pS names it, %ps not */
		return rnd_below(3) ? pick_caller() : sites[rnd_below(nr_sites)].home;
	case 'p':
		return 0xffff888000000000ULL + (rnd() & 0xffffffffULL);
	default:
		return rnd_below(3) ? ints[rnd_below(sizeof(ints) / sizeof(ints[0]))] : rnd();
	}
}

/* ---- records, in the order the module merges them ----------------------- */

static FILE *open_out(const char *prefix, const char *ext)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s.%s", prefix, ext);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

#define NR_RINGS	(sizeof(rings) / sizeof(rings[0]))

/*
 * A record: @gf is an event's format, NULL for text; @missing says its
 * site word is in neither file.
 */
struct gen_rec {
	struct frec_raw_record rec;
	struct gen_ring *ring;
	const struct gen_format *gf;
	bool missing;
	const char *text;
};

/*
 * The module's merged order (uapi/frec_raw.h): by (timestamp, CPU, seq,
 * ring id), or by (seq, ring id) for a dump of global-order rings.
 * Written here apart from kmod/lib/frec_merge.c, which frec-decode uses,
 * so that the two check each other.
 */
static int by_merge_order(const void *a, const void *b)
{
	const struct frec_raw_record *x = &((const struct gen_rec *)a)->rec;
	const struct frec_raw_record *y = &((const struct gen_rec *)b)->rec;

	if (!opt_global && x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (!opt_global && x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->ring < y->ring ? -1 : x->ring > y->ring;
}

/* @a and @b are records of different (ring, CPU) sources. */
static bool by_source_key_differs(const struct gen_rec *a, const struct gen_rec *b)
{
	return a->rec.ring != b->rec.ring || a->rec.cpu != b->rec.cpu;
}

/* By (ring id, CPU, seq): the records of each source together, in order. */
static int by_source(const void *a, const void *b)
{
	const struct frec_raw_record *x = &((const struct gen_rec *)a)->rec;
	const struct frec_raw_record *y = &((const struct gen_rec *)b)->rec;

	if (x->ring != y->ring)
		return x->ring < y->ring ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A task entry for each named task of pick_context(), swapped if need be. */
static void write_tasks(FILE *f)
{
	struct frec_raw_task t;
	unsigned int i;

	for (i = 0; i < sizeof(gen_pids) / sizeof(gen_pids[0]); i++) {
		if (!gen_comms[i])
			continue;
		memset(&t, 0, sizeof(t));
		t.head.type = out32(FREC_RAW_TASK);
		t.head.bytes = out32(sizeof(t));
		t.pid = out32(gen_pids[i]);
		snprintf(t.comm, sizeof(t.comm), "%s", gen_comms[i]);
		fwrite(&t, sizeof(t), 1, f);
	}
}

/* A record's entry, after its ring's (and, with --unknown, some junk). */
static void write_gen_rec(FILE *f, struct gen_rec *g)
{
	static bool tasks_written;

	if (!tasks_written) {
		write_tasks(f);
		tasks_written = true;
	}
	if (!g->ring->written)
		write_ring(f, g->ring);
	if (opt_unknown && !rnd_below(30))
		write_unknown(f);
	write_record(f, &g->rec, g->text);
}

/*
 * @recs sorted by source: list them taking each time the next record of
 * a source picked at random, so that sources interleave in no order the
 * merge would give.  Sources are picked with equal chances, whatever
 * their sizes: small ones end early, which a merge of the dump's order
 * would never give.
 */
static void write_shuffled(FILE *f, struct gen_rec *recs, unsigned long long nr)
{
	unsigned long long *next, *end, i;
	unsigned long long nr_src = 0, left = nr, s;

	next = calloc(nr ? nr : 1, sizeof(*next));
	end = calloc(nr ? nr : 1, sizeof(*end));
	if (!next || !end) {
		perror("frec-gen");
		exit(1);
	}
	for (i = 0; i < nr; i++) {
		if (!i || by_source_key_differs(&recs[i - 1], &recs[i]))
			next[nr_src++] = i;
		end[nr_src - 1] = i + 1;
	}
	while (left) {
		s = rnd() % nr_src;
		if (next[s] == end[s])
			continue;
		write_gen_rec(f, &recs[next[s]++]);
		left--;
	}
	free(next);
	free(end);
}

/* ---- a black box region image (--region) ---------------------------------- */

/*
 * PREFIX.region: the records in a region (uapi/frec_region.h), laid out
 * and sealed by the module's builder (kmod/lib/frec_region_build.c); the
 * slots are filled here, apart from the ring core, as the ring core
 * commits them (uapi/frec_raw.h).  Each part starts at a random position,
 * so that records run past the array's end into the next lap; no record
 * is overwritten, so frec-decode prints PREFIX.nokallsyms.txt for it.
 */
static u8 *region;
static u32 pool_used, pool_bytes;

static void *region_at(const struct frec_region_header *h, unsigned int sect,
		       u64 off)
{
	return region + le64toh(h->sect[sect].offset) + off;
}

static void region_str(const struct frec_region_header *h,
		       struct frec_region_str *str, const char *s)
{
	u32 len = (u32)strlen(s);

	if (pool_used + len > pool_bytes) {
		fprintf(stderr, "frec-gen: region pool full\n");
		exit(1);
	}
	frec_region_str_put(str, region_at(h, FREC_REGION_POOL, 0), pool_used, s, len);
	pool_used += len;
}

static void region_text(const struct frec_region_header *h, u32 *i, u32 kind,
			u64 addr, u64 from, const char *s)
{
	struct frec_region_text *t = region_at(h, FREC_REGION_TEXTS, *i * sizeof(*t));

	t->addr = htole64(addr);
	t->from = htole64(from);
	t->kind = htole32(kind);
	region_str(h, &t->text, s);
	frec_region_text_seal(t, region_at(h, FREC_REGION_POOL, 0), NULL);
	(*i)++;
}

/* Slots one record takes (the ring core's rule, written apart). */
static u32 gen_slots(u32 len)
{
	u32 k = 1;

	while (FREC_RECORD_HEAD_BYTES + (k - 1) * FREC_RECORD_CONT_BYTES < len)
		k++;
	return k;
}

/*
 * Where the part of ring @r on @cpu starts: so that its first record of
 * several slots runs past the array's end (its continuation in the next
 * lap), or, in a part without one, anywhere in the second half of the
 * first lap.
 */
static u64 region_base(const struct gen_rec *recs, unsigned long long nr,
		       u32 r, u32 cpu, u64 slots)
{
	unsigned long long j;
	u64 used = 0;
	u32 k;

	for (j = 0; j < nr; j++) {
		if (recs[j].ring != &rings[r] || recs[j].rec.cpu != cpu)
			continue;
		k = rings[r].kind ? gen_slots(recs[j].rec.len) : 1;
		if (k > 1)
			return slots - used - 1;
		used += k;
	}
	return slots / 2 + rnd_below((u32)(slots / 2));
}

static void write_region(const char *prefix, struct gen_rec *recs,
			 unsigned long long nr)
{
	struct frec_region_geometry geo = {
		.boot_id = "\x5e\xed\xb0\x07\x1d\x00\x40\x00\x80\x00\x12\x34\x56\x78\x9a\xbc",
		.boot_wall_ns = 1795000000000000000ULL, .release = "6.1.0-frec-gen",
		.flags = opt_unsynced ? 0 : FREC_REGION_CLOCK_SYNCED,
		.rings_max = NR_RINGS, .sites_max = nr_site_ids + 1,
		.texts_max = 64,
	};
	u64 need[NR_RINGS], base[NR_RINGS * 4096], parts = 0, pos, slots, off;
	struct frec_region_state *copies[2];
	struct frec_region_trace_clock clock;
	struct frec_region_header *h;
	u32 r, cpu, i, k, n, t = 0;
	unsigned long long j;
	FILE *f;

	/* The pool: room for every string the sites and texts hold. */
	for (i = 0; i < nr_sites; i++)
		pool_bytes += strlen(sites[i].module) + strlen(sites[i].file) +
			      strlen(sites[i].function) + strlen(sites[i].gf->fmt) +
			      strlen(sites[i].first_symbol);
	for (i = 0; i < NR_GOOD_FORMATS; i++)
		pool_bytes += strlen(formats[i].fmt);
	pool_bytes += 1024;	/* the bad and printk formats, the strings */
	for (i = 0; i < NR_STRINGS; i++)
		pool_bytes += strlen(strings[i].s);
	geo.pool_bytes = pool_bytes;
	/* Slots per part: room for every record of the busiest CPU. */
	memset(need, 0, sizeof(need));
	for (r = 0; r < NR_RINGS; r++) {
		u64 per_cpu[4096] = { 0 };

		for (j = 0; j < nr; j++)
			if (recs[j].ring == &rings[r])
				per_cpu[recs[j].rec.cpu] += rings[r].kind ?
					gen_slots(recs[j].rec.len) : 1;
		for (slots = 2, cpu = 0; cpu < opt_cpus; cpu++)
			while (slots < per_cpu[cpu] + 1)
				slots *= 2;
		need[r] = slots;
		parts += slots * FREC_SLOT_BYTES * opt_cpus;
	}
	geo.region_bytes = 6 * FREC_REGION_BLOCK + (pool_bytes | (FREC_REGION_BLOCK - 1)) + 1 +
			   ((parts + 4 * FREC_REGION_BLOCK) & ~(u64)(FREC_REGION_BLOCK - 1));
	region = calloc(1, geo.region_bytes);
	h = (void *)region;
	if (!region || frec_region_layout(h, &geo)) {
		fprintf(stderr, "frec-gen: cannot lay the region out\n");
		exit(1);
	}
	copies[0] = (void *)(region + FREC_REGION_STATE_OFF(0));
	copies[1] = (void *)(region + FREC_REGION_STATE_OFF(1));
	clock.trace_offset = opt_trace_offset;
	clock.window = 40;
	clock.flags = opt_trace_clock ? FREC_REGION_STATE_TRACE_OFFSET |
		(opt_unsynced ? 0 : FREC_REGION_STATE_OFFSET_CONSTANT) : 0;
	frec_region_state_write(copies, h, FREC_REGION_END_NONE, geo.boot_wall_ns, 1, &clock);
	frec_region_state_write(copies, h, FREC_REGION_END_PANIC,
				geo.boot_wall_ns + 60000000000ULL, 60000000000ULL, &clock);

	off = le64toh(h->sect[FREC_REGION_PARTS].offset);
	for (r = 0; r < NR_RINGS; r++) {
		struct frec_region_ring *e = region_at(h, FREC_REGION_RINGS, r * sizeof(*e));

		e->id = htole32(r);
		e->kind = htole32(rings[r].kind);
		e->order = htole32(opt_global ? FREC_RING_ORDER_GLOBAL : FREC_RING_ORDER_CPU);
		e->nr_cpus = htole32(opt_cpus);
		e->max_record_len = htole32(rings[r].kind ? 256 : 0);
		e->nr_slots = htole64(need[r]);
		e->parts_offset = htole64(off);
		snprintf(e->name, sizeof(e->name), "%s", rings[r].name);
		frec_region_ring_seal(e, NULL);
		for (cpu = 0; cpu < opt_cpus; cpu++)
			base[r * 4096 + cpu] = region_base(recs, nr, r, cpu, need[r]);
		off += need[r] * FREC_SLOT_BYTES * opt_cpus;
	}
	for (i = 0; i < nr_sites; i++) {
		const struct gen_site *s = &sites[i];
		struct frec_region_site *e;

		if (!s->id)
			continue;
		e = region_at(h, FREC_REGION_SITES, s->id * sizeof(*e));
		e->id = htole32(s->id);
		e->level = htole32(s->level);
		e->line = htole32(s->line);
		region_str(h, &e->module, s->module);
		region_str(h, &e->file, s->file);
		region_str(h, &e->function, s->function);
		region_str(h, &e->format, s->gf->fmt);
		frec_region_site_seal(e, region_at(h, FREC_REGION_POOL, 0), NULL);
		if (s->first) {
			e->caller = htole64(s->first);
			region_str(h, &e->caller_name, s->first_symbol);
			frec_region_site_seal_caller(e, region_at(h, FREC_REGION_POOL, 0), NULL);
		}
	}
	for (i = 0; i < NR_GOOD_FORMATS; i++)
		region_text(h, &t, FREC_REGION_TEXT_STRING, formats[i].addr, 0, formats[i].fmt);
	for (i = 0; i < sizeof(bad_formats) / sizeof(bad_formats[0]); i++)
		region_text(h, &t, FREC_REGION_TEXT_STRING, bad_formats[i].addr, 0,
			    bad_formats[i].fmt);
	for (i = 0; i < NR_PRINTK_FORMATS; i++)
		region_text(h, &t, FREC_REGION_TEXT_STRING, printk_formats[i].addr, 0,
			    printk_formats[i].fmt);
	for (i = 0; i < NR_STRINGS; i++)
		region_text(h, &t, FREC_REGION_TEXT_STRING, strings[i].addr, 0, strings[i].s);
	/*
	 * The tasks' names, as the texts sweep writes them: each named pid's,
	 * the first one's after a name it had before (a later entry of a
	 * pid replaces an earlier one), none for the task that had exited.
	 */
	for (i = 0, k = 0; i < sizeof(gen_pids) / sizeof(gen_pids[0]); i++) {
		if (!gen_comms[i])
			continue;
		if (!k++)
			region_text(h, &t, FREC_REGION_TEXT_TASK, gen_pids[i], 0, "before-exec");
		region_text(h, &t, FREC_REGION_TEXT_TASK, gen_pids[i], k == 1 ? 1000 : 0,
			    gen_comms[i]);
	}

	/* recs are in merge order: per (ring, CPU) in position order. */
	for (j = 0; j < nr; j++) {
		const struct frec_raw_record *rec = &recs[j].rec;
		struct frec_region_ring *e;
		struct frec_slot *slot;
		u64 *b, lap, mask;
		const char *p = recs[j].text;

		r = (u32)(recs[j].ring - rings);
		e = region_at(h, FREC_REGION_RINGS, r * sizeof(*e));
		mask = need[r] - 1;
		b = &base[r * 4096 + rec->cpu];
		pos = *b;
		k = rings[r].kind ? gen_slots(rec->len) : 1;
		*b += k;
		for (i = 0; i < k; i++) {
			slot = (void *)(region + le64toh(e->parts_offset) +
					((u64)rec->cpu * need[r] + ((pos + i) & mask)) *
					FREC_SLOT_BYTES);
			lap = (pos + i) & need[r] ? FREC_SLOT_LAP : 0;
			slot->state = htole64(rec->seq << FREC_SLOT_SEQ_SHIFT | lap |
					      (i ? FREC_SLOT_CONT : 0));
			if (!i) {
				slot->data[FREC_EVENT_TS] = htole64(rec->ts);
				slot->data[FREC_EVENT_SITE] = htole64(rec->site);
				slot->data[FREC_EVENT_CALLER] =
					htole64(frec_caller_word(rec->caller, FREC_CALLER_BASE,
								 rec->context));
			}
			if (!rings[r].kind) {
				for (n = 0; n < FREC_EVENT_MAX_ARGS; n++)
					slot->data[FREC_EVENT_ARG0 + n] = htole64(rec->args[n]);
			} else if (!i) {
				slot->data[FREC_RECORD_LEN] = htole64((u64)k << 32 | rec->len);
				n = rec->len < FREC_RECORD_HEAD_BYTES ? rec->len :
				    FREC_RECORD_HEAD_BYTES;
				memcpy(&slot->data[FREC_RECORD_PAYLOAD], p, n);
				p += n;
			} else {
				n = (u32)(recs[j].text + rec->len - p);
				n = n < FREC_RECORD_CONT_BYTES ? n : FREC_RECORD_CONT_BYTES;
				memcpy(slot->data, p, n);
				p += n;
			}
		}
	}
	f = open_out(prefix, "region");
	if (fwrite(region, 1, geo.region_bytes, f) != geo.region_bytes || fclose(f)) {
		perror("frec-gen");
		exit(1);
	}
	free(region);
}

/* The line the module prints for @g, into @line; its length. */
static size_t gen_line(char *line, size_t size, char *msg, size_t msg_size,
		       const struct gen_rec *g, const struct frec_format_env *env)
{
	const struct frec_raw_record *rec = &g->rec;
	struct frec_format_record fr;
	size_t len;

	memset(&fr, 0, sizeof(fr));
	fr.seq = rec->seq;
	fr.ts = rec->ts;
	fr.cpu = rec->cpu;
	fr.ring = g->ring->name;
	fr.caller = rec->caller;
	fr.context = rec->context;
	fr.context_known = true;
	if (g->text) {
		fr.text = g->text;
		fr.text_len = rec->len;
	} else if (g->missing) {
		/* frec-decode's stand-in for a format it does not have */
		len = (size_t)snprintf(msg, msg_size,
			"[format 0x%llx missing; args 0x%llx 0x%llx 0x%llx 0x%llx]",
			(unsigned long long)rec->site,
			(unsigned long long)rec->args[0],
			(unsigned long long)rec->args[1],
			(unsigned long long)rec->args[2],
			(unsigned long long)rec->args[3]);
		fr.text = msg;
		fr.text_len = (unsigned int)len;
	} else {
		fr.fmt = g->gf->fmt;
		fr.args = rec->args;
		fr.nr_args = FREC_EVENT_MAX_ARGS;
	}
	return frec_format_line(line, size, &fr, env);
}

/*
 * PREFIX.stats: what frec-decode --stats prints, per (ring id, CPU):
 * records, first and last seq, seqs missing between them and before the
 * first ("-" for global seqs, whose gaps are other CPUs' records).
 */
static void write_stats(const char *prefix, struct gen_rec *recs,
			unsigned long long nr)
{
	FILE *f = open_out(prefix, "stats");
	unsigned long long i, j, missing, total = 0;

	qsort(recs, nr, sizeof(*recs), by_source);
	fprintf(f, "# frec-decode stats: clock=%s order=%s\n"
		"# ring id cpu records first_seq last_seq missing before\n",
		FREC_CLOCK_NAME, frec_format_order(raw_flags()));
	for (i = 0; i < nr; i = j) {
		for (j = i + 1; j < nr && !by_source_key_differs(&recs[i], &recs[j]); j++)
			;
		fprintf(f, "%s %u %u %llu %llu %llu ", recs[i].ring->name,
			recs[i].rec.ring, recs[i].rec.cpu, j - i,
			(unsigned long long)recs[i].rec.seq,
			(unsigned long long)recs[j - 1].rec.seq);
		if (opt_global) {
			fputs("- -\n", f);
			continue;
		}
		missing = recs[j - 1].rec.seq - recs[i].rec.seq + 1 - (j - i);
		total += missing;
		fprintf(f, "%llu %llu\n", missing,
			(unsigned long long)recs[i].rec.seq - 1);
	}
	fprintf(f, "# total records %llu missing %llu\n", nr, total);
	if (fclose(f)) {
		perror("frec-gen");
		exit(1);
	}
}

/* Spans open on a (ring, CPU), innermost last. */
#define GEN_SPANS_OPEN	8

struct gen_span {
	u64 ts;
	u64 id;
	unsigned int n;
};

/* What became of span N (PREFIX.spans): its begin's and end's timestamps. */
struct gen_span_fate {
	u64 begin_ts;
	u64 end_ts;
	bool ended;
};

static struct gen_span_fate *span_fates;

struct gen_cpu {
	u64 ts;
	unsigned int depth;	/* open "> work" slices */
};

/*
 * A span's begin or end, now and then, into an event ring: ends mostly of
 * the CPU's innermost open span (nested), some of another CPU's (a task
 * that moved; the CPUs' clocks here are seconds apart, so such an end is
 * often behind its begin: the skew case).  False if it is neither.
 */
static bool gen_span(struct frec_raw_record *rec, const struct gen_format **gf,
		     struct gen_span *open, unsigned int *nr_open, unsigned int cpu)
{
	static unsigned int spans;
	unsigned int slot = cpu;
	struct gen_span *s;

	if (rnd_below(5))
		return false;
	if (opt_cpus > 1 && !rnd_below(4))
		slot = rnd_below(opt_cpus);
	if (nr_open[slot] && rnd_below(2)) {
		s = &open[slot * GEN_SPANS_OPEN + --nr_open[slot]];
		*gf = SPAN_END;
		rec->args[0] = s->n;
		rec->args[FREC_SPAN_END_ID] = s->id;
		rec->args[FREC_SPAN_END_DUR] = frec_span_dur_word(rec->ts, s->ts);
		span_fates[s->n].end_ts = rec->ts;
		span_fates[s->n].ended = true;
		return true;
	}
	if (nr_open[cpu] == GEN_SPANS_OPEN)
		return false;
	s = &open[cpu * GEN_SPANS_OPEN + nr_open[cpu]++];
	s->ts = rec->ts;
	s->id = frec_span_id(rec->seq, cpu);
	s->n = ++spans;
	span_fates[s->n].begin_ts = rec->ts;
	*gf = SPAN_BEGIN;
	rec->args[0] = s->n;
	rec->args[1] = cpu;
	return true;
}

static int usage(void)
{
	fprintf(stderr, "usage: frec-gen [-n RECORDS] [-s SEED] [-c CPUS] [--swap] "
		"[--bad] [--missing] [--unknown] [--global] [--shuffle] [--lose] "
		"[--unsynced] [--gaps] [--wrap] [--region] [--trace-offset NS] [--no-expected] "
		"PREFIX\n");
	return 2;
}

static const struct option long_options[] = {
	{ "swap", no_argument, NULL, 'w' },
	{ "bad", no_argument, NULL, 'b' },
	{ "missing", no_argument, NULL, 'm' },
	{ "unknown", no_argument, NULL, 'u' },
	{ "no-expected", no_argument, NULL, 'E' },
	{ "global", no_argument, NULL, 'g' },
	{ "shuffle", no_argument, NULL, 'S' },
	{ "lose", no_argument, NULL, 'l' },
	{ "unsynced", no_argument, NULL, 'U' },
	{ "region", no_argument, NULL, 'R' },
	{ "gaps", no_argument, NULL, 'G' },
	{ "wrap", no_argument, NULL, 'W' },
	{ "trace-offset", required_argument, NULL, 'T' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	static const struct frec_format_env env = {
		.symbol = gen_symbol, .string = gen_string,
	};
	static const struct frec_format_env env_sites = {
		.symbol = gen_site_symbol, .string = gen_string,
	};
	static char line[FREC_FORMAT_LINE_MAX], msg[256];
	struct gen_cpu *cpus;
	struct gen_span *spans_open;
	unsigned int *nr_spans_open;
	struct gen_rec *recs;
	unsigned long long *seqs;
	FILE *raw, *fmts, *ksyms, *txt = NULL, *ntxt = NULL;
	unsigned long long n, nr_recs = 0;
	unsigned int i, a;
	size_t len;
	int c;

	while ((c = getopt_long(argc, argv, "n:s:c:", long_options, NULL)) != -1) {
		switch (c) {
		case 'n':
			opt_records = strtoull(optarg, NULL, 0);
			break;
		case 's':
			rng ^= strtoull(optarg, NULL, 0) * 0x9e3779b97f4a7c15ULL;
			if (!rng)
				rng = 1;
			break;
		case 'c':
			opt_cpus = (unsigned int)strtoul(optarg, NULL, 0);
			if (!opt_cpus || opt_cpus > 4096)
				return usage();
			break;
		case 'w':
			opt_swap = true;
			break;
		case 'b':
			opt_bad = true;
			break;
		case 'm':
			opt_missing = true;
			break;
		case 'u':
			opt_unknown = true;
			break;
		case 'E':
			opt_expected = false;
			break;
		case 'g':
			opt_global = true;
			break;
		case 'S':
			opt_shuffle = true;
			break;
		case 'l':
			opt_lose = true;
			break;
		case 'U':
			opt_unsynced = true;
			break;
		case 'R':
			opt_region = true;
			break;
		case 'G':
			opt_gaps = true;
			break;
		case 'W':
			opt_wrap = true;
			break;
		case 'T':
			opt_trace_clock = true;
			opt_trace_offset = strtoll(optarg, NULL, 0);
			break;
		default:
			return usage();
		}
	}
	if (optind + 1 != argc)
		return usage();

	make_symbols();
	place_strings();
	make_sites();
	ksyms = open_out(argv[optind], "kallsyms");
	for (i = 0; i < nr_syms; i++)
		fprintf(ksyms, "%016llx %c %s%s%s%s\n", (unsigned long long)syms[i].addr,
			syms[i].type, syms[i].name, syms[i].mod ? "\t[" : "",
			syms[i].mod ? syms[i].mod : "", syms[i].mod ? "]" : "");
	fclose(ksyms);
	fmts = open_out(argv[optind], "formats");
	for (i = 0; i < NR_GOOD_FORMATS; i++)
		write_quoted_line(fmts, formats[i].addr, formats[i].fmt);
	for (i = 0; i < sizeof(bad_formats) / sizeof(bad_formats[0]); i++)
		write_quoted_line(fmts, bad_formats[i].addr, bad_formats[i].fmt);
	for (i = 0; i < NR_PRINTK_FORMATS; i++)
		write_quoted_line(fmts, printk_formats[i].addr, printk_formats[i].fmt);
	for (i = 0; i < NR_STRINGS; i++)
		write_quoted_line(fmts, strings[i].addr, strings[i].s);
	fclose(fmts);

	cpus = calloc(opt_cpus, sizeof(*cpus));
	spans_open = calloc(NR_RINGS * opt_cpus * GEN_SPANS_OPEN, sizeof(*spans_open));
	nr_spans_open = calloc(NR_RINGS * opt_cpus, sizeof(*nr_spans_open));
	seqs = calloc(NR_RINGS * opt_cpus, sizeof(*seqs));
	recs = calloc(opt_records ? opt_records : 1, sizeof(*recs));
	span_fates = calloc(opt_records + 1, sizeof(*span_fates));
	if (!cpus || !seqs || !recs || !spans_open || !nr_spans_open || !span_fates) {
		perror("frec-gen");
		return 1;
	}
	for (i = 0; i < opt_cpus; i++)
		cpus[i].ts = 1000000000ULL * (i + 1) + rnd_below(1000000);
	for (n = 1; n <= opt_records; n++) {
		struct gen_rec *g = &recs[nr_recs];
		struct frec_raw_record *rec = &g->rec;
		const struct gen_format *gf = NULL;
		struct gen_site *site;
		unsigned int r = rnd_below(NR_RINGS);
		struct gen_ring *ring = &rings[r];
		unsigned int cpu = rnd_below(opt_cpus);
		const char *text = NULL;

		memset(g, 0, sizeof(*g));
		cpus[cpu].ts += 1 + rnd_below(rnd_below(10) ? 5000 : 3000000);
		if (opt_gaps && !rnd_below(20))
			cpus[cpu].ts += 1000000000ULL + rnd_below(2000000000U);
		rec->seq = opt_global ? n : ++seqs[r * opt_cpus + cpu];
		rec->ts = cpus[cpu].ts;
		rec->cpu = cpu;
		rec->ring = ring->id;
		if (ring->kind == 1) {
			site = pick_site(NULL);
			rec->head.type = FREC_RAW_TEXT;
			text = texts[rnd_below(NR_TEXTS)];
			rec->len = (__u32)strlen(text);
		} else {
			rec->head.type = FREC_RAW_EVENT;
			if (ring->kind == 0 &&
			    gen_span(rec, &gf, &spans_open[r * opt_cpus * GEN_SPANS_OPEN],
				     &nr_spans_open[r * opt_cpus], cpu))
				;
			else if (opt_bad && !rnd_below(50))
				gf = &bad_formats[rnd_below(3)];
			else if (cpus[cpu].depth && !rnd_below(3))
				gf = &formats[3];		/* "< work" */
			else
				gf = &formats[rnd_below(NR_PICKED_FORMATS)];
			if (gf == &formats[2])
				cpus[cpu].depth++;
			else if (gf == &formats[3] && cpus[cpu].depth)
				cpus[cpu].depth--;
			site = pick_site(gf);
			for (a = 0; gf->kinds[a] && a < FREC_EVENT_MAX_ARGS &&
			     gf != SPAN_BEGIN && gf != SPAN_END; a++)
				rec->args[a] = pick_arg(gf->kinds[a]);
		}
		rec->caller = site_caller(site);
		rec->context = pick_context();
		rec->site = site_word(site);
		/* a format address, or a site id, that neither file has */
		if (!text && opt_missing && !rnd_below(40)) {
			rec->site = rnd_below(2) ? 0xffffffffc0f00000ULL + 8 * rnd_below(4) :
				    nr_site_ids + 1 + rnd_below(4);
			g->missing = true;
		}
		g->ring = ring;
		g->gf = gf;
		g->text = text;
		/*
		 * Overwritten in the ring: its seq is taken, the dump lacks it.
		 * CPU 0 also loses its oldest records, as a full ring does.
		 */
		if (opt_lose && (!rnd_below(25) || (!cpu && n <= opt_records / 10)))
			continue;
		if (opt_wrap && n <= opt_records * (cpu + 1) / (2 * opt_cpus))
			continue;
		nr_recs++;
	}

	fmts = open_out(argv[optind], "spans");
	for (n = 1; n <= opt_records && (span_fates[n].begin_ts || span_fates[n].ended); n++)
		if (span_fates[n].ended)
			fprintf(fmts, "%llu %llu %llu\n", n,
				(unsigned long long)span_fates[n].begin_ts,
				(unsigned long long)span_fates[n].end_ts);
		else
			fprintf(fmts, "%llu %llu -\n", n,
				(unsigned long long)span_fates[n].begin_ts);
	if (fclose(fmts)) {
		perror("frec-gen");
		return 1;
	}
	free(span_fates);
	raw = open_out(argv[optind], "raw");
	write_header(raw);
	/*
	 * Sorted by source (ring, CPU, seq), then listed in a random
	 * interleaving of the sources: each source stays in order, the whole
	 * does not.
	 */
	if (opt_shuffle) {
		qsort(recs, nr_recs, sizeof(*recs), by_source);
		write_shuffled(raw, recs, nr_recs);
	}
	qsort(recs, nr_recs, sizeof(*recs), by_merge_order);
	if (!opt_shuffle)
		for (n = 0; n < nr_recs; n++)
			write_gen_rec(raw, &recs[n]);
	if (opt_region)
		write_region(argv[optind], recs, nr_recs);
	/* every site has recorded now: its first caller is known */
	fmts = open_out(argv[optind], "sites");
	write_sites(fmts);
	if (fclose(fmts)) {
		perror("frec-gen");
		return 1;
	}
	if (opt_expected) {
		txt = open_out(argv[optind], "txt");
		ntxt = open_out(argv[optind], "nokallsyms.txt");
		fprintf(txt, FREC_FORMAT_HEADER_FMT, FREC_CLOCK_NAME,
			frec_format_order(raw_flags()), FREC_FORMAT_CONTEXT_COLUMN);
		fprintf(ntxt, FREC_FORMAT_HEADER_FMT, FREC_CLOCK_NAME,
			frec_format_order(raw_flags()), FREC_FORMAT_CONTEXT_COLUMN);
		for (n = 0; n < nr_recs; n++) {
			len = gen_line(line, sizeof(line), msg, sizeof(msg), &recs[n], &env);
			fwrite(line, 1, len, txt);
			len = gen_line(line, sizeof(line), msg, sizeof(msg), &recs[n],
				       &env_sites);
			fwrite(line, 1, len, ntxt);
		}
		write_stats(argv[optind], recs, nr_recs);
	}
	free(recs);
	free(seqs);
	free(spans_open);
	free(nr_spans_open);
	free(cpus);
	if (fclose(raw) || (txt && fclose(txt)) || (ntxt && fclose(ntxt))) {
		perror("frec-gen");
		return 1;
	}
	return 0;
}
