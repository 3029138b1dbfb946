// SPDX-License-Identifier: GPL-2.0
/* harness_test.c - the runner behind harness_test.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness_test.h"

void ht_fail(struct ht_case *c, const char *file, int line,
	     const char *fmt, ...)
{
	va_list ap;

	c->failures++;
	printf("# %s:%d: %s: ", file, line, c->name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int ht_selected(int argc, char **argv, const char *name)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

int ht_main(int argc, char **argv, struct ht_case *cases, int n)
{
	int i, passed = 0, failed = 0, num = 0;

	printf("TAP version 13\n");
	for (i = 0; i < n; i++) {
		if (!ht_selected(argc, argv, cases[i].name))
			continue;
		num++;
		cases[i].failures = 0;
		cases[i].run(&cases[i]);
		if (cases[i].failures) {
			failed++;
			printf("not ok %d %s\n", num, cases[i].name);
		} else {
			passed++;
			printf("ok %d %s\n", num, cases[i].name);
		}
		fflush(stdout);
	}
	printf("1..%d\n", num);
	if (!num)
		printf("# no case matched\n");
	printf("%d passed, %d failed\n", passed, failed);
	return failed || !num ? 1 : 0;
}
