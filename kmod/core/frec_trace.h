/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_trace.h - tracepoints fired for every record frec stores, so that
 * ftrace (events/frec/) and bpftrace (tracepoint:frec:*) see the records
 * frec keeps, with the same sequence numbers.  Off, they cost a static
 * branch.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM frec

#if !defined(_FREC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FREC_TRACE_H

#include <linux/smp.h>
#include <linux/tracepoint.h>

#include "frec_compat.h"

TRACE_EVENT(frec_record,

	TP_PROTO(const char *ring, u64 seq, unsigned long caller, const char *fmt,
		 const unsigned long *args),

	TP_ARGS(ring, seq, caller, fmt, args),

	TP_STRUCT__entry(
		__string(ring, ring)
		__field(u64, seq)
		__field(unsigned int, cpu)
		__field(unsigned long, caller)
		__field(unsigned long, fmt)
		__field(unsigned long, a0)
		__field(unsigned long, a1)
		__field(unsigned long, a2)
		__field(unsigned long, a3)
	),

	TP_fast_assign(
		FREC_ASSIGN_STR(ring, ring);
		__entry->seq = seq;
		__entry->cpu = raw_smp_processor_id();
		__entry->caller = caller;
		__entry->fmt = (unsigned long)fmt;
		__entry->a0 = args[0];
		__entry->a1 = args[1];
		__entry->a2 = args[2];
		__entry->a3 = args[3];
	),

	TP_printk("ring=%s seq=%llu cpu=%u caller=%pS fmt=0x%lx args=0x%lx,0x%lx,0x%lx,0x%lx",
		  __get_str(ring), __entry->seq, __entry->cpu, (void *)__entry->caller,
		  __entry->fmt, __entry->a0, __entry->a1, __entry->a2, __entry->a3)
);

TRACE_EVENT(frec_printk,

	TP_PROTO(const char *ring, u64 seq, unsigned long caller, const char *text,
		 int len),

	TP_ARGS(ring, seq, caller, text, len),

	TP_STRUCT__entry(
		__string(ring, ring)
		__field(u64, seq)
		__field(unsigned int, cpu)
		__field(unsigned long, caller)
		__dynamic_array(char, text, len + 1)
	),

	TP_fast_assign(
		FREC_ASSIGN_STR(ring, ring);
		__entry->seq = seq;
		__entry->cpu = raw_smp_processor_id();
		__entry->caller = caller;
		memcpy(__get_dynamic_array(text), text, len);
		((char *)__get_dynamic_array(text))[len] = '\0';
	),

	TP_printk("ring=%s seq=%llu cpu=%u caller=%pS text=%s",
		  __get_str(ring), __entry->seq, __entry->cpu, (void *)__entry->caller,
		  __get_str(text))
);

#endif /* _FREC_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE frec_trace
#include <trace/define_trace.h>
