/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_crash.h - the newest records on the console when the kernel oopses
 * or panics (frec_crash.c), and its settings (frec_crash_settings.c).
 */
#ifndef _FREC_CRASH_H
#define _FREC_CRASH_H

#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct dentry;
struct frec_filter;

/* Newest records per ring a console dump prints: 1 to 2^20. */
#define FREC_CRASH_RECORDS_MIN	1
#define FREC_CRASH_RECORDS_MAX	BIT(20)

/*
 * Bytes of records a dump from an oops, a panic or an atomic context
 * prints at most (4 KiB to 64 MiB): a slow console prints with IRQs off,
 * about 11.5 KB a second at 115200 baud.
 */
#define FREC_CRASH_BYTES_MIN	4096
#define FREC_CRASH_BYTES_MAX	(64U << 20)

/* The settings, read by the dumps with READ_ONCE(). */
extern bool frec_crash_oops_dump;
extern unsigned int frec_crash_records;
extern unsigned int frec_crash_bytes;
/* Which rings to dump; NULL for all.  RCU, replaced under the mutex. */
extern struct frec_filter __rcu *frec_crash_filter;
extern struct mutex frec_crash_filter_lock;

#if IS_ENABLED(CONFIG_KUNIT)
/* The KUnit suite's: called inside a dump that never sleeps. */
extern void (*frec_crash_test_hook)(const char *reason);
bool frec_crash_test_oops(const char *reason);
#endif

int frec_crash_init(struct dentry *root);
void frec_crash_exit(void);
int frec_crash_settings_check(void);
int frec_crash_settings_init(struct dentry *root);
void frec_crash_settings_exit(void);
int frec_crash_set_rings(const char *globs, char *msg, size_t msg_size);
int frec_crash_get_rings(char *buf, size_t size);

#endif /* _FREC_CRASH_H */
