/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * frec binary formats shared by the kernel module and userspace tools.
 *
 * Everything here is read by tools/ on another machine than the one that
 * recorded it: fixed-width types only, no pointers, explicit padding.
 */
#ifndef _UAPI_FREC_RAW_H
#define _UAPI_FREC_RAW_H

#include <linux/types.h>

/*
 * Version of the binary layout of the raw dump.  Bumped on any change a
 * decoder must know about; a decoder rejects versions it does not know.
 */
#define FREC_RAW_VERSION	1

/*
 * A ring is an array of 64-byte slots per CPU.  A fixed-size event takes
 * one slot; a variable-size record takes one first slot and as many
 * continuation slots as its payload needs, at consecutive positions.
 *
 * @state says what the slot holds:
 *   0                          empty
 *   FREC_SLOT_BUSY             being written (a reader skips it)
 *   seq << 2                   the first (or only) slot of a record
 *   seq << 2 | FREC_SLOT_CONT  one of its continuation slots
 * where seq is the record's global sequence number: one order across all rings
 * and CPUs, starting at 1.  The CPU is the one whose array holds the slot.
 */
#define FREC_SLOT_BUSY		0x1ULL
#define FREC_SLOT_CONT		0x2ULL
#define FREC_SLOT_SEQ_SHIFT	2

#define FREC_SLOT_BYTES		64
#define FREC_SLOT_WORDS		7

struct frec_slot {
	__u64 state;
	__u64 data[FREC_SLOT_WORDS];
};

/*
 * Fixed-size event, in one slot:
 *   data[0] timestamp (ns, the ring's clock, see FREC_CLOCK_NAME)
 *   data[1] address of the format string
 *   data[2] caller address
 *   data[3..6] up to four arguments, unused ones 0
 */
#define FREC_EVENT_TS		0
#define FREC_EVENT_FMT		1
#define FREC_EVENT_CALLER	2
#define FREC_EVENT_ARG0		3
#define FREC_EVENT_MAX_ARGS	4

/*
 * Variable-size record, first slot:
 *   data[0] timestamp, data[1] format address or 0, data[2] caller address,
 *   data[3] payload length in bytes (low 32 bits) and number of slots the
 *           record takes (high 32 bits),
 *   data[4..6] the first FREC_RECORD_HEAD_BYTES bytes of payload;
 * each continuation slot: data[0..6], FREC_RECORD_CONT_BYTES more bytes.
 */
#define FREC_RECORD_TS		0
#define FREC_RECORD_FMT		1
#define FREC_RECORD_CALLER	2
#define FREC_RECORD_LEN		3
#define FREC_RECORD_PAYLOAD	4
#define FREC_RECORD_HEAD_BYTES	((FREC_SLOT_WORDS - FREC_RECORD_PAYLOAD) * 8)
#define FREC_RECORD_CONT_BYTES	(FREC_SLOT_WORDS * 8)

/* Name of the clock timestamps are taken with (as in trace_clock). */
#define FREC_CLOCK_NAME		"local"

#endif /* _UAPI_FREC_RAW_H */
