#!/bin/sh
# description: the tie rule on arm64 with the architected counter at 1 MHz (QEMU's cntfrq, the lowest rate the kernel takes without a warning): the tick is 1000 ns in sched_clock, frec/order and the raw clock entry; records of two CPUs within a tick must tie and come by CPU, and one CPU never gives a timestamp twice (0120's checks; its raises are counted)
# kernels: arm64-6.12
# can-run: arm64-6.1 arm64-6.12
# boot: alone
# qemu: -global cortex-a57-arm-cpu.cntfrq=1000000
# timeout: 300
. /frec/guest/lib.sh
frec_reset
frec_load
[ "$(grep -c ^processor /proc/cpuinfo)" -ge 2 ] || skip "needs two CPUs"
frec_tie_rule_check
# On this counter the records of one round on two CPUs share ticks.  A
# CPU's records in a row rarely do: under TCG a record takes about a
# microsecond (one raise in 221,877 records on 2026-11-29; at 100 kHz,
# below which the kernel warns, half were raised).
[ "$(cat /tmp/tick)" = 1000 ] || fail "the tick is $(cat /tmp/tick) ns, not a 1 MHz counter's 1000 ns"
[ "$(cat /tmp/ties)" -gt 0 ] || fail "no tie across CPUs on a 1 us clock: the rule was not exercised"
frec_unload
