// SPDX-License-Identifier: GPL-2.0
/*
 * test_format.c - kmod/lib/frec_format.c and kmod/lib/frec_format_quote.c, as
 * compiled into the module, against hand-written tables and against the
 * kernel's own vsnprintf() (kernel_vsprintf_ref.c, copied from Linux 6.1).
 *
 * Where glibc's printf() differs from the kernel's, the tables follow the
 * kernel; the differences are listed at the top of kmod/lib/frec_format.c and
 * checked in integer_conversions_print_as_the_kernel_does().
 */
#define _GNU_SOURCE	/* process_vm_readv() */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "frec_format.h"
#include "frec_format_quote.h"
#include "harness_test.h"
#include "kernel_vsprintf_ref.h"

/* An argument as frec stores it: the caller's value as unsigned long. */
#define V(x)		((u64)(long long)(x))
#define ARGS(...)	((const u64[]){ __VA_ARGS__ }), \
			(unsigned int)(sizeof((const u64[]){ __VA_ARGS__ }) / sizeof(u64))
#define NOARGS		NULL, 0

/* A caller the test env knows, and an address %s cannot read. */
#define SYM_ADDR	0xffffffffc0a01234ULL
#define SYM_SIZE	0x80ULL
#define SYM_START	(SYM_ADDR - 0x1a)
#define UNREADABLE	0xdead0000ULL

struct test_env_ctx {
	char last_ext;
	int string_calls;
};

/*
 * One symbol, hanoi_move in module frec_hanoi, at SYM_START, 0x80 bytes;
 * everything else resolves nowhere.  'B' looks up addr - 1 and adds it
 * back, as sprint_backtrace() does.
 */
static int test_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	struct test_env_ctx *t = ctx;
	u64 look = ext == 'B' ? addr - 1 : addr;
	int n;

	if (t)
		t->last_ext = ext;
	if (look < SYM_START || look >= SYM_START + SYM_SIZE)
		return -1;
	if (ext == 's')
		n = snprintf(buf, size, "hanoi_move [frec_hanoi]");
	else
		n = snprintf(buf, size, "hanoi_move+%#llx/%#llx [frec_hanoi]",
			     (unsigned long long)(addr - SYM_START),
			     (unsigned long long)SYM_SIZE);
	return n;	/* the whole length, as snprintf() */
}

/*
 * %s addresses are this process's pointers, read as the module reads
 * kernel memory, without faulting: through process_vm_readv() on itself,
 * a page at a time.  UNREADABLE and unmapped addresses fail.
 */
static int test_string(void *ctx, char *buf, size_t size, u64 addr)
{
	struct test_env_ctx *t = ctx;
	size_t n = 0, chunk;
	struct iovec local, remote;
	char *nul;

	if (t)
		t->string_calls++;
	if (addr == UNREADABLE)
		return -1;
	while (n < size - 1) {
		chunk = 4096 - ((addr + n) & 4095);
		if (chunk > size - 1 - n)
			chunk = size - 1 - n;
		local.iov_base = buf + n;
		local.iov_len = chunk;
		remote.iov_base = (void *)(uintptr_t)(addr + n);
		remote.iov_len = chunk;
		if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) !=
		    (ssize_t)chunk) {
			if (!n)
				return -1;
			break;
		}
		nul = memchr(buf + n, '\0', chunk);
		if (nul)
			return (int)(nul - buf);
		n += chunk;
	}
	buf[n] = '\0';
	return (int)n;
}

static struct test_env_ctx env_ctx;
static const struct frec_format_env env = {
	.symbol = test_symbol, .string = test_string, .ctx = &env_ctx,
};

static u64 ptr(const char *s)
{
	return (u64)(uintptr_t)s;
}

/* Format into a 1024-byte buffer and compare; @bad is the expected offset. */
static void expect_msg_bad(struct ht_case *c, int line, const char *expect,
			   size_t bad, const char *fmt, const u64 *args,
			   unsigned int nr)
{
	char buf[1024];
	size_t got_bad = 12345;
	int n;

	memset(buf, 0x55, sizeof(buf));
	n = frec_format_message(buf, sizeof(buf), fmt, args, nr, &env, &got_bad);
	HT_EXPECT(c, !strcmp(buf, expect) && n == (int)strlen(expect),
		  "line %d: \"%s\" printed \"%s\" (%d bytes), expected \"%s\"",
		  line, fmt, buf, n, expect);
	HT_EXPECT(c, got_bad == bad, "line %d: \"%s\": bad offset %zd, expected %zd",
		  line, fmt, (ssize_t)got_bad, (ssize_t)bad);
}

#define EXPECT_MSG(c, expect, fmt, ...) \
	expect_msg_bad(c, __LINE__, expect, (size_t)-1, fmt, __VA_ARGS__)
#define EXPECT_BAD(c, expect, bad, fmt, ...) \
	expect_msg_bad(c, __LINE__, expect, bad, fmt, __VA_ARGS__)

static void integer_conversions_print_as_the_kernel_does(struct ht_case *c)
{
	EXPECT_MSG(c, "0", "%d", ARGS(0));
	EXPECT_MSG(c, "-1", "%d", ARGS(V(-1)));
	EXPECT_MSG(c, "-1", "%i", ARGS(0xffffffffULL));	/* cast to int */
	EXPECT_MSG(c, "0", "%d", ARGS(0x100000000ULL));
	EXPECT_MSG(c, "-2147483648", "%d", ARGS(V(INT_MIN)));
	EXPECT_MSG(c, "2147483647", "%d", ARGS(V(INT_MAX)));
	EXPECT_MSG(c, "4294967295", "%u", ARGS(V(-1)));
	EXPECT_MSG(c, "-1", "%ld", ARGS(V(-1)));
	EXPECT_MSG(c, "18446744073709551615", "%lu", ARGS(V(-1)));
	EXPECT_MSG(c, "-9223372036854775808", "%lld", ARGS(V(LLONG_MIN)));
	EXPECT_MSG(c, "9223372036854775807", "%lli", ARGS(V(LLONG_MAX)));
	EXPECT_MSG(c, "18446744073709551615", "%llu", ARGS(V(-1)));
	EXPECT_MSG(c, "-5", "%Ld", ARGS(V(-5)));
	EXPECT_MSG(c, "-5", "%qd", ARGS(V(-5)));
	EXPECT_MSG(c, "-5", "%jd", ARGS(V(-5)));
	EXPECT_MSG(c, "18446744073709551611", "%ju", ARGS(V(-5)));
	EXPECT_MSG(c, "-2", "%zd", ARGS(V(-2)));
	EXPECT_MSG(c, "18446744073709551614", "%zu", ARGS(V(-2)));
	EXPECT_MSG(c, "18446744073709551614", "%Zu", ARGS(V(-2)));
	EXPECT_MSG(c, "-5", "%td", ARGS(V(-5)));
	EXPECT_MSG(c, "fffffffffffffffb", "%tx", ARGS(V(-5)));
	/* hh and h: the argument cut to char and short */
	EXPECT_MSG(c, "-1", "%hhd", ARGS(255));
	EXPECT_MSG(c, "127", "%hhd", ARGS(0x17f));
	EXPECT_MSG(c, "-128", "%hhi", ARGS(0x80));
	EXPECT_MSG(c, "7", "%hhu", ARGS(256 + 7));
	EXPECT_MSG(c, "ff", "%hhx", ARGS(V(-1)));
	EXPECT_MSG(c, "377", "%hho", ARGS(V(-1)));
	EXPECT_MSG(c, "-32768", "%hd", ARGS(0x8000));
	EXPECT_MSG(c, "9029", "%hu", ARGS(0x12345));
	EXPECT_MSG(c, "FFFF", "%hX", ARGS(V(-1)));
	/* bases and '#' */
	EXPECT_MSG(c, "ff", "%x", ARGS(255));
	EXPECT_MSG(c, "FF", "%X", ARGS(255));
	EXPECT_MSG(c, "0xff", "%#x", ARGS(255));
	EXPECT_MSG(c, "0XFF", "%#X", ARGS(255));
	EXPECT_MSG(c, "0x0", "%#x", ARGS(0));		/* glibc: "0" */
	EXPECT_MSG(c, "10", "%o", ARGS(8));
	EXPECT_MSG(c, "010", "%#o", ARGS(8));
	EXPECT_MSG(c, "0", "%#o", ARGS(0));
	EXPECT_MSG(c, "1777777777777777777777", "%llo", ARGS(V(-1)));
	EXPECT_MSG(c, "ffffffff", "%x", ARGS(V(-1)));
	EXPECT_MSG(c, "ffffffffffffffff", "%lx", ARGS(V(-1)));
	/* sign flags */
	EXPECT_MSG(c, "+3", "%+d", ARGS(3));
	EXPECT_MSG(c, " 3", "% d", ARGS(3));
	EXPECT_MSG(c, "+3", "%+ d", ARGS(3));
	EXPECT_MSG(c, "+3", "% +d", ARGS(3));
	EXPECT_MSG(c, "-3", "%+d", ARGS(V(-3)));
	EXPECT_MSG(c, "+0", "%+d", ARGS(0));
	EXPECT_MSG(c, "3", "%+u", ARGS(3));
	EXPECT_MSG(c, "3", "% x", ARGS(3));
	/* width, '0', '-' */
	EXPECT_MSG(c, "-0003", "%05d", ARGS(V(-3)));
	EXPECT_MSG(c, "   -3", "%5d", ARGS(V(-3)));
	EXPECT_MSG(c, "-3   |", "%-5d|", ARGS(V(-3)));
	EXPECT_MSG(c, "-3   |", "%-05d|", ARGS(V(-3)));	/* '-' beats '0' */
	EXPECT_MSG(c, "+0042", "%+05d", ARGS(42));
	EXPECT_MSG(c, " 0042", "% 05d", ARGS(42));
	EXPECT_MSG(c, "123456", "%3d", ARGS(123456));
	EXPECT_MSG(c, "0x0000ff", "%#08x", ARGS(255));
	EXPECT_MSG(c, "    0xff", "%#8x", ARGS(255));
	EXPECT_MSG(c, "0xff    |", "%#-8x|", ARGS(255));
	EXPECT_MSG(c, "00000010", "%#08o", ARGS(8));
	EXPECT_MSG(c, "     0x0", "%#8x", ARGS(0));
	/* precision */
	EXPECT_MSG(c, "007", "%.3d", ARGS(7));
	EXPECT_MSG(c, "-007", "%.3d", ARGS(V(-7)));
	EXPECT_MSG(c, "0", "%.0d", ARGS(0));		/* glibc: "" */
	EXPECT_MSG(c, "0", "%.d", ARGS(0));		/* '.' alone: none */
	EXPECT_MSG(c, "    -007", "%8.3d", ARGS(V(-7)));
	EXPECT_MSG(c, "-007    |", "%-8.3d|", ARGS(V(-7)));
	EXPECT_MSG(c, "00000007", "%08.3d", ARGS(7));	/* glibc: "     007" */
	EXPECT_MSG(c, "0x00ff", "%#.4x", ARGS(255));
	EXPECT_MSG(c, "0010", "%#.3o", ARGS(8));	/* glibc: "010" */
	EXPECT_MSG(c, "12345", "%.2d", ARGS(12345));
	/* What struct printf_spec's bitfields do to written values. */
	EXPECT_MSG(c, "42", "%16777218d", ARGS(42));	/* 24 bits: 2 */
	EXPECT_MSG(c, " 42", "%16777219d", ARGS(42));	/* 3 */
	EXPECT_MSG(c, "42", "%8388608d", ARGS(42));	/* -8388608: none */
	EXPECT_MSG(c, "042", "%.65539d", ARGS(42));	/* 16 bits: 3 */
	EXPECT_MSG(c, "42", "%.32768d", ARGS(42));	/* -32768: 0 */
	/* '*' */
	EXPECT_MSG(c, "   42", "%*d", ARGS(5, 42));
	EXPECT_MSG(c, "42   |", "%*d|", ARGS(V(-5), 42));
	EXPECT_MSG(c, "42   |", "%-*d|", ARGS(5, 42));
	EXPECT_MSG(c, "007", "%.*d", ARGS(3, 7));
	EXPECT_MSG(c, "7", "%.*d", ARGS(V(-1), 7));
	EXPECT_MSG(c, "   007", "%*.*d", ARGS(6, 3, 7));
	EXPECT_MSG(c, "   42", "%*d", ARGS(0x100000005ULL, 42)); /* an int */
	/* %c and %% */
	EXPECT_MSG(c, "A", "%c", ARGS('A'));
	EXPECT_MSG(c, "A", "%c", ARGS(0x141));
	EXPECT_MSG(c, "  A", "%3c", ARGS('A'));
	EXPECT_MSG(c, "A  |", "%-3c|", ARGS('A'));
	EXPECT_MSG(c, "  A", "%03c", ARGS('A'));
	EXPECT_MSG(c, "A", "%.0c", ARGS('A'));
	EXPECT_MSG(c, "A", "%lc", ARGS('A'));
	EXPECT_MSG(c, "  A", "%*c", ARGS(3, 'A'));
	EXPECT_MSG(c, "%", "%%", NOARGS);
	EXPECT_MSG(c, "%", "%5%", NOARGS);		/* glibc: "    %" */
	EXPECT_MSG(c, "%|", "%-5%|", NOARGS);
	EXPECT_MSG(c, "%7", "%*%%d", ARGS(5, 7));	/* '*' still takes one */
	EXPECT_MSG(c, "100%", "%d%%", ARGS(100));
	EXPECT_MSG(c, "plain text", "plain text", NOARGS);
	EXPECT_MSG(c, "", "", NOARGS);
}

static void huge_widths_pad_only_as_far_as_the_buffer(struct ht_case *c)
{
	char buf[64], expect[64];
	int n;

	memset(expect, ' ', sizeof(expect));
	memcpy(expect, "42", 2);
	expect[63] = '\0';
	/* INT_MIN: clamped to -8388607, i.e. left-justified in 8388607. */
	n = frec_format_message(buf, sizeof(buf), "%*d", ARGS(V(INT_MIN), 42),
				&env, NULL);
	HT_EXPECT_EQ(c, n, 63);
	HT_EXPECT(c, !strcmp(buf, expect), "got \"%s\"", buf);
	n = frec_format_message(buf, sizeof(buf), "%8388607d", ARGS(42), &env,
				NULL);
	HT_EXPECT_EQ(c, n, 63);
	HT_EXPECT(c, buf[0] == ' ' && buf[62] == ' ', "got \"%s\"", buf);
	n = frec_format_message(buf, sizeof(buf), "%.*d", ARGS(INT_MAX, 1),
				&env, NULL);
	HT_EXPECT_EQ(c, n, 63);
	HT_EXPECT(c, buf[0] == '0' && buf[62] == '0', "got \"%s\"", buf);
	n = frec_format_message(buf, sizeof(buf), "%*s", ARGS(INT_MAX, ptr("x")),
				&env, NULL);
	HT_EXPECT_EQ(c, n, 63);
	HT_EXPECT(c, buf[0] == ' ' && buf[62] == ' ', "got \"%s\"", buf);
	n = frec_format_message(buf, sizeof(buf), "%*c", ARGS(INT_MAX, 'x'),
				&env, NULL);
	HT_EXPECT_EQ(c, n, 63);
}

static void strings_print_null_efault_and_honour_precision(struct ht_case *c)
{
	static const char hello[] = "hello";

	EXPECT_MSG(c, "hello", "%s", ARGS(ptr(hello)));
	EXPECT_MSG(c, "ello", "%s", ARGS(ptr(hello) + 1));
	EXPECT_MSG(c, "he", "%.2s", ARGS(ptr(hello)));
	EXPECT_MSG(c, "", "%.0s", ARGS(ptr(hello)));
	EXPECT_MSG(c, "hello", "%.s", ARGS(ptr(hello)));	/* no precision */
	EXPECT_MSG(c, "  hello", "%7s", ARGS(ptr(hello)));
	EXPECT_MSG(c, "hello  |", "%-7s|", ARGS(ptr(hello)));
	EXPECT_MSG(c, "hello", "%3s", ARGS(ptr(hello)));
	EXPECT_MSG(c, "     he", "%7.2s", ARGS(ptr(hello)));
	EXPECT_MSG(c, "he", "%.*s", ARGS(2, ptr(hello)));
	EXPECT_MSG(c, "", "%.*s", ARGS(V(-1), ptr(hello)));	/* kernel: 0 */
	EXPECT_MSG(c, "  hello", "%07s", ARGS(ptr(hello)));
	EXPECT_MSG(c, "hello", "%ls", ARGS(ptr(hello)));
	EXPECT_MSG(c, "", "%s", ARGS(ptr("")));
	EXPECT_MSG(c, "   ", "%3s", ARGS(ptr("")));
	EXPECT_MSG(c, "(null)", "%s", ARGS(0));
	EXPECT_MSG(c, "    (null)|", "%10s|", ARGS(0));
	EXPECT_MSG(c, "(nu", "%.3s", ARGS(0));
	EXPECT_MSG(c, "(efault)", "%s", ARGS(1));
	EXPECT_MSG(c, "(efault)", "%s", ARGS(4095));
	EXPECT_MSG(c, "(efault)", "%s", ARGS(V(-1)));
	EXPECT_MSG(c, "(efault)", "%s", ARGS(V(-4095)));
	EXPECT_MSG(c, "(efault)", "%s", ARGS(UNREADABLE));
	EXPECT_MSG(c, "(ef", "%.3s", ARGS(UNREADABLE));
	EXPECT_MSG(c, "(efault)  |", "%-10s|", ARGS(UNREADABLE));
	EXPECT_MSG(c, "a hello b", "a %s b", ARGS(ptr(hello)));
}

static void strings_without_env_or_reader_are_efault(struct ht_case *c)
{
	const struct frec_format_env no_string = { .symbol = test_symbol };
	char buf[64];
	int n;

	n = frec_format_message(buf, sizeof(buf), "%s|%pS", ARGS(ptr("x"), 5),
				NULL, NULL);
	HT_EXPECT(c, !strcmp(buf, "(efault)|0x5"), "got \"%s\"", buf);
	HT_EXPECT_EQ(c, n, 12);
	frec_format_message(buf, sizeof(buf), "%s", ARGS(ptr("x")), &no_string,
			    NULL);
	HT_EXPECT(c, !strcmp(buf, "(efault)"), "got \"%s\"", buf);
	/* first page and ERR_PTRs are never handed to env->string() */
	env_ctx.string_calls = 0;
	frec_format_message(buf, sizeof(buf), "%s%s%s", ARGS(1, V(-22), 0),
			    &env, NULL);
	HT_EXPECT_EQ(c, env_ctx.string_calls, 0);
}

static void pointers_print_0x_and_16_digits(struct ht_case *c)
{
	EXPECT_MSG(c, "0xffff888003a1c000", "%p", ARGS(0xffff888003a1c000ULL));
	EXPECT_MSG(c, "0x0000000000000000", "%p", ARGS(0));
	EXPECT_MSG(c, "0x0000000000001234", "%px", ARGS(0x1234));
	EXPECT_MSG(c, "0x0000000000001234", "%pK", ARGS(0x1234));
	EXPECT_MSG(c, "0x0000000000001234.", "%p.", ARGS(0x1234));
	EXPECT_MSG(c, "0x0000000000001234", "%pxyz", ARGS(0x1234));
	EXPECT_MSG(c, "              0x1234", "%20px", ARGS(0x1234));
	EXPECT_MSG(c, "0x1234              |", "%-20p|", ARGS(0x1234));
	EXPECT_MSG(c, "0x000000000000001234", "%020p", ARGS(0x1234));
	EXPECT_MSG(c, "0x1234", "%1p", ARGS(0x1234));
	EXPECT_MSG(c, "0x0000000000001234", "%lp", ARGS(0x1234));
}

static void symbols_print_through_env(struct ht_case *c)
{
	EXPECT_MSG(c, "hanoi_move+0x1a/0x80 [frec_hanoi]", "%pS", ARGS(SYM_ADDR));
	HT_EXPECT_EQ(c, env_ctx.last_ext, 'S');
	EXPECT_MSG(c, "hanoi_move [frec_hanoi]", "%ps", ARGS(SYM_ADDR));
	HT_EXPECT_EQ(c, env_ctx.last_ext, 's');
	EXPECT_MSG(c, "hanoi_move+0x1a/0x80 [frec_hanoi]", "%pSR", ARGS(SYM_ADDR));
	HT_EXPECT_EQ(c, env_ctx.last_ext, 'S');
	EXPECT_MSG(c, "hanoi_move+0x1a/0x80 [frec_hanoi]", "%pB", ARGS(SYM_ADDR));
	HT_EXPECT_EQ(c, env_ctx.last_ext, 'B');
	EXPECT_MSG(c, "hanoi_move+0x1a/0x80 [frec_hanoi]", "%pBb", ARGS(SYM_ADDR));
	HT_EXPECT_EQ(c, env_ctx.last_ext, 'B');
	/* %pB of the address just past a function names that function */
	EXPECT_MSG(c, "hanoi_move+0x80/0x80 [frec_hanoi]", "%pB",
		   ARGS(SYM_START + SYM_SIZE));
	EXPECT_MSG(c, "0xffffffffc0a0129a", "%pS", ARGS(SYM_START + SYM_SIZE));
	/* resolving nowhere: 0x%lx, as sprint_symbol() */
	EXPECT_MSG(c, "0x1234", "%pS", ARGS(0x1234));
	EXPECT_MSG(c, "0x0", "%ps", ARGS(0));
	EXPECT_MSG(c, "  0x1234|", "%8pS|", ARGS(0x1234));
	EXPECT_MSG(c, "0x1", "%.3pS", ARGS(0x1234));
	/* width and precision as for a string, as symbol_string() does */
	EXPECT_MSG(c, "   hanoi_move [frec_hanoi]|", "%26ps|", ARGS(SYM_ADDR));
	EXPECT_MSG(c, "hanoi_move [frec_hanoi]   |", "%-26ps|", ARGS(SYM_ADDR));
	EXPECT_MSG(c, "hanoi_", "%.6pS", ARGS(SYM_ADDR));
	EXPECT_MSG(c, "", "%.*pS", ARGS(V(-1), SYM_ADDR));	/* kernel: 0 */
	EXPECT_MSG(c, "hanoi_move", "%.*pS", ARGS(10, SYM_ADDR));
	EXPECT_MSG(c, "at hanoi_move [frec_hanoi]: 3", "at %ps: %d",
		   ARGS(SYM_ADDR, 3));
}

static void unsupported_conversions_print_their_argument(struct ht_case *c)
{
	EXPECT_MSG(c, "[%pI4:0xffff888003a1c000]", "%pI4",
		   ARGS(0xffff888003a1c000ULL));
	EXPECT_MSG(c, "[%pI6c:0x10]", "%pI6c", ARGS(0x10));
	EXPECT_MSG(c, "[%pe:0xfffffffffffffff4]", "%pe", ARGS(V(-12)));
	EXPECT_MSG(c, "[%-8pM:0x0] 5", "%-8pM %d", ARGS(0, 5));
	EXPECT_MSG(c, "[%pz:0x1]", "%pz", ARGS(1));
	/* Latin-1 letters are alphanumeric to the kernel's ctype */
	EXPECT_MSG(c, "[%p\xe9x:0x1]!", "%p\xe9x!", ARGS(1));
	EXPECT_MSG(c, "0x0000000000000001\xd7", "%p\xd7", ARGS(1));
	EXPECT_MSG(c, "[%f:0x4000000000000000]", "%f", ARGS(0x4000000000000000ULL));
	EXPECT_MSG(c, "[%5.2Lf:0x1]", "%5.2Lf", ARGS(1));
	EXPECT_MSG(c, "[%e:0x1][%E:0x2][%g:0x3][%G:0x4]", "%e%E%g%G",
		   ARGS(1, 2, 3, 4));
	EXPECT_MSG(c, "[%a:0x1][%A:0x2][%F:0x3][%n:0x0]", "%a%A%F%n",
		   ARGS(1, 2, 3, 0));
	EXPECT_MSG(c, "[%*f:0x2] 3", "%*f %d", ARGS(1, 2, 3));
}

static void conversions_past_the_arguments_print_noarg(struct ht_case *c)
{
	EXPECT_MSG(c, "1 [%d:noarg]", "%d %d", ARGS(1));
	EXPECT_MSG(c, "[%s:noarg]", "%s", NOARGS);
	EXPECT_MSG(c, "[%-5.3lx:noarg]", "%-5.3lx", NOARGS);
	EXPECT_MSG(c, "[%f:noarg]", "%f", NOARGS);
	EXPECT_MSG(c, "[%pS:noarg]", "%pS", NOARGS);
	EXPECT_MSG(c, "[%pI4:noarg]", "%pI4", NOARGS);
	EXPECT_MSG(c, "[%*d:noarg] [%d:noarg]", "%*d %d", ARGS(5));
	EXPECT_MSG(c, "[%.*s:noarg]", "%.*s", ARGS(5));
	EXPECT_MSG(c, "[%*%:noarg]", "%*%", NOARGS);
	EXPECT_MSG(c, "% 1 2 3 4 [%d:noarg]", "%% %d %d %d %d %d",
		   ARGS(1, 2, 3, 4));
}

static void malformed_formats_stop_with_the_offset(struct ht_case *c)
{
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%", NOARGS);
	EXPECT_BAD(c, "abc [bad format at byte 4]", 4, "abc %", NOARGS);
	EXPECT_BAD(c, "1 [bad format at byte 3]", 3, "%d %k %d", ARGS(1, 2, 3));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%5", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%-", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%l", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%.", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%*", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%.*", ARGS(1, 2));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%hhl", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%lh", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%LLd", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%lll", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%I64d", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "%y", ARGS(1));
	EXPECT_BAD(c, "[bad format at byte 0]", 0, "% ", ARGS(1));
	EXPECT_BAD(c, "x%[bad format at byte 3]", 3, "x%%%", NOARGS);
	EXPECT_BAD(c, "42 [bad format at byte 3]", 3, "%d %\n", ARGS(42));
	/* past the arguments, a bad conversion is still bad */
	EXPECT_BAD(c, "[%d:noarg] [bad format at byte 3]", 3, "%d %w", NOARGS);
}

static void messages_are_cut_at_the_buffer(struct ht_case *c)
{
	char buf[16];
	size_t bad;
	int n;

	memset(buf, 0x55, sizeof(buf));
	n = frec_format_message(buf, 5, "hello world", NOARGS, &env, &bad);
	HT_EXPECT_EQ(c, n, 4);
	HT_EXPECT(c, !strcmp(buf, "hell"), "got \"%s\"", buf);
	HT_EXPECT_EQ(c, buf[5], 0x55);
	HT_EXPECT_EQ(c, bad, (size_t)-1);
	n = frec_format_message(buf, 1, "hello", NOARGS, &env, NULL);
	HT_EXPECT(c, n == 0 && !buf[0], "size 1: %d", n);
	n = frec_format_message(NULL, 0, "%s %d %", ARGS(ptr("x"), 1), &env,
				&bad);
	HT_EXPECT_EQ(c, n, 0);
	HT_EXPECT_EQ(c, bad, 6);	/* found even when nothing is written */
	n = frec_format_message(buf, 6, "%s", ARGS(ptr("hello world")), &env,
				NULL);
	HT_EXPECT(c, n == 5 && !strcmp(buf, "hello"), "got %d \"%s\"", n, buf);
	n = frec_format_message(buf, 6, "%8s", ARGS(ptr("abc")), &env, NULL);
	HT_EXPECT(c, n == 5 && !strcmp(buf, "     "), "got %d \"%s\"", n, buf);
	n = frec_format_message(buf, 6, "%7s", ARGS(ptr("abc")), &env, NULL);
	HT_EXPECT(c, n == 5 && !strcmp(buf, "    a"), "got %d \"%s\"", n, buf);
	n = frec_format_message(buf, 8, "%pS", ARGS(SYM_ADDR), &env, NULL);
	HT_EXPECT(c, n == 7 && !strcmp(buf, "hanoi_m"), "got %d \"%s\"", n, buf);
	n = frec_format_message(buf, 8, "ab%d", ARGS(123456789), &env, NULL);
	HT_EXPECT(c, n == 7 && !strcmp(buf, "ab12345"), "got %d \"%s\"", n, buf);
	n = frec_format_message(buf, 8, "%c%c", ARGS(0, 'x'), &env, NULL);
	HT_EXPECT(c, n == 2 && !buf[0] && buf[1] == 'x', "got %d", n);
	n = frec_format_message(buf, sizeof(buf), NULL, NOARGS, &env, &bad);
	HT_EXPECT(c, n == 6 && !strcmp(buf, "(null)"), "got %d \"%s\"", n, buf);
}

/* ---- against the kernel's vsnprintf() ---------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned int rnd_below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

static const char *const ref_strings[] = {
	"", "a", "hello", "a longer string, with, commas", "tab\there",
	"exactly sixteen!",
};

static u64 rnd_value(void)
{
	static const u64 pool[] = {
		0, 1, 2, 7, 9, 10, 42, 99, 100, 255, 256, 0x7f, 0x80, 0xff,
		0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000ULL,
		0xffffffffULL, 0x100000000ULL, 0x7fffffffffffffffULL,
		0x8000000000000000ULL, 0xffffffffffffffffULL,
		0xfffffffffffffffeULL, 0xffffffffffffff80ULL, 1000000000,
		12345678901234ULL, 0xdeadbeefULL,
	};

	if (rnd_below(4) == 0)
		return rnd() >> rnd_below(64);
	return pool[rnd_below(sizeof(pool) / sizeof(pool[0]))];
}

/* A '*' argument: mostly small, sometimes at the edges of the bitfields. */
static u64 rnd_star(void)
{
	static const int edges[] = {
		INT_MIN, INT_MAX, 1 << 23, -(1 << 23), (1 << 23) - 1,
		-((1 << 23) - 1), 1 << 24, 32767, 32768, -32768, -32769, 65536,
		-1, 0,
	};

	if (rnd_below(40) == 0)
		return V(edges[rnd_below(sizeof(edges) / sizeof(edges[0]))]);
	return V((int)rnd_below(41) - 20);
}

/* Append "%<flags><width><precision><qualifier><conv>" to both formats. */
static void rnd_conversion(char *f, char *r, u64 *args, unsigned int *nr)
{
	static const char *const quals[][2] = {
		{ "", "" }, { "hh", "hh" }, { "h", "h" }, { "l", "l" },
		{ "ll", "ll" }, { "L", "L" }, { "z", "z" }, { "t", "t" },
		{ "j", "l" }, { "q", "ll" }, { "Z", "z" },
	};
	static const char convs[] = "diuoxXcs%";
	char spec[64];
	size_t len = 0;
	unsigned int i, q;
	char conv = convs[rnd_below(sizeof(convs) - 1)];

	spec[len++] = '%';
	for (i = rnd_below(4); i; i--)
		spec[len++] = "-+ #0"[rnd_below(5)];
	switch (rnd_below(5)) {
	case 0:
		spec[len++] = '*';
		args[(*nr)++] = rnd_star();
		break;
	case 1:
	case 2:
		len += sprintf(spec + len, "%u", rnd_below(25));
		break;
	case 3:
		if (!rnd_below(20))
			len += sprintf(spec + len, "%u",
				       rnd_below(2) ? 16777216 + rnd_below(8) :
				       8388600 + rnd_below(16));
		break;
	}
	switch (rnd_below(6)) {
	case 0:
		spec[len++] = '.';
		spec[len++] = '*';
		args[(*nr)++] = rnd_star();
		break;
	case 1:
		spec[len++] = '.';
		break;
	case 2:
	case 3:
		len += sprintf(spec + len, ".%u",
			       rnd_below(30) ? rnd_below(25) : 65530 + rnd_below(12));
		break;
	}
	spec[len] = '\0';
	q = rnd_below(sizeof(quals) / sizeof(quals[0]));
	sprintf(f + strlen(f), "%s%s%c", spec, quals[q][0], conv);
	sprintf(r + strlen(r), "%s%s%c", spec, quals[q][1], conv);
	if (conv == 's') {
		switch (rnd_below(8)) {
		case 0:
			args[(*nr)++] = 0;
			break;
		case 1:
			args[(*nr)++] = rnd_below(2) ? 4095 : V(-(int)rnd_below(4095) - 1);
			break;
		default:
			args[(*nr)++] = ptr(ref_strings[rnd_below(sizeof(ref_strings) /
								  sizeof(ref_strings[0]))]);
		}
	} else if (conv != '%') {
		args[(*nr)++] = conv == 'c' ? rnd_below(256) : rnd_value();
	}
}

static void formats_match_kernel_vsnprintf(struct ht_case *c)
{
	char f[512], r[512], fbuf[300], rbuf[300];
	u64 args[32];
	unsigned long rargs[32];
	unsigned int nr, i, k, iter, failures = 0;
	size_t size, bad;
	int flen, rlen;

	for (iter = 0; iter < 100000 && failures < 10; iter++) {
		f[0] = r[0] = '\0';
		nr = 0;
		for (k = 1 + rnd_below(4); k; k--) {
			if (rnd_below(2)) {
				strcat(f, "ab ");
				strcat(r, "ab ");
			}
			rnd_conversion(f, r, args, &nr);
		}
		for (i = 0; i < nr; i++)
			rargs[i] = (unsigned long)args[i];
		size = rnd_below(3) ? sizeof(fbuf) : 1 + rnd_below(40);
		rlen = ref_vsnprintf(rbuf, size, r, rargs);
		flen = frec_format_message(fbuf, size, f, args, nr, &env, &bad);
		if (rlen > (int)size - 1)
			rlen = (int)size - 1;
		if (flen != rlen || memcmp(fbuf, rbuf, rlen + 1) || bad != (size_t)-1) {
			failures++;
			HT_EXPECT(c, 0, "\"%s\" (kernel \"%s\") size %zu args %u: "
				  "frec \"%s\" (%d), kernel \"%s\" (%d)", f, r,
				  size, nr, fbuf, flen, rbuf, rlen);
		}
	}
}

/* Garbage formats: never past the buffer, always NUL-terminated. */
static void garbage_formats_stay_in_bounds(struct ht_case *c)
{
	static const char alphabet[] = "%%%%-+ #0123456789.*hlLqjzZtdiuoxXcspSsBKI4f\n\x01\xe9" "ab";
	char fmt[48], buf[80];
	u64 args[4];
	unsigned int iter, i, len, failures = 0;
	size_t size, bad;
	int n;

	for (iter = 0; iter < 200000 && failures < 5; iter++) {
		len = rnd_below(sizeof(fmt));
		for (i = 0; i < len; i++)
			fmt[i] = alphabet[rnd_below(sizeof(alphabet) - 1)];
		fmt[len] = '\0';
		for (i = 0; i < 4; i++)
			args[i] = rnd_below(4) ? rnd_value() :
				  rnd_below(2) ? ptr(fmt) : SYM_ADDR;
		size = rnd_below(sizeof(buf) + 1);
		memset(buf, 0x55, sizeof(buf));
		n = frec_format_message(size ? buf : NULL, size, fmt, args,
					rnd_below(5), &env, &bad);
		if (n < 0 || (size && ((size_t)n > size - 1 || buf[n])) ||
		    (size < sizeof(buf) && (unsigned char)buf[size] != 0x55) ||
		    (!size && n) ||
		    (bad != (size_t)-1 && (bad >= len || fmt[bad] != '%'))) {
			failures++;
			HT_EXPECT(c, 0, "\"%s\" size %zu: %d bytes, bad %zd", fmt,
				  size, n, (ssize_t)bad);
		}
	}
}

/* ---- lines ----------------------------------------------------------- */

static const u64 hanoi_args[] = { 3, 'A', 'C', 0 };

static struct frec_format_record hanoi_event(void)
{
	struct frec_format_record rec = {
		.seq = 253, .ts = 12027638123ULL, .cpu = 1,
		.ring = "hanoi_moves", .caller = SYM_ADDR,
		.fmt = "move disk %d from %c to %c", .args = hanoi_args,
		.nr_args = 4,
	};

	return rec;
}

static struct frec_format_record text_record(const char *text, size_t len)
{
	struct frec_format_record rec = {
		.seq = 7, .ts = 1000000000ULL, .cpu = 0, .ring = "log",
		.caller = 0x1234, .text = text, .text_len = (unsigned int)len,
	};

	return rec;
}

static void expect_line(struct ht_case *c, int line,
			const struct frec_format_record *rec, const char *expect)
{
	char buf[FREC_FORMAT_LINE_MAX];
	size_t n;

	n = frec_format_line(buf, sizeof(buf), rec, &env);
	HT_EXPECT(c, n == strlen(expect) && !strcmp(buf, expect),
		  "line %d: got \"%s\" (%zu), expected \"%s\"", line, buf, n,
		  expect);
}

#define EXPECT_TEXT_LINE(c, text, expect) do {				\
		struct frec_format_record __r =				\
			text_record(text, sizeof(text) - 1);		\
		expect_line(c, __LINE__, &__r,				\
			    "7 [    1.000000000] cpu0 log: 0x1234 " expect); \
	} while (0)

static void lines_print_as_the_header_says(struct ht_case *c)
{
	struct frec_format_record rec = hanoi_event();

	expect_line(c, __LINE__, &rec,
		    "253 [   12.027638123] cpu1 hanoi_moves: hanoi_move+0x1a/0x80 "
		    "[frec_hanoi] move disk 3 from A to C\n");
	rec.ts = 0;
	rec.cpu = 63;
	rec.seq = 1;
	rec.fmt = "x";
	expect_line(c, __LINE__, &rec,
		    "1 [    0.000000000] cpu63 hanoi_moves: hanoi_move+0x1a/0x80 "
		    "[frec_hanoi] x\n");
	rec.ts = 123456789012345678ULL;
	rec.seq = 18446744073709551615ULL;
	rec.cpu = 4294967295U;
	rec.caller = 0xffffffff81000000ULL;
	rec.ring = NULL;
	expect_line(c, __LINE__, &rec,
		    "18446744073709551615 [123456789.012345678] cpu4294967295 "
		    "(null): 0xffffffff81000000 x\n");
	rec = hanoi_event();
	rec.fmt = "disk %d %";
	expect_line(c, __LINE__, &rec,
		    "253 [   12.027638123] cpu1 hanoi_moves: hanoi_move+0x1a/0x80 "
		    "[frec_hanoi] disk 3 [bad format at byte 8]\n");
	rec.fmt = "%d%d%d%d%d";
	rec.args = (const u64[]){ 1, 2, 3, 4 };
	expect_line(c, __LINE__, &rec,
		    "253 [   12.027638123] cpu1 hanoi_moves: hanoi_move+0x1a/0x80 "
		    "[frec_hanoi] 1234[%d:noarg]\n");
	rec.fmt = "tab%cnl%c";
	rec.args = (const u64[]){ '\t', '\n' };
	rec.nr_args = 2;
	expect_line(c, __LINE__, &rec,
		    "253 [   12.027638123] cpu1 hanoi_moves: hanoi_move+0x1a/0x80 "
		    "[frec_hanoi] tab\\x09nl\n");
	rec.fmt = "%s";
	rec.args = (const u64[]){ ptr("two\nlines\n") };
	rec.nr_args = 1;
	expect_line(c, __LINE__, &rec,
		    "253 [   12.027638123] cpu1 hanoi_moves: hanoi_move+0x1a/0x80 "
		    "[frec_hanoi] two\\x0alines\n");
	rec = hanoi_event();
	rec.ring = "bad\nring";
	rec.fmt = "";
	expect_line(c, __LINE__, &rec,
		    "253 [   12.027638123] cpu1 bad\\x0aring: hanoi_move+0x1a/0x80 "
		    "[frec_hanoi] \n");
}

static void text_records_are_escaped_onto_one_line(struct ht_case *c)
{
	EXPECT_TEXT_LINE(c, "hello", "hello\n");
	EXPECT_TEXT_LINE(c, "hello\n", "hello\n");
	EXPECT_TEXT_LINE(c, "hello\n\n", "hello\\x0a\n");
	EXPECT_TEXT_LINE(c, "\n", "\n");
	EXPECT_TEXT_LINE(c, "", "\n");
	EXPECT_TEXT_LINE(c, "a\tb\x7f\x01\x1f", "a\\x09b\\x7f\\x01\\x1f\n");
	EXPECT_TEXT_LINE(c, "a\0b", "a\\x00b\n");
	EXPECT_TEXT_LINE(c, "\r\n", "\\x0d\n");
	EXPECT_TEXT_LINE(c, "caf\xc3\xa9 \\ \" ~", "caf\xc3\xa9 \\ \" ~\n");
	EXPECT_TEXT_LINE(c, "%d %s", "%d %s\n");	/* text is not a format */
}

/* The line as it would be with room for anything. */
static size_t ideal_line(char *buf, size_t size,
			 const struct frec_format_record *rec)
{
	size_t n = frec_format_line(buf, size, rec, &env);

	return n;
}

/* frec_format_line() with @size: the ideal line, or its cut form. */
static int check_cut(struct ht_case *c, const struct frec_format_record *rec,
		     size_t size)
{
	static char ideal[16384];
	char got[2048];
	size_t n, ideal_len = ideal_line(ideal, sizeof(ideal), rec);
	char expect[2048];
	size_t elen;

	memset(got, 0x55, sizeof(got));
	n = frec_format_line(got, size, rec, &env);
	if (!size) {
		HT_EXPECT(c, n == 0 && (unsigned char)got[0] == 0x55,
			  "size 0 wrote %zu", n);
		return n != 0;
	}
	if (ideal_len <= size - 1) {
		memcpy(expect, ideal, ideal_len + 1);
		elen = ideal_len;
	} else if (size - 1 > 6) {
		memcpy(expect, ideal, size - 7);
		memcpy(expect + size - 7, "[...]\n", 7);
		elen = size - 1;
	} else {
		memcpy(expect, "[...]\n", size - 1);
		expect[size - 1] = '\0';
		elen = size - 1;
	}
	if (n != elen || memcmp(got, expect, elen + 1) ||
	    (unsigned char)got[size] != 0x55) {
		HT_EXPECT(c, 0, "size %zu: got \"%.*s\" (%zu), expected \"%s\" (%zu)",
			  size, (int)n, got, n, expect, elen);
		return 1;
	}
	return 0;
}

static void long_lines_are_cut_with_a_mark(struct ht_case *c)
{
	static char text[3000];
	struct frec_format_record rec;
	char buf[FREC_FORMAT_LINE_MAX];
	const char *prefix = "7 [    1.000000000] cpu0 log: 0x1234 ";
	size_t plen = strlen(prefix), n, size;

	memset(text, 'a', sizeof(text));
	rec = text_record(text, sizeof(text));
	n = frec_format_line(buf, sizeof(buf), &rec, &env);
	HT_EXPECT_EQ(c, n, FREC_FORMAT_LINE_MAX - 1);
	HT_EXPECT(c, !strcmp(buf + n - 6, "[...]\n") && buf[n - 7] == 'a',
		  "ends \"%s\"", buf + n - 10);
	/* exactly fitting, and one byte more */
	rec = text_record(text, FREC_FORMAT_LINE_MAX - 2 - plen);
	n = frec_format_line(buf, sizeof(buf), &rec, &env);
	HT_EXPECT(c, n == FREC_FORMAT_LINE_MAX - 1 && !strcmp(buf + n - 2, "a\n"),
		  "fits: %zu", n);
	rec.text_len++;
	n = frec_format_line(buf, sizeof(buf), &rec, &env);
	HT_EXPECT(c, n == FREC_FORMAT_LINE_MAX - 1 && !strcmp(buf + n - 6, "[...]\n"),
		  "one more: %zu", n);
	/* a trailing newline that is dropped makes it fit */
	text[FREC_FORMAT_LINE_MAX - 2 - plen] = '\n';
	n = frec_format_line(buf, sizeof(buf), &rec, &env);
	HT_EXPECT(c, n == FREC_FORMAT_LINE_MAX - 1 && !strcmp(buf + n - 2, "a\n"),
		  "newline dropped: %zu", n);
	text[FREC_FORMAT_LINE_MAX - 2 - plen] = 'a';
	/* escapes cut in the middle at the mark */
	memset(text, 1, sizeof(text));
	rec = text_record(text, 400);
	for (size = 0; size < 1700; size++)
		if (check_cut(c, &rec, size))
			break;
	/* a small buffer */
	rec = hanoi_event();
	for (size = 0; size < 140; size++)
		if (check_cut(c, &rec, size))
			break;
}

static void cut_lines_are_the_ideal_lines_prefix(struct ht_case *c)
{
	static const char *const fmts[] = {
		"%s", "%s|%s", "%d %s %pS", "%-40s|%40s", "%pS %ps %p", "%s\n",
		"%c%c%c%c", "x %s %", "%20pS|%s",
	};
	static char strs[4][300];
	struct frec_format_record rec;
	u64 args[4];
	unsigned int iter, i, j, failures = 0;
	size_t len, size;

	for (iter = 0; iter < 400 && failures < 5; iter++) {
		for (i = 0; i < 4; i++) {
			len = rnd_below(rnd_below(4) ? 40 : 299);
			for (j = 0; j < len; j++)
				strs[i][j] = (char)(rnd_below(8) ? 'a' + rnd_below(26) :
						    1 + rnd_below(255));
			if (len && rnd_below(3) == 0)
				strs[i][len - 1] = '\n';
			strs[i][len] = '\0';
			args[i] = rnd_below(5) ? ptr(strs[i]) :
				  rnd_below(2) ? SYM_ADDR : rnd_value();
		}
		if (rnd_below(3) == 0) {
			len = strlen(strs[0]);
			rec = text_record(strs[0], len);
		} else {
			rec = hanoi_event();
			rec.fmt = fmts[rnd_below(sizeof(fmts) / sizeof(fmts[0]))];
			rec.args = args;
			if (strstr(rec.fmt, "%c"))
				for (i = 0; i < 4; i++)
					args[i] = rnd_below(256);
			if (!strchr(rec.fmt, 'p') && !strstr(rec.fmt, "%c"))
				for (i = 0; i < 4; i++)
					args[i] = ptr(strs[i]);
		}
		if (rnd_below(4) == 0)
			rec.caller = rnd_value();
		size = rnd_below(3) ? 1 + rnd_below(200) : 1 + rnd_below(2000);
		failures += check_cut(c, &rec, size);
		failures += check_cut(c, &rec, size + 1);
	}
}

static void expect_types(struct ht_case *c, int line, const char *fmt,
			 int n, const char *want)
{
	char types[4] = { 0 };
	int got = frec_format_arg_types(fmt, types, sizeof(types));

	HT_EXPECT(c, got == n && !memcmp(types, want, strlen(want)),
		  "line %d: \"%s\": %d \"%.4s\", expected %d \"%s\"", line, fmt,
		  got, types, n, want);
}

static void argument_types_are_read_as_the_formatter_reads(struct ht_case *c)
{
	expect_types(c, __LINE__, "", 0, "");
	expect_types(c, __LINE__, "100%% %5% no args", 0, "");
	expect_types(c, __LINE__, "%d %s %pS %c", 4, "dspc");
	expect_types(c, __LINE__, "%*.*s %lx", 4, "**sx");
	expect_types(c, __LINE__, "%*%%s", 2, "*s");
	expect_types(c, __LINE__, "%hhu %zd %f %n %pI4 %s", 6, "udfn");
	expect_types(c, __LINE__, "%s %d %y %s", -1, "sd");
	expect_types(c, __LINE__, "%s %", -1, "s");
}

/* @want: one letter per argument: i int, l long, L long long, s string. */
static void expect_kinds(struct ht_case *c, int line, const char *fmt, int n, const char *want)
{
	static const char letters[] = {
		[FREC_ARG_INT] = 'i', [FREC_ARG_LONG] = 'l', [FREC_ARG_LLONG] = 'L',
		[FREC_ARG_STRING] = 's',
	};
	unsigned char kinds[6];
	char got_letters[7] = { 0 };
	int got = frec_format_arg_kinds(fmt, kinds, sizeof(kinds)), i;

	for (i = 0; i < got && i < 6; i++)
		got_letters[i] = letters[kinds[i]];
	HT_EXPECT(c, got == n && (n < 0 || !strcmp(got_letters, want)),
		  "line %d: \"%s\": %d \"%s\", expected %d \"%s\"", line, fmt,
		  got, got_letters, n, want);
}

static void argument_kinds_say_how_frec_printk_stores(struct ht_case *c)
{
	expect_kinds(c, __LINE__, "", 0, "");
	expect_kinds(c, __LINE__, "100%% %5% no args", 0, "");
	expect_kinds(c, __LINE__, "%d %i %u %o %x %c", 6, "iiiiii");
	expect_kinds(c, __LINE__, "%hhd %hd %ld %lld %Lu %llx", 6, "iilLLL");
	expect_kinds(c, __LINE__, "%zu %zd %td %lc", 4, "llli");
	expect_kinds(c, __LINE__, "%*.*s %u", 4, "iisi");
	expect_kinds(c, __LINE__, "%-*d", 2, "ii");
	/* Printed otherwise when read than vsnprintf() prints at the call. */
	expect_kinds(c, __LINE__, "%p", -1, "");
	expect_kinds(c, __LINE__, "%pK", -1, "");
	expect_kinds(c, __LINE__, "%px", -1, "");
	expect_kinds(c, __LINE__, "%d %pS", -1, "");
	expect_kinds(c, __LINE__, "%ps", -1, "");
	expect_kinds(c, __LINE__, "%pB", -1, "");
	expect_kinds(c, __LINE__, "%pI4", -1, "");
	expect_kinds(c, __LINE__, "%f", -1, "");
	expect_kinds(c, __LINE__, "%n", -1, "");
	/* Length modifiers vsnprintf() does not take: it stops there. */
	expect_kinds(c, __LINE__, "a=%jd b=%d", -1, "");
	expect_kinds(c, __LINE__, "%ju", -1, "");
	expect_kinds(c, __LINE__, "%qx", -1, "");
	expect_kinds(c, __LINE__, "%Zu", -1, "");
	expect_kinds(c, __LINE__, "%d %Zd", -1, "");
	/* Malformed, and more arguments than there is room for. */
	expect_kinds(c, __LINE__, "%d %y", -1, "");
	expect_kinds(c, __LINE__, "%d %", -1, "");
	expect_kinds(c, __LINE__, "%d%d%d%d%d%d", 6, "iiiiii");
	expect_kinds(c, __LINE__, "%d%d%d%d%d%d%d", -1, "");
	expect_kinds(c, __LINE__, "%d%d%d%d%d%*d", -1, "");
}

/*
 * Whatever frec_printk() stores as arguments (frec_format_arg_kinds()
 * takes the format) prints, when read, what the kernel's vsnprintf()
 * printed at the call: the same format, the same arguments.  Both
 * kernels frec builds for read formats alike (format_decode() is the same
 * in 6.1 and 6.12); kernel_vsprintf_ref.c is 6.1's.
 */
static void stored_formats_print_what_vsnprintf_printed(struct ht_case *c)
{
	char f[512], scratch[512], fbuf[300], rbuf[300];
	unsigned char kinds[16];	/* four conversions take at most 12 */
	u64 args[32];
	unsigned long rargs[32];
	unsigned int nr, i, k, iter, stored = 0, failures = 0;
	size_t size;
	int flen, rlen;

	for (iter = 0; iter < 100000 && failures < 10; iter++) {
		f[0] = scratch[0] = '\0';
		nr = 0;
		for (k = 1 + rnd_below(4); k; k--) {
			if (rnd_below(2))
				strcat(f, "ab ");
			rnd_conversion(f, scratch, args, &nr);
		}
		if (frec_format_arg_kinds(f, kinds, sizeof(kinds)) < 0)
			continue;
		stored++;
		for (i = 0; i < nr; i++)
			rargs[i] = (unsigned long)args[i];
		size = rnd_below(3) ? sizeof(fbuf) : 1 + rnd_below(40);
		rlen = ref_vsnprintf(rbuf, size, f, rargs);
		flen = frec_format_message(fbuf, size, f, args, nr, &env, NULL);
		if (rlen > (int)size - 1)
			rlen = (int)size - 1;
		if (flen != rlen || memcmp(fbuf, rbuf, rlen + 1)) {
			failures++;
			HT_EXPECT(c, 0, "\"%s\" is stored; size %zu args %u: read \"%s\" (%d), "
				  "the kernel printed \"%s\" (%d)", f, size, nr, fbuf, flen,
				  rbuf, rlen);
		}
	}
	HT_EXPECT(c, failures || stored > 10000, "only %u of %u formats were stored", stored, iter);
}

static void expect_pointer_args(struct ht_case *c, int line, const char *fmt,
				unsigned int n, unsigned int strings, unsigned int symbols,
				const char *exts)
{
	struct frec_format_ptr_args pa;
	unsigned int got = frec_format_pointer_args(fmt, &pa), i, j = 0;
	int ext_ok = 1;

	for (i = 0; i < FREC_FORMAT_PTR_ARGS; i++)
		if (pa.symbols & (1U << i))
			ext_ok &= exts[j] && pa.ext[i] == exts[j++];
	HT_EXPECT(c, got == n && pa.strings == strings && pa.symbols == symbols &&
		  ext_ok && !exts[j],
		  "line %d: \"%s\": %u args, strings %#x, symbols %#x; expected %u, %#x, %#x %s",
		  line, fmt, got, pa.strings, pa.symbols, n, strings, symbols, exts);
}

static void pointer_args_are_read_as_the_formatter_reads(struct ht_case *c)
{
	expect_pointer_args(c, __LINE__, "no conversions", 0, 0, 0, "");
	expect_pointer_args(c, __LINE__, "%s", 1, 0x1, 0, "");
	expect_pointer_args(c, __LINE__, "%d %s %%s %s", 3, 0x6, 0, "");
	expect_pointer_args(c, __LINE__, "%*d %.*s", 4, 0x8, 0, "");
	expect_pointer_args(c, __LINE__, "%pS %s %-08lx %s", 4, 0xa, 0x1, "S");
	expect_pointer_args(c, __LINE__, "%lld %hhu %zu %s %s", 5, 0x18, 0, "");
	expect_pointer_args(c, __LINE__, "%ps %pB %pSR %pBb %px %pK %p", 7, 0, 0xf, "sBSB");
	expect_pointer_args(c, __LINE__, "%pI4 %pss %s", 3, 0x4, 0x2, "s");
	/* It stops where the formatter stops: a malformed conversion. */
	expect_pointer_args(c, __LINE__, "%s %y %s", 1, 0x1, 0, "");
	expect_pointer_args(c, __LINE__, "%d %s %", 2, 0x2, 0, "");
}

/* ---- the formats file's quoting --------------------------------------- */

static void quoting_matches_printk_formats_but_backslash(struct ht_case *c)
{
	char buf[128];
	size_t used, n;

	n = frec_format_quote(buf, sizeof(buf), "a\nb\t\"c\\d\r%s", &used);
	HT_EXPECT(c, !strcmp(buf, "a\\nb\\t\\\"c\\\\d\r%s"), "got \"%s\"", buf);
	HT_EXPECT_EQ(c, n, strlen(buf));
	HT_EXPECT_EQ(c, used, 11);
	/* a small buffer takes whole escapes only */
	n = frec_format_quote(buf, 4, "ab\ncd", &used);
	HT_EXPECT(c, n == 2 && used == 2 && !strcmp(buf, "ab"), "got %zu %zu", n, used);
	n = frec_format_quote(buf, 4, "a\ncd", &used);
	HT_EXPECT(c, n == 3 && used == 2 && !strcmp(buf, "a\\n"), "got %zu %zu", n, used);
	n = frec_format_quote(buf, 1, "abc", &used);
	HT_EXPECT(c, n == 0 && used == 0 && !buf[0], "got %zu %zu", n, used);
	n = frec_format_quote(buf, sizeof(buf), "", NULL);
	HT_EXPECT(c, n == 0 && !buf[0], "got %zu", n);
}

static void unquoting_reads_frec_and_kernel_quoting(struct ht_case *c)
{
	char buf[64];
	size_t n;
	const char *q = "a\\nb\\t\\\"c\\\\d";

	n = frec_format_unquote(buf, sizeof(buf), q, strlen(q));
	HT_EXPECT(c, n == 8 && !strcmp(buf, "a\nb\t\"c\\d"), "got \"%s\"", buf);
	/* t_show()'s lone backslashes: "\d" and a final "\" stay */
	q = "c:\\dir\\";
	n = frec_format_unquote(buf, sizeof(buf), q, strlen(q));
	HT_EXPECT(c, !strcmp(buf, "c:\\dir\\") && n == 7, "got \"%s\"", buf);
	n = frec_format_unquote(buf, 4, "abcdef", 6);
	HT_EXPECT(c, n == 3 && !strcmp(buf, "abc"), "got \"%s\"", buf);
	n = frec_format_unquote(buf, sizeof(buf), "ab\0cd", 5);
	HT_EXPECT(c, n == 2 && !strcmp(buf, "ab"), "got \"%s\"", buf);
	n = frec_format_unquote(buf, sizeof(buf), "", 0);
	HT_EXPECT(c, n == 0 && !buf[0], "got %zu", n);
}

static void quoting_round_trips(struct ht_case *c)
{
	char s[80], q[200], back[200], chunk[5];
	size_t len, qlen, used, n;
	unsigned int iter, i;

	for (iter = 0; iter < 20000; iter++) {
		len = rnd_below(sizeof(s));
		for (i = 0; i < len; i++)
			s[i] = rnd_below(3) ? "\\\"\n\tab"[rnd_below(6)] :
				(char)(1 + rnd_below(255));
		s[len] = '\0';
		qlen = frec_format_quote(q, sizeof(q), s, &used);
		HT_EXPECT(c, used == len, "quoted %zu of %zu", used, len);
		HT_EXPECT(c, !strchr(q, '\n'), "a newline in \"%s\"", q);
		n = frec_format_unquote(back, sizeof(back), q, qlen);
		if (n != len || strcmp(back, s)) {
			HT_EXPECT(c, 0, "\"%s\" came back as \"%s\"", s, back);
			break;
		}
		/* in chunks, as the module writes the file */
		qlen = 0;
		for (i = 0; s[i]; i += used) {
			n = frec_format_quote(chunk, sizeof(chunk), s + i, &used);
			memcpy(q + qlen, chunk, n);
			qlen += n;
		}
		n = frec_format_unquote(back, sizeof(back), q, qlen);
		if (n != len || strcmp(back, s)) {
			HT_EXPECT(c, 0, "chunked \"%s\" came back as \"%s\"", s, back);
			break;
		}
	}
}

static struct ht_case cases[] = {
	HT_CASE(integer_conversions_print_as_the_kernel_does),
	HT_CASE(huge_widths_pad_only_as_far_as_the_buffer),
	HT_CASE(strings_print_null_efault_and_honour_precision),
	HT_CASE(strings_without_env_or_reader_are_efault),
	HT_CASE(pointers_print_0x_and_16_digits),
	HT_CASE(symbols_print_through_env),
	HT_CASE(unsupported_conversions_print_their_argument),
	HT_CASE(conversions_past_the_arguments_print_noarg),
	HT_CASE(malformed_formats_stop_with_the_offset),
	HT_CASE(messages_are_cut_at_the_buffer),
	HT_CASE(formats_match_kernel_vsnprintf),
	HT_CASE(garbage_formats_stay_in_bounds),
	HT_CASE(lines_print_as_the_header_says),
	HT_CASE(text_records_are_escaped_onto_one_line),
	HT_CASE(long_lines_are_cut_with_a_mark),
	HT_CASE(cut_lines_are_the_ideal_lines_prefix),
	HT_CASE(argument_types_are_read_as_the_formatter_reads),
	HT_CASE(argument_kinds_say_how_frec_printk_stores),
	HT_CASE(stored_formats_print_what_vsnprintf_printed),
	HT_CASE(pointer_args_are_read_as_the_formatter_reads),
	HT_CASE(quoting_matches_printk_formats_but_backslash),
	HT_CASE(unquoting_reads_frec_and_kernel_quoting),
	HT_CASE(quoting_round_trips),
};

int main(int argc, char **argv)
{
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
