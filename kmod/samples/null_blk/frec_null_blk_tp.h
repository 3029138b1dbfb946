/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_null_blk's points as trace_printk(), for make bench's comparison
 * (doc/speed.md).  Included before main.c in frec_null_blk_tp.ko
 * (-include, kmod/samples/null_blk/Kbuild), it makes
 * each frec call null_blk-VERSION.patch adds one trace_printk() of the
 * same format and arguments: the same points, the same words, so the
 * difference is what each tool costs.  A span's end prints its own
 * arguments; its duration is the difference of the two events'
 * timestamps in the trace.  The module then uses nothing of frec's.
 */
#ifndef FREC_NULL_BLK_TP_H
#define FREC_NULL_BLK_TP_H

#include <linux/kernel.h>
#include <frec.h>

#undef frec_record_level
#define frec_record_level(ring, level, fmt, ...)			\
	trace_printk(fmt "\n", ##__VA_ARGS__)

#undef frec_span_begin
#define frec_span_begin(ring, fmt, ...)					\
	({								\
		trace_printk("> " fmt "\n", ##__VA_ARGS__);		\
		(struct frec_span){ .ts = 1 };				\
	})

#undef frec_span_end
#define frec_span_end(ring, span, fmt, ...)				\
	trace_printk("< " fmt "\n", ##__VA_ARGS__)

#endif /* FREC_NULL_BLK_TP_H */
