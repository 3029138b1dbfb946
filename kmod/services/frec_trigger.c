// SPDX-License-Identifier: GPL-2.0
/*
 * frec_trigger.c - triggers on call sites: when an armed site records,
 * freeze its ring (or every ring), so that the window before it stays,
 * and/or print the console dump; debugfs frec/frozen shows and clears
 * the frozen state.
 *
 * Arming
 * ------
 * frec/control arms a site (frec_control.c has the words): freeze,
 * freeze=all and dump, each with an optional threshold (freeze>500us).
 * A trigger fires once; writing the words again re-arms it.
 *
 * Where a trigger lives
 * ---------------------
 * In frec's own table, one u64 trigger word per site id (actions and
 * threshold, frec_trigger.h), frec_triggers[1..sites_max]: 8 bytes a
 * site, 128 KiB at the default sites_max.  An id given to another site
 * forgets its trigger (frec_trigger_forget(), when the id is given).
 *
 * A trigger without a threshold fires on the site's next stored record.
 * Arming it also sets FREC_SITE_TRIGGER in the site's id word, which the
 * record path already tests (frec_site_id_plain()): a site's plain id
 * takes the fast path as before, so an un-armed site costs nothing more,
 * and an armed one pays the slow path once, for the record that fires
 * it.  A trigger with a threshold sets no bit: only the span-end path
 * fires it, through frec_trigger_span(), with the span's duration.  That
 * path reads the threshold from the site itself, where arming also puts
 * it (struct frec_site.span_threshold_inv, ~threshold, 0 when none): one
 * load and a compare whether armed or not, where the table cost a bound
 * check and two dependent loads, a seventh of what a span may add to its
 * two records (doc/spans.md, "Cost").  The word is the trigger's copy,
 * not its state: frec_trigger_span() fires only if the table's word, read
 * again, still holds the threshold, and takes it with a cmpxchg.
 *
 * Exactly once
 * ------------
 * Firing takes the armed state with one cmpxchg: FREC_SITE_TRIGGER off
 * the id word (frec_trigger_claim()), or the trigger word to 0
 * (frec_trigger_span()).  Of two CPUs, or a task and the IRQ or NMI that
 * interrupted it, recording the site at once, one wins and fires; the
 * others record as usual.
 *
 * Contexts
 * --------
 * Firing works in every context a record is taken in, NMI included:
 * - freezing is one atomic OR of FREC_RING_STOP_FROZEN into the ring's
 *   stop word (struct frec_ring), which the record path reads anyway
 *   instead of the enabled flag it read before: an unfrozen ring costs
 *   what it did.  freeze=all ORs it into each ring on frec_rings_list,
 *   found under RCU as the crash dump finds them (rings created later
 *   record).  A record of another CPU that read the stop word before the
 *   OR may still be stored after the firing one: at most one per writer
 *   in progress there.
 * - the dump is frec_console_dump(), called right after the firing record
 *   is stored, in the firing context, with preemption off: the atomic
 *   dump an oops prints, lock-free, bounded by oops_records and
 *   oops_bytes, one at a time (a dump running elsewhere makes this one
 *   return -EBUSY, not wait).  From NMI its lines reach the console when
 *   printk flushes its deferred output, as on an oops in NMI.  It is not
 *   deferred to irq_work or a workqueue: the dump would then show newer
 *   records than the window of the firing one.
 * The firing record itself is stored: the record path claims the trigger
 * and freezes after its ring accepted the record, and writes it anyway.
 *
 * The frozen state
 * ----------------
 * The first freeze to fire notes which site fired, its ring, CPU, the
 * record's seq, when (local_clock(), the dump's clock) and the duration
 * of a threshold trigger, into frec_frozen; later ones are counted.
 * frec/frozen prints that and the frozen rings; writing 0 (or clear)
 * unfreezes every ring and forgets it.  frec/clear does not unfreeze: it
 * empties the rings, the freeze keeps them as they then are.
 *
 * Memory ordering (LMM labels)
 * ----------------------------
 *   frec_trigger_set:A  the trigger word, stored before the id bit
 *   frec_trigger_set:B  the bit set by a fully ordered cmpxchg
 *	pairs with
 *   frec_trigger_claim:C  the fully ordered cmpxchg that takes the bit,
 *   frec_trigger_claim:D  then the word loaded: the word armed with it,
 *	or a later arming's, when control armed the site again after the
 *	bit was taken (a threshold word then fires nothing here: it is the
 *	span end's, and fires there once).
 *   frec_trigger_set:G  the trigger word, stored before (smp_mb) the
 *	site's threshold copy
 *	pairs with
 *   frec_trigger_span:H  the copy, loaded by the span end, before (smp_rmb)
 *	the word: a span over a threshold it read finds the word armed with
 *	it (or a later one);
 *	and pairs with
 *   frec_trigger_span_copy:K  the copy, stored by a span end that fired
 *	(or by frec_trigger_set()), before (smp_mb) the word loaded again:
 *	of two such stores the later one's CPU then loads the other's word,
 *	or a later one, and stores its copy again if that differs (the R
 *	pattern: both barriers full), so the last copy stored is the last
 *	word's.  A span end that fired and dropped the copy after an arming
 *	on another CPU stored its own restores it.
 *   frec_trigger_note:E  the note's fields, written by the claimant of
 *	frec_frozen.state, published with a release
 *	pairs with
 *   frec_frozen_show:F   the acquire load of the state before the fields.
 *
 * None of these leans on x86's TSO: on arm64 smp_mb() is DMB ISH, a
 * successful (try_)cmpxchg() fully ordered, smp_rmb() DMB ISHLD, and
 * the release and acquire STLR and LDAR.  :A/:G/:B before :C/:D is
 * message passing through two full barriers; :G/:H is message passing
 * (full barrier on the writer, read barrier on the reader); :K is the R
 * pattern, which needs the two full barriers it has; :E/:F is a release
 * and its acquire.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uio.h>

#include <frec.h>

#include "frec_debugfs_input.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_trigger.h"

/* Trigger words by site id, [0, frec_triggers_nr): frec_trigger.h. */
static u64 *frec_triggers;
static unsigned int frec_triggers_nr;

/* frec_frozen.state */
#define FREC_FROZEN_NONE	0
#define FREC_FROZEN_NOTING	1
#define FREC_FROZEN_NOTED	2

/**
 * struct frec_frozen_note - the first freeze that fired since the last clear
 * @state: FREC_FROZEN_NONE, _NOTING while the claimant writes, _NOTED.
 * @later: freezes that fired after it.
 * @site: the site's id.
 * @actions: the trigger's actions.
 * @cpu: the CPU it fired on.
 * @has_seq: @seq is the firing record's.
 * @has_duration: a threshold trigger: @duration and @threshold are set.
 * @ring: the firing record's ring, or "" if unknown.
 * @site_gone: @site was given to another site since: @where names it.
 * @where: "FILE:LINE [MODULE]FUNCTION" of the site that fired, kept when
 *	its id was given again (frec_trigger_forget()).
 * @seq: the firing record's seq (its CPU's, in @ring).
 * @ts: local_clock() when it fired.
 * @duration: the span's duration, ns.
 * @threshold: the trigger's threshold, ns.
 */
struct frec_frozen_note {
	atomic_t state;
	atomic_t later;
	unsigned int site, actions;
	int cpu;
	bool has_seq, has_duration, site_gone;
	char ring[FREC_RING_NAME_MAX + 1];
	char where[sizeof_field(struct frec_site_texts, file) +
		   sizeof_field(struct frec_site_texts, modname) +
		   sizeof_field(struct frec_site_texts, func) + 16];
	u64 seq, ts, duration, threshold;
};

static struct frec_frozen_note frec_frozen;

#if IS_ENABLED(CONFIG_KUNIT)
void (*frec_trigger_test_hook)(enum frec_trigger_hook where, struct frec_site *site);
EXPORT_SYMBOL_GPL(frec_trigger_test_hook);

/*
 * The suite puts a whole frec_trigger_set() between two steps of a firing,
 * an interleaving two CPUs reach only by chance; process context there.
 */
static void frec_trigger_test(enum frec_trigger_hook where, struct frec_site *site)
{
	void (*hook)(enum frec_trigger_hook where, struct frec_site *site);

	hook = READ_ONCE(frec_trigger_test_hook);
	if (hook)
		hook(where, site);
}
#else
static inline void frec_trigger_test(enum frec_trigger_hook where, struct frec_site *site)
{
}
#endif

/**
 * frec_trigger_parse() - parse one arming word of frec/control
 * @s: the word: freeze, freeze=all or dump, then optionally '>' and a
 *	threshold: a number and a unit, ns, us, ms or s (freeze>500us).
 * @word: the trigger word it gives.
 * @why: what is wrong, when it is refused.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL (@why set) for another word, a threshold without
 * a number or unit, of 0, or above FREC_TRIGGER_MAX_NS.
 */
int frec_trigger_parse(const char *s, u64 *word, const char **why)
{
	static const struct { const char *name; u64 per; } units[] = {
		{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
		{ "s", NSEC_PER_SEC },
	};
	static const struct { const char *name; unsigned int action; } acts[] = {
		{ "freeze", FREC_TRIGGER_FREEZE },
		{ "freeze=all", FREC_TRIGGER_FREEZE_ALL },
		{ "dump", FREC_TRIGGER_DUMP },
	};
	const char *gt = strchr(s, '>');
	size_t n = gt ? gt - s : strlen(s), digits;
	char num[21];
	u64 v, ns;
	int i;

	for (i = 0; i < ARRAY_SIZE(acts); i++)
		if (strlen(acts[i].name) == n && !strncmp(s, acts[i].name, n))
			break;
	if (i == ARRAY_SIZE(acts)) {
		*why = "unknown word";
		return -EINVAL;
	}
	*word = acts[i].action;
	if (!gt)
		return 0;
	s = gt + 1;
	digits = strspn(s, "0123456789");
	if (!digits) {
		*why = "a threshold needs a number and a unit (e.g. >500us)";
		return -EINVAL;
	}
	/* Leading zeros say nothing: 000000000000000000001ns is 1 ns. */
	while (digits > 1 && *s == '0') {
		s++;
		digits--;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(s + digits, units[i].name))
			break;
	if (i == ARRAY_SIZE(units)) {
		*why = "a threshold's unit is ns, us, ms or s";
		return -EINVAL;
	}
	if (digits >= sizeof(num)) {
		*why = "a threshold longer than 2^61 ns";
		return -EINVAL;
	}
	memcpy(num, s, digits);
	num[digits] = '\0';
	if (kstrtou64(num, 10, &v) || check_mul_overflow(v, units[i].per, &ns) ||
	    ns > FREC_TRIGGER_MAX_NS) {
		*why = "a threshold longer than 2^61 ns";
		return -EINVAL;
	}
	if (!ns) {
		*why = "a threshold of 0 (arm without one to fire on the next record)";
		return -EINVAL;
	}
	*word |= ns << FREC_TRIGGER_SHIFT;
	return 0;
}

/**
 * frec_trigger_set() - arm, re-arm or disarm a site's trigger
 * @site: the site.
 * @id: its id.
 * @word: the trigger word, 0 to disarm.
 *
 * A site whose id word is not an id yet (being registered) keeps its
 * trigger word but is not armed: frec_trigger_armed() says so.
 *
 * Context: Process context, frec_sites_lock held.
 */
void frec_trigger_set(struct frec_site *site, unsigned int id, u64 word)
{
	unsigned int old = READ_ONCE(site->id), armed;
	u64 thr = frec_trigger_threshold(word);

	lockdep_assert_held(&frec_sites_lock);
	if (WARN_ON_ONCE(id >= frec_triggers_nr))
		return;
	/* Take the bit first: no record fires with a word half changed. */
	while (old < FREC_SITE_NO_ID && (old & FREC_SITE_TRIGGER) &&
	       !try_cmpxchg(&site->id, &old, old & ~FREC_SITE_TRIGGER))
		;
	WRITE_ONCE(frec_triggers[id], word); /* LMM(frec_trigger_set:A) */
	/*
	 * The span end's copy of the threshold, after the word: full, as a
	 * span end that fired stores the copy, then loads the word
	 * (frec_trigger_span_copy()).
	 */
	smp_mb(); /* LMM(frec_trigger_set:G) */
	WRITE_ONCE(site->span_threshold_inv, thr ? ~thr : 0);
	if (!word || thr)
		return;
	old = READ_ONCE(site->id);
	do {
		if (old >= FREC_SITE_NO_ID)
			return;
		armed = old | FREC_SITE_TRIGGER;
	} while (!try_cmpxchg(&site->id, &old, armed)); /* LMM(frec_trigger_set:B) */
}

/**
 * frec_trigger_armed() - a site's armed trigger
 * @site: the site.
 * @id: its id.
 *
 * Context: Any context.
 * Return: its trigger word, or 0 if none is armed (or it fired).
 */
u64 frec_trigger_armed(const struct frec_site *site, unsigned int id)
{
	u64 w;

	if (id >= frec_triggers_nr)
		return 0;
	w = READ_ONCE(frec_triggers[id]);
	if (!frec_trigger_threshold(w) && !(READ_ONCE(site->id) & FREC_SITE_TRIGGER))
		return 0;
	return w;
}

/* ">500us": the threshold in the largest unit that divides it. */
static void frec_trigger_show_threshold(struct seq_file *m, u64 ns)
{
	if (!ns)
		return;
	if (!(ns % NSEC_PER_SEC))
		seq_printf(m, ">%llus", ns / NSEC_PER_SEC);
	else if (!(ns % NSEC_PER_MSEC))
		seq_printf(m, ">%llums", ns / NSEC_PER_MSEC);
	else if (!(ns % NSEC_PER_USEC))
		seq_printf(m, ">%lluus", ns / NSEC_PER_USEC);
	else
		seq_printf(m, ">%lluns", ns);
}

/**
 * frec_trigger_show() - print a trigger word's actions
 * @m: the file.
 * @word: the word; 0 prints nothing.
 * @first: what goes before the first action (a comma goes before each
 *	other).
 *
 * Each action followed by the threshold, in the spelling control takes:
 * with @first "," as frec/control's flags end, ",freeze>500us,dump>500us".
 *
 * Context: Any context that may print to @m.
 */
void frec_trigger_show(struct seq_file *m, u64 word, const char *first)
{
	static const char * const names[] = { "freeze", "freeze=all", "dump" };
	int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!(word & BIT(i)))
			continue;
		seq_printf(m, "%s%s", first, names[i]);
		frec_trigger_show_threshold(m, frec_trigger_threshold(word));
		first = ",";
	}
}

/**
 * frec_trigger_forget() - drop the trigger of an id being given to a site
 * @id: the id.
 *
 * Also keeps, for frec/frozen, the texts of the site that had @id if it
 * is the one that fired.
 *
 * Context: Any context for a new id (frec_site_register()); for an id
 * given again, process context with frec_sites_lock held.  Before the new
 * site is published under @id.
 */
void frec_trigger_forget(unsigned int id)
{
	struct frec_frozen_note *f = &frec_frozen;
	const struct frec_site_texts *t;
	const struct frec_site *site;

	if (id < frec_triggers_nr)
		WRITE_ONCE(frec_triggers[id], 0);
	/*
	 * frozen names the site that fired by its id, which now goes to
	 * another: its texts are kept first.  A noted id was given before,
	 * so this is its reuse: process context, frec_sites_lock held
	 * (frec_sites_coming()), the old site still in the table.
	 */
	if (atomic_read_acquire(&f->state) != FREC_FROZEN_NOTED || f->site != id)
		return;
	site = frec_site_locked(id);
	if (!site)
		return;
	t = frec_site_texts(site);
	snprintf(f->where, sizeof(f->where), "%s:%u [%s]%s", t->file, site->line,
		 t->modname, t->func);
	WRITE_ONCE(f->site_gone, true);
}

/* Freeze @ring, or every ring, as @actions say.  Any context. */
static void frec_trigger_freeze(struct frec_ring *ring, unsigned int actions)
{
	struct frec_ring *r;

	if (actions & FREC_TRIGGER_FREEZE_ALL) {
		rcu_read_lock();
		list_for_each_entry_rcu(r, &frec_rings_list, node)
			atomic_or(FREC_RING_STOP_FROZEN, &r->stop);
		rcu_read_unlock();
	} else if ((actions & FREC_TRIGGER_FREEZE) && ring) {
		atomic_or(FREC_RING_STOP_FROZEN, &ring->stop);
	}
}

/**
 * frec_trigger_claim() - take a site's armed trigger, on the record path
 * @site: the site of a record @ring accepted and is about to store.
 * @ring: the ring.
 *
 * Called from the record path's slow case (a site without a plain id).
 * If the site has a trigger without a threshold armed, takes it (one
 * cmpxchg: exactly one record fires it) and freezes as it says; the
 * record is stored all the same.  The caller then calls
 * frec_trigger_fired() once the record is stored.
 *
 * Context: Any context, NMI included, preemption off.
 * Return: the trigger's actions, or 0 if none was armed, another record
 * took it, or the site was armed again with a threshold meanwhile.
 */
unsigned int frec_trigger_claim(struct frec_site *site, struct frec_ring *ring)
{
	unsigned int id = READ_ONCE(site->id), taken;
	u64 w;

	do {
		if (id >= FREC_SITE_NO_ID || !(id & FREC_SITE_TRIGGER))
			return 0;
		taken = id & ~FREC_SITE_TRIGGER;
	} while (!try_cmpxchg(&site->id, &id, taken)); /* LMM(frec_trigger_claim:C) */
	frec_trigger_test(FREC_TRIGGER_HOOK_CLAIMED, site);
	id = taken & ~FREC_SITE_UNSEEN;
	if (id >= frec_triggers_nr)
		return 0;
	w = READ_ONCE(frec_triggers[id]); /* LMM(frec_trigger_claim:D) */
	/*
	 * Armed again meanwhile with a threshold (frec_trigger_set() took the
	 * bit before it stored the word, this record took it first): that
	 * trigger is the span end's, and the one whose bit this took is gone.
	 */
	if (frec_trigger_threshold(w))
		return 0;
	frec_trigger_freeze(ring, w);
	return w & FREC_TRIGGER_ACTIONS;
}

/* For the KUnit suite, which plays the record path's slow case. */
EXPORT_SYMBOL_GPL(frec_trigger_claim);

/* Note the first freeze since the last clear; count the others. */
static void frec_trigger_note(unsigned int id, struct frec_ring *ring, u64 word,
			      bool has_seq, u64 seq, bool has_duration, u64 duration)
{
	struct frec_frozen_note *f = &frec_frozen;

	if (!(word & (FREC_TRIGGER_FREEZE | FREC_TRIGGER_FREEZE_ALL)))
		return;
	if (atomic_cmpxchg(&f->state, FREC_FROZEN_NONE, FREC_FROZEN_NOTING) !=
	    FREC_FROZEN_NONE) {
		atomic_inc(&f->later);
		return;
	}
	f->site = id;
	f->site_gone = false;
	f->actions = word & FREC_TRIGGER_ACTIONS;
	f->cpu = raw_smp_processor_id();
	f->ts = local_clock();
	f->has_seq = has_seq;
	f->seq = seq;
	f->has_duration = has_duration;
	f->duration = duration;
	f->threshold = frec_trigger_threshold(word);
	strscpy(f->ring, ring ? ring->name : "", sizeof(f->ring));
	atomic_set_release(&f->state, FREC_FROZEN_NOTED); /* LMM(frec_trigger_note:E) */
}

/* The console dump of a trigger that fired, named in its begin marker. */
static void frec_trigger_dump(const struct frec_site *site, unsigned int id,
			      bool has_duration, u64 duration)
{
	char reason[96], dur[32] = "";

	if (has_duration)
		snprintf(dur, sizeof(dur), " span %lluns", duration);
	snprintf(reason, sizeof(reason), "trigger site %u %s:%u%s", id,
		 kbasename(site->file), site->line, dur);
	frec_console_dump(reason);
}

/**
 * frec_trigger_fired() - the rest of a trigger that frec_trigger_claim() took
 * @site: the site.
 * @ring: the ring of its record.
 * @actions: what frec_trigger_claim() returned.
 * @seq: the record's seq, or 0 if it was not stored after all (the ring
 *	was destroyed or full meanwhile).
 *
 * Notes the freeze for frec/frozen and prints the console dump if asked,
 * once the firing record is stored.
 *
 * Context: Any context, NMI included, preemption off.
 */
void frec_trigger_fired(struct frec_site *site, struct frec_ring *ring,
			unsigned int actions, u64 seq)
{
	unsigned int id = READ_ONCE(site->id) & ~(FREC_SITE_TRIGGER | FREC_SITE_UNSEEN);

	frec_trigger_note(id, ring, actions, seq != 0, seq, false, 0);
	if (actions & FREC_TRIGGER_DUMP)
		frec_trigger_dump(site, id, false, 0);
}

/*
 * A span end that took @site's trigger (id @id) drops the site's copy of
 * the threshold, so that the span end stops calling frec_trigger_span()
 * until the site is armed again.  An arming on another CPU may have
 * stored its word and copy after this CPU took the word, and its copy
 * before this one's drop: the word is loaded again after each store of
 * the copy (full barrier, as in frec_trigger_set()), and the copy stored
 * again until it is the word's.  Each round needs a frec_trigger_set()
 * meanwhile (control, process context): it ends.
 */
static void frec_trigger_span_copy(struct frec_site *site, unsigned int id)
{
	u64 thr = 0, now;

	for (;;) {
		WRITE_ONCE(site->span_threshold_inv, thr ? ~thr : 0);
		smp_mb(); /* LMM(frec_trigger_span_copy:K) */
		now = frec_trigger_threshold(READ_ONCE(frec_triggers[id]));
		if (now == thr)
			return;
		thr = now;
	}
}

/**
 * frec_trigger_span() - fire a site's threshold trigger if a span was slow
 * @site: the site of a span's end, whose record was just stored.
 * @ring: the ring that record was stored in.
 * @duration_ns: the span's duration.
 *
 * The span-end path calls this after it stored the end's record, when
 * the span was longer than the site's copy of its threshold
 * (frec_span_ended(); a skew, 0 ns here, is too).  If the site's trigger
 * word still has a threshold and @duration_ns is above it, takes it (one
 * cmpxchg: exactly once), drops the site's copy, freezes @ring, where the
 * slow span's end is (one end site may store into several rings, such as
 * a ring per device), or every ring, and
 * prints the console dump, as the trigger says.  A threshold applies only
 * where this is called: on a site that is not a span's end it is armed
 * but never fires.
 *
 * Context: Any context, NMI included.
 * Return: true if it fired.
 */
bool frec_trigger_span(struct frec_site *site, struct frec_ring *ring, u64 duration_ns)
{
	unsigned int id = READ_ONCE(site->id) & ~FREC_SITE_TRIGGER;
	u64 w, thr;

	if (!frec_site_id_plain(id) || id >= frec_triggers_nr)
		return false;
	/* The word the site's copy was taken from, or a later one. */
	smp_rmb(); /* LMM(frec_trigger_span:H) */
	w = READ_ONCE(frec_triggers[id]);
	thr = frec_trigger_threshold(w);
	if (likely(!thr || duration_ns <= thr))
		return false;
	if (!try_cmpxchg(&frec_triggers[id], &w, 0))
		return false;
	frec_trigger_test(FREC_TRIGGER_HOOK_SPAN_TAKEN, site);
	/* Fired: the span end stops calling this until the site is re-armed. */
	frec_trigger_span_copy(site, id);
	frec_trigger_freeze(ring, w);
	frec_trigger_note(id, ring, w, false, 0, true, duration_ns);
	if (w & FREC_TRIGGER_DUMP)
		frec_trigger_dump(site, id, true, duration_ns);
	return true;
}

/* For the KUnit suite, which plays the span-end path. */
EXPORT_SYMBOL_GPL(frec_trigger_span);

/* debugfs frec/frozen */

static int frec_frozen_show(struct seq_file *m, void *unused)
{
	struct frec_frozen_note *f = &frec_frozen;
	const struct frec_site_texts *t;
	const struct frec_site *site;
	struct frec_ring *ring;
	bool any = false;
	u64 secs;
	u32 ns;

	down_read(&frec_rings_rwsem);
	list_for_each_entry(ring, &frec_rings_list, node) {
		if (!(atomic_read(&ring->stop) & FREC_RING_STOP_FROZEN))
			continue;
		seq_printf(m, "%s%s", any ? " " : "frozen rings: ", ring->name);
		any = true;
	}
	up_read(&frec_rings_rwsem);
	seq_puts(m, any ? "\n" : "not frozen\n");
	if (atomic_read_acquire(&f->state) != FREC_FROZEN_NOTED) /* LMM(frec_frozen_show:F) */
		return 0;
	mutex_lock(&frec_sites_lock);
	site = frec_site_locked(f->site);
	seq_printf(m, "fired: site %u", f->site);
	if (READ_ONCE(f->site_gone)) {
		seq_printf(m, " %s", f->where);
	} else if (site) {
		t = frec_site_texts(site);
		seq_printf(m, " %s:%u [%s]%s", t->file, site->line, t->modname, t->func);
	}
	mutex_unlock(&frec_sites_lock);
	seq_puts(m, "\naction: ");
	frec_trigger_show(m, f->actions | (f->threshold << FREC_TRIGGER_SHIFT), "");
	secs = div_u64_rem(f->ts, NSEC_PER_SEC, &ns);
	seq_printf(m, "\nring: %s\ncpu: %d\n", f->ring[0] ? f->ring : "-", f->cpu);
	if (f->has_seq)
		seq_printf(m, "seq: %llu\n", f->seq);
	seq_printf(m, "time: %llu.%09u\n", secs, ns);
	if (f->has_duration)
		seq_printf(m, "duration ns: %llu\n", f->duration);
	seq_printf(m, "later freezes: %d\n", atomic_read(&f->later));
	return 0;
}

static int frec_frozen_open(struct inode *inode, struct file *file)
{
	return single_open(file, frec_frozen_show, NULL);
}

/* Through write_iter() so that a module can write it (the KUnit suite). */
static ssize_t frec_frozen_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	size_t count = iov_iter_count(from);
	struct frec_ring *ring;
	char buf[16];
	int err = frec_debugfs_check_size(file, count, iocb->ki_pos, sizeof(buf));

	if (err)
		return err;
	if (copy_from_iter(buf, count, from) != count)
		return -EFAULT;
	err = frec_debugfs_check_line(file, buf, count);
	if (err)
		return err;
	if (strcmp(buf, "0") && strcmp(buf, "clear")) {
		frec_debugfs_refuse(file, buf, "not 0 or clear");
		return -EINVAL;
	}
	down_read(&frec_rings_rwsem);
	list_for_each_entry(ring, &frec_rings_list, node)
		atomic_andnot(FREC_RING_STOP_FROZEN, &ring->stop);
	up_read(&frec_rings_rwsem);
	atomic_set(&frec_frozen.later, 0);
	/* A freeze firing meanwhile may keep its note or lose it. */
	if (atomic_read(&frec_frozen.state) == FREC_FROZEN_NOTED)
		atomic_set(&frec_frozen.state, FREC_FROZEN_NONE);
	return count;
}

static const struct file_operations frec_frozen_fops = {
	.owner = THIS_MODULE,
	.open = frec_frozen_open,
	.read_iter = seq_read_iter,
	.write_iter = frec_frozen_write_iter,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * frec_trigger_init() - allocate the trigger table, create frec/frozen
 * @dir: frec's debugfs directory.
 *
 * Context: Process context, before frec_sites_init() gives ids.
 * Return: 0 or -ENOMEM.
 */
int frec_trigger_init(struct dentry *dir)
{
	unsigned int registered, refused, capacity;

	frec_sites_counts(&registered, &refused, &capacity);
	frec_triggers = kvcalloc(capacity + 1, sizeof(*frec_triggers), GFP_KERNEL);
	if (!frec_triggers)
		return -ENOMEM;
	frec_triggers_nr = capacity + 1;
	/* Unsafe: debugfs's full proxy passes no read_iter or write_iter on. */
	debugfs_create_file_unsafe("frozen", 0600, dir, NULL, &frec_frozen_fops);
	return 0;
}

/**
 * frec_trigger_exit() - free the trigger table
 *
 * Context: Process context, after every site and ring is gone.
 */
void frec_trigger_exit(void)
{
	kvfree(frec_triggers);
	frec_triggers = NULL;
	frec_triggers_nr = 0;
}
