#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DKMS POST_BUILD (dkms.conf): run in the build directory after frec.ko
# was built for one kernel.  Keeps what a client driver builds against,
# the build's Module.symvers and include/frec.h, in DEST, DKMS's own
# directory for that kernel (/var/lib/dkms/frec/VERSION/KVER/ARCH).
set -e
dest=${1:?usage: dkms-post-build.sh DEST}
mkdir -p "$dest/include"
cp Module.symvers "$dest/Module.symvers"
cp include/frec.h "$dest/include/frec.h"
