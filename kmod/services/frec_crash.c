// SPDX-License-Identifier: GPL-2.0
/*
 * frec_crash.c - the newest records on the console when the kernel oopses
 * or panics, and whenever asked (frec_console_dump(), debugfs
 * dump_to_console), so that the last moments before a crash are in the
 * serial log, in pstore/ramoops and in a kdump'd dmesg.
 *
 * Hooks
 * -----
 * die notifier (DIE_OOPS): __die() calls it on the oopsing CPU after
 *	oops_begin() (IRQs off, console locks busted) and before oops_end()
 *	decides whether to panic: before crash_kexec(), before the panic
 *	notifiers (pvpanic among them, which ends a VM at once) and before
 *	kmsg_dump().  Every oops, a sysrq-c crash (a NULL write) included,
 *	is dumped here whatever follows.
 * panic notifier, priority INT_MAX: a panic that is not an oops (panic()
 *	called, watchdogs).  Highest priority so that the lines are in the
 *	log before kmsg dumpers (pstore) run.  pvpanic registers at INT_MAX
 *	too, and equal priorities run in registration order: frec's runs
 *	first only if frec loads before pvpanic.  With kdump loaded, panic()
 *	kexecs before any notifier unless crash_kexec_post_notifiers is set.
 *	A panic that follows a dumped oops prints just the records newer
 *	than that dump.
 * Not a kmsg_dumper: those run after the panic notifiers and exist to
 *	save the log, not to add to it.
 *
 * What is printed
 * ---------------
 * Per ring (all rings, or those oops_rings names), the newest oops_records
 * records, merged across rings and CPUs in the order frec/dump uses (one
 * merge engine, lib/frec_merge.c, in its mode that allocates nothing),
 * each line as frec/dump prints it, between two markers a tool can find:
 *
 *   ---[ frec dump begin: oops, newest 64 records per ring ]---
 *   # frec dump: clock=local order=time
 *   # seq [seconds] cpu context ring: caller message
 *   ... one line per record ...
 *   ---[ frec dump end: 131 records, 3 rings, 11532 bytes ]---
 *
 * Addresses that are not symbols print as printk's %p prints them
 * (frec_format_kernel_init() with @console): the console, dmesg and
 * pstore are read by others than root.
 *
 * Bound
 * -----
 * At most oops_records records per ring, of at most FREC_CRASH_MAX_RINGS
 * rings.  In an oops, a panic or any atomic context the console prints
 * with IRQs off, so the dump also prints at most oops_bytes bytes of
 * records: it measures them first (formatting each once) and leaves out
 * the oldest until the rest fits; the end marker says how many it left
 * out.  The default, 64 KiB, is about 6 s at 115200 baud.
 *
 * A dump a task asks for (dump_to_console, frec_console_dump() from a
 * context that may sleep) prints every record asked for instead, in
 * batches of 32 lines (or 8 KiB), holding frec_rings_rwsem so the rings
 * stay put while it sleeps, and with its own state, so that an oops
 * meanwhile still finds the dying kernel's state free.  Between batches it
 * waits, sleeping, until the consoles have printed the batch before
 * (frec_console_lag(), what pr_flush() waits on), and before it returns,
 * until they have printed the end marker.  Where printk's caller prints
 * (6.1, a legacy console) that wait ends at once; where a thread prints
 * (6.12-rt's nbcon serial console) the dump would otherwise fill printk's
 * ring faster than the thread empties it, and the console would drop
 * lines that dmesg still shows (thousands of a 724 KB dump, "** 75 printk
 * messages dropped **" and the like).  A console that makes no progress for 2 s is no longer
 * waited for in that dump, which says so after its end marker.
 *
 * Safe in a dying kernel
 * ----------------------
 * (The oops, panic and atomic dumps; the task's dump above may sleep.)
 * - No lock: the rings are found on frec_rings_list as an RCU list, with
 *   preemption off (rings are freed after synchronize_rcu(), see
 *   frec_rings.c), and each ring's store is read as writers read it.
 * - No allocation: the merge state, one cursor and one heap item per ring
 *   and CPU for up to FREC_CRASH_MAX_RINGS rings, and the formatting
 *   scratch space are allocated when frec loads.
 * - No waiting: ring readers never wait for writers (frec_rb.c); a
 *   record that a dying writer left half-written is BUSY and skipped.
 * - Once: frec_crash_busy admits one oops or panic dump at a time.  A
 *   fault inside the dump, or an oops on another CPU meanwhile, finds it
 *   taken and returns at once, so the dump never recurses or loops.
 * - Apart: a dump asked for from atomic context (a dump trigger, a driver)
 *   has its own state and its own flag, frec_crash_atomic_busy, one such
 *   dump at a time.  It prints with preemption off for up to oops_bytes
 *   (seconds on a serial console), and a panic may stop its CPU for good
 *   with the flag taken: an oops or a panic meanwhile still finds its own
 *   state and flag free and dumps (its lines may mingle with the other
 *   dump's; each dump's lines stay in order between its markers).  A
 *   fault inside an atomic dump is an oops: it dumps once, with the
 *   oops's state, and a fault in that finds frec_crash_busy taken.
 *
 * After a dump for an oops in process context (which kills the task and
 * lets the kernel go on), writes that the dying task left in progress on
 * this CPU are given up (frec_rb_abandon_writes()), so the CPU records
 * normally afterwards.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kdebug.h>
#include <linux/kmsg_dump.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/printk.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_compat.h"
#include "frec_crash.h"
#include "frec_debugfs_input.h"
#include "frec_filter.h"
#include "frec_format_kernel.h"
#include "frec_merge.h"
#include "frec_order.h"
#include "frec_record.h"
#include "frec_region_kernel.h"
#include "frec_rings.h"

/* Rings one console dump covers at most; the rest are named, not dumped. */
#define FREC_CRASH_MAX_RINGS	64

/*
 * A dump a task asked for prints at most this many lines, or bytes, before
 * it waits for the consoles to print the batch before: at most two batches
 * (about 18 KiB, a printk line being at most 1 KiB) are then in printk's
 * ring unprinted, far from its size (128 KiB on Debian).
 */
#define FREC_CRASH_BATCH	32
#define FREC_CRASH_BATCH_BYTES	(8 * 1024)

/* Consoles that print nothing for this long are no longer waited for. */
#define FREC_CRASH_CONSOLE_STALL_MS	2000

/**
 * struct frec_crash_pace - a task's dump keeping pace with the consoles
 * @lines: lines printed since the last wait.
 * @bytes: bytes printed since the last wait.
 * @prev: the printk record after the previous batch (0: none yet).
 * @stalled: the consoles made no progress for FREC_CRASH_CONSOLE_STALL_MS.
 */
struct frec_crash_pace {
	unsigned int lines;
	size_t bytes;
	u64 prev;
	bool stalled;
};

/**
 * struct frec_crash_ring - a ring being dumped
 * @ring: the ring.
 * @store: its store, as writers see it.
 * @printed: records printed so far.
 */
struct frec_crash_ring {
	struct frec_ring *ring;
	struct frec_ring_store *store;
	unsigned int printed;
};

/**
 * struct frec_crash_source - one CPU's part of a dumped ring
 * @at: the cursor before the record in @key (to read it again, whole).
 * @cur: the cursor after it.
 * @key: the record's place in the merged order.
 * @ring_index: index into frec_crash_state.rings.
 * @cpu: the CPU.
 * @have: @key names a record.
 */
struct frec_crash_source {
	struct frec_rb_cursor at, cur;
	struct frec_merge_key key;
	unsigned int ring_index;
	unsigned int cpu;
	bool have;
};

/**
 * struct frec_crash_state - everything a dump needs, allocated at load
 * @rings: the rings of this dump.
 * @nr_rings: their number.
 * @sources: nr_rings * nr_cpu_ids of them.
 * @nr_sources: their number.
 * @items: the merge's heap, one item per source.
 * @merge: the merge.
 * @fk: formatting scratch space.
 * @payload: a variable-size record's payload.
 */
struct frec_crash_state {
	struct frec_crash_ring rings[FREC_CRASH_MAX_RINGS];
	unsigned int nr_rings;
	struct frec_crash_source *sources;
	unsigned int nr_sources;
	struct frec_merge_item *items;
	struct frec_merge merge;
	struct frec_format_kernel fk;
	char payload[FREC_RING_MAX_RECORD_LEN];
};

/* Who asked for a dump: which state it uses, and how it prints. */
enum frec_crash_kind {
	FREC_CRASH_DYING,	/* an oops or a panic: frec_crash, frec_crash_busy */
	FREC_CRASH_ATOMIC,	/* atomic context: frec_crash_atomic, its flag */
	FREC_CRASH_TASK,	/* a task that may sleep: frec_crash_task */
};

/* The state of dumps from oops and panic. */
static struct frec_crash_state *frec_crash;
/* The state of dumps asked for from atomic context ("Apart" above). */
static struct frec_crash_state *frec_crash_atomic;
/* The state of dumps a task asks for, under frec_crash_filter_lock. */
static struct frec_crash_state *frec_crash_task;
/* One oops or panic dump at a time; one interrupted by a fault keeps it. */
static atomic_t frec_crash_busy = ATOMIC_INIT(0);
/* One atomic dump at a time, likewise. */
static atomic_t frec_crash_atomic_busy = ATOMIC_INIT(0);
/*
 * The newest record an oops or panic dump printed (valid if
 * frec_crash_last_printed): a panic after an oops prints what follows it.
 * Only dumps holding frec_crash_busy use it.
 */
static struct frec_merge_key frec_crash_last;
static bool frec_crash_last_printed;

#if IS_ENABLED(CONFIG_KUNIT)
void (*frec_crash_test_hook)(const char *reason);
EXPORT_SYMBOL_GPL(frec_crash_test_hook);

/*
 * The suite holds a dump that never sleeps in progress here, as a slow
 * console does for seconds, and asks for other dumps meanwhile.
 */
static void frec_crash_test(const char *reason)
{
	void (*hook)(const char *reason) = READ_ONCE(frec_crash_test_hook);

	if (hook)
		hook(reason);
}
#else
static inline void frec_crash_test(const char *reason)
{
}
#endif

/* The key of record @ent of @src. */
static void frec_crash_key(struct frec_crash_source *src, const struct frec_rb_entry *ent,
			   struct frec_merge_key *key)
{
	*key = (struct frec_merge_key) {
		.ts = ent->ts, .seq = ent->seq, .cpu = src->cpu, .ring = src->ring_index,
	};
}

/* Peek at the next record of @src: its key, and the cursors around it. */
static void frec_crash_peek(struct frec_crash_state *st, struct frec_crash_source *src)
{
	struct frec_ring_store *store = st->rings[src->ring_index].store;
	struct frec_rb_entry ent;

	src->at = src->cur;
	src->have = frec_rb_cursor_next(&store->layout, per_cpu_ptr(store->cpus, src->cpu),
					&src->cur, &ent, NULL, 0);
	if (src->have)
		frec_crash_key(src, &ent, &src->key);
}

/* Is the record at @key newer than what @after asks for (NULL: all are)? */
static bool frec_crash_wanted(struct frec_crash_state *st, const struct frec_merge_key *after,
			      const struct frec_merge_key *key)
{
	return !after || frec_merge_before(&st->merge, after, key);
}

/*
 * Records the dump walks between two touches of the lockup watchdogs: a
 * walk takes about 7 ns a record natively, so a few ms.
 */
#define FREC_CRASH_WALK_TOUCH	(256 * 1024UL)

/*
 * One more record walked past.  Counting and skipping walk whole parts
 * with IRQs off (in an oops): a 1 GiB part is 16 M records, 0.1 s a walk,
 * and every CPU of every ring dumped adds its part, past the hard lockup
 * detector's 10 s on a large machine.
 */
static void frec_crash_walked(unsigned long *walked)
{
	if (!(++*walked % FREC_CRASH_WALK_TOUCH))
		touch_nmi_watchdog();
}

/* Skip records of @src's part so that at most @keep wanted ones remain. */
static void frec_crash_trim_cpu(struct frec_crash_state *st, struct frec_crash_source *src,
				unsigned int keep, const struct frec_merge_key *after)
{
	struct frec_ring_store *store = st->rings[src->ring_index].store;
	struct frec_rb_cpu *rc = per_cpu_ptr(store->cpus, src->cpu);
	struct frec_rb_cursor count = src->cur;
	struct frec_merge_key key;
	struct frec_rb_entry ent;
	unsigned long n = 0, walked = 0;

	while (frec_rb_cursor_next(&store->layout, rc, &count, &ent, NULL, 0)) {
		frec_crash_key(src, &ent, &key);
		n += frec_crash_wanted(st, after, &key);
		frec_crash_walked(&walked);
	}
	for (frec_crash_peek(st, src); src->have; frec_crash_peek(st, src)) {
		frec_crash_walked(&walked);
		if (!frec_crash_wanted(st, after, &src->key))
			continue;
		if (n <= keep)
			break;
		n--;
	}
}

/* Records left in @src's part, the one peeked at included. */
static unsigned long frec_crash_remaining(struct frec_crash_state *st,
					  struct frec_crash_source *src)
{
	struct frec_ring_store *store = st->rings[src->ring_index].store;
	struct frec_rb_cpu *rc = per_cpu_ptr(store->cpus, src->cpu);
	struct frec_rb_cursor count = src->cur;
	struct frec_rb_entry ent;
	unsigned long n;

	if (!src->have)
		return 0;
	for (n = 1; frec_rb_cursor_next(&store->layout, rc, &count, &ent, NULL, 0); )
		frec_crash_walked(&n);
	return n;
}

/* Start a merge of the sources @first..@first + @n that hold a record. */
static void frec_crash_merge_start(struct frec_crash_state *st, unsigned int first,
				   unsigned int n)
{
	unsigned int i;

	st->merge.nr = 0;
	for (i = first; i < first + n; i++)
		if (st->sources[i].have)
			frec_merge_push(&st->merge, i, &st->sources[i].key);
}

/* The source of the oldest record in the merge, or NULL; it leaves the merge. */
static struct frec_crash_source *frec_crash_oldest(struct frec_crash_state *st)
{
	unsigned int i;

	return frec_merge_pop(&st->merge, &i) ? &st->sources[i] : NULL;
}

/* Move @src past its record, back into the merge if it has another. */
static void frec_crash_advance(struct frec_crash_state *st, struct frec_crash_source *src)
{
	frec_crash_peek(st, src);
	if (src->have)
		frec_merge_push(&st->merge, src - st->sources, &src->key);
}

/*
 * The ring list and a ring's store as a dump reads them: with preemption
 * off (an atomic or dying context), or with frec_rings_rwsem held (a dump
 * a task asked for, which may sleep between batches).
 */
#define frec_crash_deref(p)						\
	rcu_dereference_check(p, lockdep_is_held(&frec_rings_rwsem) ||	\
			      rcu_read_lock_sched_held())

/*
 * Pick the rings @filter passes, and load each one's store once: the
 * merge's order (by seq if every ring dumped numbers by the global seq)
 * and the reads below must see the same store, and an order change or a
 * resize may swap it meanwhile (no lock is held in atomic context).
 * Returns rings left out for lack of room; *@by_seq tells the order.
 */
static unsigned int frec_crash_select(struct frec_crash_state *st,
				      const struct frec_filter *filter, bool *by_seq)
{
	struct frec_ring_store *store;
	unsigned int r, skipped = 0;
	struct frec_ring *ring;

	st->nr_rings = 0;
	*by_seq = true;
	list_for_each_entry_rcu(ring, &frec_rings_list, node,
				lockdep_is_held(&frec_rings_rwsem)) {
		if (filter && !frec_filter_ring(filter, ring->name))
			continue;
		if (st->nr_rings == FREC_CRASH_MAX_RINGS) {
			skipped++;
			continue;
		}
		r = st->nr_rings++;
		store = frec_crash_deref(ring->store);
		st->rings[r].ring = ring;
		st->rings[r].store = store;
		st->rings[r].printed = 0;
		*by_seq &= store->layout.global_order;
	}
	*by_seq &= st->nr_rings > 0;
	return skipped;
}

/*
 * Find the rings to dump, place each ring's cursors on its newest
 * oops_records records after @after (all if NULL), and start the merge of
 * them all.  Returns rings not dumped for lack of room.
 */
static unsigned int frec_crash_prepare(struct frec_crash_state *st, unsigned int keep,
				       const struct frec_merge_key *after)
{
	const struct frec_filter *filter =
		rcu_dereference_check(frec_crash_filter,
				      lockdep_is_held(&frec_crash_filter_lock) ||
				      rcu_read_lock_sched_held());
	struct frec_crash_source *src, *ring_src;
	struct frec_ring_store *store;
	unsigned int r, c, i, skipped;
	unsigned long total;
	bool by_seq;
	int cpu;

	skipped = frec_crash_select(st, filter, &by_seq);
	st->nr_sources = 0;
	frec_merge_init(&st->merge, st->items, FREC_CRASH_MAX_RINGS * nr_cpu_ids, by_seq);
	for (r = 0; r < st->nr_rings; r++) {
		store = st->rings[r].store;
		ring_src = &st->sources[st->nr_sources];
		c = 0;
		for_each_possible_cpu(cpu) {
			src = &ring_src[c++];
			src->ring_index = r;
			src->cpu = cpu;
			frec_rb_cursor_init(&store->layout, per_cpu_ptr(store->cpus, cpu),
					    &src->cur);
			/* Newest @keep of each CPU, then of the ring. */
			frec_crash_trim_cpu(st, src, keep, after);
		}
		/* The ring's oldest go until @keep remain, in merged order. */
		total = 0;
		for (i = 0; i < c; i++)
			total += frec_crash_remaining(st, &ring_src[i]);
		frec_crash_merge_start(st, st->nr_sources, c);
		for (; total > keep; total--) {
			src = frec_crash_oldest(st);
			if (!src)
				break;
			frec_crash_advance(st, src);
		}
		st->nr_sources += c;
	}
	frec_crash_merge_start(st, 0, st->nr_sources);
	return skipped;
}

/*
 * Format the record @src peeked at, read again whole, into st->fk.line;
 * its length, or 0 if it was overwritten since the peek.  Read and
 * formatted in one RCU section, as frec_formats.c asks.
 */
static size_t frec_crash_format(struct frec_crash_state *st, struct frec_crash_source *src)
{
	struct frec_crash_ring *cr = &st->rings[src->ring_index];
	struct frec_reader_record rec = {
		.ring = cr->ring,
		.ring_index = src->ring_index,
		.cpu = src->cpu,
	};
	struct frec_rb_cursor again = src->at;
	size_t len = 0;

	rcu_read_lock();
	if (frec_rb_cursor_next(&cr->store->layout, per_cpu_ptr(cr->store->cpus, src->cpu),
				&again, &rec.ent, st->payload, sizeof(st->payload)) &&
	    rec.ent.seq == src->key.seq) {
		rec.payload = st->payload;
		len = frec_format_kernel_line(&st->fk, &rec);
	}
	rcu_read_unlock();
	return len;
}

/* The bytes the dump's records take, each formatted once to be measured. */
static size_t frec_crash_measure(struct frec_crash_state *st, unsigned int keep,
				 const struct frec_merge_key *after)
{
	struct frec_crash_source *src;
	size_t total = 0;

	frec_crash_prepare(st, keep, after);
	while ((src = frec_crash_oldest(st))) {
		if (st->rings[src->ring_index].printed++ < keep) {
			total += frec_crash_format(st, src);
			touch_nmi_watchdog();
		}
		frec_crash_advance(st, src);
	}
	return total;
}

/* The sequence number printk gives its next record. */
static u64 frec_crash_printk_next(void)
{
	struct kmsg_dump_iter iter = {};

	kmsg_dump_rewind(&iter);
	return iter.next_seq;
}

/*
 * Sleep until every usable console has printed the printk records before
 * @seq, as pr_flush() does (not exported to modules).  Returns false if
 * they made no progress for FREC_CRASH_CONSOLE_STALL_MS.
 */
static bool frec_crash_console_wait(u64 seq)
{
	unsigned long lag, last = 0, since = jiffies;

	while ((lag = frec_console_lag(seq))) {
		if (lag != last) {
			last = lag;
			since = jiffies;
		} else if (time_after(jiffies, since +
				      msecs_to_jiffies(FREC_CRASH_CONSOLE_STALL_MS))) {
			return false;
		}
		usleep_range(1000, 2000);
	}
	return true;
}

/*
 * After a line of @len bytes of a task's dump: at the end of a batch, wait
 * for the consoles to print the batch before this one (so that they print
 * one batch while the dump formats the next), then reschedule.
 */
static void frec_crash_pace_line(struct frec_crash_pace *pace, size_t len)
{
	u64 next;

	pace->bytes += len;
	if (++pace->lines < FREC_CRASH_BATCH && pace->bytes < FREC_CRASH_BATCH_BYTES)
		return;
	next = frec_crash_printk_next();
	if (pace->prev && !pace->stalled)
		pace->stalled = !frec_crash_console_wait(pace->prev);
	pace->prev = next;
	pace->lines = 0;
	pace->bytes = 0;
	cond_resched();
}

/*
 * The dump itself.  FREC_CRASH_TASK: frec_rings_rwsem and
 * frec_crash_filter_lock held; it prints in batches and waits for the
 * consoles between them and at the end.  Otherwise (oops, panic, an atomic
 * caller) preemption is off, the kind's flag held, and at most oops_bytes
 * of records are printed.
 */
static void frec_crash_dump(struct frec_crash_state *st, const char *reason,
			    const struct frec_merge_key *after, enum frec_crash_kind kind)
{
	bool may_sleep = kind == FREC_CRASH_TASK;
	unsigned int keep = READ_ONCE(frec_crash_records), skipped, lines = 0, left_out = 0;
	size_t len, bytes = 0, bound = READ_ONCE(frec_crash_bytes), rest = 0;
	struct frec_crash_pace pace = {};
	struct frec_crash_source *src;

	/* Bounded: the oldest records go until the rest fits. */
	if (!may_sleep)
		rest = frec_crash_measure(st, keep, after);
	skipped = frec_crash_prepare(st, keep, after);
	if (after)
		printk(KERN_EMERG
		       "---[ frec dump begin: %s, newest %u records per ring after cpu%u seq %llu ]---\n",
		       reason, keep, after->cpu, after->seq);
	else
		printk(KERN_EMERG "---[ frec dump begin: %s, newest %u records per ring ]---\n",
		       reason, keep);
	printk(KERN_EMERG FREC_FORMAT_HEADER_FMT, FREC_CLOCK_NAME,
	       frec_format_order(frec_raw_order_flags(st->merge.by_seq)),
	       FREC_FORMAT_CONTEXT_COLUMN);
	if (!may_sleep)
		frec_crash_test(reason);
	while ((src = frec_crash_oldest(st))) {
		if (st->rings[src->ring_index].printed++ < keep) {
			len = frec_crash_format(st, src);
			if (!may_sleep && len && (rest > bound || bytes + len > bound)) {
				rest -= min(rest, len);
				left_out++;
			} else if (len) {
				printk(KERN_EMERG "%s", st->fk.line);
				rest -= min(rest, len);
				lines++;
				bytes += len;
				/* Under frec_crash_busy, for a panic dump after it. */
				if (kind == FREC_CRASH_DYING) {
					frec_crash_last = src->key;
					frec_crash_last_printed = true;
				}
				if (may_sleep)
					frec_crash_pace_line(&pace, len);
			}
			/* A slow console with IRQs off: keep the watchdogs quiet. */
			touch_nmi_watchdog();
		}
		frec_crash_advance(st, src);
	}
	if (skipped)
		printk(KERN_EMERG "frec: %u more rings not dumped (at most %u)\n", skipped,
		       FREC_CRASH_MAX_RINGS);
	if (left_out)
		printk(KERN_EMERG
		       "---[ frec dump end: %u records, %u rings, %zu bytes; %u older records left out (oops_bytes %zu) ]---\n",
		       lines, st->nr_rings, bytes, left_out, bound);
	else
		printk(KERN_EMERG "---[ frec dump end: %u records, %u rings, %zu bytes ]---\n",
		       lines, st->nr_rings, bytes);
	/* The caller returns once the consoles show the whole dump. */
	if (may_sleep && !pace.stalled)
		pace.stalled = !frec_crash_console_wait(frec_crash_printk_next());
	if (pace.stalled)
		pr_warn("a console printed nothing for %u ms: the dump above was not paced to it, and it may have dropped lines\n",
			FREC_CRASH_CONSOLE_STALL_MS);
}

/*
 * A dump of @kind (FREC_CRASH_DYING or FREC_CRASH_ATOMIC), unless another
 * of that kind is running (or died); @after_last (an oops or panic dump)
 * prints only records after the newest an earlier one printed.  Returns
 * false if it did not dump.
 */
static bool frec_crash_try_dump(enum frec_crash_kind kind, const char *reason,
				bool after_last)
{
	bool dying = kind == FREC_CRASH_DYING;
	struct frec_crash_state *st = dying ? frec_crash : frec_crash_atomic;
	atomic_t *busy = dying ? &frec_crash_busy : &frec_crash_atomic_busy;

	if (!st)
		return false;
	/*
	 * Fully ordered: the state the last dump of this kind left, released
	 * at frec_crash_try_dump:B, is seen whole by this one, on whatever
	 * CPU it ran (each kind its own state and flag).  On arm64 too: a
	 * successful atomic_cmpxchg() is fully ordered, :B an STLR.
	 */
	if (atomic_cmpxchg(busy, 0, 1)) { /* LMM(frec_crash_try_dump:A) */
		pr_emerg("dump for %s skipped: another dump is running or died\n", reason);
		return false;
	}
	preempt_disable_notrace();
	frec_crash_dump(st, reason,
			dying && after_last && frec_crash_last_printed ? &frec_crash_last : NULL,
			kind);
	preempt_enable_notrace();
	/* This dump's state before the flag.  Pairs with frec_crash_try_dump:A. */
	atomic_set_release(busy, 0); /* LMM(frec_crash_try_dump:B) */
	return true;
}

/*
 * A dump a task asked for: its own state, the rings held still by
 * frec_rings_rwsem, preemptible, so that printing a large dump to a slow
 * console never keeps a CPU from scheduling; the oops path's state stays
 * free for an oops meanwhile.
 */
static void frec_crash_task_dump(const char *reason)
{
	mutex_lock(&frec_crash_filter_lock);
	down_read(&frec_rings_rwsem);
	frec_crash_dump(frec_crash_task, reason, NULL, FREC_CRASH_TASK);
	up_read(&frec_rings_rwsem);
	mutex_unlock(&frec_crash_filter_lock);
}

/**
 * frec_console_dump() - print the newest records of every ring to the console
 * @reason: said in the begin marker, e.g. "mydrv: firmware hang".
 *
 * Prints per ring (those the oops_rings setting names) the newest
 * oops_records records, merged in the order frec's dump file uses, as it
 * shows them, between "---[ frec dump begin" and "---[ frec dump end"
 * lines, at KERN_EMERG; addresses that are not symbols print as printk's
 * %p prints them.  It is what frec prints on an oops or a panic; a driver
 * may call it on its own fatal errors.
 *
 * From a task that may sleep it prints in batches of FREC_CRASH_BATCH
 * lines, and between them waits, sleeping, for the consoles to print what
 * it printed (a console printed by a thread, as nbcon consoles are on
 * 6.12-rt, would otherwise drop lines); it returns when the consoles have
 * printed the whole dump, or after one of them printed nothing for 2 s.
 * It takes frec's ring lock to do so.  From any other context it takes no
 * lock, allocates nothing and never waits, prints at most oops_bytes bytes
 * of records (the newest that fit; the end marker says how many older ones
 * were left out), and one such dump runs at a time; an oops or a panic
 * meanwhile still prints its own dump.
 *
 * Context: Any context, NMI included.  From NMI context the lines reach
 * the console once printk's deferred output is flushed.
 * Return: 0 if dumped, -EBUSY if another dump was running.
 */
int frec_console_dump(const char *reason)
{
	if (preemptible() && !oops_in_progress) {
		might_sleep();
		frec_crash_task_dump(reason ?: "request");
		return 0;
	}
	return frec_crash_try_dump(FREC_CRASH_ATOMIC, reason ?: "request", false) ? 0 : -EBUSY;
}
EXPORT_SYMBOL_GPL(frec_console_dump);

/* Give up the writes the dying task left in progress on this CPU. */
static void frec_crash_abandon_this_cpu(void)
{
	struct frec_ring_store *store;
	struct frec_ring *ring;
	unsigned long n;

	list_for_each_entry_rcu(ring, &frec_rings_list, node) {
		store = rcu_dereference_sched(ring->store);
		n = frec_rb_abandon_writes(&store->layout, this_cpu_ptr(store->cpus));
		if (n)
			pr_emerg("ring %s: %lu write(s) in progress on CPU %d given up\n",
				 ring->name, n, smp_processor_id());
	}
	frec_record_abandon_this_cpu();
}

static int frec_crash_die(struct notifier_block *nb, unsigned long val, void *data)
{
	if (val != DIE_OOPS)
		return NOTIFY_DONE;
	if (READ_ONCE(frec_crash_oops_dump))
		frec_crash_try_dump(FREC_CRASH_DYING, "oops", false);
	/*
	 * An oops in process context kills the task and the kernel goes
	 * on; in interrupt context it panics.  Preemption is off in a
	 * writer, so a write in progress on this CPU is the dying task's.
	 */
	if (!in_interrupt()) {
		preempt_disable_notrace();
		frec_crash_abandon_this_cpu();
		preempt_enable_notrace();
	}
	/* After the dump: the black box then holds what it printed too. */
	frec_region_end(FREC_REGION_END_OOPS);
	return NOTIFY_DONE;
}

static int frec_crash_panic(struct notifier_block *nb, unsigned long val, void *data)
{
	if (READ_ONCE(frec_crash_oops_dump))
		frec_crash_try_dump(FREC_CRASH_DYING, "panic", true);
	frec_region_end(FREC_REGION_END_PANIC);
	return NOTIFY_DONE;
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * frec_crash_test_oops() - tests only: the dump the die notifier prints
 *	for an oops, with its state and its flag
 * @reason: said in its begin marker.
 *
 * Context: Any context, as an oops.
 * Return: true if it dumped, false if it found another dump running.
 */
bool frec_crash_test_oops(const char *reason)
{
	return frec_crash_try_dump(FREC_CRASH_DYING, reason, false);
}
EXPORT_SYMBOL_GPL(frec_crash_test_oops);
#endif

static struct notifier_block frec_crash_die_nb = {
	.notifier_call = frec_crash_die,
	.priority = INT_MAX,
};

static struct notifier_block frec_crash_panic_nb = {
	.notifier_call = frec_crash_panic,
	.priority = INT_MAX,
};

static void frec_crash_state_free(struct frec_crash_state *st)
{
	if (!st)
		return;
	vfree(st->sources);
	vfree(st->items);
	vfree(st);
}

/* A dump's state, for up to FREC_CRASH_MAX_RINGS rings on every CPU. */
static struct frec_crash_state *frec_crash_state_alloc(void)
{
	struct frec_crash_state *st = vzalloc(sizeof(*st));

	if (!st)
		return NULL;
	st->sources = vcalloc(FREC_CRASH_MAX_RINGS * nr_cpu_ids, sizeof(*st->sources));
	st->items = vcalloc(FREC_CRASH_MAX_RINGS * nr_cpu_ids, sizeof(*st->items));
	if (!st->sources || !st->items) {
		frec_crash_state_free(st);
		return NULL;
	}
	frec_format_kernel_init(&st->fk, true);
	return st;
}

/* For init failing half way and for exit: no pointer to a freed state stays. */
static void frec_crash_states_free(void)
{
	struct frec_crash_state *st = frec_crash;

	frec_crash = NULL;
	frec_crash_state_free(st);
	frec_crash_state_free(frec_crash_atomic);
	frec_crash_atomic = NULL;
	frec_crash_state_free(frec_crash_task);
	frec_crash_task = NULL;
}

/* debugfs dump_to_console: write 1 to dump now. */

static ssize_t frec_crash_to_console_write(struct file *file, const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	bool yes;
	int err = frec_debugfs_get_bool(file, ubuf, count, ppos, &yes);

	if (err)
		return err;
	if (!yes) {
		frec_debugfs_refuse(file, "0", "write 1 to dump");
		return -EINVAL;
	}
	return frec_console_dump("dump_to_console") ?: count;
}

static const struct file_operations frec_crash_to_console_fops = {
	.owner = THIS_MODULE,
	.write = frec_crash_to_console_write,
	.llseek = noop_llseek,
};

/**
 * frec_crash_init() - allocate the dumps' state, hook oops and panic,
 *	create dump_to_console
 * @root: frec's debugfs directory.
 *
 * Context: Process context; sleeps.  After the rings and the settings.
 * Return: 0 or -ENOMEM.
 */
int frec_crash_init(struct dentry *root)
{
	frec_crash = frec_crash_state_alloc();
	frec_crash_atomic = frec_crash_state_alloc();
	frec_crash_task = frec_crash_state_alloc();
	if (!frec_crash || !frec_crash_atomic || !frec_crash_task) {
		frec_crash_states_free();
		return -ENOMEM;
	}
	register_die_notifier(&frec_crash_die_nb);
	atomic_notifier_chain_register(&panic_notifier_list, &frec_crash_panic_nb);
	debugfs_create_file("dump_to_console", 0200, root, NULL, &frec_crash_to_console_fops);
	return 0;
}

/**
 * frec_crash_exit() - unhook oops and panic, free the dumps' state
 *
 * Context: Process context; sleeps.  Before the rings go.
 */
void frec_crash_exit(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &frec_crash_panic_nb);
	unregister_die_notifier(&frec_crash_die_nb);
	/* Both unregisters wait for notifiers in progress (RCU). */
	synchronize_rcu();
	frec_crash_states_free();
}
