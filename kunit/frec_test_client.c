// SPDX-License-Identifier: GPL-2.0
/*
 * frec_test_client.c - a client module that records into frec's default
 * ring with its own format strings and %s literals, then is unloaded by
 * the guest test; frec_unload_test.c checks the records stay readable.
 */
#include <linux/module.h>

#include <frec.h>

static int __init frec_test_client_init(void)
{
	int i;

	for (i = 0; i < 3; i++)
		frec_record(frec_default_ring(), "frec test client: %s %d of %s",
			    "literal", i, "three");
	frec_record(frec_default_ring(), "frec test client: done");
	return 0;
}

static void __exit frec_test_client_exit(void)
{
}

module_init(frec_test_client_init);
module_exit(frec_test_client_exit);

MODULE_DESCRIPTION("frec test client whose strings must outlive it");
MODULE_LICENSE("GPL");
