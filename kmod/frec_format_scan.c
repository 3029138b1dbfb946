// SPDX-License-Identifier: GPL-2.0
/*
 * frec_format_scan.c - reading printf formats the way vsnprintf() does,
 * to know what each stored argument is.  Shared by the module and, as
 * kunit/frec_format_scan_core.c, by the KUnit module.
 */
#ifdef __KERNEL__
#include <linux/ctype.h>
#include <linux/string.h>
#endif

#include "frec_formats.h"
#include "frec_ring.h"

/* Skip a width or precision: '*' (which takes an argument) or digits. */
static const char *frec_scan_count(const char *fmt, unsigned int *arg)
{
	if (*fmt == '*') {
		(*arg)++;
		return fmt + 1;
	}
	while (isdigit(*fmt))
		fmt++;
	return fmt;
}

/**
 * frec_format_string_args() - which arguments of a format are %s strings
 * @fmt: a printf format.
 *
 * Walks conversions the way vsnprintf() does: flags, width and precision
 * ('*' takes an argument), length modifiers, the conversion; %p takes one
 * argument whatever extension follows it.
 *
 * Context: Any context.
 * Return: a bitmask, bit i set if argument i (of the first
 * FREC_EVENT_MAX_ARGS) is printed with %s.
 */
unsigned int frec_format_string_args(const char *fmt)
{
	unsigned int mask = 0, arg = 0;

	while (*fmt && arg < FREC_EVENT_MAX_ARGS) {
		if (*fmt++ != '%')
			continue;
		if (*fmt == '%') {
			fmt++;
			continue;
		}
		while (*fmt && strchr("-+ #0", *fmt))
			fmt++;
		fmt = frec_scan_count(fmt, &arg);
		if (*fmt == '.')
			fmt = frec_scan_count(fmt + 1, &arg);
		while (*fmt && strchr("hlLqjzt", *fmt))
			fmt++;
		if (!*fmt)
			break;
		if (*fmt == 's' && arg < FREC_EVENT_MAX_ARGS)
			mask |= 1U << arg;
		arg++;
		fmt++;
	}
	return mask;
}
