#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's stock kernel image matching linux-headers-amd64 into the
# cache, without installing it (its postinst spends minutes in
# update-initramfs).  Prints the directory holding vmlinuz and lib/modules.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver=$(stock_kver)
dir=$FREC_CACHE/stock-$kver
if [ ! -f "$dir/.done" ]; then
	tmp=$(mktemp -d "$FREC_CACHE/.stock.XXXXXX" 2>/dev/null ||
		{ mkdir -p "$FREC_CACHE" && mktemp -d "$FREC_CACHE/.stock.XXXXXX"; })
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download "linux-image-$kver" >/dev/null 2>&1) ||
		(cd "$tmp" && apt-get download "linux-image-$kver-unsigned" >/dev/null) ||
		die "cannot download linux-image-$kver"
	dpkg-deb -x "$tmp"/linux-image-*.deb "$tmp/root"
	# The package ships no modules.dep: depmod writes it at install time.
	depmod -b "$tmp/root" "$kver"
	mkdir -p "$tmp/root/boot"
	cp "$tmp/root/boot/vmlinuz-$kver" "$tmp/root/vmlinuz"
	touch "$tmp/root/.done"
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
fi
echo "$dir"
