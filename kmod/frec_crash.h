/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_crash.h - the newest records on the console when the kernel oopses
 * or panics (frec_crash.c).
 */
#ifndef _FREC_CRASH_H
#define _FREC_CRASH_H

#include <linux/types.h>

int frec_crash_init(void);
void frec_crash_exit(void);
int frec_crash_set_rings(const char *globs);
int frec_crash_get_rings(char *buf, size_t size);

#endif /* _FREC_CRASH_H */
