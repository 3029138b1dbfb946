#!/bin/sh
# description: black box: a ring persist_rings= names records into the memmap= region; after sysrq-b the next boot's frec/previous/info counts its records and frec-decode of previous/raw prints exactly the lines the old boot's dump printed for that ring, as does previous/dump; previous/sites, formats and stats agree with frec-decode
# kernels: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=1M$0x20000000
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000

case $FREC_PHASE in
1)
	frec_blackbox_fill $R
	frec_blackbox_sysrq_b
	;;
2)	frec_blackbox_previous $R crash_test "no end marked (a reset or a hang)" ;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
