/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec - a printk-style flight recorder for the Linux kernel.
 *
 * This is the header a client driver includes.  Build the driver with
 * frec's include/ directory on its include path and frec's Module.symvers
 * in KBUILD_EXTRA_SYMBOLS (see README.md).
 *
 * A ring is created by name and records into it are cheap enough to leave
 * on: frec_record() stores a fixed-size event (its call site's number, up
 * to four arguments, the caller, a timestamp and a sequence number),
 * formatted only when someone reads the ring.  Every call site can be
 * switched off or given another level at run time (debugfs frec/control).
 */
#ifndef _FREC_H
#define _FREC_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/sizes.h>

/* Version of the client API declared in this header. */
#define FREC_API_VERSION_MAJOR	0
#define FREC_API_VERSION_MINOR	7

/* Longest ring name, not counting the NUL. */
#define FREC_RING_NAME_MAX	31

/*
 * Size of one CPU's part of a ring, in bytes: a power of two in this
 * range.  A ring takes that times the number of possible CPUs, and is
 * refused (-ENOMEM) if that is more than half of the memory available.
 */
#define FREC_RING_MIN_BYTES	128UL
#define FREC_RING_MAX_BYTES	((unsigned long)SZ_1G)

/* Arguments frec_record() stores after the format. */
#define FREC_RECORD_MAX_ARGS	4

/* Longest text frec_printk() stores; longer messages are cut. */
#define FREC_PRINTK_MAX		256

/* What a ring holds. */
enum frec_ring_kind {
	FREC_RING_EVENTS,	/* fixed-size events: frec_record() */
	FREC_RING_RECORDS,	/* variable-size records: frec_printk() */
};

/*
 * OR'ed into the kind given to frec_ring_create() or FREC_DEFINE_RING():
 * the ring numbers its records from one counter shared by every CPU, a
 * total order of its own (a dump of such rings only is merged by it), at
 * the price of a cache line every recording CPU writes.  Without it each
 * CPU numbers its own records and readers merge by timestamp (doc/debugfs.md,
 * "Order").  debugfs rings/<name>/order switches a ring either way.
 */
#define FREC_RING_GLOBAL_ORDER	0x100

/*
 * Levels, most important first.  A call site records at a level (
 * frec_record() and frec_printk() at FREC_LEVEL_INFO) and a ring stores
 * what is at or below its own level, set at run time (debugfs
 * rings/<name>/level, or frec_ring_set_level()).  Like a trace's
 * application, packet and library priorities, it lets a frequent, detailed
 * call site stay in the code at no cost until someone needs it.
 */
enum frec_level {
	FREC_LEVEL_ERR = 1,	/* something went wrong */
	FREC_LEVEL_WARN,	/* something unusual */
	FREC_LEVEL_INFO,	/* the default: what the driver does */
	FREC_LEVEL_DEBUG,	/* detail, off unless asked for */
	FREC_LEVEL_TRACE,	/* very frequent detail (per packet, per IRQ) */
	FREC_LEVEL_MAX = FREC_LEVEL_TRACE
};

/* A new ring's level. */
#define FREC_LEVEL_DEFAULT	FREC_LEVEL_INFO

/*
 * The one field of a ring a call site reads, inline, before it calls into
 * frec: a record of level L is stored only if L <= @pass.  @pass is 0
 * while the ring is disabled.  Every struct frec_ring starts with it.
 */
struct frec_ring_gate {
	unsigned int pass;
};

struct frec_ring;

/* Off while frec as a whole is disabled (debugfs frec/enable). */
DECLARE_STATIC_KEY_TRUE(frec_enabled_key);

/* struct frec_site.level of a site switched off (debugfs frec/control). */
#define FREC_SITE_OFF	(~0U)

/**
 * struct frec_site - one call of frec_record() or frec_printk() in the code
 * @level: the level the site's records are taken at, or FREC_SITE_OFF: the
 *	one word a call site reads before it looks at its ring.
 * @id: frec's number for the site, what its records store (0 until frec
 *	registered it; kmod/core/frec_sites.c has the other values).
 * @caller: the caller address of the site's first record, 0 before.
 * @ring_id: the id of the ring of the site's first record, 0 before.
 * @fmt: the format.
 * @file: the source file.
 * @func: the function the call is written in.
 * @modname: the module.
 * @line: the line.
 * @code_level: the level written at the call.
 * @set_level: the level debugfs frec/control gave it (@code_level first),
 *	which @level holds while the site is on.
 * @flags: frec's, for the site's registration.
 * @printk_plan: frec's, of a frec_printk() site: how it stores its
 *	arguments, worked out from @fmt on its first call.
 * @span_hist: frec's, of a span's end: its latency histogram's per-CPU
 *	counts (NULL until it has one).
 * @span_threshold_inv: frec's, of a span's end: the bitwise complement of
 *	the threshold of a trigger armed on it, 0 if none; a span longer
 *	than ~@span_threshold_inv fires it (one load and compare).
 *
 * Each expansion of frec_record_level() and frec_printk_level() defines
 * one, static: frec finds a module's sites when the module loads (by
 * their symbol name, __frec_site), or when the site first runs, and keeps
 * their texts when the module goes.  Only frec writes it.  A site written
 * by hand (a test's) must be static data of its module, as the macros'
 * are: frec keeps a pointer to it until the module goes.
 */
struct frec_site {
	unsigned int level;
	unsigned int id;
	unsigned long caller;
	unsigned long ring_id;
	const char *fmt;
	const char *file;
	const char *func;
	const char *modname;
	unsigned int line;
	unsigned char code_level;
	unsigned char set_level;
	unsigned short flags;
	union {
		unsigned long printk_plan;
		void __percpu *span_hist;
	};
	u64 span_threshold_inv;
};

/*
 * Define this expansion's site: @lvl must be a constant (enum frec_level),
 * @format a literal.  The name is the prefix frec looks for.  A level
 * outside FREC_LEVEL_ERR..FREC_LEVEL_TRACE is refused here: 0 would pass
 * a disabled ring's gate (0), and neither control, sites nor frec-decode
 * can name such a level.
 */
#define __frec_site_define(lvl, format)					\
	__frec_site_define_named(__frec_site, lvl, format)

/* The same, named @name: a name that starts with __frec_site. */
#define __frec_site_define_named(name, lvl, format)			\
	static struct frec_site name __used __aligned(sizeof(long)) = {	\
		.level = (lvl), .code_level = (lvl), .set_level = (lvl),	\
		.fmt = "" format, .file = __FILE__, .func = __func__,	\
		.modname = KBUILD_MODNAME, .line = __LINE__,		\
	};								\
	static_assert((lvl) >= FREC_LEVEL_ERR && (lvl) <= FREC_LEVEL_TRACE, \
		      "frec: level must be FREC_LEVEL_ERR to FREC_LEVEL_TRACE")

/**
 * frec_ring_passes() - whether a record of @level would be stored in @ring
 * @ring: a ring, or NULL (a static ring that failed to register).
 * @level: enum frec_level.
 *
 * The ring's part of what frec_record() and frec_printk() test before
 * they call into frec (after their call site's level): a static branch
 * and one load.
 *
 * Context: Any context.  @ring must stay valid: see frec_ring_destroy().
 * Return: true unless frec or @ring is disabled, @ring is NULL or @level
 * is above the ring's level.
 */
static __always_inline bool frec_ring_passes(const struct frec_ring *ring,
					     unsigned int level)
{
	return static_branch_likely(&frec_enabled_key) && likely(ring) &&
	       READ_ONCE(((const struct frec_ring_gate *)ring)->pass) >= level;
}

/*
 * The body of every record call, for the site __frec_site: with frec
 * enabled and the site on, evaluate @ring_expr (load the ring pointer) and
 * read the ring's gate with preemption on; only if the gate passes the
 * site's level, turn preemption off and evaluate @call (and with it the
 * arguments), which names the ring __frec_r.  A site switched off costs
 * the static branch and one load; a disabled ring two loads more (the ring
 * pointer and its gate).  The barrier keeps the compiler from testing a
 * ring it already holds in a register before the site's level, which
 * would make a switched-off site pay for the ring test too.
 *
 * From @ring_expr to the end of @call the caller must not sleep:
 * frec_ring_destroy() frees the ring's struct only after an RCU Tasks
 * grace period (which waits for a task preempted anywhere in here), and
 * the record path checks, with preemption off, that the ring was not
 * destroyed meanwhile ("Ring lifetime" in kmod/core/frec_rings.c).  Yields the
 * call's return value, or -ENOENT if filtered.
 */
#define __frec_gated_call(ring_expr, call)				\
	__frec_gated_call_site(&__frec_site, ring_expr, call)

/* The same for the site @site points to. */
#define __frec_gated_call_site(site, ring_expr, call)			\
	({								\
		int __frec_ret = -ENOENT;				\
		if (static_branch_likely(&frec_enabled_key)) {		\
			unsigned int __frec_lvl = READ_ONCE((site)->level); \
			const struct frec_ring_gate *__frec_gate;	\
			struct frec_ring *__frec_r;			\
			if (likely(__frec_lvl != FREC_SITE_OFF)) {	\
				barrier();				\
				__frec_r = (ring_expr);			\
				__frec_gate = (const void *)__frec_r;	\
				if (likely(__frec_gate) &&		\
				    READ_ONCE(__frec_gate->pass) >= __frec_lvl) { \
					preempt_disable_notrace();	\
					__frec_ret = (call);		\
					preempt_enable_notrace();	\
				}					\
			}						\
		}							\
		__frec_ret;						\
	})

/**
 * struct frec_ring_def - a ring a module defines with FREC_DEFINE_RING()
 * @name: the ring's name.
 * @kind: what it holds.
 * @bytes_per_cpu: size of each CPU's part.
 * @max_record_len: longest record of a record ring, 0 for an event ring.
 * @ring: the ring while the module is loaded and the ring registered;
 *	NULL before, after, and if registering failed (logged).
 */
struct frec_ring_def {
	const char *name;
	enum frec_ring_kind kind;
	unsigned long bytes_per_cpu;
	unsigned int max_record_len;
	struct frec_ring *ring;
};

/* frec finds a module's definitions by this symbol prefix. */
#define FREC_RING_DEF_PREFIX	"__frec_ring_def_"

/**
 * FREC_DEFINE_RING() - define a ring that lives as long as the module
 * @id: a C identifier, also the ring's name.
 * @ring_kind: FREC_RING_EVENTS or FREC_RING_RECORDS, optionally OR'ed with
 *	FREC_RING_GLOBAL_ORDER.
 * @bytes: bytes per CPU, a power of two of at least 128.
 * @max_len: longest record of a record ring, 0 for an event ring.
 *
 * frec registers the ring when the module loads, before its init function
 * runs, and unregisters it when the module unloads; the records stay
 * readable until the ring is registered again by the next load of a
 * module defining a ring of that name, kind and size, which goes on
 * recording into it.  Record into it with FREC_RING(@id).  frec must be
 * loaded first (the module depends on it).  A clash or bad size is
 * logged and leaves FREC_RING(@id) NULL, which records nothing.
 */
#define FREC_DEFINE_RING(id, ring_kind, bytes, max_len)			\
	static struct frec_ring_def __frec_ring_def_##id __used		\
	__aligned(sizeof(void *)) = {					\
		.name = #id, .kind = (ring_kind), .bytes_per_cpu = (bytes),	\
		.max_record_len = (max_len),				\
	}

/* The ring FREC_DEFINE_RING(@id, ...) defined (NULL when not registered). */
#define FREC_RING(id)	READ_ONCE(__frec_ring_def_##id.ring)

struct frec_ring *frec_ring_create(const char *name, enum frec_ring_kind kind,
				   unsigned long bytes_per_cpu,
				   unsigned int max_record_len);
void frec_ring_destroy(struct frec_ring *ring);
struct frec_ring *frec_default_ring(void);
int frec_console_dump(const char *reason);
void frec_ring_set_enabled(struct frec_ring *ring, bool enabled);
bool frec_ring_enabled(struct frec_ring *ring);
int frec_ring_set_level(struct frec_ring *ring, unsigned int level);
unsigned int frec_ring_level(struct frec_ring *ring);

int __frec_record(struct frec_ring *ring, struct frec_site *site,
		  unsigned long caller, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3);

__printf(4, 5) int __frec_printk(struct frec_ring *ring, struct frec_site *site,
				 unsigned long caller, const char *fmt, ...);

/* Never called: lets the compiler check arguments against the format. */
static inline __printf(1, 2) void __frec_check_format(const char *fmt, ...)
{
}

/*
 * An argument as the word frec stores.  Measured after the conversions a
 * function call applies, which "0 ? (x) : (x)" applies too: an array (a
 * string literal, a char name[16] field) decays to its address, a
 * function to its pointer.  Only values really wider than a word (a
 * struct, a 128-bit integer) are refused.
 */
#define __frec_arg(x)							\
	({								\
		BUILD_BUG_ON_MSG(sizeof(0 ? (x) : (x)) > sizeof(unsigned long), \
				 "frec_record() argument wider than unsigned long"); \
		(unsigned long)(x);					\
	})

#define __frec_record_call(ring, site, caller, a, b, c, d, ...)	\
	__frec_record(ring, site, caller, __frec_arg(a), __frec_arg(b),	\
		      __frec_arg(c), __frec_arg(d))

/**
 * frec_record_level() - record a fixed-size event at a level
 * @ring: the ring, from frec_ring_create(), FREC_RING() or
 *	frec_default_ring().
 * @level: enum frec_level, a constant from FREC_LEVEL_ERR to
 *	FREC_LEVEL_TRACE (another value is a build error); the event is
 *	stored only if the ring's level is at least this (or at least the
 *	level debugfs frec/control gave the call site).
 * @fmt: a printf format, a literal.
 * @...: up to four arguments, each no wider than unsigned long.
 *
 * Stores the call site's number and the arguments, not the text: the text
 * is formatted when the ring is read.  A %s argument is read at that time
 * too, so it must point to a string that outlives the record (a literal);
 * copy other strings with frec_printk().  The format is checked against
 * the arguments at compile time: a mismatch, more than four arguments or
 * an argument wider than unsigned long is a build error.  When frec is
 * disabled or the call site switched off, this costs a static branch and
 * a load; when the ring is disabled or @level is filtered out, two loads
 * more (the ring pointer and the ring's gate).  Either way it is not
 * counted and the arguments are not evaluated.  They are evaluated with
 * preemption disabled: they must not sleep.  @ring must not sleep either:
 * a write that loads it here (FREC_RING(), or READ_ONCE() of a driver's
 * pointer) is one frec_ring_destroy() waits for, or drops.
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: 0 if stored, -ENOENT if filtered out, another negative errno if
 * dropped (and counted in the ring's stats).
 */
#define frec_record_level(ring, level, fmt, ...)			\
	({								\
		static_assert(COUNT_ARGS(__VA_ARGS__) <= FREC_RECORD_MAX_ARGS, \
			      "frec_record() takes at most 4 arguments"); \
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic error \"-Wformat\"")		\
		if (0)							\
			__frec_check_format(fmt, ##__VA_ARGS__);	\
		_Pragma("GCC diagnostic pop")				\
		__frec_site_define(level, fmt);				\
		__frec_gated_call(ring,					\
				  __frec_record_call(__frec_r, &__frec_site, \
						     _THIS_IP_, ##__VA_ARGS__, \
						     0, 0, 0, 0));	\
	})

/**
 * frec_record() - record a fixed-size event at FREC_LEVEL_INFO
 * @ring: the ring.
 * @fmt: a printf format that lives as long as the module (a literal).
 * @...: up to four arguments, each no wider than unsigned long.
 *
 * See frec_record_level().
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: 0 if stored, -ENOENT if filtered out, another negative errno if
 * dropped (and counted).
 */
#define frec_record(ring, fmt, ...)					\
	frec_record_level(ring, FREC_LEVEL_INFO, fmt, ##__VA_ARGS__)

/**
 * frec_printk_level() - record a formatted message at a level
 * @ring: a record ring (FREC_RING_RECORDS).
 * @level: enum frec_level, a constant, as for frec_record_level().
 * @fmt: a printf format, a literal, formatted now (unlike frec_record()).
 * @...: its arguments.
 *
 * The message (at most the ring's max_record_len and FREC_PRINTK_MAX
 * bytes; longer messages are cut) is stored as its arguments, %s strings
 * copied, and formatted when read, as trace_printk() does; a format with
 * a %p of any kind or a length q, j or Z (vsnprintf() stops at those), or
 * a string too long for the record, is formatted now and stored as text.  Either way %s may point
 * to any string, and the dump prints what vsnprintf() would print now.
 * A format that does not match its arguments is a build error.  The
 * arguments are not evaluated when the record is filtered out, and are
 * evaluated with preemption disabled (they must not sleep), as for
 * frec_record_level().
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: 0 if stored, -ENOENT if filtered out, -EINVAL if @ring is an
 * event ring, another negative errno if dropped (and counted).
 */
#define frec_printk_level(ring, level, fmt, ...)			\
	({								\
		int __frec_pret;					\
		__frec_site_define(level, fmt);				\
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic error \"-Wformat\"")		\
		__frec_pret = __frec_gated_call(ring,			\
				__frec_printk(__frec_r, &__frec_site,	\
					      _THIS_IP_, fmt, ##__VA_ARGS__)); \
		_Pragma("GCC diagnostic pop")				\
		__frec_pret;						\
	})

/**
 * frec_printk() - record a formatted message at FREC_LEVEL_INFO
 * @ring: a record ring (FREC_RING_RECORDS).
 * @fmt: a printf format, formatted now.
 * @...: its arguments.
 *
 * See frec_printk_level().
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: 0 if stored, -ENOENT if filtered out, -EINVAL if @ring is an
 * event ring, another negative errno if dropped (and counted).
 */
#define frec_printk(ring, fmt, ...)					\
	frec_printk_level(ring, FREC_LEVEL_INFO, fmt, ##__VA_ARGS__)

/*
 * Spans: how long something took.  frec_span_begin() records an event and
 * returns a token; frec_span_end() with that token records another, which
 * carries the span's duration (the end's timestamp minus the begin's) and
 * names the begin record (its CPU and seq).  Both are call sites like any
 * (control, sites); their formats start with a byte that says which end
 * they are, __FREC_SPAN_BEGIN_FMT or __FREC_SPAN_END_FMT (uapi/frec_raw.h,
 * "Spans", has the stored words).  The dump prints a begin as "> " and its
 * message, an end as "< ", its message and "dur=<ns>ns span=<cpu>/<seq>".
 *
 * Context and clocks: both ends record from any context frec_record()
 * does, NMI included, and may be on two CPUs (the task migrated, or a
 * work item began on one CPU and completed on another).  The duration is
 * the difference of the two records' timestamps, local_clock() raised to
 * keep each CPU's timestamps increasing.  On one CPU it is exact.  Across
 * CPUs it is as good as the clocks agree: with a synchronised clock (x86's
 * TSC unless the kernel marked it unstable, kvm-clock with the host's
 * stable bit, arm64) the two are comparable; otherwise the duration is off
 * by the CPUs' clock skew, and where the end's clock is behind the begin's
 * the end stores that (the dump prints "dur=0ns skew=-<ns>ns") and the span
 * counts as 0 ns.
 *
 * A begin not stored (frec or its site off, its ring disabled or below its
 * level, dropped) leaves the token zero: its end records nothing and
 * returns -ENOENT, whatever its own site says.
 */

/* The formats' first bytes; uapi/frec_raw.h's FREC_SPAN_*_FMT, checked. */
#define __FREC_SPAN_BEGIN_FMT	"\x1f> "
#define __FREC_SPAN_END_FMT	"\x1f< "

/*
 * Arguments an end stores after its format: the other two words are the
 * begin's name and the duration.
 */
#define FREC_SPAN_MAX_END_ARGS	2

/**
 * struct frec_span - the token of a span between its begin and its end
 * @ts: the begin record's timestamp (ns, local_clock()), 0 if the begin
 *	was not stored.
 * @id: the begin record's name: its seq << 16 | its CPU.
 *
 * Small, passed by value; hold it anywhere (a stack, a request).
 */
struct frec_span {
	u64 ts;
	u64 id;
};

/*
 * The token comes back in registers and goes to the end by value, so
 * that a caller's token need not live in memory: a span is meant to cost
 * little more than its two records (doc/spans.md, "Cost").
 */
struct frec_span __frec_span_begin(struct frec_ring *ring, struct frec_site *site,
				   unsigned long caller, unsigned long a0,
				   unsigned long a1, unsigned long a2,
				   unsigned long a3);
int __frec_span_end(struct frec_ring *ring, struct frec_site *site,
		    unsigned long caller, u64 begin_ts, u64 begin_id,
		    unsigned long a0, unsigned long a1);

#define __frec_span_begin_call(ring, site, caller, a, b, c, d, ...)	\
	__frec_span_begin(ring, site, caller, __frec_arg(a),		\
			  __frec_arg(b), __frec_arg(c), __frec_arg(d))

#define __frec_span_end_call(ring, site, caller, span, a, b, ...)	\
	__frec_span_end(ring, site, caller, (span).ts, (span).id,	\
			__frec_arg(a), __frec_arg(b))

/* Format @fmt against the arguments at compile time, as frec_record(). */
#define __frec_check_args(max, what, fmt, ...)				\
	do {								\
		static_assert(COUNT_ARGS(__VA_ARGS__) <= (max), what);	\
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic error \"-Wformat\"")		\
		if (0)							\
			__frec_check_format(fmt, ##__VA_ARGS__);	\
		_Pragma("GCC diagnostic pop")				\
	} while (0)

/**
 * frec_span_begin_level() - record a span's begin at a level
 * @ring: an event ring, as for frec_record_level().
 * @level: enum frec_level, a constant.
 * @fmt: a printf format, a literal.
 * @...: up to four arguments, each no wider than unsigned long.
 *
 * Records an event as frec_record_level() does (same filtering, same cost,
 * arguments evaluated only if stored) and returns the token its end
 * takes.  The dump prints it as "> " and its message.
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: the span's token (struct frec_span): the begin record's
 * timestamp and name, or zeroes if the begin was not stored.
 */
#define frec_span_begin_level(ring, level, fmt, ...)			\
	({								\
		struct frec_span __frec_span = { 0, 0 };		\
		__frec_check_args(FREC_RECORD_MAX_ARGS,			\
				  "frec_span_begin() takes at most 4 arguments", \
				  fmt, ##__VA_ARGS__);			\
		{							\
			__frec_site_define(level, __FREC_SPAN_BEGIN_FMT fmt); \
			__frec_gated_call(ring,				\
				(__frec_span = __frec_span_begin_call(__frec_r, \
						&__frec_site, _THIS_IP_, \
						##__VA_ARGS__, 0, 0, 0, 0), 0)); \
		}							\
		__frec_span;						\
	})

/**
 * frec_span_begin() - record a span's begin at FREC_LEVEL_INFO
 * @ring: an event ring.
 * @fmt: a printf format, a literal.
 * @...: up to four arguments, each no wider than unsigned long.
 *
 * See frec_span_begin_level().
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: the span's token, zeroes if the begin was not stored.
 */
#define frec_span_begin(ring, fmt, ...)					\
	frec_span_begin_level(ring, FREC_LEVEL_INFO, fmt, ##__VA_ARGS__)

/**
 * frec_span_end_level() - record a span's end at a level
 * @ring: the ring of the begin (another ring records the end there, and
 *	readers pair them by the begin's CPU and seq only within a ring).
 * @level: enum frec_level, a constant.
 * @span: pointer to the token frec_span_begin() returned.
 * @fmt: a printf format, a literal.
 * @...: up to two arguments (FREC_SPAN_MAX_END_ARGS; more is a build
 *	error), each no wider than unsigned long.
 *
 * Records an event with the arguments, the begin's name and the span's
 * duration, this record's timestamp minus the begin's, taken in the
 * record path (so it is the difference of the two records' timestamps in
 * the dump).  The dump prints "< ", the message, " dur=<ns>ns
 * span=<cpu>/<seq>".  Nothing is recorded if the begin was not (the token
 * is zero).  The end may be on another CPU than the begin: see "Spans"
 * above for what the duration is then.
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: 0 if stored, -ENOENT if filtered out or the begin was not
 * stored, another negative errno if dropped (and counted).
 */
#define frec_span_end_level(ring, level, span, fmt, ...)		\
	({								\
		const struct frec_span __frec_sp = *(span);		\
		int __frec_eret = -ENOENT;				\
		__frec_check_args(FREC_SPAN_MAX_END_ARGS,		\
				  "frec_span_end() takes at most 2 arguments", \
				  fmt, ##__VA_ARGS__);			\
		if (likely(__frec_sp.ts)) {				\
			__frec_site_define(level, __FREC_SPAN_END_FMT fmt); \
			__frec_eret = __frec_gated_call(ring,		\
				__frec_span_end_call(__frec_r, &__frec_site, \
						     _THIS_IP_, __frec_sp, \
						     ##__VA_ARGS__, 0, 0)); \
		}							\
		__frec_eret;						\
	})

/**
 * frec_span_end() - record a span's end at FREC_LEVEL_INFO
 * @ring: the ring of the begin.
 * @span: pointer to the begin's token.
 * @fmt: a printf format, a literal.
 * @...: up to two arguments.
 *
 * See frec_span_end_level().
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: 0 if stored, -ENOENT if filtered out or the begin was not
 * stored, another negative errno if dropped (and counted).
 */
#define frec_span_end(ring, span, fmt, ...)				\
	frec_span_end_level(ring, FREC_LEVEL_INFO, span, fmt, ##__VA_ARGS__)

/**
 * struct frec_span_scope - a span frec_span_scoped() ends with its scope
 * @ring: the ring, as the begin loaded it.
 * @site: the end's call site.
 * @span: the token.
 * @a0: first argument, which the end records again.
 * @a1: second argument.
 */
struct frec_span_scope {
	struct frec_ring *ring;
	struct frec_site *site;
	struct frec_span span;
	unsigned long a0;
	unsigned long a1;
};

/* The begin of a scope's span: keep the arguments for the end. */
static __always_inline int __frec_span_scope_begin(struct frec_ring *ring,
						   struct frec_site *site,
						   unsigned long caller,
						   struct frec_span_scope *s,
						   unsigned long a0,
						   unsigned long a1)
{
	s->ring = ring;
	s->a0 = a0;
	s->a1 = a1;
	s->span = __frec_span_begin(ring, site, caller, a0, a1, 0, 0);
	return 0;
}

#define __frec_span_scope_begin_call(ring, site, caller, s, a, b, ...)	\
	__frec_span_scope_begin(ring, site, caller, s, __frec_arg(a),	\
				__frec_arg(b))

/* The cleanup of a frec_span_scoped() variable: the span's end. */
static __always_inline void __frec_span_scope_end(struct frec_span_scope *s)
{
	if (!likely(s->span.ts))
		return;
	__frec_gated_call_site(s->site, s->ring,
			       __frec_span_end(__frec_r, s->site, _THIS_IP_,
					       s->span.ts, s->span.id, s->a0, s->a1));
}

#define __frec_span_scoped(id, ring, level, fmt, ...)			\
	__frec_site_define_named(__PASTE(__frec_site_end, id), level,	\
				 __FREC_SPAN_END_FMT fmt);		\
	struct frec_span_scope id					\
	__attribute__((__cleanup__(__frec_span_scope_end))) = ({	\
		struct frec_span_scope __frec_s = {			\
			.site = &__PASTE(__frec_site_end, id),		\
		};							\
		__frec_check_args(FREC_SPAN_MAX_END_ARGS,		\
				  "frec_span_scoped() takes at most 2 arguments", \
				  fmt, ##__VA_ARGS__);			\
		{							\
			__frec_site_define(level, __FREC_SPAN_BEGIN_FMT fmt); \
			__frec_gated_call(ring,				\
				__frec_span_scope_begin_call(__frec_r,	\
					&__frec_site, _THIS_IP_, &__frec_s, \
					##__VA_ARGS__, 0, 0));		\
		}							\
		__frec_s;						\
	})

/**
 * frec_span_scoped_level() - a span from here to the end of the scope
 * @ring: an event ring that outlives the scope (FREC_RING() of the
 *	module's own ring, frec_default_ring(), or one the caller destroys
 *	only after the scope): the end records into the ring the begin
 *	loaded.
 * @level: enum frec_level, a constant, of both ends.
 * @fmt: a printf format, a literal, of both ends.
 * @...: up to two arguments, evaluated once (only if the begin is stored)
 *	and recorded by both ends.
 *
 * Declares a variable whose cleanup records the end when the scope is
 * left, by any way out (return, break, goto): frec_span_begin_level() now,
 * frec_span_end_level() with the same format and arguments then; two call
 * sites.  It is a declaration: write it where the block's declarations
 * are.  Built on __attribute__((__cleanup__)) directly, which GCC and
 * clang have on every kernel frec builds on: 6.1 has no linux/cleanup.h,
 * and 6.12's guard() classes would add nothing but their name.  The scope
 * may sleep (the ring must outlive it, as said above).
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: nothing: a declaration.
 */
#define frec_span_scoped_level(ring, level, fmt, ...)			\
	__frec_span_scoped(__UNIQUE_ID(frec_span_scope), ring, level, fmt, \
			   ##__VA_ARGS__)

/**
 * frec_span_scoped() - a span to the end of the scope, at FREC_LEVEL_INFO
 * @ring: an event ring that outlives the scope.
 * @fmt: a printf format, a literal.
 * @...: up to two arguments.
 *
 * See frec_span_scoped_level().
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: nothing: a declaration.
 */
#define frec_span_scoped(ring, fmt, ...)				\
	frec_span_scoped_level(ring, FREC_LEVEL_INFO, fmt, ##__VA_ARGS__)

#endif /* _FREC_H */
