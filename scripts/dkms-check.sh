#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The user's path, as `make check` tests it: install frec's Debian
# packages, let DKMS build frec.ko for each installed kernel, build the
# Hanoi sample as an outside driver against what frec-dkms installed, and
# boot each stock kernel in the guest with those two modules.
#
#   dkms-check.sh DEB_DIR
#
# DEB_DIR holds frec-dkms_*.deb and frec-tools_*.deb (scripts/package.sh).
# Needs root: it installs both packages with dpkg on this machine (DKMS
# builds frec for every kernel whose headers are installed; nothing is
# ever loaded here).  Then, for each stock kernel (FREC_STOCK_KERNELS):
#  - DKMS must have built and installed frec VERSION for it;
#  - kmod/samples/frec_hanoi.c is built alone, as a client driver would
#    build it: -I/var/lib/dkms/frec/kernel-KVER-ARCH/include and
#    KBUILD_EXTRA_SYMBOLS=/var/lib/dkms/frec/kernel-KVER-ARCH/Module.symvers,
#    against /lib/modules/KVER/build;
#  - the guest boots that kernel (in CI, 6.12 alone; every kernel with
#    FREC_MATRIX=full) with DKMS's frec.ko(.xz) and that
#    frec_hanoi.ko and runs 0001-insmod, 0007-hanoi-dump (dump shows
#    the Hanoi records, golden lines) and 0030-module-version (the loaded
#    frec says VERSION).
# Prints "PASS dkms-..." / "FAIL dkms-...: why (see LOG)" lines; logs in
# build/logs/dkms/.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

debs=${1:?usage: dkms-check.sh DEB_DIR}
logs=$FREC_BUILD/logs/dkms
mkdir -p "$logs"
ver=$(cat "$FREC_ROOT/VERSION")
arch=$(uname -m)
rc=0

[ "$(id -u)" = 0 ] || { echo "SKIP dkms: needs root to install packages"; exit 0; }
command -v dkms > /dev/null || { echo "FAIL dkms: dkms is not installed (scripts/install-deps.sh)"; exit 1; }

log=$logs/dpkg.log
if dpkg -i "$debs/frec-dkms_${ver}_all.deb" "$debs/frec-tools_${ver}_$(dpkg --print-architecture).deb" \
	> "$log" 2>&1; then
	echo "PASS dkms-install: frec-dkms and frec-tools $ver installed"
else
	echo "FAIL dkms-install: dpkg -i failed (see $log)"
	exit 1
fi
dkms status -m frec > "$logs/status.log" 2>&1

# The kernel CI boots: 6.12 when tested, for it boots fastest under TCG.
boot=${FREC_STOCK_KERNELS%% *}
[[ " $FREC_STOCK_KERNELS " == *" 6.12 "* ]] && boot=6.12
for n in $FREC_STOCK_KERNELS; do
	kver=$(stock_kver_of "$n")
	name=stock-$n
	d=/var/lib/dkms/frec/kernel-$kver-$arch
	out=$FREC_BUILD/dkms/$name
	rm -rf "$out" && mkdir -p "$out/ko" "$out/hanoi"
	if ! grep -q "^frec/$ver, $kver, $arch: installed" "$logs/status.log"; then
		echo "FAIL dkms-$name-build: DKMS did not install frec $ver for $kver (see $logs/status.log, $log)"
		rc=1
		continue
	fi
	ko=$(ls /lib/modules/"$kver"/updates/dkms/frec.ko* 2>/dev/null | head -n 1)
	if [ -z "$ko" ] || [ ! -f "$d/Module.symvers" ] || [ ! -f "$d/include/frec.h" ]; then
		echo "FAIL dkms-$name-build: no frec.ko in /lib/modules/$kver/updates/dkms, or no $d/Module.symvers, include/frec.h"
		rc=1
		continue
	fi
	echo "PASS dkms-$name-build: $(basename "$ko"), version $(modinfo -F version "$ko"), signed by $(modinfo -F signer "$ko" 2>/dev/null || echo nobody)"
	cp "$ko" "$out/ko/"

	# The Hanoi sample as a client driver outside frec's tree.
	cp "$FREC_ROOT/kmod/samples/frec_hanoi.c" "$out/hanoi/"
	cat > "$out/hanoi/Kbuild" <<-EOF
	ccflags-y += -I$d/include
	obj-m += frec_hanoi.o
	EOF
	hlog=$logs/$name-hanoi.log
	if nice -n 19 make -C "/lib/modules/$kver/build" M="$out/hanoi" \
		KBUILD_EXTRA_SYMBOLS="$d/Module.symvers" modules > "$hlog" 2>&1 &&
		cp "$out/hanoi/frec_hanoi.ko" "$out/ko/"; then
		echo "PASS dkms-$name-client: frec_hanoi.ko built against $d"
	else
		echo "FAIL dkms-$name-client: the Hanoi sample did not build against $d (see $hlog)"
		rc=1
		continue
	fi

	# One boot proves DKMS's module and the outside client load together;
	# what it runs is the same code on every kernel, which the guest
	# parts test.  The full matrix boots each kernel.
	if [ "${FREC_MATRIX:-ci}" != full ] && [ "$n" != "$boot" ]; then
		echo "SKIP dkms-$name-boot: booted on $boot only (FREC_MATRIX=full boots every kernel)"
		continue
	fi
	FREC_KVER=$n "$FREC_ROOT/scripts/guest-run.sh" -k stock -M "$out/ko" -o "$logs/guest-$name" \
		"$FREC_ROOT/scripts/guest-tests/0001-insmod.sh" \
		"$FREC_ROOT/scripts/guest-tests/0007-hanoi-dump.sh" \
		"$FREC_ROOT/scripts/guest-tests/0030-module-version.sh" 2> "$logs/guest-$name.err" |
		sed "s/^\(PASS\|FAIL\|SKIP\|NOTE\) /\1 dkms-$name:/"
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
done
exit $rc
