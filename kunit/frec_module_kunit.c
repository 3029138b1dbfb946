// SPDX-License-Identifier: GPL-2.0
/*
 * frec_module_kunit.c - KUnit checks of what loading frec.ko sets up.
 *
 * Loaded after frec.ko by the guest bench (the kunit guest test)
 * in the debug kernel, where lockdep and the atomic-sleep checks watch.
 */
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/uidgid.h>

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

/* Everything under frec/ can reveal kernel addresses: root only. */
static void frec_debugfs_files_are_root_only(struct kunit *test)
{
	struct dentry *root, *version;

	root = debugfs_lookup("frec", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, root);
	version = debugfs_lookup("version", root);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, version);
	KUNIT_EXPECT_EQ(test, d_inode(version)->i_mode & 0777, 0400);
	KUNIT_EXPECT_TRUE(test, uid_eq(d_inode(version)->i_uid, GLOBAL_ROOT_UID));
	dput(version);
	dput(root);
}

static struct kunit_case frec_module_cases[] = {
	KUNIT_CASE(frec_debugfs_root_exists),
	KUNIT_CASE(frec_debugfs_files_are_root_only),
	{}
};

static struct kunit_suite frec_module_suite = {
	.name = "frec_module",
	.test_cases = frec_module_cases,
};

kunit_test_suite(frec_module_suite);

MODULE_DESCRIPTION("KUnit tests of the frec module's setup");
MODULE_LICENSE("GPL");
