// SPDX-License-Identifier: GPL-2.0
// expect: ok
// Arrays are passed as their address, as a function call passes them: a
// string literal longer than a word and a char array field both build.
#include <linux/module.h>
#include <frec.h>

struct t_dev {
	char name[16];
	int irq;
};

static struct t_dev t_dev = { .name = "eth0", .irq = 5 };

static int __init t_init(void)
{
	frec_record(frec_default_ring(), "dev %s", "eth0");
	frec_record(frec_default_ring(), "dev %s irq %d", "a literal of 25 bytes", 3);
	frec_record(frec_default_ring(), "dev %s irq %d", t_dev.name, t_dev.irq);
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
