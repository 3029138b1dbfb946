#!/bin/sh
# description: black box: an oops that panics (panic_on_oops, sysrq-c) with panic=1 reboots; the next boot's frec/previous/info says the boot ended in a panic and frec-decode of previous/raw prints exactly the lines the old boot's dump printed for the persisted ring, as does previous/dump; previous/sites, formats and stats agree with frec-decode
# kernels: 6.12-rt
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# expect: splat
# cmdline: memmap=1M$0x20000000 panic=1
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
R=1M@0x20000000

case $FREC_PHASE in
1)
	frec_blackbox_fill $R
	frec_blackbox_sysrq_c
	;;
2)	frec_blackbox_previous $R crash_test panic ;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
