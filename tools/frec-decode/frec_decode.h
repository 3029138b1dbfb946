/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_decode.h - the parts of frec-decode and what they hand each other.
 *
 *   errors.c       errors handed back, warnings printed: every part's
 *                  (errors.h)
 *   raw.c          reads the raw dump (uapi/frec_raw.h) front to back
 *   addr_table.c   a text file's lines as a table sorted by address
 *   formats.c      the formats file: address -> format or %s string
 *   sites.c        the sites file: site id -> format, and caller names
 *   kallsyms.c     the symbol table: address -> "sym+0xoff/0xsize [mod]"
 *   decode.c       rings, per-(ring, CPU) sources and their checks, the
 *                  merge (kmod/lib/frec_merge.c), the filter
 *                  (kmod/lib/frec_filter.c), deltas, --stats; formats each
 *                  record and hands it to a writer
 *   write_text.c   the dump's text, line for line
 *   write_json.c   Chrome trace-event JSON
 *   write_csv.c    CSV
 *   write_tracedat.c  trace-cmd's trace.dat, frec's tracepoints' events
 *   write_hist.c   a latency histogram per span-end site, as frec/hist
 *   region.c       a black box region image as a raw dump, sites and
 *                  formats (kmod/lib/frec_region.c reads it)
 *   kdump.c        makedumpfile's compressed kdump format, page by page
 *   vmcore.c       a kdump's frec memory joined into a region image
 *   main.c         options and files
 *
 * The dump's order is not trusted: records are printed in the order the
 * module's own engine, kmod/lib/frec_merge.c, merges their (ring, CPU)
 * sources in.  A dump that can be read twice (a file) is first checked to
 * be in that order already, as the module writes it, and then printed as
 * it is read again, in constant memory; any other is kept whole and
 * merged at its end: about 120 bytes a record, plus its text.
 */
#ifndef _FREC_DECODE_H
#define _FREC_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "frec_filter.h"
#include "frec_format.h"
#include "frec_inflight.h"
#include "frec_merge.h"
#include "frec_raw.h"

#include "errors.h"

/* Limits that keep garbage from making the decoder grow without bound. */
#define FREC_DECODE_ENTRY_MAX	65536		/* bytes of one raw entry */
#define FREC_DECODE_RINGS_MAX	65536		/* ring entries in a dump */
#define FREC_DECODE_CPUS_MAX	65536		/* CPU numbers 0..this-1 */
#define FREC_DECODE_HEADER_MAX	4096		/* header_bytes */
#define FREC_DECODE_FILE_MAX	(256u << 20)	/* formats, sites, kallsyms */

/* Exit codes. */
#define FREC_EXIT_OK		0	/* decoded to the end */
#define FREC_EXIT_INPUT		1	/* bad or unreadable input, write error */
#define FREC_EXIT_USAGE		2	/* bad command line */
#define FREC_EXIT_WARNINGS	3	/* decoded to the end, with warnings */

/* ---- raw.c ----------------------------------------------------------- */

/**
 * struct frec_raw_item - one entry of the raw dump, in host byte order
 * @type: FREC_RAW_RING, FREC_RAW_EVENT or FREC_RAW_TEXT.
 * @offset: where its entry starts in the dump.
 * @ring_id: FREC_RAW_RING: the id records use.
 * @ring_kind: FREC_RAW_RING: 0 events, 1 records.
 * @ring_order: FREC_RAW_RING: FREC_RING_ORDER_CPU or FREC_RING_ORDER_GLOBAL.
 * @ring_name: FREC_RAW_RING: the name, NUL-terminated, checked unless
 *	@ring_bad.
 * @ring_bad: FREC_RAW_RING: the entry is whole, but its kind, order or
 *	name is bad (frec_raw_next()'s @err says which, and where): it
 *	defines no ring, and its records are to be skipped with it.
 * @rec: FREC_RAW_EVENT, FREC_RAW_TEXT: the record.
 * @text: FREC_RAW_TEXT: rec.len bytes of text (inside the reader).
 */
struct frec_raw_item {
	unsigned int type;
	unsigned long long offset;
	unsigned int ring_id;
	unsigned int ring_kind;
	unsigned int ring_order;
	char ring_name[FREC_RAW_RING_NAME_LEN];
	bool ring_bad;
	struct frec_raw_record rec;
	const char *text;
};

/**
 * struct frec_trace_clock - the records' clock against ftrace's, from the
 *	dump's FREC_RAW_CLOCK entry (uapi/frec_raw.h, struct frec_raw_clock)
 * @known: the dump had one.
 * @offset: local_clock() - trace_clock_local(), ns.
 * @window: its uncertainty, twice over (ns).
 * @flags: FREC_RAW_CLOCK_OFFSET_CONSTANT.
 * @tick_ns: the records' clock's tick, 0 if not known.
 */
struct frec_trace_clock {
	bool known;
	long long offset;
	unsigned long long window;
	unsigned int flags;
	unsigned int tick_ns;
};

/* ---- tasks.c --------------------------------------------------------- */

/**
 * struct frec_task - a slot of struct frec_tasks
 * @used: the slot holds a task.
 * @pid: its pid.
 * @comm: its name, NUL-terminated.
 */
struct frec_task {
	bool used;
	u32 pid;
	char comm[FREC_RAW_TASK_COMM_LEN + 1];
};

/**
 * struct frec_tasks - the names of a dump's tasks, by pid (tasks.c)
 * @slots: @cap slots, open-addressed.
 * @cap: a power of two, 0 before the first name.
 * @nr: slots used.
 */
struct frec_tasks {
	struct frec_task *slots;
	size_t cap;
	size_t nr;
};

int frec_tasks_set(struct frec_tasks *t, u32 pid, const char *comm);
const char *frec_tasks_name(const struct frec_tasks *t, u32 pid);
void frec_tasks_free(struct frec_tasks *t);

/**
 * struct frec_raw_reader - reading a raw dump as a stream
 * @f: the stream.
 * @offset: bytes consumed so far.
 * @swap: the dump was written in the other byte order.
 * @version: the header's version: from FREC_RAW_VERSION_CONTEXT on,
 *	records have a context.
 * @clock: the header's clock name, NUL-terminated.
 * @flags: the header's flags (FREC_RAW_CLOCK_SYNCED, FREC_RAW_MERGE_BY_SEQ).
 * @end: the offset the dump ends at for the reader: the end of the stream
 *	unless set lower after frec_raw_open().
 * @buf: bytes read from the stream, the current entry's among them.
 * @pos: where in @buf the bytes not consumed yet start (at @offset).
 * @len: bytes in @buf.
 * @at_end: the stream (or @end) is reached: @buf holds all that is left.
 * @trace_clock: the dump's FREC_RAW_CLOCK entry, once read past.
 * @tasks: the names of its FREC_RAW_TASK entries read so far.
 */
struct frec_raw_reader {
	FILE *f;
	unsigned long long offset;
	bool swap;
	unsigned int version;
	char clock[FREC_RAW_CLOCK_LEN + 1];
	unsigned int flags;
	unsigned long long end;
	unsigned char *buf;
	size_t pos;
	size_t len;
	bool at_end;
	struct frec_trace_clock trace_clock;
	struct frec_tasks tasks;
};

int frec_raw_open(struct frec_raw_reader *r, FILE *f, struct frec_err *err);
int frec_raw_next(struct frec_raw_reader *r, struct frec_raw_item *item,
		  struct frec_err *err);
void frec_raw_close(struct frec_raw_reader *r);

/* ---- region.c -------------------------------------------------------- */

#include "frec_region_text.h"

/**
 * struct frec_region_decode - a region image made into decoder inputs
 * @name: the image's name, for messages.
 * @errs: where warnings go, NULL for none.
 * @v: the image, opened.
 * @dump: its records, found and ordered as frec/previous/dump orders them.
 * @raw: a raw dump of its whole records, host byte order.
 * @raw_len: its length.
 * @sites_text: a sites file of its valid sites.
 * @sites_len: its length.
 * @formats_text: a formats file of its valid texts.
 * @formats_len: its length.
 * @recovered: records put in @raw.
 * @rejected: records left out, by enum frec_region_reject.
 * @not_decoded: frec_printk() argument records, left out.
 * @bad_entries: corrupt rings, sites and texts entries.
 * @warnings: warnings given.
 */
struct frec_region_decode {
	const char *name;
	FILE *errs;
	struct frec_region_view v;
	struct frec_region_dump dump;
	char *raw;
	size_t raw_len;
	char *sites_text;
	size_t sites_len;
	char *formats_text;
	size_t formats_len;
	unsigned long long recovered;
	unsigned long long rejected[FREC_REGION_REJ_NR];
	unsigned long long not_decoded;
	unsigned long long bad_entries;
	unsigned long long warnings;
};

int frec_region_decode_open(struct frec_region_decode *rd, const void *data,
			    size_t len, struct frec_err *err);
void frec_region_decode_report(const struct frec_region_decode *rd);
void frec_region_decode_free(struct frec_region_decode *rd);

/* ---- vmcore.c -------------------------------------------------------- */

/* A little-endian field of a file's bytes, at any alignment (vmcore.c, kdump.c). */
static inline u64 frec_get_le64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static inline u32 frec_get_le32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

/**
 * struct frec_vmcore_src - a vmcore, read at any offset
 * @read: read @len bytes at @off into @buf, all of them: 0, or -1 with
 *	errno set.
 * @ctx: its first argument.
 * @size: the vmcore's size in bytes.
 */
struct frec_vmcore_src {
	int (*read)(void *ctx, u64 off, void *buf, size_t len);
	void *ctx;
	u64 size;
};

int frec_vmcore_image(const struct frec_vmcore_src *src, const char *name, FILE *errs,
		      unsigned long long *warnings, unsigned char **image, size_t *len,
		      struct frec_err *err);

/* ---- kdump.c --------------------------------------------------------- */

struct frec_kdump;

int frec_kdump_open(const struct frec_vmcore_src *src, struct frec_kdump **kd,
		    struct frec_err *err);
u64 frec_kdump_frames(const struct frec_kdump *kd);
const u8 *frec_kdump_page(struct frec_kdump *kd, u64 pfn, u64 *at, struct frec_err *err);
u64 frec_kdump_next(const struct frec_kdump *kd, u64 pfn);
void frec_kdump_close(struct frec_kdump *kd);

/* ---- addr_table.c ---------------------------------------------------- */

/**
 * struct frec_addr_key - what an entry of an address table starts with
 * @addr: the address the table is sorted by.
 * @line: the entry's line in its file (equal addresses keep file order).
 */
struct frec_addr_key {
	u64 addr;
	size_t line;
};

/* One line of a file into @entry: 1 kept, 0 skipped, -1 with @err set. */
typedef int (*frec_addr_line_fn)(void *ctx, void *entry, const char *s, size_t len,
				 size_t line_no, struct frec_err *err);

void *frec_addr_table_read(const char *data, size_t len, size_t size, size_t *nr,
			   frec_addr_line_fn line, void *ctx, struct frec_err *err);
void frec_addr_table_sort(void *entries, size_t nr, size_t size);
void *frec_addr_table_find(const void *entries, size_t nr, size_t size, u64 addr);
size_t frec_addr_parse_hex(const char *s, size_t len, u64 *addr);
int frec_addr_unquote(char *block, size_t *used, const char *q, size_t n,
		      size_t *off, size_t *len);

/* ---- formats.c ------------------------------------------------------- */

/**
 * struct frec_formats - the formats file, sorted by address
 * @entries: one per line.
 * @nr: how many.
 * @nr_symbols: how many of them are saved symbols (lines read, repeats
 *	counted).
 * @text: the unquoted strings, each NUL-terminated.
 * @timed: an address has lines of several times (a region's later texts).
 * @at: the time whose texts lookups give (frec_formats_at()).
 */
struct frec_formats {
	struct frec_formats_entry *entries;
	size_t nr;
	size_t nr_symbols;
	char *text;
	bool timed;
	u64 at;
};

int frec_formats_parse(struct frec_formats *t, const char *data, size_t len,
		       struct frec_err *err);
int frec_formats_parse_region(struct frec_formats *t, const char *data, size_t len,
			      struct frec_err *err);
const char *frec_formats_find(const struct frec_formats *t, u64 addr);
const char *frec_formats_symbol(const struct frec_formats *t, u64 addr);
bool *frec_formats_checked(const struct frec_formats *t, u64 addr);
int frec_formats_string(void *ctx, char *buf, size_t size, u64 addr);
void frec_formats_at(struct frec_formats *t, u64 ts);
void frec_formats_free(struct frec_formats *t);

/* ---- sites.c --------------------------------------------------------- */

/**
 * struct frec_site - a call site: one line of the sites file
 * @key: key.addr is the site's id, key.line its line in the file.
 * @caller: the caller address of the first record the site stored, 0 if
 *	it stored none.
 * @level: the level written at the call, as enum frec_level numbers it
 *	(include/frec.h): 1 err, 2 warn, 3 info, 4 debug, 5 trace.
 * @line: the line of the call in @file.
 * @module: the module's name.
 * @file: the source file.
 * @function: the function.
 * @caller_symbol: @caller as the dump prints a caller; "" if none.
 * @format: the format (a frec_printk() site's too; its records hold text).
 * @checked: the decoder has checked @format (and reported it if bad).
 */
struct frec_site {
	struct frec_addr_key key;
	u64 caller;
	unsigned int level;
	unsigned int line;
	const char *module;
	const char *file;
	const char *function;
	const char *caller_symbol;
	const char *format;
	bool checked;
};

/* The level words of the sites file, by enum frec_level; [0] is NULL. */
extern const char *const frec_site_levels[6];

/**
 * struct frec_sites - the sites file
 * @sites: one per line, sorted by id.
 * @nr: how many.
 * @callers: the sites with a caller and its symbol, sorted by caller
 *	address, one per address (the lowest id's).
 * @nr_callers: how many.
 * @text: the unquoted strings, each NUL-terminated.
 */
struct frec_sites {
	struct frec_site *sites;
	size_t nr;
	struct frec_site_caller *callers;
	size_t nr_callers;
	char *text;
};

int frec_sites_parse(struct frec_sites *t, const char *data, size_t len,
		     struct frec_err *err);
struct frec_site *frec_sites_find(const struct frec_sites *t, u64 id);
const char *frec_sites_caller(const struct frec_sites *t, u64 addr);
void frec_sites_free(struct frec_sites *t);

/* ---- kallsyms.c ------------------------------------------------------ */

/**
 * struct frec_kallsyms - a kallsyms file, sorted by address
 * @syms: the symbols resolution uses.
 * @nr: how many.
 * @names: symbol and module names, NUL-terminated.
 * @all_zero: every address was 0: read without privilege (kptr_restrict).
 */
struct frec_kallsyms {
	struct frec_ksym *syms;
	size_t nr;
	char *names;
	bool all_zero;
};

int frec_kallsyms_parse(struct frec_kallsyms *k, const char *data,
			size_t len, struct frec_err *err);
int frec_kallsyms_symbol(void *ctx, char *buf, size_t size, u64 addr,
			 char ext);
void frec_kallsyms_free(struct frec_kallsyms *k);

/* ---- decode.c -------------------------------------------------------- */

enum frec_output {
	FREC_OUT_TEXT, FREC_OUT_JSON, FREC_OUT_CSV, FREC_OUT_TRACEDAT, FREC_OUT_HIST
};

enum frec_json_track { FREC_TRACK_CPU, FREC_TRACK_RING, FREC_TRACK_TASK };

/**
 * struct frec_decode_opts - what to print, and how
 * @output: text, JSON, CSV, trace.dat or histograms.
 * @track: JSON: one track per CPU, per ring, or per task.
 * @deltas: print the time since the previous printed record.
 * @filter: the records to print, in the module's filter language; NULL
 *	for all.  A ring glob without wildcards must name a ring of the dump.
 * @stats: instead of the records, print per (ring, CPU) how many records
 *	the dump holds and how many its seqs say were lost.
 * @reread: the input can be read again from where it is at the start
 *	(fseeko()), and then reads the same: a regular file with a size
 *	(debugfs' frec/raw has none, and reads anew each time).  A dump in the
 *	merged order is then printed in a second pass as it is read, instead
 *	of kept whole and merged.
 * @in_flight: text: after the records, the spans in flight at the dump's
 *	end (kmod/lib/frec_inflight.c), as frec/previous/dump lists them.
 */
struct frec_decode_opts {
	enum frec_output output;
	enum frec_json_track track;
	bool deltas;
	const struct frec_filter *filter;
	bool stats;
	bool reread;
	bool in_flight;
};

struct frec_ring_info;
struct frec_writer;
struct frec_tracedat;
struct frec_json_ring;
struct frec_hist_table;

/**
 * struct frec_stored - a record read, kept until the merge prints it
 * @rec: the record, host byte order; @rec.head.type is its entry type.
 * @offset: where its entry starts in the dump.
 * @text: FREC_RAW_TEXT: where its text starts in the decoder's text buffer.
 * @next: index of the next record of the same (ring, CPU) source, or
 *	FREC_STORED_NONE.
 */
struct frec_stored {
	struct frec_raw_record rec;
	unsigned long long offset;
	size_t text;
	size_t next;
};

#define FREC_STORED_NONE	((size_t)-1)

/**
 * struct frec_source - the records of one ring on one CPU
 * @ring: the ring's id.
 * @cpu: the CPU.
 * @used: this slot of the table holds a source.
 * @head: index of its first record not yet printed, or FREC_STORED_NONE.
 * @tail: index of its last record read.
 * @records: records read.
 * @min_seq: the lowest seq read (--stats' first_seq).
 * @max_seq: the highest (--stats' last_seq).
 * @last_seq: seq of the last read.
 * @last_ts: timestamp of the last read.
 * @last_position: position of the last read among the records of the
 *	dump, from 1; 0 before the first (the order check).
 */
struct frec_source {
	unsigned int ring;
	unsigned int cpu;
	bool used;
	size_t head;
	size_t tail;
	unsigned long long records;
	u64 min_seq;
	u64 max_seq;
	u64 last_seq;
	u64 last_ts;
	unsigned long long last_position;
};

/**
 * struct frec_order_mark - a record no later record has passed yet
 * @key: where it goes in the merged order.
 * @position: its position among the records of the dump, from 1.
 */
struct frec_order_mark {
	struct frec_merge_key key;
	unsigned long long position;
};

/**
 * struct frec_missing - a site id or format address found missing, and
 *	reported
 * @addr: the site word.
 * @used: this slot holds one.
 */
struct frec_missing {
	u64 addr;
	bool used;
};

/* Names of addresses the decoder keeps (a power of two), and their size. */
#define FREC_SYMBOL_CACHE	1024
#define FREC_SYMBOL_TEXT	80

/**
 * struct frec_symbol_cache - a name found for an address, kept
 * @addr: the address.
 * @ext: the form, as symbol() takes it ('S', 's', 'B').
 * @used: this slot holds a name.
 * @len: its length, or -1: the address resolves nowhere.
 * @text: the name (not NUL-terminated).
 */
struct frec_symbol_cache {
	u64 addr;
	char ext;
	bool used;
	int len;
	char text[FREC_SYMBOL_TEXT];
};

/**
 * struct frec_decoded - a record ready to print
 * @rec: what frec_format_line() takes.
 * @ring: its ring.
 * @site: its site word (a site id or a format's address).
 * @event: a fixed-size event (not a text record).
 * @msg: the message alone (frec_format_message(), or the text), raw;
 *	not made for the text and hist outputs.
 * @msg_len: its length.
 * @caller: the caller as a line names it.
 * @delta: ns since the previous printed record, if opts.deltas.
 * @line_len: the text line is in the decoder's line buffer already (the
 *	filter's text= term read it), this long; 0 if not.
 */
struct frec_decoded {
	struct frec_format_record rec;
	struct frec_ring_info *ring;
	u64 site;
	bool event;
	const char *msg;
	size_t msg_len;
	const char *caller;
	long long delta;
	size_t line_len;
};

/**
 * struct frec_decoder - one decoding run
 * @opts: what to print.
 * @formats: the formats table.
 * @sites: the sites table.
 * @kallsyms: the symbol table, or NULL.
 * @out: where output goes.
 * @errs: where warnings go, NULL for none (fuzzing).
 * @in_name: the raw dump's name, for messages.
 * @writer: the output format's writer.
 * @env: lookups for frec_format.c.
 * @rings: the ring table, by id (open addressing).
 * @rings_cap: its size, a power of two.
 * @nr_rings: rings in it, skipped ones too.
 * @nr_tracks: rings given a track (skipped ones have none).
 * @json_rings: JSON: per ring, by its track number, its tracks' state
 *	(write_json.c).
 * @json_rings_cap: its size.
 * @missing: site ids and format addresses reported missing (open
 *	addressing).
 * @nr_missing: how many.
 * @events: JSON: events written, for the commas between them.
 * @stored: the records read, in the dump's order.
 * @nr_stored: how many.
 * @stored_cap: room for this many.
 * @text: the text records' texts, one after the other.
 * @text_len: bytes in @text.
 * @text_cap: its size.
 * @sources: the (ring, CPU) sources (open addressing).
 * @sources_cap: its size, a power of two.
 * @nr_sources: sources in it.
 * @raw_flags: the dump header's flags.
 * @contexts: the dump's records have contexts (FREC_RAW_VERSION_CONTEXT).
 * @tasks: the names of the dump's tasks (its reader's).
 * @merge: the order records are merged in (only its by_seq is used).
 * @marks: the order check's stack (decode.c, order_check()).
 * @nr_marks: marks on it.
 * @marks_cap: its size.
 * @position: records the order check has seen.
 * @order: the order the records are merged in, frec_format_order()'s name.
 * @site: the site of the record being printed, if its site word is an id
 *	the sites file has; else NULL.
 * @symbols: names found for addresses (decode.c, decode_symbol()).
 * @prev_ts: timestamp of the last record printed.
 * @printed: records printed.
 * @records: records read.
 * @skipped: records of skipped rings (struct frec_ring_info) left out.
 * @bad_rings_told: bad ring entries before this offset were reported.
 * @warnings: warnings given.
 * @line: a line's buffer.
 * @block: lines the text writer formatted, not written out yet.
 * @block_len: bytes in @block.
 * @msg: a message's buffer.
 * @caller: a caller's buffer.
 * @clock: the dump's clock name.
 * @trace_clock: the dump's offset from ftrace's clock (the reader's).
 * @tracedat: trace.dat: the pages being made (write_tracedat.c).
 * @hist: hist: the sites' histograms (write_hist.c).
 * @inflight: --in-flight: the list of spans in flight being made.
 * @inflight_begins: --in-flight: the span begins read, to print the
 *	open ones' lines (@rec and @offset of each).
 * @nr_inflight: how many.
 * @inflight_cap: room for this many.
 */
struct frec_decoder {
	struct frec_decode_opts opts;
	struct frec_formats *formats;
	struct frec_sites *sites;
	struct frec_kallsyms *kallsyms;
	FILE *out;
	FILE *errs;
	const char *in_name;
	const struct frec_writer *writer;
	struct frec_format_env env;
	struct frec_ring_info *rings;
	size_t rings_cap;
	size_t nr_rings;
	size_t nr_tracks;
	struct frec_json_ring *json_rings;
	size_t json_rings_cap;
	struct frec_missing *missing;
	size_t nr_missing;
	unsigned long long events;
	struct frec_stored *stored;
	size_t nr_stored;
	size_t stored_cap;
	char *text;
	size_t text_len;
	size_t text_cap;
	struct frec_source *sources;
	size_t sources_cap;
	size_t nr_sources;
	unsigned int raw_flags;
	bool contexts;
	const struct frec_tasks *tasks;
	struct frec_merge merge;
	struct frec_order_mark *marks;
	size_t nr_marks;
	size_t marks_cap;
	unsigned long long position;
	const char *order;
	struct frec_site *site;
	struct frec_symbol_cache symbols[FREC_SYMBOL_CACHE];
	u64 prev_ts;
	unsigned long long printed;
	unsigned long long records;
	unsigned long long skipped;
	unsigned long long bad_rings_told;
	unsigned long long warnings;
	char line[FREC_FORMAT_LINE_MAX];
	char block[64 * FREC_FORMAT_LINE_MAX];
	size_t block_len;
	char msg[FREC_FORMAT_LINE_MAX];
	char caller[FREC_FORMAT_LINE_MAX];
	const char *clock;
	const struct frec_trace_clock *trace_clock;
	struct frec_tracedat *tracedat;
	struct frec_hist_table *hist;
	struct frec_inflight inflight;
	struct frec_stored *inflight_begins;
	size_t nr_inflight;
	size_t inflight_cap;
};

/**
 * struct frec_ring_info - a ring of the dump
 * @id: its id in the dump.
 * @used: this slot of the table holds a ring.
 * @selected: records of this ring are printed.
 * @kind: 0 events, 1 records.
 * @order: FREC_RING_ORDER_CPU or FREC_RING_ORDER_GLOBAL.
 * @track: its position among the dump's rings, from 0 (JSON's pid less one).
 * @name: its name.
 * @skipped: no good entry defines it, only a bad one (struct
 *	frec_raw_item's @ring_bad): its records are read, not printed.
 */
struct frec_ring_info {
	unsigned int id;
	bool used;
	bool selected;
	bool skipped;
	unsigned int kind;
	unsigned int order;
	unsigned int track;
	char name[FREC_RAW_RING_NAME_LEN];
};

/**
 * struct frec_writer - an output format
 * @begin: before the first record (d->clock is the dump's clock name,
 *	d->order the order its records are merged in).
 * @record: one record.
 * @end: after the last record, or after an error in the dump.
 */
struct frec_writer {
	void (*begin)(struct frec_decoder *d);
	void (*record)(struct frec_decoder *d, const struct frec_decoded *r);
	void (*end)(struct frec_decoder *d);
};

/* Numbers for the writers, without printf()'s cost per record. */
static inline void frec_put_dec(FILE *out, unsigned long long v)
{
	char buf[20];
	int i = sizeof(buf);

	do
		buf[--i] = (char)('0' + v % 10);
	while (v /= 10);
	fwrite_unlocked(buf + i, 1, sizeof(buf) - i, out);
}

static inline void frec_put_hex(FILE *out, unsigned long long v)
{
	char buf[18];
	int i = sizeof(buf);

	do
		buf[--i] = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	buf[--i] = 'x';
	buf[--i] = '0';
	fwrite_unlocked(buf + i, 1, sizeof(buf) - i, out);
}

extern const struct frec_writer frec_write_text;
extern const struct frec_writer frec_write_json;
void frec_json_free(struct frec_decoder *d);
extern const struct frec_writer frec_write_csv;
extern const struct frec_writer frec_write_tracedat;
extern const struct frec_writer frec_write_hist;
void frec_hist_free(struct frec_decoder *d);


void frec_decoder_init(struct frec_decoder *d,
		       const struct frec_decode_opts *opts,
		       struct frec_formats *formats, struct frec_sites *sites,
		       struct frec_kallsyms *kallsyms, FILE *out, FILE *errs);
int frec_decode_stream(struct frec_decoder *d, FILE *in, const char *in_name);
void frec_decoder_free(struct frec_decoder *d);

#endif /* _FREC_DECODE_H */
