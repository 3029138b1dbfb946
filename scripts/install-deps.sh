#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install everything frec's build, tests and benchmarks need on Debian 12.
# Safe to run again; needs root (CI runs as root).
set -euo pipefail
# FREC_612_ABI: the 6.12 kernels' version, named once, in lib.sh.
. "$(dirname "$0")/lib.sh"

pkgs=(
	# module build against Debian's stock kernels: 6.1 (linux-headers-amd64)
	# and 6.12, 6.12-rt.  6.12's headers depend on its image, which pulls
	# in initramfs-tools (its postinst makes an initrd for each: about 3
	# minutes for both here).  The guest's stock kernel images themselves
	# are not installed: stock-kernel.sh extracts them into the cache.
	build-essential linux-headers-amd64 kmod
	"linux-headers-$FREC_612_ABI-amd64" "linux-headers-$FREC_612_ABI-rt-amd64"
	# Debian packages (scripts/package.sh) and the user's path: DKMS
	# builds frec for every installed kernel (scripts/dkms-check.sh)
	dkms lintian
	# guest bench: QEMU under TCG, busybox initramfs, stock kernel image
	qemu-system-x86 busybox-static cpio xz-utils
	# arm64 (doc/arm64.md): the cross compiler for Debian's arm64
	# kernels' modules (their headers and images: stock-kernel.sh, in
	# the cache), zlib for the cross-built frec-decode (package.sh -a
	# arm64), and the aarch64 guest (scripts/guest-run.sh); the guest's
	# arm64 busybox comes from the cache too (mkinitramfs.sh), as
	# busybox-static:arm64 cannot be installed beside the amd64 one
	gcc-aarch64-linux-gnu zlib1g-dev:arm64 qemu-system-arm
	# debug kernel (KUnit, lockdep, KASAN) from Debian's 6.12
	# sources, also the i386 kernel of scripts/arch-check.sh; 6.1's
	# (linux-source) for lint's checkpatch.pl and kernel-doc
	linux-source-6.12 linux-source flex bison bc libelf-dev libssl-dev
	dwarves rsync
	# frec-decode --vmcore reads makedumpfile's zlib-compressed kdumps
	zlib1g-dev
	# lint and sanitizers; gcc-12-multilib: decode-check's -m32 build
	# (not the gcc-multilib metapackage, which gcc-aarch64-linux-gnu's
	# compiler conflicts with on Debian 12; gcc -m32 needs only this), which
	# frec_user.h must refuse (tools/frec-decode/tests/check_m32.sh)
	sparse perl python3 clang libclang-rt-14-dev gcc-12-multilib
	# run in the guest from the host root, to cross-check the tracepoints
	# (and biolatency.bt against frec_null_blk's histogram, 0110)
	bpftrace
	# run in the guest from the host root: the null_blk load of test 0110
	# and make bench
	fio
	# run in the guest from the host root: kexec -p loads a capture
	# kernel (guest test 0048)
	kexec-tools
	# -c -d 31 and -E -d 31 dumps for frec-decode --vmcore, run in guest
	# test 0100's capture kernel from the host root
	makedumpfile
	# make bench: the plot, and trace-cmd to compare the decoder with
	gnuplot-nox trace-cmd
	# make check's kernelshark part (scripts/kernelshark-check.sh):
	# KernelShark opens frec-decode's trace.dat in a virtual X server,
	# xdotool waits for its window, xwd saves it, netpbm makes the PNG
	kernelshark xvfb xauth x11-utils x11-apps xdotool netpbm
)

export DEBIAN_FRONTEND=noninteractive
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
# arm64 packages (zlib1g-dev:arm64; the arm64 kernels and busybox that
# stock-kernel.sh and mkinitramfs.sh download) need the architecture.
$SUDO dpkg --add-architecture arm64
$SUDO apt-get update -q
# --no-install-recommends: QEMU's recommends pull in a desktop's worth.
$SUDO apt-get install -y -q --no-install-recommends "${pkgs[@]}"
