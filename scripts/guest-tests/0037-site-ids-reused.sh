#!/bin/sh
# description: the ids of a module's call sites are given again once it goes: modules loaded and unloaded more often than the site table holds keep getting ids (listed in control), and records of the modules that went keep their text, in dump and through frec-decode
# kernels: 6.1 debug
. /frec/guest/lib.sh
. /frec/run.conf
frec_reset
# Room for 24 sites: frec_hanoi has 6, frec_test_user 9; ten rounds of
# both take 150 ids.
frec_load sites_max=24
D=$FREC_DEBUGFS
insmod "$FREC_MODULES/frec_test_lib.ko" || fail "insmod frec_test_lib.ko"
i=0
while [ $i -lt 10 ]; do
	i=$((i + 1))
	insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 || fail "round $i: insmod frec_hanoi.ko"
	n=$(grep -c ' \[frec_hanoi\]' $D/control)
	[ "$n" = 6 ] || fail "round $i: control lists $n frec_hanoi sites, want 6 ($(head -n 1 $D/sites))"
	rmmod frec_hanoi || fail "round $i: rmmod frec_hanoi"
	# frec_test_user takes the ids frec_hanoi gave back: its own sites
	# must not be taken for frec_hanoi's by the records frec_hanoi left.
	insmod "$FREC_MODULES/frec_test_user.ko" || fail "round $i: insmod frec_test_user.ko"
	n=$(grep -c ' \[frec_test_user\]' $D/control)
	[ "$n" = 9 ] || fail "round $i: control lists $n frec_test_user sites, want 9 ($(head -n 1 $D/sites))"
	echo 1 > /sys/module/frec_test_user/parameters/record || fail "round $i: record"
	rmmod frec_test_user || fail "round $i: rmmod frec_test_user"
done
head -n 1 $D/sites
head -n 1 $D/sites | grep -q '^# frec sites: [0-9]* registered, 0 refused, room for 24$' ||
	fail "sites were refused"

# Every record of every round still says what it said.
cat $D/dump > /tmp/d
moves=$(grep -c ' hanoi_moves: hanoi_frec+0x[0-9a-f]*/0x[0-9a-f]* \[frec_hanoi\] move disk [1-3] from [ABC] to [ABC]$' /tmp/d)
[ "$moves" = 70 ] || { grep ' hanoi_moves: ' /tmp/d | head -n 5; fail "want 70 moves named right, got $moves"; }
[ "$(grep -c ' hanoi_moves: ' /tmp/d)" = 70 ] || fail "records in hanoi_moves that are not moves"
user=$(grep -c ' test_user: frec_test_user_[a-z_]*+0x[0-9a-f]*/0x[0-9a-f]* \[frec_test_user\] \(init\|core\): ' /tmp/d)
[ "$user" = "$(grep -c ' test_user: ' /tmp/d)" ] || { grep ' test_user: ' /tmp/d | grep -v ' \(init\|core\): ' | head -n 5; fail "test_user records named by other sites"; }
echo "# 70 moves and $user test_user records keep their text"

# The decoder names them alike from raw, formats and sites.
frec_decode_like_dump && echo "# frec-decode prints the same"
rmmod frec_test_lib || fail "rmmod frec_test_lib"
frec_unload
