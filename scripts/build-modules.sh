#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build frec's modules for one kernel in a copy of the sources, so that
# several kernels' objects never share a tree.
#
#   build-modules.sh [-W] KDIR OUT_DIR
#
# Copies Kbuild, VERSION, kmod/, include/, uapi/ and kunit/ to
# OUT_DIR/src, builds frec.ko (and the KUnit suites if KDIR has
# CONFIG_KUNIT) there, then the samples as outside drivers against its
# Module.symvers, as `make modules` does, and frec_null_blk
# (build-null-blk.sh, in OUT_DIR/null_blk), and copies every .ko to
# OUT_DIR/ko.  -W adds W=1 C=2 (sparse) to frec's and the samples' builds:
# the log, OUT_DIR/build.log, then holds every warning.  Not to
# frec_null_blk's: the kernel's own null_blk sources warn under them
# (sparse's context imbalance in zoned.c, blk_opf_t in trace.h), the lines
# frec adds do not (checked when the patches were written).  make runs a
# job per CPU under nice FREC_NICE (default 19): it shares the machine with
# QEMU guests and make check's background work; check.sh's build part, which
# the guests wait for, sets 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

extra=()
if [ "${1:-}" = -W ]; then
	extra=(W=1 C=2)
	shift
fi
[ $# -eq 2 ] || die "usage: $(basename "$0") [-W] KDIR OUT_DIR"
kdir=$1
out=$2
[ -f "$kdir/Makefile" ] || die "no kernel tree at $kdir"
# An arm64 tree builds with the cross compiler (lib.sh, kdir_make_args).
# shellcheck disable=SC2207  # words on purpose
arch_args=($(kdir_make_args "$kdir"))
extra+=("${arch_args[@]}")
mkdir -p "$out/src" "$out/ko"
out=$(cd "$out" && pwd)
src=$out/src
log=$out/build.log

rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.ko.*' \
	--exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' --exclude='*.mod.o' \
	--exclude='modules.order' --exclude='Module.symvers' \
	"$FREC_ROOT"/{Kbuild,VERSION,kmod,include,uapi,kunit} "$src/"
{
	nice -n "${FREC_NICE:-19}" make -j"$(nproc)" -C "$kdir" M="$src" "${extra[@]}" modules &&
	nice -n "${FREC_NICE:-19}" make -C "$kdir" M="$src/kmod/samples" clean &&
	nice -n "${FREC_NICE:-19}" make -j"$(nproc)" -C "$kdir" M="$src/kmod/samples" "${extra[@]}" \
		KBUILD_EXTRA_SYMBOLS="$src/Module.symvers" modules &&
	"$FREC_ROOT/scripts/build-null-blk.sh" "$kdir" "$out/null_blk" "$src" "$src/Module.symvers" \
		"${arch_args[@]}"
} > "$log" 2>&1 || die "build against $kdir failed (see $log)"
rm -f "$out"/ko/*.ko
find "$src" -name '*.ko' -exec cp {} "$out/ko/" \;
if [ -d "$out/null_blk" ]; then
	find "$out/null_blk" -name '*.ko' -exec cp {} "$out/ko/" \;
fi
