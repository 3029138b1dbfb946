// SPDX-License-Identifier: GPL-2.0
// expect: frec_span_begin\(\) takes at most 4 arguments
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	struct frec_span s = frec_span_begin(frec_default_ring(), "%d %d %d %d %d", 1, 2, 3, 4, 5);

	frec_span_end(frec_default_ring(), &s, "end");
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
