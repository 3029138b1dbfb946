#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build frec's Debian packages with dpkg-deb, and check them with lintian.
#
#   package.sh [-o OUT_DIR] [-a ARCH]    (default build/deb, this machine's)
#
# -a arm64 cross-builds frec-tools for arm64 on this x86_64 machine
# (gcc-aarch64-linux-gnu, zlib1g-dev:arm64; scripts/install-deps.sh).
#
#   frec-dkms_VERSION_all.deb    the module's sources in
#       /usr/src/frec-VERSION/ (dkms.conf, Kbuild, VERSION, kmod/ without
#       the samples, include/, uapi/); installing it has DKMS build and
#       install frec.ko for every kernel whose headers are installed, and
#       later for each new kernel.  For client drivers, each build leaves
#       /var/lib/dkms/frec/kernel-KVER-ARCH/Module.symvers and
#       /var/lib/dkms/frec/kernel-KVER-ARCH/include/frec.h (dkms.conf):
#         ccflags-y += -I/var/lib/dkms/frec/kernel-$(KERNELRELEASE)-x86_64/include
#         make -C /lib/modules/KVER/build M=$PWD modules \
#           KBUILD_EXTRA_SYMBOLS=/var/lib/dkms/frec/kernel-KVER-x86_64/Module.symvers
#       (frec.h is also in /usr/src/frec-VERSION/include/.)
#   frec-tools_VERSION_ARCH.deb  /usr/bin/frec-decode (tools/frec-decode)
#       and its man page, /usr/bin/frec-crosscheck
#       (scripts/frec-crosscheck.sh) and its man page, /usr/sbin/frec-archive
#       (tools/frec-archive), its man page and frec-archive.service, which
#       systemd-analyze verify checks (PASS package-unit)
#
# VERSION (the top-level file) is the packages' version and the module's
# (MODULE_VERSION); the packages are native (no Debian revision).
# lintian's findings go to OUT_DIR/lintian.log; any tag not justified in
# scripts/lintian.justified fails, and so does a justification no tag
# matches any more.  Prints "PASS package-x" / "FAIL package-x: why" lines.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$FREC_BUILD/deb
arch=$(dpkg --print-architecture)
while getopts o:a: opt; do
	case $opt in
	o) out=$OPTARG ;;
	a) arch=$OPTARG ;;
	*) die "usage: see the header of $0" ;;
	esac
done
# The compiler and binutils' prefix for ARCH, and the dpkg tools' view of
# it (DEB_HOST_ARCH: dpkg-buildflags' flags, dpkg-shlibdeps' library paths).
case $arch in
"$(dpkg --print-architecture)") cross= cc_bin=cc ;;
arm64)	cross=aarch64-linux-gnu- cc_bin=aarch64-linux-gnu-gcc ;;
*)	die "-a $arch: this script builds for $(dpkg --print-architecture) and arm64" ;;
esac
export DEB_HOST_ARCH=$arch
mkdir -p "$out"
out=$(cd "$out" && pwd)
ver=$(cat "$FREC_ROOT/VERSION")
[ -n "$ver" ] || die "VERSION is empty"
maint="frec maintainers <maintainers@users.noreply.a-seed-cacfdc88.example>"
# The packages' date: the last commit's, so that a rebuild is identical.
date=$(git -C "$FREC_ROOT" log -1 --format=%cD 2>/dev/null || date -R)
export SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH=$(git -C "$FREC_ROOT" log -1 --format=%ct 2>/dev/null || date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# doc PKG ROOT: the copyright and changelog every package carries.
doc() {
	local d=$2/usr/share/doc/$1
	install -d "$d"
	cat > "$d/copyright" <<-EOF
	Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
	Upstream-Name: frec
	Source: frec's repository

	Files: *
	Copyright: 2026 the frec authors
	License: GPL-2.0-only
	 This program is free software; you can redistribute it and/or modify it
	 under the terms of the GNU General Public License version 2 as published
	 by the Free Software Foundation.
	 .
	 On Debian systems, the complete text of the GNU General Public License
	 version 2 can be found in /usr/share/common-licenses/GPL-2.
	EOF
	{
		echo "frec ($ver) unstable; urgency=medium"
		echo
		echo "  * Release $ver: see README.md in frec's repository."
		echo
		echo " -- $maint  $date"
	} | gzip -9n > "$d/changelog.gz"
}

# control PKG ROOT ARCH DEPENDS DESCRIPTION...: DEBIAN/control and md5sums
# (with a Suggests: line when $suggests is set).
suggests=
control() {
	local pkg=$1 root=$2 arch=$3 deps=$4 size
	shift 4
	install -d "$root/DEBIAN"
	size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
	{
		echo "Package: $pkg"
		echo "Version: $ver"
		echo "Architecture: $arch"
		echo "Maintainer: $maint"
		echo "Installed-Size: $size"
		[ -n "$deps" ] && echo "Depends: $deps"
		[ -n "$suggests" ] && echo "Suggests: $suggests"
		echo "Section: $([ "$pkg" = frec-dkms ] && echo kernel || echo utils)"
		echo "Priority: optional"
		echo "Homepage: https://frec.invalid/"
		printf 'Description: %s\n' "$1"
		shift
		printf ' %s\n' "$@"
	} > "$root/DEBIAN/control"
	(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z |
		xargs -0r md5sum) > "$root/DEBIAN/md5sums"
}

build_deb() { # ROOT
	local f
	# Owner root, no group or world write, dates from SOURCE_DATE_EPOCH.
	find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	chmod -R go-w "$1"
	f=$out/$(sed -n 's/^Package: //p' "$1/DEBIAN/control")_${ver}_$(sed -n 's/^Architecture: //p' "$1/DEBIAN/control").deb
	dpkg-deb --root-owner-group -Zxz --build "$1" "$f" > /dev/null
	echo "$f"
}

rc=0
# --- frec-dkms
root=$work/frec-dkms
src=$root/usr/src/frec-$ver
install -d "$src/include" "$src/uapi"
install -m 0644 "$FREC_ROOT"/Kbuild "$FREC_ROOT"/VERSION "$src/"
sed "s/@VERSION@/$ver/" "$FREC_ROOT/dkms.conf" > "$src/dkms.conf"
install -m 0755 "$FREC_ROOT/scripts/dkms/dkms-post-build.sh" "$src/"
# kmod/ and its layers' folders (lib/ holds the sources shared with tools/).
for d in kmod kmod/lib kmod/base kmod/blackbox kmod/core kmod/services kmod/debugfs; do
	install -d "$src/$d"
	install -m 0644 "$FREC_ROOT"/$d/*.[ch] "$src/$d/"
	rm -f "$src"/$d/*.mod.c
done
install -m 0644 "$FREC_ROOT/kmod/Kbuild" "$src/kmod/"
install -m 0644 "$FREC_ROOT"/include/*.h "$src/include/"
install -m 0644 "$FREC_ROOT"/uapi/*.h "$src/uapi/"
doc frec-dkms "$root"
install -d "$root/DEBIAN"
for s in postinst prerm; do
	sed "s/@VERSION@/$ver/" "$FREC_ROOT/scripts/dkms/frec-dkms.$s" > "$root/DEBIAN/$s"
	chmod 0755 "$root/DEBIAN/$s"
done
control frec-dkms "$root" all "dkms (>= 3.0)" \
	"printk-style flight recorder kernel module (DKMS source)" \
	"frec is a kernel module that drivers call to record what they do, cheaply" \
	"enough to leave on, so that the last moments before a problem can be read" \
	"afterwards from debugfs, or on the console when the kernel oopses." \
	"." \
	"This package has DKMS build frec.ko for every installed kernel, and" \
	"keeps frec.h and Module.symvers for client drivers in" \
	"/var/lib/dkms/frec/kernel-KVER-ARCH/."
dkms_deb=$(build_deb "$root")

# --- frec-tools
# With Debian's hardening flags (all of them: bindnow too), in a build
# directory of its own.
cc="$cc_bin $(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CPPFLAGS)"
cc="$cc $(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CFLAGS)"
cc="$cc $(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS)"
make -C "$FREC_ROOT/tools" O="$work/tools" CC="$cc" "$work/tools/decode/frec-decode" \
	> "$work/tools.log" 2>&1 || { cat "$work/tools.log" >&2; die "cannot build frec-decode"; }
root=$work/frec-tools
install -d "$root/usr/bin" "$root/usr/sbin" "$root/usr/share/man/man1" "$root/usr/share/man/man8" \
	"$root/lib/systemd/system"
install -m 0755 "$work/tools/decode/frec-decode" "$root/usr/bin/frec-decode"
${cross}strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/frec-decode"
install -m 0755 "$FREC_ROOT/scripts/frec-crosscheck.sh" "$root/usr/bin/frec-crosscheck"
gzip -9n < "$FREC_ROOT/tools/frec-decode/frec-decode.1" > "$root/usr/share/man/man1/frec-decode.1.gz"
gzip -9n < "$FREC_ROOT/scripts/frec-crosscheck.1" > "$root/usr/share/man/man1/frec-crosscheck.1.gz"
install -m 0755 "$FREC_ROOT/tools/frec-archive/frec-archive" "$root/usr/sbin/frec-archive"
gzip -9n < "$FREC_ROOT/tools/frec-archive/frec-archive.8" > "$root/usr/share/man/man8/frec-archive.8.gz"
install -m 0644 "$FREC_ROOT/tools/frec-archive/frec-archive.service" "$root/lib/systemd/system/"
doc frec-tools "$root"
# The shared libraries frec-decode needs, as Debian names them.
install -d "$work/shlibs/debian"
printf 'Source: frec\n\nPackage: frec-tools\nArchitecture: any\n' > "$work/shlibs/debian/control"
shlibs=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$root/usr/bin/frec-decode" 2> "$work/shlibs.log" |
	sed -n 's/^shlibs:Depends=//p') || true
[ -n "$shlibs" ] || { cat "$work/shlibs.log" >&2; die "dpkg-shlibdeps failed"; }
# makedumpfile: frec-archive turns a flattened kdump back into a file
# frec-decode --vmcore reads (makedumpfile -R); trace-cmd and kernelshark
# read frec-decode's trace.dat.
suggests="makedumpfile, trace-cmd, kernelshark"
control frec-tools "$root" "$arch" "$shlibs" \
	"printk-style flight recorder: decoder and cross-check tools" \
	"frec is a kernel module that drivers call to record what they do, cheaply" \
	"enough to leave on, so that the last moments before a problem can be read" \
	"afterwards." \
	"." \
	"frec-decode turns frec's raw dump, saved from debugfs, into the same text" \
	"as the kernel's dump, Chrome trace-event JSON (Perfetto), CSV or" \
	"trace-cmd's trace.dat; it reads a black box region and a kdump vmcore too." \
	"frec-crosscheck runs a workload and checks that frec's dump, ftrace's" \
	"trace of frec's tracepoints and bpftrace's counts agree." \
	"frec-archive, run at boot by frec-archive.service, keeps the previous" \
	"boot's black box records on disk."

# --- frec-archive.service as installed: systemd-analyze verify in a root
# of the package's files and this machine's units (it checks ExecStart=
# and Documentation= there); any line it prints fails, as an unknown key
# or a bad value only warns.
vroot=$work/verify
cp -a "$root" "$vroot"
install -d "$vroot/usr/lib/systemd"
cp -r /lib/systemd/system "$vroot/usr/lib/systemd/"
unit=$vroot/lib/systemd/system/frec-archive.service
if MANPATH=$vroot/usr/share/man systemd-analyze verify --root="$vroot" "$unit" > "$out/unit.log" 2>&1 &&
	[ ! -s "$out/unit.log" ]; then
	echo "PASS package-unit"
else
	echo "FAIL package-unit: systemd-analyze verify frec-archive.service (see $out/unit.log)"
	rc=1
fi
rm -rf "$vroot"
tools_deb=$(build_deb "$root")
echo "PASS package-build: $(basename "$dkms_deb") $(basename "$tools_deb") (in $out)"

# --- lintian, each remaining tag justified in scripts/lintian.justified
log=$out/lintian.log
lintian --tag-display-limit 0 --display-info --pedantic "$dkms_deb" "$tools_deb" > "$log" 2>&1 || true
justified=$FREC_ROOT/scripts/lintian.justified
bad=0
while IFS= read -r line; do
	# "X: pkg [arch]: tag [context]": pkg and tag
	pkg=$(sed -E 's/^[A-Z]: ([^ :]+).*/\1/' <<< "$line")
	tag=$(sed -E 's/^[A-Z]: [^:]+: ([^ ]+).*/\1/' <<< "$line")
	grep -q "^$pkg $tag:" "$justified" || { echo "unjustified: $line" >> "$log"; bad=1; }
done < <(grep -E '^[EWIPX]: ' "$log")
while read -r pkg tag _; do
	grep -qE "^[EWIPX]: $pkg( \[[^]]*\])?: ${tag%:}( |$)" "$log" ||
		{ echo "stale justification: $pkg $tag" >> "$log"; bad=1; }
done < <(grep -v '^#' "$justified" | grep .)
if [ $bad = 0 ]; then
	echo "PASS package-lintian"
else
	echo "FAIL package-lintian: unjustified or stale tags (see $log)"
	rc=1
fi
exit $rc
