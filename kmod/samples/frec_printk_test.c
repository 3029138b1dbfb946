// SPDX-License-Identifier: GPL-2.0
/*
 * frec_printk_test.c - test only: frec_printk() stores its arguments and
 * formats them when the ring is read; what the dump prints must be what
 * vsnprintf() printed at the call.  For each case of a table covering
 * every conversion frec formats when read (and the ones it formats at
 * the call), this records the call, then vsnprintf()'s text of the same
 * call as "= %s".  Guest test 0033 compares each pair of lines.
 *
 * The last cases have a length vsnprintf() does not take (q, j, Z): it
 * prints nothing from there on, and warns once (WARN_ONCE()) the first
 * time; 0033 expects that warning.
 *
 *   echo 1 > /sys/module/frec_printk_test/parameters/record
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <frec.h>

#include "frec_sample.h"

FREC_DEFINE_RING(printk_test, FREC_RING_RECORDS, 64 * 1024, FREC_PRINTK_MAX);

static char frec_printk_test_ref[FREC_PRINTK_MAX + 1];
static char frec_printk_test_long[FREC_PRINTK_MAX + 40];
/*
 * With "%s %s", the copy of this string and its NUL leave the record one
 * byte: room for no copy of a second string, even an empty one.
 */
static char frec_printk_test_one_byte_left[FREC_PRINTK_MAX - 2 * sizeof(u64) - 1];

/* The call, then what vsnprintf() makes of it. */
#define FREC_PRINTK_CASE(fmt, ...)						\
	do {									\
		frec_printk(FREC_RING(printk_test), fmt, ##__VA_ARGS__);	\
		snprintf(frec_printk_test_ref, sizeof(frec_printk_test_ref),	\
			 fmt, ##__VA_ARGS__);					\
		frec_printk(FREC_RING(printk_test), "= %s", frec_printk_test_ref); \
	} while (0)

static noinline void frec_printk_test_cases(void)
{
	const char *null = NULL, *low = (const char *)16, *err = ERR_PTR(-EINVAL);
	char *freed;
	int i;

	/* Hidden from the compiler, which would warn about the values. */
	OPTIMIZER_HIDE_VAR(null);
	OPTIMIZER_HIDE_VAR(low);
	OPTIMIZER_HIDE_VAR(err);

	FREC_PRINTK_CASE("int %d %i %u %o %x %X %c", -5, 7, 3000000000U, 8, 255, 255, 'z');
	FREC_PRINTK_CASE("flags [%-5d] [%+d] [% d] [%05d] [%#o] [%#x] [%#X]", 42, 42, 42, 42, 8,
			 255, 255);
	FREC_PRINTK_CASE("star [%*d] [%-*d] [%.*d] [%*.*d]", 6, 42, 6, 42, 4, 7, 8, 3, 9);
	FREC_PRINTK_CASE("prec [%.3d] [%.0d] [%.5x] [%#.3o]", 5, 0, 0xab, 8);
	FREC_PRINTK_CASE("len %hhd %hhu %hd %hu %ld %lu", 300, 300, 70000, 70000, -123456789L,
			 ULONG_MAX);
	FREC_PRINTK_CASE("len %lld %llu %llx %llX %#llo", -1LL << 40, 1ULL << 63,
			 0x1234567890abcdefULL, 0xfedcba0987654321ULL, 01234567ULL);
	FREC_PRINTK_CASE("len %zu %zd %td %zx", (size_t)12345, (ssize_t)-3, (ptrdiff_t)-9,
			 (size_t)0xdead);
	FREC_PRINTK_CASE("str [%s] [%10s] [%-10s] [%.3s] [%.*s] [%5.2s]", "abc", "right",
			 "left", "truncate", 2, "xyz", "pq");
	FREC_PRINTK_CASE("bad str [%s] [%s] [%s] [%8s]", null, low, err, null);
	FREC_PRINTK_CASE("char [%c%c%c] [%3c] [%-3c]", 'a', 'b', 'c', 'x', 'y');
	FREC_PRINTK_CASE("pct 100%% %d%% %%d", 5);
	FREC_PRINTK_CASE("px %px %16px", frec_printk_test_ref, frec_printk_test_ref);
	FREC_PRINTK_CASE("no args at all");
	FREC_PRINTK_CASE("%s%s%s%s%s%s%s%s", "1", "2", "3", "4", "5", "6", "7", "8");
	FREC_PRINTK_CASE("tab\there, nl\n");
	/* Formatted at the call: hashed, a symbol, memory read. */
	FREC_PRINTK_CASE("text %p %pK", frec_printk_test_ref, frec_printk_test_ref);
	FREC_PRINTK_CASE("text %pS %ps", frec_printk_test_cases, frec_printk_test_cases);
	FREC_PRINTK_CASE("text %pI4", "\x7f\x00\x00\x01");
	/* A string longer than the record: formatted at the call. */
	FREC_PRINTK_CASE("long %.180s", frec_printk_test_long);
	/* The first string fits, the second has one byte: no room for it. */
	FREC_PRINTK_CASE("%s %s", frec_printk_test_one_byte_left, "bbbb");
	/* A string freed right after the call: it was copied. */
	freed = kstrdup("a string freed right after the call", GFP_KERNEL);
	if (freed) {
		FREC_PRINTK_CASE("freed [%s]", freed);
		for (i = 0; freed[i]; i++)
			freed[i] = '#';
		kfree(freed);
	}
	/* Lengths vsnprintf() stops at: formatted at the call. */
	FREC_PRINTK_CASE("a=%jd b=%d", 5L, 7);
	FREC_PRINTK_CASE("q=%qd", 5LL);
	FREC_PRINTK_CASE("Z=%Zu", (size_t)5);
	FREC_PRINTK_CASE("j=%ju", 5UL);
}

static int frec_printk_test_record(const char *val, const struct kernel_param *kp)
{
	memset(frec_printk_test_long, 'y', sizeof(frec_printk_test_long) - 1);
	memset(frec_printk_test_one_byte_left, 'x', sizeof(frec_printk_test_one_byte_left) - 1);
	frec_printk_test_cases();
	return 0;
}

FREC_SAMPLE_ACTION(record, frec_printk_test_record, "write anything: record the table of cases");

MODULE_DESCRIPTION("frec test: frec_printk() stored as arguments prints what vsnprintf() prints");
MODULE_LICENSE("GPL");
