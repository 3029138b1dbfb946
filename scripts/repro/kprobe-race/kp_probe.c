// SPDX-License-Identifier: GPL-2.0
/*
 * kp_probe.c - a kprobe on kp_lib_fn() (ftrace-based: the function starts
 * with its __fentry__ site) whose pre-handler only counts; unloading the
 * module unregisters it.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

static unsigned long hits;
module_param(hits, ulong, 0444);
MODULE_PARM_DESC(hits, "times the pre-handler ran");

static int kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(hits, READ_ONCE(hits) + 1);
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
