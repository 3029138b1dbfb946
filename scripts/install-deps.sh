#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install everything frec's build, tests and benchmarks need on Debian 12.
# Safe to run again; needs root (CI runs as root).
set -euo pipefail

pkgs=(
	# module build against Debian's stock kernel
	build-essential linux-headers-amd64 kmod
	# guest bench: QEMU under TCG, busybox initramfs, stock kernel image
	qemu-system-x86 busybox-static cpio xz-utils
	# debug kernel (KUnit, lockdep) from Debian's sources
	linux-source flex bison bc libelf-dev libssl-dev dwarves rsync
	# lint and sanitizers
	sparse perl python3 clang libclang-rt-14-dev
	# run in the guest from the host root, to cross-check the tracepoints
	bpftrace
	# make bench: the plot, and trace-cmd to compare the decoder with
	gnuplot-nox trace-cmd
)

export DEBIAN_FRONTEND=noninteractive
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -q
# --no-install-recommends: QEMU's recommends pull in a desktop's worth.
$SUDO apt-get install -y -q --no-install-recommends "${pkgs[@]}"
