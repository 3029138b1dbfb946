#!/bin/sh
# description: black box: a persisted ring of frec_printk() records, stored as arguments and formatted when read, shows after sysrq-b exactly the lines the old dump printed (previous/dump and frec-decode of previous/raw)
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000

case $FREC_PHASE in
1)
	frec_load region=$R persist_rings=crash_test_text
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	# Every 8th record is a frec_printk() "crash test text I of N".
	echo 'record 2000' > /sys/module/frec_crash_test/parameters/trigger
	frec_blackbox_keep crash_test_text
	frec_blackbox_sysrq_b
	;;
2)	frec_blackbox_previous $R crash_test_text "no end marked (a reset or a hang)" ;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
