#!/bin/sh
# description: frec-decode --vmcore: bad vmcore_region= values refused and logged; frec with vmcore_region= (no region=, no ring persisted) records 500 records into crash_test, an oops that panics boots the kdump capture kernel (kexec -p, crash_kexec before the panic notifiers), where frec-decode --vmcore /proc/vmcore prints exactly the record lines the crashed boot's dump printed (every ring); so does frec-decode --vmcore of makedumpfile's dump of /proc/vmcore there, compressed (-c -d 31, as kdump-tools writes it before flattening it), written to the host through /export
# kernels: 6.1
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# expect: splat
# cmdline: crashkernel=256M
# timeout: 400
. /frec/guest/lib.sh
. /frec/run.conf

case $FREC_PHASE in
1)
	[ -e /proc/vmcore ] && fail "phase 1 in a capture kernel"
	# Bad values refused, each logged with the value.
	for bad in x 5000 0 64G; do
		insmod "$FREC_MODULES/frec.ko" vmcore_region=$bad 2> /dev/null &&
			fail "vmcore_region=$bad loaded"
		dmesg | grep -qF "vmcore_region=$bad: " || fail "vmcore_region=$bad refused without a log line"
	done
	insmod "$FREC_MODULES/frec.ko" vmcore_region=1M region=1M@0x20000000 2> /dev/null &&
		fail "vmcore_region= with region= loaded"
	dmesg | grep -qF "vmcore_region=1M: not with region=" || fail "vmcore_region= with region= not logged"
	frec_load vmcore_region=1M
	insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
	echo 'record 500' > /sys/module/frec_crash_test/parameters/trigger
	# The texts of the records, swept into the tables a kdump holds.
	frec_texts_swept
	frec_blackbox_keep crash_test --all
	frec_kdump_panic
	;;
2)
	[ -e /proc/vmcore ] || fail "phase 2 is not the capture kernel (no /proc/vmcore)"
	kept=$(frec_phase_get_hex)
	# check DECODED_TEXT WHAT: the lines match phase 1's dump
	check() {
		grep -v '^#' "$1" > /tmp/new
		echo "$2: $(grep -c . /tmp/new) records decoded, $(frec_ring_lines /tmp/new crash_test | grep -c .) of crash_test"
		[ "$(md5sum < /tmp/new | cut -c1-32)" = "$(echo "$kept" | cut -c1-32)" ] &&
			[ "$(grep -c . /tmp/new)" = $((0x$(echo "$kept" | cut -c33-40))) ] ||
			{ head -n 5 /tmp/new; fail "$2: decoded lines differ from the old dump's"; }
	}
	frec_decode --vmcore /proc/vmcore > /tmp/decoded 2> /tmp/decode.err ||
		{ cat /tmp/decode.err; fail "frec-decode --vmcore /proc/vmcore failed"; }
	cat /tmp/decode.err
	check /tmp/decoded /proc/vmcore
	# The capture kernel's memory (crashkernel=) cannot hold a -d 31 dump
	# of the guest's: the files go to the host through /export, which
	# check.sh shares with every stock guest (guest-run.sh -x).
	grep -q ' /export ' /proc/mounts ||
		fail "no /export for makedumpfile's files: run with guest-run.sh -x DIR"
	# The compressed format alone: /proc/vmcore is the ELF format, and
	# makedumpfile -E's ELF file (145 MB here, 18 s) decodes as it does
	# (check_vmcore.py builds both natively).
	for how in "-c -d 31"; do
		rm -f /export/vmcore
		start=$(date +%s)
		"$FREC_HOST_LIB/ld-linux-x86-64.so.2" --library-path "$FREC_HOST_LIB" \
			/host/usr/bin/makedumpfile $how /proc/vmcore /export/vmcore \
			> /tmp/mdf.log 2>&1 ||
			{ tail -n 20 /tmp/mdf.log; fail "makedumpfile $how /proc/vmcore"; }
		made=$(date +%s)
		echo "makedumpfile $how: $(wc -c < /export/vmcore) bytes in $((made - start)) s"
		frec_decode --vmcore /export/vmcore > /tmp/decoded 2> /tmp/decode.err ||
			{ cat /tmp/decode.err; fail "frec-decode --vmcore of makedumpfile $how's file failed"; }
		echo "frec-decode --vmcore: $(($(date +%s) - made)) s"
		cat /tmp/decode.err
		check /tmp/decoded "makedumpfile $how"
	done
	rm -f /export/vmcore
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
