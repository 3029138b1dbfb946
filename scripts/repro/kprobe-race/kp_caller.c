// SPDX-License-Identifier: GPL-2.0
/*
 * kp_caller.c - calls kp_lib_fn() (in another module) from a pinned
 * hrtimer every 100 us and from a kthread in a loop, on every CPU.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>

#include "kp_lib.h"

struct kp_cpu {
	struct hrtimer timer;
	struct task_struct *thread;
};

static DEFINE_PER_CPU(struct kp_cpu, kp_cpus);

static enum hrtimer_restart kp_tick(struct hrtimer *t)
{
	kp_lib_fn(1);
	hrtimer_forward_now(t, ns_to_ktime(100 * 1000));
	return HRTIMER_RESTART;
}

static int kp_thread(void *unused)
{
	unsigned long n = 0;

	while (!kthread_should_stop()) {
		kp_lib_fn(n++);
		if (!(n & 255))
			schedule_timeout_interruptible(1);
	}
	return 0;
}

static void kp_start(void *unused)
{
	struct kp_cpu *c = this_cpu_ptr(&kp_cpus);

	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	c->timer.function = kp_tick;
	hrtimer_start(&c->timer, ns_to_ktime(100 * 1000), HRTIMER_MODE_REL_PINNED_HARD);
}

static int __init kp_init(void)
{
	struct kp_cpu *c;
	int cpu;

	on_each_cpu(kp_start, NULL, 1);
	for_each_online_cpu(cpu) {
		c = per_cpu_ptr(&kp_cpus, cpu);
		c->thread = kthread_create_on_cpu(kp_thread, NULL, cpu, "kp_caller/%u");
		if (!IS_ERR(c->thread))
			wake_up_process(c->thread);
	}
	return 0;
}

static void __exit kp_exit(void)
{
	struct kp_cpu *c;
	int cpu;

	for_each_online_cpu(cpu) {
		c = per_cpu_ptr(&kp_cpus, cpu);
		if (!IS_ERR_OR_NULL(c->thread))
			kthread_stop(c->thread);
		hrtimer_cancel(&c->timer);
	}
}

module_init(kp_init);
module_exit(kp_exit);

MODULE_DESCRIPTION("kprobe race reproducer: calls the probed function from another module");
MODULE_LICENSE("GPL");
