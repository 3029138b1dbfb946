#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch one of Debian's stock kernels into the cache, without installing
# anything: the image (its postinst spends minutes in update-initramfs, and
# 6.12's headers package depends on the image) and, unless that kernel's
# headers are installed, the headers.  Prints the directory, which holds
#
#   vmlinuz           the kernel the guest boots
#   lib/modules/KVER  its modules, with modules.dep (depmod run here)
#   build             the headers tree to build against (KDIR): a link to
#                     /usr/src/linux-headers-KVER if that was installed
#                     when the cache was made, else into hdr/, the
#                     extracted linux-headers-KVER, its -common
#                     (-common-rt) and linux-kbuild packages
#
#   stock-kernel.sh [NAME]
#
# NAME: 6.1, 6.12, 6.12-rt, arm64-6.1, arm64-6.12 or a kernel release (scripts/lib.sh,
# stock_kver_of); default FREC_KVER, else Debian's linux-headers-amd64.
# Packages come with `apt-get download` and `dpkg-deb -x` (about 100 MB
# for an image, 20 MB for headers).  Cache: FREC_CACHE/stock-KVER/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ $# -gt 0 ]; then
	kver=$(stock_kver_of "$1")
else
	kver=$(stock_kver)
fi
dir=$FREC_CACHE/stock-$kver

# dl DIR PKG...: apt-get download into DIR, quietly unless it fails.
dl() {
	local d=$1
	shift
	(cd "$d" && apt-get download "$@" > apt.log 2>&1) || { cat "$d/apt.log" >&2; return 1; }
}

# Two parts, each made in a temporary directory and moved into place
# whole, so that an interrupted fetch is never used, and a guest booting
# from the image meanwhile (another clone's) is never disturbed: the
# image (stamp .done) and, added later if missing, the headers (.build).
mkdir -p "$FREC_CACHE"
tmp=$(mktemp -d "$FREC_CACHE/.stock.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$dir/.done" ]; then
	mkdir "$tmp/img"
	dl "$tmp/img" "linux-image-$kver" 2>/dev/null ||
		dl "$tmp/img" "linux-image-$kver-unsigned" ||
		die "cannot download linux-image-$kver (apt-get update?)"
	dpkg-deb -x "$tmp"/img/linux-image-*.deb "$tmp/root"
	# The package ships no modules.dep: depmod writes it at install time.
	depmod -b "$tmp/root" "$kver"
	cp "$tmp/root/boot/vmlinuz-$kver" "$tmp/root/vmlinuz"
	touch "$tmp/root/.done"
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
fi
if [ ! -f "$dir/.build" ]; then
	rm -rf "$dir/hdr" "$dir/build"
	if [ -f "/usr/src/linux-headers-$kver/Makefile" ]; then
		ln -s "/usr/src/linux-headers-$kver" "$dir/build"
	else
		mkdir "$tmp/hdr"
		dl "$tmp/hdr" "linux-headers-$kver" || die "cannot download linux-headers-$kver"
		# What the headers need besides themselves: the -common tree
		# (-common-rt) and linux-kbuild (scripts/, tools/).
		deps=$(dpkg-deb -f "$tmp"/hdr/linux-headers-*.deb Depends | tr ',|' '\n\n' |
			awk '$1 ~ /^linux-(headers|kbuild)-/ { print $1 }')
		[ -n "$deps" ] || die "linux-headers-$kver names no -common or kbuild package"
		# shellcheck disable=SC2086  # one package a word
		dl "$tmp/hdr" $deps || die "cannot download $deps"
		for deb in "$tmp"/hdr/*.deb; do
			dpkg-deb -x "$deb" "$tmp/x"
		done
		# Its Makefile includes the -common tree's by absolute path;
		# point it at the copy here.  The other links are relative.
		sed -i "s|^include /usr/src/|include $dir/hdr/usr/src/|" \
			"$tmp/x/usr/src/linux-headers-$kver/Makefile"
		mv "$tmp/x" "$dir/hdr"
		ln -s "hdr/usr/src/linux-headers-$kver" "$dir/build"
	fi
	touch "$dir/.build"
fi
echo "$dir"
