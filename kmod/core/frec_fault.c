// SPDX-License-Identifier: GPL-2.0
/*
 * frec_fault.c - for tests only: make a record fault half way through its
 * write, as a writer that oopses there would; hold or fail the allocation
 * of a ring's store, to make races of ring administration deterministic.
 *
 *   insmod frec.ko fault_inject=1
 *   echo reserved > /sys/kernel/debug/frec/test_fault
 *
 *   reserved, filled  the next write on any CPU faults right after it
 *                     reserved its slots (or right before it commits them)
 *   hold              the next allocation of a store (create, resize,
 *                     clear, order) waits, with the locks its caller holds,
 *                     until "release"; it logs "test_fault: holding a store
 *                     allocation" when it starts waiting
 *   release           lets it go on
 *   nomem             every allocation of a store fails with -ENOMEM,
 *                     until "off"
 *   region_hold       the black box region's state is held as a writer
 *                     stopped half way would hold it (frec_region_kernel.c):
 *                     an oops or a panic must still mark the end
 *   region_release    let it go, as that writer would
 *   off               none of these (region_hold excepted)
 *
 * The ring core reaches frec_fault_hit() through a static branch,
 * frec_fault_key, that only a write to test_fault turns on: without
 * fault_inject=1 the file does not exist and the branch is a NOP in the
 * write path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/wait.h>

#include "frec_debugfs_input.h"
#include "frec_fault.h"
#include "frec_region_kernel.h"
#include "frec_rb.h"

static bool fault_inject;
module_param(fault_inject, bool, 0444);
MODULE_PARM_DESC(fault_inject, "tests only: debugfs test_fault makes the next write fault");

DEFINE_STATIC_KEY_FALSE(frec_fault_key);
/* test_fault: FREC_RB_HOOK_* + 1 of the write to fault, 0 for none. */
static atomic_t frec_fault_armed = ATOMIC_INIT(0);
/* NULL; read with READ_ONCE() so the compiler cannot see the fault coming. */
static unsigned long *frec_fault_ptr;

/* test_fault's hold of a store allocation. */
enum frec_fault_hold { FREC_FAULT_PASS, FREC_FAULT_HOLD, FREC_FAULT_HELD };
static atomic_t frec_fault_hold = ATOMIC_INIT(FREC_FAULT_PASS);
static DECLARE_WAIT_QUEUE_HEAD(frec_fault_hold_wq);
static bool frec_fault_nomem;

/**
 * frec_fault_hit() - fault inside a write, if test_fault armed this point
 * @where: the point of the write the ring core is at.
 *
 * Called from the write path only while frec_fault_key is on, that
 * is after a write to debugfs test_fault (fault_inject=1 only).
 *
 * Context: Any context (a writer's).
 */
void frec_fault_hit(enum frec_rb_hook where)
{
	int want = where + 1;

	if (atomic_read(&frec_fault_armed) != want ||
	    atomic_cmpxchg(&frec_fault_armed, want, 0) != want)
		return;
	pr_emerg("test_fault: faulting inside a write, %s\n",
		 where == FREC_RB_HOOK_RESERVED ? "after reserve" : "before commit");
	WRITE_ONCE(*READ_ONCE(frec_fault_ptr), 0);
}

/**
 * frec_fault_store_alloc() - hold or fail a store allocation, as test_fault asks
 *
 * Context: Process context, before a ring's store is allocated; sleeps
 * (killable) while test_fault holds it.  Without fault_inject=1 it does
 * nothing.
 * Return: 0, or -ENOMEM while test_fault says nomem.
 */
int frec_fault_store_alloc(void)
{
	if (!fault_inject)
		return 0;
	if (atomic_cmpxchg(&frec_fault_hold, FREC_FAULT_HOLD, FREC_FAULT_HELD) ==
	    FREC_FAULT_HOLD) {
		pr_info("test_fault: holding a store allocation\n");
		if (wait_event_killable(frec_fault_hold_wq,
					atomic_read(&frec_fault_hold) != FREC_FAULT_HELD))
			atomic_set(&frec_fault_hold, FREC_FAULT_PASS);
	}
	if (READ_ONCE(frec_fault_nomem)) {
		pr_info("test_fault: failing a store allocation\n");
		return -ENOMEM;
	}
	return 0;
}

static void frec_fault_release(void)
{
	atomic_set(&frec_fault_hold, FREC_FAULT_PASS);
	wake_up_all(&frec_fault_hold_wq);
}

static ssize_t frec_fault_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[16];
	int err = frec_debugfs_get_input(file, ubuf, count, ppos, buf, sizeof(buf));

	if (err)
		return err;
	if (!strcmp(buf, "reserved")) {
		atomic_set(&frec_fault_armed, FREC_RB_HOOK_RESERVED + 1);
	} else if (!strcmp(buf, "filled")) {
		atomic_set(&frec_fault_armed, FREC_RB_HOOK_FILLED + 1);
	} else if (!strcmp(buf, "hold")) {
		atomic_set(&frec_fault_hold, FREC_FAULT_HOLD);
	} else if (!strcmp(buf, "release")) {
		frec_fault_release();
	} else if (!strcmp(buf, "nomem")) {
		WRITE_ONCE(frec_fault_nomem, true);
	} else if (!strcmp(buf, "region_hold")) {
		frec_region_hold_state(true);
		return count;
	} else if (!strcmp(buf, "region_release")) {
		frec_region_hold_state(false);
		return count;
	} else if (!strcmp(buf, "off")) {
		atomic_set(&frec_fault_armed, 0);
		WRITE_ONCE(frec_fault_nomem, false);
		frec_fault_release();
	} else {
		return -EINVAL;
	}
	static_branch_enable(&frec_fault_key);
	return count;
}

static const struct file_operations frec_fault_fops = {
	.owner = THIS_MODULE,
	.write = frec_fault_write,
	.llseek = noop_llseek,
};

/**
 * frec_fault_init() - create debugfs test_fault, if fault_inject=1
 * @root: frec's debugfs directory.
 *
 * Context: Process context.
 */
void frec_fault_init(struct dentry *root)
{
	if (fault_inject)
		debugfs_create_file("test_fault", 0200, root, NULL, &frec_fault_fops);
}
