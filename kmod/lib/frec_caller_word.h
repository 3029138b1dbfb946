/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_caller_word.h - a record's caller word (uapi/frec_raw.h, "The
 * caller word"): its caller and its context, made where it is recorded
 * (frec_record.c) or rewritten (frec_formats.c, a module going) and read
 * by every reader (frec_rb.c, frec_region.c, tools/frec-decode): one copy
 * of the encoding, kernel and tools alike.  Also the context's text, as
 * the dump prints it (frec_format_line.c) and the filter matches it.
 */
#ifndef _FREC_CALLER_WORD_H
#define _FREC_CALLER_WORD_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/types.h>
#else
#include <stdio.h>
#include "frec_user.h"
#endif
#include <frec_raw.h>

/*
 * The word for @caller recorded in context @context, by a kernel whose
 * callers lie within 2 GiB of @base (its caller base: FREC_CALLER_BASE on
 * x86_64, a kernel text address on arm64; kmod/frec_compat.h,
 * frec_caller_base()).
 */
static inline u64 frec_caller_word(unsigned long caller, u64 base, u32 context)
{
	return (u64)(u32)(caller - base) << 32 | context;
}

/* The word naming kept caller name @number, in context @context. */
static inline u64 frec_caller_word_saved(u32 number, u32 context)
{
	return (u64)number << 32 | context | FREC_CTX_SAVED_CALLER;
}

/*
 * The caller a word names: an address, or FREC_CALLER_SAVED_KEY | the
 * number of a kept name.  @base: the caller base of the kernel that made
 * the word (a region's header keeps it, struct frec_region_header
 * @caller_base).
 */
static inline u64 frec_caller_of(u64 word, u64 base)
{
	u32 upper = word >> 32;

	if ((u32)word & FREC_CTX_SAVED_CALLER)
		return FREC_CALLER_SAVED_KEY | upper;
	return base + (u64)(s64)(s32)upper;
}

/* The number of the kept name a caller from frec_caller_of() is, or -1. */
static inline s64 frec_caller_saved_number(u64 caller)
{
	if ((caller & ~0xffffffffULL) != FREC_CALLER_SAVED_KEY)
		return -1;
	return (u32)caller;
}

/*
 * A context no record has (frec_context_of() never returns
 * FREC_CTX_SAVED_CALLER): a record of an older dump, which has none.
 */
#define FREC_CTX_UNKNOWN	0xffffffffU

/* The context word of a caller word. */
static inline u32 frec_context_of(u64 word)
{
	return (u32)word & ~FREC_CTX_SAVED_CALLER;
}

/* Where a context word says it was recorded: FREC_CTX_TASK... */
static inline unsigned int frec_context_kind(u32 context)
{
	return context >> FREC_CTX_KIND_SHIFT;
}

static inline u32 frec_context_pid(u32 context)
{
	return context & FREC_CTX_PID_MASK;
}

/* Room for frec_context_text()'s text, its NUL included. */
#define FREC_CONTEXT_TEXT_MAX	16

/*
 * The dump's column for a context, into @buf (FREC_CONTEXT_TEXT_MAX
 * bytes): "T<pid>" for a task, as printk's caller id names one, else
 * where the record was made.  Returns @buf.
 */
static inline char *frec_context_text(char *buf, u32 context)
{
	static const char *const names[] = { "T", "softirq", "hardirq", "nmi" };
	unsigned int kind = frec_context_kind(context);

	if (kind == FREC_CTX_TASK)
		snprintf(buf, FREC_CONTEXT_TEXT_MAX, "T%u", frec_context_pid(context));
	else
		snprintf(buf, FREC_CONTEXT_TEXT_MAX, "%s", names[kind]);
	return buf;
}

#endif /* _FREC_CALLER_WORD_H */
