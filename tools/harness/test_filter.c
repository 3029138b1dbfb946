// SPDX-License-Identifier: GPL-2.0
/*
 * test_filter.c - the filter language (kmod/lib/frec_filter.c) as tools/
 * compiles it: the case table the KUnit suite runs against the kernel's
 * compilation (kunit/frec_filter_cases.h), then what only userspace can
 * check cheaply: the glob matcher against the C library's fnmatch(3), and
 * random lines, each of which either parses to a filter whose print parses
 * back to it, or is refused with a message.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "harness_test.h"
#include "frec_filter_cases.h"

static void filter_cases_pass(struct ht_case *c)
{
	struct frec_filter_case_scratch *s = calloc(1, sizeof(*s));
	char why[256];
	size_t i;

	for (i = 0; frec_filter_cases[i].line; i++)
		if (!frec_filter_case_run(&frec_filter_cases[i], s, why, sizeof(why)))
			ht_fail(c, __FILE__, __LINE__, "case %zu, \"%.60s\"%s: %s", i,
				frec_filter_cases[i].line,
				frec_filter_cases[i].list ? " (ring list)" : "", why);
	free(s);
}

/* xorshift64: the same sequence on every run. */
static unsigned long long rnd(unsigned long long *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static void random_string(unsigned long long *state, char *buf, size_t max,
			  const char *alphabet)
{
	size_t i, n = rnd(state) % max, k = strlen(alphabet);

	for (i = 0; i < n; i++)
		buf[i] = alphabet[rnd(state) % k];
	buf[n] = '\0';
}

/*
 * Globs fnmatch(3) answers as the kernel's glob_match() does: not those
 * with a '[' that no ']' closes (the kernel then takes the '[' as a plain
 * byte and the rest as a glob; glibc differs; the case table has the
 * kernel's answer), nor those with a range that runs backwards (POSIX
 * leaves it unspecified).  Backslashes are not in the alphabet: ring
 * globs cannot hold them.
 */
static bool fnmatch_agrees(const char *g)
{
	const char *p, *close;

	for (p = g; *p; p++) {
		if (p > g && p[0] == '-' && p[-1] != '[' && p[1] && p[1] != ']' &&
		    (unsigned char)p[-1] > (unsigned char)p[1])
			return false;
		if (*p != '[')
			continue;
		close = p + 1 + (p[1] == '!');
		if (!*close || !strchr(close + 1, ']'))
			return false;
	}
	return true;
}

static void glob_matches_as_fnmatch(struct ht_case *c)
{
	unsigned long long state = 0x9e3779b97f4a7c15ULL;
	char glob[12], name[10];
	int i, compared = 0;

	for (i = 0; i < 2000000; i++) {
		random_string(&state, glob, sizeof(glob), "ab*?[]!-");
		random_string(&state, name, sizeof(name), "ab[]!-");
		if (!fnmatch_agrees(glob))
			continue;
		compared++;
		if (frec_filter_glob_match(glob, name) != !fnmatch(glob, name, 0)) {
			ht_fail(c, __FILE__, __LINE__, "glob \"%s\" name \"%s\": %d, fnmatch %d",
				glob, name, frec_filter_glob_match(glob, name),
				!fnmatch(glob, name, 0));
			return;
		}
	}
	HT_EXPECT(c, compared > 1000000, "only %d compared", compared);
}

/* Random lines of filter-like pieces: refused with a message, or round trips. */
static void random_lines_round_trip(struct ht_case *c)
{
	static const char * const pieces[] = {
		"ring=", "cpu=", "seq=", "time=", "text=", " ", " ", "\t", ",", "-", ".",
		"0", "1", "3", "9", "12", "4294967296", "18446744073709551615", "*", "?",
		"[", "]", "!", "log", "hanoi_", "x", "=", "+",
	};
	unsigned long long state = 42;
	struct frec_filter *f = malloc(sizeof(*f)), *g = malloc(sizeof(*g));
	char line[64], print[2 * FREC_FILTER_MAX], msg[FREC_FILTER_MSG_MAX];
	int i, j, n, err, parsed = 0;
	size_t len;

	for (i = 0; i < 300000; i++) {
		line[0] = '\0';
		n = rnd(&state) % 8;
		for (j = 0, len = 0; j < n; j++) {
			const char *p = pieces[rnd(&state) % (sizeof(pieces) / sizeof(pieces[0]))];

			if (len + strlen(p) >= sizeof(line))
				break;
			strcpy(line + len, p);
			len += strlen(p);
		}
		err = frec_filter_parse(f, line, &frec_filter_case_env, msg, sizeof(msg));
		if (err) {
			if (!msg[0] || (err != -EINVAL && err != -ERANGE && err != -ENOENT &&
					err != -E2BIG)) {
				ht_fail(c, __FILE__, __LINE__, "\"%s\": %d, \"%s\"", line, err, msg);
				break;
			}
			continue;
		}
		parsed++;
		frec_filter_print(f, print, sizeof(print));
		err = frec_filter_parse(g, print, &frec_filter_case_env, msg, sizeof(msg));
		if (err || memcmp(f, g, sizeof(*f))) {
			ht_fail(c, __FILE__, __LINE__, "\"%s\" prints \"%s\", which parses to %s (%s)",
				line, print, err ? "an error" : "another filter", msg);
			break;
		}
	}
	HT_EXPECT(c, parsed > 10000, "only %d lines parsed", parsed);
	free(f);
	free(g);
}

static struct ht_case cases[] = {
	HT_CASE(filter_cases_pass),
	HT_CASE(glob_matches_as_fnmatch),
	HT_CASE(random_lines_round_trip),
};

int main(int argc, char **argv)
{
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
