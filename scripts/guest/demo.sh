#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What `make demo` shows in the guest (scripts/demo.sh boots it twice):
# boot 1 records, reads, filters, decodes and cross-checks, and, given a
# writable /export (guest-run.sh -x), records beside trace-cmd and leaves
# frec's raw dump and ftrace.dat there for the host; boot 2
# (frec_demo=oops on the kernel command line) records and oopses, and the
# host shows frec's block from that boot's serial console.
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
step() { echo; echo "== $*"; }

if grep -q 'frec_demo=oops' /proc/cmdline; then
	step "8. An oops with panic_on_oops: frec prints its newest records on the console"
	frec_crash_test_load
	echo 1 > /proc/sys/kernel/panic_on_oops
	echo 'record 20' > "$FREC_TRIGGER"
	echo "recorded; oopsing now (the console log follows on the host)"
	sleep 1
	echo oops > "$FREC_TRIGGER"
	sleep 30
	fail "the kernel did not panic"
fi

echo "guest kernel $(uname -r), $(nproc) CPUs"
step "1. Record: insmod frec.ko; insmod frec_hanoi.ko disks=4 calls=1 runs=5 (5 runs, each recorded; the fastest timed)"
# The console quiet, as in make bench: printk's cost is then its own, not
# the serial port's.
dmesg -n 1
frec_load
insmod "$FREC_MODULES/frec_hanoi.ko" disks=4 calls=1 runs=5 || fail "insmod frec_hanoi.ko"
dmesg | grep 'frec_hanoi:.*best of' | sed 's/^\[[ 0-9.]*\] //'
ls "$D/rings"

step "2. Read every ring merged in order: cat $D/dump | tail -n 8"
grep -c . "$D/dump" | sed 's/$/ lines/'
tail -n 8 "$D/dump"

step "3. Narrow it: echo 'ring=hanoi_moves text=disk 4' > $D/filter; cat $D/dump"
echo 'ring=hanoi_moves text=disk 4' > "$D/filter"
cat "$D/dump"
echo > "$D/filter"

step "4. What each ring stored and lost: cat $D/rings/hanoi_moves/stats"
cat "$D/rings/hanoi_moves/stats"

step "5. Offline: raw + sites + formats + kallsyms decoded by frec-decode (text, then JSON)"
dec=/host$FREC_HOST_TREE/build/tools/decode/frec-decode
ld=/host/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
[ -x "$dec" ] || fail "no $dec: make tools first"
cat "$D/raw" > /tmp/raw
cat "$D/formats" > /tmp/formats
cat "$D/sites" > /tmp/sites
cat /proc/kallsyms > /tmp/kallsyms
cat "$D/dump" > /tmp/dump
$ld --library-path /host/usr/lib/x86_64-linux-gnu "$dec" /tmp/raw \
	--sites /tmp/sites --formats /tmp/formats --kallsyms /tmp/kallsyms > /tmp/decoded || fail "frec-decode"
echo "$(wc -c < /tmp/raw) bytes of raw decode to $(grep -vc '^#' /tmp/decoded) lines;" \
	"diff against dump: $(diff /tmp/dump /tmp/decoded > /dev/null && echo identical || echo DIFFERENT)"
$ld --library-path /host/usr/lib/x86_64-linux-gnu "$dec" /tmp/raw \
	--sites /tmp/sites --formats /tmp/formats --kallsyms /tmp/kallsyms --format=json > /tmp/json || fail "frec-decode json"
echo "JSON for ui.perfetto.dev: $(wc -c < /tmp/json) bytes, beginning:"
head -c 240 /tmp/json; echo

step "6. ftrace and bpftrace see the same records: frec-crosscheck.sh -b bpftrace -- insmod frec_hanoi.ko disks=5"
rmmod frec_hanoi
frec_bpftrace_env
sh "/host$FREC_HOST_TREE/scripts/frec-crosscheck.sh" -b "$FREC_BPFTRACE" -o /tmp/cc -- \
	insmod "$FREC_MODULES/frec_hanoi.ko" disks=5 2>&1 | grep '^#' | head -n 12
rmmod frec_hanoi
frec_unload

if grep -q ' /export ' /proc/mounts; then
	step "7. One timeline with the scheduler: trace-cmd (ftrace's local clock) records sched_switch, irq_handler_entry and frec's tracepoints while frec records Hanoi and frec_stress's kthreads and timers; frec's raw dump and ftrace.dat go to the host"
	frec_load
	frec_tracecmd_record /export
	echo "$(grep -vc '^#' /export/dump) records in frec's dump; $(wc -c < /export/ftrace.dat) bytes of ftrace.dat"
	frec_unload
fi
echo
echo "== boot 1 done; boot 2 shows the oops"
