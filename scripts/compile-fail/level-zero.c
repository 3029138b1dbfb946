// SPDX-License-Identifier: GPL-2.0
// expect: frec: level must be FREC_LEVEL_ERR to FREC_LEVEL_TRACE
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	/* Below FREC_LEVEL_ERR: it would pass even a disabled ring's gate (0). */
	frec_record_level(frec_default_ring(), 0, "level %d", 0);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
