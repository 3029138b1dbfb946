// SPDX-License-Identifier: GPL-2.0
/*
 * frec_persist_texts.c - the texts the persisted rings' records point to,
 * copied into the black box region (doc/blackbox.md), so that the next
 * boot and frec-decode print them with no kernel of this boot.
 *
 *   region_texts   texts written, later texts written, task names
 *                  written, later ones, refused for room, unreadable;
 *                  sweeps
 *
 * An event stores addresses, not text: the format of a site without an
 * id, its %s strings, its caller and its symbol arguments.  The live dump
 * reads what they point to when it prints; after a reset nothing is
 * there.  A sweep does for the region what debugfs formats does for
 * frec-decode: it walks the persisted rings' records
 * (frec_formats_record_refs()) and reads, once a sweep, the text of each
 * address they hold, as the dump would print it now: a string read with a
 * nofault copy, a code address named as the dump names it ("fn+0x1a/0x80
 * [mod]").  An address the region has no text for gets one; an address
 * whose text is not the one last written (a buffer rewritten, a module
 * loaded where another was) gets a later one, "from" the last time the
 * earlier one was seen there, so that each record is shown with the text
 * of its time (struct frec_region_text).  The text last written is known
 * by its checksum (frec_region_csum(): a change is missed by a chance of
 * one in 2^32).  A caller its site's entry names already (its first
 * caller, frec_persist_site_caller()) is not written again.
 *
 * The tasks the records' context words name are written the same way: a
 * pid's name (FREC_REGION_TEXT_TASK) as the task is called when a sweep
 * first sees the pid, and a later one when it is called otherwise (a
 * pid reused, a task renamed).  A task that exited before the first
 * sweep after its first record stays unnamed, as it is in a raw dump read
 * after it exited.  Names have a budget of their own
 * (FREC_PERSIST_TEXTS_TASKS_MAX seen slots, an eighth of the region's
 * entries and pool): past it a name is refused (counted), and the sweeps
 * go on writing texts.
 *
 * A sweep runs in process context, off the record path, so a record in a
 * persisted ring costs what it costs in any ring:
 *
 *  - every FREC_PERSIST_TEXTS_PERIOD_MS while frec runs, or less often
 *    for rings so large that a sweep takes more than a fiftieth of that;
 *  - when a module goes, after its records' words were repointed at
 *    frec's copies and before its rings go (frec_modules.c);
 *  - at unload, before the rings go.
 *
 * So what a reset or a hang can lose is the text an address was first
 * recorded with in the last period: the next boot prints such a %s as
 * the dump prints an unreadable string, "(efault)", and such a caller as
 * an address; and a text rewritten in the last period: the records since
 * the last sweep show the text that sweep saw.  A record stored between
 * two sweeps that saw two texts is shown with the later one (a buffer is
 * most often written, then recorded).  An oops or a panic does not sweep
 * (the text would be read in a dying kernel, under its locks); its
 * records lose the same.
 *
 * Which addresses are in the region is remembered in an open-addressed
 * table of FREC_PERSIST_TEXTS_SEEN slots, allocated at load: the region
 * holds at most FREC_REGION_TEXTS_MAX texts, and a sweep that finds the
 * table or the region full stops looking (counted).  A buffer rewritten
 * for ever would fill the region a text a sweep: later texts take at most
 * half the texts section's entries and an eighth of its pool (2048 and
 * 32 KiB in a 1 MiB region; the section grows with the region), past which
 * an address keeps the text it has (counted as refused), and first texts
 * have the rest.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "frec_caller_word.h"
#include "frec_format.h"
#include "frec_format_kernel.h"
#include "frec_formats.h"
#include "frec_persist.h"
#include "frec_reader.h"
#include "frec_region_image.h"
#include "frec_task_name.h"
#include "frec_texts.h"

#define FREC_PERSIST_TEXTS_PERIOD_MS	1000
/* A sweep's time, times this, before the next one (at least the period). */
#define FREC_PERSIST_TEXTS_SHARE	50
/* Records looked at, at most, with the ring lock held. */
#define FREC_PERSIST_TEXTS_BATCH	256
/* Addresses remembered: twice what the region's texts table holds. */
#define FREC_PERSIST_TEXTS_SEEN		8192
/* Longest string kept (the longest debugfs formats lists). */
#define FREC_PERSIST_TEXTS_STRING_MAX	4096
/* Later texts: half the region's entries, an eighth of its pool. */
/*
 * A pid's key in the seen table: a non-canonical address (on x86_64 and
 * arm64 alike), which no record's format, string or caller can be.
 */
#define FREC_PERSIST_TEXTS_TASK_KEY	0x5441534b00000000ULL
/*
 * Task names take at most this many seen slots, and an eighth of the
 * region's texts entries and pool: pids come and go without bound, and
 * must not crowd out the texts records cannot be printed without.  A name
 * refused for room is counted, and never stops the sweeps.
 */
#define FREC_PERSIST_TEXTS_TASKS_MAX	1024

/**
 * struct frec_persist_texts_seen - an address a record holds, and its text
 * @addr: the address; 0: the slot is free.
 * @seen: local_clock() when a sweep last found the region's text there;
 *	0: the region has none yet.
 * @csum: frec_region_csum() of that text; 1 while @seen is 0: found
 *	unreadable (counted once).
 * @sweep: the last sweep that read its text.
 */
struct frec_persist_texts_seen {
	u64 addr;
	u64 seen;
	u32 csum;
	u32 sweep;
};

/**
 * struct frec_persist_texts - the sweep's state, under its lock
 * @seen: the addresses records held, hashed.
 * @nr_seen: slots of @seen in use.
 * @written: first texts written into the region.
 * @later: later texts written (an address whose text changed).
 * @tasks: tasks' first names written (FREC_REGION_TEXT_TASK).
 * @tasks_later: tasks' later names written (a pid reused, a task
 *	renamed).
 * @task_slots: slots of @seen that hold a pid.
 * @later_bytes: the bytes of later texts and names.
 * @refused: texts the region (table or pool), @seen or the bounds of
 *	later texts had no room for.
 * @unreadable: strings and code addresses with nothing to write.
 * @sweeps: sweeps done.
 * @full: the region or @seen is full: sweeps stop.
 * @fmt: a site's format, read to find its pointer arguments.
 * @text: the text being written.
 */
struct frec_persist_texts {
	struct frec_persist_texts_seen *seen;
	unsigned int nr_seen;
	unsigned long written, later, tasks, tasks_later, later_bytes, refused, unreadable;
	unsigned long sweeps;
	unsigned int task_slots;
	bool full;
	char fmt[FREC_FORMAT_FMT_MAX];
	char text[FREC_PERSIST_TEXTS_STRING_MAX];
};

static struct frec_persist_texts *frec_persist_texts;
static DEFINE_MUTEX(frec_persist_texts_lock);
static struct delayed_work frec_persist_texts_work;

/* The slot of @addr in the seen table, or the free slot it would take. */
static struct frec_persist_texts_seen *frec_persist_texts_slot(struct frec_persist_texts *pt,
							       u64 addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 51);

	for (;; i = (i + 1) % FREC_PERSIST_TEXTS_SEEN)
		if (!pt->seen[i].addr || pt->seen[i].addr == addr)
			return &pt->seen[i];
}

/*
 * The seen slot of @key, taken if new; NULL if this sweep read it already
 * or the table is full.
 */
static struct frec_persist_texts_seen *frec_persist_texts_take(struct frec_persist_texts *pt,
							       u64 key)
{
	struct frec_persist_texts_seen *slot = frec_persist_texts_slot(pt, key);
	bool task = (key & ~(u64)U32_MAX) == FREC_PERSIST_TEXTS_TASK_KEY;

	if (slot->addr && slot->sweep == (u32)pt->sweeps)
		return NULL;
	if (!slot->addr) {
		if (task && pt->task_slots >= FREC_PERSIST_TEXTS_TASKS_MAX) {
			pt->refused++;
			return NULL;
		}
		/* Half full: the probes stay short, and there is always a free slot. */
		if (pt->nr_seen >= FREC_PERSIST_TEXTS_SEEN / 2) {
			pt->refused++;
			pt->full = !task;
			return NULL;
		}
		slot->addr = key;
		pt->nr_seen++;
		pt->task_slots += task;
	}
	slot->sweep = pt->sweeps;
	return slot;
}

/*
 * Write @pt->text (@len bytes; negative: nothing could be read) as the
 * text of @addr, read at @now, if the region lacks it or has another.
 */
static void frec_persist_texts_put(struct frec_persist_texts *pt,
				   struct frec_persist_texts_seen *slot, u64 addr,
				   u32 kind, int len, u64 now)
{
	u64 pool_bytes;
	u32 csum, entries;
	int err;

	if (len < 0) {
		/* Read again by later sweeps: a module may load there. */
		if (!slot->seen && !slot->csum) {
			slot->csum = 1;
			pt->unreadable++;
		}
		return;
	}
	csum = frec_region_csum(pt->text, len);
	if (slot->seen && csum == slot->csum) {
		slot->seen = now;
		return;
	}
	if (kind == FREC_REGION_TEXT_TASK &&
	    (!frec_persist_text_room(&entries, &pool_bytes) ||
	     pt->tasks + pt->tasks_later >= entries / 8 ||
	     (pt->tasks + pt->tasks_later + 1) * TASK_COMM_LEN > pool_bytes / 8)) {
		pt->refused++;
		return;
	}
	if (slot->seen && (!frec_persist_text_room(&entries, &pool_bytes) ||
			   pt->later + pt->tasks_later >= entries / 2 ||
			   pt->later_bytes + len > pool_bytes / 8)) {
		pt->refused++;
		return;
	}
	err = frec_persist_text(addr, slot->seen, kind, pt->text, len);
	if (err) {
		pt->refused++;
		pt->full = kind != FREC_REGION_TEXT_TASK;
		return;
	}
	if (slot->seen)
		pt->later_bytes += len;
	if (kind == FREC_REGION_TEXT_TASK)
		++*(slot->seen ? &pt->tasks_later : &pt->tasks);
	else
		++*(slot->seen ? &pt->later : &pt->written);
	slot->csum = csum;
	slot->seen = now;
}

/* The text of one address a record holds, read once a sweep. */
static void frec_persist_texts_ref(struct frec_persist_texts *pt, u64 site,
				   const struct frec_formats_ref *ref)
{
	struct frec_persist_texts_seen *slot;
	u32 kind = FREC_REGION_TEXT_SYMBOL;
	const char *saved;
	int len;
	u64 now;

	if (!ref->addr ||
	    (ref->kind == FREC_FORMATS_REF_CALLER && frec_persist_site_names(site, ref->addr)))
		return;
	slot = frec_persist_texts_take(pt, ref->addr);
	if (!slot)
		return;
	/* Before the read: the records stamped up to now were stored before it. */
	now = local_clock();
	switch (ref->kind) {
	case FREC_FORMATS_REF_FORMAT:
	case FREC_FORMATS_REF_STRING:
		kind = FREC_REGION_TEXT_STRING;
		len = frec_format_kernel_string(pt->text, ref->kind == FREC_FORMATS_REF_FORMAT ?
						FREC_FORMAT_FMT_MAX : sizeof(pt->text),
						ref->addr);
		break;
	default:
		/* Repointed at a name when its module went, or named now. */
		saved = frec_texts_saved_symbol(ref->addr);
		if (saved)
			len = strscpy(pt->text, saved, KSYM_SYMBOL_LEN);
		else
			len = frec_format_kernel_symbol_name(pt->text, ref->addr, ref->ext);
	}
	frec_persist_texts_put(pt, slot, ref->addr, kind, len, now);
}

/* The name of the task a record's context names, as the texts are written. */
static void frec_persist_texts_task(struct frec_persist_texts *pt, u32 pid)
{
	struct frec_persist_texts_seen *slot;
	u64 now;

	/*
	 * pid 0 is the idle task: readers name it as ftrace does.  A pid whose
	 * task is gone takes no slot: pids come and go without bound.
	 */
	if (!pid)
		return;
	slot = frec_persist_texts_slot(pt, FREC_PERSIST_TEXTS_TASK_KEY | pid);
	if (slot->addr && slot->sweep == (u32)pt->sweeps)
		return;
	now = local_clock();
	if (!frec_task_name(pid, pt->text))
		return;
	slot = frec_persist_texts_take(pt, FREC_PERSIST_TEXTS_TASK_KEY | pid);
	if (slot)
		frec_persist_texts_put(pt, slot, pid, FREC_REGION_TEXT_TASK,
				       strlen(pt->text), now);
}

/* One sweep of the persisted rings' records, in bounded batches. */
static void frec_persist_texts_walk(struct frec_persist_texts *pt)
{
	const struct frec_filter *rings = frec_persist_ring_filter();
	struct frec_formats_ref refs[FREC_FORMATS_REFS_MAX];
	enum frec_reader_status st = FREC_READER_AGAIN;
	struct frec_reader_record rec;
	struct frec_reader *rd;
	unsigned int budget, i, n;

	if (!rings || pt->full)
		return;
	rd = frec_reader_open(rings, NULL);
	if (IS_ERR(rd))
		return;
	do {
		frec_reader_lock(rd);
		budget = FREC_PERSIST_TEXTS_BATCH;
		do {
			rcu_read_lock();
			st = frec_reader_next(rd, &rec, &budget);
			if (st == FREC_READER_RECORD) {
				n = frec_formats_record_refs(&rec, pt->fmt, sizeof(pt->fmt), refs);
				for (i = 0; i < n; i++)
					frec_persist_texts_ref(pt, rec.ent.site, &refs[i]);
				frec_persist_texts_task(pt, frec_context_pid(rec.ent.context));
			}
			rcu_read_unlock();
		} while (st == FREC_READER_RECORD && budget && !pt->full);
		frec_reader_unlock(rd);
		cond_resched();
	} while (st != FREC_READER_END && !pt->full);
	frec_reader_close(rd);
	pt->sweeps++;
}

/**
 * frec_persist_texts_sweep() - write into the region the texts the
 *	persisted rings' records point to that it lacks
 *
 * Context: Process context; sleeps.
 */
void frec_persist_texts_sweep(void)
{
	static bool told;
	unsigned int n, first;
	u64 pool_bytes;

	mutex_lock(&frec_persist_texts_lock);
	if (frec_persist_texts)
		frec_persist_texts_walk(frec_persist_texts);
	/* Once: the pool is full for good (it is append-only). */
	n = frec_persist_sites_no_text(&first, &pool_bytes);
	if (n && !told) {
		told = true;
		pr_warn("region: its %llu-byte pool is full: site %u and later ones (%u so far) are kept without their texts; the next boot drops their records (no_text=)\n",
			pool_bytes, first, n);
	}
	mutex_unlock(&frec_persist_texts_lock);
}

/*
 * A sweep walks every record of the persisted rings: the next one waits
 * FREC_PERSIST_TEXTS_PERIOD_MS, or FREC_PERSIST_TEXTS_SHARE times as long
 * as this one took, so that sweeping a large ring takes at most about 2%
 * of a CPU.
 */
static void frec_persist_texts_work_fn(struct work_struct *work)
{
	u64 t0 = ktime_get_ns(), ms;

	frec_persist_texts_sweep();
	ms = div_u64((ktime_get_ns() - t0) * FREC_PERSIST_TEXTS_SHARE, NSEC_PER_MSEC);
	schedule_delayed_work(&frec_persist_texts_work,
			      msecs_to_jiffies(max_t(u64, ms, FREC_PERSIST_TEXTS_PERIOD_MS)));
}

static int frec_persist_texts_show(struct seq_file *m, void *unused)
{
	struct frec_persist_texts *pt;
	unsigned int first;
	u64 pool_bytes;

	mutex_lock(&frec_persist_texts_lock);
	pt = frec_persist_texts;
	if (pt)
		seq_printf(m, "texts written: %lu\nlater texts written: %lu\ntask names written: %lu\nlater task names written: %lu\nrefused (no room): %lu\nunreadable: %lu\nsweeps: %lu\nsites without texts: %u\n",
			   pt->written, pt->later, pt->tasks, pt->tasks_later,
			   pt->refused, pt->unreadable,
			   pt->sweeps, frec_persist_sites_no_text(&first, &pool_bytes));
	mutex_unlock(&frec_persist_texts_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frec_persist_texts);

/**
 * frec_persist_texts_init() - start the sweeps, if persist_rings= names
 *	rings
 * @root: frec's debugfs directory (region_texts goes there).
 *
 * Context: Process context, module load, after the rings are set up.
 * Return: 0 or -ENOMEM.
 */
int frec_persist_texts_init(struct dentry *root)
{
	struct frec_persist_texts *pt;

	if (!frec_persist_ring_filter())
		return 0;
	pt = kvzalloc(sizeof(*pt), GFP_KERNEL);
	if (pt)
		pt->seen = kvcalloc(FREC_PERSIST_TEXTS_SEEN, sizeof(*pt->seen), GFP_KERNEL);
	if (!pt || !pt->seen) {
		kvfree(pt);
		return -ENOMEM;
	}
	frec_persist_texts = pt;
	debugfs_create_file("region_texts", 0400, root, NULL, &frec_persist_texts_fops);
	INIT_DELAYED_WORK(&frec_persist_texts_work, frec_persist_texts_work_fn);
	schedule_delayed_work(&frec_persist_texts_work,
			      msecs_to_jiffies(FREC_PERSIST_TEXTS_PERIOD_MS));
	return 0;
}

/**
 * frec_persist_texts_exit() - stop the sweeps after a last one
 *
 * Context: Process context, module unload, before the rings go.
 */
void frec_persist_texts_exit(void)
{
	struct frec_persist_texts *pt = frec_persist_texts;

	if (!pt)
		return;
	cancel_delayed_work_sync(&frec_persist_texts_work);
	frec_persist_texts_sweep();
	mutex_lock(&frec_persist_texts_lock);
	frec_persist_texts = NULL;
	mutex_unlock(&frec_persist_texts_lock);
	kvfree(pt->seen);
	kvfree(pt);
}
