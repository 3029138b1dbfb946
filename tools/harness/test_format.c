// SPDX-License-Identifier: GPL-2.0
/*
 * test_format.c - kmod/frec_format.c, the one formatter of the module's
 * dump and of the decoder, against the kernel's vsnprintf() output
 * (worked out from lib/vsprintf.c's number(), where glibc differs), and
 * the line layout of frec_format.h.
 */
#include <string.h>

#include "harness_test.h"
#include "kernel_compat.h"

#include "frec_format.h"

/* A fake kernel: one symbol, a few strings. */
static int fake_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	if (addr < 0x1000 || addr >= 0x1080)
		return -1;
	if (ext == 's')
		return snprintf(buf, size, "fn");
	return snprintf(buf, size, "fn+0x%llx/0x80 [mod]", (unsigned long long)addr - 0x1000);
}

static int fake_string(void *ctx, char *buf, size_t size, u64 addr)
{
	const char *s = addr == 0x2000 ? "hello" : addr == 0x2100 ? "ab" : NULL;

	if (!s)
		return -1;
	snprintf(buf, size, "%s", s);
	return strlen(buf);
}

static const struct frec_format_env env = { fake_symbol, fake_string, NULL };

#define NEG(x)	((u64)(long)(x))

static const struct {
	const char *fmt;
	u64 args[4];
	unsigned int nr;
	const char *want;
} msg_cases[] = {
	{ "%d", { NEG(-5) }, 4, "-5" },
	{ "%i", { NEG((int)-2147483647 - 1) }, 4, "-2147483648" },
	{ "%u", { NEG(-1) }, 4, "4294967295" },
	{ "%hhd %hhu", { 0x1ff, 0x1ff }, 4, "-1 255" },
	{ "%hd %hu", { 0x18000, 0x18000 }, 4, "-32768 32768" },
	{ "%ld %lu", { NEG(-5), ~0ULL }, 4, "-5 18446744073709551615" },
	{ "%lld %llx", { NEG(-7), 0xdeadbeefcafeULL }, 4, "-7 deadbeefcafe" },
	{ "%zu %zd %td %jd", { 123, NEG(-1), NEG(-2), NEG(-3) }, 4, "123 -1 -2 -3" },
	{ "%Lu %qu", { 9, 10 }, 4, "9 10" },
	{ "%x %X %o", { 255, 255, 8 }, 4, "ff FF 10" },
	{ "%#x %#x %#X", { 0, 255, 255 }, 4, "0x0 0xff 0XFF" },
	{ "%#o %#o", { 8, 0 }, 4, "010 0" },
	{ "[%5d] [%-5d] [%05d] [%+d] [% d]", { 42, 42, NEG(-3), 3 }, 4,
	  "[   42] [42   ] [-0003] [+3] [[% d:noarg]]" },
	{ "[% d] [%+d]", { 3, NEG(-3) }, 4, "[ 3] [-3]" },
	{ "[%.3d] [%.0d] [%08.3d]", { 7, 0, 7 }, 4, "[007] [0] [00000007]" },
	{ "[%#10x] [%#-10x] [%#010x]", { 0xab, 0xab, 0xab }, 4,
	  "[      0xab] [0xab      ] [0x000000ab]" },
	{ "[%*d] [%-*d] [%*d]", { 5, 42, 3, 1 }, 4, "[   42] [1  ] [[%*d:noarg]]" },
	{ "[%*d]", { NEG(-4), 1 }, 4, "[1   ]" },
	{ "[%.*d]", { 3, 5 }, 4, "[005]" },
	{ "[%c] [%3c] [%-3c]", { 'A', 'B', 'C' }, 4, "[A] [  B] [C  ]" },
	{ "[%s] [%.2s] [%6s] [%-6s]", { 0x2000, 0x2000, 0x2100, 0x2100 }, 4,
	  "[hello] [he] [    ab] [ab    ]" },
	{ "[%s] [%s]", { 0, 0x9999 }, 4, "[(null)] [(efault)]" },
	{ "%pS %ps %pB", { 0x1010, 0x1010, 0x1020 }, 4, "fn+0x10/0x80 [mod] fn fn+0x20/0x80 [mod]" },
	{ "%pS", { 0x5000 }, 4, "0x5000" },
	{ "%p %px %pK", { 0xff, 0xffff888000001000ULL, 1 }, 4,
	  "00000000000000ff ffff888000001000 0000000000000001" },
	{ "%pI4 after", { 0xabc }, 4, "[%pI4:0xabc] after" },
	{ "%pM%d", { 1, 2 }, 4, "[%pM:0x1]2" },
	{ "%f %e %n", { 0x4000000000000000ULL, 1, 2 }, 4,
	  "[%f:0x4000000000000000] [%e:0x1] [%n:0x2]" },
	{ "%d %d %d %d %d", { 1, 2, 3, 4 }, 4, "1 2 3 4 [%d:noarg]" },
	{ "%d", { 1 }, 0, "[%d:noarg]" },
	{ "100%% %d%%", { 5 }, 4, "100% 5%" },
	{ "%y", { 1 }, 4, "[bad format at byte 0]" },
	{ "abc %", { 1 }, 4, "abc [bad format at byte 4]" },
	{ "a %d %lk b", { 1, 2 }, 4, "a 1 [bad format at byte 5]" },
	{ "%-", { 1 }, 4, "[bad format at byte 0]" },
	{ "plain", { 0 }, 4, "plain" },
};

static void message_matches_kernel_vsnprintf(struct ht_case *c)
{
	char buf[256];
	size_t i, bad;
	int n;

	for (i = 0; i < sizeof(msg_cases) / sizeof(msg_cases[0]); i++) {
		n = frec_format_message(buf, sizeof(buf), msg_cases[i].fmt, msg_cases[i].args,
					msg_cases[i].nr, &env, &bad);
		HT_EXPECT(c, !strcmp(buf, msg_cases[i].want), "\"%s\": got \"%s\", want \"%s\"",
			  msg_cases[i].fmt, buf, msg_cases[i].want);
		HT_EXPECT_EQ(c, n, strlen(buf));
	}
}

static void message_reports_bad_offset(struct ht_case *c)
{
	u64 args[4] = { 1, 2 };
	char buf[64];
	size_t bad;

	frec_format_message(buf, sizeof(buf), "ok %d", args, 4, &env, &bad);
	HT_EXPECT(c, bad == (size_t)-1, "good format: offset %zu", bad);
	frec_format_message(buf, sizeof(buf), "a %d %lk b", args, 4, &env, &bad);
	HT_EXPECT_EQ(c, bad, 5);
}

static void message_never_overflows(struct ht_case *c)
{
	u64 args[4] = { 0x2000, 123456789, 0x1010, 0xff };
	char buf[64];
	size_t size;
	int n;

	for (size = 1; size < sizeof(buf); size++) {
		memset(buf, 'Z', sizeof(buf));
		n = frec_format_message(buf, size, "%s %d %pS %#x %20s", args, 4, &env, NULL);
		HT_EXPECT(c, (size_t)n <= size - 1, "size %zu: wrote %d", size, n);
		HT_EXPECT(c, buf[n] == '\0', "size %zu: no NUL", size);
		HT_EXPECT(c, buf[size] == 'Z', "size %zu: wrote past the end", size);
	}
}

static void line_has_the_documented_layout(struct ht_case *c)
{
	u64 args[4] = { 3, 0x2000 };
	struct frec_format_record rec = {
		.seq = 253, .ts = 12027638123ULL, .cpu = 1, .ring = "hanoi_moves",
		.caller = 0x101a, .fmt = "move disk %d %s\n", .args = args, .nr_args = 4,
	};
	char buf[FREC_FORMAT_LINE_MAX];
	size_t n;

	n = frec_format_line(buf, sizeof(buf), &rec, &env);
	HT_EXPECT(c, !strcmp(buf, "253 [   12.027638123] cpu1 hanoi_moves: fn+0x1a/0x80 [mod] "
			       "move disk 3 hello\n"), "got \"%s\"", buf);
	HT_EXPECT_EQ(c, n, strlen(buf));
	rec.caller = 0xffffffffc0001234ULL;
	rec.fmt = NULL;
	rec.text = "a\tb\x01" "c\x7f\n";
	rec.text_len = 7;
	frec_format_line(buf, sizeof(buf), &rec, &env);
	HT_EXPECT(c, !strcmp(buf, "253 [   12.027638123] cpu1 hanoi_moves: 0xffffffffc0001234 "
			       "a\\x09b\\x01c\\x7f\n"), "got \"%s\"", buf);
}

static void long_line_is_cut_and_marked(struct ht_case *c)
{
	static char text[3000];
	struct frec_format_record rec = { .seq = 1, .ring = "r", .caller = 0x1000 };
	char buf[FREC_FORMAT_LINE_MAX];
	size_t n;

	memset(text, 'x', sizeof(text));
	rec.text = text;
	rec.text_len = sizeof(text);
	n = frec_format_line(buf, sizeof(buf), &rec, &env);
	HT_EXPECT(c, n == sizeof(buf) - 1, "length %zu", n);
	HT_EXPECT(c, !strcmp(buf + n - 6, "[...]\n"), "ends \"%s\"", buf + n - 6);
	rec.text_len = 10;
	n = frec_format_line(buf, sizeof(buf), &rec, &env);
	HT_EXPECT(c, !strstr(buf, "[...]"), "short line marked: %s", buf);
}

static struct ht_case cases[] = {
	HT_CASE(message_matches_kernel_vsnprintf),
	HT_CASE(message_reports_bad_offset),
	HT_CASE(message_never_overflows),
	HT_CASE(line_has_the_documented_layout),
	HT_CASE(long_line_is_cut_and_marked),
};

int main(int argc, char **argv)
{
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
