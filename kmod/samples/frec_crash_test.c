// SPDX-License-Identifier: GPL-2.0
/*
 * frec_crash_test.c - test-only client for frec's console dump on oops and
 * panic.  It records known records and then crashes on request, in the
 * ways the guest tests need.  Never load it on a machine you care about.
 *
 *   echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
 *
 * record N   N events into ring crash_test ("crash test I of N cpu C"),
 *            and every 8th also a frec_printk() into crash_test_text
 * strings N  N events into ring crash_test that point to text: a %s of
 *            three literals, a %ps of two of this module's functions (the
 *            black box's texts)
 * buffer WORD N
 *            WORD (at most 15 bytes) copied into one buffer of this
 *            module, then N events into ring crash_test with a %s of it:
 *            the records of two calls point to one address that held two
 *            texts (the black box's texts of a rewritten buffer)
 * spans N    N spans begun on this CPU in ring crash_test ("crash test
 *            span I cpu C", I = 1, 2, ... over all calls, at most
 *            FREC_CRASH_TEST_SPANS), left open
 * span-end I ends span I on this CPU, which may be another than its
 *            begin's ("crash test span I"); -EINVAL for a span not begun,
 *            or ended already
 * oops       a work item on this CPU writes through a NULL pointer
 * write      a kthread on this CPU records one event (with frec's
 *            test_fault armed, the write itself faults between reserve and
 *            commit); a kthread, as an oopsed work item leaves its CPU's
 *            worker pool counting a running worker, and later work items
 *            there never run
 * panic      a work item calls panic()
 * nmi        records an event from an NMI and calls frec_console_dump()
 *            there; returns once the NMI has run
 * nmi-panic  calls panic() from an NMI: printk defers its lines there, so
 *            only panic()'s console flush prints them (the guest bench's
 *            check that nothing ends the VM before that flush)
 * console    frec_console_dump() from here
 * tsc-unstable
 *            marks the TSC unstable (mark_tsc_unstable()), as the
 *            clocksource watchdog does when the TSC drifts from another
 *            clock: local_clock() stops being sched_clock() plus a
 *            constant, so the records' offset from ftrace's clock drifts
 * triple-fault
 *            loads an empty IDT on this CPU, interrupts off, and raises an
 *            exception: the CPU cannot deliver it, nor the double fault
 *            that follows, and resets (a triple fault); records nothing
 * hang PHYS  every CPU, interrupts off, records "hang I cpu C" (I = 1, 2,
 *            ...) into crash_test for ever; after each record returns,
 *            CPU C stores I in the u32 at physical address PHYS + 4 * C
 *            (a page memmap= keeps out of RAM), so that the next boot
 *            knows the last record each CPU stored.  Only a watchdog
 *            (or a reset from outside) ends it.  Returns -EINVAL if
 *            PHYS cannot be mapped.
 *
 * The last two exist for the black box tests (a reset by triple fault, a
 * hard hang ended by a watchdog); nothing but a test needs either.
 *
 * A second parameter writes into physical memory, for the black box
 * tests of damaged regions on kernels without /dev/mem (the debug one).
 * Test-only: it memremap()s whatever range it is given, RAM included,
 * and writes it; frec must not hold the range meanwhile.
 *
 *   echo 'random ADDR LEN' > /sys/module/frec_crash_test/parameters/phys
 *
 * random ADDR LEN     LEN random bytes at physical address ADDR
 * word ADDR VALUE     the 32-bit little-endian VALUE at ADDR
 * copy FROM TO LEN    LEN bytes from FROM to TO (ranges apart)
 *
 * Numbers as memparse() reads them (0x..., K, M); LEN at most 16 MiB.
 */
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/panic.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/sizes.h>
#include <linux/workqueue.h>
#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/desc_defs.h>
#include <asm/nmi.h>
#include <asm/tsc.h>
#endif

#include <frec.h>

FREC_DEFINE_RING(crash_test, FREC_RING_EVENTS, 16 * 1024, 0);
FREC_DEFINE_RING(crash_test_text, FREC_RING_RECORDS, 16 * 1024, 128);

/* NULL; read with READ_ONCE() so the compiler cannot see the fault coming. */
static unsigned long *frec_crash_test_null;

/* Spans begun by "spans N", for "span-end I"; under the lock. */
#define FREC_CRASH_TEST_SPANS	64
static struct frec_span frec_crash_test_span[FREC_CRASH_TEST_SPANS + 1];
static bool frec_crash_test_span_open[FREC_CRASH_TEST_SPANS + 1];
static unsigned int frec_crash_test_spans;
static DEFINE_MUTEX(frec_crash_test_span_lock);

/* @n spans begun on this CPU, left open: the black box's in-flight list. */
static int frec_crash_test_spans_begin(unsigned int n)
{
	unsigned int i;
	int cpu;

	mutex_lock(&frec_crash_test_span_lock);
	if (n > FREC_CRASH_TEST_SPANS - frec_crash_test_spans) {
		mutex_unlock(&frec_crash_test_span_lock);
		pr_err("frec_crash_test: spans %u: more than %u in all\n", n,
		       FREC_CRASH_TEST_SPANS);
		return -EINVAL;
	}
	/* One CPU for all of them: the test pins the writer with taskset. */
	cpu = get_cpu();
	for (i = 0; i < n; i++) {
		unsigned int k = ++frec_crash_test_spans;

		frec_crash_test_span[k] = frec_span_begin(FREC_RING(crash_test),
							  "crash test span %u cpu %d", k, cpu);
		frec_crash_test_span_open[k] = true;
	}
	put_cpu();
	mutex_unlock(&frec_crash_test_span_lock);
	return 0;
}

/* Span @k ended on this CPU. */
static int frec_crash_test_span_end(unsigned int k)
{
	int ret;

	mutex_lock(&frec_crash_test_span_lock);
	if (!k || k > frec_crash_test_spans || !frec_crash_test_span_open[k]) {
		mutex_unlock(&frec_crash_test_span_lock);
		pr_err("frec_crash_test: span-end %u: no such span open\n", k);
		return -EINVAL;
	}
	ret = frec_span_end(FREC_RING(crash_test), &frec_crash_test_span[k],
			    "crash test span %u", k);
	frec_crash_test_span_open[k] = false;
	mutex_unlock(&frec_crash_test_span_lock);
	return ret;
}

static void frec_crash_test_record(unsigned int n)
{
	unsigned int i;

	for (i = 1; i <= n; i++) {
		frec_record(FREC_RING(crash_test), "crash test %u of %u cpu %d", i, n,
			    raw_smp_processor_id());
		if (!(i % 8))
			frec_printk(FREC_RING(crash_test_text), "crash test text %u of %u", i, n);
	}
}

static void frec_crash_test_strings(unsigned int n)
{
	static const char *const colours[] = { "red", "green", "blue" };
	static const void *const fns[] = { frec_crash_test_record,
					   frec_crash_test_strings };
	unsigned int i;

	for (i = 1; i <= n; i++)
		frec_record(FREC_RING(crash_test), "crash test %s %u of %u from %ps",
			    colours[i % 3], i, n, fns[i % 2]);
}

/* Rewritten by each "buffer" command: records of each hold its address. */
static char frec_crash_test_buf[16];

static void frec_crash_test_buffer(const char *word, unsigned int n)
{
	unsigned int i;

	strscpy(frec_crash_test_buf, word, sizeof(frec_crash_test_buf));
	for (i = 1; i <= n; i++)
		frec_record(FREC_RING(crash_test), "crash test buffer %s %u of %u",
			    frec_crash_test_buf, i, n);
}

static void frec_crash_test_oops(void)
{
	frec_record(FREC_RING(crash_test), "about to oops");
	WRITE_ONCE(*READ_ONCE(frec_crash_test_null), 1);
}

static void frec_crash_test_write(void)
{
	frec_record(FREC_RING(crash_test), "this write faults");
}

static void frec_crash_test_panic(void)
{
	frec_record(FREC_RING(crash_test), "about to panic");
	panic("frec_crash_test: panic on purpose");
}

/*
 * A work item per crash: the workqueue would queue a work item again behind
 * the dead worker still "running" it, and it would never run.
 */
struct frec_crash_test_work {
	struct work_struct work;
	void (*action)(void);
};

static void frec_crash_test_work_fn(struct work_struct *work)
{
	struct frec_crash_test_work *w = container_of(work, struct frec_crash_test_work, work);
	void (*action)(void) = w->action;

	kfree(w);
	action();
}

static int frec_crash_test_thread(void *unused)
{
	frec_crash_test_write();
	return 0;
}

#ifdef CONFIG_X86
static atomic_t frec_crash_test_nmi_state = ATOMIC_INIT(0);

static int frec_crash_test_nmi(unsigned int type, struct pt_regs *regs)
{
	if (atomic_read(&frec_crash_test_nmi_state) == 4)
		panic("frec_crash_test: panic in NMI");
	if (atomic_cmpxchg(&frec_crash_test_nmi_state, 1, 2) != 1)
		return NMI_DONE;
	frec_record(FREC_RING(crash_test), "in NMI on cpu %d", smp_processor_id());
	frec_console_dump("frec_crash_test from NMI");
	atomic_set(&frec_crash_test_nmi_state, 3);
	return NMI_HANDLED;
}

/* @state: 1 to record and dump from the NMI, 4 to panic there. */
static int frec_crash_test_from_nmi(int state)
{
	int i, err;

	err = register_nmi_handler(NMI_LOCAL, frec_crash_test_nmi, 0, "frec_crash_test");
	if (err)
		return err;
	atomic_set(&frec_crash_test_nmi_state, state);
	apic->send_IPI_self(NMI_VECTOR);
	for (i = 0; i < 1000 && atomic_read(&frec_crash_test_nmi_state) != 3; i++)
		usleep_range(1000, 2000);
	unregister_nmi_handler(NMI_LOCAL, "frec_crash_test");
	return atomic_read(&frec_crash_test_nmi_state) == 3 ? 0 : -ETIMEDOUT;
}

/*
 * An IDT of limit 0: every vector is beyond it, so the exception raised
 * next cannot be delivered (#GP), nor can that (#DF), and the CPU resets.
 */
static void frec_crash_test_triple_fault(void)
{
	struct desc_ptr none = { .size = 0, .address = 0 };

	local_irq_disable();
	asm volatile("lidt %0" : : "m" (none));
	asm volatile("int3");
	for (;;)
		cpu_relax();
}

/*
 * The x86-only commands: an NMI (the local APIC's self-IPI), a triple
 * fault, an unstable TSC.  Return: 1 if @cmd is none of them, else the
 * command's result.
 */
static int frec_crash_test_arch(const char *cmd)
{
	if (!strcmp(cmd, "triple-fault")) {
		frec_crash_test_triple_fault();
		return 0;
	}
	if (!strcmp(cmd, "nmi"))
		return frec_crash_test_from_nmi(1);
	if (!strcmp(cmd, "nmi-panic"))
		return frec_crash_test_from_nmi(4);
	if (!strcmp(cmd, "tsc-unstable")) {
		/* Printed, not kept; the kernel's parameter is not const. */
		char why[] = "frec_crash_test";

		mark_tsc_unstable(why);
		return 0;
	}
	return 1;
}
#else
/* Other architectures have none of them (x86's NMI, triple fault, TSC). */
static int frec_crash_test_arch(const char *cmd)
{
	if (strcmp(cmd, "triple-fault") && strcmp(cmd, "nmi") &&
	    strcmp(cmd, "nmi-panic") && strcmp(cmd, "tsc-unstable"))
		return 1;
	pr_err("frec_crash_test: trigger '%s' is x86 only\n", cmd);
	return -EINVAL;
}
#endif

/* Where each CPU stores the number of its last hang record (hang PHYS). */
static u32 *frec_crash_test_hang_count;

/* Records for ever, interrupts off (the caller's, or an IPI's). */
static void frec_crash_test_hang_cpu(void *unused)
{
	unsigned int cpu = smp_processor_id();
	u32 i;

	for (i = 1;; i++) {
		frec_record(FREC_RING(crash_test), "hang %u cpu %u", i, cpu);
		WRITE_ONCE(frec_crash_test_hang_count[cpu], i);
	}
}

static int frec_crash_test_hang(phys_addr_t phys)
{
	frec_crash_test_hang_count = memremap(phys, nr_cpu_ids * sizeof(u32), MEMREMAP_WB);
	if (!frec_crash_test_hang_count) {
		pr_err("frec_crash_test: hang: cannot map %pa\n", &phys);
		return -EINVAL;
	}
	memset(frec_crash_test_hang_count, 0, nr_cpu_ids * sizeof(u32));
	/* The other CPUs spin in the IPI, which runs with interrupts off. */
	smp_call_function(frec_crash_test_hang_cpu, NULL, 0);
	local_irq_disable();
	frec_crash_test_hang_cpu(NULL);
	return 0;
}

static int frec_crash_test_trigger(const char *val, const struct kernel_param *kp)
{
	unsigned long long phys;
	struct frec_crash_test_work *w;
	void (*action)(void);
	unsigned int n;
	char cmd[16];
	int err;

	if (sscanf(val, "record %u", &n) == 1) {
		frec_crash_test_record(n);
		return 0;
	}
	if (sscanf(val, "spans %u", &n) == 1)
		return frec_crash_test_spans_begin(n);
	if (sscanf(val, "span-end %u", &n) == 1)
		return frec_crash_test_span_end(n);
	if (sscanf(val, "strings %u", &n) == 1) {
		frec_crash_test_strings(n);
		return 0;
	}
	if (sscanf(val, "buffer %15s %u", cmd, &n) == 2) {
		frec_crash_test_buffer(cmd, n);
		return 0;
	}
	if (sscanf(val, "hang %llx", &phys) == 1)
		return frec_crash_test_hang(phys);
	if (sscanf(val, "%15s", cmd) != 1)
		return -EINVAL;
	err = frec_crash_test_arch(cmd);
	if (err <= 0)
		return err;
	if (!strcmp(cmd, "console"))
		return frec_console_dump("frec_crash_test");
	if (!strcmp(cmd, "lockup")) {
		/*
		 * For the bench's check of a soft lockup (run-tests.sh,
		 * frec_test_int3_spin): hold this CPU, interrupts on, until
		 * the watchdog calls it a soft lockup (2 * watchdog_thresh s)
		 * and, with softlockup_panic=1, panics.
		 */
		unsigned long end = jiffies + 60 * HZ;

		preempt_disable();
		while (time_before(jiffies, end))
			cpu_relax();
		preempt_enable();
		return 0;
	}
	if (!strcmp(cmd, "write")) {
		struct task_struct *t;

		t = kthread_create_on_cpu(frec_crash_test_thread, NULL, raw_smp_processor_id(),
					  "frec_crash_test/%u");
		if (IS_ERR(t))
			return PTR_ERR(t);
		wake_up_process(t);
		return 0;
	}
	if (!strcmp(cmd, "oops"))
		action = frec_crash_test_oops;
	else if (!strcmp(cmd, "panic"))
		action = frec_crash_test_panic;
	else
		return -EINVAL;
	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	INIT_WORK(&w->work, frec_crash_test_work_fn);
	w->action = action;
	/* On this CPU, so that a test pinned with taskset knows where. */
	schedule_work_on(raw_smp_processor_id(), &w->work);
	return 0;
}

static const struct kernel_param_ops frec_crash_test_trigger_ops = {
	.set = frec_crash_test_trigger,
};
module_param_cb(trigger, &frec_crash_test_trigger_ops, NULL, 0200);
MODULE_PARM_DESC(trigger,
		 "record N | spans N | span-end I | strings N | buffer WORD N | oops | write | panic | nmi | nmi-panic | console | tsc-unstable | lockup | triple-fault | hang PHYS");

#define FREC_CRASH_TEST_PHYS_MAX	SZ_16M

/* The numbers of the phys parameter's @val, after its word; how many read. */
static int frec_crash_test_phys_nums(const char *val, u64 *num, int max)
{
	char *end;
	int n;

	val = skip_spaces(val);
	val += strcspn(val, " \t\n");
	for (n = 0; n < max; n++) {
		val = skip_spaces(val);
		if (!*val)
			break;
		num[n] = memparse(val, &end);
		if (end == val || (*end && !isspace(*end)))
			return -1;
		val = end;
	}
	return *skip_spaces(val) ? -1 : n;
}

/* Map @len bytes at @addr, or NULL (logged with the value). */
static void *frec_crash_test_phys_map(const char *val, u64 addr, u64 len)
{
	void *p;

	if (!len || len > FREC_CRASH_TEST_PHYS_MAX || addr + len < addr) {
		pr_err("frec_crash_test: phys=%.64s: length 1 to %u, no wrap\n", val,
		       FREC_CRASH_TEST_PHYS_MAX);
		return NULL;
	}
	p = memremap(addr, len, MEMREMAP_WB);
	if (!p)
		pr_err("frec_crash_test: phys=%.64s: cannot map it\n", val);
	return p;
}

static int frec_crash_test_phys_random(const char *val, u64 addr, u64 len)
{
	void *p = frec_crash_test_phys_map(val, addr, len);

	if (!p)
		return -EINVAL;
	get_random_bytes(p, len);
	memunmap(p);
	return 0;
}

static int frec_crash_test_phys_word(const char *val, u64 addr, u64 value)
{
	__le32 w = cpu_to_le32(value);
	void *p;

	if (value > U32_MAX) {
		pr_err("frec_crash_test: phys=%.64s: the value is not 32 bits\n", val);
		return -EINVAL;
	}
	p = frec_crash_test_phys_map(val, addr, sizeof(w));
	if (!p)
		return -EINVAL;
	memcpy(p, &w, sizeof(w));
	memunmap(p);
	return 0;
}

static int frec_crash_test_phys_copy(const char *val, u64 from, u64 to, u64 len)
{
	void *src, *dst;

	if (from < to + len && to < from + len) {
		pr_err("frec_crash_test: phys=%.64s: the ranges overlap\n", val);
		return -EINVAL;
	}
	src = frec_crash_test_phys_map(val, from, len);
	if (!src)
		return -EINVAL;
	dst = frec_crash_test_phys_map(val, to, len);
	if (dst) {
		memcpy(dst, src, len);
		memunmap(dst);
	}
	memunmap(src);
	return dst ? 0 : -EINVAL;
}

static int frec_crash_test_phys(const char *val, const struct kernel_param *kp)
{
	u64 num[3];
	int n;

	n = frec_crash_test_phys_nums(val, num, ARRAY_SIZE(num));
	if (n == 2 && str_has_prefix(val, "random "))
		return frec_crash_test_phys_random(val, num[0], num[1]);
	if (n == 2 && str_has_prefix(val, "word "))
		return frec_crash_test_phys_word(val, num[0], num[1]);
	if (n == 3 && str_has_prefix(val, "copy "))
		return frec_crash_test_phys_copy(val, num[0], num[1], num[2]);
	pr_err("frec_crash_test: phys=%.64s: want random ADDR LEN, word ADDR VALUE or copy FROM TO LEN\n",
	       val);
	return -EINVAL;
}

static const struct kernel_param_ops frec_crash_test_phys_ops = {
	.set = frec_crash_test_phys,
};
module_param_cb(phys, &frec_crash_test_phys_ops, NULL, 0200);
MODULE_PARM_DESC(phys, "random ADDR LEN | word ADDR VALUE | copy FROM TO LEN (test-only writes to physical memory)");

static int __init frec_crash_test_init(void)
{
	return 0;
}

/* A work item that oopsed never finishes: do not wait for it. */
static void __exit frec_crash_test_exit(void)
{
}

module_init(frec_crash_test_init);
module_exit(frec_crash_test_exit);

MODULE_DESCRIPTION("frec test client: records, then oopses or panics on request");
MODULE_LICENSE("GPL");
