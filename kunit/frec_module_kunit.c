// SPDX-License-Identifier: GPL-2.0
/*
 * frec_module_kunit.c - KUnit checks of what loading frec.ko sets up.
 *
 * Loaded after frec.ko by the guest bench (scripts/guest-tests/*-kunit.sh)
 * in the debug kernel, where lockdep and the atomic-sleep checks watch.
 */
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <frec.h>
#include <frec_raw.h>

/* frec.ko is loaded: its debugfs root and version file exist. */
static void frec_debugfs_root_exists(struct kunit *test)
{
	struct dentry *root, *version;

	root = debugfs_lookup("frec", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, root);
	version = debugfs_lookup("version", root);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, version);
	dput(version);
	dput(root);
}

/* The version file says what this tree's headers say. */
static void frec_version_file_matches_headers(struct kunit *test)
{
	char *buf, *want;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	buf = kunit_kzalloc(test, 128, GFP_KERNEL);
	want = kunit_kzalloc(test, 128, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, want);
	snprintf(want, 128, "frec api %d.%d raw-format %d\n",
		 FREC_API_VERSION_MAJOR, FREC_API_VERSION_MINOR,
		 FREC_RAW_VERSION);

	f = filp_open("/sys/kernel/debug/frec/version", O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "open: %ld", PTR_ERR(f));
	n = kernel_read(f, buf, 127, &pos);
	filp_close(f, NULL);
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_EXPECT_STREQ(test, buf, want);
}

static struct kunit_case frec_module_cases[] = {
	KUNIT_CASE(frec_debugfs_root_exists),
	KUNIT_CASE(frec_version_file_matches_headers),
	{}
};

static struct kunit_suite frec_module_suite = {
	.name = "frec_module",
	.test_cases = frec_module_cases,
};

kunit_test_suite(frec_module_suite);

MODULE_DESCRIPTION("KUnit tests of the frec module's setup");
MODULE_LICENSE("GPL");
