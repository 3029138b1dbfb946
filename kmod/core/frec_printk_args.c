// SPDX-License-Identifier: GPL-2.0
/*
 * frec_printk_args.c - frec_printk() stores its arguments, not its text,
 * and the record is formatted when it is read, as trace_printk() stores
 * its arguments with vbin_printf().  Formatting costs the reader, once,
 * instead of every call.
 *
 * A record of arguments (FREC_RECORD_ARGS, laid out in uapi/frec_raw.h)
 * holds each argument as a word, taken from the va_list as the format
 * says (frec_format_arg_kinds()), and copies of the %s strings after them,
 * so a string freed right after the call still prints.  It is formatted
 * with the site's format by frec_format_message(), which prints those
 * conversions exactly as vsnprintf() would have at the call, and cut
 * where the call's text would have been cut.
 *
 * A call whose format has a conversion frec_format_message() would not
 * print as vsnprintf() does at the call (any %p: %p and %pK are hashed,
 * %px has no "0x", %pS names a module that may be gone by then, %pI4 and
 * the like read memory; %n, floating point; a length q, j or Z, where
 * vsnprintf() stops), more than
 * FREC_PRINTK_ARGS_MAX arguments, or a string that does not fit whole, is
 * formatted at the call, into text.  Both
 * take no lock and allocate nothing: any context.
 */
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "frec_format.h"
#include "frec_kernel_text.h"
#include "frec_printk_args.h"

/*
 * A site's plan (struct frec_site.printk_plan), one word written whole, so
 * that contexts racing to work it out on the first call (each writes the
 * same value) never leave half of one: FREC_PLAN_DONE once worked out,
 * FREC_PLAN_ARGS if the calls store arguments, their number, and two bits
 * of enum frec_arg_kind for each.
 */
#define FREC_PLAN_DONE		0x1UL
#define FREC_PLAN_ARGS		0x2UL
#define FREC_PLAN_NR_SHIFT	2
#define FREC_PLAN_NR_MASK	0xfUL
#define FREC_PLAN_KIND_SHIFT	6
#define FREC_PLAN_KIND_BITS	2

static_assert(FREC_PLAN_KIND_SHIFT + FREC_PRINTK_ARGS_MAX * FREC_PLAN_KIND_BITS <=
	      BITS_PER_LONG);
static_assert(FREC_PRINTK_ARGS_MAX <= FREC_PLAN_NR_MASK);
/* A region's readers cut a record of arguments's text where frec does. */
static_assert(FREC_RECORD_ARGS_TEXT_MAX == FREC_PRINTK_MAX);

/* Work out how calls with @fmt store their arguments. */
static unsigned long frec_printk_args_plan(const char *fmt)
{
	unsigned char kinds[FREC_PRINTK_ARGS_MAX];
	unsigned long plan = FREC_PLAN_DONE;
	int n, i;

	n = frec_format_arg_kinds(fmt, kinds, FREC_PRINTK_ARGS_MAX);
	if (n < 0)
		return plan;
	plan |= FREC_PLAN_ARGS | (unsigned long)n << FREC_PLAN_NR_SHIFT;
	for (i = 0; i < n; i++)
		plan |= (unsigned long)kinds[i] << (FREC_PLAN_KIND_SHIFT + i * FREC_PLAN_KIND_BITS);
	return plan;
}

/**
 * frec_printk_args_pack() - a frec_printk() call's arguments, as a payload
 * @buf: where the payload goes, 8-byte aligned.
 * @size: bytes at @buf.
 * @site: the call's site; its format is the call's.
 * @ap: its arguments; the caller's copy (va_copy()) stays unread.
 *
 * The format is read once per site, on its first call (the site's plan).
 *
 * Context: Any context, NMI included.  Never sleeps, locks or allocates.
 * Return: the payload's length, or -1 if the call is to be stored as text.
 */
int frec_printk_args_pack(u64 *buf, unsigned int size, struct frec_site *site, va_list ap)
{
	unsigned long plan = READ_ONCE(site->printk_plan);
	char *bytes = (char *)buf;
	unsigned int off, n, i;
	const char *s;
	int len;

	if (unlikely(!(plan & FREC_PLAN_DONE))) {
		plan = frec_printk_args_plan(site->fmt);
		WRITE_ONCE(site->printk_plan, plan);
	}
	n = (plan >> FREC_PLAN_NR_SHIFT) & FREC_PLAN_NR_MASK;
	if (!(plan & FREC_PLAN_ARGS) || n * sizeof(u64) > size)
		return -1;
	off = n * sizeof(u64);
	for (i = 0; i < n; i++, plan >>= FREC_PLAN_KIND_BITS) {
		switch ((plan >> FREC_PLAN_KIND_SHIFT) & ((1UL << FREC_PLAN_KIND_BITS) - 1)) {
		case FREC_ARG_INT:
			/* As frec_record() stores an int: sign-extended. */
			buf[i] = (unsigned long)va_arg(ap, int);
			break;
		case FREC_ARG_LONG:
			buf[i] = va_arg(ap, unsigned long);
			break;
		case FREC_ARG_LLONG:
			buf[i] = va_arg(ap, unsigned long long);
			break;
		default:
			s = va_arg(ap, const char *);
			/* Printed as "(null)" or "(efault)" without a read. */
			if ((unsigned long)s < PAGE_SIZE || IS_ERR(s)) {
				buf[i] = (unsigned long)s;
				break;
			}
			if (off >= size)
				return -1;
			len = frec_format_kernel_string(bytes + off, size - off, (unsigned long)s);
			if (len < 0) {
				buf[i] = 1;	/* "(efault)", as vsnprintf() */
				break;
			}
			/* Maybe cut: the text would hold more of it. */
			if (len + 1 >= size - off)
				return -1;
			buf[i] = FREC_RECORD_ARG_STRING | off;
			off += len + 1;
		}
	}
	return off;
}
