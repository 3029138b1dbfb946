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
# load order.  KERNEL_TREE, a built kernel tree, is named to the guest
# (FREC_KERNEL_TREE in /frec/run.conf) for tools that want its headers.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Modules of Debian's kernel the guest needs: 9p for the host root, pvpanic
# so that a guest panic ends QEMU with a failure.
STOCK_HELPER_MODULES="virtio_pci 9pnet_virtio 9p pvpanic-mmio"

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

bb=$(command -v busybox) || die "busybox not found (apt-get install busybox-static)"
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
shopt -s nullglob
kos=("$kodir"/*.ko)
[ ${#kos[@]} -gt 0 ] || die "no .ko files in $kodir"
cp "${kos[@]}" "$root/frec/modules/"

{
	echo "FREC_MODE=$mode"
	echo "FREC_KERNEL=$kind"
	echo "FREC_HOST_TREE=$FREC_ROOT"
	echo "FREC_KERNEL_TREE=$ktree"
	echo "FREC_BENCH=${FREC_BENCH:-cost}"
	echo "FREC_BENCH_FILL=${FREC_BENCH_FILL:-1000000}"
	echo "FREC_TEST_TIMEOUT=${FREC_TEST_TIMEOUT:-120}"
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
	for m in $STOCK_HELPER_MODULES; do
		rel=$(awk -F: -v m="/$m.ko" 'index($1, m) && substr($1, length($1) - length(m) + 1) == m { print $1; exit }' \
			"$moddir/modules.dep")
		[ -n "$rel" ] || die "module $m not in $moddir/modules.dep"
		add_module "$rel"
	done
	for rel in "${order[@]}"; do
		mkdir -p "$root/lib/modules/$kver/$(dirname "$rel")"
		cp "$moddir/$rel" "$root/lib/modules/$kver/$rel"
		echo "/lib/modules/$kver/$rel"
	done > "$root/frec/modules.load"
fi

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
