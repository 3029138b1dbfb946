#!/bin/sh
# description: a module that replaces an orphan ring of another shape while a write to that orphan's order file waits for the ring lock neither hangs nor loses the write (test_fault hold)
# kernels: 6.1 debug arm64-6.1 arm64-6.12
. /frec/guest/lib.sh
frec_reset
frec_load fault_inject=1
D=$FREC_DEBUGFS
R=$D/rings/crash_test
insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
rmmod frec_crash_test || fail "rmmod frec_crash_test"
[ -d $R ] || fail "no orphan ring crash_test"
dmesg -c > /dev/null
# 1. An order write holds the ring lock, in its store allocation: it makes
# the orphan global-order, of another shape than the module defines.
echo hold > $D/test_fault || fail "arm hold"
echo global > $R/order &
holder=$!
frec_wait_klog 'test_fault: holding a store allocation' || fail "the order write did not hold"
# 2. The module loads again and waits for the lock, to replace the orphan.
insmod "$FREC_MODULES/frec_crash_test.ko" &
loader=$!
frec_wait_blocked $loader || fail "insmod did not wait for the ring lock"
# 3. A second order write on the orphan's file waits for the lock too.
echo cpu > $R/order &
writer=$!
frec_wait_blocked $writer || fail "the second order write did not wait for the ring lock"
# 4. Let the first go: the module replaces the orphan, which removes its files.
echo release > $D/test_fault || fail "release"
frec_wait_gone $loader 300 || {
	echo "# insmod: $(cat /proc/$loader/wchan 2> /dev/null); writer: $(cat /proc/$writer/wchan 2> /dev/null)"
	fail "insmod hangs: the replacement waits for the order write, which waits for the ring lock"
}
wait $holder || fail "the first order write failed"
wait $loader || fail "insmod frec_crash_test.ko failed"
wait $writer || echo "# the second order write failed (its ring was being replaced)"
dmesg | grep -q 'ring crash_test: replacing' || fail "the orphan was not replaced"
[ "$(cat $R/order)" = cpu ] || fail "the new ring's order is $(cat $R/order)"
echo 'record 10' > $FREC_TRIGGER || fail "record"
[ "$(grep -c 'crash test .* of 10 ' $R/dump)" = 10 ] || fail "the new ring did not record"
frec_reset
