/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness_test.h - a tiny test runner for frec's userspace harness.
 *
 * Each case is a function taking a struct ht_case; checks record failures
 * with file, line and a message and the case goes on.  ht_main() runs the
 * cases named on the command line (or all), prints a TAP line per case and
 * ends with the plain line "N passed, N failed"; it exits 1 on any failure.
 */
#ifndef _FREC_HARNESS_TEST_H
#define _FREC_HARNESS_TEST_H

#include <stdio.h>

struct ht_case {
	const char *name;
	void (*run)(struct ht_case *c);
	int failures;
};

void ht_fail(struct ht_case *c, const char *file, int line,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define HT_EXPECT(c, cond, ...)						\
	do {								\
		if (!(cond))						\
			ht_fail((c), __FILE__, __LINE__, __VA_ARGS__);	\
	} while (0)

#define HT_EXPECT_EQ(c, a, b)						\
	do {								\
		long long __a = (long long)(a), __b = (long long)(b);	\
		if (__a != __b)						\
			ht_fail((c), __FILE__, __LINE__,		\
				"%s == %lld, expected %s == %lld",	\
				#a, __a, #b, __b);			\
	} while (0)

#define HT_CASE(fn)	{ #fn, fn, 0 }

int ht_main(int argc, char **argv, struct ht_case *cases, int n);

#endif /* _FREC_HARNESS_TEST_H */
