// SPDX-License-Identifier: GPL-2.0
// expect: initializer element is not constant
#include <linux/module.h>
#include <frec.h>

static unsigned int level = FREC_LEVEL_DEBUG;
module_param(level, uint, 0444);

static int __init t_init(void)
{
	/* A call site's level is part of its static site: a constant. */
	frec_record_level(frec_default_ring(), level, "level %u", level);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
