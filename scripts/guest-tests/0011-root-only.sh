#!/bin/sh
# description: an unprivileged user can read and write none of frec's files, even with debugfs opened up
# kernels: 6.1 6.12
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
mkdir -p /etc
echo 'root:x:0:0:root:/:/bin/sh' > /etc/passwd
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
echo 'root:x:0:' > /etc/group
echo 'nobody:x:65534:' >> /etc/group
# The initramfs root comes from mktemp -d (0700): let nobody run a shell.
chmod 755 / /bin /sys/kernel/debug
n=0
for f in $(find $D -type f); do
	n=$((n + 1))
	su -s /bin/sh nobody -c "cat $f" > /dev/null 2>&1 && fail "nobody read $f"
	su -s /bin/sh nobody -c "echo 1 > $f" > /dev/null 2>&1 && fail "nobody wrote $f"
done
su -s /bin/sh nobody -c "id" | grep -q 'uid=65534' || fail "su to nobody does not work here"
echo "# $n files refused to nobody"
[ $n -ge 13 ] || fail "only $n files (7 top-level, 6 of the default ring)"
chmod 700 /sys/kernel/debug
frec_unload
