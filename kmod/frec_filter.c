// SPDX-License-Identifier: GPL-2.0
/*
 * frec_filter.c - which records a dump shows: parsing, printing and
 * matching the line written to debugfs frec/filter.
 *
 * Grammar (README.md, "Filtering"): space-separated terms, each at most
 * once, all of which must match:
 *
 *   ring=GLOB[,GLOB...]   ring names, with * ? [...] as in glob(7)
 *   cpu=LIST              CPUs, as in cpulist: 0-1,3
 *   seq=A-B | A- | -B | A sequence numbers, inclusive
 *   time=A-B | A- | -B    seconds since boot, up to 9 decimals, inclusive
 *   text=STRING           the message contains STRING; takes the rest of
 *                         the line, spaces included, so it comes last
 *
 * An empty line clears the filter.  Anything else is -EINVAL, a number
 * out of range or a CPU that cannot exist -ERANGE, and a ring name
 * without wildcards that names no ring -ENOENT; the filter in force is
 * then left as it was.
 */
#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "frec_filter.h"
#include "frec_rings.h"

/**
 * frec_filter_init() - a filter that lets everything through
 * @f: the filter.
 *
 * Context: Any context.
 */
void frec_filter_init(struct frec_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->any_cpu = true;
	f->seq_max = U64_MAX;
	f->ts_max = U64_MAX;
}

/* Seconds with up to 9 decimals, as ns. */
static int frec_filter_parse_time(const char *s, u64 *ns)
{
	char whole[24];
	const char *dot = strchr(s, '.');
	size_t n = dot ? dot - s : strlen(s);
	u64 sec, frac = 0;
	int digits = 0, err;

	if (!n || n >= sizeof(whole))
		return n ? -ERANGE : -EINVAL;
	memcpy(whole, s, n);
	whole[n] = '\0';
	err = kstrtou64(whole, 10, &sec);
	if (err)
		return err;
	if (dot) {
		for (s = dot + 1; *s; s++, digits++) {
			if (!isdigit(*s))
				return -EINVAL;
			if (digits == 9)
				return -ERANGE;
			frac = frac * 10 + (*s - '0');
		}
		if (!digits)
			return -EINVAL;
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (sec > (U64_MAX - frac) / NSEC_PER_SEC)
		return -ERANGE;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
}

static int frec_filter_parse_value(const char *s, u64 *v, bool time)
{
	return time ? frec_filter_parse_time(s, v) : kstrtou64(s, 10, v);
}

/* "A-B", "A-", "-B" (and "A" for sequence numbers) into [*lo, *hi]. */
static int frec_filter_parse_range(char *s, u64 *lo, u64 *hi, bool time)
{
	char *dash = strchr(s, '-');
	int err;

	*lo = 0;
	*hi = U64_MAX;
	if (!dash) {
		if (time)
			return -EINVAL;
		err = frec_filter_parse_value(s, lo, false);
		*hi = *lo;
		return err;
	}
	*dash = '\0';
	if (!*s && !dash[1])
		return -EINVAL;
	if (*s) {
		err = frec_filter_parse_value(s, lo, time);
		if (err)
			return err;
	}
	if (dash[1]) {
		err = frec_filter_parse_value(dash + 1, hi, time);
		if (err)
			return err;
	}
	return *lo <= *hi ? 0 : -ERANGE;
}

static bool frec_filter_glob_valid(const char *g)
{
	if (!*g)
		return false;
	for (; *g; g++)
		if (!isalnum(*g) && !strchr("_-*?[]!", *g))
			return false;
	return true;
}

/* A glob without wildcards must name a ring that exists. */
static int frec_filter_check_ring(const char *g)
{
	int err = 0;

	if (strpbrk(g, "*?["))
		return 0;
	down_read(&frec_rings_rwsem);
	if (!frec_ring_find(g))
		err = -ENOENT;
	up_read(&frec_rings_rwsem);
	return err;
}

static int frec_filter_parse_rings(struct frec_filter *f, char *s, bool must_exist)
{
	char *g;
	int err;

	while ((g = strsep(&s, ","))) {
		if (!frec_filter_glob_valid(g) || strlen(g) > FREC_RING_NAME_MAX)
			return -EINVAL;
		if (f->nr_globs == FREC_FILTER_MAX_GLOBS)
			return -E2BIG;
		if (must_exist) {
			err = frec_filter_check_ring(g);
			if (err)
				return err;
		}
		f->globs[f->nr_globs++] = g;
	}
	return 0;
}

/**
 * frec_filter_parse_ring_list() - a filter of ring globs alone
 * @f: filled in.
 * @list: GLOB[,GLOB...], as after a filter line's "ring="; "" for all
 *	rings.
 *
 * Unlike a filter line's ring term, a name without wildcards need not
 * name a ring that exists: the console dump's ring list (oops_rings) is
 * set before the drivers that create those rings load.
 *
 * Context: Any context.
 * Return: 0, -EINVAL for a bad glob, -E2BIG for more than
 * FREC_FILTER_MAX_GLOBS of them.
 */
int frec_filter_parse_ring_list(struct frec_filter *f, const char *list)
{
	size_t len = strnlen(list, FREC_FILTER_MAX + 1);

	frec_filter_init(f);
	if (len > FREC_FILTER_MAX)
		return -EINVAL;
	if (!len)
		return 0;
	memcpy(f->buf, list, len);
	f->buf[len] = '\0';
	return frec_filter_parse_rings(f, f->buf, false);
}

static int frec_filter_parse_cpus(struct frec_filter *f, const char *s)
{
	int err;

	if (!*s || !isdigit(*s))
		return -EINVAL;
	err = cpulist_parse(s, &f->cpus);
	if (err)
		return err;
	if (!cpumask_subset(&f->cpus, cpu_possible_mask))
		return -ERANGE;
	f->any_cpu = false;
	return 0;
}

/**
 * frec_filter_parse() - parse a filter line
 * @f: filled in; unchanged on error only in the sense that the caller
 *	should discard it.
 * @line: the line (a trailing newline is ignored).
 *
 * Context: Process context (looks ring names up under frec_rings_rwsem).
 * Return: 0; -EINVAL for garbage, an unknown or repeated term or an
 * overlong line; -ERANGE for a number or CPU out of range; -ENOENT for a
 * ring name that names no ring; -E2BIG for more than
 * FREC_FILTER_MAX_GLOBS ring globs.
 */
int frec_filter_parse(struct frec_filter *f, const char *line)
{
	unsigned int seen = 0, bit;
	char *s, *term, *val;
	size_t len = strnlen(line, FREC_FILTER_MAX + 1);
	int err = 0;

	frec_filter_init(f);
	if (len > FREC_FILTER_MAX)
		return -EINVAL;
	memcpy(f->buf, line, len);
	f->buf[len] = '\0';
	if (len && f->buf[len - 1] == '\n')
		f->buf[--len] = '\0';
	if (memchr(f->buf, '\n', len))
		return -EINVAL;
	s = f->buf;
	for (;;) {
		s = skip_spaces(s);
		if (!*s)
			break;
		if (str_has_prefix(s, "text=")) {
			bit = 16;
			if (seen & bit)
				return -EINVAL;
			seen |= bit;
			strscpy(f->text, s + 5, sizeof(f->text));
			if (!f->text[0])
				return -EINVAL;
			break;
		}
		term = strsep(&s, " \t");
		val = strchr(term, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(term, "ring"))
			bit = 1;
		else if (!strcmp(term, "cpu"))
			bit = 2;
		else if (!strcmp(term, "seq"))
			bit = 4;
		else if (!strcmp(term, "time"))
			bit = 8;
		else
			return -EINVAL;
		if (seen & bit)
			return -EINVAL;
		seen |= bit;
		switch (bit) {
		case 1:
			err = frec_filter_parse_rings(f, val, true);
			break;
		case 2:
			err = frec_filter_parse_cpus(f, val);
			break;
		case 4:
			err = frec_filter_parse_range(val, &f->seq_min, &f->seq_max, false);
			break;
		case 8:
			err = frec_filter_parse_range(val, &f->ts_min, &f->ts_max, true);
			break;
		}
		if (err)
			return err;
		if (!s)
			break;
	}
	return 0;
}

static int frec_filter_print_time(char *buf, size_t size, u64 ns)
{
	return scnprintf(buf, size, "%llu.%09llu", ns / NSEC_PER_SEC, ns % NSEC_PER_SEC);
}

/**
 * frec_filter_print() - the filter as a line that parses back to it
 * @f: the filter.
 * @buf: where to write it, with a newline; an empty line for no filter.
 * @size: its size.
 *
 * Context: Any context.
 * Return: the length written.
 */
int frec_filter_print(const struct frec_filter *f, char *buf, size_t size)
{
	int n = 0;
	unsigned int i;

	for (i = 0; i < f->nr_globs; i++)
		n += scnprintf(buf + n, size - n, "%s%s", i ? "," : "ring=", f->globs[i]);
	if (!f->any_cpu)
		n += scnprintf(buf + n, size - n, "%scpu=%*pbl", n ? " " : "",
			       cpumask_pr_args(&f->cpus));
	if (f->seq_min || f->seq_max != U64_MAX) {
		n += scnprintf(buf + n, size - n, "%sseq=", n ? " " : "");
		if (f->seq_min)
			n += scnprintf(buf + n, size - n, "%llu", f->seq_min);
		n += scnprintf(buf + n, size - n, "-");
		if (f->seq_max != U64_MAX)
			n += scnprintf(buf + n, size - n, "%llu", f->seq_max);
	}
	if (f->ts_min || f->ts_max != U64_MAX) {
		n += scnprintf(buf + n, size - n, "%stime=", n ? " " : "");
		if (f->ts_min)
			n += frec_filter_print_time(buf + n, size - n, f->ts_min);
		n += scnprintf(buf + n, size - n, "-");
		if (f->ts_max != U64_MAX)
			n += frec_filter_print_time(buf + n, size - n, f->ts_max);
	}
	if (f->text[0])
		n += scnprintf(buf + n, size - n, "%stext=%s", n ? " " : "", f->text);
	n += scnprintf(buf + n, size - n, "\n");
	return n;
}

/**
 * frec_filter_ring() - whether a ring's records may be shown
 * @f: the filter.
 * @name: the ring's name.
 *
 * Context: Any context.
 * Return: true if @name matches one of the ring globs, or there are none.
 */
bool frec_filter_ring(const struct frec_filter *f, const char *name)
{
	unsigned int i;

	if (!f->nr_globs)
		return true;
	for (i = 0; i < f->nr_globs; i++)
		if (glob_match(f->globs[i], name))
			return true;
	return false;
}

/**
 * frec_filter_record() - whether a record's CPU, seq and time match
 * @f: the filter.
 * @cpu: the record's CPU.
 * @seq: its sequence number.
 * @ts: its timestamp.
 *
 * Context: Any context.
 * Return: true if they match.
 */
bool frec_filter_record(const struct frec_filter *f, unsigned int cpu, u64 seq, u64 ts)
{
	return (f->any_cpu || cpumask_test_cpu(cpu, &f->cpus)) &&
	       seq >= f->seq_min && seq <= f->seq_max &&
	       ts >= f->ts_min && ts <= f->ts_max;
}

/**
 * frec_filter_text() - whether a formatted line has the filter's text
 * @f: the filter.
 * @line: the line.
 *
 * Context: Any context.
 * Return: true if @line contains the text term, or there is none.
 */
bool frec_filter_text(const struct frec_filter *f, const char *line)
{
	return !f->text[0] || strstr(line, f->text);
}
