#!/bin/sh
# description: black box under kdump: kexec -p loads the guest's own kernel and initramfs as the capture kernel (crashkernel=), a persisted ring records, an oops that panics (sysrq-c, panic_on_oops) boots the capture kernel (/proc/vmcore), which reads the region from /dev/mem with dd: frec-decode of that image prints exactly the lines the old boot's dump printed for the ring, and the end "panic" (crash_kexec_post_notifiers)
# kernels: 6.12-rt
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# expect: splat
# cmdline: memmap=1M$0x6000000 crashkernel=256M crash_kexec_post_notifiers
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
# Low, below where crashkernel= lands (the highest free 256 MiB, 16 MiB
# aligned): /dev/mem's read() reaches no further than the end of the
# capture kernel's RAM (valid_phys_addr_range()), and at 0x20000000 the
# reservation fell below the region in one boot of three, as the kernel's
# place (KASLR) moved it, and dd failed.
R=1M@0x6000000
base=$((0x6000000))

case $FREC_PHASE in
1)
	[ -e /proc/vmcore ] && fail "phase 1 in a capture kernel"
	ck=$(sed -n 's/^ *\([0-9a-f]*\)-[0-9a-f]* : Crash kernel$/\1/p' /proc/iomem)
	[ -n "$ck" ] || fail "no crashkernel= reservation"
	[ $((0x$ck)) -ge $((base + 0x100000)) ] ||
		fail "crashkernel= reserved below the region: the capture kernel's /dev/mem cannot read it"
	frec_blackbox_fill $R
	frec_kdump_panic
	;;
2)
	[ -e /proc/vmcore ] || fail "phase 2 is not the capture kernel (no /proc/vmcore)"
	kept=$(frec_phase_get_hex)
	dd if=/dev/mem of=/tmp/region bs=4096 skip=$((base / 4096)) count=256 ||
		fail "dd of the region from /dev/mem"
	frec_decode /tmp/region > /tmp/decoded 2> /tmp/decode.err || { cat /tmp/decode.err; fail "frec-decode failed"; }
	cat /tmp/decode.err
	grep -q 'ended: panic;' /tmp/decode.err || fail "the image does not say the boot ended in a panic"
	frec_ring_lines /tmp/decoded crash_test > /tmp/new
	echo "$(grep -c . /tmp/new) crash_test records decoded"
	[ "$(md5sum < /tmp/new | cut -c1-32)" = "$(echo "$kept" | cut -c1-32)" ] ||
		{ head -n 5 /tmp/new; fail "decoded lines differ from the old dump's"; }
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
