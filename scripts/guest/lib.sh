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
	for m in frec_hanoi frec_stress; do
		grep -q "^$m " /proc/modules && rmmod $m
	done
	if frec_loaded; then
		rmmod frec || fail "cannot unload frec left by an earlier test"
	fi
}
