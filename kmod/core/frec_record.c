// SPDX-License-Identifier: GPL-2.0
/*
 * frec_record.c - the record path: what frec_record() and frec_printk()
 * call once a ring's gate let them through, the gate itself, and the
 * tracepoints every stored record fires.
 *
 * A call site (include/frec.h) tests the static key frec_enabled_key, its
 * site's level word and then one word of the ring, its gate (struct
 * frec_ring_gate, first in every ring), with preemption on; only if the
 * gate passes does it turn preemption off and call __frec_record() or
 * __frec_printk().  They first check that the ring was not destroyed
 * since the call site loaded it ("Ring lifetime" in frec_rings.c), then
 * take this CPU's part of the ring's store (an RCU-sched reader: resize
 * and destroy wait for it) and write through the ring core
 * (lib/frec_rb.c).  A stored record then fires its tracepoint, still
 * inside the record, so that a probe recording again nests under the
 * same bound as any nested writer.
 *
 * __frec_record() and the span calls are __no_stack_protector: their one
 * array is the four arguments, written at fixed indices, and its canary
 * cost about six instructions a record (doc/speed.md, 2026-11-29).
 *
 * They read the clock (frec_rb_clock()) before anything else, and hand the
 * value to the ring core: read in the middle of the write, as it was, the
 * call kept a dozen values of the reservation alive across it, spilled to
 * the stack and loaded back; read first, only the arguments are (a
 * retry of the reservation needs no new read: frec_rb_stamp()).
 *
 * The gate is recomputed, under the ring's gate_lock, whenever the ring is
 * enabled, disabled, given another level or retired; call sites read it
 * racily (READ_ONCE), and a writer that passed an old gate is counted as
 * dropped (dropped_disabled) if the ring was disabled meanwhile.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define CREATE_TRACE_POINTS
#include "frec_trace.h"

/* For probes in other modules (the KUnit suite's recursion case). */
EXPORT_TRACEPOINT_SYMBOL_GPL(frec_record);
EXPORT_TRACEPOINT_SYMBOL_GPL(frec_printk);

#include <frec.h>

#include "frec_caller_word.h"
#include "frec_compat.h"

/* Where a record made outside task context is made. */
static noinline u32 frec_record_irq_kind(void)
{
	if (in_nmi())
		return FREC_CTX_NMI;
	if (in_hardirq())
		return FREC_CTX_HARDIRQ;
	return FREC_CTX_SOFTIRQ;
}

/*
 * The caller word of a record made now at @caller (uapi/frec_raw.h, "The
 * caller word"): with the pid of the current task, and, outside task
 * context, the kind of interrupt.  The pid is kept in an interrupt too,
 * the task it interrupted, as ftrace's common_pid keeps it.  in_task()
 * is a test of the preemption count (and on PREEMPT_RT of the task's
 * softirq count), so a task's record pays a load, a test, the pid's two
 * loads and the packing.  The ring core makes the word where it stores
 * it (FREC_RB_CALLER_WORD()), after the clock is read: computed before
 * the reservation, it would be kept on the stack across that call.
 */
static __always_inline u64 frec_record_caller_word(u64 caller)
{
	u32 context = task_pid_nr(current);

	if (unlikely(!in_task()))
		context |= frec_record_irq_kind() << FREC_CTX_KIND_SHIFT;
	return frec_caller_word(caller, frec_caller_base(), context);
}

/*
 * The ring core is compiled here, its writes inlined into the record path
 * (lib/frec_rb.c says why); the rest of frec.ko calls its readers.
 */
#define FREC_RB_INLINE_WRITES
#define FREC_RB_CALLER_WORD(caller)	frec_record_caller_word(caller)
#define FREC_RB_CALLER_BASE		frec_caller_base()
#include "frec_rb.c"
#include "frec_hooks.h"
#include "frec_printk_args.h"
#include "frec_record.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_span.h"
#include "frec_span_hook.h"

DEFINE_STATIC_KEY_TRUE(frec_enabled_key);
EXPORT_SYMBOL_GPL(frec_enabled_key);

/**
 * frec_ring_update_gate() - recompute the gate call sites test
 * @ring: the ring, its gate_lock held.
 *
 * The gate holds the level records must be at or below to be stored, or 0
 * while the ring is disabled.
 *
 * Context: Any context but NMI, @ring->gate_lock held.
 */
void frec_ring_update_gate(struct frec_ring *ring)
{
	lockdep_assert_held(&ring->gate_lock);
	WRITE_ONCE(ring->gate.pass, ring->enabled && !ring->retired ? ring->level : 0);
}

/**
 * frec_ring_retire() - close a ring being destroyed to every record, for good
 * @ring: the ring, unlisted, its debugfs files gone.
 *
 * A record path that gets past the gate after this returns -ENOENT and
 * touches nothing else of the ring; the caller then waits for an RCU-sched
 * grace period before it frees the ring's store ("Ring lifetime" in
 * frec_rings.c).
 *
 * Context: Process context.
 */
void frec_ring_retire(struct frec_ring *ring)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ring->gate_lock, flags);
	WRITE_ONCE(ring->retired, true); /* LMM(frec_ring_retire:A) */
	frec_ring_update_gate(ring);
	raw_spin_unlock_irqrestore(&ring->gate_lock, flags);
}

/*
 * Was @ring destroyed after its call site read the gate?  Preemption off:
 * if not, frec_ring_destroy() waits for this record before it frees the
 * store ("Ring lifetime" in frec_rings.c).
 */
static __always_inline bool frec_ring_retired(const struct frec_ring *ring)
{
	return unlikely(READ_ONCE(ring->retired)); /* LMM(frec_ring_retired:B) */
}

/*
 * Is @ring storing?  If not, count the record @rc drops, as disabled or
 * frozen.  One load, as a plain enabled flag costs.  Preemption off.
 */
static bool frec_ring_accepts(struct frec_ring *ring, struct frec_rb_cpu *rc)
{
	/*
	 * Never negative: "<= 0" is "== 0" without telling GCC the value,
	 * which it would otherwise keep as a zero for later, a spill in the
	 * common case; read again below for the same reason.
	 */
	if (likely(atomic_read(&ring->stop) <= 0))
		return true;
	frec_rb_count_drop(rc, atomic_read(&ring->stop) & FREC_RING_STOP_DISABLED ?
			   FREC_DROP_DISABLED : FREC_DROP_FROZEN);
	return false;
}

/*
 * A record's tracepoint (and a trigger's actions) in progress on this CPU,
 * whatever the ring: probes may record again (into any ring), and each
 * such record is one deeper.  Bounds that recursion as the ring core
 * bounds nesting on one ring: a record made FREC_RB_MAX_NEST deep is
 * dropped.  Raised only around the tracepoint, which is where a record
 * can recurse through frec (the write itself is bounded by the ring
 * core's nest count), so that a record whose tracepoint is off pays a
 * load and a compare, not an increment and a decrement
 * (doc/speed.md, 2026-11-29, the record path).  Only this CPU touches
 * its counter, with preemption off.
 */
static DEFINE_PER_CPU(unsigned int, frec_record_depth);

/* May a record start on this CPU?  False (and counted in @rc) if too deep. */
static __always_inline bool frec_record_enter(struct frec_rb_cpu *rc)
{
	if (likely(this_cpu_read(frec_record_depth) < FREC_RB_MAX_NEST))
		return true;
	frec_rb_count_drop(rc, FREC_DROP_NEST);
	return false;
}

/* Around what may record again: a tracepoint, a trigger's actions. */
static void frec_record_deeper(void)
{
	this_cpu_inc(frec_record_depth);
}

static void frec_record_shallower(void)
{
	this_cpu_dec(frec_record_depth);
}

/**
 * frec_record_abandon_this_cpu() - forget the records left in progress here
 *
 * Context: The oops path, in process context, preemption off, after it gave
 * up the writes of the dying task, whose records are the only ones in
 * progress on this CPU.
 */
void frec_record_abandon_this_cpu(void)
{
	/*
	 * The dying task never leaves its tracepoint: each such oops would
	 * leave the CPU one record deeper, until every record there is
	 * dropped as nested.
	 */
	this_cpu_write(frec_record_depth, 0);
}

/*
 * A record's site word when its site has no plain id: registers the site
 * or notes its first record (frec_site_word_slow()), and claims an armed
 * trigger (frec_hook_trigger_claim()), whose actions it puts in @fired.
 */
static noinline u64 frec_record_site_word_slow(struct frec_site *site, struct frec_ring *ring,
					       unsigned long caller, unsigned int *fired)
{
	u64 word = frec_site_word_slow(site, ring, caller);

	*fired = frec_hook_trigger_claim(site, ring);
	return word;
}

/*
 * What a record of @site stores as its site word: its id once it has one
 * and has stored a record; otherwise the slow case above.  Any context,
 * NMI included; never sleeps, locks or allocates.
 */
static __always_inline u64 frec_record_site_word(struct frec_site *site, struct frec_ring *ring,
						 unsigned long caller, unsigned int *fired)
{
	unsigned int id = READ_ONCE(site->id);

	if (frec_site_id_plain(id))
		return id;
	return frec_record_site_word_slow(site, ring, caller, fired);
}

/*
 * After a stored event, its tracepoint (a span end's @args holds its
 * duration word by now: frec_rb_write_event_since()).
 */
static __always_inline void frec_record_event_stored(struct frec_ring *ring,
						     struct frec_site *site,
						     unsigned long caller,
						     const unsigned long *args, u64 seq)
{
	unsigned long copy[FREC_EVENT_MAX_ARGS];

	if (!trace_frec_record_enabled())
		return;
	/*
	 * A copy made here, as the tracepoint is on: were the address of
	 * @args taken on the common path too, GCC would keep the arguments
	 * in memory for every record, 8 instructions (doc/speed.md).
	 */
	memcpy(copy, args, sizeof(copy));
	frec_record_deeper();
	trace_frec_record(ring->name, seq, caller, site->fmt, copy);
	frec_record_shallower();
}

/*
 * The rest of frec_record_event() for a site without a plain id, out of
 * line so that the common case keeps the code it had: a site not yet
 * registered or not yet recorded (frec_site_word_slow()), or with a
 * trigger armed, which this fires: the trigger's claim freezes before
 * the record is written, so the firing record itself is stored, and the
 * dump follows the write.
 */
static noinline int frec_record_event_slow(struct frec_ring *ring, struct frec_ring_store *store,
					   struct frec_rb_cpu *rc, u64 now, struct frec_site *site,
					   unsigned long caller, unsigned long *args,
					   bool span_end, u64 since, u64 *seqp, u64 *tsp)
{
	unsigned int fired = 0;
	u64 word = frec_record_site_word_slow(site, ring, caller, &fired);
	int ret = frec_rb_write_event_since(&store->layout, rc, now, word, caller, args,
					    span_end, since, seqp, tsp);

	if (!ret)
		frec_record_event_stored(ring, site, caller, args, *seqp);
	if (fired) {
		frec_record_deeper();
		frec_hook_trigger_fired(site, ring, fired, ret ? 0 : *seqp);
		frec_record_shallower();
	}
	return ret;
}

/*
 * Store a fixed-size event whose clock read gave @now (with @span_end, a
 * span's end that began at @since: frec_rb.c's
 * frec_rb_write_event_since()), fire its tracepoint; the stored record's
 * seq in @seqp, and its timestamp in @tsp unless NULL.  Preemption off.
 */
static __always_inline int frec_record_event(u64 now, struct frec_ring *ring,
					     struct frec_site *site,
					     unsigned long caller,
					     unsigned long *args, bool span_end,
					     u64 since, u64 *seqp, u64 *tsp)
{
	struct frec_ring_store *store;
	struct frec_rb_cpu *rc;
	int ret = -ENOSPC;
	unsigned int id;

	lockdep_assert_preemption_disabled();
	if (frec_ring_retired(ring))
		return -ENOENT;
	/* An RCU-sched reader of ring->store: preemption is off. */
	store = rcu_dereference_sched(ring->store);
	rc = this_cpu_ptr(store->cpus);
	if (!frec_record_enter(rc))
		return -ENOSPC;
	if (frec_ring_accepts(ring, rc)) {
		id = READ_ONCE(site->id);
		if (!frec_site_id_plain(id)) {
			/*
			 * Copies, not @args, @seqp and @tsp: their address
			 * taken out of line, the common case would keep them
			 * in memory.  @args comes back: a span's end holds
			 * its duration word now.
			 */
			unsigned long slow_args[FREC_EVENT_MAX_ARGS];
			u64 slow_seq = 0, slow_ts = 0;

			/* @args holds FREC_RECORD_MAX_ARGS words */
			BUILD_BUG_ON(FREC_EVENT_MAX_ARGS != FREC_RECORD_MAX_ARGS);
			memcpy(slow_args, args, sizeof(slow_args));
			ret = frec_record_event_slow(ring, store, rc, now, site, caller, slow_args,
						     span_end, since, &slow_seq,
						     tsp ? &slow_ts : NULL);
			memcpy(args, slow_args, sizeof(slow_args));
			*seqp = slow_seq;
			if (tsp)
				*tsp = slow_ts;
			return ret;
		}
		ret = frec_rb_write_event_since(&store->layout, rc, now, id, caller, args,
						span_end, since, seqp, tsp);
	}
	if (!ret)
		frec_record_event_stored(ring, site, caller, args, *seqp);
	return ret;
}

/**
 * __frec_record() - store a fixed-size event; use frec_record()
 * @ring: an event ring.
 * @site: the call site (its id is stored; its format is the event's).
 * @caller: the caller's address.
 * @a0: first argument.
 * @a1: second argument.
 * @a2: third argument.
 * @a3: fourth argument.
 *
 * A stored event also fires the frec:frec_record tracepoint, still inside
 * the record: a probe that records again nests, up to FREC_RB_MAX_NEST
 * records deep on one CPU; deeper ones are dropped (dropped_nest).
 *
 * Context: Any context, NMI included, with preemption disabled, @ring
 * loaded without sleeping since (frec_record() does both; see
 * frec_ring_destroy()).
 * Return: 0 if stored; -ENOENT if @ring was destroyed meanwhile; -ENOSPC
 * if dropped (counted in the ring's stats), -EINVAL if @ring is not an
 * event ring.
 */
__no_stack_protector
int __frec_record(struct frec_ring *ring, struct frec_site *site,
		  unsigned long caller, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3)
{
	/* Before anything else: the top of this file says why. */
	u64 now = frec_rb_clock();
	unsigned long args[FREC_RECORD_MAX_ARGS] = { a0, a1, a2, a3 };
	u64 seq;

	return frec_record_event(now, ring, site, caller, args, false, 0, &seq, NULL);
}
EXPORT_SYMBOL_GPL(__frec_record);

/**
 * __frec_span_begin() - store a span's begin; use frec_span_begin()
 * @ring: an event ring.
 * @site: the begin's call site.
 * @caller: the caller's address.
 * @a0: first argument.
 * @a1: second argument.
 * @a2: third argument.
 * @a3: fourth argument.
 *
 * An event as __frec_record() stores it, whose timestamp and (CPU, seq)
 * the token keeps for the end.
 *
 * Context: As __frec_record().
 * Return: the span's token: the begin's timestamp and name, or zeroes if
 * it was not stored (for any reason __frec_record() gives an error).
 */
__no_stack_protector
struct frec_span __frec_span_begin(struct frec_ring *ring, struct frec_site *site,
				   unsigned long caller, unsigned long a0,
				   unsigned long a1, unsigned long a2,
				   unsigned long a3)
{
	u64 now = frec_rb_clock();
	unsigned long args[FREC_RECORD_MAX_ARGS] = { a0, a1, a2, a3 };
	u64 seq, ts;

	/* include/frec.h spells the formats' marks for drivers: the same. */
	BUILD_BUG_ON(__builtin_memcmp(FREC_SPAN_BEGIN_FMT, __FREC_SPAN_BEGIN_FMT,
				      sizeof(FREC_SPAN_BEGIN_FMT)) ||
		     __builtin_memcmp(FREC_SPAN_END_FMT, __FREC_SPAN_END_FMT,
				      sizeof(FREC_SPAN_END_FMT)));
	if (frec_record_event(now, ring, site, caller, args, false, 0, &seq, &ts))
		return (struct frec_span){ 0, 0 };
	return (struct frec_span){ ts, frec_span_id(seq, smp_processor_id()) };
}
EXPORT_SYMBOL_GPL(__frec_span_begin);

/**
 * __frec_span_end() - store a span's end; use frec_span_end()
 * @ring: an event ring.
 * @site: the end's call site.
 * @caller: the caller's address.
 * @begin_ts: the token's timestamp, of a stored begin: not 0 (the caller
 *	tests it; a 0 would count the end's whole timestamp as the duration).
 * @begin_id: the token's name of the begin.
 * @a0: first argument.
 * @a1: second argument.
 *
 * Stores @a0, @a1, the begin's name and the duration: this record's
 * timestamp, taken in the write, minus the begin's (uapi/frec_raw.h,
 * "Spans"); once stored, hands the duration to frec_span_ended().
 *
 * Context: As __frec_record().
 * Return: as __frec_record().
 */
__no_stack_protector
int __frec_span_end(struct frec_ring *ring, struct frec_site *site,
		    unsigned long caller, u64 begin_ts, u64 begin_id,
		    unsigned long a0, unsigned long a1)
{
	u64 now = frec_rb_clock();
	unsigned long args[FREC_RECORD_MAX_ARGS] = { a0, a1, begin_id, 0 };
	u64 seq;
	int ret;

	/* include/frec.h's limit is the layout's (uapi/frec_raw.h). */
	BUILD_BUG_ON(FREC_SPAN_END_ARGS != FREC_SPAN_MAX_END_ARGS);
	ret = frec_record_event(now, ring, site, caller, args, true, begin_ts, &seq, NULL);
	if (!ret)
		frec_span_ended(ring, site, args[FREC_SPAN_END_DUR]);
	return ret;
}
EXPORT_SYMBOL_GPL(__frec_span_end);

/**
 * __frec_printk() - format a message into a record ring; use frec_printk()
 * @ring: a record ring.
 * @site: the call site (its id is stored).
 * @caller: the caller's address.
 * @fmt: printf format, the site's.
 * @...: its arguments.
 *
 * A stored record also fires the frec:frec_printk tracepoint, inside the
 * record, as for __frec_record().
 *
 * Context: Any context, NMI included, with preemption disabled, @ring
 * loaded without sleeping since (frec_printk() does both).
 * Return: 0 if stored; -ENOENT if @ring was destroyed meanwhile; -ENOSPC
 * if dropped (counted in the ring's stats), -EINVAL if @ring is an event
 * ring.
 */
int __frec_printk(struct frec_ring *ring, struct frec_site *site,
		  unsigned long caller, const char *fmt, ...)
{
	/* The arguments, or the text, and its NUL. */
	u64 payload[FREC_PRINTK_MAX / sizeof(u64) + 1];
	char *text = (char *)payload;
	struct frec_ring_store *store;
	struct frec_rb_cpu *rc;
	unsigned int size, flags = FREC_RECORD_ARGS, fired = 0;
	va_list ap;
	int len = 0, ret = -ENOSPC;
	u64 word, seq;

	lockdep_assert_preemption_disabled();
	if (frec_ring_retired(ring))
		return -ENOENT;
	if (unlikely(ring->kind != FREC_RING_RECORDS))
		return -EINVAL;
	size = min_t(unsigned int, FREC_PRINTK_MAX, ring->max_record_len);
	store = rcu_dereference_sched(ring->store);
	rc = this_cpu_ptr(store->cpus);
	if (!frec_record_enter(rc))
		return -ENOSPC;
	if (frec_ring_accepts(ring, rc)) {
		word = frec_record_site_word(site, ring, caller, &fired);
		va_start(ap, fmt);
		len = frec_printk_args_pack(payload, size, site, ap);
		va_end(ap);
		if (len < 0) {
			/* A call frec_printk_args.c cannot store: its text. */
			va_start(ap, fmt);
			len = vscnprintf(text, size + 1, fmt, ap);
			va_end(ap);
			flags = 0;
		}
		ret = frec_rb_write_record(&store->layout, rc, word, caller,
					   payload, len | flags, &seq);
	}
	if (!ret && trace_frec_printk_enabled()) {
		/* The tracepoint shows text: the record is stored, reuse the buffer. */
		if (flags) {
			va_start(ap, fmt);
			len = vscnprintf(text, size + 1, fmt, ap);
			va_end(ap);
		}
		frec_record_deeper();
		trace_frec_printk(ring->name, seq, caller, text, len);
		frec_record_shallower();
	}
	if (unlikely(fired)) {
		frec_record_deeper();
		frec_hook_trigger_fired(site, ring, fired, ret ? 0 : seq);
		frec_record_shallower();
	}
	return ret;
}
EXPORT_SYMBOL_GPL(__frec_printk);

/**
 * frec_ring_set_enabled() - start or stop storing records in a ring
 * @ring: the ring.
 * @enabled: store records (true) or drop and count them (false).
 *
 * A disabled ring costs a call site a static branch and three loads (its
 * site's level, the ring pointer and the gate, frec_ring_passes()); what
 * it holds stays readable.
 *
 * Context: Any context but NMI.
 */
void frec_ring_set_enabled(struct frec_ring *ring, bool enabled)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ring->gate_lock, flags);
	WRITE_ONCE(ring->enabled, enabled);
	/* The record path tests this word, frozen or not. */
	if (enabled)
		atomic_andnot(FREC_RING_STOP_DISABLED, &ring->stop);
	else
		atomic_or(FREC_RING_STOP_DISABLED, &ring->stop);
	frec_ring_update_gate(ring);
	raw_spin_unlock_irqrestore(&ring->gate_lock, flags);
}
EXPORT_SYMBOL_GPL(frec_ring_set_enabled);

/**
 * frec_ring_enabled() - whether a ring stores records
 * @ring: the ring.
 *
 * Context: Any context.
 * Return: true if @ring stores records.
 */
bool frec_ring_enabled(struct frec_ring *ring)
{
	return READ_ONCE(ring->enabled);
}
EXPORT_SYMBOL_GPL(frec_ring_enabled);

/**
 * frec_ring_set_level() - choose which levels a ring stores
 * @ring: the ring.
 * @level: store records of this level and below (enum frec_level).
 *
 * Context: Any context but NMI.
 * Return: 0, or -ERANGE if @level is not an enum frec_level.
 */
int frec_ring_set_level(struct frec_ring *ring, unsigned int level)
{
	unsigned long flags;

	if (level < FREC_LEVEL_ERR || level > FREC_LEVEL_MAX)
		return -ERANGE;
	raw_spin_lock_irqsave(&ring->gate_lock, flags);
	WRITE_ONCE(ring->level, level);
	frec_ring_update_gate(ring);
	raw_spin_unlock_irqrestore(&ring->gate_lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(frec_ring_set_level);

/**
 * frec_ring_level() - the level up to which a ring stores records
 * @ring: the ring.
 *
 * Context: Any context.
 * Return: an enum frec_level.
 */
unsigned int frec_ring_level(struct frec_ring *ring)
{
	return READ_ONCE(ring->level);
}
EXPORT_SYMBOL_GPL(frec_ring_level);
