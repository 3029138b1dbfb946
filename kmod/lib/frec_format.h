/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_format.h - turning a stored record into its line of text.
 *
 * Written once and compiled into the module (the debugfs dump and the
 * console dump) and into tools/frec-decode, so the two print the same
 * bytes for the same record.  Only the lookups differ, behind struct
 * frec_format_env: the module reads %s strings with the nofault helpers
 * and names callers with sprint_symbol(); the decoder uses the formats
 * and kallsyms files it was given.
 *
 * A line is:
 *
 *   <seq> [<s>.<ns>] cpu<cpu> <context> <ring>: <caller> <message>\n
 *   253 [   12.027638123] cpu1 T154 hanoi_moves: hanoi_move+0x1a/0x80 [frec_hanoi] disk 3 A to C
 *
 * with seconds right-aligned in 5 columns and nanoseconds in 9 digits.
 * The context is where the record was made: "T<pid>" in a task, as
 * printk's caller id names one, or "softirq", "hardirq" or "nmi"
 * (frec_caller_word.h); a record that has none (an older dump's) has no
 * column.
 * The caller is printed as %pS prints it ("sym+0xoff/0xsize [module]"),
 * or as 0x%llx when it resolves nowhere.  The message has one trailing
 * newline removed and every other byte below 0x20, and 0x7f, written
 * as \xNN, so that a record is always exactly one line.
 *
 * Formats are read as vsnprintf() reads them: flags "-+ #0", width and
 * precision (digits or '*', which takes an argument), length modifiers
 * hh h l ll L z t (and q j Z, as ll, ll and z, where vsnprintf() warns
 * and stops), and the conversions d i u o x X c s p %.  Each
 * stored argument is the caller's value cast to unsigned long, and is
 * cast back per conversion (an int for %d, a signed char for %hhd...).
 * Integers are rendered by frec itself, as the kernel's vsnprintf()
 * renders them (so "%#x" of 0 is "0x0", unlike glibc's "0").
 *
 *   %s        the string at the address, through env->string(); NULL
 *             prints "(null)", an unreadable address "(efault)", and so
 *             do, unread, addresses in the first 4096 bytes and ERR_PTRs,
 *             as the kernel's check_pointer() decides
 *   %pS %pSR %ps %pB %pBb (any extension starting with S, s or B)
 *             the symbol, through env->symbol(); width and precision
 *             apply as to a string, as in the kernel
 *   %p %px %pK
 *             the address as 0x%016llx: dumps are root-only, and a
 *             hashed value could not be decoded offline (a width given
 *             replaces the 18 zero-padded columns, as in pointer_string());
 *             with env->pointer (the console dump), %p and %pK print as
 *             printk prints them
 *   other %p extensions, floating point, %n
 *             "[%<conversion>:0x<argument in hex>]", e.g.
 *             "[%pI4:0xffff888003a1c000]": they would dereference memory
 *             that may be gone by the time the ring is read
 *   a conversion past the stored arguments (its '*'s included)
 *             "[%<conversion>:noarg]", and every conversion after it too
 *   a malformed conversion (unknown character, format ends inside one)
 *             formatting stops there and "[bad format at byte <offset>]"
 *             is appended; frec_format_message() reports the offset
 *
 * Where the kernel's vsnprintf() and glibc's printf() differ, frec prints
 * what the kernel prints; frec_format.c lists the differences.
 */
#ifndef _FREC_FORMAT_H
#define _FREC_FORMAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "frec_user.h"
#endif

#include <frec_raw.h>

/*
 * Longest line, newline included.  A longer one is cut to fit and ends in
 * "[...]\n"; the module and the decoder both use this size, so they cut
 * alike.
 */
#define FREC_FORMAT_LINE_MAX	1024

/*
 * The message of an event whose format cannot be read (the module that
 * recorded it went before frec could copy it), with the format's address
 * as the environment prints addresses ("0x..." or, on the console, as %p).
 */
#define FREC_FORMAT_UNREADABLE	"[format %s unreadable]"

/*
 * The dump's first lines: the clock name follows "clock=", the order in
 * force (frec_format_order()) follows "order=", and the columns name the
 * context when the records have one (FREC_FORMAT_CONTEXT_COLUMN, else "").
 */
#define FREC_FORMAT_HEADER_FMT \
	"# frec dump: clock=%s order=%s\n# seq [seconds] cpu %sring: caller message\n"
#define FREC_FORMAT_CONTEXT_COLUMN	"context "

/*
 * The order a dump is in, from its raw header's flags (uapi/frec_raw.h):
 * "global" (merged by the global seq), "time" (by timestamp, the clock
 * synchronised across CPUs) or "time-approximate" (by timestamp, the
 * clock not known to be synchronised: across CPUs the order is
 * approximate).
 */
static inline const char *frec_format_order(unsigned int raw_flags)
{
	if (raw_flags & FREC_RAW_MERGE_BY_SEQ)
		return "global";
	return raw_flags & FREC_RAW_CLOCK_SYNCED ? "time" : "time-approximate";
}

/**
 * struct frec_format_env - how a formatter finds what records point to
 * @symbol: write the symbol at @addr into @buf of @size bytes (@size >= 1),
 *	for extension @ext: 'S' as sprint_symbol() ("sym+0xoff/0xsize [mod]"),
 *	's' as sprint_symbol_no_offset() ("sym [mod]"), 'B' as
 *	sprint_backtrace() (looked up at @addr - 1, for a return address);
 *	at most @size - 1 bytes and a NUL, cut if longer.  Return the length
 *	of the whole symbol text, as snprintf() does (so a return >= @size
 *	says it was cut), or a negative value if @addr resolves nowhere
 *	(the formatter then prints 0x%llx, as sprint_symbol() does).
 * @string: copy the NUL-terminated string at @addr into @buf, at most
 *	@size - 1 bytes and a NUL (@size >= 1), cut if longer; @addr may
 *	point inside a string.  Return the bytes copied (not counting the
 *	NUL), or a negative value if it cannot be read.
 * @pointer: if not NULL, how an address that is not a symbol is printed
 *	(%p, %pK, an address that resolves nowhere, the value of a
 *	conversion frec does not render): write it into @buf of @size bytes
 *	for extension @ext ('p' or 'K') and return its length.  The console
 *	dump prints what printk's %p would; NULL prints 0x and the hex.
 *	%px always prints the address, as printk does.
 * @ctx: passed to all three.
 */
struct frec_format_env {
	int (*symbol)(void *ctx, char *buf, size_t size, u64 addr, char ext);
	int (*string)(void *ctx, char *buf, size_t size, u64 addr);
	int (*pointer)(void *ctx, char *buf, size_t size, u64 addr, char ext);
	void *ctx;
};

/**
 * struct frec_format_record - what a line is made of
 * @seq: global sequence number.
 * @ts: timestamp, ns.
 * @cpu: the CPU that recorded it.
 * @ring: the ring's name.
 * @caller: the caller's address.
 * @context: the context word (uapi/frec_raw.h, "The caller word").
 * @context_known: the record has one (not from a raw dump of version 3
 *	or a region of version 2, whose lines have no context column).
 * @fmt: an event's format, already read into memory; NULL for text.
 * @args: an event's arguments.
 * @nr_args: how many of @args were stored (FREC_EVENT_MAX_ARGS).
 * @text: a text record's payload (not NUL-terminated), NULL for events.
 * @text_len: its length.
 */
struct frec_format_record {
	u64 seq;
	u64 ts;
	unsigned int cpu;
	const char *ring;
	u64 caller;
	u32 context;
	bool context_known;
	const char *fmt;
	const u64 *args;
	unsigned int nr_args;
	const char *text;
	unsigned int text_len;
};

/* Arguments frec_format_pointer_args() reports on: the first this many. */
#define FREC_FORMAT_PTR_ARGS	8

/**
 * struct frec_format_ptr_args - the arguments a format reads memory at
 * @strings: bit i set if argument i is printed with %s.
 * @symbols: bit i set if argument i is printed as a symbol (a code address).
 * @ext: for each symbol argument, its extension's letter: 'S', 's' or 'B'.
 */
struct frec_format_ptr_args {
	unsigned int strings;
	unsigned int symbols;
	char ext[FREC_FORMAT_PTR_ARGS];
};

/*
 * How a stored argument was taken from the caller's va_list
 * (frec_format_arg_kinds()): as an int, a long, a long long, or a string
 * (copied).
 */
enum frec_arg_kind {
	FREC_ARG_INT,
	FREC_ARG_LONG,
	FREC_ARG_LLONG,
	FREC_ARG_STRING,
};

int frec_format_message(char *buf, size_t size, const char *fmt,
			const u64 *args, unsigned int nr_args,
			const struct frec_format_env *env, size_t *bad_offset);
size_t frec_format_line(char *buf, size_t size,
			const struct frec_format_record *rec,
			const struct frec_format_env *env);
int frec_format_arg_types(const char *fmt, char *types, unsigned int max);
/* The most arguments a frec_printk() record of arguments holds. */
#define FREC_PRINTK_ARGS_MAX	12

int frec_printk_args_unpack(u64 *args, const char *fmt, const void *payload,
			    unsigned int len);
unsigned int frec_format_pointer_args(const char *fmt, struct frec_format_ptr_args *pa);
int frec_format_arg_kinds(const char *fmt, unsigned char *kinds, unsigned int max);

#endif /* _FREC_FORMAT_H */
