#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A 32-bit build of the userspace tools is refused (kmod/lib/frec_user.h):
# the shared sources take the kernel's x86-64 long (local_t's counts,
# __fls() of a 64-bit value), and a 32-bit frec-decode built anyway
# printed wrong histograms.  Skipped where CC cannot build for -m32
# (Debian: gcc-multilib).
#
#   check_m32.sh CC ROOT
cc=$1
root=$2
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
if ! printf 'int main(void) { return 0; }\n' > "$out/t.c" ||
   ! $cc -m32 -o "$out/t" "$out/t.c" 2> /dev/null; then
	echo "SKIP m32: $cc -m32 cannot build (gcc-multilib)"
	exit 0
fi
# The decoder's histogram code: the one that printed wrong figures.
if $cc -m32 -std=gnu11 -D_GNU_SOURCE -I"$root/kmod/lib" -I"$root/uapi" -c \
	-o "$out/h.o" "$root/kmod/lib/frec_hist.c" 2> "$out/err"; then
	echo "FAIL m32: kmod/lib/frec_hist.c built for -m32; frec_user.h must refuse it"
	exit 1
fi
if ! grep -q 'frec_user.h.*error: .*64-bit' "$out/err"; then
	echo "FAIL m32: the -m32 build failed, not with frec_user.h's refusal:"
	head -n 5 "$out/err"
	exit 1
fi
# Not the compiler's "error:" itself: make check reads that as a failure.
echo "PASS m32: a 32-bit build is refused by frec_user.h's #error (64-bit long)"
