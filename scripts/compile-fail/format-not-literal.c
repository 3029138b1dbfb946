// SPDX-License-Identifier: GPL-2.0
// expect: expected .* before .*fmt
#include <linux/module.h>
#include <frec.h>

static char *fmt = "text %d";
module_param(fmt, charp, 0444);

static int __init t_init(void)
{
	/* A call site's format is part of its static site: a literal. */
	frec_printk(frec_default_ring(), fmt, 1);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
