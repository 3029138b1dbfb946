// SPDX-License-Identifier: GPL-2.0
/*
 * frec_rings.c - the registry of named rings: create, look up, adopt,
 * destroy, resize and clear them (the record path is frec_record.c).
 *
 * Rings live on one list under frec_rings_rwsem: creating, destroying,
 * resizing and clearing take it for writing; readers (the dump files, the
 * stats) for reading, one read() at a time, so a ring never goes away
 * under a reader.  The record path never touches the list or the lock: a
 * client holds its ring's pointer, and a ring is freed only when its owner
 * destroys it, after which the owner must not record into it.
 *
 * Resizing and clearing swap the ring's store (its per-CPU slot arrays)
 * for a new one while writers go on: a writer, with preemption off,
 * records into whichever store it loaded, and synchronize_rcu() waits
 * for every such writer (NMI handlers included) before the old store's
 * counts are folded into the ring's totals and the store freed.  The
 * records the old store held are counted as cleared; a persisted store's
 * entry leaves the region at the swap and its parts are given back after
 * (frec_persist.c).  A new store the region has room for only with the
 * old one's parts goes into ordinary memory for the swap, and into the
 * region with a second swap once the parts are back.
 *
 * The list is also an RCU list, for the one reader that cannot take the
 * rwsem: the console dump of a dying kernel (frec_crash.c), which walks
 * it with preemption off.  Rings leave it with list_del_rcu() and are
 * freed only after synchronize_rcu() (frec_ring_unlist()).
 *
 * A static ring (FREC_DEFINE_RING(), registered by frec_static_rings.c) is
 * never freed when its module unloads: it becomes an orphan, still listed
 * and readable, and the next module to define a ring of the same name and
 * shape adopts it and records on after the old records.
 */

/**
 * DOC: Ring lifetime
 *
 * A call site (__frec_gated_call() in include/frec.h) loads the ring
 * pointer and reads the ring's gate with preemption on, so that a
 * disabled ring costs it no more than those two loads; only a record that
 * passes turns preemption off.  frec_ring_destroy() may run on another
 * CPU at any point of that, and the call site's task may be preempted at
 * any point of it.  Two waits make that safe, one for each part of the
 * ring a late call site can touch::
 *
 *   call site (task, IRQ or NMI)           frec_ring_destroy()
 *   ----------------------------           -------------------
 *   r = ring_expr                          gate = 0 (disabled)
 *   g = READ_ONCE(r->gate.pass)            remove the debugfs files
 *   g < level: return -ENOENT              retired = 1, gate = 0       (A)
 *   preempt_disable()                      unlist
 *   __frec_record(r):                      synchronize_rcu()
 *     retired? return -ENOENT      (B)     free the store, the totals
 *     r->store, write, commit              call_rcu_tasks(free struct) (C)
 *   preempt_enable()
 *
 * The store: from (B) to the end of the write, preemption is off, an
 * RCU-sched read-side section.  If (B) reads retired == 0, the section
 * began before synchronize_rcu() could return, so the store it writes
 * into is freed only after it is done.  If (B) reads 1, the call touches
 * nothing of the ring but that flag.  A call site that passed the gate
 * before (A) but reached (B) after the grace period, preempted in
 * between, stops at (B).
 *
 * The struct (the gate at the first read, the flag at (B)): it is freed
 * only after an RCU Tasks grace period that begins after (C), which ends
 * only once every task that was running at (C) has switched context
 * voluntarily (or is in user mode or idle).  A call site never sleeps
 * between loading the ring pointer and returning, so a task anywhere in
 * there when destroy began holds up the grace period, preempted or not.
 * A call site in an IRQ or NMI handler, or in an idle task, runs with
 * preemption off from the pointer load on: the synchronize_rcu() before
 * (C) waited for it.  So no call site ever reads the struct after it is
 * freed, and its memory cannot be some other ring's by then: a record of
 * the destroyed ring's caller never lands in a ring created after it.
 * destroy does not wait for RCU Tasks itself: a task recording in a loop
 * without sleeping would hold it up for as long as it loops (the struct
 * waits instead, a few hundred bytes).  frec_rings_exit() waits for the
 * structs still pending (rcu_barrier_tasks()) before frec's code goes.
 *
 * A call site that loads the pointer after destroy began (the owner must
 * unpublish it first) is the caller's bug, as before.  Resizing, clearing
 * and changing the order replace the store, not the struct; the default
 * ring and a static ring's struct (an orphan while its module is away)
 * are never freed while frec is loaded; an orphan replaced by a ring of
 * another shape is retired as destroy retires a ring.
 *
 * Ordered accesses, labelled LMM(function:letter):
 *
 * frec_ring_retire:A / frec_ring_retired:B
 *	(retired is stored before destroy's synchronize_rcu(), read inside
 *	the writer's preemption-off section) A writer that reads 0 at (B) is
 *	waited for by that grace period, before the store is freed.
 *	arm64: the grace-period guarantee of RCU, which holds on every
 *	architecture (synchronize_rcu() and the end of a preemption-off
 *	section carry the barriers); the spinlock adds nothing to it.
 *
 * frec_ring_release:C / (a call site from its pointer load to its return)
 *	(call_rcu_tasks() after the store is freed) The struct is freed only
 *	when no task can be between a load of the ring pointer and the end
 *	of its record call.  arm64: RCU Tasks' grace period, as above.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <frec.h>

#include "frec_fault.h"
#include "frec_filter.h"
#include "frec_hooks.h"
#include "frec_persist.h"
#include "frec_vmcore_kernel.h"
#include "frec_rb.h"
#include "frec_record.h"
#include "frec_rings.h"

/*
 * A call site may be preempted between loading a ring and its record, and
 * only RCU Tasks waits for that ("Ring lifetime" above); without it
 * call_rcu_tasks() is call_rcu(), which does not.
 */
#if defined(CONFIG_PREEMPTION) && !defined(CONFIG_TASKS_RCU)
#error "frec needs CONFIG_TASKS_RCU on a preemptible kernel (kprobes, ftrace or BPF select it)"
#elif !defined(CONFIG_TASKS_RCU)
/* call_rcu_tasks() is call_rcu() there. */
#define rcu_barrier_tasks() rcu_barrier()
#endif

LIST_HEAD(frec_rings_list);
DECLARE_RWSEM(frec_rings_rwsem);
/*
 * Serializes whoever changes the list (create, destroy, adopt) or a ring's
 * store (resize, clear, order), so that a ring found on the list stays
 * there and a new store takes the ring's order as it stands.  Taken before
 * frec_rings_rwsem; never held while waiting for a debugfs file's users:
 * writes to a ring's size, clear and order files take it.
 */
static DEFINE_MUTEX(frec_rings_admin_lock);
static struct frec_ring *frec_default;
static u64 frec_ring_next_id;

static unsigned long default_ring_bytes = 64 * 1024;
module_param(default_ring_bytes, ulong, 0444);
MODULE_PARM_DESC(default_ring_bytes,
		 "bytes per CPU of the default ring (a power of two, at least 128)");

/*
 * A name is 1..FREC_RING_NAME_MAX of [A-Za-z0-9_-], usable as a file name:
 * the rule the dumps' and the region's readers check (frec_filter.h), not
 * isalnum()'s, which would take Latin-1 letters that no reader takes.
 */
static bool frec_ring_name_valid(const char *name)
{
	return frec_ring_name_ok(name, FREC_RING_NAME_MAX + 1);
}

static struct frec_ring *frec_ring_find_locked(const char *name)
{
	struct frec_ring *ring;

	lockdep_assert_held(&frec_rings_rwsem);
	list_for_each_entry(ring, &frec_rings_list, node)
		if (!strcmp(ring->name, name))
			return ring;
	return NULL;
}

static void frec_ring_store_free(struct frec_ring_store *store)
{
	int cpu;

	if (!store)
		return;
	/* Out of the kdump directory before its slots go. */
	frec_vmcore_store_del(store->vmcore);
	/* A persisted store's slots are the region's (frec_persist.c). */
	if (store->cpus && !store->persisted)
		for_each_possible_cpu(cpu)
			kvfree(per_cpu_ptr(store->cpus, cpu)->slots);
	free_percpu(store->cpus);
	kfree(store);
}

/*
 * Can the machine spare @bytes_per_cpu on every possible CPU?  A ring may
 * take at most half of the memory available now: more would push the
 * machine into reclaim or the OOM killer for a debugging aid.
 */
static int frec_ring_store_check_memory(const char *name, unsigned long bytes_per_cpu)
{
	u64 total = (u64)bytes_per_cpu * num_possible_cpus();
	u64 avail = (u64)si_mem_available() << PAGE_SHIFT;

	if (total <= avail / 2)
		return 0;
	pr_err("ring %s: %lu bytes per CPU x %u CPUs = %llu KiB, more than half of the %llu KiB available\n",
	       name, bytes_per_cpu, num_possible_cpus(), total >> 10, avail >> 10);
	return -ENOMEM;
}

/*
 * A store of @bytes_per_cpu per CPU, checked and logged as @name's, in
 * place of the store whose region entry is @replaces (0: none).  Sets
 * *@later if the region has room for it only once that store gives its
 * parts back: it is then in ordinary memory.
 */
static struct frec_ring_store *frec_ring_store_alloc(const char *name,
						     unsigned long bytes_per_cpu,
						     unsigned int max_record_len,
						     bool global_order,
						     unsigned int replaces, bool *later)
{
	struct frec_ring_store *store;
	struct frec_slot *slots;
	unsigned long nr_slots;
	int cpu, err;

	nr_slots = bytes_per_cpu / FREC_SLOT_BYTES;
	if (bytes_per_cpu < FREC_RING_MIN_BYTES || bytes_per_cpu > FREC_RING_MAX_BYTES ||
	    !is_power_of_2(bytes_per_cpu)) {
		pr_err("ring %s: bad size %lu bytes per CPU: want a power of two from %lu to %lu\n",
		       name, bytes_per_cpu, FREC_RING_MIN_BYTES, FREC_RING_MAX_BYTES);
		return ERR_PTR(-EINVAL);
	}
	err = frec_ring_store_check_memory(name, bytes_per_cpu);
	if (!err)
		err = frec_fault_store_alloc();
	if (err)
		return ERR_PTR(err);
	store = kzalloc(sizeof(*store), GFP_KERNEL);
	if (!store)
		return ERR_PTR(-ENOMEM);
	store->bytes_per_cpu = bytes_per_cpu;
	err = frec_rb_init(&store->layout, nr_slots, max_record_len,
			   global_order ? FREC_RB_GLOBAL_ORDER : 0);
	if (err) {
		pr_err("ring %s: %u-byte records do not fit in %lu bytes per CPU\n",
		       name, max_record_len, bytes_per_cpu);
		kfree(store);
		return ERR_PTR(err);
	}
	store->cpus = alloc_percpu(struct frec_rb_cpu);
	if (!store->cpus)
		goto nomem;
	slots = frec_persist_parts(name, nr_slots, max_record_len, global_order,
				   replaces, &store->persisted);
	*later = IS_ERR(slots);
	if (*later)
		slots = NULL;
	if (slots) {
		for_each_possible_cpu(cpu)
			frec_rb_cpu_init(per_cpu_ptr(store->cpus, cpu),
					 slots + (unsigned long)cpu * nr_slots,
					 &store->layout);
		return store;
	}
	for_each_possible_cpu(cpu) {
		/*
		 * No OOM kill and no allocation-failure splat: a ring that
		 * does not fit is an -ENOMEM for whoever asked, nothing more.
		 */
		slots = kvmalloc_node(bytes_per_cpu,
				      GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN,
				      cpu_to_node(cpu));
		if (!slots)
			goto nomem;
		frec_rb_cpu_init(per_cpu_ptr(store->cpus, cpu), slots, &store->layout);
	}
	/* A persisted store is the region's; the kdump directory lists the others. */
	store->vmcore = frec_vmcore_store_add(name, max_record_len, global_order,
					      nr_slots, store->cpus);
	return store;

nomem:
	pr_err("ring %s: cannot allocate %lu bytes per CPU\n", name, bytes_per_cpu);
	frec_ring_store_free(store);
	return ERR_PTR(-ENOMEM);
}

/* Free a ring no call site can reach: never published, or frec unloads. */
static void frec_ring_free(struct frec_ring *ring)
{
	frec_ring_store_free(rcu_dereference_protected(ring->store, true));
	free_percpu(ring->base);
	kfree(ring);
}

/*
 * Free a store no writer ever saw: its entry and parts in the region, if
 * persisted, go back at once.
 */
static void frec_ring_store_discard(struct frec_ring_store *store)
{
	frec_persist_parts_retire(store->persisted);
	frec_persist_parts_free(store->persisted);
	frec_ring_store_free(store);
}

/*
 * Free a ring that was never listed (its name was taken, or the orphan it
 * came for was adopted instead), and its store.  Each load of a module
 * that defines a persisted ring comes here once its orphan is adopted.
 */
static void frec_ring_discard(struct frec_ring *ring)
{
	frec_ring_store_discard(rcu_dereference_protected(ring->store, true));
	free_percpu(ring->base);
	kfree(ring);
}

static void frec_ring_free_struct(struct rcu_head *head)
{
	kfree(container_of(head, struct frec_ring, rcu));
}

/*
 * Free a ring that was published, retired by frec_ring_retire() and waited
 * for with synchronize_rcu(): the store now, the struct once no call site
 * can be reading it ("Ring lifetime" above).
 */
static void frec_ring_release(struct frec_ring *ring)
{
	frec_ring_store_free(rcu_dereference_protected(ring->store, true));
	free_percpu(ring->base);
	call_rcu_tasks(&ring->rcu, frec_ring_free_struct); /* LMM(frec_ring_release:C) */
}

/* A ring, not yet listed; every error is logged with its value. */
static struct frec_ring *frec_ring_alloc(const char *name, enum frec_ring_kind kind,
					 unsigned long bytes_per_cpu,
					 unsigned int max_record_len)
{
	bool global_order = kind & FREC_RING_GLOBAL_ORDER;
	struct frec_ring_store *store;
	struct frec_ring *ring;
	bool later;

	kind &= ~FREC_RING_GLOBAL_ORDER;
	if (!name || !frec_ring_name_valid(name)) {
		pr_err("bad ring name '%.*s': use 1 to %d of [A-Za-z0-9_-]\n",
		       FREC_RING_NAME_MAX + 1, name ?: "(null)", FREC_RING_NAME_MAX);
		return ERR_PTR(-EINVAL);
	}
	if (kind != FREC_RING_EVENTS && kind != FREC_RING_RECORDS) {
		pr_err("ring %s: bad kind %d\n", name, kind);
		return ERR_PTR(-EINVAL);
	}
	if (kind == FREC_RING_EVENTS ? max_record_len : !max_record_len) {
		pr_err("ring %s: max_record_len %u does not fit its kind\n",
		       name, max_record_len);
		return ERR_PTR(-EINVAL);
	}
	if (max_record_len > FREC_RING_MAX_RECORD_LEN) {
		pr_err("ring %s: max_record_len %u is above %d\n",
		       name, max_record_len, FREC_RING_MAX_RECORD_LEN);
		return ERR_PTR(-EINVAL);
	}
	store = frec_ring_store_alloc(name, bytes_per_cpu, max_record_len, global_order,
				      0, &later);
	if (IS_ERR(store))
		return ERR_CAST(store);
	ring = kzalloc(sizeof(*ring), GFP_KERNEL);
	if (!ring) {
		frec_ring_store_discard(store);
		return ERR_PTR(-ENOMEM);
	}
	ring->base = alloc_percpu(struct frec_ring_totals);
	if (!ring->base) {
		frec_ring_store_discard(store);
		kfree(ring);
		return ERR_PTR(-ENOMEM);
	}
	RCU_INIT_POINTER(ring->store, store);
	strscpy(ring->name, name, sizeof(ring->name));
	ring->kind = kind;
	ring->max_record_len = max_record_len;
	ring->global_order = global_order;
	raw_spin_lock_init(&ring->gate_lock);
	ring->enabled = true;
	ring->level = FREC_LEVEL_DEFAULT;
	ring->gate.pass = FREC_LEVEL_DEFAULT;
	return ring;
}

/* Put @ring on the list; the caller checked its name is free.  frec_rings_rwsem held. */
static void frec_ring_list_add(struct frec_ring *ring)
{
	lockdep_assert_held_write(&frec_rings_rwsem);
	ring->id = ++frec_ring_next_id;
	list_add_tail_rcu(&ring->node, &frec_rings_list);
}

/*
 * Take @ring off the list; frec_rings_rwsem held for writing.  Free it only
 * after synchronize_rcu(): the console dump may be walking the list.
 */
static void frec_ring_unlist(struct frec_ring *ring)
{
	lockdep_assert_held_write(&frec_rings_rwsem);
	list_del_rcu(&ring->node);
}

/**
 * frec_ring_create() - create a named ring
 * @name: unique name, 1 to FREC_RING_NAME_MAX characters of [A-Za-z0-9_-].
 * @kind: FREC_RING_EVENTS or FREC_RING_RECORDS, optionally OR'ed with
 *	FREC_RING_GLOBAL_ORDER (records numbered by one counter all CPUs
 *	share).
 * @bytes_per_cpu: size of each CPU's part, a power of two from
 *	FREC_RING_MIN_BYTES (128) to FREC_RING_MAX_BYTES (1 GiB).
 * @max_record_len: longest payload of a record ring; 0 for an event ring.
 *
 * Each CPU gets its own part, so the ring takes @bytes_per_cpu times the
 * number of possible CPUs; a ring that would take more than half of the
 * memory available is refused, and an allocation that fails is an
 * -ENOMEM, never an OOM kill.  The ring records as soon as it is
 * returned, at level FREC_LEVEL_DEFAULT.
 *
 * Context: Process context; sleeps.
 * Return: the ring, or ERR_PTR(-EINVAL) for a bad name, kind or size,
 * ERR_PTR(-EEXIST) if the name is taken, ERR_PTR(-ENOMEM).  Every error
 * is also logged with the offending value.
 */
struct frec_ring *frec_ring_create(const char *name, enum frec_ring_kind kind,
				   unsigned long bytes_per_cpu,
				   unsigned int max_record_len)
{
	struct frec_ring *ring;

	ring = frec_ring_alloc(name, kind, bytes_per_cpu, max_record_len);
	if (IS_ERR(ring))
		return ring;
	mutex_lock(&frec_rings_admin_lock);
	down_write(&frec_rings_rwsem);
	if (frec_ring_find_locked(name)) {
		up_write(&frec_rings_rwsem);
		mutex_unlock(&frec_rings_admin_lock);
		pr_err("ring %s exists already\n", name);
		frec_ring_discard(ring);
		return ERR_PTR(-EEXIST);
	}
	frec_ring_list_add(ring);
	up_write(&frec_rings_rwsem);
	frec_hook_ring_added(ring);
	mutex_unlock(&frec_rings_admin_lock);
	return ring;
}
EXPORT_SYMBOL_GPL(frec_ring_create);

/**
 * frec_ring_destroy() - remove a ring and free it
 * @ring: a ring from frec_ring_create(); NULL, an error pointer, the
 *	default ring (which lives as long as frec) or a FREC_DEFINE_RING()
 *	ring (which lives as long as its module) is a no-op.
 *
 * Records already in progress into @ring on other CPUs when this is
 * called are waited for or dropped: frec_record() and frec_printk() load
 * the ring pointer and read its gate without sleeping, then write with
 * preemption disabled once they checked that the ring was not destroyed;
 * the store is freed after an RCU-sched grace period (which covers NMI
 * handlers too), and the ring itself after an RCU Tasks grace period, which
 * this does not wait for ("Ring lifetime" in frec_rings.c).  So a driver
 * may unpublish its ring pointer and destroy the ring at once:
 *
 *	WRITE_ONCE(dev->ring, NULL);	writers: frec_record(READ_ONCE(dev->ring), ...)
 *	frec_ring_destroy(ring);
 *
 * Calling into @ring after this returns, or through a pointer loaded
 * before a frec_record() call began, is the caller's bug.
 *
 * Context: Process context; sleeps.
 */
void frec_ring_destroy(struct frec_ring *ring)
{
	if (IS_ERR_OR_NULL(ring) || ring == frec_default || ring->static_def)
		return;
	/* Late writers that still pass the gate count their records as dropped. */
	frec_ring_set_enabled(ring, false);
	/* First, and unlocked: removal waits for the ring's files' users. */
	frec_hook_ring_removed(ring);
	mutex_lock(&frec_rings_admin_lock);
	down_write(&frec_rings_rwsem);
	frec_ring_unlist(ring);
	up_write(&frec_rings_rwsem);
	mutex_unlock(&frec_rings_admin_lock);
	/* After the files are gone: nothing enables the gate again. */
	frec_ring_retire(ring);
	synchronize_rcu();
	frec_ring_release(ring);
}
EXPORT_SYMBOL_GPL(frec_ring_destroy);

/**
 * frec_default_ring() - the ring named "default", for quick use
 *
 * Context: Any context.
 * Return: the default event ring; it exists while frec is loaded.
 */
struct frec_ring *frec_default_ring(void)
{
	return frec_default;
}
EXPORT_SYMBOL_GPL(frec_default_ring);

/**
 * frec_ring_adopt() - register the ring a FREC_DEFINE_RING() defines
 * @def: the definition, in a module being loaded.
 *
 * Takes over an orphan of the same name, kind and size (the records of an
 * earlier load of the module stay, and new ones follow); replaces an
 * orphan of another shape; otherwise creates the ring.
 *
 * Context: Process context; sleeps.
 * Return: the ring, or an ERR_PTR() as frec_ring_create() returns; a name
 * held by a live ring is -EEXIST.
 */
struct frec_ring *frec_ring_adopt(const struct frec_ring_def *def)
{
	struct frec_ring *ring, *old, *stale = NULL;

	ring = frec_ring_alloc(def->name, def->kind, def->bytes_per_cpu,
			       def->max_record_len);
	if (IS_ERR(ring))
		return ring;
	ring->static_def = def;

	mutex_lock(&frec_rings_admin_lock);
	down_write(&frec_rings_rwsem);
	old = frec_ring_find_locked(def->name);
	if (old && !old->orphan) {
		up_write(&frec_rings_rwsem);
		mutex_unlock(&frec_rings_admin_lock);
		pr_err("ring %s exists already\n", def->name);
		frec_ring_discard(ring);
		return ERR_PTR(-EEXIST);
	}
	if (old && old->kind == ring->kind && old->global_order == ring->global_order &&
	    frec_ring_store_locked(old)->bytes_per_cpu == def->bytes_per_cpu &&
	    old->max_record_len == def->max_record_len) {
		old->static_def = def;
		old->orphan = false;
		up_write(&frec_rings_rwsem);
		mutex_unlock(&frec_rings_admin_lock);
		frec_ring_discard(ring);
		return old;
	}
	if (old) {
		frec_ring_unlist(old);
		stale = old;
	}
	frec_ring_list_add(ring);
	up_write(&frec_rings_rwsem);
	if (!stale) {
		frec_hook_ring_added(ring);
		mutex_unlock(&frec_rings_admin_lock);
		return ring;
	}
	/*
	 * Unlocked: removing the orphan's files waits for their users, and
	 * a write to its order file takes the lock.  Nobody else reaches
	 * the new ring's name meanwhile: it is listed and not an orphan.
	 */
	mutex_unlock(&frec_rings_admin_lock);
	pr_info("ring %s: replacing the unloaded module's ring of another shape\n", def->name);
	frec_hook_ring_removed(stale);
	frec_ring_retire(stale);
	synchronize_rcu();
	frec_ring_release(stale);
	frec_hook_ring_added(ring);
	return ring;
}

/**
 * frec_ring_disown() - the module of a FREC_DEFINE_RING() ring unloads
 * @ring: the ring.
 *
 * The ring stays listed and readable, as an orphan.
 *
 * Context: Process context; sleeps.
 */
void frec_ring_disown(struct frec_ring *ring)
{
	down_write(&frec_rings_rwsem);
	ring->orphan = true;
	ring->static_def = NULL;
	up_write(&frec_rings_rwsem);
}

/**
 * frec_ring_find() - look a ring up by name
 * @name: the name.
 *
 * Context: Process context, frec_rings_rwsem held.
 * Return: the ring, or NULL.
 */
struct frec_ring *frec_ring_find(const char *name)
{
	return frec_ring_find_locked(name);
}

/* Add one CPU's counters of @store to @t. */
static void frec_ring_store_add_counts(struct frec_ring_store *store, int cpu,
				       struct frec_ring_totals *t)
{
	struct frec_rb_cpu *rc = per_cpu_ptr(store->cpus, cpu);
	int i;

	t->written += local_read(&rc->written);
	t->overwritten += local_read(&rc->overwritten);
	for (i = 0; i < FREC_DROP_NR; i++)
		t->dropped[i] += local_read(&rc->dropped[i]);
}

/* Records @store holds on @cpu; no writer may be left in it. */
static u64 frec_ring_store_count_readable(struct frec_ring_store *store, int cpu)
{
	struct frec_rb_cpu *rc = per_cpu_ptr(store->cpus, cpu);
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	u64 n = 0;

	frec_rb_cursor_init(&store->layout, rc, &cur);
	while (frec_rb_cursor_next(&store->layout, rc, &cur, &ent, NULL, 0))
		n++;
	return n;
}

/* Put @store in place of @ring's and retire the old one. */
static void frec_ring_swap_store(struct frec_ring *ring, struct frec_ring_store *store)
{
	struct frec_ring_store *old;
	struct frec_ring_totals *base;
	int cpu;

	down_write(&frec_rings_rwsem);
	old = frec_ring_store_locked(ring);
	rcu_assign_pointer(ring->store, store);
	ring->store_gen++;
	/* Its records are thrown away: the next boot must not show them. */
	frec_persist_parts_retire(old->persisted);
	/* Writers that loaded the old store (preemption off) are done after this. */
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		base = per_cpu_ptr(ring->base, cpu);
		base->cleared += frec_ring_store_count_readable(old, cpu);
		frec_ring_store_add_counts(old, cpu, base);
	}
	up_write(&frec_rings_rwsem);
	/* Its entry and parts in the region, for the next store of any ring. */
	frec_persist_parts_free(old->persisted);
	frec_ring_store_free(old);
}

/*
 * Give @ring a new, empty store of @bytes_per_cpu in @global_order; the
 * ring keeps its store and order on failure.  frec_rings_admin_lock held.
 */
static int frec_ring_resize_locked(struct frec_ring *ring, unsigned long bytes_per_cpu,
				   bool global_order)
{
	struct frec_ring_store *store;
	unsigned int old;
	bool later;

	lockdep_assert_held(&frec_rings_admin_lock);
	down_read(&frec_rings_rwsem);
	old = frec_ring_store_locked(ring)->persisted;
	up_read(&frec_rings_rwsem);
	store = frec_ring_store_alloc(ring->name, bytes_per_cpu, ring->max_record_len,
				      global_order, old, &later);
	if (IS_ERR(store))
		return PTR_ERR(store);
	ring->global_order = global_order;
	frec_ring_swap_store(ring, store);
	if (!later)
		return 0;
	/*
	 * The region had room for the new store only with the old one's
	 * parts, which writers could still be in until the swap's grace
	 * period: the ring went on in ordinary memory meanwhile, and takes
	 * those parts now.  A ring being created or adopted takes its store
	 * before this lock, so it may take them first: this store is then
	 * not persisted, and the log says so.  The records written in
	 * between were written during this call: thrown away and counted
	 * as cleared, as a clear may count them.
	 */
	store = frec_ring_store_alloc(ring->name, bytes_per_cpu, ring->max_record_len,
				      global_order, 0, &later);
	if (IS_ERR(store))
		return 0;	/* logged; the ring keeps its ordinary store */
	if (!store->persisted) {
		frec_ring_store_free(store);
		return 0;
	}
	frec_ring_swap_store(ring, store);
	return 0;
}

/**
 * frec_ring_resize() - give a ring another size, while writers go on
 * @ring: the ring.
 * @bytes_per_cpu: the new size of each CPU's part, as for
 *	frec_ring_create().
 *
 * The records the ring holds are thrown away and counted as cleared;
 * records written during the resize land in the old or the new store and
 * are counted either way.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL for a bad size (logged), -ENOMEM.
 */
int frec_ring_resize(struct frec_ring *ring, unsigned long bytes_per_cpu)
{
	int err;

	/* One store change of a ring at a time: each takes the ring's order. */
	mutex_lock(&frec_rings_admin_lock);
	err = frec_ring_resize_locked(ring, bytes_per_cpu, ring->global_order);
	mutex_unlock(&frec_rings_admin_lock);
	return err;
}

/* Clear @ring into @global_order; frec_rings_admin_lock held. */
static int frec_ring_clear_locked(struct frec_ring *ring, bool global_order)
{
	unsigned long bytes;

	down_read(&frec_rings_rwsem);
	bytes = frec_ring_store_locked(ring)->bytes_per_cpu;
	up_read(&frec_rings_rwsem);
	return frec_ring_resize_locked(ring, bytes, global_order);
}

/**
 * frec_ring_set_order() - number a ring's records per CPU or globally
 * @ring: the ring.
 * @global_order: take seqs from the counter all CPUs share (true) or from
 *	each CPU's own (false).
 *
 * The two kinds of seq cannot share a part, so a change clears the ring,
 * as a resize clears it (records written meanwhile are counted either
 * way).  Asking for the order the ring has changes nothing.
 *
 * Context: Process context; sleeps.
 * Return: 0 or -ENOMEM (the ring is then left as it was).
 */
int frec_ring_set_order(struct frec_ring *ring, bool global_order)
{
	int err = 0;

	/*
	 * The order is read, and changed only with a new store, under the
	 * lock: a failed change leaves no trace for a racing one to restore.
	 */
	mutex_lock(&frec_rings_admin_lock);
	if (ring->global_order != global_order)
		err = frec_ring_clear_locked(ring, global_order);
	mutex_unlock(&frec_rings_admin_lock);
	return err;
}

/**
 * frec_ring_clear() - throw away what a ring holds, while writers go on
 * @ring: the ring.
 *
 * Context: Process context; sleeps.
 * Return: 0 or -ENOMEM (the ring is then left as it was).
 */
int frec_ring_clear(struct frec_ring *ring)
{
	int err;

	mutex_lock(&frec_rings_admin_lock);
	err = frec_ring_clear_locked(ring, ring->global_order);
	mutex_unlock(&frec_rings_admin_lock);
	return err;
}

/**
 * frec_rings_clear_all() - clear every ring
 *
 * Context: Process context; sleeps.
 * Return: 0, or the first error of a ring that could not be cleared.
 */
int frec_rings_clear_all(void)
{
	struct frec_ring *ring;
	int err, ret = 0;

	mutex_lock(&frec_rings_admin_lock);
	list_for_each_entry(ring, &frec_rings_list, node) {
		err = frec_ring_clear_locked(ring, ring->global_order);
		if (err && !ret)
			ret = err;
	}
	mutex_unlock(&frec_rings_admin_lock);
	return ret;
}

/**
 * frec_ring_totals() - one CPU's counts of a ring since it was created
 * @ring: the ring.
 * @cpu: the CPU.
 * @t: filled with the counts.
 *
 * Context: Process context, frec_rings_rwsem held.
 */
void frec_ring_totals(struct frec_ring *ring, int cpu, struct frec_ring_totals *t)
{
	*t = *per_cpu_ptr(ring->base, cpu);
	frec_ring_store_add_counts(frec_ring_store_locked(ring), cpu, t);
}

/**
 * frec_rings_for_each() - call @fn on every ring, with the ring list locked
 * @fn: the function; it may sleep but not create, destroy, resize or
 *	clear rings.
 * @data: passed to @fn.
 *
 * Context: Process context; sleeps.
 */
void frec_rings_for_each(void (*fn)(struct frec_ring *ring, void *data), void *data)
{
	struct frec_ring *ring;

	down_read(&frec_rings_rwsem);
	list_for_each_entry(ring, &frec_rings_list, node)
		fn(ring, data);
	up_read(&frec_rings_rwsem);
}

/* Create the default ring; called when frec loads. */
int frec_rings_init(void)
{
	/* Call sites read the gate through the client's opaque pointer. */
	BUILD_BUG_ON(offsetof(struct frec_ring, gate) != 0);

	struct frec_ring *ring;

	ring = frec_ring_create("default", FREC_RING_EVENTS, default_ring_bytes, 0);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	frec_default = ring;
	return 0;
}

/* Free every ring left; called when frec unloads (clients are gone). */
void frec_rings_exit(void)
{
	struct frec_ring *ring, *next;

	/* Clients are gone (they depend on frec): nothing changes the list. */
	list_for_each_entry_safe(ring, next, &frec_rings_list, node) {
		frec_hook_ring_removed(ring);
		down_write(&frec_rings_rwsem);
		frec_ring_unlist(ring);
		up_write(&frec_rings_rwsem);
		synchronize_rcu();
		frec_ring_free(ring);
	}
	frec_default = NULL;
	/* Destroyed rings still waiting for RCU Tasks: frec's code frees them. */
	rcu_barrier_tasks();
}
