#!/bin/sh
# description: with 4 rings of 64 KiB per CPU full of records, the console dump prints exactly oops_records (64) records per ring and says how many bytes; all of them (over 700 KB) reach the console itself (judge.sh), not just the kernel log; from an atomic context (NMI) it prints at most oops_bytes, the newest records, and says how many it left out; the figures and the time they take at 115200 baud are printed
# kernels: 6.1 6.12-rt
. /frec/guest/lib.sh
frec_crash_test_load
insmod "$FREC_MODULES/frec_stress.ko" period_us=200 || fail "insmod frec_stress.ko"
D=$FREC_DEBUGFS
RINGS="crash_test crash_test_text stress stress_text"
for r in $RINGS; do
	echo 65536 > $D/rings/$r/size || fail "resize $r"
done
for cpu in 0 1; do
	taskset -c $cpu sh -c "echo 'record 4000' > $FREC_TRIGGER" ||
		fail "record"
done
sleep 2
rmmod frec_stress
echo crash_test,crash_test_text,stress,stress_text > $D/oops_rings
# bound_run N: dump with oops_records=N; prints "lines bytes seconds" (the
# write's time: it returns once the console has printed the dump) and what
# judge.sh checks on the console itself
bound_run() {
	echo "$1" > $D/oops_records
	dmesg -c > /dev/null
	t0=$(awk '{ print $1 }' /proc/uptime)
	echo 1 > $D/dump_to_console || fail "dump_to_console"
	t1=$(awk '{ print $1 }' /proc/uptime)
	frec_klog > /tmp/klog
	frec_console_block < /tmp/klog > /tmp/block || fail "no block"
	# The whole dump outgrows the kernel log (128 KiB): its begin is gone.
	if grep -q '^---\[ frec dump begin' /tmp/klog; then
		frec_console_expect_last /tmp/klog
	else
		frec_console_expect_dump crash_test,crash_test_text,stress,stress_text /tmp/klog
	fi
	echo "$(sed -n 's/^---\[ frec dump end: \([0-9]*\) records, 4 rings, \([0-9]*\) bytes ]---$/\1 \2/p' /tmp/klog)" \
		"$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.2f", b - a }')"
}
(bound_run 64) > /tmp/run || { cat /tmp/run; exit 1; }
grep '^frec-console-block: ' /tmp/run
set -- $(grep -v '^frec-console-block: ' /tmp/run)
[ "$1" = 256 ] || fail "oops_records=64 over 4 full rings printed $1 records, not 256"
[ "$(tail -n +3 /tmp/block | wc -l)" = 256 ] || fail "the block has $(tail -n +3 /tmp/block | wc -l) lines"
[ "$(tail -n +3 /tmp/block | wc -c)" = "$2" ] || fail "the end marker says $2 bytes, the block has $(tail -n +3 /tmp/block | wc -c)"
for r in $RINGS; do
	[ "$(grep -c " $r: " /tmp/block)" = 64 ] || fail "$r: $(grep -c " $r: " /tmp/block) records, not 64"
done
bytes=$(($2 + 300))	# the markers and header
awk -v n=$1 -v b=$bytes 'BEGIN { printf "# default (64 per ring): %d records, %d bytes with markers, %.1f s at 115200 baud\n", n, b, b * 10 / 115200 }'
(bound_run 1048576) > /tmp/run || { cat /tmp/run; exit 1; }
grep '^frec-console-block: ' /tmp/run
set -- $(grep -v '^frec-console-block: ' /tmp/run)
bytes=$(($2 + 300))
awk -v n=$1 -v b=$bytes -v t=$3 'BEGIN { printf "# everything (4 rings x 64 KiB x 2 CPUs): %d records, %d bytes, %.1f s at 115200 baud; the dump took %.2f s here\n", n, b, b * 10 / 115200, t }'
[ "$1" -gt 256 ] || fail "the whole rings hold only $1 records"

# From an atomic context (NMI): at most oops_bytes of records, the newest.
echo 8192 > $D/oops_bytes || fail "oops_bytes"
dmesg -c > /dev/null
echo nmi > $FREC_TRIGGER || fail "nmi trigger"
frec_wait_klog 'frec dump end' || fail "no dump from NMI"
frec_klog > /tmp/klog
frec_console_block < /tmp/klog > /tmp/block || fail "no NMI block"
end=$(grep '^---\[ frec dump end' /tmp/klog)
echo "# $end"
n=$(echo "$end" | sed -n 's/^---\[ frec dump end: \([0-9]*\) records, 4 rings, \([0-9]*\) bytes; \([0-9]*\) older records left out (oops_bytes 8192) ]---$/\1 \2 \3/p')
[ -n "$n" ] || fail "the end marker does not say what was left out: $end"
set -- $n
[ "$2" -le 8192 ] || fail "$2 bytes printed, more than oops_bytes 8192"
[ "$(tail -n +3 /tmp/block | wc -c)" = "$2" ] || fail "the block has $(tail -n +3 /tmp/block | wc -c) bytes, the marker says $2"
[ "$2" -gt 6000 ] || fail "only $2 bytes of 8192 used"
tail -n 1 /tmp/block | grep -q ' in NMI on cpu' || fail "the newest record is not last: $(tail -n 1 /tmp/block)"
frec_console_expect_last /tmp/klog
echo 65536 > $D/oops_bytes
echo > $D/oops_rings
echo 64 > $D/oops_records
frec_reset
