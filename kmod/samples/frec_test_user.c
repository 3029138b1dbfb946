// SPDX-License-Identifier: GPL-2.0
/*
 * frec_test_user.c - test only: records that point into memory that goes
 * away: its own literals, a literal and a function of frec_test_lib.ko,
 * __initconst and __initdata strings, a string longer than a page of
 * dump line, and calls from its init function, whose code is freed once
 * init returns.  Guest test 0023 dumps the ring before and after this
 * module and frec_test_lib.ko unload and checks every line stays as it
 * was.
 *
 *   insmod frec_test_user.ko            records from init
 *   echo 1 > /sys/module/frec_test_user/parameters/record   and from core code
 *   echo 1 > .../record_pointers        a heap address printed as %p, %pK,
 *                                       %px, %pI4 and as a caller (0028)
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <frec.h>

#include "frec_sample.h"
#include "frec_test_lib.h"

FREC_DEFINE_RING(test_user, FREC_RING_EVENTS, 16 * 1024, 0);

static const char frec_test_user_initconst[] __initconst = "an __initconst string";
static char frec_test_user_initdata[32] __initdata = "an __initdata string";

/* 2000 x's: more than a dump line shows, more than frec used to keep. */
static char frec_test_user_long[2010];

static noinline void frec_test_user_core(void)
{
	frec_record(FREC_RING(test_user), "core: own %s, lib %s", "own literal",
		    frec_test_lib_name);
	frec_record(FREC_RING(test_user), "core: fn %ps lib %ps", frec_test_user_core,
		    frec_test_lib_fn);
	frec_record(FREC_RING(test_user), "core: %.40s", frec_test_user_long);
	frec_record(FREC_RING(test_user), "core: %s", frec_test_user_long);
}

static int frec_test_user_record(const char *val, const struct kernel_param *kp)
{
	frec_test_user_core();
	return 0;
}

FREC_SAMPLE_ACTION(record, frec_test_user_record, "write anything: record from core code");

/* An address in the heap, printed every way a record can print it. */
static int frec_test_user_pointers(const char *val, const struct kernel_param *kp)
{
	/* Written by hand, not by the macro: frec registers it on first use. */
	static struct frec_site fake_site = {
		.level = FREC_LEVEL_INFO, .code_level = FREC_LEVEL_INFO,
		.set_level = FREC_LEVEL_INFO, .fmt = "a caller that names nothing",
		.file = __FILE__, .func = __func__, .modname = KBUILD_MODNAME,
		.line = __LINE__,
	};
	void *p = kmalloc(16, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	/* Only the address is recorded: nothing reads it after the free. */
	kfree(p);

	frec_record(FREC_RING(test_user), "pointers p=%p pK=%pK px=%px ip=%pI4 end", p, p, p, p);
	/* A caller of no symbol, as a corrupt one: in the top 2 GiB, as all are. */
	preempt_disable();
	__frec_record(FREC_RING(test_user), &fake_site, -(16UL << 20), 0, 0, 0, 0);
	preempt_enable();
	return 0;
}

FREC_SAMPLE_ACTION(record_pointers, frec_test_user_pointers,
		   "write anything: record a heap address as %p, %pK, %px, %pI4 and as a caller");

/*
 * A site written by hand whose texts are init data: frec copies them when
 * the init sections go (the record macros take only literals).  The site
 * itself outlives init (frec keeps a pointer to it): __refdata tells
 * modpost that its references to init data are meant.
 */
static const char frec_test_user_init_fmt[] __initconst = "init: site texts in init data %d";
static const char frec_test_user_init_func[] __initconst = "frec_test_user_init_site";

static void __init frec_test_user_init_site(void)
{
	static struct frec_site init_site __refdata = {
		.level = FREC_LEVEL_INFO, .code_level = FREC_LEVEL_INFO,
		.set_level = FREC_LEVEL_INFO, .fmt = frec_test_user_init_fmt,
		.file = __FILE__, .func = frec_test_user_init_func,
		.modname = KBUILD_MODNAME, .line = __LINE__,
	};

	preempt_disable();
	__frec_record(FREC_RING(test_user), &init_site, _THIS_IP_, 7, 0, 0, 0);
	preempt_enable();
}

static int __init frec_test_user_init(void)
{
	memcpy(frec_test_user_long, "long:", 5);
	memset(frec_test_user_long + 5, 'x', 2000);
	strscpy(frec_test_user_long + 2005, ":end", 5);
	frec_record(FREC_RING(test_user), "init: own %s, lib %s", "own literal",
		    frec_test_lib_name);
	frec_record(FREC_RING(test_user), "init: %s | %s", frec_test_user_initconst,
		    frec_test_user_initdata);
	frec_record(FREC_RING(test_user), "init: fn %ps", frec_test_user_init);
	frec_test_user_init_site();
	return 0;
}

static void __exit frec_test_user_exit(void)
{
}

module_init(frec_test_user_init);
module_exit(frec_test_user_exit);

MODULE_DESCRIPTION("frec test: records that point into memory that goes away");
MODULE_LICENSE("GPL");
