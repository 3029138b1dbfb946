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
#define FREC_RAW_VERSION	4
/*
 * Version 4 gave records their context (struct frec_raw_record's
 * @context) and the task entries; a decoder still reads version 3.
 */
#define FREC_RAW_VERSION_CONTEXT	4
#define FREC_RAW_VERSION_OLDEST	3

/*
 * A ring is an array of 64-byte slots per CPU.  A fixed-size event takes
 * one slot; a variable-size record takes one first slot and as many
 * continuation slots as its payload needs, at consecutive positions.
 *
 * @state says what the slot holds:
 *   0                                empty
 *   FREC_SLOT_BUSY                   being written (a reader skips it)
 *   seq << 3 | lap                   the first (or only) slot of a record
 *   seq << 3 | lap | FREC_SLOT_CONT  one of its continuation slots
 * where seq is the record's sequence number and lap is FREC_SLOT_LAP if the
 * slot's position (see kmod/lib/frec_rb.c) is in an odd lap of the ring.
 *
 * A record is named by (CPU, seq): the CPU is the one whose array holds the
 * slot, and seq counts the records stored on that CPU in that ring from 1
 * (FREC_RING_ORDER_CPU, the default), or is one counter shared by every
 * ring and CPU that asked for it (FREC_RING_ORDER_GLOBAL).  Either way a
 * seq is never reused on one CPU.  A CPU's records of a ring are in
 * timestamp order; a per-CPU seq may step back there, where an interrupt's
 * record took its seq between the reservation and the numbering of the
 * record it interrupted.
 */
#define FREC_SLOT_BUSY		0x1ULL
#define FREC_SLOT_CONT		0x2ULL
#define FREC_SLOT_LAP		0x4ULL
#define FREC_SLOT_SEQ_SHIFT	3

/*
 * How a ring numbers its records, and how readers order them:
 *   FREC_RING_ORDER_CPU     seq per CPU; records of all CPUs merge by
 *                           (timestamp, CPU, seq), which follows
 *                           happens-before while the clock is synchronised
 *                           across CPUs (FREC_RAW_CLOCK_SYNCED).
 *   FREC_RING_ORDER_GLOBAL  seq from one counter shared by every CPU: a
 *                           total order of its own, at the price of a
 *                           write every CPU shares.
 */
#define FREC_RING_ORDER_CPU	0
#define FREC_RING_ORDER_GLOBAL	1

#define FREC_SLOT_BYTES		64
#define FREC_SLOT_WORDS		7

struct frec_slot {
	__u64 state;
	__u64 data[FREC_SLOT_WORDS];
};

/*
 * Call sites.  Every expansion of frec_record() or frec_printk() owns a
 * static descriptor (struct frec_site, include/frec.h): its format, file,
 * line, function, module and level.  frec numbers the sites it registers
 * from 1, and a record stores the number, its site word, in place of the
 * format's address.  A site word is:
 *
 *   1 .. FREC_SITE_ID_LIMIT - 1   the site's id: debugfs frec/sites names it
 *   FREC_SITE_ID_LIMIT and up     the address of the site's format, for a
 *                                 site that has no id (the table was full,
 *                                 or another context of the same site was
 *                                 registering it that moment): debugfs
 *                                 frec/formats gives its text
 *
 * Every kernel address is at or above FREC_SITE_ID_LIMIT (frec checks it
 * when it loads), so the two cannot be confused.
 */
#define FREC_SITE_ID_LIMIT	(1U << 24)

/*
 * debugfs frec/sites: every registered site, a line each, in id order,
 * after '#' comment lines a reader skips:
 *
 *   <id> <level> <line> "<module>" "<file>" "<function>" 0x<caller>
 *	"<caller symbol>" "<format>"
 *
 * for instance (one line):
 *
 *   3 info 52 "frec_hanoi" "/src/frec/kmod/samples/frec_hanoi.c"
 *	"hanoi_frec" 0xffffffffc0a0109a "hanoi_frec+0x1a/0x80 [frec_hanoi]"
 *	"move disk %u from %s to %s"
 *
 * Fields are separated by one space; strings are quoted as frec/formats
 * quotes them (kmod/lib/frec_format_quote.h).  <level> is the level written
 * at the call: err, warn, info, debug or trace.  <caller> is the caller
 * address of the first record the site stored (0x0 and "" before it
 * stored one), and <caller symbol> that address as the dump prints a
 * caller, so that a reader names the caller of every record with that
 * address without kallsyms.  A site whose module has gone keeps its line:
 * frec copies its texts, and names its caller, when the module goes.
 */

/*
 * Fixed-size event, in one slot:
 *   data[0] timestamp (ns, the ring's clock, see FREC_CLOCK_NAME)
 *   data[1] site word (see FREC_SITE_ID_LIMIT)
 *   data[2] caller word: the caller and the context (below)
 *   data[3..6] up to four arguments, unused ones 0
 */

/*
 * The caller word, data[2] of an event or of a record's first slot (a
 * full caller address up to raw version 3 and region version 2):
 *
 *   bits 63..32  the caller's address less FREC_CALLER_BASE, as a signed
 *                32-bit number; with FREC_CTX_SAVED_CALLER, the number of
 *                a name frec saved for it (below)
 *   bits 31..0   the context word:
 *     21..0      the pid (task_pid_nr()) of the task that was current:
 *                the one that recorded, or the one an interrupt
 *                interrupted
 *     28..22     0
 *     29         FREC_CTX_SAVED_CALLER
 *     31..30     where it was recorded: FREC_CTX_TASK, FREC_CTX_SOFTIRQ,
 *                FREC_CTX_HARDIRQ or FREC_CTX_NMI
 *
 * x86_64 keeps kernel text and modules in the top 2 GiB of the address
 * space, so a caller there is its low 32 bits, sign-extended:
 * FREC_CALLER_BASE is 0.  A pid fits in 22 bits: PID_MAX_LIMIT is 4M.
 *
 * When a module goes, frec keeps the names of its callers and rewrites
 * each record's caller word to name the kept one: the upper half then
 * holds the number of that name and the context word FREC_CTX_SAVED_CALLER.
 * Readers turn such a word into the caller "address"
 * FREC_CALLER_SAVED_KEY | number, which no kernel address is (it is not
 * canonical), and find its name where they find every caller's: the
 * dump's own lookup, debugfs frec/formats, a region's texts.
 */
#define FREC_CALLER_BASE	0ULL
#define FREC_CALLER_SAVED_KEY	0x5afe000000000000ULL
#define FREC_CTX_PID_MASK	0x003fffffU
#define FREC_CTX_SAVED_CALLER	0x20000000U
#define FREC_CTX_KIND_SHIFT	30
#define FREC_CTX_TASK		0U
#define FREC_CTX_SOFTIRQ	1U
#define FREC_CTX_HARDIRQ	2U
#define FREC_CTX_NMI		3U
#define FREC_EVENT_TS		0
#define FREC_EVENT_SITE		1
#define FREC_EVENT_CALLER	2
#define FREC_EVENT_ARG0		3
#define FREC_EVENT_MAX_ARGS	4

/*
 * Spans (include/frec.h, frec_span_begin() and frec_span_end()): both
 * ends are fixed-size events of their own call sites, whose formats say
 * what they are by their first byte, the site's kind, which every reader
 * finds wherever it finds the format (frec/sites, frec/formats, a black
 * box region's texts):
 *
 *   FREC_SPAN_BEGIN_FMT format   a span's begin: up to four arguments, as
 *                                any event; the span is named by this
 *                                record's (CPU, seq)
 *   FREC_SPAN_END_FMT format     its end: the format's arguments in
 *                                data[3..4] (at most FREC_SPAN_END_ARGS),
 *                                then two words:
 *     data[5] (arg FREC_SPAN_END_ID)   the begin's name: its seq << 16 |
 *                                      its CPU (FREC_SPAN_ID_CPU_BITS; the
 *                                      seq's low 48 bits)
 *     data[6] (arg FREC_SPAN_END_DUR)  the duration in ns: this record's
 *                                      timestamp minus the begin's; if
 *                                      that is negative (the ends were on
 *                                      two CPUs whose clocks differ),
 *                                      FREC_SPAN_DUR_SKEW | the begin's
 *                                      timestamp minus this one: the span
 *                                      counts as 0 ns
 *
 * frec/sites and frec/formats write FREC_SPAN_MARK as it is (their
 * quoting escapes only \n, \t, " and \).  A text line does not print
 * it: a begin prints as its format after it ("> ..."), an end as its
 * format followed by
 * " dur=<ns>ns span=<begin's cpu>/<begin's seq>" (" dur=0ns skew=-<ns>ns
 * span=..." for a negative difference), kmod/lib/frec_format.c.
 */
#define FREC_SPAN_MARK		0x1f
#define FREC_SPAN_BEGIN_FMT	"\x1f> "
#define FREC_SPAN_END_FMT	"\x1f< "
#define FREC_SPAN_END_ARGS	2
#define FREC_SPAN_END_ID	2
#define FREC_SPAN_END_DUR	3
#define FREC_SPAN_ID_CPU_BITS	16
#define FREC_SPAN_DUR_SKEW	0x8000000000000000ULL

/*
 * Variable-size record, first slot:
 *   data[0] timestamp, data[1] site word, data[2] caller word,
 *   data[3] payload length in bytes (low 32 bits) and number of slots the
 *           record takes (high 32 bits),
 *   data[4..6] the first FREC_RECORD_HEAD_BYTES bytes of payload;
 * each continuation slot: data[0..6], FREC_RECORD_CONT_BYTES more bytes.
 */
/*
 * Bit 31 of a record's length (data[3], low 32 bits): the payload is not
 * text but frec_printk()'s arguments, to be formatted with its site's
 * format when read (kmod/core/frec_printk_args.c):
 *
 *   __u64 arg[n]     the format's n arguments, in order, each as wide as
 *                    the recording kernel's unsigned long or long long;
 *                    a %s argument is FREC_RECORD_ARG_STRING | the offset
 *                    of its copy in the payload, or, if it was not copied,
 *                    its value (NULL, an address the kernel would not
 *                    read), or 1 (it could not be read)
 *   char strings[]   the %s strings copied, each NUL-terminated
 *
 * Readers of the raw dump never see one: frec writes it as text there.
 * A black box region holds them as they were recorded; its readers
 * format them, cut at FREC_RECORD_ARGS_TEXT_MAX bytes of text, as the
 * recording kernel did (include/frec.h's FREC_PRINTK_MAX, which frec
 * checks is the same at build time).
 */
#define FREC_RECORD_ARGS	0x80000000U
#define FREC_RECORD_ARGS_TEXT_MAX	256
#define FREC_RECORD_LEN_MASK	0x7fffffffU
#define FREC_RECORD_ARG_STRING	0x8000000000000000ULL

#define FREC_RECORD_TS		0
#define FREC_RECORD_SITE	1
#define FREC_RECORD_CALLER	2
#define FREC_RECORD_LEN		3
#define FREC_RECORD_PAYLOAD	4
#define FREC_RECORD_HEAD_BYTES	((FREC_SLOT_WORDS - FREC_RECORD_PAYLOAD) * 8)
#define FREC_RECORD_CONT_BYTES	(FREC_SLOT_WORDS * 8)

/*
 * Name of the clock timestamps are taken with: "local" is the kernel's
 * local_clock(), which ftrace calls the "perf" trace_clock (ftrace's own
 * "local" is raw sched_clock(), off from local_clock() by a constant).
 */
#define FREC_CLOCK_NAME		"local"

/*
 * The raw dump (debugfs frec/raw): a stream a tool reads front to back.
 *
 *   struct frec_raw_header                      once, at offset 0
 *   entries, each a struct frec_raw_entry_head  in any number, each
 *   followed by its body and padded to a        starting 8-byte aligned
 *   multiple of 8 bytes
 *
 * Every ring appears as a FREC_RAW_RING entry before the first record that
 * names it.  Records (FREC_RAW_EVENT, FREC_RAW_TEXT) come merged in the
 * order kmod/lib/frec_merge.c defines: by (timestamp, CPU, seq, ring id),
 * or, if the header has FREC_RAW_MERGE_BY_SEQ (every ring read numbers its
 * records from the global counter), by (seq, ring id).  A reader may merge
 * the per-(ring, CPU) lists again with that engine and gets the same
 * order.  Numbers are in the recording machine's byte order, which
 * @byte_order tells: it reads FREC_RAW_BYTE_ORDER there.  A reader skips
 * entry types it does not know by @bytes, so new types need no new version.
 */
#define FREC_RAW_MAGIC		"FRECRAW"	/* 8 bytes with its NUL */
#define FREC_RAW_BYTE_ORDER	0x01020304U
#define FREC_RAW_CLOCK_LEN	16

/**
 * struct frec_raw_header - start of a raw dump
 * @magic: FREC_RAW_MAGIC, NUL-padded.
 * @byte_order: FREC_RAW_BYTE_ORDER in the writer's byte order.
 * @version: FREC_RAW_VERSION.
 * @header_bytes: sizeof(struct frec_raw_header), where entries start.
 * @slot_bytes: FREC_SLOT_BYTES, the size of one ring slot.
 * @word_bytes: sizeof(unsigned long) of the recording kernel (arguments
 *	and addresses were that wide).
 * @flags: FREC_RAW_CLOCK_SYNCED, FREC_RAW_MERGE_BY_SEQ.
 * @clock: name of the timestamps' clock (FREC_CLOCK_NAME), NUL-padded.
 */
struct frec_raw_header {
	char magic[8];
	__u32 byte_order;
	__u32 version;
	__u32 header_bytes;
	__u32 slot_bytes;
	__u32 word_bytes;
	__u32 flags;
	char clock[FREC_RAW_CLOCK_LEN];
};

/*
 * @flags of struct frec_raw_header: the clock was synchronised across CPUs
 * when the dump was read, so the order of records of different CPUs
 * follows happens-before.  Without it, that order is approximate.
 */
#define FREC_RAW_CLOCK_SYNCED	0x1U
/*
 * @flags: every ring in the dump is a FREC_RING_ORDER_GLOBAL ring, and
 * records are merged by their global seq, not by timestamp.
 */
#define FREC_RAW_MERGE_BY_SEQ	0x2U

enum frec_raw_entry_type {
	FREC_RAW_RING = 1,	/* struct frec_raw_ring */
	FREC_RAW_EVENT = 2,	/* struct frec_raw_record, no payload */
	FREC_RAW_TEXT = 3,	/* struct frec_raw_record + @len bytes of text */
	FREC_RAW_CLOCK = 4,	/* struct frec_raw_clock */
	FREC_RAW_TASK = 5,	/* struct frec_raw_task */
};

/**
 * struct frec_raw_entry_head - start of every entry
 * @type: enum frec_raw_entry_type.
 * @bytes: size of the entry from this head on, padding included; a
 *	multiple of 8, at least 8.
 */
struct frec_raw_entry_head {
	__u32 type;
	__u32 bytes;
};

#define FREC_RAW_RING_NAME_LEN	32

/**
 * struct frec_raw_ring - FREC_RAW_RING: a ring records refer to by @id
 * @head: type and size.
 * @id: the number records use for this ring in this dump.
 * @kind: 0 event ring, 1 record ring (enum frec_ring_kind).
 * @order: FREC_RING_ORDER_CPU or FREC_RING_ORDER_GLOBAL.
 * @reserved: 0.
 * @name: the ring's name, NUL-padded: 1 to 31 bytes of [A-Za-z0-9_-], ASCII
 *	only, the one rule every reader and the kernel's ring creation share
 *	(kmod/lib/frec_filter.h, frec_ring_name_ok()).  A reader skips an
 *	entry naming anything else, and the records of its id with it.
 */
struct frec_raw_ring {
	struct frec_raw_entry_head head;
	__u32 id;
	__u32 kind;
	__u32 order;
	__u32 reserved;
	char name[FREC_RAW_RING_NAME_LEN];
};

/**
 * struct frec_raw_record - FREC_RAW_EVENT or FREC_RAW_TEXT: one record
 * @head: type and size.
 * @seq: sequence number; (@cpu, @seq) names the record.
 * @ts: timestamp in ns.
 * @site: the record's site word: a site id (debugfs frec/sites) or,
 *	for a site without one, its format's address (FREC_SITE_ID_LIMIT).
 * @caller: the caller's address.
 * @ring: id of its ring's FREC_RAW_RING entry.
 * @cpu: the CPU that recorded it.
 * @len: bytes of text after this struct (FREC_RAW_TEXT), else 0.
 * @context: the context word (FREC_CTX_PID_MASK and the kind; never
 *	FREC_CTX_SAVED_CALLER: @caller is whole); 0 up to version 3.
 * @args: an event's four arguments (FREC_RAW_EVENT), else 0.
 */
struct frec_raw_record {
	struct frec_raw_entry_head head;
	__u64 seq;
	__u64 ts;
	__u64 site;
	__u64 caller;
	__u32 ring;
	__u32 cpu;
	__u32 len;
	__u32 context;
	__u64 args[FREC_EVENT_MAX_ARGS];
};

/*
 * ftrace's default trace clock, "local", is trace_clock_local(): the raw
 * sched_clock().  The records' clock, local_clock(), is sched_clock() plus
 * a constant of the boot once the kernel marked the clock stable (the
 * offset dmesg shows in "sched_clock: Marking stable"), which no kernel
 * exports.  frec measures it when a raw dump opens, so that a reader puts
 * the records on ftrace's timeline: ftrace's timestamp = @ts - @offset.
 */
#define FREC_RAW_TRACE_CLOCK_NAME	"local"

/**
 * struct frec_raw_clock - FREC_RAW_CLOCK: the records' clock against
 *	ftrace's; after the header, before any record
 * @head: type and size.
 * @offset: local_clock() - trace_clock_local() in ns, read back to back
 *	with interrupts off, on the CPU that opened the dump.
 * @window: ns between the two local_clock() reads around the
 *	trace_clock_local() read, the narrowest of several tries: @offset
 *	is exact within @window / 2.
 * @flags: FREC_RAW_CLOCK_OFFSET_CONSTANT.
 * @tick_ns: the records' clock moves in steps of this many ns (arm64: the
 *	architected counter's period, 16 ns at 62.5 MHz); 0: not known (a
 *	dump of an older frec, where this was a reserved 0).  Two CPUs'
 *	records less than a tick apart may carry one timestamp, and the
 *	merge puts the lower CPU first; one CPU never gives a timestamp twice.
 * @trace_clock: FREC_RAW_TRACE_CLOCK_NAME, NUL-padded: the ftrace clock
 *	@offset is against.
 */
struct frec_raw_clock {
	struct frec_raw_entry_head head;
	__s64 offset;
	__u64 window;
	__u32 flags;
	__u32 tick_ns;
	char trace_clock[FREC_RAW_CLOCK_LEN];
};

/*
 * @flags of struct frec_raw_clock: the clock was synchronised across CPUs
 * (FREC_RAW_CLOCK_SYNCED), so the offset is one constant on every CPU and
 * for the whole boot.  Without it local_clock() is each CPU's sched_clock()
 * filtered against the tick, and the offset holds only near the CPU and
 * the moment it was read.
 */
#define FREC_RAW_CLOCK_OFFSET_CONSTANT	0x1U

#define FREC_RAW_TASK_COMM_LEN	16

/**
 * struct frec_raw_task - FREC_RAW_TASK: the name of a task records name
 * @head: type and size.
 * @pid: the task's pid, as the records' context words hold it.
 * @reserved: 0.
 * @comm: its name (the kernel's task comm) when the dump was read,
 *	NUL-padded.
 *
 * Before the first record whose context names the task @pid, once per
 * pid, if the task was alive when the dump read it: a task that had
 * exited has no entry, and readers name it "<...>", as ftrace names a
 * pid whose name it did not save.  From version 4.
 */
struct frec_raw_task {
	struct frec_raw_entry_head head;
	__u32 pid;
	__u32 reserved;
	char comm[FREC_RAW_TASK_COMM_LEN];
};

#endif /* _UAPI_FREC_RAW_H */
