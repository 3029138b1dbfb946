// SPDX-License-Identifier: GPL-2.0
/*
 * frec_filter_test.c - KUnit: the filter language as the kernel compiles
 * it (kmod/lib/frec_filter.c, built into this module by
 * frec_filter_core.c), case by case from frec_filter_cases.h, the table
 * the userspace harness (tools/harness/test_filter.c) runs against the
 * userspace compilation.  A KTAP line per case, named by its line.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "frec_filter_cases.h"

/* "N: LINE": printable, no '#' (KTAP would read a directive), cut short. */
static void frec_filter_case_desc(const struct frec_filter_case *c, char *desc)
{
	size_t i, n = scnprintf(desc, KUNIT_PARAM_DESC_SIZE, "%td: ", c - frec_filter_cases);

	for (i = 0; c->line[i] && i < 60 && n < KUNIT_PARAM_DESC_SIZE - 32; i++)
		desc[n++] = c->line[i] > ' ' && c->line[i] < 0x7f && c->line[i] != '#' ?
			    c->line[i] : '_';
	desc[n] = '\0';
	if (c->line[i])
		n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "...");
	if (c->pad)
		n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, " and %u x", c->pad);
	if (c->list)
		scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, " (ring list)");
}

static const void *frec_filter_case_params(const void *prev, char *desc)
{
	const struct frec_filter_case *c = prev ? (const struct frec_filter_case *)prev + 1 :
					   frec_filter_cases;

	if (!c->line)
		return NULL;
	frec_filter_case_desc(c, desc);
	return c;
}

static void frec_filter_case_passes(struct kunit *test)
{
	const struct frec_filter_case *c = test->param_value;
	struct frec_filter_case_scratch *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	char why[192] = "";

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_TRUE_MSG(test, frec_filter_case_run(c, s, why, sizeof(why)), "%s", why);
}

static struct kunit_case frec_filter_test_cases[] = {
	KUNIT_CASE_PARAM(frec_filter_case_passes, frec_filter_case_params),
	{}
};

static struct kunit_suite frec_filter_suite = {
	.name = "frec_filter",
	.test_cases = frec_filter_test_cases,
};

kunit_test_suite(frec_filter_suite);
