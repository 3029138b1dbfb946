#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lint every kernel-side file: checkpatch --strict (from Debian's
# linux-source), kernel-doc, the guest scripts' syntax (busybox sh -n),
# README.md's length (a front page, at most 250 lines) and its doc/ links,
# frec-decode's and kmod's layers (scripts/layers.sh; kmod's on the first
# stock kernel's objects), and sparse (C=2) with a W=1 build of frec and
# the samples against each stock kernel's headers (FREC_STOCK_KERNELS:
# 6.1, 6.12, 6.12-rt; the 6.12 headers come from stock-kernel.sh's cache).
# Any finding fails.  Prints one line per check, "PASS lint-x" or "FAIL
# lint-x: why (see LOG)", for check.sh.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

logdir=$FREC_BUILD/logs/lint
mkdir -p "$logdir"
cd "$FREC_ROOT" || exit 1
failed=0
result() { # name rc log
	if [ "$2" -eq 0 ]; then
		echo "PASS lint-$1"
	else
		echo "FAIL lint-$1: findings (see $3)"
		failed=1
	fi
}

# kmod/lib/frec_user.h is the userspace side of the shared sources: tools/
# compiles it (-Wall -Werror), the kernel never does.
mapfile -t kfiles < <(find kmod include uapi kunit -name '*.[ch]' ! -name '*.mod.c' \
	! -path kmod/lib/frec_user.h | sort)

# checkpatch.pl and kernel-doc come from the linux-source tarball; unpack
# just those once per source version.
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed"
tooldir=$FREC_CACHE/kernel-scripts-$srcver
if [ ! -f "$tooldir/.done" ]; then
	rm -rf "$tooldir" && mkdir -p "$tooldir"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$tooldir" --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' '*/scripts/kernel-doc' ||
		die "cannot unpack checkpatch from linux-source"
	touch "$tooldir/.done"
fi

log=$logdir/checkpatch.log
rm -f "$log.unjustified"
perl "$tooldir/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
	--no-summary -f "${kfiles[@]}" > "$log" 2>&1
# Findings justified in scripts/checkpatch.justified (FILE TYPE: why) pass;
# any other fails, and so does a justification that no longer matches.
rc=0
justified=$FREC_ROOT/scripts/checkpatch.justified
while IFS= read -r f; do
	file=${f%%:*}
	type=$(sed -nE 's/^[^:]+:[0-9]+: (ERROR|WARNING|CHECK):([A-Z_]+):.*/\2/p' <<< "$f")
	grep -q "^$file $type:" "$justified" || { echo "$f" >> "$log.unjustified"; rc=1; }
done < <(grep -E ': (ERROR|WARNING|CHECK):' "$log")
while read -r file type _; do
	grep -qE "^$file:[0-9]+: (ERROR|WARNING|CHECK):${type%:}:" "$log" ||
		{ echo "stale justification: $file $type" >> "$log"; rc=1; }
done < <(grep -v '^#' "$justified")
result checkpatch $rc "$log"

# kernel-doc: every documented function and struct is well formed.
log=$logdir/kernel-doc.log
# -v adds the warnings for missing "Return:" sections.
perl "$tooldir/scripts/kernel-doc" -none -v "${kfiles[@]}" > "$log" 2>&1
rc=$?
grep -q 'warning:' "$log" && rc=1
result kernel-doc $rc "$log"

# The guest's shell scripts parse in the guest's shell (busybox sh): a
# syntax error would otherwise show only after a boot, as a failed test.
# frec-archive too: 0105 (a step of 0038) runs it there.
log=$logdir/guest-sh.log
rc=0
: > "$log"
for f in scripts/guest-tests/*.sh scripts/guest/*.sh tools/frec-archive/frec-archive; do
	busybox sh -n "$f" >> "$log" 2>&1 || { echo "in $f" >> "$log"; rc=1; }
done
result guest-sh $rc "$log"

# README.md is the front page: at most 250 lines, the reference in doc/;
# every doc/ page it points to exists.
log=$logdir/readme.log
rc=0
n=$(wc -l < README.md)
echo "README.md: $n lines" > "$log"
[ "$n" -le 250 ] || { echo "more than 250 lines: move reference to doc/" >> "$log"; rc=1; }
for p in $(grep -o 'doc/[a-z-]*\.md' README.md | sort -u); do
	[ -f "$p" ] || { echo "README.md points to $p, which does not exist" >> "$log"; rc=1; }
done
result readme $rc "$log"

# frec-decode's calls go down its layers only (tools/frec-decode/layers.map,
# doc/design.md): a circle, an upward call the map does not allow, or a
# file it gives no layer fails.
log=$logdir/layers-decode.log
scripts/layers.sh -m tools/frec-decode/layers.map decode > "$log" 2>&1
result layers-decode $? "$log"

# layers.sh's map reading, on the map changed two ways: the lines layer
# given in two lines, formats.c (which calls addr_table.c) in the first,
# and an up line that no call needs.  The up line alone must fail: a
# layer's second line made a layer of its own once, and a stale up line
# passed.
log=$logdir/layers-self.log
map=$(mktemp)
sed 's#^lines\t#lines\ttools/frec-decode/formats.c\nlines\t#' tools/frec-decode/layers.map > "$map"
echo 'up tools/frec-decode/raw.c tools/frec-decode/decode.c # none' >> "$map"
scripts/layers.sh -m "$map" decode > "$log" 2>&1
got=$?
rm -f "$map"
rc=1
[ "$got" = 1 ] && [ "$(grep -c '^FAIL' "$log")" = 1 ] &&
	grep -q '^FAIL layers: .*allows tools/frec-decode/raw.c to call up' "$log" && rc=0
echo "exit $got; want exit 1 and one FAIL line, the up line's" >> "$log"
result layers-self $rc "$log"

# sparse and W=1 on a fresh copy, so that every file is compiled, for
# every stock kernel: frec (and KUnit, where the kernel has it), then the
# samples against its Module.symvers, in build/lint/stock-NAME: its own
# tree, for check.sh runs lint beside the guests, which boot the build
# part's modules (build/stock-NAME).  The arm64 kernels
# (FREC_ARM64_KERNELS) are cross-built the same way.
# arm64's own headers give sparse one false warning, kept out: "cast
# truncates bits from constant value" in asm/cmpxchg.h and asm/percpu.h,
# where their size-switch macros cast a 32-bit constant to every size,
# the branches the size rules out included (sparse 0.6.4 checks them all;
# the kernel's own C=2 build of arm64 prints them too).
arm64_sparse_noise='/arch/arm64/include/asm/(cmpxchg|percpu)\.h:[0-9]+:[0-9]+: warning: cast truncates bits from constant value'
for n in $FREC_STOCK_KERNELS $FREC_ARM64_KERNELS; do
	out=$FREC_BUILD/lint/stock-$n
	log=$logdir/sparse-w1-stock-$n.log
	rm -rf "$out"
	if kdir=$(stock_kdir "$n" 2> "$log") &&
		"$FREC_ROOT/scripts/build-modules.sh" -W "$kdir" "$out" >> "$log" 2>&1; then
		rc=0
	else
		rc=1
	fi
	[ -f "$out/build.log" ] && cat "$out/build.log" >> "$log"
	grep -E '(warning|error):' "$log" | grep -v 'Skipping BTF' |
		grep -vE "$arm64_sparse_noise" > /dev/null && rc=1
	result "sparse-w1-stock-$n" $rc "$log"
done

# kmod's calls go down its layers only, with no circle (kmod/layers.map,
# doc/design.md "Layers"), on the objects of the first kernel's build.
n=${FREC_STOCK_KERNELS%% *}
log=$logdir/layers-kmod.log
"$FREC_ROOT/scripts/layers.sh" -m kmod/layers.map kmod "$FREC_BUILD/lint/stock-$n/src/kmod" > "$log" 2>&1
result layers-kmod $? "$log"
exit $failed
