// SPDX-License-Identifier: GPL-2.0
/*
 * test_symbol.c - the names frec_modules.c takes for frec's static objects
 * in a client module (kmod/lib/frec_symbol.h), against the names GCC 12
 * and clang 14 gave them (nm of a client built with each, against
 * Debian's 6.1 headers): a call site is a static inside a function.
 */
#include "harness_test.h"
#include "frec_symbol.h"

#define SITE	"__frec_site"
#define RING	"__frec_ring_def_"

static void gcc_names(struct ht_case *c)
{
	HT_EXPECT(c, frec_symbol_has_prefix("__frec_site.7", SITE), "GCC's site name");
	HT_EXPECT(c, frec_symbol_has_prefix("__frec_site.12", SITE), "GCC's site name");
	HT_EXPECT(c, frec_symbol_has_prefix("__frec_ring_def_bench_events", RING),
		  "a ring definition");
}

static void clang_names(struct ht_case *c)
{
	HT_EXPECT(c, frec_symbol_has_prefix("t_init.__frec_site", SITE), "clang's site name");
	HT_EXPECT(c, frec_symbol_has_prefix("t_one.__frec_site.6", SITE),
		  "clang's second site in one function");
	HT_EXPECT(c, frec_symbol_has_prefix("t_init.__frec_ring_def_local", RING),
		  "clang's name of a ring defined inside a function");
}

static void other_names(struct ht_case *c)
{
	static const char * const no[] = {
		"__frec_sit", "x__frec_site", "frec_site", "t_one.frec_site",
		"t_one.x__frec_site", "a.b.__frec_site", "t_one.", ".", "",
		"__frec_ring_de",
	};
	unsigned int i;

	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		HT_EXPECT(c, !frec_symbol_has_prefix(no[i], SITE) &&
			  !frec_symbol_has_prefix(no[i], RING), "\"%s\" taken", no[i]);
}

static struct ht_case cases[] = {
	HT_CASE(gcc_names),
	HT_CASE(clang_names),
	HT_CASE(other_names),
};

int main(int argc, char **argv)
{
	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
