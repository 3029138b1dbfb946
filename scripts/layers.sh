#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Which file calls which, from the object files' symbols: the circles
# (files that reach each other through their calls) and the floors (a
# file stands one floor above the highest file it calls).
#
#   layers.sh [-m MAP] kmod OBJ_DIR   frec.ko's files, from a build's
#                                     kmod/ (scripts/build-modules.sh's
#                                     OUT_DIR/src/kmod)
#   layers.sh [-m MAP] decode         tools/frec-decode's files, compiled
#                                     here, one object each
#
# A call is a symbol one object leaves undefined (nm -u) and another
# defines: a function called or a table of function pointers taken, by
# name.  Calls inside one file, static inline helpers in headers and calls
# through a pointer a hook table holds are not calls here: a hook table is
# how a lower layer tells a higher one (doc/design.md).
#
# It prints every file with its floor and the files it calls, then each
# circle.  With -m MAP, it also prints every call from a lower layer to a
# higher one and fails on a circle, on an upward call MAP does not allow,
# on an "up" line no call needs any more, and on a file MAP gives no
# layer.  MAP's lines, # starting a comment:
#   LAYER GLOB...             the files LAYER holds; layers lowest first,
#                             a layer's lines one after the other
#   up CALLER CALLEE # why    CALLER may call up into CALLEE, for the
#                             reason the comment gives
# Exit status: 0, 1 on a failure, 2 on misuse (a malformed MAP too).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

map=
while getopts m: opt; do
	case $opt in
	m) map=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: see the header of $0" >&2; exit 2; }
what=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One "SOURCE OBJECT" line per file.
case $what in
kmod)
	[ $# = 2 ] && [ -d "$2" ] || { echo "layers.sh kmod: no object directory ${2:-}" >&2; exit 2; }
	objdir=$(cd "$2" && pwd)
	# frec.ko's objects, as kmod/Kbuild lists them.
	for o in $(sed -n '/^frec-y/,/^[^[:space:]]*$/p' "$FREC_ROOT/kmod/Kbuild" |
		tr ' \t\\' '\n\n\n' | grep '\.o$'); do
		[ -f "$objdir/$o" ] || { echo "layers.sh: $objdir/$o missing: build the modules first" >&2; exit 2; }
		echo "kmod/${o%.o}.c $objdir/$o"
	done > "$tmp/files"
	;;
decode)
	cflags=(-std=gnu11 -D_GNU_SOURCE -I"$FREC_ROOT/tools/frec-decode" -I"$FREC_ROOT/kmod/lib"
		-I"$FREC_ROOT/uapi" -I"$FREC_ROOT/tools/harness")
	printf 'O := /nonexistent\nROOT := ..\ninclude frec-decode/decode.mk\nprint-dec-srcs:\n\t@echo $(DEC_SRCS) frec-decode/main.c\n' \
		> "$tmp/print.mk"
	srcs=$(make -s -C "$FREC_ROOT/tools" -f "$tmp/print.mk" print-dec-srcs)
	for s in $srcs; do
		s=$(cd "$FREC_ROOT/tools" && realpath --relative-to="$FREC_ROOT" "$s")
		o=$tmp/$(echo "$s" | tr / _).o
		cc "${cflags[@]}" -c "$FREC_ROOT/$s" -o "$o" || exit 2
		echo "$s $o"
	done > "$tmp/files"
	;;
*)
	echo "layers.sh: kmod or decode, not $what" >&2
	exit 2
	;;
esac

while read -r src obj; do
	nm --defined-only -g "$obj" | awk -v f="$src" 'NF == 3 { print "def", f, $3 }'
	nm -u "$obj" | awk -v f="$src" '{ print "use", f, $NF }'
done < "$tmp/files" > "$tmp/symbols"

python3 - "$tmp/files" "$tmp/symbols" "$map" "$FREC_ROOT" <<'EOF'
import fnmatch, sys

files_path, symbols_path, map_path, root = sys.argv[1:5]
files = [line.split()[0] for line in open(files_path)]
defs, uses = {}, {f: set() for f in files}
for line in open(symbols_path):
    kind, f, sym = line.split()
    if kind == "def":
        defs[sym] = f
    else:
        uses[f].add(sym)
calls = {f: sorted({defs[s] for s in uses[f] if s in defs and defs[s] != f}) for f in files}

# Circles: Tarjan's strongly connected components.
index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in calls[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        sccs.append(sorted(comp))
sys.setrecursionlimit(10000)
for f in files:
    if f not in index:
        visit(f)
comp_of = {f: i for i, c in enumerate(sccs) for f in c}

# Floors over the circles folded into one node each: Tarjan emits a
# component after every component it calls.
floor = {}
for i, c in enumerate(sccs):
    below = [floor[comp_of[w]] for f in c for w in calls[f] if comp_of[w] != i]
    floor[i] = 1 + max(below, default=0)

for f in sorted(files, key=lambda f: (floor[comp_of[f]], f)):
    print("floor %2d  %-36s -> %s" % (floor[comp_of[f]], f,
          " ".join(c.split("/")[-1] for c in calls[f]) or "-"))
circles = [c for c in sccs if len(c) > 1]
floors = max(floor.values(), default=0)
back = sum(1 for f in files for w in calls[f] if comp_of[w] == comp_of[f])
print("# %d files, %d floors, %d circles (%s), %d calls inside circles"
      % (len(files), floors, len(circles),
         ", ".join("%d files" % len(c) for c in circles) or "none", back))
for c in circles:
    print("circle: " + " ".join(c))

def misuse(msg):
    print("layers.sh: " + msg, file=sys.stderr)
    sys.exit(2)

failed = bool(circles)
if map_path:
    layer, allowed, names = {}, {}, []
    for n, line in enumerate(open(map_path), 1):
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[0] == "up":
            if len(words) != 3 or "#" not in line:
                misuse("%s:%d: want up CALLER CALLEE # why" % (map_path, n))
            allowed[(words[1], words[2])] = n
            continue
        if len(words) < 2:
            misuse("%s:%d: want LAYER GLOB... or up CALLER CALLEE # why" % (map_path, n))
        # A layer's files may take more than one line, one after the other.
        if words[0] in names[:-1]:
            misuse("%s:%d: layer %s named again after another" % (map_path, n, words[0]))
        if not names or names[-1] != words[0]:
            names.append(words[0])
        for f in files:
            if f not in layer and any(fnmatch.fnmatch(f, g) for g in words[1:]):
                layer[f] = len(names) - 1
    for f in files:
        if f not in layer:
            print("FAIL layers: %s has no layer in %s" % (f, map_path))
            failed = True
    up = [(f, w) for f in files for w in calls[f]
          if f in layer and w in layer and layer[w] > layer[f]]
    for f, w in up:
        ok = (f, w) in allowed
        print("%s %s (%s) calls up into %s (%s)" % ("allowed:" if ok else "FAIL layers:",
              f, names[layer[f]], w, names[layer[w]]))
        failed |= not ok
    for (f, w), n in sorted(allowed.items(), key=lambda a: a[1]):
        if (f, w) not in up:
            print("FAIL layers: %s:%d allows %s to call up into %s, which it does not"
                  % (map_path, n, f, w))
            failed = True
    print("# %d calls up, %d of them allowed" % (len(up), sum((f, w) in allowed for f, w in up)))
sys.exit(1 if failed else 0)
EOF
