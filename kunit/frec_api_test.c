// SPDX-License-Identifier: GPL-2.0
/*
 * frec_api_test.c - KUnit tests of the client API (include/frec.h):
 * creating and destroying named rings, bad names and sizes, frec_record()
 * with 0 to 4 arguments, frec_printk(), disabling a ring, and ring creation
 * and destruction racing with recording on other CPUs.  Needs frec.ko
 * loaded.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <frec.h>
#include <frec_raw.h>

#include "frec_rb.h"
#include "frec_rings.h"
#include "frec_sites.h"
#include "frec_test.h"
#include "frec_trace.h"

/* The newest record of this CPU's part of @ring, or false if none. */
static bool api_newest(struct frec_ring *ring, int cpu, struct frec_rb_entry *out)
{
	struct frec_rb_cpu *rc = per_cpu_ptr(frec_test_store(ring)->cpus, cpu);
	struct frec_rb_cursor cur;
	struct frec_rb_entry ent;
	bool found = false;

	frec_rb_cursor_init(&frec_test_store(ring)->layout, rc, &cur);
	while (frec_rb_cursor_next(&frec_test_store(ring)->layout, rc, &cur, &ent, NULL, 0)) {
		*out = ent;
		found = true;
	}
	return found;
}

static void api_bad_names_are_rejected(struct kunit *test)
{
	static const char * const bad[] = {
		"", "has space", "a/b", "dot.ted", "0123456789012345678901234567890123",
		/* isalnum() takes Latin-1 letters; no reader takes such a name */
		"caf\xe9",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(frec_ring_create(bad[i], FREC_RING_EVENTS,
								   4096, 0)),
				    -EINVAL, "name '%s'", bad[i]);
	KUNIT_EXPECT_EQ(test, PTR_ERR(frec_ring_create(NULL, FREC_RING_EVENTS, 4096, 0)),
			-EINVAL);
}

static void api_bad_sizes_are_rejected(struct kunit *test)
{
	static const unsigned long bad[] = { 0, 64, 100, 3 * 64, 4095, 4097 };
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(frec_ring_create("api_size", FREC_RING_EVENTS,
								   bad[i], 0)),
				    -EINVAL, "size %lu", bad[i]);
	/* An event ring takes no record length, a record ring needs one... */
	KUNIT_EXPECT_EQ(test, PTR_ERR(frec_ring_create("api_size", FREC_RING_EVENTS, 4096, 100)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(frec_ring_create("api_size", FREC_RING_RECORDS, 4096, 0)),
			-EINVAL);
	/* ...that fits in one CPU's part. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(frec_ring_create("api_size", FREC_RING_RECORDS, 512, 1000)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(frec_ring_create("api_size", 7, 4096, 0)), -EINVAL);
}

static void api_names_are_unique(struct kunit *test)
{
	struct frec_ring *a, *b;

	a = frec_ring_create("api_unique", FREC_RING_EVENTS, 4096, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = frec_ring_create("api_unique", FREC_RING_RECORDS, 8192, 100);
	KUNIT_EXPECT_EQ(test, PTR_ERR(b), -EEXIST);
	frec_ring_destroy(a);
	/* Free again once destroyed. */
	b = frec_ring_create("api_unique", FREC_RING_RECORDS, 8192, 100);
	KUNIT_EXPECT_FALSE(test, IS_ERR(b));
	frec_ring_destroy(b);
	KUNIT_EXPECT_EQ(test, PTR_ERR(frec_ring_create("default", FREC_RING_EVENTS, 4096, 0)),
			-EEXIST);
}

static void api_default_ring_exists(struct kunit *test)
{
	struct frec_ring *ring = frec_default_ring();

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ring);
	KUNIT_EXPECT_STREQ(test, ring->name, "default");
	KUNIT_EXPECT_EQ(test, ring->kind, FREC_RING_EVENTS);
	/* Destroying it is refused: it lives as long as frec. */
	frec_ring_destroy(ring);
	KUNIT_EXPECT_PTR_EQ(test, frec_default_ring(), ring);
}

static void api_record_stores_format_args_and_caller(struct kunit *test)
{
	struct frec_ring *ring = frec_ring_create("api_record", FREC_RING_EVENTS, 4096, 0);
	struct frec_rb_entry e;
	char sym[KSYM_SYMBOL_LEN], want[KSYM_SYMBOL_LEN], got[16];
	int cpu;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, frec_record(ring, "no args"), 0);
	KUNIT_EXPECT_TRUE(test, api_newest(ring, cpu, &e));
	/* The site's id, which names the format. */
	KUNIT_EXPECT_TRUE(test, e.site && e.site < FREC_SITE_ID_LIMIT);
	KUNIT_EXPECT_EQ(test, frec_site_format(got, sizeof(got), e.site), 7);
	KUNIT_EXPECT_STREQ(test, got, "no args");
	KUNIT_EXPECT_EQ(test, e.args[0], 0UL);

	KUNIT_EXPECT_EQ(test, frec_record(ring, "%d %u %lx %p", -1, 2U, 0xabcUL, ring), 0);
	KUNIT_EXPECT_TRUE(test, api_newest(ring, cpu, &e));
	KUNIT_EXPECT_EQ(test, (int)e.args[0], -1);
	KUNIT_EXPECT_EQ(test, e.args[1], 2UL);
	KUNIT_EXPECT_EQ(test, e.args[2], 0xabcUL);
	KUNIT_EXPECT_EQ(test, e.args[3], (unsigned long)ring);
	put_cpu();
	/* The caller is this function (in this module). */
	snprintf(sym, sizeof(sym), "%ps", (void *)e.caller);
	snprintf(want, sizeof(want), "%s [%s]", __func__, KBUILD_MODNAME);
	KUNIT_EXPECT_STREQ(test, sym, want);
	frec_ring_destroy(ring);
}

static void api_printk_stores_text(struct kunit *test)
{
	struct frec_ring *ring = frec_ring_create("api_printk", FREC_RING_RECORDS, 8192, 100);
	struct frec_ring_store *store;
	struct frec_rb_cpu *rc;
	struct frec_rb_cursor cur;
	struct frec_rb_entry e;
	char *text, *long_word, sym[KSYM_SYMBOL_LEN], want[KSYM_SYMBOL_LEN];
	u64 words[2];
	int cpu, n = 0;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	text = kunit_kzalloc(test, 200, GFP_KERNEL);
	long_word = kunit_kzalloc(test, 300, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_NOT_NULL(test, long_word);
	memset(long_word, 'x', 299);

	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, frec_printk(ring, "hello %s %d", "world", 42), 0);
	/* 299 characters: cut to the ring's 100. */
	KUNIT_EXPECT_EQ(test, frec_printk(ring, "%s", long_word), 0);
	put_cpu();

	store = frec_test_store(ring);
	rc = per_cpu_ptr(store->cpus, cpu);
	frec_rb_cursor_init(&store->layout, rc, &cur);
	KUNIT_ASSERT_TRUE(test, frec_rb_cursor_next(&store->layout, rc, &cur, &e, text, 200));
	/*
	 * Its arguments, not its text (uapi/frec_raw.h): the string's copy
	 * at 16, then 42.
	 */
	KUNIT_EXPECT_TRUE(test, e.printk_args);
	KUNIT_EXPECT_EQ(test, e.len, 22U);
	memcpy(words, text, sizeof(words));
	KUNIT_EXPECT_EQ(test, words[0], FREC_RECORD_ARG_STRING | 16);
	KUNIT_EXPECT_EQ(test, words[1], 42ULL);
	KUNIT_EXPECT_STREQ(test, text + 16, "world");
	/* A record of arguments names its site too. */
	KUNIT_EXPECT_TRUE(test, e.site && e.site < FREC_SITE_ID_LIMIT);
	KUNIT_EXPECT_EQ(test, frec_site_format(sym, sizeof(sym), e.site), 11);
	KUNIT_EXPECT_STREQ(test, sym, "hello %s %d");
	snprintf(sym, sizeof(sym), "%ps", (void *)e.caller);
	snprintf(want, sizeof(want), "%s [%s]", __func__, KBUILD_MODNAME);
	KUNIT_EXPECT_STREQ(test, sym, want);
	/* A string too long for the record: formatted at the call, as text. */
	KUNIT_ASSERT_TRUE(test, frec_rb_cursor_next(&store->layout, rc, &cur, &e, text, 200));
	KUNIT_EXPECT_FALSE(test, e.printk_args);
	KUNIT_EXPECT_EQ(test, e.len, 100U);
	KUNIT_EXPECT_EQ(test, memcmp(text, long_word, 100), 0);
	while (frec_rb_cursor_next(&frec_test_store(ring)->layout, rc, &cur, &e, text, 200))
		n++;
	KUNIT_EXPECT_EQ(test, n, 0);

	/* Kinds are not mixed. */
	KUNIT_EXPECT_EQ(test, frec_record(ring, "event"), -EINVAL);
	KUNIT_EXPECT_EQ(test, frec_printk(frec_default_ring(), "text"), -EINVAL);
	frec_ring_destroy(ring);
}

static void api_disabled_ring_drops_and_counts(struct kunit *test)
{
	static struct frec_site raced = {
		.level = FREC_LEVEL_INFO, .code_level = FREC_LEVEL_INFO,
		.set_level = FREC_LEVEL_INFO, .fmt = "raced %d", .file = __FILE__,
		.func = __func__, .modname = KBUILD_MODNAME, .line = __LINE__,
	};
	struct frec_ring *ring = frec_ring_create("api_disabled", FREC_RING_EVENTS, 4096, 0);
	struct frec_rb_cpu *rc;
	struct frec_rb_entry e;
	int cpu;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	KUNIT_EXPECT_TRUE(test, frec_ring_enabled(ring));
	cpu = get_cpu();
	rc = per_cpu_ptr(frec_test_store(ring)->cpus, cpu);
	KUNIT_EXPECT_EQ(test, frec_record(ring, "kept %d", 1), 0);
	frec_ring_set_enabled(ring, false);
	KUNIT_EXPECT_FALSE(test, frec_ring_enabled(ring));
	/* The call site's gate filters it: not stored, not counted. */
	KUNIT_EXPECT_EQ(test, frec_record(ring, "filtered %d", 2), -ENOENT);
	KUNIT_EXPECT_EQ(test, local_read(&rc->written), 1);
	/* A writer that passed the gate before the ring was disabled. */
	KUNIT_EXPECT_EQ(test, __frec_record(ring, &raced, _THIS_IP_, 3, 0, 0, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, local_read(&rc->dropped[FREC_DROP_DISABLED]), 1);
	KUNIT_EXPECT_EQ(test, local_read(&rc->written), 2);
	/* What the ring holds stays readable. */
	KUNIT_EXPECT_TRUE(test, api_newest(ring, cpu, &e));
	KUNIT_EXPECT_EQ(test, e.args[0], 1UL);
	frec_ring_set_enabled(ring, true);
	KUNIT_EXPECT_EQ(test, frec_record(ring, "kept %d", 4), 0);
	KUNIT_EXPECT_TRUE(test, api_newest(ring, cpu, &e));
	KUNIT_EXPECT_EQ(test, e.args[0], 4UL);
	put_cpu();
	frec_ring_destroy(ring);
}

static void api_levels_filter_call_sites(struct kunit *test)
{
	static const int want[] = { 0, -ENOENT, 0, 0, -ENOENT, 0, -ENOENT, -ENOENT, 0 };
	struct frec_ring *ring = frec_ring_create("api_levels", FREC_RING_RECORDS, 4096, 100);
	int r[ARRAY_SIZE(want)], i, cpu;
	long written;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	KUNIT_EXPECT_EQ(test, frec_ring_level(ring), FREC_LEVEL_DEFAULT);
	KUNIT_EXPECT_EQ(test, frec_ring_set_level(ring, 0), -ERANGE);
	KUNIT_EXPECT_EQ(test, frec_ring_set_level(ring, FREC_LEVEL_MAX + 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, frec_ring_level(ring), FREC_LEVEL_DEFAULT);

	/* Stay on one CPU to count its records; expectations after put_cpu(). */
	cpu = get_cpu();
	r[0] = frec_printk_level(ring, FREC_LEVEL_ERR, "err %d", 1);
	r[1] = frec_printk_level(ring, FREC_LEVEL_DEBUG, "debug %d", 2);
	r[2] = frec_ring_set_level(ring, FREC_LEVEL_DEBUG);
	r[3] = frec_printk_level(ring, FREC_LEVEL_DEBUG, "debug %d", 3);
	r[4] = frec_printk_level(ring, FREC_LEVEL_TRACE, "trace %d", 4);
	r[5] = frec_ring_set_level(ring, FREC_LEVEL_ERR);
	r[6] = frec_printk(ring, "info %d", 5);
	/* Disabling and enabling keeps the level. */
	frec_ring_set_enabled(ring, false);
	r[7] = frec_printk_level(ring, FREC_LEVEL_ERR, "err %d", 6);
	frec_ring_set_enabled(ring, true);
	r[8] = frec_printk_level(ring, FREC_LEVEL_ERR, "err %d", 7);
	written = local_read(&per_cpu_ptr(frec_test_store(ring)->cpus, cpu)->written);
	put_cpu();
	for (i = 0; i < ARRAY_SIZE(r); i++)
		KUNIT_EXPECT_EQ_MSG(test, r[i], want[i], "step %d", i);
	KUNIT_EXPECT_EQ(test, frec_ring_level(ring), FREC_LEVEL_ERR);
	/* ERR at INFO, DEBUG at DEBUG, ERR at ERR: three stored. */
	KUNIT_EXPECT_EQ(test, written, 3);
	frec_ring_destroy(ring);
}

static void api_global_switch_filters_everything(struct kunit *test)
{
	struct frec_ring *ring = frec_default_ring();

	static_branch_disable(&frec_enabled_key);
	KUNIT_EXPECT_FALSE(test, frec_ring_passes(ring, FREC_LEVEL_ERR));
	KUNIT_EXPECT_EQ(test, frec_record(ring, "off %d", 1), -ENOENT);
	static_branch_enable(&frec_enabled_key);
	KUNIT_EXPECT_TRUE(test, frec_ring_passes(ring, FREC_LEVEL_ERR));
	KUNIT_EXPECT_EQ(test, frec_record(ring, "on %d", 2), 0);
	/* A static ring whose registration failed is NULL: records nothing. */
	KUNIT_EXPECT_FALSE(test, frec_ring_passes(NULL, FREC_LEVEL_ERR));
	KUNIT_EXPECT_EQ(test, frec_record(NULL, "null %d", 3), -ENOENT);
}

/* Rings come and go while every CPU records into the default ring. */
static int api_race_writer(void *data)
{
	unsigned long n = 0;

	while (!kthread_should_stop()) {
		frec_record(frec_default_ring(), "race %lu", ++n);
		if (!(n & 255))
			cond_resched();
	}
	return 0;
}

static void api_create_destroy_while_recording(struct kunit *test)
{
	struct task_struct *w[NR_CPUS] = { };
	struct frec_ring *ring;
	int cpu, i;

	for_each_online_cpu(cpu) {
		w[cpu] = kthread_create_on_cpu(api_race_writer, NULL, cpu, "frec_api_race/%u");
		if (!IS_ERR(w[cpu]))
			wake_up_process(w[cpu]);
	}
	for (i = 0; i < 100; i++) {
		ring = frec_ring_create("api_race", i & 1 ? FREC_RING_RECORDS : FREC_RING_EVENTS,
					8192, i & 1 ? 200 : 0);
		KUNIT_EXPECT_FALSE(test, IS_ERR(ring));
		if (!IS_ERR(ring) && ring->kind == FREC_RING_EVENTS)
			frec_record(ring, "created %d", i);
		frec_ring_destroy(ring);
	}
	for_each_online_cpu(cpu)
		if (!IS_ERR_OR_NULL(w[cpu]))
			kthread_stop(w[cpu]);
}

/*
 * Destroying a ring while every CPU records into it: writers load the
 * published pointer inside frec_record(), as the kernel-doc of
 * frec_ring_destroy() says, and destroy waits for them or they drop
 * their record (KASAN watches).
 */
static struct frec_ring *api_doomed_ring;

/*
 * The ring expression of a writer, slowed down: the pointer is held for
 * 100 ms, longer than a grace period, before the record goes on with it.
 * A destroy that does not wait for ring expressions being evaluated frees
 * the ring under the writer, and KASAN sees the use after free.
 */
#define API_DOOMED_HOLD_MS	100

static struct frec_ring *api_doomed_load(void)
{
	struct frec_ring *ring = READ_ONCE(api_doomed_ring);

	if (ring)
		mdelay(API_DOOMED_HOLD_MS);
	return ring;
}

static int api_doomed_writer(void *data)
{
	unsigned long n = 0;

	while (!kthread_should_stop()) {
		frec_record(api_doomed_load(), "doomed %lu", ++n);
		if (!(n & 1023))
			cond_resched();
	}
	return 0;
}

static void api_destroy_waits_for_writers_in_flight(struct kunit *test)
{
	struct task_struct *w[NR_CPUS] = { };
	struct frec_ring *ring;
	int cpu, i;

	for_each_online_cpu(cpu) {
		w[cpu] = kthread_create_on_cpu(api_doomed_writer, NULL, cpu, "frec_api_doom/%u");
		if (!IS_ERR(w[cpu]))
			wake_up_process(w[cpu]);
	}
	/* Each ring is published long enough for every writer to load it. */
	for (i = 0; i < 20; i++) {
		ring = frec_ring_create("api_doomed", FREC_RING_EVENTS, 4096, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
		WRITE_ONCE(api_doomed_ring, ring);
		msleep(3 * API_DOOMED_HOLD_MS / 2);
		WRITE_ONCE(api_doomed_ring, NULL);
		frec_ring_destroy(ring);
	}
	for_each_online_cpu(cpu)
		if (!IS_ERR_OR_NULL(w[cpu]))
			kthread_stop(w[cpu]);
}

/*
 * A call site preempted between loading its ring pointer and reading the
 * ring's gate, while the ring is destroyed and new rings are created, one
 * of which may be given the destroyed ring's memory: the record of the
 * destroyed ring's call site lands in none of them.  The writer spins
 * rather than sleeps where it stops, as a preempted task would, for at
 * most two seconds (where the ring expression runs with preemption off,
 * destroy waits for it that long).
 */
#define API_STALE_NEW_RINGS	8

static struct frec_ring *api_stale_ring;
static atomic_t api_stale_step;		/* 1: pointer loaded; 2: go on */
static DECLARE_COMPLETION(api_stale_done);
static int api_stale_ret;

static struct frec_ring *api_stale_load(void)
{
	struct frec_ring *ring = READ_ONCE(api_stale_ring);
	unsigned long end = jiffies + 2 * HZ;

	atomic_set(&api_stale_step, 1);
	while (atomic_read(&api_stale_step) != 2 && time_before(jiffies, end))
		cpu_relax();
	return ring;
}

static int api_stale_writer(void *data)
{
	api_stale_ret = frec_record(api_stale_load(), "stale %d", 1);
	complete(&api_stale_done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Records @ring's CPUs were offered, stored or not. */
static u64 api_written(struct frec_ring *ring)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += local_read(&per_cpu_ptr(frec_test_store(ring)->cpus, cpu)->written);
	return n;
}

static void api_stale_pointer_never_reaches_a_new_ring(struct kunit *test)
{
	struct frec_ring *old, *rings[API_STALE_NEW_RINGS];
	struct task_struct *w;
	char name[FREC_RING_NAME_MAX + 1];
	bool reused = false;
	int i;

	old = frec_ring_create("api_stale", FREC_RING_EVENTS, 4096, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(old));
	WRITE_ONCE(api_stale_ring, old);
	atomic_set(&api_stale_step, 0);
	reinit_completion(&api_stale_done);
	w = kthread_run(api_stale_writer, NULL, "frec_api_stale");
	KUNIT_ASSERT_FALSE(test, IS_ERR(w));
	while (atomic_read(&api_stale_step) != 1)
		usleep_range(100, 200);
	WRITE_ONCE(api_stale_ring, NULL);
	frec_ring_destroy(old);
	for (i = 0; i < API_STALE_NEW_RINGS; i++) {
		snprintf(name, sizeof(name), "api_stale_new%d", i);
		rings[i] = frec_ring_create(name, FREC_RING_EVENTS, 4096, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(rings[i]));
		reused |= rings[i] == old;
	}
	atomic_set(&api_stale_step, 2);
	wait_for_completion(&api_stale_done);
	kthread_stop(w);
	kunit_info(test, "a new ring took the old one's memory: %s; the stale record returned %d\n",
		   reused ? "yes" : "no", api_stale_ret);
	/* Stored in the old ring before destroy freed it, or dropped. */
	KUNIT_EXPECT_TRUE(test, api_stale_ret == 0 || api_stale_ret == -ENOENT);
	for (i = 0; i < API_STALE_NEW_RINGS; i++) {
		KUNIT_EXPECT_EQ_MSG(test, api_written(rings[i]), 0ULL, "ring %d", i);
		frec_ring_destroy(rings[i]);
	}
}

/*
 * A tracepoint probe that records again into the ring it fires for
 * recurses through frec; frec bounds it as it bounds nesting.
 */
static struct frec_ring *api_recurse_ring;
static atomic_t api_recurse_calls;

static void api_recurse_probe(void *data, const char *ring, u64 seq, unsigned long caller,
			      const char *fmt, const unsigned long *args)
{
	/* The probe's own bound, far above frec's. */
	if (strcmp(ring, "api_recurse") || atomic_inc_return(&api_recurse_calls) > 50)
		return;
	frec_record(api_recurse_ring, "again %lu", args[0] + 1);
}

static void api_probe_recursion_is_bounded(struct kunit *test)
{
	struct frec_ring_store *store;
	struct frec_rb_cursor cur;
	struct frec_rb_entry e;
	struct frec_rb_cpu *rc;
	long stored = 0, nest = 0;
	int cpu;

	api_recurse_ring = frec_ring_create("api_recurse", FREC_RING_EVENTS, 65536, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(api_recurse_ring));
	atomic_set(&api_recurse_calls, 0);
	KUNIT_ASSERT_EQ(test, register_trace_frec_record(api_recurse_probe, NULL), 0);
	frec_record(api_recurse_ring, "first %d", 0);
	unregister_trace_frec_record(api_recurse_probe, NULL);
	tracepoint_synchronize_unregister();
	store = frec_test_store(api_recurse_ring);
	for_each_possible_cpu(cpu) {
		rc = per_cpu_ptr(store->cpus, cpu);
		frec_rb_cursor_init(&store->layout, rc, &cur);
		while (frec_rb_cursor_next(&store->layout, rc, &cur, &e, NULL, 0))
			stored++;
		nest += local_read(&rc->dropped[FREC_DROP_NEST]);
	}
	KUNIT_EXPECT_EQ(test, stored, FREC_RB_MAX_NEST);
	KUNIT_EXPECT_EQ(test, nest, 1);
	frec_ring_destroy(api_recurse_ring);
}

static struct kunit_case frec_api_cases[] = {
	KUNIT_CASE(api_bad_names_are_rejected),
	KUNIT_CASE(api_bad_sizes_are_rejected),
	KUNIT_CASE(api_names_are_unique),
	KUNIT_CASE(api_default_ring_exists),
	KUNIT_CASE(api_record_stores_format_args_and_caller),
	KUNIT_CASE(api_printk_stores_text),
	KUNIT_CASE(api_disabled_ring_drops_and_counts),
	KUNIT_CASE(api_levels_filter_call_sites),
	KUNIT_CASE(api_global_switch_filters_everything),
	KUNIT_CASE(api_create_destroy_while_recording),
	KUNIT_CASE(api_destroy_waits_for_writers_in_flight),
	KUNIT_CASE(api_stale_pointer_never_reaches_a_new_ring),
	KUNIT_CASE(api_probe_recursion_is_bounded),
	{}
};

static struct kunit_suite frec_api_suite = {
	.name = "frec_api",
	.test_cases = frec_api_cases,
};

kunit_test_suite(frec_api_suite);
