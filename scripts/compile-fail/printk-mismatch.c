// SPDX-License-Identifier: GPL-2.0
// expect: format .%d. expects argument of type .int.
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	frec_printk(frec_default_ring(), "%d", "not a number");
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
