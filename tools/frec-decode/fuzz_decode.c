// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_decode.c - libFuzzer target for frec-decode's parsers.
 *
 * The first byte picks what the rest is fed to:
 *
 *   0-5  a raw dump, decoded to text, JSON or CSV (byte % 3), with and
 *        without deltas, against a small fixed formats, sites and kallsyms
 *        table;
 *        5 through a filter with ring globs, CPUs and text; kept whole and
 *        merged, or read twice (an odd first byte / 11); written as a
 *        trace.dat instead if bit 1 of the first byte / 11 is set, else
 *        as span latency histograms (-F hist) if bit 2 is; a first
 *        byte of 110 or more (its remainder by 11 0-5) prints --stats
 *        instead
 *   6    a formats file, then lookups of addresses taken from its bytes
 *   7    a kallsyms file, then lookups of addresses taken from its bytes
 *   8    a format string, formatted with arguments taken from its bytes
 *   9    a filter line (kmod/lib/frec_filter.c): parsed; if it parses,
 *        its print must parse back to the same filter (abort() if not),
 *        and it is matched against rings, CPUs, numbers and a line
 *   10   a sites file, then lookups of ids and callers taken from its bytes
 *
 * (the first byte modulo 11 picks the mode)
 *
 * In modes 0-5, an input that starts with the black box region's magic
 * is a region image instead (frec-decode detects it the same way), spread
 * out to fit the inputs' 8 KiB: its first 4096 bytes are block 0 (header
 * and state copies), and each next 512 bytes the start of the next
 * block, the rest of which is zeros: every section a region may have, in
 * the blocks a small region has them, is reached.
 *
 * Output goes to /dev/null; a crash, a sanitizer report, a leak or a hang
 * is what is looked for.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fuzz_formats[] =
	"0xffffffffc0a80000 : \"irq %d status %#lx\"\n"
	"0xffffffffc0a80020 : \"%s: %.*s %pS %ps %pB %p %pI4\"\n"
	"0xffffffffc0a80060 : \"> work %s\"\n"
	"0xffffffffc0a80080 : \"< work %s\"\n"
	"0xffffffffc0a800a0 : \"bad %y\"\n"
	"0xffffffffc0a800c0 : \"%-*c|%08.3lld|%#hhx|%c\"\n"
	"0xffffffffc0a800e0 : \"\x1f< span %u\x01\"\n"
	"0xffffffff82000000 : \"alpha\"\n"
	"0xffffffff82000008 : \"a string\\twith a tab\\n\"\n";

/* Sites 1 to 4, two naming callers the kallsyms table has too; 4 a span end. */
static const char fuzz_sites[] =
	"1 info 1 \"frec\" \"f.c\" \"fn\" 0xffffffffc0a00010 \"frec_fn+0x10/0x100 [frec]\" "
	"\"irq %d status %#lx %pS\"\n"
	"2 err 2 \"\" \"g.c\" \"g\" 0x0 \"\" \"> work %s\"\n"
	"3 trace 3 \"\" \"h.c\" \"h\" 0xffffffff81000104 \"do_work+0x4/0x300\" \"bad %y\"\n"
	"4 info 4 \"frec\" \"s.c\" \"s\" 0x0 \"\" \"\x1f< span %u\"\n";

static const char fuzz_kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t do_work\n"
	"ffffffff81000400 D data\n"
	"ffffffffc0a00000 t frec_fn\t[frec]\n"
	"ffffffffc0a00100 t frec_fn2\t[frec]\n"
	"ffffffffc0a00300 d __this_module\t[frec]\n";

static u64 fuzz_u64(const uint8_t *data, size_t size, size_t at)
{
	u64 v = 0;
	size_t i;

	for (i = 0; i < 8 && at + i < size; i++)
		v |= (u64)data[at + i] << (8 * i);
	return v;
}

#define FUZZ_REGION_BLOCKS	9
#define FUZZ_REGION_PIECE	512

/* A region image spread out of @data, decoded as frec-decode does. */
static void fuzz_region(const uint8_t *data, size_t size,
			const struct frec_decode_opts *opts, FILE *devnull)
{
	static struct frec_decoder d;
	static uint8_t image[FUZZ_REGION_BLOCKS * FREC_REGION_BLOCK];
	struct frec_region_decode rd = { .name = "fuzz" };
	struct frec_formats formats = { 0 };
	struct frec_sites sites = { 0 };
	struct frec_err err;
	size_t b, at, n;
	FILE *in;

	memset(image, 0, sizeof(image));
	memcpy(image, data, size < FREC_REGION_BLOCK ? size : FREC_REGION_BLOCK);
	for (b = 1; b < FUZZ_REGION_BLOCKS; b++) {
		at = FREC_REGION_BLOCK + (b - 1) * FUZZ_REGION_PIECE;
		if (at >= size)
			break;
		n = size - at < FUZZ_REGION_PIECE ? size - at : FUZZ_REGION_PIECE;
		memcpy(image + b * FREC_REGION_BLOCK, data + at, n);
	}
	if (frec_region_decode_open(&rd, image, sizeof(image), &err))
		goto out;
	if (frec_sites_parse(&sites, rd.sites_text, rd.sites_len, &err) ||
	    frec_formats_parse_region(&formats, rd.formats_text, rd.formats_len, &err))
		goto out;
	in = fmemopen(rd.raw, rd.raw_len, "rb");
	if (!in)
		goto out;
	frec_decoder_init(&d, opts, &formats, &sites, NULL, devnull, NULL);
	frec_decode_stream(&d, in, "fuzz");
	frec_decoder_free(&d);
	fclose(in);
out:
	frec_region_decode_free(&rd);
	frec_formats_free(&formats);
	frec_sites_free(&sites);
}

static void fuzz_raw(const uint8_t *data, size_t size, unsigned int mode,
		     bool stats, bool reread, unsigned int out, struct frec_formats *formats,
		     struct frec_sites *sites, struct frec_kallsyms *kallsyms,
		     FILE *devnull)
{
	static struct frec_decoder d;
	static struct frec_filter filter;
	struct frec_decode_opts opts = {
		.output = out & 2 ? FREC_OUT_TRACEDAT : out & 4 ? FREC_OUT_HIST :
			  (enum frec_output)(mode % 3),
		.deltas = mode >= 3,
		.track = mode & 1 ? FREC_TRACK_RING : FREC_TRACK_CPU,
		.filter = mode == 5 ? &filter : NULL,
		.stats = stats,
		.reread = reread,
	};
	FILE *in;

	/* The list of spans in flight after a text output's records. */
	opts.in_flight = opts.output == FREC_OUT_TEXT && !stats;

	if (!size)
		return;
	if (mode == 5 && frec_filter_parse(&filter, "ring=[!z]*,a cpu=0-3 text=a", NULL, NULL, 0))
		abort();
	if (size >= FREC_REGION_MAGIC_LEN &&
	    !memcmp(data, FREC_REGION_MAGIC, FREC_REGION_MAGIC_LEN)) {
		opts.reread = false;
		fuzz_region(data, size, &opts, devnull);
		return;
	}
	in = fmemopen((void *)data, size, "rb");
	if (!in)
		return;
	frec_decoder_init(&d, &opts, formats, sites, kallsyms, devnull, NULL);
	frec_decode_stream(&d, in, "fuzz");
	frec_decoder_free(&d);
	fclose(in);
}

static void fuzz_formats_file(const uint8_t *data, size_t size)
{
	struct frec_formats t;
	struct frec_err err;
	char buf[64];
	size_t i;

	if (!frec_formats_parse(&t, (const char *)data, size, &err))
		for (i = 0; i < size; i += 8) {
			u64 a = fuzz_u64(data, size, i);

			frec_formats_find(&t, a);
			frec_formats_string(&t, buf, 1 + i % sizeof(buf), a);
		}
	for (i = 0; i + 2 < size; i++) {	/* hits: the lines' addresses */
		char hex[17];
		size_t n;

		if (data[i] != '0' || data[i + 1] != 'x' || (i && data[i - 1] != '\n'))
			continue;
		for (n = 0; n < 16 && i + 2 + n < size &&
		     strchr("0123456789abcdefABCDEF", data[i + 2 + n]) && data[i + 2 + n];
		     n++)
			hex[n] = (char)data[i + 2 + n];
		hex[n] = '\0';
		if (t.entries)
			frec_formats_string(&t, buf, 1 + i % sizeof(buf),
					    strtoull(hex, NULL, 16) + i % 5);
	}
	frec_formats_free(&t);
}

static void fuzz_sites_file(const uint8_t *data, size_t size)
{
	struct frec_sites t;
	struct frec_err err;
	size_t i;

	if (!frec_sites_parse(&t, (const char *)data, size, &err))
		for (i = 0; i < size; i += 8) {
			u64 a = fuzz_u64(data, size, i);

			frec_sites_find(&t, a % 64);
			frec_sites_find(&t, a);
			frec_sites_caller(&t, a);
		}
	for (i = 0; i < t.nr; i++) {	/* hits: the lines' own ids and callers */
		const struct frec_site *s = frec_sites_find(&t, t.sites[i].key.addr);

		if (!s || s->key.addr != t.sites[i].key.addr)
			abort();	/* every id listed is found */
		frec_sites_caller(&t, t.sites[i].caller);
	}
	frec_sites_free(&t);
}

static void fuzz_kallsyms_file(const uint8_t *data, size_t size)
{
	struct frec_kallsyms k;
	struct frec_err err;
	char buf[96];
	size_t i;

	if (!frec_kallsyms_parse(&k, (const char *)data, size, &err))
		for (i = 0; i < size; i += 8) {
			u64 a = fuzz_u64(data, size, i);

			frec_kallsyms_symbol(&k, buf, sizeof(buf), a, 'S');
			frec_kallsyms_symbol(&k, buf, 1 + i % sizeof(buf), a, 's');
			frec_kallsyms_symbol(&k, buf, sizeof(buf), a, 'B');
		}
	frec_kallsyms_free(&k);
}

struct fuzz_tables {
	struct frec_formats *formats;
	struct frec_kallsyms *kallsyms;
};

static int fuzz_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	return frec_kallsyms_symbol(((struct fuzz_tables *)ctx)->kallsyms, buf,
				    size, addr, ext);
}

static int fuzz_string(void *ctx, char *buf, size_t size, u64 addr)
{
	return frec_formats_string(((struct fuzz_tables *)ctx)->formats, buf,
				   size, addr);
}

static void fuzz_format_string(const uint8_t *data, size_t size,
			       struct frec_formats *formats,
			       struct frec_kallsyms *kallsyms)
{
	struct fuzz_tables tables = { formats, kallsyms };
	struct frec_format_env env = {
		.symbol = fuzz_symbol, .string = fuzz_string, .ctx = &tables,
	};
	struct frec_format_record rec = { .ring = "fuzz", .caller = 0xffffffff81000123ULL };
	char fmt[512], buf[FREC_FORMAT_LINE_MAX];
	u64 args[4];
	size_t n = size < sizeof(fmt) - 1 ? size : sizeof(fmt) - 1, bad, i;

	memcpy(fmt, data, n);
	fmt[n] = '\0';
	for (i = 0; i < 4; i++) {
		args[i] = fuzz_u64(data, size, size > 32 ? size - 32 + 8 * i : 8 * i);
		if (args[i] % 3 == 0)		/* a string, or near one */
			args[i] = 0xffffffff82000000ULL + args[i] % 40;
		else if (args[i] % 3 == 1)	/* a symbol, or near one */
			args[i] = 0xffffffffc0a00000ULL + args[i] % 0x400;
	}
	frec_format_message(buf, 1 + size % sizeof(buf), fmt, args, size % 5,
			    &env, &bad);
	rec.fmt = fmt;
	rec.args = args;
	rec.nr_args = 4;
	frec_format_line(buf, 1 + (size * 7) % sizeof(buf), &rec, &env);
}

/* Rings that exist, for ring globs without wildcards: names starting with 'a'. */
static bool fuzz_ring_exists(void *ctx, const char *name)
{
	return name[0] == 'a';
}

static void fuzz_filter_line(const uint8_t *data, size_t size)
{
	static const char * const rings[] = { "a", "ab", "hanoi_moves", "x-y_z", "" };
	const struct frec_filter_env env = {
		.nr_cpus = 1 + size % FREC_FILTER_CPUS, .ring_exists = fuzz_ring_exists,
	};
	static struct frec_filter f, g;
	char line[2 * FREC_FILTER_MAX], print[2 * FREC_FILTER_MAX];
	char msg[FREC_FILTER_MSG_MAX];
	size_t n = size < sizeof(line) - 1 ? size : sizeof(line) - 1, i;

	memcpy(line, data, n);
	line[n] = '\0';
	if (frec_filter_parse(&f, line, &env, msg, sizeof(msg))) {
		if (!msg[0])
			abort();	/* every refusal says why */
		return;
	}
	frec_filter_print(&f, print, sizeof(print));
	if (frec_filter_parse(&g, print, &env, msg, sizeof(msg)) || memcmp(&f, &g, sizeof(f)))
		abort();	/* the print is the same filter */
	for (i = 0; i < sizeof(rings) / sizeof(rings[0]); i++) {
		u64 v = fuzz_u64(data, size, i * 8);

		frec_filter_ring(&f, rings[i]);
		frec_filter_record(&f, (unsigned int)v % (2 * FREC_FILTER_CPUS), (u32)(v >> 7), v, ~v);
		frec_filter_text(&f, line + i);
	}
	/* The glob matcher, on two strings of its own. */
	frec_filter_glob_match(line, line + strlen(line) / 2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct frec_formats formats;
	static struct frec_sites sites;
	static struct frec_kallsyms kallsyms;
	static FILE *devnull;
	struct frec_err err;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull ||
		    frec_formats_parse(&formats, fuzz_formats, strlen(fuzz_formats), &err) ||
		    frec_sites_parse(&sites, fuzz_sites, strlen(fuzz_sites), &err) ||
		    frec_kallsyms_parse(&kallsyms, fuzz_kallsyms, strlen(fuzz_kallsyms), &err))
			abort();
	}
	if (!size)
		return 0;
	switch (data[0] % 11) {
	case 6:
		fuzz_formats_file(data + 1, size - 1);
		break;
	case 7:
		fuzz_kallsyms_file(data + 1, size - 1);
		break;
	case 8:
		fuzz_format_string(data + 1, size - 1, &formats, &kallsyms);
		break;
	case 9:
		fuzz_filter_line(data + 1, size - 1);
		break;
	case 10:
		fuzz_sites_file(data + 1, size - 1);
		break;
	default:
		fuzz_raw(data + 1, size - 1, data[0] % 11, data[0] >= 110,
			 (data[0] / 11) & 1, data[0] / 11, &formats, &sites,
			 &kallsyms, devnull);
	}
	return 0;
}
