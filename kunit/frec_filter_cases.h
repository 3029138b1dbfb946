/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_filter_cases.h - the filter language, case by case: lines good and
 * bad, what parsing each must give (the error and its message, or the
 * canonical print, which must parse back to the same filter), and for some
 * records that must or must not match.  One table, run against both
 * compilations of kmod/lib/frec_filter.c: the kernel's by KUnit
 * (kunit/frec_filter_test.c), the userspace one by the harness
 * (tools/harness/test_filter.c).  It lives here, next to the ring's
 * frec_ring_testdata.h, as test data both sides include; frec.ko never
 * does.
 *
 * The lines the module's filter file and frec-decode's options used to
 * answer differently are here with the language's one answer: time=5 and
 * time=1. are refused (a time takes a range; a point takes digits), ring
 * globs match by glob in both (ring=hanoi_*), and a name without
 * wildcards must name a ring.
 */
#ifndef _FREC_FILTER_CASES_H
#define _FREC_FILTER_CASES_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <stdio.h>
#include <string.h>
#endif

#include "frec_caller_word.h"
#include "frec_filter.h"

/* The machine the lines are parsed for: 256 CPUs, and these rings. */
#define FREC_FILTER_CASE_CPUS	256

static const char * const frec_filter_case_rings[] = {
	"hanoi_moves", "hanoi_calls", "hanoi_timing", "events", "log", NULL
};

static inline bool frec_filter_case_ring_exists(void *ctx, const char *name)
{
	const char * const *r;

	for (r = frec_filter_case_rings; *r; r++)
		if (!strcmp(*r, name))
			return true;
	return false;
}

static const struct frec_filter_env frec_filter_case_env = {
	.nr_cpus = FREC_FILTER_CASE_CPUS,
	.ring_exists = frec_filter_case_ring_exists,
};

/**
 * struct frec_filter_case_rec - a record, and whether the case's filter
 *	shows it
 * @ring: its ring; NULL for no record.
 * @cpu: its CPU.
 * @seq: its sequence number.
 * @ts: its timestamp, ns.
 * @line: its formatted line, for text=.
 * @match: the filter shows it.
 * @context: its context word (0: the idle task's).
 */
struct frec_filter_case_rec {
	const char *ring;
	unsigned int cpu;
	u64 seq, ts;
	const char *line;
	bool match;
	u32 context;
};

/**
 * struct frec_filter_case - a line and what parsing it gives
 * @line: the line; NULL ends the table.
 * @pad: this many 'x' follow @line (and, if it parses, @want).
 * @list: parse @line as a ring list (oops_rings), not a filter line.
 * @err: 0, or the error parsing returns.
 * @want: if @err is 0, the canonical print without its newline; else
 *	the error's message.
 * @recs: records to match, when it parses.
 */
struct frec_filter_case {
	const char *line;
	unsigned int pad;
	bool list;
	int err;
	const char *want;
	struct frec_filter_case_rec recs[2];
};

#define FREC_FILTER_NOT_A_TERM	"not a term: ring=, cpu=, pid=, seq=, time= or text="
#define FREC_FILTER_NOT_CPUS	"not a CPU list, such as 0-1,3"
#define FREC_FILTER_NOT_SECONDS	"not seconds, such as 12.5"
#define FREC_FILTER_NO_RANGE	"a time takes a range: A-B, A- or -B"
#define FREC_FILTER_16_GLOBS	"a*,b*,c*,d*,e*,f*,g*,h*,i*,j*,k*,l*,m*,n*,o*,p*"

static const struct frec_filter_case frec_filter_cases[] = {
	/* Nothing: everything. */
	{ "", .want = "", .recs = { { "log", 3, 1, 1, "", true } } },
	{ "\n", .want = "" },
	{ " \t ", .want = "" },

	/* ring=: globs (the decoder's --ring compared names with strcmp). */
	{ "ring=hanoi_m*", .want = "ring=hanoi_m*",
	  .recs = { { "hanoi_moves", 0, 1, 1, "", true }, { "hanoi_calls", 0, 1, 1, "", false } } },
	{ "ring=hanoi_*,events", .want = "ring=hanoi_*,events",
	  .recs = { { "hanoi_timing", 0, 1, 1, "", true }, { "log", 0, 1, 1, "", false } } },
	{ "ring=hanoi_moves", .want = "ring=hanoi_moves",
	  .recs = { { "hanoi_moves", 1, 1, 1, "", true },
		    { "hanoi_moves2", 1, 1, 1, "", false } } },
	{ "ring=h?noi_[c-m]*,[!h]*", .want = "ring=h?noi_[c-m]*,[!h]*",
	  .recs = { { "events", 0, 1, 1, "", true }, { "hanoi_timing", 0, 1, 1, "", false } } },
	{ "ring=[]x]", .want = "ring=[]x]",
	  .recs = { { "x", 0, 1, 1, "", true }, { "y", 0, 1, 1, "", false } } },
	{ "ring=ev[a-", .want = "ring=ev[a-",
	  .recs = { { "ev[a-", 0, 1, 1, "", true }, { "eva", 0, 1, 1, "", false } } },
	/* A class never matches the end of a name. */
	{ "ring=x[!a]", .want = "ring=x[!a]",
	  .recs = { { "x", 0, 1, 1, "", false }, { "xb", 0, 1, 1, "", true } } },
	{ "ring=*", .want = "ring=*" },
	{ "ring=nosuch*", .want = "ring=nosuch*" },
	{ "ring=" FREC_FILTER_16_GLOBS, .want = "ring=" FREC_FILTER_16_GLOBS },
	{ "ring=abcdefghijklmnopqrstuvwxyz0123*", .want = "ring=abcdefghijklmnopqrstuvwxyz0123*" },
	{ "ring=", .err = -EINVAL, .want = "ring=: an empty ring glob" },
	{ "ring=log,", .err = -EINVAL, .want = "ring=log,: an empty ring glob" },
	{ "ring=a/b", .err = -EINVAL, .want = "ring=a/b: '/' cannot be in a ring glob" },
	{ "ring=l\001g", .err = -EINVAL,
	  .want = "ring=l\\x01g: '\\x01' cannot be in a ring glob" },
	{ "ring=abcdefghijklmnopqrstuvwxyz01234*", .err = -EINVAL,
	  .want = "ring=abcdefghijklmnopqrstuvwxyz01234*: a ring glob longer than 31 bytes" },
	{ "ring=" FREC_FILTER_16_GLOBS ",q*", .err = -E2BIG,
	  .want = "ring=a*,b*,c*,d*,e*,f*,g*,h*,i*,j*,k*,l*...: more than 16 ring globs" },
	{ "ring=no_such_ring", .err = -ENOENT,
	  .want = "ring=no_such_ring: no ring named no_such_ring" },
	{ "ring=log,nosuch", .err = -ENOENT, .want = "ring=log,nosuch: no ring named nosuch" },
	{ "ring=log ring=events", .err = -EINVAL, .want = "ring=events: a second ring= term" },

	/* pid=: tasks' records, not the interrupts on top of them. */
	{ "pid=412", .want = "pid=412",
	  .recs = { { "log", 0, 1, 1, "", true, 412 },
		    { "log", 0, 1, 1, "", false,
		      412 | FREC_CTX_HARDIRQ << FREC_CTX_KIND_SHIFT } } },
	{ "pid=7,1,7,0", .want = "pid=0,1,7",
	  .recs = { { "log", 0, 1, 1, "", true, 0 }, { "log", 0, 1, 1, "", false, 2 } } },
	{ "cpu=1 pid=4194303 ring=log", .want = "ring=log cpu=1 pid=4194303",
	  .recs = { { "log", 1, 1, 1, "", true, FREC_CTX_PID_MASK },
		    { "log", 1, 1, 1, "", false, FREC_CTX_UNKNOWN } } },
	{ "pid=4194304", .err = -ERANGE,
	  .want = "pid=4194304: pid 4194304 is past the largest, 4194303" },
	{ "pid=x", .err = -EINVAL, .want = "pid=x: not a list of pids, such as 1,412" },
	{ "pid=1,", .err = -EINVAL, .want = "pid=1,: not a list of pids, such as 1,412" },
	{ "pid=1 pid=2", .err = -EINVAL, .want = "pid=2: a second pid= term" },
	{ "pid=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", .err = -E2BIG,
	  .want = "pid=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,...: more than 16 pids" },

	/* cpu=: N or A-B, comma-separated, each CPU possible. */
	{ "cpu=0-1,3", .want = "cpu=0-1,3",
	  .recs = { { "log", 3, 1, 1, "", true }, { "log", 2, 1, 1, "", false } } },
	{ "cpu=3,0,1", .want = "cpu=0-1,3" },
	{ "cpu=1,1,0-1", .want = "cpu=0-1" },
	{ "cpu=0-3", .want = "cpu=0-3" },
	{ "cpu=003", .want = "cpu=3" },
	{ "cpu=62-64,255", .want = "cpu=62-64,255",
	  .recs = { { "log", 64, 1, 1, "", true }, { "log", 65, 1, 1, "", false } } },
	{ "cpu=256", .err = -ERANGE, .want = "cpu=256: CPU 256 does not exist (0-255)" },
	{ "cpu=2-300", .err = -ERANGE, .want = "cpu=2-300: CPU 300 does not exist (0-255)" },
	{ "cpu=99999999999999999999", .err = -ERANGE,
	  .want = "cpu=99999999999999999999: CPU 99999999999999999999 does not exist (0-255)" },
	{ "cpu=x", .err = -EINVAL, .want = "cpu=x: " FREC_FILTER_NOT_CPUS },
	{ "cpu=", .err = -EINVAL, .want = "cpu=: " FREC_FILTER_NOT_CPUS },
	{ "cpu=3-1", .err = -EINVAL, .want = "cpu=3-1: the range is empty" },
	{ "cpu=0,", .err = -EINVAL, .want = "cpu=0,: " FREC_FILTER_NOT_CPUS },
	{ "cpu=0,,1", .err = -EINVAL, .want = "cpu=0,,1: " FREC_FILTER_NOT_CPUS },
	{ "cpu=+1", .err = -EINVAL, .want = "cpu=+1: " FREC_FILTER_NOT_CPUS },
	{ "cpu=-1", .err = -EINVAL, .want = "cpu=-1: " FREC_FILTER_NOT_CPUS },
	{ "cpu=0-3:1/2", .err = -EINVAL, .want = "cpu=0-3:1/2: " FREC_FILTER_NOT_CPUS },

	/* seq=: A-B, A-, -B or A. */
	{ "seq=100-200", .want = "seq=100-200",
	  .recs = { { "log", 0, 100, 1, "", true }, { "log", 0, 201, 1, "", false } } },
	{ "seq=5", .want = "seq=5-5" },
	{ "seq=-5", .want = "seq=-5" },
	{ "seq=5-", .want = "seq=5-" },
	{ "seq=0-", .want = "" },
	{ "seq=0", .want = "seq=-0",
	  .recs = { { "log", 0, 0, 1, "", true }, { "log", 0, 1, 1, "", false } } },
	{ "seq=+7-08", .want = "seq=7-8" },
	{ "seq=18446744073709551615", .want = "seq=18446744073709551615-" },
	{ "seq=18446744073709551616", .err = -ERANGE,
	  .want = "seq=18446744073709551616: a number above 18446744073709551615" },
	{ "seq=9-3", .err = -ERANGE, .want = "seq=9-3: the range is empty" },
	{ "seq=abc", .err = -EINVAL, .want = "seq=abc: not a number" },
	{ "seq=", .err = -EINVAL, .want = "seq=: not a number" },
	{ "seq=-", .err = -EINVAL, .want = "seq=-: no bound on either side of the '-'" },
	{ "seq=1-2-3", .err = -EINVAL, .want = "seq=1-2-3: not a number" },
	{ "seq=0x10", .err = -EINVAL, .want = "seq=0x10: not a number" },
	{ "seq=1 seq=2", .err = -EINVAL, .want = "seq=2: a second seq= term" },

	/* time=: a range of seconds, up to 9 decimals (the decoder took time=5 and time=1.). */
	{ "time=12.5-13", .want = "time=12.500000000-13.000000000",
	  .recs = { { "log", 0, 1, 12500000000ULL, "", true },
		    { "log", 0, 1, 13000000001ULL, "", false } } },
	{ "time=1.5-", .want = "time=1.500000000-" },
	{ "time=0-0.000000001", .want = "time=-0.000000001" },
	{ "time=-1", .want = "time=-1.000000000" },
	{ "time=+1.000000001-2", .want = "time=1.000000001-2.000000000" },
	{ "time=18446744073.709551615-", .want = "time=18446744073.709551615-" },
	{ "time=18446744073.709551616-", .err = -ERANGE,
	  .want = "time=18446744073.709551616-: a time after 18446744073.709551615" },
	{ "time=18446744074-", .err = -ERANGE,
	  .want = "time=18446744074-: a time after 18446744073.709551615" },
	{ "time=5", .err = -EINVAL, .want = "time=5: " FREC_FILTER_NO_RANGE },
	{ "time=1.", .err = -EINVAL, .want = "time=1.: " FREC_FILTER_NO_RANGE },
	{ "time=1.-2", .err = -EINVAL, .want = "time=1.-2: no digit after the point" },
	{ "time=.5-", .err = -EINVAL, .want = "time=.5-: " FREC_FILTER_NOT_SECONDS },
	{ "time=1.5x-", .err = -EINVAL, .want = "time=1.5x-: " FREC_FILTER_NOT_SECONDS },
	{ "time=1.0000000001-", .err = -ERANGE,
	  .want = "time=1.0000000001-: more than 9 decimals" },
	{ "time=2-1", .err = -ERANGE, .want = "time=2-1: the range is empty" },
	{ "time=-", .err = -EINVAL, .want = "time=-: no bound on either side of the '-'" },

	/* text=: the rest of the line, spaces and all. */
	{ "text=disk 3", .want = "text=disk 3",
	  .recs = { { "log", 0, 1, 1, "7 [ 0.000000001] cpu0 log: move disk 3 to C", true },
		    { "log", 0, 1, 1, "7 [ 0.000000001] cpu0 log: move disk 4 to C", false } } },
	{ "text= two  spaces\t", .want = "text= two  spaces\t" },
	{ "cpu=1 text=seq=5 text=x", .want = "cpu=1 text=seq=5 text=x" },
	{ "text=", .err = -EINVAL, .want = "text=: no text" },

	/* Terms together, in any order; printed in one. */
	{ "ring=hanoi_* cpu=0-1 seq=100- time=12.5-13 text=disk 3",
	  .want = "ring=hanoi_* cpu=0-1 seq=100- time=12.500000000-13.000000000 text=disk 3",
	  .recs = { { "hanoi_moves", 1, 100, 12500000000ULL, "100 x: disk 3", true },
		    { "hanoi_moves", 2, 100, 12500000000ULL, "100 x: disk 3", false } } },
	{ "time=1-2\tseq=3  cpu=2 ring=log ",
	  .want = "ring=log cpu=2 seq=3-3 time=1.000000000-2.000000000" },
	{ "bogus=1", .err = -EINVAL, .want = "bogus=1: " FREC_FILTER_NOT_A_TERM },
	{ "noequals", .err = -EINVAL, .want = "noequals: " FREC_FILTER_NOT_A_TERM },
	{ "RING=log", .err = -EINVAL, .want = "RING=log: " FREC_FILTER_NOT_A_TERM },
	{ "seq=1\r", .err = -EINVAL, .want = "seq=1\\x0d: not a number" },
	{ "seq=1\nseq=2", .err = -EINVAL, .want = "a newline inside the line" },

	/* 1024 bytes, written and printed. */
	{ "text=", 1019, .want = "text=" },
	{ "text=", 1020, .err = -EINVAL, .want = "longer than 1024 bytes" },
	{ "seq=5 text=", 1011, .want = "seq=5-5 text=" },
	{ "seq=5 text=", 1012, .err = -EINVAL, .want = "longer than 1024 bytes once written out" },
	{ "time=1-2 seq=3 text=", 1000, .err = -EINVAL,
	  .want = "longer than 1024 bytes once written out" },

	/* The console dump's ring list: names need not exist yet. */
	{ "hanoi_moves,not_yet_created", .list = true, .want = "ring=hanoi_moves,not_yet_created" },
	{ "", .list = true, .want = "" },
	{ "a/b", .list = true, .err = -EINVAL, .want = "a/b: '/' cannot be in a ring glob" },
	{ "a,,b", .list = true, .err = -EINVAL, .want = "a,,b: an empty ring glob" },
	{ FREC_FILTER_16_GLOBS ",q*", .list = true, .err = -E2BIG,
	  .want = "a*,b*,c*,d*,e*,f*,g*,h*,i*,j*,k*,l*,m*,n...: more than 16 ring globs" },
	{ NULL }
};

/**
 * struct frec_filter_case_scratch - what running a case takes; too large
 *	for a kernel stack
 * @f: the case's filter.
 * @g: its print, parsed back.
 * @line: the line, padded.
 * @want: what is wanted, padded.
 * @print: the print.
 * @msg: the error message.
 */
struct frec_filter_case_scratch {
	struct frec_filter f, g;
	char line[2 * FREC_FILTER_MAX];
	char want[2 * FREC_FILTER_MAX];
	char print[2 * FREC_FILTER_MAX];
	char msg[FREC_FILTER_MSG_MAX];
};

/* @s with @pad 'x' after it, into @buf of 2 * FREC_FILTER_MAX bytes. */
static inline void frec_filter_case_pad(char *buf, const char *s, unsigned int pad)
{
	size_t n = strlen(s);

	memcpy(buf, s, n);
	memset(buf + n, 'x', pad);
	buf[n + pad] = '\0';
}

/**
 * frec_filter_case_run() - run one case against this compilation
 * @c: the case.
 * @s: scratch space.
 * @why: what went wrong, if anything.
 * @size: its size.
 *
 * Parses the line; checks the error and its message, or the print, that
 * the print parses back to the very same filter, and the records.
 *
 * Context: Process context.
 * Return: true if the case passes.
 */
static inline bool frec_filter_case_run(const struct frec_filter_case *c,
					struct frec_filter_case_scratch *s,
					char *why, size_t size)
{
	const struct frec_filter_case_rec *r;
	bool match;
	int err, i;

	frec_filter_case_pad(s->line, c->line, c->pad);
	frec_filter_case_pad(s->want, c->want, c->err ? 0 : c->pad);
	if (c->list)
		err = frec_filter_parse_ring_list(&s->f, s->line, s->msg, sizeof(s->msg));
	else
		err = frec_filter_parse(&s->f, s->line, &frec_filter_case_env, s->msg,
					sizeof(s->msg));
	if (err != c->err) {
		snprintf(why, size, "returned %d, want %d (message \"%.80s\")", err,
			 c->err, s->msg);
		return false;
	}
	if (err) {
		if (strcmp(s->msg, s->want)) {
			snprintf(why, size, "message \"%.80s\", want \"%.80s\"", s->msg, s->want);
			return false;
		}
		return true;
	}
	if (s->msg[0]) {
		snprintf(why, size, "parsed, yet says \"%.80s\"", s->msg);
		return false;
	}
	strcat(s->want, "\n");
	frec_filter_print(&s->f, s->print, sizeof(s->print));
	if (strcmp(s->print, s->want)) {
		snprintf(why, size, "prints \"%.60s\", want \"%.60s\"", s->print, s->want);
		return false;
	}
	/* A ring list's names need not exist; its print is a filter line. */
	err = frec_filter_parse(&s->g, s->print, c->list ? NULL : &frec_filter_case_env, s->msg,
				sizeof(s->msg));
	if (err || memcmp(&s->f, &s->g, sizeof(s->f))) {
		snprintf(why, size, "its print does not parse back to it (%d, \"%.80s\")",
			 err, s->msg);
		return false;
	}
	for (i = 0; i < 2 && c->recs[i].ring; i++) {
		r = &c->recs[i];
		match = frec_filter_ring(&s->f, r->ring) &&
			frec_filter_record(&s->f, r->cpu, r->context, r->seq, r->ts) &&
			frec_filter_text(&s->f, r->line);
		if (match != r->match) {
			snprintf(why, size, "record %d (%s cpu%u seq %llu) %s", i, r->ring,
				 r->cpu, (unsigned long long)r->seq,
				 match ? "matches" : "does not match");
			return false;
		}
	}
	return true;
}

#endif /* _FREC_FILTER_CASES_H */
