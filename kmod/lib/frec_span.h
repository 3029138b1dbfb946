/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_span.h - the words a span's end stores (uapi/frec_raw.h, "Spans"),
 * made where it is recorded (frec_rb.c, frec_record.c) and read where it
 * is printed (frec_format.c) and drawn (tools/frec-decode): one copy of
 * the encoding, kernel and tools alike.
 */
#ifndef _FREC_SPAN_H
#define _FREC_SPAN_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "frec_user.h"
#endif
#include <frec_raw.h>

/* What a format's first byte says its site is. */
enum frec_span_kind {
	FREC_SPAN_NONE,		/* an ordinary record */
	FREC_SPAN_BEGIN,
	FREC_SPAN_END,
};

/* The kind of the site whose format is @fmt (NULL: a text record's). */
static inline enum frec_span_kind frec_span_kind(const char *fmt)
{
	if (!fmt || fmt[0] != FREC_SPAN_MARK)
		return FREC_SPAN_NONE;
	return fmt[1] == '<' ? FREC_SPAN_END : FREC_SPAN_BEGIN;
}

/* The name an end stores for the begin record (@cpu, @seq). */
static inline u64 frec_span_id(u64 seq, unsigned int cpu)
{
	return seq << FREC_SPAN_ID_CPU_BITS |
	       (cpu & ((1U << FREC_SPAN_ID_CPU_BITS) - 1));
}

static inline unsigned int frec_span_id_cpu(u64 id)
{
	return (unsigned int)(id & ((1U << FREC_SPAN_ID_CPU_BITS) - 1));
}

static inline u64 frec_span_id_seq(u64 id)
{
	return id >> FREC_SPAN_ID_CPU_BITS;
}

/*
 * The duration word of an end stamped @end_ts whose begin was stamped
 * @begin_ts: the difference, or, where the end's clock is behind the
 * begin's (two CPUs' clocks apart), FREC_SPAN_DUR_SKEW and how far behind.
 */
static inline u64 frec_span_dur_word(u64 end_ts, u64 begin_ts)
{
	u64 d = end_ts - begin_ts;

	/* Timestamps are below 2^63 ns, so the sign of the difference says. */
	if (likely(!(d & FREC_SPAN_DUR_SKEW)))
		return d;
	return FREC_SPAN_DUR_SKEW | (begin_ts - end_ts);
}

/* The duration a duration word stands for: 0 for a negative difference. */
static inline u64 frec_span_dur_ns(u64 word)
{
	return word & FREC_SPAN_DUR_SKEW ? 0 : word;
}

#endif /* _FREC_SPAN_H */
