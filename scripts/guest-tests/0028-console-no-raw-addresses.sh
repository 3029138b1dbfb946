#!/bin/sh
# description: the console dump prints addresses as printk's %p does (hashed): %p, %pK, an unsupported %pI4 and a caller that names nothing never show the raw address there, while the root-only dump file shows it
# kernels: 6.1 6.12
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_test_lib.ko" || fail "insmod frec_test_lib.ko"
insmod "$FREC_MODULES/frec_test_user.ko" || fail "insmod frec_test_user.ko"
echo 1 > /sys/module/frec_test_user/parameters/record_pointers || fail "record_pointers"
grep -E 'pointers|names nothing' $D/dump
# The raw address, as the dump file's %px prints it.
raw=$(sed -n 's/.* pointers p=.* px=0x\([0-9a-f]*\) .*/\1/p' $D/dump)
[ ${#raw} = 16 ] || fail "no raw address in the dump: '$raw'"
grep -q "pointers p=0x$raw pK=0x$raw px=0x$raw ip=\[%pI4:0x$raw\] end" $D/dump ||
	fail "the dump file should print the address raw"
# The caller that names nothing, raw in the dump file.
craw=$(sed -n 's/.*: 0x\([0-9a-f]*\) a caller that names nothing$/\1/p' $D/dump)
[ ${#craw} = 16 ] || fail "the dump file should print the unnamed caller raw: '$craw'"
echo test_user > $D/oops_rings
dmesg -c > /dev/null
echo 1 > $D/dump_to_console || fail "dump_to_console"
frec_klog > /tmp/klog
frec_console_block < /tmp/klog > /tmp/block || fail "no console block"
# What judge.sh checks: the console itself got these lines, hashed.
frec_console_expect_last /tmp/klog
cat /tmp/block
grep -q ' pointers p=.* end$' /tmp/block || fail "no pointers record on the console"
# %px prints the address, as printk's %px does; nothing else may.
sed 's/ px=0x[0-9a-f]* / px=X /' /tmp/block > /tmp/block.nopx
grep -i -e "$raw" -e "$craw" /tmp/block.nopx && fail "a raw address reached the console"
# What printk's %p prints for it, there in its place.
line=$(grep ' pointers p=' /tmp/block.nopx)
p=$(echo "$line" | sed -n 's/.* p=\([^ ]*\) .*/\1/p')
echo "$line" | grep -q " ip=\[%pI4:$p\] end$" || fail "%pI4's value is not printed as %p: $line"
# The unnamed caller as %p prints an address: hashed (16 hex digits), or
# "(____ptrval____)" as %p of the heap address above before the hash key
# is ready early in a boot.
c=$(sed -n 's/.*: \([^ ]*\) a caller that names nothing$/\1/p' /tmp/block.nopx)
{ [ "$c" = "$p" ] && [ "$p" = "(____ptrval____)" ] || echo "$c" | grep -qx '[0-9a-f]\{16\}'; } &&
	[ "$c" != "$craw" ] ||
	fail "the unnamed caller is not printed as %p: $(grep 'names nothing' /tmp/block.nopx)"
echo > $D/oops_rings
frec_reset
