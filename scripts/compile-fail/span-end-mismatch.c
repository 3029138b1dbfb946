// SPDX-License-Identifier: GPL-2.0
// expect: error: format .%s. expects argument of type .char \*.
#include <linux/module.h>
#include <frec.h>

static int __init t_init(void)
{
	struct frec_span s = frec_span_begin(frec_default_ring(), "begin");

	frec_span_end(frec_default_ring(), &s, "%s", 1);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
