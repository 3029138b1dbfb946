/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_filter.h - the filter language: which records a dump shows.  One
 * source (frec_filter.c) parses, prints and matches it, compiled into
 * frec.ko (debugfs frec/filter, the console dump's ring list) and into
 * tools/frec-decode (--filter and its shorthands).  README.md, "Filtering".
 */
#ifndef _FREC_FILTER_H
#define _FREC_FILTER_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "frec_user.h"
#endif

/* Longest filter line in bytes (a final newline aside), as written and as printed. */
#define FREC_FILTER_MAX		1024
/* Most ring globs in one ring= term. */
#define FREC_FILTER_MAX_GLOBS	16
/* Longest ring glob: a ring name's length (FREC_RING_NAME_MAX). */
#define FREC_FILTER_GLOB_MAX	31
/* CPUs a cpu= term can name: 0 to FREC_FILTER_CPUS - 1. */
#define FREC_FILTER_CPUS	8192
/* Most pids in one pid= term. */
#define FREC_FILTER_MAX_PIDS	16
/* Room for a parse error's message, its NUL included. */
#define FREC_FILTER_MSG_MAX	128

/**
 * struct frec_filter - a parsed filter; all its terms must match
 * @globs: ring name globs, NUL-padded (any may match); none matches all
 *	rings.
 * @nr_globs: how many.
 * @any_cpu: no cpu= term.
 * @cpus: the CPUs of the cpu= term, a bitmap.
 * @pids: the pids of the pid= term, ascending.
 * @nr_pids: how many; 0 for no pid= term.
 * @seq_min: lowest sequence number shown.
 * @seq_max: highest.
 * @ts_min: earliest timestamp shown, ns.
 * @ts_max: latest.
 * @text: a substring the formatted line must contain; "" for any.
 *
 * A plain value: copying it copies the filter.  frec_filter_init() and
 * frec_filter_parse() zero every unused byte, so two filters parsed from
 * lines of the same meaning compare equal with memcmp().
 */
struct frec_filter {
	char globs[FREC_FILTER_MAX_GLOBS][FREC_FILTER_GLOB_MAX + 1];
	unsigned int nr_globs;
	bool any_cpu;
	u64 cpus[FREC_FILTER_CPUS / 64];
	u32 pids[FREC_FILTER_MAX_PIDS];
	unsigned int nr_pids;
	u64 seq_min, seq_max;
	u64 ts_min, ts_max;
	char text[FREC_FILTER_MAX + 1];
};

/**
 * struct frec_filter_env - what parsing asks of the caller
 * @nr_cpus: a cpu= term may name CPUs 0 to @nr_cpus - 1 (at most
 *	FREC_FILTER_CPUS are taken).
 * @ring_exists: whether a ring of this name exists, for ring globs
 *	without wildcards; NULL to take any name.
 * @ctx: passed to @ring_exists.
 */
struct frec_filter_env {
	unsigned int nr_cpus;
	bool (*ring_exists)(void *ctx, const char *name);
	void *ctx;
};

/*
 * A ring's name: 1 to FREC_FILTER_GLOB_MAX bytes of [A-Za-z0-9_-], ASCII
 * only.  The one rule: frec_ring_create() takes no other name, the black
 * box region's reader and frec-decode's raw reader skip a ring entry
 * naming another (with its records, alone), and a ring glob is built of
 * these bytes and the wildcards.  Not the kernel's isalnum(): its ctype
 * table counts Latin-1 letters (0xc0-0xff) too, which no reader takes.
 */
static inline bool frec_ring_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/**
 * frec_ring_name_ok() - is this a name a ring may have?
 * @name: the name, NUL-terminated within @size bytes.
 * @size: bytes of @name that may be read: a buffer's size, or one more
 *	than the longest name taken.
 *
 * Context: Any context.
 * Return: true for 1 to @size - 1 bytes of [A-Za-z0-9_-] and a NUL.
 */
static inline bool frec_ring_name_ok(const char *name, size_t size)
{
	size_t i;

	for (i = 0; i < size && name[i]; i++)
		if (!frec_ring_name_char(name[i]))
			return false;
	return i > 0 && i < size;
}

void frec_filter_init(struct frec_filter *f);
int frec_filter_parse(struct frec_filter *f, const char *line,
		      const struct frec_filter_env *env, char *msg, size_t msg_size);
int frec_filter_parse_ring_list(struct frec_filter *f, const char *list,
				char *msg, size_t msg_size);
int frec_filter_check_rings(const struct frec_filter *f,
			    const struct frec_filter_env *env, char *msg, size_t msg_size);
int frec_filter_print(const struct frec_filter *f, char *buf, size_t size);
bool frec_filter_glob_match(const char *glob, const char *name);
bool frec_filter_ring(const struct frec_filter *f, const char *name);
bool frec_filter_cpu(const struct frec_filter *f, unsigned int cpu);
bool frec_filter_record(const struct frec_filter *f, unsigned int cpu, u32 context,
			u64 seq, u64 ts);
bool frec_filter_text(const struct frec_filter *f, const char *line);

#endif /* _FREC_FILTER_H */
