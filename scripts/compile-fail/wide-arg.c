// SPDX-License-Identifier: GPL-2.0
// expect: (frec_record\(\) argument wider than unsigned long|error: format)
#include <linux/module.h>
#include <frec.h>

struct two_words { long a, b; };

static int __init t_init(void)
{
	struct two_words w = { 1, 2 };

	frec_record(frec_default_ring(), "%ld", w);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
