#!/bin/sh
# description: records keep their text and callers when the modules they point into go (own and another module's literals, __initconst/__initdata, init code, long strings, %ps); a dump or formats file opened before the unload reads the same; a module loaded later is never taken for the code that recorded
# kernels: 6.1 6.12-rt debug
. /frec/guest/lib.sh
. /frec/run.conf
frec_reset
frec_load
D=$FREC_DEBUGFS
U=/sys/module/frec_test_user/parameters/record
# A ring of other records first, so that a dump read one byte at a time
# holds test_user's records as copies, not yet formatted, across reads.
insmod "$FREC_MODULES/frec_crash_test.ko" || fail "insmod frec_crash_test.ko"
echo 'record 600' > /sys/module/frec_crash_test/parameters/trigger || fail "record"
insmod "$FREC_MODULES/frec_test_lib.ko" || fail "insmod frec_test_lib.ko"
insmod "$FREC_MODULES/frec_test_user.ko" || fail "insmod frec_test_user.ko"
echo 1 > $U || fail "record from core code"

lines() { grep ' test_user: ' "$1" | sed 's/^[0-9]* \[ *[0-9.]*\] cpu[0-9]* [^ ]* //'; }
cat $D/dump > /tmp/d0 || fail "cat dump"
lines /tmp/d0 > /tmp/l0
cat /tmp/l0 | cut -c1-160
[ "$(wc -l < /tmp/l0)" = 8 ] || fail "want 8 test_user records, got $(wc -l < /tmp/l0)"

# What each record says, right after load (init memory is already freed).
C='frec_test_user_[a-z]*+0x[0-9a-f]*/0x[0-9a-f]* \[frec_test_user\]'
expect() { grep -q "^test_user: $C $1\$" /tmp/l0 || fail "no record \"$1\" with its caller named"; }
expect 'init: own own literal, lib a literal of frec_test_lib'
expect 'init: an __initconst string | an __initdata string'
expect 'init: fn frec_test_user_init \[frec_test_user\]'
expect 'init: site texts in init data 7'
# The same site's texts in control and sites, read from frec's copies.
grep -q ' \[frec_test_user\]frec_test_user_init_site info test_user =r "init: site texts in init data %d"$' $D/control ||
	fail "control lost the texts of a site in init data"
grep -q ' "frec_test_user_init_site" 0x[0-9a-f]* "frec_test_user_init[_a-z]*+0x[0-9a-f]*/0x[0-9a-f]* \[frec_test_user\]" "init: site texts in init data %d"$' $D/sites ||
	fail "sites lost the texts of a site in init data"
expect 'core: own own literal, lib a literal of frec_test_lib'
expect 'core: fn frec_test_user_core \[frec_test_user\] lib frec_test_lib_fn \[frec_test_lib\]'
expect "core: long:$(head -c 35 /dev/zero | tr '\0' x)"
grep -q "^test_user: $C core: long:x*\[\.\.\.\]\$" /tmp/l0 || fail "the 2000-byte string is not cut by the line"
grep '^test_user: frec_test_user_init+' /tmp/l0 | grep -q . || fail "init callers are not named"

# A dump, a formats and a sites file opened now, read after the modules go.
exec 3< $D/dump
dd bs=1 count=1 <&3 > /tmp/first 2>/dev/null
exec 4< $D/formats
exec 5< $D/sites
cat $D/raw > /tmp/raw0
rmmod frec_test_user || fail "rmmod frec_test_user"
rmmod frec_test_lib || fail "rmmod frec_test_lib"
cat <&3 > /tmp/rest
exec 3<&-
cat <&4 > /tmp/formats_early
exec 4<&-
cat <&5 > /tmp/sites_early
exec 5<&-
cat /tmp/first /tmp/rest > /tmp/d1
lines /tmp/d1 > /tmp/l1
diff /tmp/l0 /tmp/l1 || fail "a dump opened before the unload reads other text after it"
grep -q ' "frec_test_user" ".*/frec_test_user.c" "frec_test_user_core" 0x[0-9a-f]* "frec_test_user_core+0x[0-9a-f]*/0x[0-9a-f]* \[frec_test_user\]" "core: fn %ps lib %ps"$' /tmp/sites_early ||
	fail "sites opened before the unload lost a site"
grep -q ' : "a literal of frec_test_lib"$' /tmp/formats_early || fail "formats opened before the unload lost a string"

# After the unloads, and after another module took their place.
cat $D/dump > /tmp/d2
lines /tmp/d2 > /tmp/l2
diff /tmp/l0 /tmp/l2 || fail "records changed when the modules went"
insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 || fail "insmod frec_hanoi.ko"
insmod "$FREC_MODULES/frec_test_lib.ko" || fail "insmod frec_test_lib.ko again"
cat $D/dump > /tmp/d3
lines /tmp/d3 > /tmp/l3
diff /tmp/l0 /tmp/l3 || fail "records changed when other modules loaded"

# The decoder reads the same from raw, sites, formats and kallsyms saved now.
if frec_decode_like_dump; then
	grep -q ' : symbol "frec_test_user_init+' /tmp/dec.formats || fail "formats lists no saved symbol"
fi
rmmod frec_test_lib
rmmod frec_hanoi
frec_reset
