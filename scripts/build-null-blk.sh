#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build frec_null_blk.ko and frec_null_blk_tp.ko (kmod/samples/null_blk/)
# for one kernel: the kernel's own null_blk, from Debian's linux-source of
# the kernel's version, with frec's lines (null_blk-VERSION.patch).
#
#   build-null-blk.sh KDIR OUT_DIR FREC_DIR SYMVERS [MAKE_ARG...]
#
# FREC_DIR is the frec tree to take kmod/samples/null_blk/ and include/
# from (build-modules.sh's copy, or the tree itself), SYMVERS frec's
# Module.symvers.  OUT_DIR is removed, then gets the pristine sources, the
# patch applied, and the modules.  Does nothing (and says so) for a kernel
# that does not build null_blk as a module (the debug kernel): the point
# is a module beside the stock one.  The sources come from
# /usr/src/linux-source-VERSION.tar.xz (linux-source-6.1,
# linux-source-6.12; install-deps.sh), only drivers/block/null_blk/
# extracted, once per package version, into FREC_CACHE/null_blk-PKGVER/
# (about 15 s).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 4 ] || die "usage: $(basename "$0") KDIR OUT_DIR FREC_DIR SYMVERS [MAKE_ARG...]"
kdir=$1 out=$2 frec=$3 symvers=$4
shift 4

rm -rf "$out"
if ! grep -q '^CONFIG_BLK_DEV_NULL_BLK=m' "$kdir/.config" 2>/dev/null; then
	note "$kdir builds no null_blk module: no frec_null_blk"
	exit 0
fi
# 6.1 or 6.12: the linux-source package and the patch.
ver=$(sed -nE 's/^([0-9]+\.[0-9]+).*/\1/p' "$kdir/include/config/kernel.release")
patchfile=$frec/kmod/samples/null_blk/null_blk-$ver.patch
[ -f "$patchfile" ] || die "no $patchfile: frec_null_blk is patched for 6.1 and 6.12, not $ver"
pkg=linux-source-$ver
pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || die "$pkg is not installed (scripts/install-deps.sh)"

src=$FREC_CACHE/null_blk-$pkgver
if [ ! -f "$src/.done" ]; then
	mkdir -p "$FREC_CACHE"
	tmp=$(mktemp -d "$FREC_CACHE/.null_blk.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	tar -xJf "/usr/src/$pkg.tar.xz" -C "$tmp" --strip-components=4 --wildcards \
		'*/drivers/block/null_blk/*' || die "cannot extract null_blk from /usr/src/$pkg.tar.xz"
	touch "$tmp/.done"
	rm -rf "$src"
	mv -T "$tmp" "$src"
fi

mkdir -p "$out"
cp "$src"/{main.c,null_blk.h,zoned.c,trace.c,trace.h} "$out/"
patch -d "$out" -p1 --quiet --no-backup-if-mismatch < "$patchfile" ||
	die "$patchfile does not apply to $pkg $pkgver's null_blk"
cp "$frec"/kmod/samples/null_blk/{Kbuild,frec_null_blk_tp.h} "$out/"
for f in main zoned trace; do
	printf '#include "%s.c"\n' "$f" > "$out/tp_$f.c"
done
nice -n "${FREC_NICE:-19}" make -j"$(nproc)" -C "$kdir" M="$out" FREC="$frec" \
	KBUILD_EXTRA_SYMBOLS="$symvers" "$@" modules
