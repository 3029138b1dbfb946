// SPDX-License-Identifier: GPL-2.0
/*
 * test_vmcore_kernel.c - the kdump directory the kernel keeps
 * (kmod/blackbox/frec_vmcore_kernel.c, uapi/frec_vmcore.h), compiled in
 * unchanged over a model of the kernel's memory: each buffer it is given
 * (the region's tables, every CPU's slots) is "vmalloc'd", its pages at
 * physical addresses in reverse order, so that no two merge and each
 * page is an extent of its own.  Rings of 512 pages a CPU on two CPUs
 * fill the directory after three: the next store added does not fit.
 *
 * After every store added or taken out, the copy a decoder takes (the
 * valid one of the higher generation) must name the tables' pages and
 * each listed ring's pages, in order, and list every store that fits: a
 * store that does not fit is the only one left out.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frec_user.h"
#include "harness_test.h"

#define KBUILD_MODNAME		"frec"
#define __percpu
typedef u64 phys_addr_t;
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define __GFP_ZERO		0
#define PFN_PHYS(pfn)		((u64)(pfn) << PAGE_SHIFT)
#define offset_in_page(p)	((unsigned long)(p) & (PAGE_SIZE - 1))
#define DEFINE_MUTEX(m)		pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER
#define mutex_lock(m)		pthread_mutex_lock(m)
#define mutex_unlock(m)		pthread_mutex_unlock(m)
#define pr_info(...)		do { } while (0)
#define pr_warn(fmt, ...)	printf("# " fmt, ##__VA_ARGS__)
#define strscpy(d, s, n)	snprintf((d), (n), "%s", (s))
#define le64_add_cpu(p, n)	(*(p) = cpu_to_le64(le64_to_cpu(*(p)) + (n)))
#define per_cpu_ptr(p, cpu)	(&(p)[cpu])
#define nr_cpu_ids		TEST_CPUS
#define cpu_possible(cpu)	((cpu) < TEST_CPUS)

#define TEST_CPUS		2
#define TEST_RING_PAGES		512
#define TEST_RINGS		5
#define TEST_TABLES_PAGES	6
#define TEST_BUFS		(TEST_RINGS * TEST_CPUS + 1)

/* The buffers the kernel's memory holds, and the first pfn of each. */
static struct {
	const char *p;
	unsigned long pages;
	unsigned long pfn;
} test_bufs[TEST_BUFS];
static unsigned int test_nr_bufs;
static unsigned long test_next_pfn = 0x1000;

static void *test_vmalloc(unsigned long pages)
{
	char *p = aligned_alloc(PAGE_SIZE, pages * PAGE_SIZE);

	if (!p || test_nr_bufs == TEST_BUFS)
		abort();
	memset(p, 0, pages * PAGE_SIZE);
	test_bufs[test_nr_bufs].p = p;
	test_bufs[test_nr_bufs].pages = pages;
	/* A gap between buffers: no buffer's page follows another's. */
	test_bufs[test_nr_bufs++].pfn = test_next_pfn;
	test_next_pfn += pages + 1;
	return p;
}

/* Page i of a buffer is at its pfn + pages - 1 - i: backwards. */
static unsigned long vmalloc_to_pfn(const void *addr)
{
	const char *p = addr;
	unsigned int i;

	for (i = 0; i < test_nr_bufs; i++)
		if (p >= test_bufs[i].p && p < test_bufs[i].p + test_bufs[i].pages * PAGE_SIZE)
			return test_bufs[i].pfn + test_bufs[i].pages - 1 -
			       (p - test_bufs[i].p) / PAGE_SIZE;
	abort();
}

static bool is_vmalloc_addr(const void *p)
{
	return true;
}

static u64 virt_to_phys(void *p)
{
	abort();
}

static unsigned int get_order(unsigned long bytes)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < bytes)
		order++;
	return order;
}

static unsigned long __get_free_pages(int gfp, unsigned int order)
{
	void *p = aligned_alloc(PAGE_SIZE, PAGE_SIZE << order);

	if (p)
		memset(p, 0, PAGE_SIZE << order);
	return (unsigned long)p;
}

static void free_pages(unsigned long addr, unsigned int order)
{
	free((void *)addr);
}

#include "../../kmod/blackbox/frec_vmcore_kernel.c"

/* The stores of the test's rings: each CPU's slots a buffer. */
static struct frec_rb_cpu test_cpus[TEST_RINGS][TEST_CPUS];
static unsigned int test_ids[TEST_RINGS];

/* Do extents @e[0..@nr) name the pages of @p, @pages of them, in order? */
static bool test_names_pages(const struct frec_vmcore_extent *e, u32 nr, const void *p,
			     unsigned long pages)
{
	unsigned long i;

	if (nr != pages)
		return false;
	for (i = 0; i < pages; i++)
		if (le64_to_cpu(e[i].phys) != PFN_PHYS(vmalloc_to_pfn((const char *)p +
								      i * PAGE_SIZE)) ||
		    le64_to_cpu(e[i].bytes) != PAGE_SIZE)
			return false;
	return true;
}

/*
 * The copy a decoder takes names the tables and the rings listed (@listed,
 * a bit per ring) and those alone.
 */
static void test_check(struct ht_case *c, const void *tables, unsigned int listed,
		       const char *when)
{
	const struct frec_vmcore_dir *d = NULL, *o;
	const struct frec_vmcore_ring *r;
	const struct frec_vmcore_extent *e;
	u32 nr_rings, nr_ext, first, n, i, k;
	int cpu;

	for (i = 0; i < 2; i++) {
		o = frec_vmcore_dirs[i];
		/* A copy never written is zeros. */
		if (le32_to_cpu(o->dir_bytes) < sizeof(*o) ||
		    le32_to_cpu(o->dir_bytes) > FREC_VMCORE_DIR_BYTES ||
		    le32_to_cpu(o->csum) != frec_vmcore_dir_csum(o, le32_to_cpu(o->dir_bytes)))
			continue;
		if (!d || le64_to_cpu(o->gen) > le64_to_cpu(d->gen))
			d = o;
	}
	HT_EXPECT(c, d, "%s: no valid copy", when);
	if (!d)
		return;
	nr_rings = le32_to_cpu(d->nr_rings);
	nr_ext = le32_to_cpu(d->nr_extents);
	r = (const void *)(d + 1);
	e = (const void *)(r + nr_rings);
	HT_EXPECT(c, le32_to_cpu(d->dir_bytes) == sizeof(*d) + nr_rings * sizeof(*r) +
		  nr_ext * sizeof(*e), "%s: dir_bytes %u for %u rings, %u extents", when,
		  le32_to_cpu(d->dir_bytes), nr_rings, nr_ext);
	HT_EXPECT(c, le32_to_cpu(d->tables_extents) <= nr_ext &&
		  test_names_pages(e, le32_to_cpu(d->tables_extents), tables, TEST_TABLES_PAGES),
		  "%s: the tables' %u extents (of %u) do not name the tables' pages", when,
		  le32_to_cpu(d->tables_extents), nr_ext);
	HT_EXPECT_EQ(c, nr_rings, __builtin_popcount(listed));
	for (i = 0; i < nr_rings; i++) {
		k = r[i].name[4] - '0';
		first = le32_to_cpu(r[i].first_extent);
		n = le32_to_cpu(r[i].nr_extents);
		HT_EXPECT(c, !strncmp(r[i].name, "ring", 4) && k < TEST_RINGS && listed & 1U << k,
			  "%s: ring %.32s listed", when, r[i].name);
		if (k >= TEST_RINGS || first > nr_ext || n != TEST_CPUS * TEST_RING_PAGES ||
		    n > nr_ext - first) {
			HT_EXPECT(c, false, "%s: ring %.32s: extents %u+%u of %u", when, r[i].name,
				  first, n, nr_ext);
			continue;
		}
		for (cpu = 0; cpu < TEST_CPUS; cpu++)
			HT_EXPECT(c, test_names_pages(e + first + cpu * TEST_RING_PAGES,
						      TEST_RING_PAGES, test_cpus[k][cpu].slots,
						      TEST_RING_PAGES),
				  "%s: ring %.32s, CPU %d: its extents do not name its slots' pages",
				  when, r[i].name, cpu);
	}
}

static void test_add(unsigned int k)
{
	char name[8];
	int cpu;

	snprintf(name, sizeof(name), "ring%u", k);
	for (cpu = 0; cpu < TEST_CPUS; cpu++)
		if (!test_cpus[k][cpu].slots)
			test_cpus[k][cpu].slots = test_vmalloc(TEST_RING_PAGES);
	test_ids[k] = frec_vmcore_store_add(name, 0, false,
					    TEST_RING_PAGES * PAGE_SIZE / FREC_SLOT_BYTES,
					    test_cpus[k]);
}

/*
 * Three rings fit, the fourth and fifth do not: they are left out, and
 * the tables and the three are still named, page by page.  With one of
 * the three taken out, the fourth fits.
 */
static void full_directory_keeps_the_rest(struct ht_case *c)
{
	void *tables = test_vmalloc(TEST_TABLES_PAGES);
	unsigned int k;

	HT_EXPECT_EQ(c, frec_vmcore_init(tables, TEST_TABLES_PAGES * PAGE_SIZE), 0);
	test_check(c, tables, 0, "no ring");
	for (k = 0; k < TEST_RINGS; k++)
		test_add(k);
	test_check(c, tables, 0x7, "five rings, room for three");
	frec_vmcore_store_del(test_ids[1]);
	test_check(c, tables, 0xd, "ring 1 taken out");
	frec_vmcore_store_del(test_ids[0]);
	frec_vmcore_store_del(test_ids[2]);
	test_check(c, tables, 0x18, "rings 0 and 2 taken out");
	frec_vmcore_exit();
	for (k = 0; k < test_nr_bufs; k++)
		free((void *)test_bufs[k].p);
}

int main(int argc, char **argv)
{
	struct ht_case cases[] = {
		HT_CASE(full_directory_keeps_the_rest),
	};

	return ht_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
