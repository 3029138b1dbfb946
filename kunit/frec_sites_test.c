// SPDX-License-Identifier: GPL-2.0
/*
 * frec_sites_test.c - KUnit: call sites registered on their first record,
 * from every context at once.
 *
 * FREC_SITES_RACE sites, written by hand (not by the record macros, so
 * that frec does not find them when this module loads), are recorded
 * into in turn by a task on every CPU, a hard-IRQ hrtimer on every CPU
 * and NMIs sent to the next CPU, all at the same site at the same time.
 * Each site must end with one id of its own, listed once in frec/sites
 * with that id, and every record must name its site: by the id, or by
 * the format's address when it met the site being registered elsewhere.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/nmi.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_rb.h"
#include "frec_rings.h"
#include "frec_test.h"

#define FREC_SITES_RACE		200
#define FREC_SITES_RACE_FMT	"kunit race site"
#define FREC_SITES_FILE		"/sys/kernel/debug/frec/sites"
#define FREC_SITES_FILE_MAX	(4 << 20)
/* How long everybody records into one site. */
#define FREC_SITES_STEP_NS	(300 * NSEC_PER_USEC)

/*
 * Static, as every site must be: frec keeps pointers to them until this
 * module goes (a heap copy freed after the test would dangle).
 */
static struct frec_site frec_sites_race_sites[FREC_SITES_RACE];

struct sites_race {
	struct frec_ring *ring;
	struct frec_site *sites;
	unsigned int cursor;		/* the site everybody records into */
	bool stop;
	atomic_t ready;
	atomic_long_t by_id, by_address, irq, nmi;
	struct hrtimer __percpu *hrtimer;
};

static struct sites_race *race;

/* Record into the current site; preemption or interrupts are off. */
static void race_record(void)
{
	unsigned int i = READ_ONCE(race->cursor);
	struct frec_site *site;

	if (i >= FREC_SITES_RACE)
		return;
	site = &race->sites[i];
	__frec_record(race->ring, site, _THIS_IP_, i, smp_processor_id(), 0, 0);
}

static int race_nmi(unsigned int cmd, struct pt_regs *regs)
{
	if (!READ_ONCE(race) || READ_ONCE(race->stop))
		return NMI_DONE;
	race_record();
	atomic_long_inc(&race->nmi);
	return NMI_HANDLED;
}

static enum hrtimer_restart race_hrtimer(struct hrtimer *hr)
{
	if (READ_ONCE(race->stop))
		return HRTIMER_NORESTART;
	race_record();
	atomic_long_inc(&race->irq);
	frec_test_nmi_next_cpu();
	hrtimer_forward_now(hr, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* A task per CPU: its hrtimer, and records into the site of the moment. */
static int race_task(void *data)
{
	struct hrtimer *hr = this_cpu_ptr(race->hrtimer);
	u64 since = local_clock();
	unsigned int i, n;

	hrtimer_init(hr, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	hr->function = race_hrtimer;
	hrtimer_start(hr, ns_to_ktime(50 * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED_HARD);
	atomic_inc(&race->ready);
	while (!kthread_should_stop()) {
		if (READ_ONCE(race->stop)) {
			schedule_timeout_interruptible(1);
			continue;
		}
		for (n = 0; n < 8; n++) {
			preempt_disable();
			race_record();
			preempt_enable();
		}
		/* The first task moves everybody on to the next site. */
		if (data && local_clock() - since > FREC_SITES_STEP_NS) {
			since = local_clock();
			i = READ_ONCE(race->cursor);
			if (i + 1 >= FREC_SITES_RACE)
				WRITE_ONCE(race->stop, true);
			WRITE_ONCE(race->cursor, i + 1);
		}
		cond_resched();
	}
	hrtimer_cancel(hr);
	return 0;
}

/* frec/sites, read whole into a vmalloc'ed buffer (NUL-terminated). */
static char *race_read_sites(struct kunit *test)
{
	struct file *f = filp_open(FREC_SITES_FILE, O_RDONLY, 0);
	char *buf;
	loff_t pos = 0;
	ssize_t n;
	size_t len = 0;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "open %s: %ld", FREC_SITES_FILE, PTR_ERR(f));
	buf = vmalloc(FREC_SITES_FILE_MAX);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	while (len < FREC_SITES_FILE_MAX - 1 &&
	       (n = kernel_read(f, buf + len, FREC_SITES_FILE_MAX - 1 - len, &pos)) > 0)
		len += n;
	buf[len] = '\0';
	filp_close(f, NULL);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(buf, "# frec sites: "),
			      "%s reads \"%.40s\" (%zu bytes)", FREC_SITES_FILE, buf, len);
	return buf;
}

/* Each site: one id of its own, in every record and once in frec/sites. */
static void race_check(struct kunit *test)
{
	struct frec_ring_store *store = frec_test_store(race->ring);
	unsigned int i, j, id, listed;
	char want[64], *sites, *p;
	struct frec_rb_cursor cur;
	struct frec_rb_entry e;
	struct frec_rb_cpu *rc;
	int cpu;

	for (i = 0; i < FREC_SITES_RACE; i++) {
		id = READ_ONCE(race->sites[i].id);
		KUNIT_EXPECT_TRUE_MSG(test, id && id < FREC_SITE_ID_LIMIT,
				      "site %u has id word %#x", i, id);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE_MSG(test, id, race->sites[j].id,
					    "sites %u and %u share an id", i, j);
	}
	for_each_possible_cpu(cpu) {
		rc = per_cpu_ptr(store->cpus, cpu);
		frec_rb_cursor_init(&store->layout, rc, &cur);
		while (frec_rb_cursor_next(&store->layout, rc, &cur, &e, NULL, 0)) {
			i = e.args[0];
			KUNIT_ASSERT_LT(test, i, FREC_SITES_RACE);
			if (e.site == race->sites[i].id) {
				atomic_long_inc(&race->by_id);
			} else {
				KUNIT_EXPECT_EQ_MSG(test, e.site, (unsigned long)race->sites[i].fmt,
						    "a record of site %u names neither", i);
				atomic_long_inc(&race->by_address);
			}
		}
	}
	sites = race_read_sites(test);
	for (i = 0; i < FREC_SITES_RACE; i++) {
		snprintf(want, sizeof(want), "%u info %u \"%s\" ", race->sites[i].id, i,
			 KBUILD_MODNAME);
		listed = 0;
		for (p = sites; (p = strstr(p, want)); p++)
			if (p == sites || p[-1] == '\n')
				listed++;
		KUNIT_EXPECT_EQ_MSG(test, listed, 1U, "site %u (id %u) listed %u times",
				    i, race->sites[i].id, listed);
	}
	vfree(sites);
}

static void sites_first_use_races(struct kunit *test)
{
	struct task_struct **task;
	unsigned int i, started;

	task = kunit_kcalloc(test, nr_cpu_ids, sizeof(*task), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, task);
	race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, race);
	race->sites = frec_sites_race_sites;
	if (READ_ONCE(race->sites[0].id))
		kunit_skip(test, "sites registered by an earlier run: load the module again");
	for (i = 0; i < FREC_SITES_RACE; i++)
		race->sites[i] = (struct frec_site) {
			.level = FREC_LEVEL_INFO, .code_level = FREC_LEVEL_INFO,
			.set_level = FREC_LEVEL_INFO, .fmt = FREC_SITES_RACE_FMT " %lu on cpu%lu",
			.file = __FILE__, .func = __func__, .modname = KBUILD_MODNAME,
			.line = i,
		};
	race->ring = frec_ring_create("kunit_sites", FREC_RING_EVENTS, 256 * 1024, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(race->ring));
	race->hrtimer = alloc_percpu(struct hrtimer);
	KUNIT_ASSERT_NOT_NULL(test, race->hrtimer);
	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, race_nmi, 0, "frec_sites_kunit"), 0);

	started = frec_test_start_on_cpus(task, race_task, race, "frec_sites/%u");
	while (!READ_ONCE(race->stop))
		msleep(20);
	frec_test_stop_on_cpus(task);
	unregister_nmi_handler(NMI_LOCAL, "frec_sites_kunit");

	race_check(test);
	kunit_info(test, "%u sites, %u tasks; records: %ld by id, %ld by format address (met a registration); %ld hard-IRQ and %ld NMI records\n",
		   FREC_SITES_RACE, started, atomic_long_read(&race->by_id),
		   atomic_long_read(&race->by_address), atomic_long_read(&race->irq),
		   atomic_long_read(&race->nmi));
	KUNIT_EXPECT_GT(test, atomic_long_read(&race->irq), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&race->nmi), 0);
	free_percpu(race->hrtimer);
	frec_ring_destroy(race->ring);
	race = NULL;
}

static struct kunit_case frec_sites_cases[] = {
	KUNIT_CASE(sites_first_use_races),
	{}
};

static struct kunit_suite frec_sites_suite = {
	.name = "frec_sites",
	.test_cases = frec_sites_cases,
};

kunit_test_suite(frec_sites_suite);
