// SPDX-License-Identifier: GPL-2.0
// expect: frec_record\(\) takes at most 4 arguments
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	frec_record(frec_default_ring(), "%d %d %d %d %d", 1, 2, 3, 4, 5);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
