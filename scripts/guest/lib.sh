# SPDX-License-Identifier: GPL-2.0
# Helpers for guest tests: . /frec/guest/lib.sh

FREC_DEBUGFS=/sys/kernel/debug/frec
FREC_MODULES=/frec/modules

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 4
}

frec_loaded() {
	grep -q '^frec ' /proc/modules
}

frec_load() {
	insmod "$FREC_MODULES/frec.ko" "$@" || fail "insmod frec.ko $*"
}

frec_unload() {
	rmmod frec || fail "rmmod frec"
}

# Unload frec if a previous test left it loaded.
frec_reset() {
	for m in frec_hanoi frec_stress frec_crash_test; do
		grep -q "^$m " /proc/modules && rmmod $m
	done
	if frec_loaded; then
		rmmod frec || fail "cannot unload frec left by an earlier test"
	fi
}

# The kernel log without dmesg's "[ seconds] " prefixes.
frec_klog() {
	dmesg | sed 's/^\[ *[0-9.]*\] //'
}

# frec_console_block < LOG: the lines of the last console dump in LOG,
# between its begin and end markers (header lines included).
frec_console_block() {
	awk '/^---\[ frec dump begin/ { n = 0; inb = 1; done = 0; next }
		/^---\[ frec dump end/ { inb = 0; done = 1; next }
		inb { l[n++] = $0 }
		END { if (!done) exit 1; for (i = 0; i < n; i++) print l[i] }'
}

# frec_wait_klog PATTERN [TENTHS]: wait until the kernel log has PATTERN.
frec_wait_klog() {
	i=0
	until dmesg | grep -q -- "$1"; do
		i=$((i + 1))
		[ $i -lt "${2:-300}" ] || return 1
		sleep 0.1
	done
}
