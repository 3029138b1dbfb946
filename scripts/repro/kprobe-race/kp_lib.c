// SPDX-License-Identifier: GPL-2.0
/*
 * kp_lib.c - one exported function, called by kp_caller.ko from another
 * module, and probed by kp_probe.ko.  See run.sh.
 */
#include <linux/module.h>

#include "kp_lib.h"

/**
 * kp_lib_fn() - the probed function
 * @v: any value.
 *
 * __noipa: GCC must keep the call and its argument, as for a real one.
 *
 * Context: Any context.
 * Return: whether 3 @v + 1 exceeds 7.
 */
__attribute__((__noipa__)) int kp_lib_fn(unsigned long v)
{
	return v * 3 + 1 > 7;
}
EXPORT_SYMBOL_GPL(kp_lib_fn);

MODULE_DESCRIPTION("kprobe race reproducer: the probed function");
MODULE_LICENSE("GPL");
