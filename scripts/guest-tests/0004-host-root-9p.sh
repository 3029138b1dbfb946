#!/bin/sh
# description: the host root is mounted read-only over 9p at /host for host tools
grep -q ' /host 9p ' /proc/mounts || { echo "FAIL: /host is not a 9p mount"; exit 1; }
[ -x /host/bin/sh ] || { echo "FAIL: /host/bin/sh missing"; exit 1; }
chroot /host /bin/sh -c 'echo chroot-ok' | grep -q chroot-ok ||
	{ echo "FAIL: cannot run a host binary with chroot /host"; exit 1; }
touch /host/tmp/.frec-ro-probe 2>/dev/null && { echo "FAIL: /host is writable"; exit 1; }
exit 0
