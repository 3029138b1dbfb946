/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_user.h - what the sources in kmod/lib/ need of the kernel, when
 * tools/ compiles them in userspace (the harness, frec-decode).  Nothing
 * else: a primitive the shared sources do not use does not belong here.
 *
 *   kernel                      userspace
 *   u64, u32, u8                uapi's __u64... (one type, one size)
 *   READ_ONCE/WRITE_ONCE        relaxed atomic load/store (TSan sees them)
 *   smp_load_acquire            acquire load
 *   smp_store_release           release store
 *   smp_rmb/smp_wmb             acquire/release fences (at least as strong)
 *   barrier                     a compiler barrier
 *   atomic64_t                  int64_t; value-returning RMW ops are fully
 *                               ordered (seq_cst), as in the kernel's
 *                               atomic_t.txt
 *   local_t                     long, changed only by its own thread (a
 *                               simulated CPU) and the signal handlers that
 *                               interrupt it; on x86-64 the kernel's own
 *                               instructions (no LOCK prefix), elsewhere and
 *                               under TSan relaxed atomics
 *   local_clock                 CLOCK_MONOTONIC in ns, or the TSC read
 *                               plainly or ordered (frec_user_clock)
 *   rmb                         LFENCE on x86, as the kernel's (TSan: the
 *                               C11 acquire fence)
 *   ____cacheline_aligned       64-byte alignment; SMP_CACHE_BYTES 64
 *   DEFINE_PER_CPU,             an array of one cache line per simulated
 *   this_cpu_ptr                CPU, indexed by the thread's (sim_cpu.h)
 *   do_div, min, min_t, max_t   their plain C meaning
 *   div64_u64, __fls            their plain C meaning (__fls: the index of
 *                               the highest bit set, of a value not 0)
 *   kvmalloc, kvmalloc_array,   malloc(), calloc(), free() (the GFP flags,
 *   kvcalloc, kvfree            __GFP_NOWARN too, ignored); sort() is
 *   sort, cond_resched          qsort() (no swap function); cond_resched()
 *                               does nothing
 *   U64_MAX, U32_MAX,           <linux/limits.h>'s, <linux/time64.h>'s
 *   NSEC_PER_SEC
 *   frec_rb_nmi_refused         false, unless a harness test simulates an
 *                               NMI on a kernel whose cmpxchg is not NMI-safe
 *
 * Shared code must touch shared data only through these macros: a plain
 * access to a shared word is a data race here as it is in the kernel.
 */
#ifndef _FREC_USER_H
#define _FREC_USER_H

/*
 * The shared sources take long as the kernel they run in has it, x86-64's
 * 64 bits: local_t's counts and sums, __fls() of a u64 value.  A 32-bit
 * build would truncate both (a histogram's sum past 4.3 s, a duration's
 * bucket), so it is refused rather than made to print wrong figures.
 */
#if __SIZEOF_LONG__ != 8
#error "frec's userspace tools need a 64-bit long, as the x86-64 kernel's (no 32-bit build)"
#endif

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <endian.h>
#include <linux/types.h>

typedef __u64 u64;
typedef __u32 u32;
typedef __u8 u8;
typedef __s64 s64;
typedef __s32 s32;

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define noinline_for_stack	/* stack depth matters in the kernel only */
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has it */
#define __always_inline		inline __attribute__((always_inline))
#endif

/* The region's numbers are little-endian (uapi/frec_region.h). */
#define le32_to_cpu(x)		le32toh(x)
#define le64_to_cpu(x)		le64toh(x)
#define cpu_to_le32(x)		htole32(x)
#define cpu_to_le64(x)		htole64(x)

#define U64_MAX			((u64)~0ULL)
#define U32_MAX			((u32)~0U)
#define NSEC_PER_SEC		1000000000L

#define min(a, b)		((a) < (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))

/* Allocation and sorting, for the region reader's tables. */
#define GFP_KERNEL			0
#define __GFP_NOWARN			0
#define kvmalloc(n, gfp)		malloc(n)
#define kvmalloc_array(n, size, gfp)	calloc((n), (size))
#define kvcalloc(n, size, gfp)		calloc((n), (size))
#define kvfree(p)			free(p)
#define sort(base, n, size, cmp, swap)	qsort((base), (n), (size), (cmp))
#define cond_resched()			do { } while (0)

/* The kernel's do_div(): divides @n in place, yields the remainder. */
#define do_div(n, base)							\
	({								\
		unsigned int __rem = (unsigned int)((n) % (base));	\
		(n) /= (base);						\
		__rem;							\
	})

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline unsigned long __fls(unsigned long word)
{
	return 63 - __builtin_clzl(word);
}

/*
 * READ_ONCE/WRITE_ONCE on any scalar: a relaxed C11 atomic access through
 * its address.  GCC and Clang accept __atomic builtins on plain objects,
 * which keeps struct layouts identical to the kernel's.
 */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/*
 * ThreadSanitizer does not model standalone fences (GCC says so with
 * -Wtsan, silenced for that build).  That costs no false report: every
 * shared access goes through the atomic macros above, and TSan never
 * calls two atomic accesses a race.  What the fences order, TSan cannot
 * check; the harness's checksummed stress tests do.
 */
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define barrier()	__asm__ __volatile__("" ::: "memory")

#define SMP_CACHE_BYTES		64
#define ____cacheline_aligned	__attribute__((aligned(SMP_CACHE_BYTES)))

/*
 * Per-CPU data: one copy per simulated CPU (tools/harness/sim_cpu.h), each
 * on a cache line of its own, as the kernel's per-CPU areas are; this
 * CPU's is the calling thread's simulated CPU's.
 */
#define FREC_USER_NR_CPUS	64
extern _Thread_local int sim_cpu;
#define DEFINE_PER_CPU(type, name)					\
	struct { type v; } ____cacheline_aligned name[FREC_USER_NR_CPUS]
#define this_cpu_ptr(ptr)	(&(*(ptr))[sim_cpu].v)
#ifndef static_assert
#define static_assert		_Static_assert
#endif

typedef struct { s64 counter; } atomic64_t;
#define ATOMIC64_INIT(i)	{ (i) }

static inline s64 atomic64_read(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline s64 atomic64_inc_return(atomic64_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

typedef struct { long a; } local_t;

static inline long local_read(const local_t *l)
{
	return __atomic_load_n(&l->a, __ATOMIC_RELAXED);
}

static inline void local_set(local_t *l, long i)
{
	__atomic_store_n(&l->a, i, __ATOMIC_RELAXED);
}

#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
static inline void local_inc(local_t *l)
{
	__asm__ __volatile__("incq %0" : "+m" (l->a));
}

static inline void local_dec(local_t *l)
{
	__asm__ __volatile__("decq %0" : "+m" (l->a));
}

static inline void local_add(long i, local_t *l)
{
	__asm__ __volatile__("addq %1, %0" : "+m" (l->a) : "er" (i));
}

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
{
	__atomic_fetch_add(&l->a, 1, __ATOMIC_RELAXED);
}

static inline void local_dec(local_t *l)
{
	__atomic_fetch_sub(&l->a, 1, __ATOMIC_RELAXED);
}

static inline void local_add(long i, local_t *l)
{
	__atomic_fetch_add(&l->a, i, __ATOMIC_RELAXED);
}

static inline long local_inc_return(local_t *l)
{
	return __atomic_add_fetch(&l->a, 1, __ATOMIC_RELAXED);
}

static inline long local_cmpxchg(local_t *l, long old, long new)
{
	__atomic_compare_exchange_n(&l->a, &old, new, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return old;
}
#endif

/*
 * The clock records take (frec_rb_clock() puts rmb() in front of it):
 *   FREC_USER_CLOCK_MONOTONIC  clock_gettime(CLOCK_MONOTONIC), ns (the
 *                              vDSO reads the TSC ordered itself)
 *   FREC_USER_CLOCK_TSC        a plain RDTSC, cycles: what sched_clock()
 *                              reads on x86
 *   FREC_USER_CLOCK_TSC_UNORDERED  a plain RDTSC with no rmb() before it:
 *                              only for the litmus test that shows why
 *                              the barrier is there
 *   FREC_USER_CLOCK_COARSE     MONOTONIC rounded down to 40 ns, a clock
 *                              that ticks as arm64's counter does (ties)
 *   FREC_USER_CLOCK_FROZEN     frec_user_clock_frozen, set by the test:
 *                              every read ties
 * The harness's clock-order tests choose; everything else keeps the
 * default, MONOTONIC.
 */
enum frec_user_clock_kind {
	FREC_USER_CLOCK_MONOTONIC,
	FREC_USER_CLOCK_TSC,
	FREC_USER_CLOCK_TSC_UNORDERED,
	FREC_USER_CLOCK_COARSE,
	FREC_USER_CLOCK_FROZEN,
};
#define FREC_USER_CLOCK_COARSE_NS	40
extern enum frec_user_clock_kind frec_user_clock;
extern u64 frec_user_clock_frozen;

/* The kernel's rmb(); left out for FREC_USER_CLOCK_TSC_UNORDERED. */
static inline void rmb(void)
{
	if (frec_user_clock == FREC_USER_CLOCK_TSC_UNORDERED)
		return;
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
	__asm__ __volatile__("lfence" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
}

static inline u64 local_clock(void)
{
	struct timespec ts;
	u64 ns;

	if (frec_user_clock == FREC_USER_CLOCK_FROZEN)
		return __atomic_load_n(&frec_user_clock_frozen, __ATOMIC_RELAXED);
#if defined(__x86_64__)
	if (frec_user_clock == FREC_USER_CLOCK_TSC ||
	    frec_user_clock == FREC_USER_CLOCK_TSC_UNORDERED)
		return __builtin_ia32_rdtsc();
#endif
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ns = (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
	if (frec_user_clock == FREC_USER_CLOCK_COARSE)
		ns -= ns % FREC_USER_CLOCK_COARSE_NS;
	return ns;
}

/*
 * The ring core refuses writers in NMI context on kernels whose cmpxchg is
 * not NMI-safe.  The harness simulates such a kernel by setting
 * frec_user_nmi_unsafe, and an NMI on a thread by setting frec_user_in_nmi
 * (both 0 unless a test sets them; tools/harness/harness.c defines them).
 */
extern bool frec_user_nmi_unsafe;
extern _Thread_local bool frec_user_in_nmi;
#define frec_rb_nmi_refused()	(frec_user_nmi_unsafe && frec_user_in_nmi)

#endif /* _FREC_USER_H */
