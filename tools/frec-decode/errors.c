// SPDX-License-Identifier: GPL-2.0
/*
 * errors.c - errors handed back and warnings printed (errors.h).  The
 * bottom of frec-decode: it calls only the C library.
 */
#include <stdarg.h>

#include "frec_decode.h"

/**
 * frec_errf() - set an error
 * @err: the error.
 * @where: byte offset or line number.
 * @fmt: printf format of the message.
 *
 * Context: userspace.
 * Return: -1, for "return frec_errf(...)".
 */
int frec_errf(struct frec_err *err, unsigned long long where,
	      const char *fmt, ...)
{
	va_list ap;

	err->where = where;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static void vwarn(FILE *errs, const char *name, unsigned long long *warnings,
		  const char *fmt, va_list ap)
{
	(*warnings)++;
	if (!errs)
		return;
	fprintf(errs, "frec-decode: %s: ", name);
	vfprintf(errs, fmt, ap);
	fputc('\n', errs);
}

/**
 * frec_warnf() - report a problem that does not stop decoding
 * @errs: where warnings go, NULL for none.
 * @name: the input's name, for the line's "frec-decode: <name>: ".
 * @warnings: the count of warnings to add this one to.
 * @fmt: printf format of the message, after that.
 *
 * Counted, so that the exit code says there were warnings.
 *
 * Context: userspace.
 */
void frec_warnf(FILE *errs, const char *name, unsigned long long *warnings,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(errs, name, warnings, fmt, ap);
	va_end(ap);
}

/**
 * frec_warn() - report a problem of a decoding run that does not stop it
 * @d: the decoder.
 * @fmt: printf format of the message, after "frec-decode: <dump>: ".
 *
 * As frec_warnf(), on @d's errs, dump name and count.
 *
 * Context: userspace.
 */
void frec_warn(struct frec_decoder *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(d->errs, d->in_name, &d->warnings, fmt, ap);
	va_end(ap);
}
