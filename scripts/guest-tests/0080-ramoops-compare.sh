#!/bin/sh
# description: pstore/ramoops in the guests the black box is tested in, for doc/blackbox.md's comparison: ramoops (a module of Debian's kernels) over a memmap= range with console_size, ftrace_size, pmsg_size and ECC asked for keeps nothing of a sysrq-b reset, and of an oops that panics only dmesg-ramoops-0, the log up to the panic; no console-ramoops (Debian builds no PSTORE_CONSOLE), no ftrace-ramoops, no /dev/pmsg0
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# phases: 3
# expect: splat
# cmdline: memmap=1M$0x20000000 panic=1
# timeout: 300
. /frec/guest/lib.sh
. /frec/run.conf
P=/sys/fs/pstore

# ramoops over the range memmap= keeps out of RAM, every frontend it has
# asked for, Reed-Solomon ECC on; pstore mounted to read what it kept.
ramoops_load() {
	frec_stock_modprobe ramoops mem_address=0x20000000 mem_size=0x100000 \
		record_size=0x4000 console_size=0x4000 ftrace_size=0x4000 \
		pmsg_size=0x4000 ecc=16
	grep -q " $P " /proc/mounts || mount -t pstore pstore $P || fail "mount pstore"
	dmesg | grep -i 'ramoops\|pstore' | sed 's/^\[[^]]*\] /dmesg: /'
	echo "pstore files: $(ls $P | tr '\n' ' ')"
}

# No file of the frontends Debian does not build, whatever ended the boot.
no_console_ftrace_pmsg() {
	ls $P | grep -q '^console-' && fail "a console-ramoops file: doc/blackbox.md says Debian keeps no console log"
	ls $P | grep -q '^ftrace-' && fail "an ftrace-ramoops file: doc/blackbox.md says Debian keeps no function trace"
	ls $P | grep -q '^pmsg-' && fail "a pmsg-ramoops file: doc/blackbox.md says Debian keeps no userspace messages"
	[ -e /dev/pmsg0 ] && fail "/dev/pmsg0 exists: doc/blackbox.md says Debian builds no PSTORE_PMSG"
	echo "no console-, ftrace- or pmsg- file, no /dev/pmsg0"
}

case $FREC_PHASE in
1)
	ramoops_load
	dmesg | grep -q 'ramoops: using' || fail "ramoops did not take the range"
	no_console_ftrace_pmsg
	echo "frec-ramoops-marker before sysrq-b" > /dev/kmsg
	sleep 1
	echo b > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-b did not reset"
	;;
2)
	ramoops_load
	[ -z "$(ls $P)" ] || fail "ramoops kept something of a sysrq-b reset: $(ls $P)"
	echo "sysrq-b: nothing kept"
	no_console_ftrace_pmsg
	echo "frec-ramoops-marker before the panic" > /dev/kmsg
	echo 1 > /proc/sys/kernel/panic_on_oops
	echo c > /proc/sysrq-trigger
	sleep 10
	fail "sysrq-c did not panic"
	;;
3)
	ramoops_load
	for f in $P/*; do
		[ -f "$f" ] || continue
		echo "$f: $(wc -c < "$f") bytes, first line: $(head -n 1 "$f")"
	done
	[ "$(ls $P)" = dmesg-ramoops-0 ] ||
		fail "not just dmesg-ramoops-0 after an oops that panicked: $(ls $P | tr '\n' ' ')"
	head -n 1 $P/dmesg-ramoops-0 | grep -q '^Panic#1 Part1' ||
		fail "dmesg-ramoops-0 is not the panic's dump"
	cat $P/dmesg-ramoops-* | grep -q 'frec-ramoops-marker before the panic' ||
		fail "the dmesg dumps do not hold the log before the panic"
	cat $P/dmesg-ramoops-* | grep -q 'frec-ramoops-marker before sysrq-b' &&
		fail "the log of the boot sysrq-b ended is there"
	no_console_ftrace_pmsg
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
