# SPDX-License-Identifier: GPL-2.0
# Shared helpers for frec's host-side scripts.  Source it; do not run it.

FREC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FREC_CACHE=${FREC_CACHE:-$HOME/.cache/frec}
FREC_BUILD=${FREC_BUILD:-$FREC_ROOT/build}

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
note() { echo "$(basename "$0"): $*" >&2; }

# Debian 12's 6.12 kernels (linux-image-6.12.*+deb12-amd64 and -rt-amd64,
# the backport in bookworm's archive): the one place their version is
# named.  6.12.117 was the newest apt-cache showed on 2026-11-23; set
# FREC_612_ABI, or change it here, for another.
FREC_612_ABI=${FREC_612_ABI:-6.12.117+deb12}

# The stock kernels `make check` covers, by short name.
FREC_STOCK_KERNELS=${FREC_STOCK_KERNELS:-6.1 6.12 6.12-rt}

# The arm64 kernels frec cross-builds for and boots in an aarch64 guest
# (doc/arm64.md): Debian's arm64 flavour of the same 6.1 and 6.12.
FREC_ARM64_KERNELS=${FREC_ARM64_KERNELS:-arm64-6.1 arm64-6.12}

# stock_kver_of NAME: the kernel release of a stock kernel, by short name
# (6.1: Debian's linux-headers-amd64; 6.12, 6.12-rt: FREC_612_ABI;
# arm64-6.1, arm64-6.12: the same releases' arm64 flavour) or as a
# release already (6.1.0-56-amd64, 6.12.117+deb12-rt-amd64,
# 6.1.0-57-arm64).
stock_kver_of() {
	local k
	case $1 in
	6.1)	FREC_KVER= stock_kver ;;
	6.12)	echo "$FREC_612_ABI-amd64" ;;
	6.12-rt) echo "$FREC_612_ABI-rt-amd64" ;;
	arm64-6.1) k=$(FREC_KVER= stock_kver) && echo "${k%-amd64}-arm64" ;;
	arm64-6.12) echo "$FREC_612_ABI-arm64" ;;
	[0-9]*.*-*) echo "$1" ;;
	*)	die "unknown stock kernel '$1' (6.1, 6.12, 6.12-rt, arm64-6.1, arm64-6.12 or a release)" ;;
	esac
}

# stock_arch KVER: the architecture a stock kernel release is for, as
# the kernel's ARCH= names it: arm64 for Debian's -arm64 flavour, else
# x86.
stock_arch() {
	case $1 in
	*-arm64) echo arm64 ;;
	*)	echo x86 ;;
	esac
}

# kdir_make_args KDIR: the make arguments a build against the kernel tree
# KDIR needs on this x86_64 machine: for an arm64 tree, the cross
# compiler (gcc-aarch64-linux-gnu); none for an x86 one.
kdir_make_args() {
	if grep -qs '^CONFIG_ARM64=y' "$1/.config"; then
		echo ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
	fi
}

# guest_tests_for KERNEL: the guest tests that run on KERNEL (6.1,
# 6.12, 6.12-rt, debug, arm64-6.1 or arm64-6.12), one path a line.  Two
# headers decide:
#   "# kernels: LIST"  where make check (CI) runs the test: every test
#                      once, on the kernel where it can find something,
#                      and on several only when it reaches a path that
#                      differs between them (doc/testing.md, "Which
#                      kernels a test runs on"); none: every kernel
#   "# can-run: LIST"  where the test can run at all (a kernel without
#                      /dev/mem, reserve_mem= or kexec); none: every kernel
# FREC_MATRIX=full (a release's run) takes every test on every kernel it
# can run on instead of the "# kernels:" list.  An arm64 kernel runs only
# the tests whose "# kernels:" names it, in either matrix: its TCG guest
# is several times slower, and a test written for x86 (memmap=, an NMI,
# the host's x86 binaries) cannot run there (doc/arm64.md).
guest_tests_for() {
	local t k
	for t in "$FREC_ROOT"/scripts/guest-tests/*.sh; do
		if [[ $1 == arm64-* ]]; then
			k=$(sed -n 's/^# kernels: //p' "$t")
			[[ " $k " == *" $1 "* ]] && echo "$t"
			continue
		fi
		if [ "${FREC_MATRIX:-ci}" = full ]; then
			k=$(sed -n 's/^# can-run: //p' "$t")
		else
			k=$(sed -n 's/^# kernels: //p' "$t")
		fi
		if [ -z "$k" ] || [[ " $k " == *" $1 "* ]]; then
			echo "$t"
		fi
	done
}

# stock_name KVER: the short name the bench prints for a stock kernel
# (stock-6.1, stock-6.12, stock-6.12-rt, stock-arm64-6.1,
# stock-arm64-6.12; else stock-KVER).
stock_name() {
	local n
	for n in 6.1 6.12 6.12-rt arm64-6.1 arm64-6.12; do
		[ "$(stock_kver_of "$n" 2>/dev/null)" = "$1" ] && { echo "stock-$n"; return; }
	done
	echo "stock-$1"
}

# The kernel release of the stock kernel the bench uses: FREC_KVER (a
# release or a short name, see stock_kver_of), else the one of Debian's
# linux-headers-amd64 metapackage (e.g. 6.1.0-56-amd64).  Not `uname -r`:
# this machine's kernel is unrelated to the one the guest boots.
stock_kver() {
	if [ -n "${FREC_KVER:-}" ]; then
		stock_kver_of "$FREC_KVER"
		return
	fi
	local dep
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) ||
		die "linux-headers-amd64 is not installed (run .ci/run or scripts/install-deps.sh)"
	dep=${dep%% *}
	echo "${dep#linux-headers-}"
}

# stock_kdir [NAME]: the headers tree to build against for a stock kernel
# (stock_kver_of NAME, default stock_kver): Debian's installed
# /usr/src/linux-headers-KVER, else the copy stock-kernel.sh fetches into
# the cache.
stock_kdir() {
	local kver
	if [ $# -gt 0 ]; then kver=$(stock_kver_of "$1"); else kver=$(stock_kver); fi
	if [ -f "/usr/src/linux-headers-$kver/Makefile" ]; then
		echo "/usr/src/linux-headers-$kver"
	else
		echo "$("$FREC_ROOT/scripts/stock-kernel.sh" "$kver")/build"
	fi
}
