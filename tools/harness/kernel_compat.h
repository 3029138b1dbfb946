/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel_compat.h - the kernel primitives frec's shared ring code uses,
 * mapped onto C11 atomics and POSIX threads, so that the same source can be
 * hammered by native threads under ThreadSanitizer and benchmarked without
 * emulation.
 *
 * Mapping, and why it is faithful enough:
 *
 *   kernel                      userspace
 *   READ_ONCE/WRITE_ONCE        relaxed atomic load/store (TSan sees them)
 *   smp_load_acquire            acquire load
 *   smp_store_release           release store
 *   smp_rmb/smp_wmb             acquire/release fences (at least as strong)
 *   smp_mb                      seq_cst fence
 *   atomic_long_*, atomic64_*   _Atomic long / int64_t; value-returning
 *                               RMW ops are fully ordered (seq_cst) as in
 *                               the kernel's atomic_t.txt, _relaxed ones
 *                               are relaxed
 *   try_cmpxchg                 compare_exchange_strong, seq_cst
 *   raw_smp_processor_id        a per-thread id set by compat_set_cpu();
 *                               a thread is "pinned" to one CPU for life
 *   local_clock                 CLOCK_MONOTONIC in ns
 *
 * Kernel code using this header must touch shared data only through these
 * macros; plain accesses to shared words are data races here as there.
 */
#ifndef _FREC_KERNEL_COMPAT_H
#define _FREC_KERNEL_COMPAT_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __must_check	__attribute__((__warn_unused_result__))
#define ____cacheline_aligned	__attribute__((__aligned__(64)))
#define SMP_CACHE_BYTES	64

#include <linux/types.h>

/* The kernel's fixed-width names, on the same types as uapi's __u64. */
typedef __u64 u64;
typedef __u32 u32;
typedef __u16 u16;
typedef __u8 u8;
typedef __s64 s64;

/*
 * READ_ONCE/WRITE_ONCE on any scalar: a relaxed C11 atomic access through a
 * cast.  GCC and Clang accept __atomic builtins on plain objects, which
 * keeps struct layouts identical to the kernel's.
 */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/*
 * ThreadSanitizer does not model standalone fences (GCC says so with
 * -Wtsan, silenced for that build).  That costs no false report here:
 * every shared access goes through the atomic macros above, and TSan
 * never calls two atomic accesses a race.  What fences order, TSan cannot
 * check; the harness's checksummed stress tests do.
 */
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define barrier()	__asm__ __volatile__("" ::: "memory")

typedef struct { long counter; } atomic_long_t;
typedef struct { s64 counter; } atomic64_t;
#define ATOMIC_LONG_INIT(i)	{ (i) }
#define ATOMIC64_INIT(i)	{ (i) }

#define COMPAT_ATOMIC_OPS(pfx, type, vtype)				\
static inline vtype pfx##_read(const type *v)				\
{ return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }		\
static inline void pfx##_set(type *v, vtype i)				\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_inc(type *v)					\
{ __atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED); }		\
static inline void pfx##_add(vtype i, type *v)				\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline vtype pfx##_add_return(vtype i, type *v)			\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline vtype pfx##_inc_return(type *v)				\
{ return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST); }	\
static inline vtype pfx##_fetch_add_relaxed(vtype i, type *v)		\
{ return __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }	\
static inline vtype pfx##_cmpxchg(type *v, vtype old, vtype new)	\
{									\
	__atomic_compare_exchange_n(&v->counter, &old, new, false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	return old;							\
}									\
static inline bool pfx##_try_cmpxchg(type *v, vtype *old, vtype new)	\
{									\
	return __atomic_compare_exchange_n(&v->counter, old, new, false,\
					   __ATOMIC_SEQ_CST,		\
					   __ATOMIC_SEQ_CST);		\
}									\
static inline bool pfx##_try_cmpxchg_relaxed(type *v, vtype *old,	\
					     vtype new)			\
{									\
	return __atomic_compare_exchange_n(&v->counter, old, new, false,\
					   __ATOMIC_RELAXED,		\
					   __ATOMIC_RELAXED);		\
}

COMPAT_ATOMIC_OPS(atomic_long, atomic_long_t, long)
COMPAT_ATOMIC_OPS(atomic64, atomic64_t, s64)

/*
 * local_t: in the kernel, atomic only against interrupts on the owning
 * CPU.  Here a simulated CPU is a thread plus the signal handlers that
 * interrupt it.  On x86-64 the operations are the kernel's own single
 * instructions without a LOCK prefix (arch/x86/include/asm/local.h), which
 * a signal cannot split, so the benchmarks pay what the kernel pays.
 * Under ThreadSanitizer, which cannot see inline assembly, they are relaxed
 * C11 atomics instead, so that TSan checks every access.
 */
typedef struct { long a; } local_t;

static inline long local_read(const local_t *l)
{ return __atomic_load_n(&l->a, __ATOMIC_RELAXED); }
static inline void local_set(local_t *l, long i)
{ __atomic_store_n(&l->a, i, __ATOMIC_RELAXED); }

#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
static inline void local_inc(local_t *l)
{ __asm__ __volatile__("incq %0" : "+m" (l->a)); }
static inline void local_dec(local_t *l)
{ __asm__ __volatile__("decq %0" : "+m" (l->a)); }
static inline void local_add(long i, local_t *l)
{ __asm__ __volatile__("addq %1, %0" : "+m" (l->a) : "ir" (i)); }
static inline long local_inc_return(local_t *l)
{
	long i = 1;

	__asm__ __volatile__("xaddq %0, %1" : "+r" (i), "+m" (l->a) : : "memory");
	return i + 1;
}
static inline long local_cmpxchg(local_t *l, long old, long new)
{
	__asm__ __volatile__("cmpxchgq %2, %1"
			     : "+a" (old), "+m" (l->a) : "r" (new) : "memory");
	return old;
}
#else
static inline void local_inc(local_t *l)
{ __atomic_fetch_add(&l->a, 1, __ATOMIC_RELAXED); }
static inline void local_dec(local_t *l)
{ __atomic_fetch_sub(&l->a, 1, __ATOMIC_RELAXED); }
static inline void local_add(long i, local_t *l)
{ __atomic_fetch_add(&l->a, i, __ATOMIC_RELAXED); }
static inline long local_inc_return(local_t *l)
{ return __atomic_add_fetch(&l->a, 1, __ATOMIC_RELAXED); }
static inline long local_cmpxchg(local_t *l, long old, long new)
{
	__atomic_compare_exchange_n(&l->a, &old, new, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return old;
}
#endif

#define min(a, b)	((a) < (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))

/* ---- CPUs, contexts, clock ---------------------------------------- */

#define COMPAT_NR_CPUS	64

extern _Thread_local int compat_cpu;

/* Pin the calling thread to a simulated CPU for the rest of its life. */
static inline void compat_set_cpu(int cpu)
{
	compat_cpu = cpu;
}

static inline int raw_smp_processor_id(void)
{
	return compat_cpu;
}

/*
 * Writers on one simulated CPU are a thread and the signal handlers that
 * interrupt it; nothing else runs on that CPU, as with preemption off.
 */
#define preempt_disable_notrace()	barrier()
#define preempt_enable_notrace()	barrier()

/*
 * The ring core refuses writers in NMI context on kernels whose cmpxchg
 * is not NMI-safe.  A harness test simulates such a kernel by setting
 * compat_nmi_unsafe, and an NMI on its thread by setting compat_in_nmi.
 */
extern bool compat_nmi_unsafe;
extern _Thread_local bool compat_in_nmi;
#define frec_ring_nmi_refused()	(compat_nmi_unsafe && compat_in_nmi)

static inline u64 local_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

#endif /* _FREC_KERNEL_COMPAT_H */
