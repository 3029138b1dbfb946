/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_rb.h - frec's lock-free per-CPU ring core.
 *
 * The core (frec_rb.c) is written once and compiled both into the module
 * and into the userspace harness (tools/harness), where kernel_compat.h
 * maps the few kernel primitives it uses onto C11 atomics.  It allocates
 * nothing: the caller provides each CPU's slot array.
 *
 * Concurrency contract:
 *  - frec_rb_write_event() and frec_rb_write_record() may be called
 *    from any context, NMI included, with preemption disabled, on the
 *    struct frec_rb_cpu of the CPU they run on.  They never sleep, lock,
 *    allocate or wait for another CPU.  Nested calls on one CPU (an IRQ or
 *    NMI interrupting a writer) are fine.
 *  - Readers (frec_rb_cursor_*) run on any CPU, concurrently with writers
 *    and with each other, and never block writers; they only read.
 *  - Everything else (init, reset) needs the ring to be quiescent: no
 *    writer and no reader on it.
 */
#ifndef _FREC_RING_H
#define _FREC_RING_H

#ifdef __KERNEL__
#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/cache.h>
#include <linux/preempt.h>
#include <linux/types.h>
#include <asm/local.h>

/*
 * What the ring core needs of the machine (README, "Installing: kernels
 * and Debian packages"):
 *  - 64-bit words: a slot's state is a u64 that readers load and writers
 *    store whole, with acquire and release; a 32-bit kernel would tear it.
 *  - native 64-bit atomics: the global-order sequence is an atomic64_t, which
 *    GENERIC_ATOMIC64 implements with a hashed spinlock that an NMI on
 *    the same CPU would deadlock on.
 *  - a cmpxchg that is safe in NMI context, for the CPU-local head; where
 *    it is not (ARCH_HAVE_NMI_SAFE_CMPXCHG unset: riscv, loongarch, mips,
 *    ...), writes from NMI context are refused and counted
 *    (dropped_nmi), as ftrace's ring buffer refuses them.
 */
#ifndef CONFIG_64BIT
#error "frec needs a 64-bit kernel: a slot's state word is a u64 read and written whole"
#endif
#ifdef CONFIG_GENERIC_ATOMIC64
#error "frec needs native 64-bit atomics: GENERIC_ATOMIC64 locks, and an NMI would deadlock on it"
#endif
#define frec_rb_nmi_refused() \
	(!IS_ENABLED(CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG) && in_nmi())
#else
#include "frec_user.h"
#endif

#include <frec_raw.h>

/* Why a record was not stored; indexes frec_rb_cpu.dropped[]. */
enum frec_drop_reason {
	FREC_DROP_NEST,		/* nested deeper than FREC_RB_MAX_NEST */
	FREC_DROP_LAP,		/* would overwrite an interrupted writer's slots */
	FREC_DROP_FULL,		/* stop-when-full ring is full */
	FREC_DROP_SIZE,		/* larger than the ring's maximum record */
	FREC_DROP_DISABLED,	/* ring or frec disabled (counted by callers) */
	FREC_DROP_ABANDONED,	/* its writer died between reserve and commit */
	FREC_DROP_NMI,		/* in NMI, where cmpxchg is not NMI-safe */
	FREC_DROP_FROZEN,	/* ring frozen by a trigger (counted by callers) */
	FREC_DROP_NR
};

/* frec_rb_init() flags. */
#define FREC_RB_STOP_WHEN_FULL	0x1	/* keep the first records, not the newest */
#define FREC_RB_GLOBAL_ORDER	0x2	/* seq from one counter shared by all CPUs */

/* Writers that may be in progress at once on one CPU (task, softirq, hard
 * IRQ, NMI, and some slack for nested NMIs or recursion through a probe).
 */
#define FREC_RB_MAX_NEST	8

/**
 * struct frec_rb_cpu - one CPU's part of a ring
 * @head: the next free position; positions count slots from 0 and never
 *	wrap, a position's slot is slots[pos & mask].  Only this CPU writes.
 * @nest: writers in progress on this CPU.
 * @pending_pos: a lower bound on the first position of the outermost
 *	writer in progress on this CPU (see "Nested writers" in frec_rb.c).
 * @written: records offered to this CPU's part, stored or not.
 * @overwritten: stored records destroyed by newer ones.
 * @seq: records stored in this CPU's part (the last seq given).
 * @dropped: records not stored, by reason.
 * @slots: the slot array, ring->nr_slots long.
 *
 * The counters are only written by this CPU; anyone may read them.  The
 * structure is cache-line aligned, so that no two CPUs' parts share a
 * line even where they sit side by side (an array of them, in tests).
 */
struct frec_rb_cpu {
	local_t head;
	local_t nest;
	unsigned long pending_pos;
	local_t written;
	local_t overwritten;
	local_t seq;
	local_t dropped[FREC_DROP_NR];
	struct frec_slot *slots;
} ____cacheline_aligned;

static_assert(sizeof(struct frec_rb_cpu) % SMP_CACHE_BYTES == 0 &&
	      __alignof__(struct frec_rb_cpu) >= SMP_CACHE_BYTES,
	      "one CPU's ring state shares no cache line with another's");

/**
 * struct frec_rb - the shape of a ring, shared by all its CPUs
 * @nr_slots: slots per CPU, a power of two.
 * @mask: @nr_slots - 1.
 * @max_record_len: longest payload of a variable-size record; 0 makes an
 *	event ring (fixed-size events only).
 * @max_record_slots: the most slots one record may take (1 for an event
 *	ring).
 * @stop_when_full: keep the first records instead of the newest.
 * @global_order: seq comes from the counter shared by all CPUs.
 */
struct frec_rb {
	unsigned long nr_slots;
	unsigned long mask;
	unsigned int max_record_len;
	unsigned int max_record_slots;
	bool stop_when_full;
	bool global_order;
};

/**
 * struct frec_rb_entry - a record as a reader copied it out
 * @seq: sequence number, per CPU (or global, for a global-order ring).
 * @ts: timestamp (ns).
 * @site: the site word: a call site id, or a format address
 *	for a site without one (uapi/frec_raw.h, FREC_SITE_ID_LIMIT).
 * @caller: the caller (frec_caller_of(): an address, or the key of a
 *	name frec kept for it).
 * @context: the context word (frec_context_of()).
 * @args: the four arguments of an event.
 * @len: payload length of a variable-size record, 0 for an event.
 * @printk_args: the payload is frec_printk()'s arguments, not text
 *	(FREC_RECORD_ARGS).
 * @payload: the reader's buffer the payload was copied into.
 */
struct frec_rb_entry {
	u64 seq;
	u64 ts;
	unsigned long site;
	u64 caller;
	u32 context;
	unsigned long args[FREC_EVENT_MAX_ARGS];
	unsigned int len;
	bool printk_args;
	void *payload;
};

/**
 * struct frec_rb_cursor - a reader's place in one CPU's part of a ring
 * @pos: the next position to look at.
 * @end: the head when the read started; newer records are not read.
 * @raced: records skipped because a writer overwrote them while they were
 *	being read.
 */
struct frec_rb_cursor {
	unsigned long pos;
	unsigned long end;
	unsigned long raced;
};

/* Points inside a write where a test may nest a writer or fault. */
enum frec_rb_hook {
	FREC_RB_HOOK_RESERVED,	/* positions reserved, slots not claimed */
	FREC_RB_HOOK_FILLED,		/* slots filled, not committed */
};

#ifdef FREC_RB_TEST_HOOKS
extern void (*frec_rb_test_hook)(enum frec_rb_hook where);
void frec_rb_test_forget_stamp(void);
#elif defined(__KERNEL__)
#include <linux/jump_label.h>
/* frec.ko's fault injection for the crash-dump tests (frec_crash.c). */
DECLARE_STATIC_KEY_FALSE(frec_fault_key);
void frec_fault_hit(enum frec_rb_hook where);
#endif

/* Count a record @rc did not store, for @why. */
static inline void frec_rb_count_drop(struct frec_rb_cpu *rc,
				      enum frec_drop_reason why)
{
	local_inc(&rc->written);
	local_inc(&rc->dropped[why]);
}

int frec_rb_init(struct frec_rb *ring, unsigned long nr_slots,
		 unsigned int max_record_len, unsigned int flags);
unsigned int frec_rb_record_slots(unsigned int len);
void frec_rb_cpu_init(struct frec_rb_cpu *rc, struct frec_slot *slots,
		      const struct frec_rb *ring);

/* Static and inlined where frec_record.c includes frec_rb.c. */
#ifndef FREC_RB_INLINE_WRITES
int frec_rb_write_event(const struct frec_rb *ring,
			struct frec_rb_cpu *rc, unsigned long site,
			u64 caller_word, const unsigned long *args,
			u64 *seqp);
int frec_rb_write_event_since(const struct frec_rb *ring,
			      struct frec_rb_cpu *rc, u64 now, unsigned long site,
			      u64 caller_word, unsigned long *args,
			      bool span_end, u64 since, u64 *seqp, u64 *tsp);
int frec_rb_write_record(const struct frec_rb *ring,
			 struct frec_rb_cpu *rc, unsigned long site,
			 u64 caller_word, const void *payload,
			 unsigned int len, u64 *seqp);
#endif

void frec_rb_cursor_init(const struct frec_rb *ring,
			 struct frec_rb_cpu *rc,
			 struct frec_rb_cursor *cur);
bool frec_rb_cursor_next(const struct frec_rb *ring,
			 struct frec_rb_cpu *rc,
			 struct frec_rb_cursor *cur,
			 struct frec_rb_entry *ent, void *buf,
			 unsigned int buf_len);

unsigned long frec_rb_abandon_writes(const struct frec_rb *ring,
				     struct frec_rb_cpu *rc);

#endif /* _FREC_RING_H */
