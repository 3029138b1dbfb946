// SPDX-License-Identifier: GPL-2.0
/*
 * frec_task_name.c - the name of the task a record's context names
 * (uapi/frec_raw.h, "The caller word"), as it is called now: what the raw
 * dump's task entries (frec_dump.c) and the black box's task texts
 * (frec_persist_texts.c) write.  A record keeps only the pid: the name
 * is looked up when the records are read, so a task that has exited by
 * then has none, and a pid reused by then names the new task.
 */
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "frec_task_name.h"

/**
 * frec_task_name() - the name a pid's task has now
 * @pid: a pid of the initial namespace, as records hold it.
 * @comm: where its name goes, NUL-terminated.
 *
 * Context: Process context: takes the RCU read lock and task_lock(), a
 * spinlock its holders take with interrupts on, so an interrupt that came
 * while its CPU held it would deadlock here.
 * Return: true with @comm filled; false for pid 0 (the idle task, which
 * readers name as ftrace does) and for a pid no task has now.
 */
bool frec_task_name(u32 pid, char comm[TASK_COMM_LEN])
{
	struct task_struct *task;
	bool found = false;

	if (!pid)
		return false;
	rcu_read_lock();
	task = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
	if (task) {
		__get_task_comm(comm, TASK_COMM_LEN, task);
		found = true;
	}
	rcu_read_unlock();
	return found;
}
