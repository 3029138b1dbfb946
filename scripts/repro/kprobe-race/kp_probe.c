// SPDX-License-Identifier: GPL-2.0
/*
 * kp_probe.c - a kprobe on kp_lib_fn() (ftrace-based: the function starts
 * with its __fentry__ site) whose pre-handler counts and, with nested=1,
 * calls kp_lib_fn() itself, as a pre-handler that records into the probed
 * recorder does; unloading the module unregisters it.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

#include "kp_lib.h"

static unsigned long hits;
module_param(hits, ulong, 0444);
MODULE_PARM_DESC(hits, "times the pre-handler ran");

static bool nested;
module_param(nested, bool, 0444);
MODULE_PARM_DESC(nested, "the pre-handler calls the probed function");

static int kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(hits, READ_ONCE(hits) + 1);
	if (nested)
		kp_lib_fn(0);
	return 0;
}

static struct kprobe kp = {
	.symbol_name = "kp_lib_fn",
	.pre_handler = kp_pre,
};

static int __init kp_init(void)
{
	return register_kprobe(&kp);
}

static void __exit kp_exit(void)
{
	unregister_kprobe(&kp);
}

module_init(kp_init);
module_exit(kp_exit);

MODULE_DESCRIPTION("kprobe race reproducer: the kprobe");
MODULE_LICENSE("GPL");
