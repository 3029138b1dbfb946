// SPDX-License-Identifier: GPL-2.0
// expect: frec: level must be FREC_LEVEL_ERR to FREC_LEVEL_TRACE
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	/* No ring stores above FREC_LEVEL_TRACE, and sites cannot name it. */
	frec_printk_level(frec_default_ring(), FREC_LEVEL_TRACE + 1, "level %d", 6);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
