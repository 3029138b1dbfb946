// SPDX-License-Identifier: GPL-2.0
// expect: frec_span_scoped\(\) takes at most 2 arguments
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	frec_span_scoped(frec_default_ring(), "%d %d %d", 1, 2, 3);

	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
