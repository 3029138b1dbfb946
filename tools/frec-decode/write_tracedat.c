// SPDX-License-Identifier: GPL-2.0
/*
 * write_tracedat.c - a trace.dat (trace-cmd's file, version 6) that
 * `trace-cmd report` and KernelShark read: each record an event of frec's
 * own tracepoints (kmod/core/frec_trace.h), frec:frec_record for events and
 * frec:frec_printk for text records, on its CPU at its timestamp.
 *
 * The file is what trace-cmd itself would save from tracefs: the
 * header_page and header_event descriptions, the two events' format files,
 * the callers' functions as kallsyms (so that trace-cmd names a caller as
 * the text does, without the function's size), empty printk formats and
 * cmdlines, the trace clock, then per CPU the kernel ring buffer's pages (a page header with the timestamp of
 * its first event and the bytes committed, then events with 5-bit
 * type_len / 27-bit time_delta headers, and a time-extend entry where the
 * delta since the previous event does not fit in 27 bits; a new page where
 * it does not fit in a time extend's 59).
 *
 * The events carry the tracepoints' fields (ring, seq, cpu, caller, and
 * for frec_record fmt and the four arguments); frec_record gets one field
 * more, msg, which a live tracepoint cannot have: the message formatted
 * offline.  Messages (frec_record's msg, frec_printk's text) are the
 * message as a text line prints it (escaped, cut as the line is), so that
 * the report and the text output say the same.  fmt is 0: a record names
 * its format by site id more often than by address.
 *
 * A span's begin and end (uapi/frec_raw.h, "Spans") are events of two
 * more, frec:frec_span_begin and frec:frec_span_end, which exist in the
 * file only (the live tracepoint of either is frec_record): frec_record's
 * fields and span, the begin's name (its seq << 16 | its CPU) in both,
 * and dur, the end's duration in ns: KernelShark's latency plot pairs
 * them by span.
 *
 * Records lost from a ring on a CPU (a gap in its seqs, or seqs before
 * the first one kept) start a new page flagged as ftrace flags a page
 * after missed events, with the count stored after its data, so the
 * report prints "[N EVENTS DROPPED]" there.  With a filter, records not
 * printed are not lost, and nothing is flagged.
 *
 * Timestamps are on ftrace's default clock, "local" (the raw
 * sched_clock()), when the dump says how far the records' local_clock()
 * is from it (its FREC_RAW_CLOCK entry): frec-decode subtracts that
 * offset, so that trace-cmd and KernelShark merge the file with an ftrace
 * recording of the same boot by timestamp.  Without one (a dump of an
 * older frec, a region image), they stay local_clock()'s, which ftrace
 * calls "perf", and the file says so.
 *
 * The file's sections give the CPU data's offsets and sizes before the
 * data, and the output may be a pipe: the pages are kept in memory (about
 * the size of the records) and written at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "frec_caller_word.h"
#include "frec_decode.h"
#include "frec_span.h"

/* Functions remembered while adding callers' (a power of two: 256). */
#define TRACEDAT_SYMBOLS_SEEN	256
#define TRACEDAT_PAGE		4096
/* The page header: u64 timestamp, local_t commit (64-bit kernel). */
#define TRACEDAT_PAGE_HEADER	16
#define TRACEDAT_PAGE_DATA	(TRACEDAT_PAGE - TRACEDAT_PAGE_HEADER)
/* Commit flags: events were lost before this page; their count is stored. */
#define TRACEDAT_MISSED_EVENTS	(1ULL << 31)
#define TRACEDAT_MISSED_STORED	(1ULL << 30)

/* Event header: type_len in the low 5 bits, time delta in the high 27. */
#define TRACEDAT_DELTA_BITS	27
/*
 * A time extend: the delta's low 27 bits in its header, the next 32 in its
 * word, 59 in all.  A longer delta starts a new page, whose header holds
 * a whole 64-bit timestamp.  Not an absolute time stamp (type 31):
 * libtraceevent reads one as such only since July 2020 (before, as a
 * 16-byte entry to skip, misreading what follows it), and even then takes
 * its top 5 bits from the time before it: it cannot cross a multiple of
 * 2^59 ns either.
 */
#define TRACEDAT_EXTEND_BITS	(TRACEDAT_DELTA_BITS + 32)
#define TRACEDAT_TYPE_TIME_EXTEND	30
/* Data longer than this has type_len 0 and its length in a word. */
#define TRACEDAT_SMALL_DATA	(28 * 4)

#define TRACEDAT_RECORD_ID	1000
#define TRACEDAT_PRINTK_ID	1001
#define TRACEDAT_SPAN_BEGIN_ID	1002
#define TRACEDAT_SPAN_END_ID	1003

/* Where the fields start; frec_record's as a 64-bit kernel lays them out. */
#define TRACEDAT_RING		8
#define TRACEDAT_SEQ		16
#define TRACEDAT_CPU		24
#define TRACEDAT_CALLER		32
#define TRACEDAT_ARGS		48
#define TRACEDAT_MSG		80
#define TRACEDAT_RECORD_STRINGS	84
#define TRACEDAT_TEXT		40
#define TRACEDAT_PRINTK_STRINGS	44
/* A span's begin and end: frec_record's up to a3, then these. */
#define TRACEDAT_SPAN		80
#define TRACEDAT_DUR		88
#define TRACEDAT_SPAN_MSG	96
#define TRACEDAT_SPAN_STRINGS	100

static const char tracedat_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char tracedat_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

#define TRACEDAT_COMMON_FIELDS \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"\tfield:__data_loc char[] ring;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:u64 seq;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned int cpu;\toffset:24;\tsize:4;\tsigned:0;\n" \
	"\tfield:unsigned long caller;\toffset:32;\tsize:8;\tsigned:0;\n"

#define TRACEDAT_STR(x) #x
#define TRACEDAT_XSTR(x) TRACEDAT_STR(x)

static const char tracedat_record_format[] =
	"name: frec_record\n"
	"ID: " TRACEDAT_XSTR(TRACEDAT_RECORD_ID) "\n"
	TRACEDAT_COMMON_FIELDS
	"\tfield:unsigned long fmt;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long a0;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long a1;\toffset:56;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long a2;\toffset:64;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long a3;\toffset:72;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] msg;\toffset:80;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"ring=%s seq=%llu cpu=%u caller=%pS fmt=0x%lx "
	"args=0x%lx,0x%lx,0x%lx,0x%lx msg=%s\", __get_str(ring), REC->seq, "
	"REC->cpu, (void *)REC->caller, REC->fmt, REC->a0, REC->a1, REC->a2, "
	"REC->a3, __get_str(msg)\n";

/*
 * A span's two ends: frec_record's fields and span, the begin record's
 * name (frec_span_id(): its seq << 16 | its CPU), the same in both, which
 * KernelShark's latency plot pairs them by; and the end's duration (ns).
 */
#define TRACEDAT_SPAN_FIELDS \
	"\tfield:unsigned long fmt;\toffset:40;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long a0;\toffset:48;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long a1;\toffset:56;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long a2;\toffset:64;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long a3;\toffset:72;\tsize:8;\tsigned:0;\n" \
	"\tfield:u64 span;\toffset:80;\tsize:8;\tsigned:0;\n" \
	"\tfield:u64 dur;\toffset:88;\tsize:8;\tsigned:0;\n" \
	"\tfield:__data_loc char[] msg;\toffset:96;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"print fmt: \"ring=%s seq=%llu cpu=%u caller=%pS span=0x%llx dur=%llu " \
	"fmt=0x%lx args=0x%lx,0x%lx,0x%lx,0x%lx msg=%s\", __get_str(ring), " \
	"REC->seq, REC->cpu, (void *)REC->caller, REC->span, REC->dur, " \
	"REC->fmt, REC->a0, REC->a1, REC->a2, REC->a3, __get_str(msg)\n"

static const char tracedat_span_begin_format[] =
	"name: frec_span_begin\n"
	"ID: " TRACEDAT_XSTR(TRACEDAT_SPAN_BEGIN_ID) "\n"
	TRACEDAT_COMMON_FIELDS
	TRACEDAT_SPAN_FIELDS;

static const char tracedat_span_end_format[] =
	"name: frec_span_end\n"
	"ID: " TRACEDAT_XSTR(TRACEDAT_SPAN_END_ID) "\n"
	TRACEDAT_COMMON_FIELDS
	TRACEDAT_SPAN_FIELDS;

static const char tracedat_printk_format[] =
	"name: frec_printk\n"
	"ID: " TRACEDAT_XSTR(TRACEDAT_PRINTK_ID) "\n"
	TRACEDAT_COMMON_FIELDS
	"\tfield:__data_loc char[] text;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"ring=%s seq=%llu cpu=%u caller=%pS text=%s\", "
	"__get_str(ring), REC->seq, REC->cpu, (void *)REC->caller, "
	"__get_str(text)\n";

/**
 * struct frec_tracedat_source - the seqs written of a ring on a CPU
 * @ring: the ring's id.
 * @seq: the highest seq written.
 * @gap_page: the page (its index + 1) whose missed count holds the last
 *	gap of these seqs, 0 if none.
 * @gap_lo: that gap is the seqs after @gap_lo ...
 * @gap_hi: ... and before @gap_hi.
 */
struct frec_tracedat_source {
	unsigned int ring;
	u64 seq;
	size_t gap_page;
	u64 gap_lo;
	u64 gap_hi;
};

/**
 * struct frec_tracedat_cpu - one CPU's ring buffer pages
 * @pages: the pages, TRACEDAT_PAGE bytes each.
 * @nr_pages: pages started.
 * @cap: room for this many.
 * @used: bytes of event data in the last page.
 * @room: bytes the last page's events may take (less the missed count).
 * @lost: records lost before the last page, 0 if none.
 * @last_ts: timestamp of the last event written.
 * @sources: its rings' last seqs, for losses.
 * @nr_sources: how many.
 */
struct frec_tracedat_cpu {
	unsigned char *pages;
	size_t nr_pages;
	size_t cap;
	size_t used;
	size_t room;
	u64 lost;
	u64 last_ts;
	struct frec_tracedat_source *sources;
	size_t nr_sources;
};

/**
 * struct frec_tracedat_symbol - a line of the file's kallsyms section
 * @addr: the function's start.
 * @size: its size.
 * @name: "name" or "name\t[module]", allocated.
 */
struct frec_tracedat_symbol {
	u64 addr;
	u64 size;
	char *name;
};

/**
 * struct frec_tracedat - the file being made
 * @cpus: per CPU, by number.
 * @nr_cpus: CPUs below this have an entry.
 * @symbols: the callers' functions, for the kallsyms section.
 * @nr_symbols: how many.
 * @cap_symbols: room for this many.
 * @symbols_seen: functions added lately, by a hash of their address: a
 *	caller repeats, and is added once (the section is made unique too).
 * @failed: out of memory: the file is not written.
 * @event: the event being built.
 * @line: a text line, for its message.
 */
struct frec_tracedat {
	struct frec_tracedat_cpu *cpus;
	size_t nr_cpus;
	struct frec_tracedat_symbol *symbols;
	size_t nr_symbols;
	size_t cap_symbols;
	u64 symbols_seen[TRACEDAT_SYMBOLS_SEEN];
	bool failed;
	unsigned char event[TRACEDAT_SPAN_STRINGS + FREC_RAW_RING_NAME_LEN +
			    FREC_FORMAT_LINE_MAX + 8];
	char line[FREC_FORMAT_LINE_MAX];
};

static void put16(unsigned char *p, unsigned int v)
{
	uint16_t x = (uint16_t)v;

	memcpy(p, &x, sizeof(x));
}

static void put32(unsigned char *p, unsigned int v)
{
	uint32_t x = v;

	memcpy(p, &x, sizeof(x));
}

static void put64(unsigned char *p, u64 v)
{
	memcpy(p, &v, sizeof(v));
}

static u64 get64(const unsigned char *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void out32(FILE *out, unsigned int v)
{
	unsigned char b[4];

	put32(b, v);
	fwrite_unlocked(b, 1, sizeof(b), out);
}

static void out64(FILE *out, u64 v)
{
	unsigned char b[8];

	put64(b, v);
	fwrite_unlocked(b, 1, sizeof(b), out);
}

/* A section of trace.dat: its size in @size_bytes, then its bytes. */
static void out_sized(FILE *out, const char *s, size_t len, size_t size_bytes)
{
	if (size_bytes == 8)
		out64(out, len);
	else
		out32(out, (unsigned int)len);
	fwrite_unlocked(s, 1, len, out);
}

static void tracedat_begin(struct frec_decoder *d)
{
	free(d->tracedat);
	d->tracedat = calloc(1, sizeof(*d->tracedat));
}

/*
 * A seq that the gap charged to page @idx of @c skipped came after all (a
 * step back, below): one missed event fewer there; none left, the page is
 * an ordinary one again.  The page is in memory until the end: closed,
 * its count lies after its data (tracedat_close_page()).
 */
static void tracedat_unmiss(struct frec_tracedat_cpu *c, size_t idx)
{
	unsigned char *page = c->pages + idx * TRACEDAT_PAGE;
	u64 commit, data, count;

	if (idx + 1 == c->nr_pages) {
		if (c->lost && !--c->lost)
			c->room += 8;
		return;
	}
	commit = get64(page + 8);
	data = commit & ~(u64)(TRACEDAT_MISSED_EVENTS | TRACEDAT_MISSED_STORED);
	if (!(commit & TRACEDAT_MISSED_STORED))
		return;
	count = get64(page + TRACEDAT_PAGE_HEADER + data);
	if (!count)
		return;
	put64(page + TRACEDAT_PAGE_HEADER + data, --count);
	if (!count)
		put64(page + 8, data);
}

/*
 * The records lost from @r's (ring, CPU) before it: the seqs skipped since
 * the highest one written (since 0 for the first).  0 for a ring numbered
 * by one counter for all CPUs, whose gaps are other CPUs' records; -1 if
 * out of memory.  A CPU's rings are few: they are looked for one by one.
 *
 * A CPU's seqs may step back (uapi/frec_raw.h: an interrupt's record
 * numbered between the reservation and the numbering of the record it
 * interrupted, which comes first in time): a seq below the highest fills
 * a gap counted before, which is taken back from the page that holds it.
 * Without that, the page stays flagged, and `trace-cmd report` of two
 * files (3.1.6) prints the drop and hides the page's first record.
 */
static long long tracedat_lost(struct frec_tracedat_cpu *c, const struct frec_decoded *r)
{
	struct frec_tracedat_source *s;
	size_t i;
	u64 last;

	if (r->ring->order == FREC_RING_ORDER_GLOBAL)
		return 0;
	for (i = 0; i < c->nr_sources && c->sources[i].ring != r->ring->id; i++)
		;
	if (i == c->nr_sources) {
		s = realloc(c->sources, (i + 1) * sizeof(*s));
		if (!s)
			return -1;
		c->sources = s;
		memset(&c->sources[i], 0, sizeof(c->sources[i]));
		c->sources[i].ring = r->ring->id;
		c->nr_sources++;
	}
	s = &c->sources[i];
	last = s->seq;
	if (r->rec.seq <= last) {
		if (s->gap_page && r->rec.seq > s->gap_lo && r->rec.seq < s->gap_hi)
			tracedat_unmiss(c, s->gap_page - 1);
		return 0;
	}
	s->seq = r->rec.seq;
	if (r->rec.seq == last + 1)
		return 0;
	/* tracedat_record() starts a page for it, the next one */
	s->gap_page = c->nr_pages + 1;
	s->gap_lo = last;
	s->gap_hi = r->rec.seq;
	return (long long)(r->rec.seq - last - 1);
}

/* @cpu's entry, made if new; NULL if out of memory. */
static struct frec_tracedat_cpu *tracedat_cpu(struct frec_tracedat *t,
					      unsigned int cpu)
{
	size_t n = t->nr_cpus;
	struct frec_tracedat_cpu *p;

	if (cpu >= n) {
		while (n <= cpu)
			n = n ? n * 2 : 8;
		p = realloc(t->cpus, n * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + t->nr_cpus, 0, (n - t->nr_cpus) * sizeof(*p));
		t->cpus = p;
		t->nr_cpus = n;
	}
	return &t->cpus[cpu];
}

/*
 * Start a page at @ts on @c; if @lost, flag it as following that many
 * lost events.  -1 if out of memory.
 */
static int tracedat_new_page(struct frec_tracedat_cpu *c, u64 ts, long long lost)
{
	unsigned char *page;

	if (c->nr_pages == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4;

		page = realloc(c->pages, cap * TRACEDAT_PAGE);
		if (!page)
			return -1;
		c->pages = page;
		c->cap = cap;
	}
	page = c->pages + c->nr_pages++ * TRACEDAT_PAGE;
	memset(page, 0, TRACEDAT_PAGE);
	put64(page, ts);
	/* the count goes after the data: keep room for it */
	c->room = lost ? TRACEDAT_PAGE_DATA - 8 : TRACEDAT_PAGE_DATA;
	c->lost = (u64)lost;
	c->used = 0;
	c->last_ts = ts;
	return 0;
}

/* Close @c's last page: its commit, and where its missed count is. */
static void tracedat_close_page(struct frec_tracedat_cpu *c)
{
	unsigned char *page;
	u64 commit = c->used;

	if (!c->nr_pages)
		return;
	page = c->pages + (c->nr_pages - 1) * TRACEDAT_PAGE;
	if (c->lost) {
		put64(page + TRACEDAT_PAGE_HEADER + c->used, c->lost);
		commit |= TRACEDAT_MISSED_EVENTS | TRACEDAT_MISSED_STORED;
	}
	put64(page + 8, commit);
}

/* A __data_loc string at @off of the event, its bytes at *@end. */
static void tracedat_string(unsigned char *ev, size_t off, size_t *end,
			    const char *s, size_t len)
{
	memcpy(ev + *end, s, len);
	ev[*end + len] = '\0';
	put32(ev + off, (unsigned int)((len + 1) << 16 | *end));
	*end += len + 1;
}

/* The message of @r as its text line prints it: *@len bytes at the return. */
static const char *tracedat_message(struct frec_decoder *d, struct frec_tracedat *t,
				    const struct frec_decoded *r, size_t *len)
{
	struct frec_format_record bare = r->rec;
	size_t prefix, n;

	/* the line without its message ends where the message starts */
	bare.fmt = NULL;
	bare.text = NULL;
	prefix = frec_format_line(t->line, sizeof(t->line), &bare, &d->env) - 1;
	n = frec_format_line(t->line, sizeof(t->line), &r->rec, &d->env);
	if (n && t->line[n - 1] == '\n')
		n--;
	*len = n > prefix ? n - prefix : 0;
	return t->line + (n > prefix ? prefix : n);
}

/*
 * Where the file puts the callers of a module that went: frec kept their
 * names, and a record names one by number (FREC_CALLER_SAVED_KEY |
 * number, uapi/frec_raw.h), keys one apart that are no addresses.  Each
 * kept name gets a range of its own, TRACEDAT_SAVED_STRIDE bytes at
 * TRACEDAT_SAVED_BASE + number * stride, and the caller field its offset
 * in it: trace-cmd names an address by the function at or below it, and
 * the keys themselves, less their offsets, would interleave (a record of
 * number 1 was named after number 0's function).  Not canonical either,
 * as the keys are not; no function is 16 MiB.
 */
#define TRACEDAT_SAVED_BASE	FREC_CALLER_SAVED_KEY
#define TRACEDAT_SAVED_STRIDE	0x1000000ULL

/*
 * The function a caller lies in, from the name the text prints for it
 * ("name+0xOFF/0xSIZE" or "name+0xOFF/0xSIZE [module]"), for the file's
 * kallsyms section: trace-cmd names the caller field (%pS) with it.  A
 * caller printed as an address adds nothing.  Sets *@field to what the
 * event's caller field holds: @caller, or for a kept name its place
 * above.  Returns -1 if out of memory.
 */
static int tracedat_symbol(struct frec_tracedat *t, u64 caller, const char *name, u64 *field)
{
	const char *plus = name ? strstr(name, "+0x") : NULL;
	const char *mod = plus ? strstr(plus, " [") : NULL;
	struct frec_tracedat_symbol *grown;
	unsigned long long off, size;
	s64 number = frec_caller_saved_number(caller);
	char *end, *text;
	u64 *seen;

	*field = caller;
	if (!plus || plus == name)
		return 0;
	off = strtoull(plus + 3, &end, 16);
	if (*end != '/')
		return 0;
	size = strtoull(end + 1, &end, 16);
	if (number >= 0) {
		if (off >= TRACEDAT_SAVED_STRIDE || size > TRACEDAT_SAVED_STRIDE)
			return 0;
		caller = TRACEDAT_SAVED_BASE + (u64)number * TRACEDAT_SAVED_STRIDE + off;
		*field = caller;
	} else if (off > caller) {
		return 0;
	}
	seen = &t->symbols_seen[((caller - off) * 0x9e3779b97f4a7c15ULL) >> 56];
	if (*seen == caller - off)
		return 0;
	*seen = caller - off;
	if (t->nr_symbols == t->cap_symbols) {
		t->cap_symbols = t->cap_symbols ? 2 * t->cap_symbols : 64;
		grown = realloc(t->symbols, t->cap_symbols * sizeof(*grown));
		if (!grown)
			return -1;
		t->symbols = grown;
	}
	if (asprintf(&text, "%.*s%s%s", (int)(plus - name), name, mod ? "\t" : "",
		     mod ? mod + 1 : "") < 0)
		return -1;
	t->symbols[t->nr_symbols++] = (struct frec_tracedat_symbol){ caller - off, size, text };
	return 0;
}

static int tracedat_symbol_cmp(const void *a, const void *b)
{
	const struct frec_tracedat_symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The kallsyms section's text, one line per function, sorted; NULL if none. */
static char *tracedat_kallsyms(struct frec_tracedat *t, size_t *len)
{
	size_t i, kept = 0;
	char *text = NULL;
	FILE *mem;

	*len = 0;
	if (!t->nr_symbols)
		return NULL;
	qsort(t->symbols, t->nr_symbols, sizeof(*t->symbols), tracedat_symbol_cmp);
	mem = open_memstream(&text, len);
	if (!mem)
		return NULL;
	for (i = 0; i < t->nr_symbols; i++) {
		if (kept && t->symbols[i].addr == t->symbols[kept - 1].addr)
			continue;
		kept = i + 1;
		fprintf(mem, "%016llx t %s\n", (unsigned long long)t->symbols[i].addr,
			t->symbols[i].name);
	}
	/*
	 * trace-cmd names an address by the last function at or below it
	 * only if another follows: the end of the last one, as kallsyms
	 * would have a next symbol there.
	 */
	fprintf(mem, "%016llx t __frec_callers_end\n",
		(unsigned long long)(t->symbols[kept - 1].addr + t->symbols[kept - 1].size));
	if (fclose(mem)) {
		free(text);
		*len = 0;
		return NULL;
	}
	return text;
}

/* The dump's offset from ftrace's clock, or NULL if it has none. */
static const struct frec_trace_clock *tracedat_trace_clock(const struct frec_decoder *d)
{
	return d->trace_clock && d->trace_clock->known ? d->trace_clock : NULL;
}

/*
 * A record's time in the file: on ftrace's clock if the offset is known
 * (a time before that clock's zero is its zero), else its timestamp.
 */
static u64 tracedat_ts(const struct frec_decoder *d, u64 ts)
{
	const struct frec_trace_clock *tc = tracedat_trace_clock(d);
	long long off = tc ? tc->offset : 0;

	if (off > 0 && ts < (u64)off)
		return 0;
	return ts - (u64)off;
}

/*
 * ftrace's common_flags for where a record was made (the kernel's
 * TRACE_FLAG_HARDIRQ, _SOFTIRQ and _NMI, kernel/trace/trace.h), so that
 * trace-cmd and KernelShark mark it as they mark an ftrace event made
 * there.
 */
static unsigned char tracedat_context_flags(u32 context)
{
	static const unsigned char flags[] = {
		[FREC_CTX_TASK] = 0,
		[FREC_CTX_SOFTIRQ] = 0x10,
		[FREC_CTX_HARDIRQ] = 0x08,
		[FREC_CTX_NMI] = 0x40,
	};

	return flags[frec_context_kind(context)];
}

static void tracedat_record(struct frec_decoder *d, const struct frec_decoded *r)
{
	struct frec_tracedat *t = d->tracedat;
	u64 ts = tracedat_ts(d, r->rec.ts);
	struct frec_tracedat_cpu *c;
	unsigned char *ev, *p;
	size_t end, len, need, i;
	enum frec_span_kind kind;
	const char *msg;
	long long lost = 0;
	u64 delta, caller;

	if (!t || t->failed)
		return;
	c = tracedat_cpu(t, r->rec.cpu);
	if (!c)
		goto oom;
	if (!d->opts.filter)
		lost = tracedat_lost(c, r);
	if (lost < 0)
		goto oom;

	ev = t->event;
	memset(ev, 0, TRACEDAT_SPAN_STRINGS);
	kind = r->rec.nr_args == FREC_EVENT_MAX_ARGS ? frec_span_kind(r->rec.fmt) :
	       FREC_SPAN_NONE;
	put16(ev, r->rec.text ? TRACEDAT_PRINTK_ID :
		  kind == FREC_SPAN_BEGIN ? TRACEDAT_SPAN_BEGIN_ID :
		  kind == FREC_SPAN_END ? TRACEDAT_SPAN_END_ID : TRACEDAT_RECORD_ID);
	/* The task that was current, as ftrace's common_pid; 0 in an old dump. */
	if (r->rec.context_known) {
		ev[2] = tracedat_context_flags(r->rec.context);
		put32(ev + 4, frec_context_pid(r->rec.context));
	}
	put64(ev + TRACEDAT_SEQ, r->rec.seq);
	put32(ev + TRACEDAT_CPU, r->rec.cpu);
	if (tracedat_symbol(t, r->rec.caller, r->caller, &caller))
		goto oom;
	put64(ev + TRACEDAT_CALLER, caller);
	msg = tracedat_message(d, t, r, &len);
	if (r->rec.text) {
		end = TRACEDAT_PRINTK_STRINGS;
		tracedat_string(ev, TRACEDAT_RING, &end, r->rec.ring, strlen(r->rec.ring));
		tracedat_string(ev, TRACEDAT_TEXT, &end, msg, len);
	} else {
		for (i = 0; i < 4 && i < r->rec.nr_args; i++)
			put64(ev + TRACEDAT_ARGS + 8 * i, r->rec.args[i]);
		end = kind ? TRACEDAT_SPAN_STRINGS : TRACEDAT_RECORD_STRINGS;
		if (kind == FREC_SPAN_BEGIN) {
			put64(ev + TRACEDAT_SPAN, frec_span_id(r->rec.seq, r->rec.cpu));
		} else if (kind == FREC_SPAN_END) {
			put64(ev + TRACEDAT_SPAN, r->rec.args[FREC_SPAN_END_ID]);
			put64(ev + TRACEDAT_DUR,
			      frec_span_dur_ns(r->rec.args[FREC_SPAN_END_DUR]));
		}
		tracedat_string(ev, TRACEDAT_RING, &end, r->rec.ring, strlen(r->rec.ring));
		tracedat_string(ev, kind ? TRACEDAT_SPAN_MSG : TRACEDAT_MSG, &end, msg, len);
	}
	while (end & 3)
		ev[end++] = 0;

	/* header, a length word for long data, a time extend at most */
	need = 4 + (end > TRACEDAT_SMALL_DATA ? 4 : 0) + end;
	if (!c->nr_pages || lost || ts < c->last_ts ||
	    (ts - c->last_ts) >> TRACEDAT_EXTEND_BITS ||
	    c->used + need + 8 > c->room) {
		tracedat_close_page(c);
		if (tracedat_new_page(c, ts, lost))
			goto oom;
	}
	p = c->pages + (c->nr_pages - 1) * TRACEDAT_PAGE + TRACEDAT_PAGE_HEADER + c->used;
	delta = ts - c->last_ts;
	if (delta >> TRACEDAT_DELTA_BITS) {
		put32(p, TRACEDAT_TYPE_TIME_EXTEND |
			 (unsigned int)(delta & ((1U << TRACEDAT_DELTA_BITS) - 1)) << 5);
		put32(p + 4, (unsigned int)(delta >> TRACEDAT_DELTA_BITS));
		p += 8;
		c->used += 8;
		delta = 0;
	}
	if (end > TRACEDAT_SMALL_DATA) {
		put32(p, (unsigned int)delta << 5);
		put32(p + 4, (unsigned int)end + 4);
		p += 8;
	} else {
		put32(p, (unsigned int)(end / 4) | (unsigned int)delta << 5);
		p += 4;
	}
	memcpy(p, ev, end);
	c->used += need;
	c->last_ts = ts;
	return;
oom:
	t->failed = true;
}

static void tracedat_free(struct frec_decoder *d)
{
	struct frec_tracedat *t = d->tracedat;
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_cpus; i++) {
		free(t->cpus[i].pages);
		free(t->cpus[i].sources);
	}
	for (i = 0; i < t->nr_symbols; i++)
		free(t->symbols[i].name);
	free(t->symbols);
	free(t->cpus);
	free(t);
	d->tracedat = NULL;
}

/*
 * The file's trace clock: ftrace's "local" once the offset is removed;
 * else ftrace's name for the records' clock, local_clock() being its
 * "perf" clock.
 */
static const char *tracedat_clock(const struct frec_decoder *d)
{
	if (tracedat_trace_clock(d))
		return FREC_RAW_TRACE_CLOCK_NAME;
	return !d->clock || !strcmp(d->clock, "local") ? "perf" : d->clock;
}

/*
 * Everything before the CPU data's table: the file's header, the header
 * page and event descriptions, the events' formats, the callers'
 * functions as kallsyms, the empty printk formats and cmdlines, the CPU count and the options.
 */
static void tracedat_header(FILE *out, const char *trace_clock, size_t nr_cpus,
			    const char *kallsyms, size_t kallsyms_len,
			    const struct frec_tasks *tasks)
{
	size_t i, cmdlines_len = 0;
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	static const unsigned int one = 1;
	char clock[80];
	int len;

	fwrite_unlocked(magic, 1, sizeof(magic), out);
	fwrite_unlocked("6", 1, 2, out);
	/* numbers in the host's byte order, which this byte names */
	fputc_unlocked(*(const unsigned char *)&one ? 0 : 1, out);
	fputc_unlocked(8, out);		/* the traced kernel's long */
	out32(out, TRACEDAT_PAGE);
	fwrite_unlocked("header_page", 1, 12, out);
	out_sized(out, tracedat_header_page, sizeof(tracedat_header_page) - 1, 8);
	fwrite_unlocked("header_event", 1, 13, out);
	out_sized(out, tracedat_header_event, sizeof(tracedat_header_event) - 1, 8);
	out32(out, 0);			/* ftrace's own events */
	out32(out, 1);			/* event systems: frec */
	fwrite_unlocked("frec", 1, 5, out);
	out32(out, 4);
	out_sized(out, tracedat_record_format, sizeof(tracedat_record_format) - 1, 8);
	out_sized(out, tracedat_printk_format, sizeof(tracedat_printk_format) - 1, 8);
	out_sized(out, tracedat_span_begin_format, sizeof(tracedat_span_begin_format) - 1, 8);
	out_sized(out, tracedat_span_end_format, sizeof(tracedat_span_end_format) - 1, 8);
	out_sized(out, kallsyms ? kallsyms : "", kallsyms_len, 4);	/* kallsyms */
	out32(out, 0);			/* printk formats */
	/* cmdlines: "pid comm" lines, as ftrace's saved_cmdlines */
	for (i = 0; tasks && i < tasks->cap; i++)
		if (tasks->slots[i].used)
			cmdlines_len += (size_t)snprintf(NULL, 0, "%u %s\n", tasks->slots[i].pid,
							 tasks->slots[i].comm);
	out64(out, cmdlines_len);
	for (i = 0; tasks && i < tasks->cap; i++)
		if (tasks->slots[i].used)
			fprintf(out, "%u %s\n", tasks->slots[i].pid, tasks->slots[i].comm);
	out32(out, (unsigned int)nr_cpus);
	fwrite_unlocked("options  ", 1, 10, out);
	len = snprintf(clock, sizeof(clock), "[%s]", trace_clock);
	fputc_unlocked(4, out);		/* TRACECLOCK, a 16-bit id */
	fputc_unlocked(0, out);
	out_sized(out, clock, (size_t)len + 1, 4);
	fputc_unlocked(0, out);		/* no more options */
	fputc_unlocked(0, out);
	fwrite_unlocked("flyrecord", 1, 10, out);
}

static void tracedat_end(struct frec_decoder *d)
{
	static const char zeros[TRACEDAT_PAGE];
	struct frec_tracedat *t = d->tracedat;
	size_t nr_cpus = 0, header_len = 0, kallsyms_len = 0, i;
	char *header = NULL, *kallsyms;
	FILE *mem;
	u64 pos;

	if (!t)
		return;
	for (i = 0; i < t->nr_cpus; i++) {
		tracedat_close_page(&t->cpus[i]);
		if (t->cpus[i].nr_pages)
			nr_cpus = i + 1;
	}
	if (!nr_cpus)
		nr_cpus = 1;
	/* the output may be a pipe: the header is measured in memory */
	kallsyms = t->failed ? NULL : tracedat_kallsyms(t, &kallsyms_len);
	mem = t->failed ? NULL : open_memstream(&header, &header_len);
	if (mem) {
		tracedat_header(mem, tracedat_clock(d), nr_cpus, kallsyms, kallsyms_len,
				d->tasks);
		if (fclose(mem))
			t->failed = true;
	}
	free(kallsyms);
	if (t->failed || !mem) {
		frec_warn(d, "out of memory: trace.dat not written");
		free(header);
		tracedat_free(d);
		return;
	}
	fwrite_unlocked(header, 1, header_len, d->out);
	free(header);

	/* the CPU data starts at the first page boundary after the table */
	pos = header_len + 16 * nr_cpus;
	pos = (pos + TRACEDAT_PAGE - 1) / TRACEDAT_PAGE * TRACEDAT_PAGE;
	for (i = 0; i < nr_cpus; i++) {
		u64 size = i < t->nr_cpus ? t->cpus[i].nr_pages * TRACEDAT_PAGE : 0;

		out64(d->out, pos);
		out64(d->out, size);
		pos += size;
	}
	fwrite_unlocked(zeros, 1, (TRACEDAT_PAGE - (header_len + 16 * nr_cpus) %
				   TRACEDAT_PAGE) % TRACEDAT_PAGE, d->out);
	for (i = 0; i < nr_cpus && i < t->nr_cpus; i++)
		if (t->cpus[i].nr_pages)
			fwrite_unlocked(t->cpus[i].pages, TRACEDAT_PAGE,
					t->cpus[i].nr_pages, d->out);
	tracedat_free(d);
}

const struct frec_writer frec_write_tracedat = {
	.begin = tracedat_begin,
	.record = tracedat_record,
	.end = tracedat_end,
};
