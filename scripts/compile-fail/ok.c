// SPDX-License-Identifier: GPL-2.0
// expect: ok
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	frec_record(frec_default_ring(), "none");
	frec_record(frec_default_ring(), "%d %s %lx %p", 1, "lit", 2UL, THIS_MODULE);
	frec_printk(frec_default_ring(), "%s %d", "any string", 3);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
