/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_text_sink.h - where the text of a debugfs file goes when the code
 * that writes it is shared with frec-decode: a seq_file in the kernel, a
 * FILE in frec-decode, so both print the same bytes.
 */
#ifndef _FREC_TEXT_SINK_H
#define _FREC_TEXT_SINK_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#endif

/**
 * struct frec_text_sink - where text goes
 * @write: write @len bytes of @s (not NUL-terminated).
 * @ctx: passed to @write.
 */
struct frec_text_sink {
	void (*write)(void *ctx, const char *s, size_t len);
	void *ctx;
};

#endif /* _FREC_TEXT_SINK_H */
