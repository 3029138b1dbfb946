// SPDX-License-Identifier: GPL-2.0
// expect: ok
#include <linux/module.h>
#include <frec.h>

static void t_scoped(unsigned int n)
{
	frec_span_scoped(frec_default_ring(), "scoped %u", n);
	frec_span_scoped_level(frec_default_ring(), FREC_LEVEL_DEBUG, "scoped two %u %d", n, 2);

	frec_record(frec_default_ring(), "inside %u", n);
}

static int __init t_init(void)
{
	struct frec_span s = frec_span_begin(frec_default_ring(), "%d %d %d %d", 1, 2, 3, 4);
	struct frec_span t = frec_span_begin_level(frec_default_ring(), FREC_LEVEL_TRACE, "t");

	t_scoped(1);
	frec_span_end_level(frec_default_ring(), FREC_LEVEL_TRACE, &t, "t end");
	frec_span_end(frec_default_ring(), &s, "%d %d", 1, 2);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
