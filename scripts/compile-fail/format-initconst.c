// SPDX-License-Identifier: GPL-2.0
// expect: expected .* before .*t_fmt
#include <linux/module.h>
#include <frec.h>

/* A constant array, but init data: freed once init returns. */
static const char t_fmt[] __initconst = "text %d";

static int __init t_init(void)
{
	/* A call site keeps its format: only a literal lives long enough. */
	frec_record(frec_default_ring(), t_fmt, 7);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
