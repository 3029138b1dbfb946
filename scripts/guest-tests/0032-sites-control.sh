#!/bin/sh
# description: call sites: control lists every site from module load; every selector (module file func line format ring) picks the sites it should, bad commands are refused naming the word and change nothing; a site switched off stores nothing, level= moves it; sites keep their text when their module goes; a site the load did not find registers on first use; a full site table still stores every record (sites_max)
# kernels: 6.1 6.12 debug
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
C=$D/control
U=/sys/module/frec_test_user/parameters
insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 || fail "insmod frec_hanoi.ko"
insmod "$FREC_MODULES/frec_test_lib.ko" || fail "insmod frec_test_lib.ko"
insmod "$FREC_MODULES/frec_test_user.ko" || fail "insmod frec_test_user.ko"

# Every site is listed from load, before it ran: 6 in frec_hanoi, 9 in
# frec_test_user (8 by the macros; one written by hand registered on its
# first use, in init; another registers on first use, below).
cat $C > /tmp/c0 || fail "cat control"
head -n 4 /tmp/c0
[ "$(grep -c ' \[frec_hanoi\]' /tmp/c0)" = 6 ] || fail "want 6 frec_hanoi sites listed"
[ "$(grep -c ' \[frec_test_user\]' /tmp/c0)" = 9 ] || fail "want 9 frec_test_user sites listed"
grep -q '/frec_hanoi.c:52 \[frec_hanoi\]hanoi_frec info hanoi_moves =r "move disk %u from %s to %s"$' /tmp/c0 ||
	fail "the move site's line is not as documented"
# A debug site the ring filtered has stored nothing: no ring yet.
grep -q '/frec_hanoi.c:48 \[frec_hanoi\]hanoi_frec debug - =r "> hanoi n=%u %s->%s"$' /tmp/c0 ||
	fail "the debug site's line is not as documented"

off() { grep -c ' =_ ' $C; }
# query, then the number of sites it selects
while read -r want q; do
	echo "$q -r" > $C || fail "control refused '$q -r'"
	got=$(off)
	[ "$got" = "$want" ] || fail "'$q' selected $got sites, want $want"
	echo '=r' > $C || fail "control refused '=r'"
	[ "$(off)" = 0 ] || fail "'=r' left sites off after '$q'"
done <<'EOF'
6 module frec_hanoi
6 module frec_h*
6 file frec_hanoi.c
9 file */samples/frec_test_user.c
3 func hanoi_frec
4 func frec_test_user_core
3 module frec_hanoi line 48-55
3 module frec_hanoi line 114-
4 module frec_test_user line -42
1 line 52
1 format "move disk"
4 format "init: "
1 format "n=%u %s->%s"
1 format "core: %s"
1 ring hanoi_moves
4 ring test_user
0 ring hanoi_calls
1 module frec_hanoi func hanoi_frec line 52
0 module nosuch
15
EOF
echo "# every selector picked what it should"

# Bad commands: refused, the word named in the log, nothing changed.
# The log is rate-limited to 10 lines in 5 s: a pause half-way.
dmesg -c > /dev/null
i=0
while read -r word q; do
	i=$((i + 1))
	[ $i = 7 ] && sleep 6
	echo "$q" > $C 2> /dev/null && fail "control accepted '$q'"
	cat $C | cmp -s - /tmp/c0 || fail "'$q' changed the sites"
	dmesg | grep -qF "refused \"$word" || { dmesg | tail -n 3; fail "'$q': the log does not name '$word'"; }
done <<'EOF'
fnc fnc hanoi_frec -r
func func
func func hanoi_frec
x line x -r
9-3 line 9-3 -r
level=loud func hanoi_frec level=loud
+x func hanoi_frec +x
format format "unclosed -r
module module a module b -r
+r -r +r
fnc module frec_hanoi -r; fnc x -r
EOF
i=0; q=
while [ $i -lt 17 ]; do q="$q;=r"; i=$((i + 1)); done
echo "$q" > $C 2> /dev/null && fail "control accepted 17 commands"
echo "# bad commands refused, naming the word"

# A site switched off stores nothing; level= takes its records at
# another level.
core() { grep -c ' test_user: .* core: ' $D/dump; }
n0=$(core)
echo 'func frec_test_user_core -r' > $C || fail "core -r"
echo 1 > $U/record || fail "record"
[ "$(core)" = "$n0" ] || fail "a site switched off stored a record"
echo 'func frec_test_user_core +r' > $C || fail "core +r"
echo 1 > $U/record || fail "record"
[ "$(core)" = $((n0 + 4)) ] || fail "the sites switched on again stored $(($(core) - n0)), want 4"
echo 'func frec_test_user_core level=trace' > $C || fail "level=trace"
[ "$(grep -c 'frec_test_user_core trace test_user =r ' $C)" = 4 ] || fail "control does not show level trace"
echo 1 > $U/record || fail "record"
[ "$(core)" = $((n0 + 4)) ] || fail "trace records stored in a ring at info"
echo trace > $D/rings/test_user/level || fail "ring level trace"
echo 1 > $U/record || fail "record"
[ "$(core)" = $((n0 + 8)) ] || fail "trace records not stored in a ring at trace"
echo "# a site off stores nothing; level= moves it"

# A site the load did not find registers on its first record, once.
echo 1 > $U/record_pointers || fail "record_pointers"
echo 1 > $U/record_pointers || fail "record_pointers"
[ "$(grep -c '"a caller that names nothing"$' $D/sites)" = 1 ] || fail "the hand-written site is not listed once in sites"
grep -q '/frec_test_user.c:[0-9]* \[frec_test_user\]frec_test_user_pointers info test_user =r "a caller that names nothing"$' $C ||
	fail "the hand-written site is not in control"

# Sites outlive their module: control forgets them, sites and the dump keep them.
grep '"frec_hanoi"' $D/sites > /tmp/s0
[ "$(wc -l < /tmp/s0)" = 6 ] || fail "sites lists $(wc -l < /tmp/s0) frec_hanoi sites, want 6"
grep -q ' info 52 "frec_hanoi" ".*/frec_hanoi.c" "hanoi_frec" 0x[0-9a-f]* "hanoi_frec+0x[0-9a-f]*/0x[0-9a-f]* \[frec_hanoi\]" "move disk %u from %s to %s"$' /tmp/s0 ||
	fail "the move site's sites line is not as documented"
grep ' hanoi_moves: ' $D/dump > /tmp/m0
rmmod frec_hanoi || fail "rmmod frec_hanoi"
grep -q '\[frec_hanoi\]' $C && fail "control still lists frec_hanoi's sites"
grep '"frec_hanoi"' $D/sites | cmp -s - /tmp/s0 || fail "frec_hanoi's sites changed when it went"
grep ' hanoi_moves: ' $D/dump | cmp -s - /tmp/m0 || fail "frec_hanoi's records changed when it went"
[ "$(wc -l < /tmp/m0)" = 7 ] || fail "want 7 moves, got $(wc -l < /tmp/m0)"
echo "# sites and records kept their text after rmmod"
rmmod frec_test_user || fail "rmmod frec_test_user"
rmmod frec_test_lib || fail "rmmod frec_test_lib"
frec_unload

# A full table: later sites record format addresses; nothing is lost.
for bad in 0 16777216; do
	insmod "$FREC_MODULES/frec.ko" sites_max=$bad 2> /dev/null && fail "sites_max=$bad accepted"
	dmesg | grep -q "sites_max=$bad: must be" || fail "sites_max=$bad refused without naming it"
done
frec_load sites_max=4
insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 || fail "insmod frec_hanoi.ko"
head -n 1 $D/sites
head -n 1 $D/sites | grep -q '^# frec sites: 4 registered, 2 refused, room for 4$' || fail "the refused sites are not counted"
[ "$(grep -c ' hanoi_moves: hanoi_frec+0x[0-9a-f]*/0x[0-9a-f]* \[frec_hanoi\] move disk [1-3] from [ABC] to [ABC]$' $D/dump)" = 7 ] ||
	fail "records of a full table lost their text"
grep ' hanoi_timing: ' $D/dump > /tmp/t0
cat /tmp/t0
[ "$(wc -l < /tmp/t0)" = 3 ] || fail "frec_printk records lost with a full table"
rmmod frec_hanoi || fail "rmmod frec_hanoi"
# Records of sites without an id, arguments or text, keep their format.
grep ' hanoi_timing: ' $D/dump | cmp -s - /tmp/t0 || {
	grep ' hanoi_timing: ' $D/dump
	fail "frec_printk records of sites without an id changed when their module went"
}
frec_unload
