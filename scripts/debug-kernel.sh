#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build, or reuse from the cache, frec's debug test kernel: Debian's
# linux-source-6.12 (FREC_LINUX_SOURCE_PKG), `make tinyconfig` +
# scripts/debug-kernel.config + `make olddefconfig` (PREEMPT, KUnit,
# lockdep with raw-lock nesting checks, atomic-sleep checks, KASAN,
# ftrace/kprobes/BPF, 9p, pvpanic; all built in).  Only ever booted in
# QEMU, never on this machine.
#
#   debug-kernel.sh [--force] [--print-key] [--source]
#
# The last line of stdout is the O= build directory, usable as KDIR:
#   make -C "$KDIR" M=$PWD modules
# and holding arch/x86/boot/bzImage and Module.symvers.  Progress goes to
# stderr, the full build log to the cache.
#
# Cache: ${FREC_CACHE:-$HOME/.cache/frec}/
#   linux-source-<deb version>/   the tarball, extracted once, shared by keys
#   debug-kernel-<key>/           a finished build (stamp .frec-built)
#   debug-kernel-<key>.log        the log of its last build
# key = first 16 hex digits of sha256(fragment, linux-source version,
# FORMAT).  A build runs in a temporary directory that is renamed into
# place only when complete, so an interrupted build is never reused.
#
#   --print-key  print the key and exit
#   --force      rebuild even if the cache holds this key
#   --source     extract the source if need be, print its directory and
#                exit (scripts/arch-check.sh builds another kernel from it)
#   --cached     exit 0 if the cache holds this key's build, else 1
set -euo pipefail

# Bump when this script changes how the kernel is built.
FORMAT=1

me=$(basename "$0")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
frag=$here/debug-kernel.config
cache=${FREC_CACHE:-$HOME/.cache/frec}
pkg=${FREC_LINUX_SOURCE_PKG:-linux-source-6.12}
tarball=${FREC_LINUX_SOURCE_TARBALL:-/usr/src/$pkg.tar.xz}

die() { echo "$me: $*" >&2; exit 1; }
note() { echo "$me: $*" >&2; }

force=0 print_key=0 source_only=0 cached_only=0
for arg; do
	case $arg in
	--force) force=1 ;;
	--print-key) print_key=1 ;;
	--source) source_only=1 ;;
	--cached) cached_only=1 ;;
	-h|--help) sed -n '3,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
	*) die "unknown option '$arg' (--force, --print-key, --source, --cached)" ;;
	esac
done

[ -r "$frag" ] || die "no config fragment $frag"
ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
[ -n "$ver" ] || die "$pkg is not installed (apt-get install $pkg)"
key=$({ cat "$frag"; printf '\n%s=%s\nformat=%s\n' "$pkg" "$ver" "$FORMAT"; } |
	sha256sum | cut -c1-16)
if [ $print_key = 1 ]; then
	echo "$key"
	exit 0
fi

dir=$cache/debug-kernel-$key
log=$cache/debug-kernel-$key.log
src=$cache/linux-source-$ver

fmt_time() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

report() {
	local d=$1 what=$2 secs
	secs=$(cat "$d/.frec-build-seconds" 2>/dev/null || echo 0)
	note "$what $d"
	note "  release $(cat "$d/include/config/kernel.release"), built in $(fmt_time "$secs")," \
		"bzImage $(($(stat -c %s "$d/arch/x86/boot/bzImage") / 1024)) KiB"
}

if [ $cached_only = 1 ]; then
	[ -f "$dir/.frec-built" ]
	exit
fi
if [ $source_only = 0 ] && [ $force = 0 ] && [ -f "$dir/.frec-built" ]; then
	report "$dir" "reusing"
	echo "$dir"
	exit 0
fi

# The source alone, once extracted, needs no lock: make check's arch part
# asks for it while the debug kernel builds in the background.
if [ $source_only = 1 ] && [ -f "$src/.frec-extracted" ]; then
	echo "$src"
	exit 0
fi

mkdir -p "$cache"
# One build at a time per cache; a second caller waits and then reuses.
exec 9>"$cache/.debug-kernel.lock"
if ! flock -n 9; then
	note "waiting for another debug-kernel build in $cache"
	flock 9
fi
if [ $source_only = 0 ] && [ $force = 0 ] && [ -f "$dir/.frec-built" ]; then
	report "$dir" "reusing"
	echo "$dir"
	exit 0
fi
# Under the lock nothing else is building: leftovers were interrupted.
rm -rf "$cache"/.debug-kernel-*.tmp.* "$cache"/.src.*

tmp='' child=''
cleanup() { [ -z "$tmp" ] || rm -rf "$tmp"; }
# On a signal, stop the running make too (it would go on writing to $tmp).
on_signal() {
	[ -z "$child" ] || { kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null || true; }
	note "interrupted; nothing cached"
	exit 130
}
trap cleanup EXIT
trap on_signal INT TERM HUP

# The source, extracted once per linux-source version.
if [ ! -f "$src/.frec-extracted" ]; then
	[ -r "$tarball" ] || die "no $tarball (apt-get install $pkg)"
	note "extracting $tarball"
	rm -rf "$src"
	tmp=$(mktemp -d "$cache/.src.XXXXXX")
	tar -xJf "$tarball" -C "$tmp"
	top=("$tmp"/*)
	if [ ${#top[@]} != 1 ] || [ ! -f "${top[0]}/Makefile" ]; then
		die "unexpected layout of $tarball"
	fi
	touch "${top[0]}/.frec-extracted"
	mv -T "${top[0]}" "$src"
	rm -rf "$tmp"
	tmp=
fi
if [ $source_only = 1 ]; then
	echo "$src"
	exit 0
fi

tmp=$(mktemp -d "$cache/.debug-kernel-$key.tmp.XXXXXX")
: > "$log"
start=$SECONDS

# Run one build step with its output in the log; on failure show the log's end.
step() {
	local what=$1
	shift
	note "$what"
	echo "### $what: $*" >> "$log"
	"$@" >> "$log" 2>&1 &
	child=$!
	if ! wait "$child"; then
		{
			echo "$me: FAILED: $what (full log: $log); last 40 lines:"
			tail -n 40 "$log"
		} >&2
		exit 1
	fi
	child=
}

# Every CONFIG_X=... line of the fragment must survive olddefconfig unchanged
# and every "# CONFIG_X is not set" must stay unset: a silently dropped
# option (unmet dependency) would otherwise give a kernel without it.
check_config() {
	local cfg=$1 line opt got bad=()
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		case $line in
		CONFIG_*=*)
			opt=${line%%=*}
			if ! grep -qxF -- "$line" "$cfg"; then
				got=$(grep -m1 -E "^($opt=|# $opt is not set)" "$cfg" || echo "absent")
				bad+=("$line  (now: $got)")
			fi
			;;
		"# CONFIG_"*" is not set")
			opt=${line#"# "}
			opt=${opt%% *}
			if got=$(grep -m1 "^$opt=" "$cfg"); then
				bad+=("$line  (now: $got)")
			fi
			;;
		esac
	done < "$frag"
	if [ ${#bad[@]} -gt 0 ]; then
		{
			echo "$me: olddefconfig dropped or changed ${#bad[@]} option(s) of $frag"
			echo "(unmet dependencies: add them to the fragment):"
			printf '  %s\n' "${bad[@]}"
		} | tee -a "$log" >&2
		exit 1
	fi
}

k=(make -C "$src" O="$tmp")
step "tinyconfig" "${k[@]}" tinyconfig
step "merging $frag" "$src/scripts/kconfig/merge_config.sh" -m -O "$tmp" "$tmp/.config" "$frag"
step "olddefconfig" "${k[@]}" olddefconfig
check_config "$tmp/.config"
step "building (make -j$(nproc), log in $log)" "${k[@]}" -j"$(nproc)" all
step "modules_prepare" "${k[@]}" modules_prepare
for f in arch/x86/boot/bzImage vmlinux Module.symvers scripts/mod/modpost \
	include/config/kernel.release; do
	[ -e "$tmp/$f" ] || die "build finished without $f (log: $log)"
done

secs=$((SECONDS - start))
echo "$secs" > "$tmp/.frec-build-seconds"
{
	echo "key=$key"
	echo "$pkg=$ver"
	echo "format=$FORMAT"
	echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "seconds=$secs"
} > "$tmp/.frec-built"
echo "### built in $secs s" >> "$log"

rm -rf "$dir"
mv -T "$tmp" "$dir"
tmp=
report "$dir" "built"
echo "$dir"
