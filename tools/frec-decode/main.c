// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - frec-decode's command line: options, files, exit code.
 *
 * See frec-decode.1 (man page) and README.md for what it does.
 */
#include <fcntl.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frec_decode.h"

#define FREC_DECODE_VERSION	"0.1"
#define DEFAULT_FORMATS		"/sys/kernel/debug/frec/formats"
#define DEFAULT_SITES		"/sys/kernel/debug/frec/sites"
#define DEFAULT_KALLSYMS	"/proc/kallsyms"

static const char usage_text[] =
"Usage: frec-decode [OPTION]... [RAW]\n"
"Decode a frec raw dump (RAW; standard input if absent or \"-\"), as written\n"
"by cat /sys/kernel/debug/frec/raw, into the dump's text, JSON, CSV,\n"
"trace.dat or span latency histograms.\n"
"\n"
"  -f, --formats=FILE    the formats table (default " DEFAULT_FORMATS ")\n"
"  -S, --sites=FILE      the call sites (default " DEFAULT_SITES ")\n"
"  -k, --kallsyms=FILE   the symbol table (default " DEFAULT_KALLSYMS ")\n"
"  -n, --no-kallsyms     print callers and %pS as addresses, except those\n"
"                        the sites and formats files name\n"
"  -o, --output=FILE     write to FILE instead of standard output\n"
"  -F, --format=FORMAT   text (the module's dump, the default), json\n"
"                        (Chrome trace events, for ui.perfetto.dev), csv or\n"
"                        trace-dat (trace-cmd's trace.dat, for trace-cmd\n"
"                        report and KernelShark) or hist (a latency\n"
"                        histogram per span-end site, as frec/hist prints)\n"
"      --json-track=BY   json: per ring, a track per cpu (the default), one\n"
"                        for the whole ring (ring), or one per task and one\n"
"                        per CPU for its interrupts (task)\n"
"      --filter=LINE     only the records a filter line of the module's\n"
"                        filter file shows (doc/debugfs.md, Filter), e.g.\n"
"                        'ring=hanoi_* cpu=0-1 seq=100- time=12.5-13 text=disk 3'\n"
"  -r, --ring=GLOBS      ring=GLOBS: these rings (comma-separated globs;\n"
"                        may be given again)\n"
"  -c, --cpu=LIST        cpu=LIST: these CPUs, e.g. 0,2,4-7 (may be given\n"
"                        again)\n"
"  -s, --seq=FROM-TO     seq=FROM-TO: seq from FROM to TO, inclusive\n"
"                        (100-, -200, 150)\n"
"  -t, --time=FROM-TO    time=FROM-TO: timestamps from FROM to TO seconds\n"
"                        (12.5-13.000250, 12.5-, -13)\n"
"  -d, --delta           print the time since the previous printed record\n"
"      --stats           instead of the records, print per ring and CPU the\n"
"                        records, first and last seq, and the records lost\n"
"                        (seqs missing between them); filters do not apply\n"
"      --in-flight       after the records, list the spans in flight at the\n"
"                        dump's end: begun, not ended (text; a region\n"
"                        image's text lists them without it, as\n"
"                        frec/previous/dump does)\n"
"      --region          RAW is a black box region image (frec/previous/raw,\n"
"                        or a copy of the region from /dev/mem or a vmcore);\n"
"                        a file starting with the region's magic is one\n"
"                        without it.  Sites, formats and callers come from\n"
"                        the region: -f, -S, -k and -n do not apply\n"
"      --previous=FILE   RAW is a region image: print what the module's\n"
"                        frec/previous/FILE shows for it (dump, sites,\n"
"                        formats or stats), made by the module's own code\n"
"      --vmcore=FILE     the input is a kdump: /proc/vmcore in the capture\n"
"                        kernel, makedumpfile -E's ELF file or -c's\n"
"                        compressed one (zlib), of a boot whose frec had\n"
"                        vmcore_region=: every ring, printed as for a\n"
"                        region image (--previous applies)\n"
"  -h, --help            print this and exit\n"
"  -V, --version         print the version and exit\n"
"\n"
"Errors name the file and the byte offset (raw dump) or line:\n"
"  frec-decode: FILE: offset N: WHAT\n"
"Exit status: 0 decoded; 1 bad input, unreadable file or write error;\n"
"2 bad usage, or a filter naming a ring the dump does not have; 3 decoded\n"
"to the end, with warnings (bad or missing formats or sites, no readable\n"
"formats, sites or kallsyms file).\n";

static void die_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "frec-decode: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'frec-decode --help'.\n");
	exit(FREC_EXIT_USAGE);
}

/*
 * The filter line the options make, for the module's own parser
 * (kmod/lib/frec_filter.c): --ring and --cpu, each given once or more,
 * are a ring= and a cpu= term of their values joined with commas; --seq
 * and --time a term each time; --filter's line comes last, so that its
 * text= takes the rest of it.
 */
struct filter_opts {
	char *ring, *cpu, *terms;
	const char *line;
};

/* @s (or a new string) with @sep and @add after it. */
static char *append(char *s, const char *sep, const char *add)
{
	size_t n = s ? strlen(s) : 0;
	char *t = realloc(s, n + strlen(sep) + strlen(add) + 1);

	if (!t) {
		fprintf(stderr, "frec-decode: out of memory\n");
		exit(FREC_EXIT_INPUT);
	}
	if (!s)
		t[0] = '\0';
	else
		strcat(t, sep);
	strcat(t, add);
	return t;
}

/* A shorthand's value is one term's: no blank in it. */
static const char *shorthand(const char *arg)
{
	if (strpbrk(arg, " \t"))
		die_usage("'%s': a blank in the value of --ring, --cpu, --seq or --time", arg);
	return arg;
}

/* The filter of the options, or NULL for all records; exits if bad. */
static struct frec_filter *parse_filter(struct filter_opts *o)
{
	static struct frec_filter f;
	const struct frec_filter_env env = { .nr_cpus = FREC_FILTER_CPUS };
	char msg[FREC_FILTER_MSG_MAX], *line = NULL;

	if (o->ring) {
		line = append(line, " ", "ring=");
		line = append(line, "", o->ring);
	}
	if (o->cpu) {
		line = append(line, " ", "cpu=");
		line = append(line, "", o->cpu);
	}
	if (o->terms)
		line = append(line, " ", o->terms);
	if (o->line)
		line = append(line, " ", o->line);
	free(o->ring);
	free(o->cpu);
	free(o->terms);
	if (!line)
		return NULL;
	/* A ring name's existence is checked against the dump, at its end. */
	if (frec_filter_parse(&f, line, &env, msg, sizeof(msg)))
		die_usage("filter: %s", msg);
	free(line);
	return &f;
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

static int parse_sites(void *t, const char *data, size_t len,
		       struct frec_err *err)
{
	return frec_sites_parse(t, data, len, err);
}

static int parse_kallsyms(void *k, const char *data, size_t len,
			  struct frec_err *err)
{
	return frec_kallsyms_parse(k, data, len, err);
}

/* Does the file at @path start with a region's magic? */
static bool is_region(const char *path)
{
	char magic[FREC_REGION_MAGIC_LEN];
	FILE *f;
	bool yes;

	if (!strcmp(path, "-"))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	yes = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	      !memcmp(magic, FREC_REGION_MAGIC, sizeof(magic));
	fclose(f);
	return yes;
}

/* All of @f, at most @max bytes (a region's largest). */
static unsigned char *read_all(FILE *f, size_t max, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	unsigned char *buf = NULL, *bigger;

	for (;;) {
		bigger = realloc(buf, cap);
		if (!bigger)
			break;
		buf = bigger;
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap) {
			if (ferror(f))
				break;
			*len = n;
			return buf;
		}
		if (cap >= max) {
			errno = EFBIG;
			free(buf);
			return NULL;
		}
		cap *= 2;
	}
	free(buf);
	return NULL;
}

/*
 * Decode a region image: its own sites, texts and records, through the
 * decoder a raw dump goes through.
 */
/* A sink into a FILE, for the module's frec/previous/ writers. */
static void previous_write(void *ctx, const char *s, size_t len)
{
	fwrite(s, 1, len, ctx);
}

/*
 * What the module's frec/previous/@file shows for the region @rd, with the
 * code it shows it with (kmod/lib/frec_region_text.c, frec_region_dump.c).
 */
static void print_previous(struct frec_region_decode *rd, const char *file, FILE *out)
{
	struct frec_text_sink sink = { previous_write, out };
	char line[FREC_FORMAT_LINE_MAX];
	struct frec_inflight fi = { 0 };
	u64 i;

	if (!strcmp(file, "sites")) {
		fwrite(rd->sites_text, 1, rd->sites_len, out);
	} else if (!strcmp(file, "formats")) {
		fwrite(rd->formats_text, 1, rd->formats_len, out);
	} else if (!strcmp(file, "stats")) {
		frec_region_dump_stats(&rd->dump, &sink);
	} else {
		frec_region_dump_header(&rd->dump, &sink);
		for (i = 0; i < rd->dump.nr_recs; i++)
			fwrite(line, 1, frec_region_dump_line(&rd->dump, i, line, sizeof(line)),
			       out);
		if (frec_region_dump_inflight(&rd->dump, &fi))
			fprintf(stderr, "frec-decode: out of memory: the spans in flight are not listed\n");
		for (i = 0; i < frec_inflight_lines(&fi); i++)
			frec_region_dump_inflight_print(&rd->dump, &fi, i, &sink, line);
		frec_inflight_free(&fi);
	}
}

static int vmcore_read(void *ctx, u64 off, void *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = pread(*(int *)ctx, buf, len, (off_t)off);
		if (n <= 0) {
			if (!n)
				errno = EIO;
			if (n < 0 && errno == EINTR)
				continue;
			return -1;
		}
		buf = (char *)buf + n;
		off += (u64)n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The region image of frec's memory in the vmcore at @path (vmcore.c),
 * read at offsets: a vmcore is the crashed machine's memory, more than a
 * capture kernel has.
 */
static unsigned char *read_vmcore(const char *path, unsigned long long *warnings,
				  size_t *len)
{
	struct frec_vmcore_src src = { .read = vmcore_read };
	unsigned char *image = NULL;
	struct frec_err err;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "frec-decode: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	src.ctx = &fd;
	src.size = (u64)st.st_size;
	if (frec_vmcore_image(&src, path, stderr, warnings, &image, len, &err))
		fprintf(stderr, "frec-decode: %s: offset %llu: %s\n", path, err.where, err.msg);
	close(fd);
	return image;
}

static int decode_region(struct frec_decode_opts *opts, const char *in_path,
			 const char *out_path, const char *previous, bool vmcore)
{
	struct frec_region_decode rd = { .errs = stderr };
	struct frec_formats formats = { 0 };
	struct frec_sites sites = { 0 };
	struct frec_decoder *d = NULL;
	FILE *in = stdin, *out = stdout, *raw = NULL;
	struct frec_err err;
	unsigned char *data;
	size_t len;
	int ret = FREC_EXIT_INPUT;

	rd.name = strcmp(in_path, "-") ? in_path : "<stdin>";
	if (vmcore) {
		data = read_vmcore(in_path, &rd.warnings, &len);
		if (!data)
			return FREC_EXIT_INPUT;
		goto opened;
	}
	if (strcmp(in_path, "-") && !(in = fopen(in_path, "rb"))) {
		fprintf(stderr, "frec-decode: %s: %s\n", in_path, strerror(errno));
		return FREC_EXIT_INPUT;
	}
	data = read_all(in, (size_t)FREC_REGION_MAX_BYTES, &len);
	if (in != stdin)
		fclose(in);
	if (!data) {
		fprintf(stderr, "frec-decode: %s: %s\n", rd.name, strerror(errno));
		return FREC_EXIT_INPUT;
	}
opened:
	if (frec_region_decode_open(&rd, data, len, &err)) {
		fprintf(stderr, "frec-decode: %s: offset %llu: %s\n", rd.name,
			err.where, err.msg);
		goto out;
	}
	if (frec_sites_parse(&sites, rd.sites_text, rd.sites_len, &err) ||
	    frec_formats_parse_region(&formats, rd.formats_text, rd.formats_len, &err)) {
		/* The region's texts made a file the parser refuses: say which. */
		fprintf(stderr, "frec-decode: %s: the region's tables: line %llu: %s\n",
			rd.name, err.where, err.msg);
		goto out;
	}
	if (out_path && !(out = fopen(out_path, "w"))) {
		fprintf(stderr, "frec-decode: %s: %s\n", out_path, strerror(errno));
		goto out;
	}
	if (previous) {
		print_previous(&rd, previous, out);
		frec_region_decode_report(&rd);
		ret = rd.warnings ? FREC_EXIT_WARNINGS : FREC_EXIT_OK;
		goto out;
	}
	raw = fmemopen(rd.raw, rd.raw_len, "rb");
	d = malloc(sizeof(*d));
	if (!raw || !d) {
		fprintf(stderr, "frec-decode: out of memory\n");
		goto out;
	}
	opts->reread = false;
	/* As frec/previous/dump: the spans in flight when the region's boot ended. */
	opts->in_flight = opts->output == FREC_OUT_TEXT;
	frec_decoder_init(d, opts, &formats, &sites, NULL, out, stderr);
	ret = frec_decode_stream(d, raw, rd.name);
	frec_decoder_free(d);
	frec_region_decode_report(&rd);
	if (ret == FREC_EXIT_OK && rd.warnings)
		ret = FREC_EXIT_WARNINGS;
out:
	free(d);
	if (raw)
		fclose(raw);
	if (out != stdout && fclose(out) && ret != FREC_EXIT_INPUT) {
		fprintf(stderr, "frec-decode: %s: %s\n", out_path, strerror(errno));
		ret = FREC_EXIT_INPUT;
	}
	frec_region_decode_free(&rd);
	frec_formats_free(&formats);
	frec_sites_free(&sites);
	free(data);
	return ret;
}

enum {
	OPT_JSON_TRACK = 256, OPT_FILTER, OPT_STATS, OPT_REGION, OPT_PREVIOUS, OPT_VMCORE,
	OPT_IN_FLIGHT,
};

static const struct option long_options[] = {
	{ "formats", required_argument, NULL, 'f' },
	{ "sites", required_argument, NULL, 'S' },
	{ "kallsyms", required_argument, NULL, 'k' },
	{ "no-kallsyms", no_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'F' },
	{ "json-track", required_argument, NULL, OPT_JSON_TRACK },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "ring", required_argument, NULL, 'r' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "seq", required_argument, NULL, 's' },
	{ "time", required_argument, NULL, 't' },
	{ "delta", no_argument, NULL, 'd' },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "in-flight", no_argument, NULL, OPT_IN_FLIGHT },
	{ "region", no_argument, NULL, OPT_REGION },
	{ "previous", required_argument, NULL, OPT_PREVIOUS },
	{ "vmcore", required_argument, NULL, OPT_VMCORE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	struct frec_decode_opts opts = { 0 };
	struct filter_opts filter = { 0 };
	const char *formats_path = DEFAULT_FORMATS, *kallsyms_path = DEFAULT_KALLSYMS;
	const char *sites_path = DEFAULT_SITES;
	const char *out_path = NULL, *in_path = "-", *in_name, *previous = NULL;
	bool formats_named = false, kallsyms_named = false, use_kallsyms = true;
	bool sites_named = false, missing, warned = false, region = false, vmcore = false;
	struct frec_formats formats = { 0 };
	struct frec_sites sites = { 0 };
	struct frec_kallsyms kallsyms = { 0 };
	struct frec_decoder *d;
	struct stat st;
	FILE *in = stdin, *out = stdout;
	int c, ret;

	while ((c = getopt_long(argc, argv, "f:S:k:no:F:r:c:s:t:dhV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'f':
			formats_path = optarg;
			formats_named = true;
			break;
		case 'S':
			sites_path = optarg;
			sites_named = true;
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
			else if (!strcmp(optarg, "trace-dat"))
				opts.output = FREC_OUT_TRACEDAT;
			else if (!strcmp(optarg, "hist"))
				opts.output = FREC_OUT_HIST;
			else
				die_usage("--format: '%s': not text, json, csv, trace-dat, hist",
					  optarg);
			break;
		case OPT_JSON_TRACK:
			if (!strcmp(optarg, "cpu"))
				opts.track = FREC_TRACK_CPU;
			else if (!strcmp(optarg, "ring"))
				opts.track = FREC_TRACK_RING;
			else if (!strcmp(optarg, "task"))
				opts.track = FREC_TRACK_TASK;
			else
				die_usage("--json-track: '%s' is not cpu, ring or task", optarg);
			break;
		case OPT_FILTER:
			if (filter.line)
				die_usage("--filter: given twice ('%s' the second time)", optarg);
			filter.line = optarg;
			break;
		case 'r':
			filter.ring = append(filter.ring, ",", shorthand(optarg));
			break;
		case 'c':
			filter.cpu = append(filter.cpu, ",", shorthand(optarg));
			break;
		case 's':
		case 't':
			filter.terms = append(filter.terms, " ", c == 't' ? "time=" : "seq=");
			filter.terms = append(filter.terms, "", shorthand(optarg));
			break;
		case 'd':
			opts.deltas = true;
			break;
		case OPT_STATS:
			opts.stats = true;
			break;
		case OPT_IN_FLIGHT:
			opts.in_flight = true;
			break;
		case OPT_REGION:
			region = true;
			break;
		case OPT_PREVIOUS:
			if (strcmp(optarg, "dump") && strcmp(optarg, "sites") &&
			    strcmp(optarg, "formats") && strcmp(optarg, "stats"))
				die_usage("--previous: '%s' is not dump, sites, formats or stats",
					  optarg);
			previous = optarg;
			region = true;
			break;
		case OPT_VMCORE:
			vmcore = true;
			region = true;
			in_path = optarg;
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
	if (optind < argc && vmcore)
		die_usage("--vmcore names the input ('%s' is one too many)", argv[optind]);
	if (optind < argc)
		in_path = argv[optind++];
	if (optind < argc)
		die_usage("one raw dump at a time ('%s' is one too many)", argv[optind]);
	opts.filter = parse_filter(&filter);
	if (opts.in_flight && (opts.output != FREC_OUT_TEXT || opts.stats))
		die_usage("--in-flight: %s", "a list after the text output's records: "
			  "not with --stats or another -F");

	if (region || is_region(in_path))
		return decode_region(&opts, in_path, out_path, previous, vmcore);

	ret = FREC_EXIT_INPUT;
	if (!load_table(formats_path, formats_named, &missing, &formats, parse_formats))
		goto out_tables;
	warned |= missing;
	if (!load_table(sites_path, sites_named, &missing, &sites, parse_sites))
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
	/*
	 * A file can be read twice, to print a dump in order as it is read;
	 * not debugfs' frec/raw itself, which has a size of 0 and gives a new
	 * dump at each reading.  The raw reader reads in blocks of its own:
	 * no stdio buffer for it.
	 */
	opts.reread = !fstat(fileno(in), &st) && S_ISREG(st.st_mode) && st.st_size > 0;
	setvbuf(in, NULL, _IONBF, 0);
	setvbuf(out, NULL, _IOFBF, 1 << 20);

	d = malloc(sizeof(*d));
	if (!d) {
		fprintf(stderr, "frec-decode: out of memory\n");
		goto out_out;
	}
	frec_decoder_init(d, &opts, &formats, &sites, use_kallsyms ? &kallsyms : NULL,
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
	frec_sites_free(&sites);
	frec_kallsyms_free(&kallsyms);
	return ret;
}
