/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_task_name.h - the name of the task a record's context names, as it
 * is called now (frec_task_name.c).
 */
#ifndef _FREC_TASK_NAME_H
#define _FREC_TASK_NAME_H

#include <linux/sched.h>
#include <linux/types.h>

bool frec_task_name(u32 pid, char comm[TASK_COMM_LEN]);

#endif /* _FREC_TASK_NAME_H */
