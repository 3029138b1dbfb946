#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The arm64 userspace the aarch64 guest runs from the host over 9p (the
# host's x86 binaries cannot run there): Debian's bpftrace:arm64 and the
# arm64 libraries it needs, extracted (dpkg-deb -x) into one directory of
# the cache, nothing installed.  Prints the directory; the guest runs
# bpftrace with the loader and libraries in it (guest lib.sh,
# frec_bpftrace).  About 60 MB of packages, fetched once.
#
#   arm64-sysroot.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$FREC_CACHE/arm64-sysroot
if [ ! -f "$dir/.done" ]; then
	mkdir -p "$FREC_CACHE"
	tmp=$(mktemp -d "$FREC_CACHE/.arm64-sysroot.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# bpftrace and every arm64 package it needs, recursively (its
	# libraries: LLVM, clang, libbpf, libbcc, libc...).
	pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances bpftrace:arm64 2> /dev/null |
		grep -E '^[a-z0-9][^ ]*:arm64$' | sort -u)
	[ -n "$pkgs" ] || die "apt-cache knows no bpftrace:arm64 (dpkg --add-architecture arm64; apt-get update)"
	# shellcheck disable=SC2086  # one package a word
	(cd "$tmp" && apt-get download $pkgs > apt.log 2>&1) ||
		{ cat "$tmp/apt.log" >&2; die "cannot download bpftrace:arm64 and its libraries"; }
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root"
	done
	touch "$tmp/root/.done"
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
fi
echo "$dir"
