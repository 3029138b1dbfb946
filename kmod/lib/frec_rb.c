// SPDX-License-Identifier: GPL-2.0
/*
 * frec_rb.c - frec's lock-free per-CPU ring core.
 *
 * Compiled into the module and, unchanged, into the userspace harness
 * (tools/harness); see frec_rb.h for the concurrency contract.
 */

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif

#include "frec_caller_word.h"
#include "frec_rb.h"
#include "frec_span.h"

/**
 * DOC: frec ring
 *
 * Data structures
 * ---------------
 * A ring has one part per CPU.  Each part is an array of nr_slots 64-byte
 * slots (a power of two), a head and a few counters.  Positions number
 * slots from 0 upwards and never wrap; position pos lives in slot
 * pos & mask, so position pos and pos + nr_slots share a slot.  A record
 * takes k >= 1 consecutive positions: an event one, a variable-size record
 * one first slot and k - 1 continuation slots::
 *
 *              oldest kept                         head
 *                  |                                |
 *   positions: ... | 40 | 41 | 42 | 43 | 44 | 45 |  46  (nr_slots = 8)
 *   slots:         [ 0 ][ 1 ][ 2 ][ 3 ][ 4 ][ 5 ][ 6 ][ 7 ]
 *   positions:      40   41   42   43   44   45   38   39
 *   lap:            1    1    1    1    1    1    0    0
 *   state:          9    9c   10   BUSY 11   11c  6    7
 *
 *   (n: the first slot of record seq n, nc: one of its continuation slots;
 *    lap: (pos / nr_slots) & 1, the parity of the slot's lap)
 *
 * Every slot starts with a state word (uapi/frec_raw.h): 0 (empty), BUSY
 * (being written), seq << 3 | lap (first slot of record seq) or
 * seq << 3 | lap | CONT (its continuation).  seq counts the records stored
 * in this CPU's part, from 1: it is never reused, so a state value names
 * one record for ever (no ABA), and a gap between two seqs a reader
 * returns is exactly the records lost in between (overwritten, or
 * skipped because they were overwritten while being read).  A ring made
 * with FREC_RB_GLOBAL_ORDER takes seq from one counter shared by every
 * such ring and CPU instead (see "Order" below).
 *
 * No writer stores to a cache line another CPU's writer stores to: the
 * parts are per-CPU data, each struct frec_rb_cpu is cache-line aligned
 * (asserted at build time) and its slots are its own allocation.  The one
 * exception is the global counter of a FREC_RB_GLOBAL_ORDER ring.
 *
 * Writers
 * -------
 * Only the CPU owning a part writes its heads, counters and states:
 * writers run with preemption off on their own CPU (the one exception,
 * repointing words of committed records when a module goes, is in
 * "Memory ordering" below).  Writers on one CPU are strictly nested (an IRQ or NMI
 * runs to completion before the writer it interrupted goes on), so no
 * writer ever waits for another; the ring needs no lock and no cmpxchg
 * between CPUs.  A write is:
 *
 *  1. Reserve: read the clock once, then in a loop make the timestamp
 *     (frec_rb_stamp(), "Order" below) and move head from pos to pos + k
 *     with a CPU-local cmpxchg.  The cmpxchg fails only if a nested writer
 *     reserved in between (it has finished by then), and the retry makes
 *     a new timestamp, raised above the nested writer's, so timestamps on
 *     one CPU increase with position.  Then take the seq: the CPU's own
 *     counter, incremented once per reservation (no seq is ever lost to a
 *     retry).  A nested writer that interrupts between the cmpxchg and
 *     that increment takes the lower seq for the higher position; seq
 *     names records, position and timestamp order them.  A global-order
 *     ring takes its seq from the shared counter inside the loop instead,
 *     before the cmpxchg, so that seq order is position order there.
 *  2. Claim: for each of the k slots, count the record it holds as
 *     overwritten if it is a first slot, and set its state to BUSY.
 *  3. Fill: store timestamp, format, caller, arguments or payload.
 *  4. Commit: store the final state (seq << 3 | lap, or with CONT) into
 *     each slot with release semantics.
 *
 * A reservation always completes: every reason to drop a record (see
 * enum frec_drop_reason) is decided before the cmpxchg.  So positions
 * below head are all claimed, filled and committed once the writers in
 * progress finish, and none is ever abandoned holding stale data.
 *
 * Nested writers
 * --------------
 * A writer that waited for an unfinished slot (as a lock or a ticket
 * would) could be waiting for the very writer its IRQ or NMI interrupted,
 * which cannot run until it returns: a deadlock. So frec never waits. The
 * one danger of nesting is a nested writer lapping the ring and claiming
 * slots that the writer it interrupted has reserved but not yet committed:
 * both would fill the same slots. To rule that out, the outermost writer
 * on a CPU (nest == 1) stores the head into pending_pos before it
 * reserves; since head only grows, pending_pos is a lower bound on the
 * first position of every writer in progress beneath a nested one. A
 * nested writer only reserves [pos, pos + k) if pos + k <= pending_pos +
 * nr_slots, i.e. if the oldest position it destroys is older than every
 * pending one; otherwise it drops its record (FREC_DROP_LAP). That takes a
 * nested writer filling almost a whole ring while interrupting another; in
 * practice it never happens. Nesting deeper than FREC_RB_MAX_NEST is
 * dropped too (FREC_DROP_NEST).
 *
 * Readers
 * -------
 * A reader never writes to the ring.  It takes head as the end of its read
 * and walks positions from end - nr_slots (or 0) to end.  For each first
 * slot it copies the record out (first slot, then continuation slots,
 * each state checked against the expected seq) and then checks, seqlock
 * style, that no slot's state changed while it copied and that no writer
 * has reserved the position's slot for a newer lap since (head - pos <=
 * nr_slots).  Anything else is skipped and counted in cursor->raced:
 * BUSY slots, records overwritten before or while being read, and records
 * whose lap bit is not their position's (the record of pos - nr_slots,
 * still in a slot whose new writer was interrupted after reserving pos but
 * before claiming it).  The lap bit suffices: the record of
 * pos - 2 * nr_slots cannot be there, since a position is reserved only
 * once the one a lap before it is claimed (in order on one CPU, for a
 * nested writer by the lap check above, and for a write that died between
 * reserve and claim by frec_rb_abandon_writes(), which claims its slots).
 * Reading is not destructive: two reads in a row see the same records.
 *
 * Order
 * -----
 * Readers merge the parts of all rings (kmod/lib/frec_merge.c) by
 * (timestamp, CPU, seq).
 *
 * Records of one CPU come in the order that CPU stored them, in all its
 * rings: a record's timestamp is the clock read, raised to one more than
 * the last timestamp the CPU gave (in any ring) when the clock has not
 * passed it (frec_rb_stamp()), so a CPU never gives one timestamp twice
 * and its timestamps increase in the order it takes them.  The last
 * timestamp is a per-CPU word, raised with a CPU-local cmpxchg: a nested
 * writer that takes one in between makes the cmpxchg fail, and the retry
 * goes above it.  Without the raise, a clock that ticks slower than a CPU
 * records (arm64's counter ticks every few tens of ns) would give two
 * records of one CPU in two rings one timestamp, and the merge would
 * order them by the rings' unrelated seqs.  A raise is at most the
 * number of records the CPU took within one tick, in ns: none on x86,
 * whose clock has ns resolution, unless a CPU records more than once a
 * nanosecond.  On one CPU, positions are in timestamp order, so each part
 * is already sorted and the merge is a k-way merge.
 *
 * Across CPUs the order respects happens-before when the clock is
 * synchronised and the two records are more than a tick apart: if CPU A
 * stores record a and then a flag, and CPU B sees the flag and then
 * stores record b, B's clock read is at least A's, because
 *
 *  - A read the clock for a before its store of the flag became visible:
 *    a store is visible only once it retires, and the clock read retired
 *    before it (x86: RDTSC executes before later instructions retire).
 *    arm64 may make a store visible before an earlier load (or MRS)
 *    completes, so there it holds through the data: a's timestamp is
 *    stored in a (a store cannot be performed before its value is
 *    known), and whatever makes a visible to B before the flag (the
 *    flag's release, or smp_wmb() before it; without it B need not see
 *    a at all) orders that store, so the counter read, before the flag.
 *    The kernel's accessor also makes a fake load depend on the counter
 *    (arch_counter_enforce_ordering()), ordering it like a load;
 *  - B reads the clock for b after its load of the flag completed:
 *    frec_rb_clock() puts a read barrier (rmb(): LFENCE on x86, DSB LD on
 *    arm64) before the clock read, because a plain RDTSC may execute
 *    before an earlier load completes and so return a time before the
 *    flag was seen;
 *  - the clock is one clock on every CPU: on x86, sched_clock() is the
 *    TSC, which the kernel checks for warps between CPUs at bring-up and
 *    watches afterwards (check_tsc_unstable()); local_clock() is then
 *    sched_clock() plus one offset for all CPUs.  On arm64 local_clock()
 *    is sched_clock() (no HAVE_UNSTABLE_SCHED_CLOCK), the architected
 *    counter read by the kernel's accessor: one system counter for every
 *    CPU, counting at CNTFRQ (62.5 MHz, a 16 ns tick, in QEMU's virt with
 *    a cortex-a57; 1 GHz from Armv8.6), converted to ns.
 *
 * So ts(b) >= B's clock read > ts(a) whenever B's clock read is above
 * ts(a): a comes first.  When it is not, B read the clock within the tick
 * of A's read (or within A's raise): the two reads returned one value, or
 * values that the raise reversed, and nothing frec stores tells which
 * came first.  The merge then orders them by (timestamp, CPU), which may
 * reverse happens-before.  No per-CPU scheme can do better: two CPUs that
 * read one clock value carry no trace of their order unless one writes
 * something the other reads, a write both share; that is what a
 * FREC_RB_GLOBAL_ORDER ring's counter is.  On x86 the clock counts ns
 * and the flag takes tens of ns to move between CPUs, so the two reads
 * do not tie (the causality tests check it); on arm64, records closer
 * than one tick of the counter may come in either order across CPUs.
 * The strict increase on each CPU does not change that: it orders one
 * CPU's records, and says nothing of another CPU's read of the same tick.
 *
 * When the clock is not synchronised (an unstable TSC, kvm-clock without
 * the host's stable bit, an architecture whose clock frec cannot check),
 * the merge is the same but its order across CPUs is approximate:
 * frec_clock_synchronized() tells, and the dump's header says so.
 * Records of one CPU stay in order.  A ring made with
 * FREC_RB_GLOBAL_ORDER numbers its records from one shared counter
 * instead, a total order of its own (a read of global-order rings only
 * merges by that seq), at the price of a write every CPU shares: the
 * counter's cache line moves to each recording CPU.
 *
 * A writer that dies between reserve and commit (an oops in process
 * context kills its task) leaves its CPU's nest count raised: every later
 * writer there would take itself for nested and, a lap on, drop its
 * record.  The oops handler calls frec_rb_abandon_writes() on the dying
 * CPU, which lowers the count, counts the write as dropped and claims the
 * slots it reserved but had not claimed yet (else the next lap's writer
 * of such a slot would find there the record of two laps before, with
 * its own lap bit, until it claims it); every claimed slot stays BUSY,
 * skipped by readers, until the next lap.
 *
 * Accounting
 * ----------
 * written counts every record offered, dropped[] those not stored.  A
 * stored record is destroyed exactly when its first slot is claimed by a
 * newer writer: positions are reserved in order, so the position that
 * reuses its first slot is reserved no later than those reusing its
 * continuation slots, and a reservation always completes.  That claim
 * counts it in overwritten.  So when writers stop, every record is either
 * returned by a reader, overwritten or dropped:
 *
 *   written == readable + overwritten + sum(dropped)
 *
 * Memory ordering
 * ---------------
 * Writes to one CPU's part only race with readers on other CPUs (and with
 * the one foreign write below).  Every ordered access carries a label,
 * LMM(function:letter), on its own line of code; they pair as follows.
 * Each pairing also says why it holds on a weakly ordered CPU (arm64):
 * x86 is TSO and QEMU's TCG on an x86 host is too, so a passing test
 * there shows nothing about a barrier.  On arm64 smp_wmb() is DMB ISHST,
 * smp_rmb() DMB ISHLD, a release STLR, an acquire LDAR (LDAPR with
 * RCpc), a value-returning atomic or cmpxchg() fully ordered, and
 * local_t is atomic_long_t (asm-generic/local.h): local_cmpxchg() and
 * local_inc_return() are fully ordered there, local_read() is READ_ONCE().
 * ARMv8 is other-multi-copy atomic, so a store a CPU saw before its own
 * release reaches every other CPU before that release does.
 *
 * frec_rb_reserve:C / frec_rb_cursor_next:C
 *	(head moves, frec_rb_reserve:B, before the slots of its new lap are
 *	claimed, frec_rb_claim:A) If a reader's first look at a slot's
 *	state (frec_rb_cursor_next:A, an acquire) or its copy (ordered by
 *	frec_rb_cursor_next:B) saw anything written for position
 *	pos + nr_slots, its head load sees that position reserved, so the
 *	reader does not take the new record for the one at pos.
 *	arm64: message passing, DMB ISHST between the head store and
 *	the BUSY and data stores; on the reader the acquire keeps the copy
 *	after the first state load and DMB ISHLD keeps the head load after
 *	the copy (the cmpxchg() is fully ordered too: :C costs one DMB).
 *
 * frec_rb_claim:B / frec_rb_cursor_next:B, frec_rb_changed:A
 *	(BUSY is stored before the new data) If a reader's copy saw any new
 *	data word, its second load of the state sees BUSY or later, and the
 *	reader drops the torn copy.
 *	arm64: the seqlock pattern, DMB ISHST between the BUSY store and
 *	the data stores, DMB ISHLD between the data loads and the second
 *	state loads (READ_ONCE() is enough after the barrier).
 *
 * frec_rb_commit:A / frec_rb_cursor_next:A, frec_rb_copy:A
 *	(data is stored before the committed state) If a reader sees the
 *	committed state of record seq, its copy sees that record's data.
 *	arm64: STLR orders every earlier store of the write before the
 *	state; LDAR orders every later load of the copy after it.  The data
 *	loads are plain READ_ONCE(): no dependency is relied on.
 *
 * frec_rb_reserve:A / frec_rb_cursor_init:A
 *	(earlier commits before the head moves on) If a reader's head load
 *	sees a position reserved, its walk sees the committed state of every
 *	record its CPU committed before that reservation, not an older one:
 *	a record complete before the read began is never skipped as torn.
 *	arm64: message passing, DMB ISHST between the earlier STLR commits
 *	and the head cmpxchg(), DMB ISHLD between the head load and the
 *	walk's state loads (the acquire of :A comes after it anyway).
 *
 * frec_rb_clock:A / (a load before the record call)
 *	Not a pairing inside the ring: the read barrier orders the caller's
 *	earlier loads before the clock read, for the happens-before argument
 *	in "Order" above.  arm64: rmb() is DSB LD, which waits for the
 *	earlier loads to complete, and the kernel's counter accessor that
 *	local_clock() reaches (sched_clock(), arch_timer_read_counter()) puts
 *	an ISB before its MRS of CNTVCT_EL0 (and takes any erratum's
 *	workaround), so the counter is read after the caller's flag load.
 *
 * frec_rehome_word:A, frec_rehome_caller:A (frec_formats.c) /
 * frec_texts_gen_read:A
 *	The one write into another CPU's slots: when a module goes, a
 *	fully ordered cmpxchg() repoints a committed record's format, %s,
 *	caller or symbol word from the module's memory to frec's copy of
 *	the same text (a caller word to the copy's number, its context
 *	kept).  It never changes a state word, so a reader's
 *	seqlock check is unaffected: its copy holds the old or the new
 *	address, both naming the same text (the copy is complete before the
 *	cmpxchg publishes it), and frec_texts_gen tells it which is safe
 *	to follow once the module's memory is gone (frec_formats.c pairs
 *	frec_texts_repointed:A with frec_texts_gen_read:A).  A cmpxchg that
 *	meets a newer record in the slot fails and changes nothing.
 *	arm64: cmpxchg() is fully ordered; the copy's text is complete
 *	before it on the rehoming CPU and, other-multi-copy atomic, on every
 *	CPU that sees the new word.
 *
 * The head cmpxchg, nest, pending_pos and the last timestamp
 * (frec_rb_last_ts) are only ever touched by their own CPU; CPU-local
 * operations (local_t, no LOCK prefix on x86) suffice.  An interrupt
 * sees its own CPU's accesses in program order on arm64 as on x86, so
 * the barrier() of a nested writer's lap check and of frec_rb_end()
 * need no CPU barrier there either.
 */

/*
 * frec.ko compiles this file into frec_record.c with FREC_RB_INLINE_WRITES
 * set, so that the writes inline into __frec_record() and __frec_printk():
 * a call, its prologue and its stack canary fewer on every record.
 * Everywhere else (tools/, the KUnit suite) they are ordinary functions.
 */
#ifdef FREC_RB_INLINE_WRITES
#define FREC_RB_WRITE	static __always_inline
#else
#define FREC_RB_WRITE
#endif

/*
 * The caller word a write stores, made from its @caller_word argument
 * where it is stored: frec_record.c passes the caller and makes the word
 * with the context there (frec_record_caller_word()), after the clock
 * read, so that the word is not kept across that call.  Elsewhere the
 * argument is the word.
 */
#ifndef FREC_RB_CALLER_WORD
#define FREC_RB_CALLER_WORD(caller_word)	(caller_word)
#endif

/*
 * The caller base the readers resolve a caller word with: this kernel's
 * (frec_compat.h, frec_caller_base()) where frec_record.c compiles the
 * ring core, else FREC_CALLER_BASE (the harness).
 */
#ifndef FREC_RB_CALLER_BASE
#define FREC_RB_CALLER_BASE	FREC_CALLER_BASE
#endif

/* The sequence of global-order rings: one order across their CPUs. */
static atomic64_t frec_seq = ATOMIC64_INIT(0);

/*
 * The clock read of a record, ordered after the caller's earlier loads
 * (see "Order" above).
 */
static inline u64 frec_rb_clock(void)
{
	rmb(); /* LMM(frec_rb_clock:A) */
	return local_clock();
}

/* The last timestamp this CPU gave a record, in any ring. */
static DEFINE_PER_CPU(local_t, frec_rb_last_ts);

#ifdef FREC_RB_TEST_HOOKS
/*
 * Test builds only: forget this CPU's last timestamp, for a test that
 * changes the clock to one that counts from lower values (tools/harness
 * switches between the TSC's cycles and nanoseconds).
 */
void frec_rb_test_forget_stamp(void)
{
	local_set(this_cpu_ptr(&frec_rb_last_ts), 0);
}
#endif

/*
 * The timestamp of a record whose clock read (frec_rb_clock()) gave @now:
 * @now, raised to one more than the last timestamp this CPU gave if @now
 * has not passed it, so that a CPU's timestamps strictly increase across
 * all its rings ("Order" above).  The CPU-local cmpxchg fails only if a
 * nested writer took a timestamp in between; the retry then goes above
 * that one.  @now is read once a record, before anything else of the
 * write: a retry needs no new clock read, the raise puts it above the
 * nested writer's, and no call in the middle of the write keeps its
 * values alive across it (doc/speed.md, 2026-11-29, the record path).
 */
static __always_inline u64 frec_rb_stamp(u64 now)
{
	local_t *last = this_cpu_ptr(&frec_rb_last_ts);
	long prev = local_read(last), old;
	u64 ts;

	for (;;) {
		ts = (u64)prev >= now ? (u64)prev + 1 : now;
		old = local_cmpxchg(last, prev, (long)ts);
		if (likely(old == prev))
			return ts;
		prev = old;
	}
}

#ifdef FREC_RB_TEST_HOOKS
/*
 * Test builds only: called in the middle of every write, so that a test
 * can nest a writer at an exact point, as an interrupt would.
 */
void (*frec_rb_test_hook)(enum frec_rb_hook where);
#define frec_rb_hook(where)						\
	do {								\
		if (frec_rb_test_hook)				\
			frec_rb_test_hook(where);			\
	} while (0)
#elif defined(__KERNEL__)
/*
 * frec.ko: the crash-dump tests make a write fault here (frec_crash.c,
 * debugfs test_fault, which exists only with fault_inject=1).  Unarmed,
 * a static branch: a NOP in the write path.
 */
#define frec_rb_hook(where)						\
	do {								\
		if (static_branch_unlikely(&frec_fault_key))	\
			frec_fault_hit(where);				\
	} while (0)
#else
#define frec_rb_hook(where) ((void)(where))
#endif

/**
 * frec_rb_record_slots() - slots a variable-size record takes
 * @len: payload length in bytes.
 *
 * Context: Any context.
 * Return: the number of slots, at least 1.
 */
unsigned int frec_rb_record_slots(unsigned int len)
{
	if (len <= FREC_RECORD_HEAD_BYTES)
		return 1;
	return 1 + (len - FREC_RECORD_HEAD_BYTES + FREC_RECORD_CONT_BYTES - 1) /
		   FREC_RECORD_CONT_BYTES;
}

/**
 * frec_rb_init() - set up the shape of a ring
 * @ring: the ring.
 * @nr_slots: slots per CPU, a power of two, at least 2.
 * @max_record_len: longest payload of a variable-size record, or 0 for an
 *	event ring (one slot per record).
 * @flags: FREC_RB_STOP_WHEN_FULL (keep the first records instead of the
 *	newest), FREC_RB_GLOBAL_ORDER (seq from the counter all CPUs share).
 *
 * Context: Any context; the ring must not be in use.
 * Return: 0, or -EINVAL if @nr_slots is not a power of two >= 2 or a
 * record of @max_record_len would not fit in one CPU's part.
 */
int frec_rb_init(struct frec_rb *ring, unsigned long nr_slots,
		 unsigned int max_record_len, unsigned int flags)
{
	unsigned int max_slots = 1;

	if (nr_slots < 2 || (nr_slots & (nr_slots - 1)))
		return -EINVAL;
	if (max_record_len)
		max_slots = frec_rb_record_slots(max_record_len);
	if (max_slots > nr_slots)
		return -EINVAL;
	ring->nr_slots = nr_slots;
	ring->mask = nr_slots - 1;
	ring->max_record_len = max_record_len;
	ring->max_record_slots = max_slots;
	ring->stop_when_full = flags & FREC_RB_STOP_WHEN_FULL;
	ring->global_order = flags & FREC_RB_GLOBAL_ORDER;
	return 0;
}

/**
 * frec_rb_cpu_init() - reset one CPU's part of a ring
 * @rc: the CPU's part.
 * @slots: its slot array, @ring->nr_slots long.
 * @ring: the ring.
 *
 * Context: Any context; nobody may use @rc meanwhile.
 */
void frec_rb_cpu_init(struct frec_rb_cpu *rc, struct frec_slot *slots,
		      const struct frec_rb *ring)
{
	int i;

	local_set(&rc->head, 0);
	local_set(&rc->nest, 0);
	rc->pending_pos = 0;
	local_set(&rc->written, 0);
	local_set(&rc->overwritten, 0);
	local_set(&rc->seq, 0);
	for (i = 0; i < FREC_DROP_NR; i++)
		local_set(&rc->dropped[i], 0);
	memset(slots, 0, ring->nr_slots * sizeof(*slots));
	rc->slots = slots;
}

/*
 * Reserve @k positions on this CPU for a record whose clock read gave
 * @now.  Returns true with the first position in *@pos, or false after
 * counting why the record is dropped.  On success the caller owns
 * [*pos, *pos + k) until it commits; the nest count stays raised either
 * way and frec_rb_end() lowers it.
 */
static __always_inline bool frec_rb_reserve(const struct frec_rb *ring,
					    struct frec_rb_cpu *rc, unsigned int k,
					    u64 now, unsigned long *pos, u64 *seq, u64 *ts)
{
	unsigned long head, old;
	long nest;

	local_inc(&rc->written);
	if (frec_rb_nmi_refused()) {
		/* Only counters: local_inc() is an atomic add, fine in NMI. */
		local_inc(&rc->dropped[FREC_DROP_NMI]);
		local_inc(&rc->nest);	/* frec_rb_end() lowers it */
		return false;
	}
	nest = local_inc_return(&rc->nest);
	if (unlikely(nest > FREC_RB_MAX_NEST)) {
		local_inc(&rc->dropped[FREC_DROP_NEST]);
		return false;
	}
	head = local_read(&rc->head);
	if (likely(nest == 1)) {
		/*
		 * Outermost: no writer in progress below us on this CPU.
		 * Only interrupts on this CPU read pending_pos, and they see
		 * program order; barrier() keeps the compiler from moving
		 * the store past the reservation below.  CPU-local, pairs
		 * with the READ_ONCE() of a nested writer's lap check.
		 */
		WRITE_ONCE(rc->pending_pos, head);
		barrier();
	}
	for (;;) {
		if (unlikely(ring->stop_when_full && head + k > ring->nr_slots)) {
			local_inc(&rc->dropped[FREC_DROP_FULL]);
			return false;
		}
		if (unlikely(nest > 1 &&
			     head + k > READ_ONCE(rc->pending_pos) + ring->nr_slots)) {
			local_inc(&rc->dropped[FREC_DROP_LAP]);
			return false;
		}
		*ts = frec_rb_stamp(now);
		if (unlikely(ring->global_order))
			*seq = atomic64_inc_return(&frec_seq);
		/*
		 * The commits of the writes before this one on this CPU are
		 * visible before the head move below.  Pairs with
		 * frec_rb_cursor_init:A.
		 */
		smp_wmb(); /* LMM(frec_rb_reserve:A) */
		old = local_cmpxchg(&rc->head, head, head + k); /* LMM(frec_rb_reserve:B) */
		if (likely(old == head))
			break;
		head = old;	/* a nested writer reserved in between */
	}
	if (likely(!ring->global_order))
		*seq = local_inc_return(&rc->seq);
	*pos = head;
	/*
	 * Order the head move before the claims of the slots it reuses.
	 * Pairs with frec_rb_cursor_next:C.
	 */
	smp_wmb(); /* LMM(frec_rb_reserve:C) */
	return true;
}

/*
 * The slot of position @pos + @i, @first being @pos's.  The writes find
 * @first once: the kernel is built with -fno-strict-aliasing, so after
 * any store to a slot GCC would load the mask and the slot array again
 * (about 9 instructions an event).
 */
static __always_inline struct frec_slot *frec_rb_slot_at(const struct frec_rb *ring,
							 struct frec_rb_cpu *rc,
							 struct frec_slot *first,
							 unsigned long pos, unsigned int i)
{
	return i ? &rc->slots[(pos + i) & ring->mask] : first;
}

/*
 * Claim the @k slots of [pos, pos + k), @first being pos's: count what
 * they destroy, set BUSY.
 */
static void frec_rb_claim(const struct frec_rb *ring,
			  struct frec_rb_cpu *rc, struct frec_slot *first,
			  unsigned long pos, unsigned int k)
{
	struct frec_slot *slot;
	u64 old;
	unsigned int i;

	for (i = 0; i < k; i++) {
		slot = frec_rb_slot_at(ring, rc, first, pos, i);
		old = READ_ONCE(slot->state);
		if (old && !(old & (FREC_SLOT_BUSY | FREC_SLOT_CONT)))
			local_inc(&rc->overwritten);
		WRITE_ONCE(slot->state, FREC_SLOT_BUSY); /* LMM(frec_rb_claim:A) */
	}
	/*
	 * Order BUSY before the data that follows.  Pairs with
	 * frec_rb_cursor_next:B.
	 */
	smp_wmb(); /* LMM(frec_rb_claim:B) */
}

/* The state of the slot at @pos holding record @seq (first slot: !@cont). */
static inline u64 frec_rb_state(const struct frec_rb *ring, unsigned long pos,
				u64 seq, bool cont)
{
	return seq << FREC_SLOT_SEQ_SHIFT | (pos & ring->nr_slots ? FREC_SLOT_LAP : 0) |
	       (cont ? FREC_SLOT_CONT : 0);
}

/* Publish the @k slots of record @seq at [pos, pos + k), @first at pos. */
static void frec_rb_commit(const struct frec_rb *ring,
			   struct frec_rb_cpu *rc, struct frec_slot *first,
			   unsigned long pos, unsigned int k, u64 seq)
{
	struct frec_slot *slot;
	unsigned int i;

	/*
	 * Release: the data stores above are visible before the state.
	 * Pairs with frec_rb_cursor_next:A and frec_rb_copy:A.
	 */
	for (i = 0; i < k; i++) {
		slot = frec_rb_slot_at(ring, rc, first, pos, i);
		smp_store_release(&slot->state, /* LMM(frec_rb_commit:A) */
				  frec_rb_state(ring, pos + i, seq, i));
	}
}

/*
 * Leave the write.  barrier() keeps the compiler from moving the commit
 * stores after the nest decrement: an interrupt arriving once nest has
 * dropped may take this writer for finished (CPU-local ordering, pairs
 * with local_inc_return() of the nest count in frec_rb_reserve()).
 */
static void frec_rb_end(struct frec_rb_cpu *rc)
{
	barrier();
	local_dec(&rc->nest);
}

/**
 * frec_rb_write_event_since() - store a fixed-size event, maybe a span's end
 * @ring: the ring.
 * @rc: this CPU's part of @ring.
 * @now: frec_rb_clock(), read by the caller at the start of the record
 *	(the record path reads it first, before any value it would keep
 *	across the call).
 * @site: the site word (uapi/frec_raw.h, FREC_SITE_ID_LIMIT).
 * @caller_word: the caller and the context (frec_caller_word()).
 * @args: FREC_EVENT_MAX_ARGS arguments.
 * @span_end: the event is a span's end: its last argument, stored and left
 *	in @args, is frec_span_dur_word() of this record's timestamp and
 *	@since (uapi/frec_raw.h, "Spans").  A constant where this is inlined,
 *	so that other events pay nothing for it.
 * @since: for a span's end, the timestamp its begin was stored at.
 * @seqp: if not NULL, where the stored record's sequence number goes.
 * @tsp: if not NULL, where the stored record's timestamp goes.
 *
 * Context: Any context, NMI included, with preemption disabled.
 * Return: 0 if stored, -ENOSPC if dropped (counted in @rc->dropped),
 * -EINVAL if @ring is a record ring.
 */
FREC_RB_WRITE int frec_rb_write_event_since(const struct frec_rb *ring,
					    struct frec_rb_cpu *rc, u64 now, unsigned long site,
					    u64 caller_word, unsigned long *args,
					    bool span_end, u64 since, u64 *seqp, u64 *tsp)
{
	struct frec_slot *slot;
	unsigned long pos;
	u64 seq = 0, ts;	/* seq: set by frec_rb_reserve(), which GCC cannot tell */
	int i;

	if (unlikely(ring->max_record_len))
		return -EINVAL;

	if (!frec_rb_reserve(ring, rc, 1, now, &pos, &seq, &ts)) {
		frec_rb_end(rc);
		return -ENOSPC;
	}
	if (span_end)
		args[FREC_EVENT_MAX_ARGS - 1] = frec_span_dur_word(ts, since);
	frec_rb_hook(FREC_RB_HOOK_RESERVED);
	slot = &rc->slots[pos & ring->mask];
	frec_rb_claim(ring, rc, slot, pos, 1);
	WRITE_ONCE(slot->data[FREC_EVENT_TS], ts);
	WRITE_ONCE(slot->data[FREC_EVENT_SITE], site);
	WRITE_ONCE(slot->data[FREC_EVENT_CALLER], FREC_RB_CALLER_WORD(caller_word));
	for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
		WRITE_ONCE(slot->data[FREC_EVENT_ARG0 + i], args[i]);
	frec_rb_hook(FREC_RB_HOOK_FILLED);
	frec_rb_commit(ring, rc, slot, pos, 1, seq);
	frec_rb_end(rc);
	if (seqp)
		*seqp = seq;
	if (tsp)
		*tsp = ts;
	return 0;
}

/**
 * frec_rb_write_event() - store a fixed-size event
 * @ring: the ring.
 * @rc: this CPU's part of @ring.
 * @site: the site word (uapi/frec_raw.h, FREC_SITE_ID_LIMIT).
 * @caller_word: the caller and the context (frec_caller_word()).
 * @args: FREC_EVENT_MAX_ARGS arguments.
 * @seqp: if not NULL, where the stored record's sequence number goes.
 *
 * Context: Any context, NMI included, with preemption disabled.
 * Return: 0 if stored, -ENOSPC if dropped (counted in @rc->dropped),
 * -EINVAL if @ring is a record ring.
 */
FREC_RB_WRITE int frec_rb_write_event(const struct frec_rb *ring,
				      struct frec_rb_cpu *rc, unsigned long site,
				      u64 caller_word, const unsigned long *args,
				      u64 *seqp)
{
	/* @args is written only for a span's end. */
	return frec_rb_write_event_since(ring, rc, frec_rb_clock(), site, caller_word,
					 (unsigned long *)args, false, 0, seqp, NULL);
}

/* Store @len bytes of @src into data words, zero-padding the last one. */
static void frec_rb_fill_words(u64 *words, unsigned int nwords,
			       const u8 *src, unsigned int len)
{
	unsigned int i, n;
	u64 w;

	for (i = 0; i < nwords && len; i++) {
		n = min(len, 8U);
		w = 0;
		memcpy(&w, src, n);
		WRITE_ONCE(words[i], w);
		src += n;
		len -= n;
	}
}

/**
 * frec_rb_write_record() - store a variable-size record
 * @ring: the ring.
 * @rc: this CPU's part of @ring.
 * @site: the site word (uapi/frec_raw.h, FREC_SITE_ID_LIMIT).
 * @caller_word: the caller and the context (frec_caller_word()).
 * @payload: the bytes to store.
 * @len: their number, at most the ring's maximum record length, OR'ed
 *	with FREC_RECORD_ARGS for a payload of arguments (uapi/frec_raw.h).
 * @seqp: if not NULL, where the stored record's sequence number goes.
 *
 * Context: Any context, NMI included, with preemption disabled.
 * Return: 0 if stored, -E2BIG if @len is too long for the ring, -ENOSPC if
 * dropped for another reason (each counted in @rc->dropped), -EINVAL if
 * @ring is an event ring.
 */
FREC_RB_WRITE int frec_rb_write_record(const struct frec_rb *ring,
				       struct frec_rb_cpu *rc, unsigned long site,
				       u64 caller_word, const void *payload,
				       unsigned int len, u64 *seqp)
{
	const u64 len_word = len;
	unsigned int k, i, n;
	const u8 *src = payload;
	struct frec_slot *slot, *first;
	unsigned long pos;
	u64 seq = 0, ts;	/* seq: set by frec_rb_reserve(), which GCC cannot tell */

	len &= FREC_RECORD_LEN_MASK;
	k = frec_rb_record_slots(len);
	if (unlikely(!ring->max_record_len))
		return -EINVAL;
	if (unlikely(len > ring->max_record_len)) {
		frec_rb_count_drop(rc, FREC_DROP_SIZE);
		return -E2BIG;
	}
	if (!frec_rb_reserve(ring, rc, k, frec_rb_clock(), &pos, &seq, &ts)) {
		frec_rb_end(rc);
		return -ENOSPC;
	}
	frec_rb_hook(FREC_RB_HOOK_RESERVED);
	first = &rc->slots[pos & ring->mask];
	frec_rb_claim(ring, rc, first, pos, k);
	slot = first;
	WRITE_ONCE(slot->data[FREC_RECORD_TS], ts);
	WRITE_ONCE(slot->data[FREC_RECORD_SITE], site);
	WRITE_ONCE(slot->data[FREC_RECORD_CALLER], FREC_RB_CALLER_WORD(caller_word));
	WRITE_ONCE(slot->data[FREC_RECORD_LEN], (u64)k << 32 | len_word);
	n = min_t(unsigned int, len, FREC_RECORD_HEAD_BYTES);
	frec_rb_fill_words(&slot->data[FREC_RECORD_PAYLOAD],
			   FREC_SLOT_WORDS - FREC_RECORD_PAYLOAD, src, n);
	src += n;
	len -= n;
	for (i = 1; i < k; i++) {
		slot = &rc->slots[(pos + i) & ring->mask];
		n = min_t(unsigned int, len, FREC_RECORD_CONT_BYTES);
		frec_rb_fill_words(slot->data, FREC_SLOT_WORDS, src, n);
		src += n;
		len -= n;
	}
	frec_rb_hook(FREC_RB_HOOK_FILLED);
	frec_rb_commit(ring, rc, first, pos, k, seq);
	frec_rb_end(rc);
	if (seqp)
		*seqp = seq;
	return 0;
}

/**
 * frec_rb_cursor_init() - start reading one CPU's part of a ring
 * @ring: the ring.
 * @rc: the CPU's part.
 * @cur: the cursor to set up.
 *
 * The read covers the records reserved before this call that are still
 * in the ring.
 *
 * Context: Any context.
 */
void frec_rb_cursor_init(const struct frec_rb *ring,
			 struct frec_rb_cpu *rc,
			 struct frec_rb_cursor *cur)
{
	unsigned long head = local_read(&rc->head);

	/*
	 * The head load acquires (local_t has no acquire load of its own):
	 * the commits of every write that finished before head reached this
	 * value are seen by the walk that follows.  Pairs with
	 * frec_rb_reserve:A.
	 */
	smp_rmb(); /* LMM(frec_rb_cursor_init:A) */
	cur->end = head;
	cur->pos = head > ring->nr_slots ? head - ring->nr_slots : 0;
	cur->raced = 0;
}

/* Copy @len payload bytes out of data words. */
static void frec_rb_copy_words(u8 *dst, const u64 *words, unsigned int len)
{
	unsigned int i, n;
	u64 w;

	for (i = 0; len; i++) {
		n = min(len, 8U);
		w = READ_ONCE(words[i]);
		memcpy(dst, &w, n);
		dst += n;
		len -= n;
	}
}

/*
 * Copy the record whose first slot is at @pos, committed with @state, into
 * @ent and @buf.  Returns its number of slots, or 0 if it is not whole.
 */
static unsigned int frec_rb_copy(const struct frec_rb *ring,
				 struct frec_rb_cpu *rc,
				 struct frec_rb_cursor *cur,
				 unsigned long pos, u64 state,
				 struct frec_rb_entry *ent, u8 *buf,
				 unsigned int buf_len)
{
	const struct frec_slot *first = &rc->slots[pos & ring->mask];
	const struct frec_slot *slot;
	unsigned int k = 1, i, n, len = 0;
	u64 word;

	ent->seq = state >> FREC_SLOT_SEQ_SHIFT;
	ent->ts = READ_ONCE(first->data[FREC_EVENT_TS]);
	ent->site = READ_ONCE(first->data[FREC_EVENT_SITE]);
	word = READ_ONCE(first->data[FREC_EVENT_CALLER]);
	ent->caller = frec_caller_of(word, FREC_RB_CALLER_BASE);
	ent->context = frec_context_of(word);
	if (!ring->max_record_len) {
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			ent->args[i] = READ_ONCE(first->data[FREC_EVENT_ARG0 + i]);
		ent->len = 0;
		ent->printk_args = false;
		return 1;
	}

	word = READ_ONCE(first->data[FREC_RECORD_LEN]);
	k = word >> 32;
	len = (u32)word & FREC_RECORD_LEN_MASK;
	if (k < 1 || k > ring->max_record_slots || pos + k > cur->end ||
	    frec_rb_record_slots(len) != k || (buf && len > buf_len))
		return 0;
	ent->len = len;
	ent->printk_args = (u32)word & FREC_RECORD_ARGS;
	memset(ent->args, 0, sizeof(ent->args));
	n = min_t(unsigned int, len, FREC_RECORD_HEAD_BYTES);
	if (buf) {
		frec_rb_copy_words(buf, &first->data[FREC_RECORD_PAYLOAD], n);
		buf += n;
	}
	len -= n;
	for (i = 1; i < k; i++) {
		slot = &rc->slots[(pos + i) & ring->mask];
		/* Pairs with frec_rb_commit:A: the data below is this record's. */
		if (smp_load_acquire(&slot->state) != /* LMM(frec_rb_copy:A) */
		    frec_rb_state(ring, pos + i, ent->seq, true))
			return 0;
		n = min_t(unsigned int, len, FREC_RECORD_CONT_BYTES);
		if (buf) {
			frec_rb_copy_words(buf, slot->data, n);
			buf += n;
		}
		len -= n;
	}
	return k;
}

/* Did any of the @k slots at @pos change from record @seq's? */
static bool frec_rb_changed(const struct frec_rb *ring,
			    struct frec_rb_cpu *rc, unsigned long pos,
			    unsigned int k, u64 seq)
{
	const struct frec_slot *slot;
	unsigned int i;

	/* After frec_rb_cursor_next:B: sees BUSY or newer if the copy was torn. */
	for (i = 0; i < k; i++) {
		slot = &rc->slots[(pos + i) & ring->mask];
		if (READ_ONCE(slot->state) != /* LMM(frec_rb_changed:A) */
		    frec_rb_state(ring, pos + i, seq, i))
			return true;
	}
	return false;
}

/**
 * frec_rb_cursor_next() - copy out the next whole record
 * @ring: the ring.
 * @rc: the CPU's part @cur reads.
 * @cur: the cursor.
 * @ent: where the record's fields go.
 * @buf: where a variable-size record's payload goes (@ent->payload), or
 *	NULL to count records without copying payloads.
 * @buf_len: size of @buf; a longer record is skipped.
 *
 * Records come in position order, which on one CPU is timestamp order.  Only
 * whole committed records are returned; torn or overwritten ones are
 * skipped and counted in @cur->raced.
 *
 * Context: Any context; never blocks writers.
 * Return: true if @ent holds a record, false at the end of the read.
 */
bool frec_rb_cursor_next(const struct frec_rb *ring,
			 struct frec_rb_cpu *rc,
			 struct frec_rb_cursor *cur,
			 struct frec_rb_entry *ent, void *buf,
			 unsigned int buf_len)
{
	const struct frec_slot *slot;
	unsigned long pos, head;
	unsigned int k;
	u64 state;

	while (cur->pos < cur->end) {
		pos = cur->pos;
		slot = &rc->slots[pos & ring->mask];
		/* Pairs with frec_rb_commit:A: the copy below is this record's. */
		state = smp_load_acquire(&slot->state); /* LMM(frec_rb_cursor_next:A) */
		if (!state || (state & (FREC_SLOT_BUSY | FREC_SLOT_CONT))) {
			/* Empty, being written, or the tail of a lost record. */
			cur->pos++;
			continue;
		}
		if (!(state & FREC_SLOT_LAP) != !(pos & ring->nr_slots)) {
			/*
			 * The record a lap before pos: pos's writer has
			 * reserved its slot but not claimed it yet.
			 */
			cur->raced++;
			cur->pos++;
			continue;
		}
		k = frec_rb_copy(ring, rc, cur, pos, state, ent, buf, buf_len);
		/*
		 * Order the copy before the second look at the states and
		 * at head.  Pairs with frec_rb_claim:B: a copy that saw
		 * new data sees BUSY or a newer state at frec_rb_changed:A.
		 */
		smp_rmb(); /* LMM(frec_rb_cursor_next:B) */
		/*
		 * Pairs with frec_rb_reserve:C: if :A or the copy saw a newer
		 * lap in the slot, head shows that lap reserved.
		 */
		head = local_read(&rc->head); /* LMM(frec_rb_cursor_next:C) */
		if (!k || frec_rb_changed(ring, rc, pos, k, ent->seq) ||
		    head - pos > ring->nr_slots) {
			cur->raced++;
			cur->pos++;
			continue;
		}
		ent->payload = buf;
		cur->pos = pos + k;
		return true;
	}
	return false;
}

/**
 * frec_rb_abandon_writes() - give up the writes a dead context left open
 * @ring: the ring.
 * @rc: this CPU's part of @ring.
 *
 * For the oops handler, on the CPU whose task dies: writes in progress
 * there will never finish.  A slot they reserved but never claimed still
 * holds the record of a lap before; it is claimed now (that record counted
 * as overwritten, the slot left BUSY), so that the next lap's writer finds
 * it claimed, as every other reserved slot is (see "Readers" above).
 * Slots they claimed stay BUSY, skipped by readers and reused on the next
 * lap.
 *
 * Context: On @rc's CPU, with preemption off, when no writer in progress
 * on it will ever return.
 * Return: the writes given up, now counted in dropped[FREC_DROP_ABANDONED].
 */
unsigned long frec_rb_abandon_writes(const struct frec_rb *ring,
				     struct frec_rb_cpu *rc)
{
	long nest = local_read(&rc->nest);
	unsigned long pos, head;
	u64 state;

	if (nest <= 0)
		return 0;
	/*
	 * Every position the dead writers reserved is in [pending_pos,
	 * head).  A slot there whose lap is not its position's was never
	 * claimed.  While nest stays raised, an NMI writing meanwhile is a
	 * nested writer: the lap check keeps it off these slots.
	 */
	head = local_read(&rc->head);
	for (pos = READ_ONCE(rc->pending_pos); pos < head; pos++) {
		state = READ_ONCE(rc->slots[pos & ring->mask].state);
		if (state && !(state & FREC_SLOT_BUSY) &&
		    !(state & FREC_SLOT_LAP) != !(pos & ring->nr_slots))
			frec_rb_claim(ring, rc, &rc->slots[pos & ring->mask], pos, 1);
	}
	local_set(&rc->nest, 0);
	local_add(nest, &rc->dropped[FREC_DROP_ABANDONED]);
	return nest;
}
