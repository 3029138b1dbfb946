/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_trace_clock.h - the records' clock against ftrace's
 * (frec_trace_clock.c).
 */
#ifndef _FREC_TRACE_CLOCK_H
#define _FREC_TRACE_CLOCK_H

#include <linux/types.h>

bool frec_trace_clock_offset(s64 *offset, u64 *window);

#endif /* _FREC_TRACE_CLOCK_H */
