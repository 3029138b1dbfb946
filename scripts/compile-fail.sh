#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build-time checks of include/frec.h: each scripts/compile-fail/*.c is a
# tiny client module built against Debian's headers and frec's
# Module.symvers, the way a driver author builds one.  Its "// expect:"
# line says "ok" (it must build) or an extended regex the compiler's
# output must match (it must fail to build, for that reason).
# Prints "PASS compile-fail:NAME" or "FAIL compile-fail:NAME: why (see LOG)".
set -uo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$(stock_kdir)
logdir=$FREC_BUILD/logs/compile-fail
mkdir -p "$logdir"
[ -f "$FREC_ROOT/Module.symvers" ] || die "build frec first (make modules)"
failed=0
for src in "$FREC_ROOT"/scripts/compile-fail/*.c; do
	name=$(basename "$src" .c)
	expect=$(sed -n 's|^// expect: ||p' "$src")
	dir=$(mktemp -d)
	cp "$src" "$dir/t.c"
	printf 'ccflags-y := -I%s/include\nobj-m := t.o\n' "$FREC_ROOT" > "$dir/Kbuild"
	log=$logdir/$name.log
	make -C "$kdir" M="$dir" KBUILD_EXTRA_SYMBOLS="$FREC_ROOT/Module.symvers" modules > "$log" 2>&1
	rc=$?
	rm -rf "$dir"
	if [ "$expect" = ok ]; then
		if [ $rc -eq 0 ]; then
			echo "PASS compile-fail:$name"
		else
			echo "FAIL compile-fail:$name: a correct client does not build (see $log)"
			failed=1
		fi
	elif [ $rc -eq 0 ]; then
		echo "FAIL compile-fail:$name: built, but must not (see $log)"
		failed=1
	elif grep -qE "$expect" "$log"; then
		echo "PASS compile-fail:$name"
	else
		echo "FAIL compile-fail:$name: failed without saying /$expect/ (see $log)"
		failed=1
	fi
done
exit $failed
