/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_filter.h - which records a dump shows (debugfs frec/filter).
 */
#ifndef _FREC_FILTER_H
#define _FREC_FILTER_H

#include <linux/cpumask.h>
#include <linux/types.h>

/* Longest filter line, and most ring globs in one. */
#define FREC_FILTER_MAX		1024
#define FREC_FILTER_MAX_GLOBS	16

/**
 * struct frec_filter - a parsed filter; all its terms must match
 * @globs: ring name globs (any may match); @nr_globs 0 matches all rings.
 * @nr_globs: how many.
 * @cpus: CPUs to show; all when @any_cpu.
 * @any_cpu: no cpu= term.
 * @seq_min: lowest sequence number shown.
 * @seq_max: highest.
 * @ts_min: earliest timestamp shown, ns.
 * @ts_max: latest.
 * @text: a substring the formatted message must contain; "" for any.
 * @buf: holds the strings @globs point into.
 */
struct frec_filter {
	const char *globs[FREC_FILTER_MAX_GLOBS];
	unsigned int nr_globs;
	struct cpumask cpus;
	bool any_cpu;
	u64 seq_min, seq_max;
	u64 ts_min, ts_max;
	char text[FREC_FILTER_MAX + 1];
	char buf[FREC_FILTER_MAX + 1];
};

void frec_filter_init(struct frec_filter *f);
int frec_filter_parse(struct frec_filter *f, const char *line);
int frec_filter_parse_ring_list(struct frec_filter *f, const char *list);
int frec_filter_print(const struct frec_filter *f, char *buf, size_t size);
bool frec_filter_ring(const struct frec_filter *f, const char *name);
bool frec_filter_record(const struct frec_filter *f, unsigned int cpu, u64 seq, u64 ts);
bool frec_filter_text(const struct frec_filter *f, const char *line);

#endif /* _FREC_FILTER_H */
