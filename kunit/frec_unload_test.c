// SPDX-License-Identifier: GPL-2.0
/*
 * frec_unload_test.c - after frec_test_client.ko recorded and was
 * unloaded (guest test 0006), its formats and %s strings are frec's own
 * copies: same text, no longer in any module.  Skipped unless the guest
 * test says the client ran (UNLOAD_CLIENT_GONE).
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/string.h>

#include <frec.h>

#include "frec_rb.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_test.h"

/*
 * The guest test creates this file once frec_test_client.ko has recorded
 * and gone.  (Not a module parameter: KUnit runs a module's suites before
 * its parameters are parsed.)
 */
#define UNLOAD_CLIENT_GONE "/tmp/frec_test_client.gone"

static bool unload_client_gone(void)
{
	struct file *f = filp_open(UNLOAD_CLIENT_GONE, O_RDONLY, 0);

	if (IS_ERR(f))
		return false;
	filp_close(f, NULL);
	return true;
}

static void unload_client_strings_outlive_the_client(struct kunit *test)
{
	static const char want_fmt[] = "frec test client: %s %d of %s";
	struct frec_ring *ring = frec_default_ring();
	struct frec_ring_store *store = frec_test_store(ring);
	struct frec_rb_cursor cur;
	struct frec_rb_entry e;
	struct frec_rb_cpu *rc;
	int cpu, found = 0, done = 0;
	char fmt[64];

	for_each_possible_cpu(cpu) {
		rc = per_cpu_ptr(store->cpus, cpu);
		frec_rb_cursor_init(&store->layout, rc, &cur);
		while (frec_rb_cursor_next(&store->layout, rc, &cur, &e, NULL, 0)) {
			/*
			 * The client's sites are gone with it: their formats
			 * are frec's copies now (frec_sites.c).
			 */
			if (frec_site_format(fmt, sizeof(fmt), e.site) < 0)
				continue;
			if (!strcmp(fmt, "frec test client: done")) {
				done++;
				continue;
			}
			if (strcmp(fmt, want_fmt))
				continue;
			KUNIT_EXPECT_TRUE(test, virt_addr_valid(e.args[0]));
			KUNIT_EXPECT_TRUE(test, virt_addr_valid(e.args[2]));
			KUNIT_EXPECT_STREQ(test, (const char *)e.args[0], "literal");
			KUNIT_EXPECT_EQ(test, e.args[1], (unsigned long)found);
			KUNIT_EXPECT_STREQ(test, (const char *)e.args[2], "three");
			found++;
		}
	}
	if (!unload_client_gone())
		kunit_skip(test, "frec_test_client.ko has not recorded and gone");
	KUNIT_EXPECT_EQ(test, found, 3);
	KUNIT_EXPECT_EQ(test, done, 1);
}

static struct kunit_case frec_unload_cases[] = {
	KUNIT_CASE(unload_client_strings_outlive_the_client),
	{}
};

static struct kunit_suite frec_unload_suite = {
	.name = "frec_unload",
	.test_cases = frec_unload_cases,
};

kunit_test_suite(frec_unload_suite);

MODULE_DESCRIPTION("KUnit: records outlive the module that wrote them");
MODULE_LICENSE("GPL");
