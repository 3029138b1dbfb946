// SPDX-License-Identifier: GPL-2.0
/*
 * tasks.c - the names of the tasks a dump's records name, from its
 * FREC_RAW_TASK entries (uapi/frec_raw.h): an open-addressed table by
 * pid, which writers ask when they name a record's task (trace.dat's
 * comm, JSON's tracks).  A pid with no entry (the task had exited when
 * the dump was read, or the dump is older than task entries) has no
 * name here; the idle task's pid 0 is named as ftrace names it.
 *
 * The table holds at most one entry per task entry read, so its size is
 * bounded by the dump's: a dump cannot make it grow past what it holds.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"

/* The slot of @pid, or the empty slot where it would go. */
static struct frec_task *tasks_slot(const struct frec_tasks *t, u32 pid)
{
	size_t i = (pid * 2654435761U) & (t->cap - 1);

	while (t->slots[i].used && t->slots[i].pid != pid)
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

/* Twice the slots, every entry moved; -1 if no memory. */
static int tasks_grow(struct frec_tasks *t)
{
	struct frec_tasks bigger = { .cap = t->cap ? 2 * t->cap : 64 };
	size_t i;

	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			*tasks_slot(&bigger, t->slots[i].pid) = t->slots[i];
	bigger.nr = t->nr;
	free(t->slots);
	*t = bigger;
	return 0;
}

/**
 * frec_tasks_set() - name a task
 * @t: the table.
 * @pid: its pid.
 * @comm: its name, at most FREC_RAW_TASK_COMM_LEN bytes, NUL-terminated
 *	or not; bytes from the first NUL on are dropped.
 *
 * A later name of the same pid replaces the earlier one.  Control bytes
 * of the name are kept as '?'.
 *
 * Context: userspace.
 * Return: 0, or -1 if there is no memory.
 */
int frec_tasks_set(struct frec_tasks *t, u32 pid, const char *comm)
{
	struct frec_task *slot;
	size_t i;

	if (2 * (t->nr + 1) > t->cap && tasks_grow(t))
		return -1;
	slot = tasks_slot(t, pid);
	if (!slot->used)
		t->nr++;
	slot->used = true;
	slot->pid = pid;
	memset(slot->comm, 0, sizeof(slot->comm));
	memcpy(slot->comm, comm, strnlen(comm, FREC_RAW_TASK_COMM_LEN));
	/*
	 * A task may name itself with any bytes but NUL (prctl(PR_SET_NAME));
	 * trace.dat's cmdlines are lines, and a terminal runs escapes: every
	 * writer gets a control byte as '?'.
	 */
	for (i = 0; slot->comm[i]; i++)
		if ((unsigned char)slot->comm[i] < 0x20 || slot->comm[i] == 0x7f)
			slot->comm[i] = '?';
	return 0;
}

/**
 * frec_tasks_name() - the name of a task
 * @t: the table.
 * @pid: its pid.
 *
 * Context: userspace.
 * Return: the name the dump gave it; "<idle>" for pid 0, as ftrace
 * names it; NULL if the dump named it not.
 */
const char *frec_tasks_name(const struct frec_tasks *t, u32 pid)
{
	const struct frec_task *slot;

	if (!pid)
		return "<idle>";
	if (!t->cap)
		return NULL;
	slot = tasks_slot(t, pid);
	return slot->used ? slot->comm : NULL;
}

/**
 * frec_tasks_free() - free the table
 * @t: the table; empty afterwards.
 *
 * Context: userspace.
 */
void frec_tasks_free(struct frec_tasks *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
