#!/bin/sh
# description: the tie rule (kmod/lib/frec_rb.c, "Order") on the stock clock: frec/order and the raw clock entry give the tick (arm64: sched_clock's resolution, 16 ns in QEMU's virt); with kthreads recording in rounds on every CPU and hard-IRQ writers into two rings, the merged dump never gives one CPU's timestamp or a seq twice, breaks a tie across CPUs by CPU and keeps a CPU's event before the text it stored next
# kernels: arm64-6.1
# timeout: 300
. /frec/guest/lib.sh
frec_reset
frec_load
[ "$(grep -c ^processor /proc/cpuinfo)" -ge 2 ] || skip "needs two CPUs"
frec_tie_rule_check
# Under TCG a record takes a microsecond or more and two CPUs' records of
# a round are rarely within 16 ns: ties are counted, not required (0121
# makes them on a 1 us counter).
frec_unload
