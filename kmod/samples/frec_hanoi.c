// SPDX-License-Identifier: GPL-2.0
/*
 * frec_hanoi.c - a sample frec client: the Towers of Hanoi, recorded.
 *
 * Solving the puzzle records every move into one ring, every recursive
 * call (entered with '>', left with '<', which the decoder shows as
 * spans) into a second at FREC_LEVEL_DEBUG, and the timing of the run into
 * a third, a record ring written with frec_printk().  The same solution is
 * then timed with printk() at KERN_DEBUG (stored in the log buffer, below
 * the console level), and the two timings are compared.
 *
 *   insmod frec_hanoi.ko disks=6
 *   echo 5 > /sys/kernel/debug/frec/rings/hanoi_calls/level  # DEBUG: calls too
 *   cat /sys/kernel/debug/frec/dump
 *
 * Adding frec to a driver takes the three marked lines.
 */
#include <linux/module.h>
#include <linux/sched/clock.h>

#include <frec.h>				/* frec: 1 of 3 */

static unsigned int disks = 6;
module_param(disks, uint, 0444);
MODULE_PARM_DESC(disks, "disks to move (1 to 20)");

static unsigned int runs = 1;
module_param(runs, uint, 0644);
MODULE_PARM_DESC(runs, "times each solution runs; the fastest is reported (1 to 100)");

static bool calls;
module_param(calls, bool, 0444);
MODULE_PARM_DESC(calls, "store the recursive calls (set hanoi_calls to FREC_LEVEL_DEBUG)");

FREC_DEFINE_RING(hanoi_moves, FREC_RING_EVENTS, 64 * 1024, 0);	/* frec: 2 of 3 */
FREC_DEFINE_RING(hanoi_calls, FREC_RING_EVENTS, 64 * 1024, 0);
FREC_DEFINE_RING(hanoi_timing, FREC_RING_RECORDS, 16 * 1024, 200);

static const char * const hanoi_peg_names[] = { "A", "B", "C" };

/* Move @n disks from @from to @to; every move recorded with frec. */
static unsigned long hanoi_frec(unsigned int n, int from, int to, int via)
{
	unsigned long moves;

	if (!n)
		return 0;
	frec_record_level(FREC_RING(hanoi_calls), FREC_LEVEL_DEBUG,
			  "> hanoi n=%u %s->%s", n, hanoi_peg_names[from],
			  hanoi_peg_names[to]);
	moves = hanoi_frec(n - 1, from, via, to);
	frec_record(FREC_RING(hanoi_moves), "move disk %u from %s to %s",	/* frec: 3 of 3 */
		    n, hanoi_peg_names[from], hanoi_peg_names[to]);
	moves += 1 + hanoi_frec(n - 1, via, to, from);
	frec_record_level(FREC_RING(hanoi_calls), FREC_LEVEL_DEBUG,
			  "< hanoi n=%u moves=%lu", n, moves);
	return moves;
}

/* The same work, every move logged with printk() instead. */
static unsigned long hanoi_printk(unsigned int n, int from, int to, int via)
{
	unsigned long moves;

	if (!n)
		return 0;
	moves = hanoi_printk(n - 1, from, via, to);
	printk(KERN_DEBUG "frec_hanoi: move disk %u from %s to %s\n",
	       n, hanoi_peg_names[from], hanoi_peg_names[to]);
	moves += 1 + hanoi_printk(n - 1, via, to, from);
	return moves;
}

/*
 * The fastest of @runs runs, with frec (@use_frec) or with printk: the
 * first run also pays for cold caches (and, in an emulator, for
 * translating the code), which says nothing about what a record costs in
 * a running system.  Direct calls, so that the compiler keeps the
 * recursive functions whole and the callers print as hanoi_frec+0x...
 */
static u64 hanoi_best_ns(bool use_frec, unsigned long *moves)
{
	u64 start, ns, best = U64_MAX;
	unsigned int i;

	for (i = 0; i < runs; i++) {
		start = local_clock();
		if (use_frec)
			*moves = hanoi_frec(disks, 0, 2, 1);
		else
			*moves = hanoi_printk(disks, 0, 2, 1);
		ns = local_clock() - start;
		best = min(best, ns);
	}
	return best;
}

static int __init frec_hanoi_init(void)
{
	u64 frec_ns, printk_ns;
	unsigned long moves = 0;

	if (!disks || disks > 20) {
		pr_err("frec_hanoi: disks=%u: use 1 to 20\n", disks);
		return -EINVAL;
	}
	if (!runs || runs > 100) {
		pr_err("frec_hanoi: runs=%u: use 1 to 100\n", runs);
		return -EINVAL;
	}
	if (calls)
		frec_ring_set_level(FREC_RING(hanoi_calls), FREC_LEVEL_DEBUG);

	frec_printk(FREC_RING(hanoi_timing), "Start recording Hanoi with %u disks", disks);
	frec_ns = hanoi_best_ns(true, &moves);
	frec_printk(FREC_RING(hanoi_timing), "End recording Hanoi with %u disks: %lu moves",
		    disks, moves);
	printk_ns = hanoi_best_ns(false, &moves);
	frec_printk(FREC_RING(hanoi_timing),
		    "Timing: %lu moves, best of %u runs: frec %llu ns (%llu ns/move), printk %llu ns (%llu ns/move)",
		    moves, runs, frec_ns, div64_u64(frec_ns, moves),
		    printk_ns, div64_u64(printk_ns, moves));
	pr_info("frec_hanoi: %lu moves, best of %u runs: frec %llu ns/move, printk %llu ns/move\n",
		moves, runs, div64_u64(frec_ns, moves), div64_u64(printk_ns, moves));
	return 0;
}

static void __exit frec_hanoi_exit(void)
{
}

module_init(frec_hanoi_init);
module_exit(frec_hanoi_exit);

MODULE_DESCRIPTION("frec sample: the Towers of Hanoi, recorded into three rings");
MODULE_LICENSE("GPL");
