// SPDX-License-Identifier: GPL-2.0
/*
 * frec_filter.c - the filter language: parsing, printing and matching the
 * line written to debugfs frec/filter and given to frec-decode --filter.
 *
 * Grammar (doc/debugfs.md, "Filter"): terms separated by spaces or tabs,
 * each at most once, all of which must match:
 *
 *   ring=GLOB[,GLOB...]   ring names, with * ? [...] [!...] as in glob(7)
 *   cpu=LIST              CPUs: N or A-B, comma-separated (0-1,3)
 *   pid=PID[,PID...]      records the tasks of these pids made (in task
 *                         context: not an interrupt on top of them)
 *   seq=A-B | A- | -B | A sequence numbers, inclusive
 *   time=A-B | A- | -B    seconds since boot, up to 9 decimals, inclusive
 *   text=STRING           the line contains STRING; takes the rest of
 *                         the line, spaces included, so it comes last
 *
 * Numbers are decimal (a leading '+' and leading zeros are taken, as
 * kstrtou64() takes them).  An empty line is the filter that shows
 * everything.  Anything else is -EINVAL; a number out of range or a CPU
 * that cannot exist -ERANGE; a ring name without wildcards that names no
 * ring -ENOENT (when the caller can tell, struct frec_filter_env); more
 * than FREC_FILTER_MAX_GLOBS globs -E2BIG.  Every error comes with a
 * message that quotes the term at fault: "seq=9-3: the range is empty".
 *
 * The canonical print (frec_filter_print()) parses back to the same
 * filter; a line whose print would be longer than FREC_FILTER_MAX bytes
 * is refused, so that what is shown can always be written back.
 *
 * It compiles unchanged in userspace with frec_user.h (tools/frec-decode,
 * the harness): its own number, CPU-list and glob code, and nothing of the
 * C library but <string.h>.  It never allocates or sleeps; only the
 * caller's ring_exists() may.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/types.h>
#endif

#include "frec_caller_word.h"
#include "frec_filter.h"

/* Bytes of the term at fault an error message quotes. */
#define FREC_FILTER_QUOTE_MAX	40

/* Terms, as bits of what a line has had (frec_filter_term()'s order). */
#define FREC_FILTER_RING	1u
#define FREC_FILTER_CPU		2u
#define FREC_FILTER_SEQ		4u
#define FREC_FILTER_TIME	8u
#define FREC_FILTER_PID		16u

/*
 * Text going into a buffer of @size bytes (none if 0), always
 * NUL-terminated; @len counts all of it, what did not fit too.
 */
struct frec_filter_out {
	char *buf;
	size_t size;
	size_t len;
};

static void frec_filter_put(struct frec_filter_out *o, const char *s, size_t n)
{
	size_t room;

	if (o->len + 1 < o->size) {
		room = o->size - 1 - o->len;
		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
}

static void frec_filter_puts(struct frec_filter_out *o, const char *s)
{
	frec_filter_put(o, s, strlen(s));
}

static void frec_filter_put_u64(struct frec_filter_out *o, u64 v)
{
	char digits[20];
	size_t i = sizeof(digits);

	do
		digits[--i] = '0' + v % 10;
	while (v /= 10);
	frec_filter_put(o, digits + i, sizeof(digits) - i);
}

/* Seconds with 9 decimals. */
static void frec_filter_put_time(struct frec_filter_out *o, u64 ns)
{
	char frac[10];
	u64 r = ns % NSEC_PER_SEC;
	int i;

	frec_filter_put_u64(o, ns / NSEC_PER_SEC);
	frac[0] = '.';
	for (i = 9; i > 0; i--, r /= 10)
		frac[i] = '0' + r % 10;
	frec_filter_put(o, frac, sizeof(frac));
}

/* @n bytes of a line, quoted into a message: at most 40, \xNN for the unprintable. */
static void frec_filter_put_quoted(struct frec_filter_out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char esc[4] = { '\\', 'x' };
	size_t i, shown = n < FREC_FILTER_QUOTE_MAX ? n : FREC_FILTER_QUOTE_MAX;

	for (i = 0; i < shown; i++) {
		unsigned char c = s[i];

		if (c >= ' ' && c < 0x7f) {
			frec_filter_put(o, s + i, 1);
			continue;
		}
		esc[2] = hex[c >> 4];
		esc[3] = hex[c & 15];
		frec_filter_put(o, esc, sizeof(esc));
	}
	if (shown < n)
		frec_filter_puts(o, "...");
}

static bool frec_filter_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* What a ring glob may hold: a ring name's [A-Za-z0-9_-] and * ? [ ] !. */
static bool frec_filter_is_glob_char(char c)
{
	return frec_ring_name_char(c) || (c && strchr("*?[]!", c));
}

static bool frec_filter_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/**
 * struct frec_filter_parser - a line being parsed
 * @f: the filter being filled in.
 * @env: what the caller can tell; NULL for nothing.
 * @term: the term being read, as written, for messages; NULL for none.
 * @term_len: its length.
 * @msg: the error message.
 */
struct frec_filter_parser {
	struct frec_filter *f;
	const struct frec_filter_env *env;
	const char *term;
	size_t term_len;
	struct frec_filter_out msg;
};

/* Set the message to "TERM: WHY" (or "WHY"), to be added to; returns @err. */
static int frec_filter_fail(struct frec_filter_parser *p, int err, const char *why)
{
	p->msg.len = 0;
	if (p->msg.size)
		p->msg.buf[0] = '\0';
	if (p->term) {
		frec_filter_put_quoted(&p->msg, p->term, p->term_len);
		frec_filter_puts(&p->msg, ": ");
	}
	frec_filter_puts(&p->msg, why);
	return err;
}

/* A decimal number, the whole of @s[0..@n) ('+' and leading zeros taken). */
static int frec_filter_parse_u64(const char *s, size_t n, u64 *v)
{
	size_t i = n && s[0] == '+';
	unsigned int d;

	*v = 0;
	if (i == n)
		return -EINVAL;
	for (; i < n; i++) {
		if (!frec_filter_is_digit(s[i]))
			return -EINVAL;
		d = s[i] - '0';
		if (*v > (U64_MAX - d) / 10)
			return -ERANGE;
		*v = *v * 10 + d;
	}
	return 0;
}

/* A sequence number; errors set the message. */
static int frec_filter_parse_seq(struct frec_filter_parser *p, const char *s, size_t n,
				 u64 *v)
{
	int err = frec_filter_parse_u64(s, n, v);

	if (err == -ERANGE) {
		err = frec_filter_fail(p, err, "a number above ");
		frec_filter_put_u64(&p->msg, U64_MAX);
	} else if (err) {
		err = frec_filter_fail(p, err, "not a number");
	}
	return err;
}

/* Seconds with up to 9 decimals, as ns; errors set the message. */
static int frec_filter_parse_time(struct frec_filter_parser *p, const char *s, size_t n,
				  u64 *ns)
{
	const char *dot = memchr(s, '.', n);
	size_t whole = dot ? (size_t)(dot - s) : n, i;
	u64 sec, frac = 0;
	int digits = 0, err;

	err = whole ? frec_filter_parse_u64(s, whole, &sec) : -EINVAL;
	if (err == -EINVAL)
		return frec_filter_fail(p, err, "not seconds, such as 12.5");
	if (err)
		goto too_late;
	if (dot) {
		for (i = whole + 1; i < n; i++, digits++) {
			if (!frec_filter_is_digit(s[i]))
				return frec_filter_fail(p, -EINVAL, "not seconds, such as 12.5");
			if (digits == 9)
				return frec_filter_fail(p, -ERANGE, "more than 9 decimals");
			frac = frac * 10 + (s[i] - '0');
		}
		if (!digits)
			return frec_filter_fail(p, -EINVAL, "no digit after the point");
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (sec > (U64_MAX - frac) / NSEC_PER_SEC)
		goto too_late;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
too_late:
	err = frec_filter_fail(p, -ERANGE, "a time after ");
	frec_filter_put_time(&p->msg, U64_MAX);
	return err;
}

/* seq= or time=: "A-B", "A-", "-B" (and "A" for sequence numbers). */
static int frec_filter_parse_range(struct frec_filter_parser *p, const char *s, size_t n,
				   u64 *lo, u64 *hi, bool time)
{
	const char *dash = memchr(s, '-', n), *end = s + n;
	int err = 0;

	*lo = 0;
	*hi = U64_MAX;
	if (!dash) {
		if (time)
			return frec_filter_fail(p, -EINVAL, "a time takes a range: A-B, A- or -B");
		err = frec_filter_parse_seq(p, s, n, lo);
		*hi = *lo;
		return err;
	}
	if (dash == s && dash + 1 == end)
		return frec_filter_fail(p, -EINVAL, "no bound on either side of the '-'");
	if (dash > s)
		err = time ? frec_filter_parse_time(p, s, dash - s, lo) :
			     frec_filter_parse_seq(p, s, dash - s, lo);
	if (!err && dash + 1 < end)
		err = time ? frec_filter_parse_time(p, dash + 1, end - dash - 1, hi) :
			     frec_filter_parse_seq(p, dash + 1, end - dash - 1, hi);
	if (!err && *lo > *hi)
		err = frec_filter_fail(p, -ERANGE, "the range is empty");
	return err;
}

/* cpu=: one "N" or "A-B" of a list into the bitmap. */
static int frec_filter_parse_cpu_range(struct frec_filter_parser *p, const char *s, size_t n,
				       unsigned int nr_cpus)
{
	const char *dash = memchr(s, '-', n);
	size_t a_len = dash ? (size_t)(dash - s) : n;
	const char *b = dash ? dash + 1 : s, *bad;
	size_t b_len = n - (b - s);
	u64 lo, hi, cpu;
	int err_lo, err_hi, err;

	/* Digits only: no sign, no empty part. */
	if (!a_len || !b_len || !frec_filter_is_digit(s[0]) || !frec_filter_is_digit(b[0]))
		return frec_filter_fail(p, -EINVAL, "not a CPU list, such as 0-1,3");
	err_lo = frec_filter_parse_u64(s, a_len, &lo);
	err_hi = frec_filter_parse_u64(b, b_len, &hi);
	if (err_lo == -EINVAL || err_hi == -EINVAL)
		return frec_filter_fail(p, -EINVAL, "not a CPU list, such as 0-1,3");
	if (!err_lo && !err_hi && lo > hi)
		return frec_filter_fail(p, -EINVAL, "the range is empty");
	if (err_lo || err_hi || hi >= nr_cpus) {
		bad = err_lo || lo >= nr_cpus ? s : b;
		err = frec_filter_fail(p, -ERANGE, "CPU ");
		frec_filter_put_quoted(&p->msg, bad, bad == s ? a_len : b_len);
		frec_filter_puts(&p->msg, " does not exist");
		if (nr_cpus) {
			frec_filter_puts(&p->msg, " (0-");
			frec_filter_put_u64(&p->msg, nr_cpus - 1);
			frec_filter_puts(&p->msg, ")");
		}
		return err;
	}
	for (cpu = lo; cpu <= hi; cpu++)
		p->f->cpus[cpu / 64] |= 1ULL << (cpu % 64);
	return 0;
}

/*
 * pid=: at most FREC_FILTER_MAX_PIDS pids, each 0 to FREC_CTX_PID_MASK,
 * kept in ascending order without repeats (the canonical print's).
 */
static int frec_filter_parse_pids(struct frec_filter_parser *p, const char *s, size_t n)
{
	const char *end = s + n, *comma;
	struct frec_filter *f = p->f;
	unsigned int i, j;
	size_t len;
	u64 pid;
	int err;

	for (;;) {
		comma = memchr(s, ',', end - s);
		len = (comma ?: end) - s;
		if (!len || !frec_filter_is_digit(s[0]))
			return frec_filter_fail(p, -EINVAL, "not a list of pids, such as 1,412");
		err = frec_filter_parse_u64(s, len, &pid);
		if (err == -EINVAL)
			return frec_filter_fail(p, -EINVAL, "not a list of pids, such as 1,412");
		if (err || pid > FREC_CTX_PID_MASK) {
			err = frec_filter_fail(p, -ERANGE, "pid ");
			frec_filter_put_quoted(&p->msg, s, len);
			frec_filter_puts(&p->msg, " is past the largest, ");
			frec_filter_put_u64(&p->msg, FREC_CTX_PID_MASK);
			return err;
		}
		for (i = 0; i < f->nr_pids && f->pids[i] < pid; i++)
			;
		if (i == f->nr_pids || f->pids[i] != pid) {
			if (f->nr_pids == FREC_FILTER_MAX_PIDS) {
				err = frec_filter_fail(p, -E2BIG, "more than ");
				frec_filter_put_u64(&p->msg, FREC_FILTER_MAX_PIDS);
				frec_filter_puts(&p->msg, " pids");
				return err;
			}
			for (j = f->nr_pids++; j > i; j--)
				f->pids[j] = f->pids[j - 1];
			f->pids[i] = pid;
		}
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

static int frec_filter_parse_cpus(struct frec_filter_parser *p, const char *s, size_t n)
{
	unsigned int nr_cpus = p->env ? p->env->nr_cpus : FREC_FILTER_CPUS;
	const char *end = s + n, *comma;
	int err;

	if (nr_cpus > FREC_FILTER_CPUS)
		nr_cpus = FREC_FILTER_CPUS;
	for (;;) {
		comma = memchr(s, ',', end - s);
		err = frec_filter_parse_cpu_range(p, s, (comma ?: end) - s, nr_cpus);
		if (err)
			return err;
		if (!comma)
			break;
		s = comma + 1;
	}
	p->f->any_cpu = false;
	return 0;
}

/* A glob without wildcards must name a ring, if the caller can tell. */
static int frec_filter_check_glob(struct frec_filter_parser *p, const char *g)
{
	int err;

	if (!p->env || !p->env->ring_exists || strpbrk(g, "*?[") ||
	    p->env->ring_exists(p->env->ctx, g))
		return 0;
	err = frec_filter_fail(p, -ENOENT, "no ring named ");
	frec_filter_put_quoted(&p->msg, g, strlen(g));
	return err;
}

/* GLOB[,GLOB...] into f->globs. */
static int frec_filter_parse_globs(struct frec_filter_parser *p, const char *s, size_t n,
				   bool check)
{
	struct frec_filter *f = p->f;
	const char *end = s + n, *comma;
	size_t len, i;
	int err;

	for (;;) {
		comma = memchr(s, ',', end - s);
		len = (comma ?: end) - s;
		if (!len)
			return frec_filter_fail(p, -EINVAL, "an empty ring glob");
		for (i = 0; i < len; i++) {
			if (frec_filter_is_glob_char(s[i]))
				continue;
			err = frec_filter_fail(p, -EINVAL, "'");
			frec_filter_put_quoted(&p->msg, s + i, 1);
			frec_filter_puts(&p->msg, "' cannot be in a ring glob");
			return err;
		}
		if (len > FREC_FILTER_GLOB_MAX) {
			err = frec_filter_fail(p, -EINVAL, "a ring glob longer than ");
			frec_filter_put_u64(&p->msg, FREC_FILTER_GLOB_MAX);
			frec_filter_puts(&p->msg, " bytes");
			return err;
		}
		if (f->nr_globs == FREC_FILTER_MAX_GLOBS) {
			err = frec_filter_fail(p, -E2BIG, "more than ");
			frec_filter_put_u64(&p->msg, FREC_FILTER_MAX_GLOBS);
			frec_filter_puts(&p->msg, " ring globs");
			return err;
		}
		memcpy(f->globs[f->nr_globs], s, len);
		if (check) {
			err = frec_filter_check_glob(p, f->globs[f->nr_globs]);
			if (err)
				return err;
		}
		f->nr_globs++;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

/* The canonical line, with its newline, into @o. */
static void frec_filter_print_to(const struct frec_filter *f, struct frec_filter_out *o);

/* Refuse what would print longer than a line may be. */
static int frec_filter_check_length(struct frec_filter_parser *p)
{
	struct frec_filter_out o = { NULL, 0, 0 };
	int err;

	frec_filter_print_to(p->f, &o);
	if (o.len - 1 <= FREC_FILTER_MAX)
		return 0;
	p->term = NULL;
	err = frec_filter_fail(p, -EINVAL, "longer than ");
	frec_filter_put_u64(&p->msg, FREC_FILTER_MAX);
	frec_filter_puts(&p->msg, " bytes once written out");
	return err;
}

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

/* A term's name, with its '=', as a FREC_FILTER_* bit; 0 if none. */
static unsigned int frec_filter_term(const char *s, size_t n)
{
	static const char * const terms[] = { "ring=", "cpu=", "seq=", "time=", "pid=", NULL };
	unsigned int i;

	for (i = 0; terms[i]; i++)
		if (strlen(terms[i]) == n && !memcmp(s, terms[i], n))
			return 1u << i;
	return 0;
}

/**
 * frec_filter_parse() - parse a filter line
 * @f: filled in; on error, to be thrown away.
 * @line: the line; one final newline is ignored.
 * @env: how many CPUs there are and which rings exist; NULL for
 *	FREC_FILTER_CPUS CPUs and any ring name.
 * @msg: on error, what is wrong, naming the term at fault (e.g.
 *	"seq=9-3: the range is empty"); "" on success.  May be NULL.
 * @msg_size: its size (FREC_FILTER_MSG_MAX is enough).
 *
 * Context: Any context @env->ring_exists() may be called in.
 * Return: 0; -EINVAL for garbage, an unknown or repeated term, a line
 * longer than FREC_FILTER_MAX bytes or one printing longer; -ERANGE for a
 * number or CPU out of range; -ENOENT for a ring name without wildcards
 * that @env->ring_exists() does not know; -E2BIG for more than
 * FREC_FILTER_MAX_GLOBS ring globs.
 */
int frec_filter_parse(struct frec_filter *f, const char *line,
		      const struct frec_filter_env *env, char *msg, size_t msg_size)
{
	struct frec_filter_parser p = { f, env, NULL, 0, { msg, msg_size, 0 } };
	size_t len = strnlen(line, FREC_FILTER_MAX + 2);
	const char *s = line, *end, *term_end, *eq;
	unsigned int seen = 0, bit;
	int err;

	frec_filter_init(f);
	if (msg_size)
		msg[0] = '\0';
	if (len && line[len - 1] == '\n')
		len--;
	if (len > FREC_FILTER_MAX) {
		err = frec_filter_fail(&p, -EINVAL, "longer than ");
		frec_filter_put_u64(&p.msg, FREC_FILTER_MAX);
		frec_filter_puts(&p.msg, " bytes");
		return err;
	}
	if (memchr(line, '\n', len))
		return frec_filter_fail(&p, -EINVAL, "a newline inside the line");
	end = line + len;
	for (;;) {
		while (s < end && frec_filter_is_blank(*s))
			s++;
		if (s == end)
			break;
		if (end - s >= 5 && !memcmp(s, "text=", 5)) {
			p.term = s;
			p.term_len = end - s;
			if (end - s == 5)
				return frec_filter_fail(&p, -EINVAL, "no text");
			memcpy(f->text, s + 5, end - s - 5);
			break;
		}
		for (term_end = s; term_end < end && !frec_filter_is_blank(*term_end); term_end++)
			;
		p.term = s;
		p.term_len = term_end - s;
		eq = memchr(s, '=', term_end - s);
		bit = eq ? frec_filter_term(s, eq + 1 - s) : 0;
		if (!bit)
			return frec_filter_fail(&p, -EINVAL,
						"not a term: ring=, cpu=, pid=, seq=, time= or text=");
		if (seen & bit) {
			err = frec_filter_fail(&p, -EINVAL, "a second ");
			frec_filter_put(&p.msg, s, eq + 1 - s);
			frec_filter_puts(&p.msg, " term");
			return err;
		}
		seen |= bit;
		eq++;
		switch (bit) {
		case FREC_FILTER_RING:
			err = frec_filter_parse_globs(&p, eq, term_end - eq, true);
			break;
		case FREC_FILTER_CPU:
			err = frec_filter_parse_cpus(&p, eq, term_end - eq);
			break;
		case FREC_FILTER_PID:
			err = frec_filter_parse_pids(&p, eq, term_end - eq);
			break;
		case FREC_FILTER_SEQ:
			err = frec_filter_parse_range(&p, eq, term_end - eq, &f->seq_min,
						      &f->seq_max, false);
			break;
		default:
			err = frec_filter_parse_range(&p, eq, term_end - eq, &f->ts_min,
						      &f->ts_max, true);
			break;
		}
		if (err)
			return err;
		s = term_end;
	}
	return frec_filter_check_length(&p);
}

/**
 * frec_filter_parse_ring_list() - a filter of ring globs alone
 * @f: filled in; on error, to be thrown away.
 * @list: GLOB[,GLOB...], as after a filter line's "ring="; "" for all
 *	rings.
 * @msg: on error, what is wrong, naming the glob; may be NULL.
 * @msg_size: its size.
 *
 * Unlike a filter line's ring term, a name without wildcards need not
 * name a ring that exists: the console dump's ring list (oops_rings) is
 * set before the drivers that create those rings load.
 *
 * Context: Any context.
 * Return: 0, -EINVAL for a bad glob or a list longer than
 * FREC_FILTER_MAX bytes, -E2BIG for more than FREC_FILTER_MAX_GLOBS globs.
 */
int frec_filter_parse_ring_list(struct frec_filter *f, const char *list,
				char *msg, size_t msg_size)
{
	struct frec_filter_parser p = { f, NULL, NULL, 0, { msg, msg_size, 0 } };
	size_t len = strnlen(list, FREC_FILTER_MAX + 1);
	int err;

	frec_filter_init(f);
	if (msg_size)
		msg[0] = '\0';
	if (len > FREC_FILTER_MAX) {
		err = frec_filter_fail(&p, -EINVAL, "longer than ");
		frec_filter_put_u64(&p.msg, FREC_FILTER_MAX);
		frec_filter_puts(&p.msg, " bytes");
		return err;
	}
	if (!len)
		return 0;
	p.term = list;
	p.term_len = len;
	return frec_filter_parse_globs(&p, list, len, false);
}

/**
 * frec_filter_check_rings() - whether each ring glob without wildcards
 *	names a ring
 * @f: a parsed filter.
 * @env: @env->ring_exists() tells which rings exist.
 * @msg: on error, what is wrong, as frec_filter_parse() words it; may be
 *	NULL.
 * @msg_size: its size.
 *
 * For a caller that learns which rings exist after parsing (the decoder
 * reads them from the dump it decodes).
 *
 * Context: Any context @env->ring_exists() may be called in.
 * Return: 0, or -ENOENT for the first glob that names no ring.
 */
int frec_filter_check_rings(const struct frec_filter *f,
			    const struct frec_filter_env *env, char *msg, size_t msg_size)
{
	struct frec_filter_parser p = { NULL, env, NULL, 0, { msg, msg_size, 0 } };
	char term[FREC_FILTER_QUOTE_MAX + 1];
	struct frec_filter_out t = { term, sizeof(term), 0 };
	unsigned int i;
	int err;

	if (msg_size)
		msg[0] = '\0';
	/* The term as it was written, as much of it as a message quotes. */
	for (i = 0; i < f->nr_globs; i++) {
		frec_filter_puts(&t, i ? "," : "ring=");
		frec_filter_puts(&t, f->globs[i]);
	}
	p.term = term;
	p.term_len = t.len;
	for (i = 0; i < f->nr_globs; i++) {
		err = frec_filter_check_glob(&p, f->globs[i]);
		if (err)
			return err;
	}
	return 0;
}

static bool frec_filter_cpu_bit(const struct frec_filter *f, unsigned int cpu)
{
	return cpu < FREC_FILTER_CPUS && (f->cpus[cpu / 64] >> (cpu % 64) & 1);
}

/* " seq=A-B", "A-", "-B" (" " if something came before); nothing for all. */
static void frec_filter_print_range(struct frec_filter_out *o, const char *name,
				    u64 lo, u64 hi, bool time)
{
	if (!lo && hi == U64_MAX)
		return;
	frec_filter_puts(o, o->len ? " " : "");
	frec_filter_puts(o, name);
	if (lo && time)
		frec_filter_put_time(o, lo);
	else if (lo)
		frec_filter_put_u64(o, lo);
	frec_filter_puts(o, "-");
	if (hi != U64_MAX && time)
		frec_filter_put_time(o, hi);
	else if (hi != U64_MAX)
		frec_filter_put_u64(o, hi);
}

static void frec_filter_print_to(const struct frec_filter *f, struct frec_filter_out *o)
{
	unsigned int i, last;
	bool first = true;

	for (i = 0; i < f->nr_globs; i++) {
		frec_filter_puts(o, i ? "," : "ring=");
		frec_filter_puts(o, f->globs[i]);
	}
	for (i = 0; !f->any_cpu && i < FREC_FILTER_CPUS; i++) {
		if (!frec_filter_cpu_bit(f, i))
			continue;
		for (last = i; frec_filter_cpu_bit(f, last + 1); last++)
			;
		if (first)
			frec_filter_puts(o, o->len ? " cpu=" : "cpu=");
		else
			frec_filter_puts(o, ",");
		first = false;
		frec_filter_put_u64(o, i);
		if (last > i) {
			frec_filter_puts(o, "-");
			frec_filter_put_u64(o, last);
		}
		i = last;
	}
	for (i = 0; i < f->nr_pids; i++) {
		frec_filter_puts(o, i ? "," : o->len ? " pid=" : "pid=");
		frec_filter_put_u64(o, f->pids[i]);
	}
	frec_filter_print_range(o, "seq=", f->seq_min, f->seq_max, false);
	frec_filter_print_range(o, "time=", f->ts_min, f->ts_max, true);
	if (f->text[0]) {
		frec_filter_puts(o, o->len ? " text=" : "text=");
		frec_filter_puts(o, f->text);
	}
	frec_filter_puts(o, "\n");
}

/**
 * frec_filter_print() - the filter as the line that parses back to it
 * @f: the filter.
 * @buf: where to write it, with a newline ("\n" alone for no filter),
 *	NUL-terminated.
 * @size: its size; 2 * FREC_FILTER_MAX holds any parsed filter.
 *
 * Terms come in the order ring, cpu, pid, seq, time, text; CPUs as ascending
 * runs (0-1,3); times with 9 decimals; a range's open end left out.
 *
 * Context: Any context.
 * Return: the length written, as scnprintf() returns it.
 */
int frec_filter_print(const struct frec_filter *f, char *buf, size_t size)
{
	struct frec_filter_out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	frec_filter_print_to(f, &o);
	return size ? (int)(o.len < size ? o.len : size - 1) : 0;
}

/*
 * A [...] class at @pat, just after its '[', against the byte @c: 1 if @c
 * is in it, 0 if not, -1 if the class is not closed (the '[' is then a
 * plain byte); *@next is just after its ']'.  A leading '!' complements
 * it, a ']' first in it is a member, a-b is a range.
 */
static int frec_filter_glob_class(const char *pat, unsigned char c, const char **next)
{
	bool invert = *pat == '!', in = false;
	const char *q = pat + invert;
	unsigned char lo = *q++, hi;

	do {
		if (!lo)
			return -1;
		hi = lo;
		if (q[0] == '-' && q[1] != ']') {
			hi = q[1];
			if (!hi)
				return -1;
			q += 2;
		}
		in |= lo <= c && c <= hi;
	} while ((lo = *q++) != ']');
	*next = q;
	return in != invert;
}

/**
 * frec_filter_glob_match() - whether a name matches a glob
 * @glob: the glob: * any bytes, ? one byte, [...] and [!...] one byte of
 *	(not of) a class; an unclosed [ is a plain byte.
 * @name: the name, whole.
 *
 * As the kernel's glob_match() (lib/glob.c, without its backslash
 * escapes, which ring globs cannot hold), except that a class never
 * matches the end of @name.  Time at most quadratic, no recursion.
 *
 * Context: Any context.
 * Return: true if @glob matches all of @name.
 */
bool frec_filter_glob_match(const char *glob, const char *name)
{
	const char *star = NULL, *retry = NULL, *next = NULL;
	int in;

	for (;;) {
		unsigned char c = *name, d = *glob++;

		switch (d) {
		case '*':
			if (!*glob)
				return true;
			star = glob;
			retry = name;
			continue;
		case '?':
			if (c) {
				name++;
				continue;
			}
			break;
		case '[':
			in = c ? frec_filter_glob_class(glob, c, &next) : 0;
			if (in > 0) {
				glob = next;
				name++;
				continue;
			}
			if (in < 0 && c == '[') {
				name++;
				continue;
			}
			break;
		default:
			if (c == d) {
				if (!c)
					return true;
				name++;
				continue;
			}
			break;
		}
		/* A mismatch: the last '*' takes one more byte, if it can. */
		if (!c || !star)
			return false;
		glob = star;
		name = ++retry;
	}
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
		if (frec_filter_glob_match(f->globs[i], name))
			return true;
	return false;
}

/**
 * frec_filter_cpu() - whether a CPU's records may be shown
 * @f: the filter.
 * @cpu: the CPU.
 *
 * Context: Any context.
 * Return: true if @cpu is in the cpu= term, or there is none.
 */
bool frec_filter_cpu(const struct frec_filter *f, unsigned int cpu)
{
	return f->any_cpu || frec_filter_cpu_bit(f, cpu);
}

/* Whether a record made in @context matches the pid= term. */
static bool frec_filter_pid(const struct frec_filter *f, u32 context)
{
	unsigned int i;

	if (!f->nr_pids)
		return true;
	if (context == FREC_CTX_UNKNOWN || frec_context_kind(context) != FREC_CTX_TASK)
		return false;
	for (i = 0; i < f->nr_pids; i++)
		if (f->pids[i] == frec_context_pid(context))
			return true;
	return false;
}

/**
 * frec_filter_record() - whether a record's CPU, context, seq and time match
 * @f: the filter.
 * @cpu: the record's CPU.
 * @context: its context word (frec_context_of()), or FREC_CTX_UNKNOWN for
 *	a record that has none (a pid= term then lets it not through).
 * @seq: its sequence number.
 * @ts: its timestamp.
 *
 * Context: Any context.
 * Return: true if they match.
 */
bool frec_filter_record(const struct frec_filter *f, unsigned int cpu, u32 context,
			u64 seq, u64 ts)
{
	return frec_filter_cpu(f, cpu) && frec_filter_pid(f, context) &&
	       seq >= f->seq_min && seq <= f->seq_max &&
	       ts >= f->ts_min && ts <= f->ts_max;
}

/**
 * frec_filter_text() - whether a formatted line has the filter's text
 * @f: the filter.
 * @line: the line, as the dump prints it.
 *
 * Context: Any context.
 * Return: true if @line contains the text term, or there is none.
 */
bool frec_filter_text(const struct frec_filter *f, const char *line)
{
	return !f->text[0] || strstr(line, f->text);
}
