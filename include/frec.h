/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec - a printk-style flight recorder for the Linux kernel.
 *
 * This is the header a client driver includes.  Build the driver with
 * frec's include/ directory on its include path and frec's Module.symvers
 * in KBUILD_EXTRA_SYMBOLS (see README.md).
 *
 * A ring is created by name and records into it are cheap enough to leave
 * on: frec_record() stores a fixed-size event (the format's address, up
 * to four arguments, the caller, a timestamp and a global sequence
 * number), formatted only when someone reads the ring.
 */
#ifndef _FREC_H
#define _FREC_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/kernel.h>

/* Version of the client API declared in this header. */
#define FREC_API_VERSION_MAJOR	0
#define FREC_API_VERSION_MINOR	1

/* Longest ring name, not counting the NUL. */
#define FREC_RING_NAME_MAX	31

/* Arguments frec_record() stores after the format. */
#define FREC_RECORD_MAX_ARGS	4

/* Longest text frec_printk() stores; longer messages are cut. */
#define FREC_PRINTK_MAX		256

/* What a ring holds. */
enum frec_ring_kind {
	FREC_RING_EVENTS,	/* fixed-size events: frec_record() */
	FREC_RING_RECORDS,	/* variable-size records: frec_printk() */
};

struct frec_ring;

struct frec_ring *frec_ring_create(const char *name, enum frec_ring_kind kind,
				   unsigned long bytes_per_cpu,
				   unsigned int max_record_len);
void frec_ring_destroy(struct frec_ring *ring);
struct frec_ring *frec_default_ring(void);
void frec_ring_set_enabled(struct frec_ring *ring, bool enabled);
bool frec_ring_enabled(struct frec_ring *ring);

int __frec_record(struct frec_ring *ring, const char *fmt,
		  unsigned long caller, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3);

__printf(3, 4) int __frec_printk(struct frec_ring *ring, unsigned long caller,
				 const char *fmt, ...);

/* Never called: lets the compiler check arguments against the format. */
static inline __printf(1, 2) void __frec_check_format(const char *fmt, ...)
{
}

#define __frec_arg(x)							\
	({								\
		BUILD_BUG_ON_MSG(sizeof(x) > sizeof(unsigned long),	\
				 "frec_record() argument wider than unsigned long"); \
		(unsigned long)(x);					\
	})

#define __frec_record_call(ring, fmt, caller, a, b, c, d, ...)		\
	__frec_record(ring, fmt, caller, __frec_arg(a), __frec_arg(b),	\
		      __frec_arg(c), __frec_arg(d))

/**
 * frec_record() - record a fixed-size event
 * @ring: the ring, from frec_ring_create() or frec_default_ring().
 * @fmt: a printf format that lives as long as the module (a literal).
 * @...: up to four arguments, each no wider than unsigned long.
 *
 * Stores the format's address and the arguments, not the text: the text
 * is formatted when the ring is read.  A %s argument is read at that time
 * too, so it must point to a string that outlives the record (a literal);
 * copy other strings with a record ring.  The format is checked against
 * the arguments at compile time: a mismatch, more than four arguments or
 * an argument wider than unsigned long is a build error.
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: 0 if stored, a negative errno if dropped (and counted).
 */
#define frec_record(ring, fmt, ...)					\
	({								\
		static_assert(COUNT_ARGS(__VA_ARGS__) <= FREC_RECORD_MAX_ARGS, \
			      "frec_record() takes at most 4 arguments"); \
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic error \"-Wformat\"")		\
		if (0)							\
			__frec_check_format(fmt, ##__VA_ARGS__);	\
		_Pragma("GCC diagnostic pop")				\
		__frec_record_call(ring, fmt, _THIS_IP_,		\
				   ##__VA_ARGS__, 0, 0, 0, 0);		\
	})

/**
 * frec_printk() - record a formatted message as a variable-size record
 * @ring: a record ring (FREC_RING_RECORDS).
 * @fmt: a printf format, formatted now (unlike frec_record()).
 * @...: its arguments.
 *
 * The text (at most the ring's max_record_len and FREC_PRINTK_MAX bytes;
 * longer messages are cut) is copied into the ring, so %s may point to
 * any string.  Costs a vsnprintf(); prefer frec_record() on hot paths.
 * A format that does not match its arguments is a build error.
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: 0 if stored, a negative errno if dropped (and counted), -EINVAL
 * if @ring is an event ring.
 */
#define frec_printk(ring, fmt, ...)					\
	({								\
		int __frec_ret;						\
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic error \"-Wformat\"")		\
		__frec_ret = __frec_printk(ring, _THIS_IP_, fmt, ##__VA_ARGS__); \
		_Pragma("GCC diagnostic pop")				\
		__frec_ret;						\
	})

#endif /* _FREC_H */
