// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - frec-decode's command line: options, files, exit code.
 *
 * See frec-decode.1 (man page) and README.md for what it does.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"

#define FREC_DECODE_VERSION	"0.1"
#define DEFAULT_FORMATS		"/sys/kernel/debug/frec/formats"
#define DEFAULT_KALLSYMS	"/proc/kallsyms"

static const char usage_text[] =
"Usage: frec-decode [OPTION]... [RAW]\n"
"Decode a frec raw dump (RAW; standard input if absent or \"-\"), as written\n"
"by cat /sys/kernel/debug/frec/raw, into the dump's text, JSON or CSV.\n"
"\n"
"  -f, --formats=FILE    the formats table (default " DEFAULT_FORMATS ")\n"
"  -k, --kallsyms=FILE   the symbol table (default " DEFAULT_KALLSYMS ")\n"
"  -n, --no-kallsyms     print callers and %pS as addresses\n"
"  -o, --output=FILE     write to FILE instead of standard output\n"
"  -F, --format=FORMAT   text (the module's dump, the default), json\n"
"                        (Chrome trace events, for ui.perfetto.dev) or csv\n"
"      --json-track=BY   json: one track per cpu (the default) or per ring\n"
"  -r, --ring=NAMES      only records of these rings (comma-separated;\n"
"                        may be given again)\n"
"  -c, --cpu=LIST        only records of these CPUs, e.g. 0,2,4-7\n"
"  -s, --seq=FROM-TO     only records with seq from FROM to TO (inclusive;\n"
"                        either may be left out: 100-, -200, 150)\n"
"  -t, --time=FROM-TO    only records with timestamps from FROM to TO\n"
"                        seconds, e.g. 12.5-13.000250\n"
"  -d, --delta           print the time since the previous printed record\n"
"  -h, --help            print this and exit\n"
"  -V, --version         print the version and exit\n"
"\n"
"Errors name the file and the byte offset (raw dump) or line:\n"
"  frec-decode: FILE: offset N: WHAT\n"
"Exit status: 0 decoded; 1 bad input, unreadable file or write error;\n"
"2 bad usage; 3 decoded to the end, with warnings (bad or missing formats,\n"
"no readable kallsyms).\n";

static void die_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "frec-decode: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'frec-decode --help'.\n");
	exit(FREC_EXIT_USAGE);
}

/* A decimal number at *@s, moving *@s past it; false if none. */
static bool parse_ull(const char **s, unsigned long long *v)
{
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return false;
	*v = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (*v > (ULLONG_MAX - (unsigned long long)(*p - '0')) / 10)
			return false;
		*v = *v * 10 + (unsigned long long)(*p - '0');
	}
	*s = p;
	return true;
}

/* Seconds with up to 9 decimals, as ns. */
static bool parse_seconds(const char **s, unsigned long long *ns)
{
	unsigned long long sec, frac = 0;
	unsigned int digits = 0;

	if (!parse_ull(s, &sec) || sec > ULLONG_MAX / 1000000000ULL)
		return false;
	if (**s == '.') {
		for ((*s)++; **s >= '0' && **s <= '9'; (*s)++) {
			if (digits++ == 9)
				return false;
			frac = frac * 10 + (unsigned long long)(**s - '0');
		}
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (sec * 1000000000ULL > ULLONG_MAX - frac)
		return false;
	*ns = sec * 1000000000ULL + frac;
	return true;
}

/* "A-B", "A-", "-B" or "A", with numbers read by @num. */
static bool parse_range(const char *s, struct frec_range *r,
			bool (*num)(const char **, unsigned long long *))
{
	r->lo = 0;
	r->hi = ULLONG_MAX;
	if (*s != '-' && !num(&s, &r->lo))
		return false;
	if (!*s) {
		r->hi = r->lo;
		return true;
	}
	if (*s++ != '-')
		return false;
	if (*s && !num(&s, &r->hi))
		return false;
	return !*s && r->lo <= r->hi;
}

static void parse_cpus(struct frec_decode_opts *o, char *arg)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nr_cpus == FREC_FILTER_MAX)
			die_usage("--cpu: more than 64 ranges", NULL);
		if (!parse_range(tok, &o->cpus[o->nr_cpus++], parse_ull))
			die_usage("--cpu: '%s' is not a CPU or range of CPUs", tok);
	}
}

static void parse_rings(struct frec_decode_opts *o, char *arg)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nr_rings == FREC_FILTER_MAX)
			die_usage("--ring: more than 64 rings", NULL);
		o->rings[o->nr_rings++] = tok;
	}
}

/*
 * Read all of @path (which may report a size of 0, as /proc files do), at
 * most FREC_DECODE_FILE_MAX bytes.  Returns the bytes, NUL-terminated, or
 * NULL with errno set (EFBIG if too large).
 */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = NULL, *bigger;
	int saved;

	if (!f)
		return NULL;
	for (;;) {
		bigger = realloc(buf, cap + 1);
		if (!bigger)
			goto fail;
		buf = bigger;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		if (cap >= FREC_DECODE_FILE_MAX) {
			errno = EFBIG;
			goto fail;
		}
		cap *= 2;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	saved = errno;
	free(buf);
	fclose(f);
	errno = saved;
	return NULL;
}

/*
 * Load a table with @parse.  A default file that cannot be read is a
 * warning (*@missing set); a named one, or a bad one, is fatal.
 */
static bool load_table(const char *path, bool named, bool *missing, void *table,
		       int (*parse)(void *, const char *, size_t, struct frec_err *))
{
	struct frec_err err;
	size_t len;
	char *data = read_file(path, &len);

	*missing = false;
	if (!data) {
		fprintf(stderr, "frec-decode: %s: %s%s\n", path,
			errno == EFBIG ? "larger than 256 MiB" : strerror(errno),
			named ? "" : " (going on without it)");
		*missing = true;
		return !named;
	}
	if (parse(table, data, len, &err)) {
		fprintf(stderr, "frec-decode: %s: line %llu: %s\n", path,
			err.where, err.msg);
		free(data);
		return false;
	}
	free(data);
	return true;
}

static int parse_formats(void *t, const char *data, size_t len,
			 struct frec_err *err)
{
	return frec_formats_parse(t, data, len, err);
}

static int parse_kallsyms(void *k, const char *data, size_t len,
			  struct frec_err *err)
{
	return frec_kallsyms_parse(k, data, len, err);
}

enum { OPT_JSON_TRACK = 256 };

static const struct option long_options[] = {
	{ "formats", required_argument, NULL, 'f' },
	{ "kallsyms", required_argument, NULL, 'k' },
	{ "no-kallsyms", no_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'F' },
	{ "json-track", required_argument, NULL, OPT_JSON_TRACK },
	{ "ring", required_argument, NULL, 'r' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "seq", required_argument, NULL, 's' },
	{ "time", required_argument, NULL, 't' },
	{ "delta", no_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	struct frec_decode_opts opts = {
		.seq = { 0, ULLONG_MAX }, .time = { 0, ULLONG_MAX },
	};
	const char *formats_path = DEFAULT_FORMATS, *kallsyms_path = DEFAULT_KALLSYMS;
	const char *out_path = NULL, *in_path = "-", *in_name;
	bool formats_named = false, kallsyms_named = false, use_kallsyms = true;
	bool missing, warned = false;
	struct frec_formats formats = { 0 };
	struct frec_kallsyms kallsyms = { 0 };
	struct frec_decoder *d;
	FILE *in = stdin, *out = stdout;
	int c, ret;

	while ((c = getopt_long(argc, argv, "f:k:no:F:r:c:s:t:dhV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'f':
			formats_path = optarg;
			formats_named = true;
			break;
		case 'k':
			kallsyms_path = optarg;
			kallsyms_named = true;
			break;
		case 'n':
			use_kallsyms = false;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'F':
			if (!strcmp(optarg, "text"))
				opts.output = FREC_OUT_TEXT;
			else if (!strcmp(optarg, "json"))
				opts.output = FREC_OUT_JSON;
			else if (!strcmp(optarg, "csv"))
				opts.output = FREC_OUT_CSV;
			else
				die_usage("--format: '%s' is not text, json or csv", optarg);
			break;
		case OPT_JSON_TRACK:
			if (!strcmp(optarg, "cpu"))
				opts.track = FREC_TRACK_CPU;
			else if (!strcmp(optarg, "ring"))
				opts.track = FREC_TRACK_RING;
			else
				die_usage("--json-track: '%s' is not cpu or ring", optarg);
			break;
		case 'r':
			parse_rings(&opts, optarg);
			break;
		case 'c':
			parse_cpus(&opts, optarg);
			break;
		case 's':
			if (!parse_range(optarg, &opts.seq, parse_ull))
				die_usage("--seq: '%s' is not FROM-TO", optarg);
			break;
		case 't':
			if (!parse_range(optarg, &opts.time, parse_seconds))
				die_usage("--time: '%s' is not FROM-TO in seconds", optarg);
			break;
		case 'd':
			opts.deltas = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return FREC_EXIT_OK;
		case 'V':
			printf("frec-decode %s (raw dump version %u)\n",
			       FREC_DECODE_VERSION, FREC_RAW_VERSION);
			return FREC_EXIT_OK;
		default:
			fprintf(stderr, "Try 'frec-decode --help'.\n");
			return FREC_EXIT_USAGE;
		}
	}
	if (optind < argc)
		in_path = argv[optind++];
	if (optind < argc)
		die_usage("one raw dump at a time ('%s' is one too many)", argv[optind]);

	ret = FREC_EXIT_INPUT;
	if (!load_table(formats_path, formats_named, &missing, &formats, parse_formats))
		goto out_tables;
	warned |= missing;
	if (use_kallsyms) {
		if (!load_table(kallsyms_path, kallsyms_named, &missing, &kallsyms,
				parse_kallsyms))
			goto out_tables;
		warned |= missing;
		use_kallsyms = !missing;
		if (kallsyms.all_zero) {
			fprintf(stderr, "frec-decode: %s: every address is 0: kallsyms reads "
				"as zeros without CAP_SYSLOG (kptr_restrict); run as root, or "
				"save it as root and give the copy with --kallsyms; callers "
				"print as addresses\n", kallsyms_path);
			warned = true;
		}
	}

	if (strcmp(in_path, "-")) {
		in = fopen(in_path, "rb");
		if (!in) {
			fprintf(stderr, "frec-decode: %s: %s\n", in_path, strerror(errno));
			goto out_tables;
		}
		in_name = in_path;
	} else {
		in_name = "<stdin>";
	}
	if (out_path) {
		out = fopen(out_path, "w");
		if (!out) {
			fprintf(stderr, "frec-decode: %s: %s\n", out_path, strerror(errno));
			goto out_in;
		}
	}
	setvbuf(in, NULL, _IOFBF, 1 << 20);
	setvbuf(out, NULL, _IOFBF, 1 << 20);

	d = malloc(sizeof(*d));
	if (!d) {
		fprintf(stderr, "frec-decode: out of memory\n");
		goto out_out;
	}
	frec_decoder_init(d, &opts, &formats, use_kallsyms ? &kallsyms : NULL,
			  out, stderr);
	ret = frec_decode_stream(d, in, in_name);
	if (ret == FREC_EXIT_OK && warned)
		ret = FREC_EXIT_WARNINGS;
	frec_decoder_free(d);
	free(d);
out_out:
	if (out != stdout && fclose(out) && ret != FREC_EXIT_INPUT) {
		fprintf(stderr, "frec-decode: %s: %s\n", out_path, strerror(errno));
		ret = FREC_EXIT_INPUT;
	}
out_in:
	if (in != stdin)
		fclose(in);
out_tables:
	frec_formats_free(&formats);
	frec_kallsyms_free(&kallsyms);
	return ret;
}
