/* SPDX-License-Identifier: GPL-2.0 */
/*
 * errors.h - how frec-decode's parts say what went wrong: an error handed
 * back to the caller in a struct frec_err, or a warning printed and
 * counted.  errors.c calls none of the other parts, so that all of them
 * can call it without a part calling back up into one above it (decode.c
 * calls every reader and writer; they all report).
 */
#ifndef _FREC_DECODE_ERRORS_H
#define _FREC_DECODE_ERRORS_H

#include <stdio.h>

/**
 * struct frec_err - what went wrong, and where
 * @msg: the message, without the file name or the place.
 * @where: byte offset (raw dump) or line number (text files).
 */
struct frec_err {
	char msg[256];
	unsigned long long where;
};

int frec_errf(struct frec_err *err, unsigned long long where,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void frec_warnf(FILE *errs, const char *name, unsigned long long *warnings,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

struct frec_decoder;
void frec_warn(struct frec_decoder *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* _FREC_DECODE_ERRORS_H */
