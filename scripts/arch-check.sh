#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# frec builds only where its ring core is correct (README, "Installing:
# kernels and Debian packages"): on a 32-bit kernel the build must stop at once with
# frec's own message, not with a compiler error deep in an atomic.
# Configures an i386 kernel (defconfig + modules_prepare) from the Debian
# linux-source the debug kernel uses, cached like it, and builds frec.ko
# against it.  Prints "PASS arch:32-bit-refused" or "FAIL ...".
set -uo pipefail
. "$(dirname "$0")/lib.sh"

log=$FREC_BUILD/logs/arch-check.log
mkdir -p "$(dirname "$log")"
: > "$log"
src=$("$FREC_ROOT/scripts/debug-kernel.sh" --source 2>> "$log" | tail -n 1) ||
	{ echo "FAIL arch:32-bit-refused: no kernel source (see $log)"; exit 1; }
kdir=$FREC_CACHE/i386-$(basename "$src")
if [ ! -f "$kdir/.frec-prepared" ]; then
	rm -rf "$kdir"
	{ make -C "$src" O="$kdir" ARCH=i386 defconfig &&
	  make -C "$src" O="$kdir" ARCH=i386 -j"$(nproc)" modules_prepare; } >> "$log" 2>&1 ||
		{ echo "FAIL arch:32-bit-refused: cannot prepare an i386 kernel (see $log)"; exit 1; }
	touch "$kdir/.frec-prepared"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$FREC_ROOT/Kbuild" "$FREC_ROOT/VERSION" "$FREC_ROOT/kmod" "$FREC_ROOT/include" "$FREC_ROOT/uapi" "$tmp/"
find "$tmp" -name '*.o' -o -name '*.ko' -o -name '.*.cmd' | xargs rm -f
if make -C "$kdir" ARCH=i386 M="$tmp" modules >> "$log" 2>&1; then
	echo "FAIL arch:32-bit-refused: frec.ko built for a 32-bit kernel (see $log)"
	exit 1
fi
if ! grep -q 'error: #error "frec needs a 64-bit kernel' "$log"; then
	echo "FAIL arch:32-bit-refused: the build failed without frec's message (see $log)"
	exit 1
fi
echo "PASS arch:32-bit-refused"
