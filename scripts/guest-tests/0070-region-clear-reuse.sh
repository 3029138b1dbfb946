#!/bin/sh
# description: black box: a persisted static ring whose module is reloaded 40 times (each load adopts the orphan and gives its own store back), then cleared 25 times, resized twice and its order changed twice, in README's 1 MiB region, keeps recording into the region (no "no room" in the log); after sysrq-b the next boot lists the ring once and recovers exactly the records it held at the reset, none of the cleared ones
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000
D=$FREC_DEBUGFS/rings/crash_test

# Record $1 records into crash_test.
record() {
	echo "record $1" > /sys/module/frec_crash_test/parameters/trigger || fail "record $1"
}

case $FREC_PHASE in
1)
	frec_load region="$R" persist_rings=crash_test
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	# Reloads of the ring's module: each load allocates a persisted store
	# for its static ring, then adopts the orphan the last unload left
	# and gives that store's entry and parts back.
	i=0
	while [ $i -lt 40 ]; do
		rmmod frec_crash_test || fail "rmmod frec_crash_test, reload $i"
		insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko, reload $i"
		i=$((i + 1))
	done
	frec_klog | grep 'not persisted' && fail "a reload of frec_crash_test left the region without room"
	i=0
	while [ $i -lt 25 ]; do
		record 50
		echo 1 > $D/clear || fail "clear $i"
		i=$((i + 1))
	done
	record 50
	echo 8192 > $D/size || fail "resize to 8192"
	record 50
	echo 16384 > $D/size || fail "resize to 16384"
	record 50
	echo global > $D/order || fail "order global"
	record 50
	echo cpu > $D/order || fail "order cpu"
	# One per load (41), clear (25), resize (2) and order change (2).
	frec_blackbox_taken 70
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test
	frec_blackbox_sysrq_b
	;;
2)
	frec_blackbox_check_once "$R"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
