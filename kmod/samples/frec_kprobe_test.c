// SPDX-License-Identifier: GPL-2.0
/*
 * frec_kprobe_test.c - test only: a kprobe on __frec_record() whose
 * pre-handler records into another frec ring, as a driver author (or
 * scripts/frec-crosscheck.sh -k, with bpftrace) may probe frec.
 *
 *   insmod frec_kprobe_test.ko [fail_first=1]
 *
 * fail_first=1 first tries to register a kprobe on a symbol that does not
 * exist, and then the one on __frec_record(), with a kprobe struct of its
 * own each.  Unloading unregisters it.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include <frec.h>

#include "frec_sample.h"

FREC_DEFINE_RING(kprobe_probe, FREC_RING_EVENTS, 16 * 1024, 0);

FREC_SAMPLE_PARAM(fail_first, bool, false, "first fail to register a kprobe on an unknown symbol");

static char *symbol = "__frec_record";
module_param(symbol, charp, 0444);
MODULE_PARM_DESC(symbol, "the function to probe (default __frec_record)");

FREC_SAMPLE_PARAM(record, bool, true, "the pre-handler records into frec (else it only counts)");

FREC_SAMPLE_PARAM(hits, ulong, 0, "times the pre-handler ran (not counted exactly across CPUs)");

static int frec_kprobe_test_pre(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(hits, READ_ONCE(hits) + 1);
	if (record)
		frec_record(FREC_RING(kprobe_probe), "probe hit on cpu %d", raw_smp_processor_id());
	return 0;
}

static struct kprobe frec_kprobe_test_unknown = {
	.symbol_name = "frec_kprobe_test_no_such_symbol",
	.pre_handler = frec_kprobe_test_pre,
};

static struct kprobe frec_kprobe_test_probe = {
	.symbol_name = "__frec_record",
	.pre_handler = frec_kprobe_test_pre,
};

static int __init frec_kprobe_test_init(void)
{
	int err;

	if (fail_first) {
		err = register_kprobe(&frec_kprobe_test_unknown);
		pr_info("frec_kprobe_test: kprobe on an unknown symbol: %d\n", err);
		if (!err)
			unregister_kprobe(&frec_kprobe_test_unknown);
	}
	frec_kprobe_test_probe.symbol_name = symbol;
	err = register_kprobe(&frec_kprobe_test_probe);
	pr_info("frec_kprobe_test: kprobe on %s: %d\n", symbol, err);
	return err;
}

static void __exit frec_kprobe_test_exit(void)
{
	unregister_kprobe(&frec_kprobe_test_probe);
}

module_init(frec_kprobe_test_init);
module_exit(frec_kprobe_test_exit);

MODULE_DESCRIPTION("frec test: a recording kprobe on __frec_record");
MODULE_LICENSE("GPL");
