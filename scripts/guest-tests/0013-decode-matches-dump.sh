#!/bin/sh
# description: the host's frec-decode turns raw + sites + formats + kallsyms saved in the guest into exactly the text dump, and without kallsyms names every caller that is its site's first caller; JSON parses
# kernels: 6.1 arm64-6.1 arm64-6.12
. /frec/guest/lib.sh
. /frec/run.conf
frec_reset
frec_have_decoder || fail "no $FREC_DECODER: build tools first (make tools)"
frec_load
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_hanoi.ko" disks=5 calls=1 || fail "insmod frec_hanoi.ko"
insmod "$FREC_MODULES/frec_stress.ko" period_us=200 || fail "insmod frec_stress.ko"
sleep 1
rmmod frec_stress || fail "rmmod frec_stress"
cat $D/raw > /tmp/raw || fail "cat raw"
cat $D/formats > /tmp/formats || fail "cat formats"
cat $D/sites > /tmp/sites || fail "cat sites"
cat /proc/kallsyms > /tmp/kallsyms
cat $D/dump > /tmp/dump || fail "cat dump"
frec_decode /tmp/raw --sites /tmp/sites --formats /tmp/formats --kallsyms /tmp/kallsyms > /tmp/decoded
echo "# decoder exit $?; $(grep -vc '^#' /tmp/dump) records in dump, $(wc -c < /tmp/raw) bytes raw"
diff /tmp/dump /tmp/decoded > /tmp/diff || { head -n 20 /tmp/diff; fail "decoded text differs from dump"; }
# For the host's own decoder of another architecture's dump (check.sh:
# the x86_64 frec-decode on the arm64 guest's files).
frec_export /tmp/raw /tmp/sites /tmp/formats /tmp/kallsyms /tmp/dump
# Without kallsyms: Hanoi's records (each site has one caller) read the same.
frec_decode /tmp/raw --sites /tmp/sites --formats /tmp/formats -n 2> /dev/null > /tmp/nokallsyms
grep ' hanoi_' /tmp/dump > /tmp/hanoi_dump
grep ' hanoi_' /tmp/nokallsyms > /tmp/hanoi_nok
[ "$(grep -c . /tmp/hanoi_dump)" -gt 60 ] || fail "too few hanoi records"
diff /tmp/hanoi_dump /tmp/hanoi_nok > /tmp/diff || { head -n 10 /tmp/diff; fail "without kallsyms, hanoi's lines differ from dump"; }
frec_decode /tmp/raw --sites /tmp/sites --formats /tmp/formats --kallsyms /tmp/kallsyms --format=json > /tmp/json ||
	fail "json decode"
head -c 300 /tmp/json; echo
grep -q '"ph"' /tmp/json || fail "no trace events in JSON"
rmmod frec_hanoi
frec_unload
