#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's busybox initramfs.
#
#   mkinitramfs.sh -o OUT.cpio.gz -k stock|debug -m MODE -M KO_DIR
#                  [-s STOCK_DIR] [-K KERNEL_TREE] [-t TEST]...
#
# OUT holds busybox, /init, the guest scripts, frec's modules (every .ko in
# KO_DIR), the tests and, for the stock kernel (STOCK_DIR from
# stock-kernel.sh), the helper modules it needs with their dependencies, in
# load order.  A helper module the kernel has built in (modules.builtin:
# 6.12 builds virtio_pci in) is left out.  Compressed modules (.ko.xz,
# .ko.gz, .ko.zst: 6.12's and DKMS's) are decompressed into the initramfs
# as plain .ko, so that the guest loads every kernel's modules the same way
# and tests name frec.ko whatever built it.  KERNEL_TREE, a built kernel tree, is named to the guest
# (FREC_KERNEL_TREE in /frec/run.conf) for tools that want its headers.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Modules of Debian's kernel the guest needs: 9p for the host root; on
# arm64 also virtio_console, whose port (/dev/hvc0) carries the TAP: the
# virt machine has one serial port, the kernel console's.
STOCK_HELPER_MODULES="virtio_pci 9pnet_virtio 9p"
ARM64_HELPER_MODULES="virtio_console"
# Modules of Debian's kernel that tests load themselves (frec_stock_modprobe
# in the guest's lib.sh), not init: the i6300esb watchdog's driver, for
# the test of a hard hang the watchdog ends (its device only exists in
# that test's QEMU, "# qemu:"); ramoops, for the measurement of pstore
# doc/blackbox.md compares the black box with (0080); null_blk, the stock
# driver frec_null_blk is measured against (0110, make bench).
STOCK_TEST_MODULES="i6300esb ramoops null_blk"

out= kind= mode=test kodir= stock= ktree= tests=()
while getopts o:k:m:M:s:K:t: opt; do
	case $opt in
	o) out=$OPTARG ;;
	k) kind=$OPTARG ;;
	m) mode=$OPTARG ;;
	M) kodir=$OPTARG ;;
	s) stock=$OPTARG ;;
	K) ktree=$OPTARG ;;
	t) tests+=("$OPTARG") ;;
	*) die "usage: see the header of $0" ;;
	esac
done
[ -n "$out" ] && [ -n "$kind" ] && [ -n "$kodir" ] || die "need -o, -k and -M"
[ "$kind" = debug ] || [ -n "$stock" ] || die "stock kernel needs -s STOCK_DIR"

# The guest's architecture: an arm64 stock kernel's (stock_arch), else
# this machine's.
arch=x86
[ -z "$stock" ] || arch=$(stock_arch "$(ls "$stock/lib/modules")")

# arm64_busybox: the path of an arm64 busybox-static, downloaded once into
# the cache (busybox-static:arm64 cannot be installed beside the amd64
# one: the package is not Multi-Arch).
arm64_busybox() {
	local d=$FREC_CACHE/busybox-arm64 tmp
	if [ ! -x "$d/busybox" ]; then
		tmp=$(mktemp -d "$FREC_CACHE/.busybox.XXXXXX")
		(cd "$tmp" && apt-get download busybox-static:arm64 > apt.log 2>&1) ||
			{ cat "$tmp/apt.log" >&2; rm -rf "$tmp"; die "cannot download busybox-static:arm64 (dpkg --add-architecture arm64; apt-get update)"; }
		dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/x"
		mkdir -p "$d"
		mv "$tmp/x/bin/busybox" "$d/busybox.new" && mv "$d/busybox.new" "$d/busybox"
		rm -rf "$tmp"
	fi
	echo "$d/busybox"
}

if [ "$arch" = arm64 ]; then
	bb=$(arm64_busybox)
	STOCK_HELPER_MODULES="$STOCK_HELPER_MODULES $ARM64_HELPER_MODULES"
else
	bb=$(command -v busybox) || die "busybox not found (apt-get install busybox-static)"
fi
file -L "$bb" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$bb" 2>&1 | grep -q 'not a dynamic' || die "$bb is not static (busybox-static)"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,tmp,host,frec/guest,frec/tests,frec/modules}
cp "$bb" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$FREC_ROOT/scripts/guest/init" "$root/init"
chmod 755 "$root/init"
cp "$FREC_ROOT"/scripts/guest/*.sh "$root/frec/guest/"
for t in "${tests[@]}"; do
	cp "$t" "$root/frec/tests/"
done
# cp_module SRC DST: copy a module, decompressing .ko.xz/.gz/.zst into
# DST (a .ko path).
cp_module() {
	case $1 in
	*.ko)	cp "$1" "$2" ;;
	*.ko.xz) xz -dc "$1" > "$2" ;;
	*.ko.gz) gzip -dc "$1" > "$2" ;;
	*.ko.zst) zstd -qdc "$1" > "$2" ;;
	*)	die "not a module: $1" ;;
	esac
}

shopt -s nullglob
kos=("$kodir"/*.ko "$kodir"/*.ko.xz "$kodir"/*.ko.gz "$kodir"/*.ko.zst)
[ ${#kos[@]} -gt 0 ] || die "no .ko files in $kodir"
for ko in "${kos[@]}"; do
	base=$(basename "$ko")
	cp_module "$ko" "$root/frec/modules/${base%.ko*}.ko"
done

{
	echo "FREC_MODE=$mode"
	echo "FREC_KERNEL=$kind"
	echo "FREC_HOST_TREE=$FREC_ROOT"
	echo "FREC_KERNEL_TREE=$ktree"
	# The guest's own kernel and initramfs on the host (/host in the
	# guest), for kexec -p (a capture kernel like the guest's).
	echo "FREC_HOST_KERNEL=${stock:+$stock/vmlinuz}${ktree:+$ktree/arch/x86/boot/bzImage}"
	echo "FREC_HOST_INITRD=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
	echo "FREC_BENCH=${FREC_BENCH:-cost}"
	echo "FREC_BENCH_FILL=${FREC_BENCH_FILL:-1000000}"
	echo "FREC_BENCH_RUNS=${FREC_BENCH_RUNS:-5}"
	echo "FREC_BENCH_SECONDS=${FREC_BENCH_SECONDS:-2}"
	echo "FREC_TEST_TIMEOUT=${FREC_TEST_TIMEOUT:-120}"
	# Where the tests' TAP goes: the second serial port on x86, the
	# virtio console's on arm64 (guest-run.sh gives each its file).
	echo "FREC_ARCH=$arch"
	if [ "$arch" = arm64 ]; then echo "FREC_TAP=/dev/hvc0"; else echo "FREC_TAP=/dev/ttyS1"; fi
	# arm64: bpftrace and its libraries for the guest, on the host
	# (arm64-sysroot.sh), at /host in the guest.
	[ "$arch" != arm64 ] || echo "FREC_ARM64_SYSROOT=$("$FREC_ROOT/scripts/arm64-sysroot.sh")"
} > "$root/frec/run.conf"

# Resolve helper modules and their dependencies from modules.dep, deepest
# dependency first, each once.
if [ "$kind" = stock ]; then
	kver=$(ls "$stock/lib/modules")
	moddir=$stock/lib/modules/$kver
	declare -A seen=()
	order=()
	add_module() { # path relative to moddir
		local rel=$1 dep
		[ -n "${seen[$rel]:-}" ] && return
		seen[$rel]=1
		for dep in $(awk -v m="$rel:" '$1 == m { $1 = ""; print }' "$moddir/modules.dep"); do
			add_module "$dep"
		done
		order+=("$rel")
	}
	# The path of module M in FILE (modules.dep or modules.builtin),
	# compressed or not.
	find_module() { # M FILE
		awk -F: -v m="/$1.ko" '{ p = $1; sub(/\.(xz|gz|zst)$/, "", p) }
			substr(p, length(p) - length(m) + 1) == m { print $1; exit }' "$2"
	}
	# cp_order: copy the modules of order into the initramfs; prints
	# their paths there, in order.
	cp_order() {
		local rel ko
		for rel in "${order[@]}"; do
			ko=/lib/modules/$kver/${rel%.ko*}.ko
			mkdir -p "$root$(dirname "$ko")"
			[ -f "$root$ko" ] || cp_module "$moddir/$rel" "$root$ko"
			echo "$ko"
		done
	}
	for m in $STOCK_HELPER_MODULES; do
		rel=$(find_module "$m" "$moddir/modules.dep")
		if [ -z "$rel" ]; then
			[ -n "$(find_module "$m" "$moddir/modules.builtin")" ] ||
				die "module $m neither in $moddir/modules.dep nor built in"
			note "$m is built into $kver"
			continue
		fi
		add_module "$rel"
	done
	cp_order > "$root/frec/modules.load"
	# /frec/modules.test: one line per test module, its name and then
	# its path and its dependencies', deepest first.
	for m in $STOCK_TEST_MODULES; do
		rel=$(find_module "$m" "$moddir/modules.dep")
		[ -n "$rel" ] || die "module $m not in $moddir/modules.dep"
		seen=() order=()
		add_module "$rel"
		echo "$m $(cp_order | tr '\n' ' ')"
	done > "$root/frec/modules.test"
fi

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
