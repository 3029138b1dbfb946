// SPDX-License-Identifier: GPL-2.0
/*
 * frec_rings.c - named rings: create, look up, destroy, and the record
 * entry points clients call.
 *
 * Rings live on one list under frec_rings_lock (a mutex: creation and
 * destruction sleep, allocating).  The record path never touches the list:
 * a client holds its ring's pointer, and a ring is freed only when its
 * owner destroys it, after which the owner must not record into it.
 *
 * A static ring (FREC_DEFINE_RING(), registered by frec_static_rings.c) is
 * never freed when its module unloads: it becomes an orphan, still listed
 * and readable, and the next module to define a ring of the same name and
 * shape adopts it and records on after the old records.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <frec.h>

#include "frec_ring.h"
#include "frec_rings.h"

DEFINE_STATIC_KEY_TRUE(frec_enabled_key);
EXPORT_SYMBOL_GPL(frec_enabled_key);

static LIST_HEAD(frec_rings);
static DEFINE_MUTEX(frec_rings_lock);
static struct frec_ring *frec_default;

static unsigned long default_ring_bytes = 64 * 1024;
module_param(default_ring_bytes, ulong, 0444);
MODULE_PARM_DESC(default_ring_bytes,
		 "bytes per CPU of the default ring (a power of two, at least 128)");

/* A name is 1..FREC_RING_NAME_MAX of [A-Za-z0-9_-], usable as a file name. */
static bool frec_ring_name_valid(const char *name)
{
	size_t i, len = strnlen(name, FREC_RING_NAME_MAX + 1);

	if (!len || len > FREC_RING_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

static struct frec_ring *frec_ring_find_locked(const char *name)
{
	struct frec_ring *ring;

	lockdep_assert_held(&frec_rings_lock);
	list_for_each_entry(ring, &frec_rings, node)
		if (!strcmp(ring->name, name))
			return ring;
	return NULL;
}

/* Recompute the gate call sites test, from @enabled and @level. */
static void frec_ring_update_gate(struct frec_ring *ring)
{
	lockdep_assert_held(&ring->gate_lock);
	WRITE_ONCE(ring->gate.pass, ring->enabled ? ring->level : 0);
}

static void frec_ring_free(struct frec_ring *ring)
{
	int cpu;

	if (ring->cpus)
		for_each_possible_cpu(cpu)
			vfree(per_cpu_ptr(ring->cpus, cpu)->slots);
	free_percpu(ring->cpus);
	kfree(ring);
}

/* A ring, not yet listed; every error is logged with its value. */
static struct frec_ring *frec_ring_alloc(const char *name, enum frec_ring_kind kind,
					 unsigned long bytes_per_cpu,
					 unsigned int max_record_len)
{
	struct frec_ring *ring;
	struct frec_slot *slots;
	unsigned long nr_slots;
	int cpu, err;

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
	nr_slots = bytes_per_cpu / FREC_SLOT_BYTES;
	if (bytes_per_cpu % FREC_SLOT_BYTES || !is_power_of_2(nr_slots) ||
	    nr_slots < 2) {
		pr_err("ring %s: bad size %lu bytes per CPU: want a power of two >= %d\n",
		       name, bytes_per_cpu, 2 * FREC_SLOT_BYTES);
		return ERR_PTR(-EINVAL);
	}

	ring = kzalloc(sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return ERR_PTR(-ENOMEM);
	strscpy(ring->name, name, sizeof(ring->name));
	ring->kind = kind;
	ring->bytes_per_cpu = bytes_per_cpu;
	raw_spin_lock_init(&ring->gate_lock);
	err = frec_ring_init(&ring->layout, nr_slots, max_record_len, false);
	if (err) {
		pr_err("ring %s: %u-byte records do not fit in %lu bytes per CPU\n",
		       name, max_record_len, bytes_per_cpu);
		kfree(ring);
		return ERR_PTR(err);
	}
	ring->cpus = alloc_percpu(struct frec_ring_cpu);
	if (!ring->cpus)
		goto nomem;
	for_each_possible_cpu(cpu) {
		slots = vzalloc_node(bytes_per_cpu, cpu_to_node(cpu));
		if (!slots)
			goto nomem;
		frec_ring_cpu_init(per_cpu_ptr(ring->cpus, cpu), slots, &ring->layout);
	}
	ring->enabled = true;
	ring->level = FREC_LEVEL_DEFAULT;
	ring->gate.pass = FREC_LEVEL_DEFAULT;
	return ring;

nomem:
	pr_err("ring %s: cannot allocate %lu bytes per CPU\n", name, bytes_per_cpu);
	frec_ring_free(ring);
	return ERR_PTR(-ENOMEM);
}

/**
 * frec_ring_create() - create a named ring
 * @name: unique name, 1 to FREC_RING_NAME_MAX characters of [A-Za-z0-9_-].
 * @kind: FREC_RING_EVENTS or FREC_RING_RECORDS.
 * @bytes_per_cpu: size of each CPU's part, a power of two of at least two
 *	slots (128 bytes).
 * @max_record_len: longest payload of a record ring; 0 for an event ring.
 *
 * Each CPU gets its own part, so the ring takes @bytes_per_cpu times the
 * number of possible CPUs.  The ring records as soon as it is returned,
 * at level FREC_LEVEL_DEFAULT.
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
	mutex_lock(&frec_rings_lock);
	if (frec_ring_find_locked(name)) {
		mutex_unlock(&frec_rings_lock);
		pr_err("ring %s exists already\n", name);
		frec_ring_free(ring);
		return ERR_PTR(-EEXIST);
	}
	list_add_tail(&ring->node, &frec_rings);
	mutex_unlock(&frec_rings_lock);
	return ring;
}
EXPORT_SYMBOL_GPL(frec_ring_create);

/**
 * frec_ring_destroy() - remove a ring and free it
 * @ring: a ring from frec_ring_create(); NULL, an error pointer, the
 *	default ring (which lives as long as frec) or a FREC_DEFINE_RING()
 *	ring (which lives as long as its module) is a no-op.
 *
 * The caller must make sure nothing records into @ring any more.
 *
 * Context: Process context; sleeps.
 */
void frec_ring_destroy(struct frec_ring *ring)
{
	if (IS_ERR_OR_NULL(ring) || ring == frec_default || ring->static_def)
		return;
	mutex_lock(&frec_rings_lock);
	list_del(&ring->node);
	mutex_unlock(&frec_rings_lock);
	frec_ring_free(ring);
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

/* Is @ring storing?  If not, count the record @rc drops.  Preemption off. */
static bool frec_ring_accepts(struct frec_ring *ring, struct frec_ring_cpu *rc)
{
	if (likely(READ_ONCE(ring->enabled)))
		return true;
	frec_ring_count_drop(rc, FREC_DROP_DISABLED);
	return false;
}

/**
 * __frec_record() - store a fixed-size event; use frec_record()
 * @ring: an event ring.
 * @fmt: the format (its address is stored).
 * @caller: the caller's address.
 * @a0: first argument.
 * @a1: second argument.
 * @a2: third argument.
 * @a3: fourth argument.
 *
 * Context: Any context, NMI included.
 * Return: 0 if stored; -ENOSPC if dropped (counted in the ring's stats),
 * -EINVAL if @ring is not an event ring.
 */
int __frec_record(struct frec_ring *ring, const char *fmt,
		  unsigned long caller, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3)
{
	unsigned long args[FREC_RECORD_MAX_ARGS] = { a0, a1, a2, a3 };
	struct frec_ring_cpu *rc;
	int ret = -ENOSPC;

	preempt_disable_notrace();
	rc = this_cpu_ptr(ring->cpus);
	if (frec_ring_accepts(ring, rc))
		ret = frec_ring_write_event(&ring->layout, rc, (unsigned long)fmt,
					    caller, args);
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_GPL(__frec_record);

/**
 * __frec_printk() - format a message into a record ring; use frec_printk()
 * @ring: a record ring.
 * @caller: the caller's address.
 * @fmt: printf format.
 * @...: its arguments.
 *
 * Context: Any context, NMI included.
 * Return: 0 if stored; -ENOSPC if dropped (counted in the ring's stats),
 * -EINVAL if @ring is an event ring.
 */
int __frec_printk(struct frec_ring *ring, unsigned long caller,
		  const char *fmt, ...)
{
	char text[FREC_PRINTK_MAX + 1];
	struct frec_ring_cpu *rc;
	unsigned int size;
	va_list ap;
	int len, ret = -ENOSPC;

	if (unlikely(ring->kind != FREC_RING_RECORDS))
		return -EINVAL;
	size = min_t(unsigned int, sizeof(text), ring->layout.max_record_len + 1);
	preempt_disable_notrace();
	rc = this_cpu_ptr(ring->cpus);
	if (frec_ring_accepts(ring, rc)) {
		va_start(ap, fmt);
		len = vscnprintf(text, size, fmt, ap);
		va_end(ap);
		ret = frec_ring_write_record(&ring->layout, rc, 0, caller, text, len);
	}
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_GPL(__frec_printk);

/**
 * frec_ring_set_enabled() - start or stop storing records in a ring
 * @ring: the ring.
 * @enabled: store records (true) or drop and count them (false).
 *
 * A disabled ring costs a call site a static branch and one load (see
 * frec_ring_passes()); what it holds stays readable.
 *
 * Context: Any context but NMI.
 */
void frec_ring_set_enabled(struct frec_ring *ring, bool enabled)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ring->gate_lock, flags);
	WRITE_ONCE(ring->enabled, enabled);
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

	mutex_lock(&frec_rings_lock);
	old = frec_ring_find_locked(def->name);
	if (old && !old->orphan) {
		mutex_unlock(&frec_rings_lock);
		pr_err("ring %s exists already\n", def->name);
		frec_ring_free(ring);
		return ERR_PTR(-EEXIST);
	}
	if (old && old->kind == def->kind && old->bytes_per_cpu == def->bytes_per_cpu &&
	    old->layout.max_record_len == def->max_record_len) {
		old->static_def = def;
		old->orphan = false;
		mutex_unlock(&frec_rings_lock);
		frec_ring_free(ring);
		return old;
	}
	if (old) {
		list_del(&old->node);
		stale = old;
	}
	list_add_tail(&ring->node, &frec_rings);
	mutex_unlock(&frec_rings_lock);
	if (stale) {
		pr_info("ring %s: replacing the unloaded module's ring of another shape\n",
			def->name);
		frec_ring_free(stale);
	}
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
	mutex_lock(&frec_rings_lock);
	ring->orphan = true;
	ring->static_def = NULL;
	mutex_unlock(&frec_rings_lock);
}

/**
 * frec_rings_for_each() - call @fn on every ring, with the ring list locked
 * @fn: the function; it may sleep but not create or destroy rings.
 * @data: passed to @fn.
 *
 * Context: Process context; sleeps.
 */
void frec_rings_for_each(void (*fn)(struct frec_ring *ring, void *data), void *data)
{
	struct frec_ring *ring;

	mutex_lock(&frec_rings_lock);
	list_for_each_entry(ring, &frec_rings, node)
		fn(ring, data);
	mutex_unlock(&frec_rings_lock);
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

	mutex_lock(&frec_rings_lock);
	list_for_each_entry_safe(ring, next, &frec_rings, node) {
		list_del(&ring->node);
		frec_ring_free(ring);
	}
	frec_default = NULL;
	mutex_unlock(&frec_rings_lock);
}
