// SPDX-License-Identifier: GPL-2.0
// expect: error: format .%s. expects argument of type .char \*.
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	frec_record(frec_default_ring(), "%s", 42);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
