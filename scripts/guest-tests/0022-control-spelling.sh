#!/bin/sh
# description: control files take each value in one spelling (what cat shows writes back), level names work, refusals are logged, oops_records has one range, oops_rings may name rings not created yet
# kernels: 6.1
. /frec/guest/lib.sh
frec_reset
# A ring list for the console dump names rings before their drivers load.
frec_load oops_rings=hanoi_moves,not_yet_created
D=$FREC_DEBUGFS
[ "$(cat $D/oops_rings)" = 'hanoi_moves,not_yet_created' ] ||
	fail "oops_rings reads '$(cat $D/oops_rings)'"
echo 'some_future_ring,hanoi_*' > $D/oops_rings || fail "oops_rings refused a ring not created yet"
insmod "$FREC_MODULES/frec_hanoi.ko" disks=3 calls=1 || fail "insmod frec_hanoi.ko"
R=$D/rings/hanoi_moves
cat $D/dump > /tmp/before

# refused FILE PRINTF-FORMAT: one write() of those bytes must fail.
refused() {
	f=$1
	shift
	before=$(cat "$f" 2>/dev/null)
	if printf "$@" > "$f" 2>/dev/null; then
		fail "$f took $(printf "$@" | od -An -c | tr -s ' ')"
	fi
	[ "$(cat "$f" 2>/dev/null)" = "$before" ] || fail "a refused write changed $f"
}

# Levels: every name, and every number as its name.
for name in err warn info debug trace; do
	echo $name > $R/level || fail "level refused '$name'"
	[ "$(cat $R/level)" = $name ] || fail "level $name reads back as $(cat $R/level)"
	cat $R/level > $R/level || fail "level $name does not write back"
done
n=0
for name in err warn info debug trace; do
	n=$((n + 1))
	echo $n > $R/level || fail "level refused $n"
	[ "$(cat $R/level)" = $name ] || fail "level $n reads back as $(cat $R/level)"
done
echo info > $R/level
for bad in '0' '6' '+3' '03' 'Debug' 'debug ' ' info' 'info\n\n' 'info\000'; do
	refused $R/level "$bad"
done

# Booleans: "0" or "1", one newline at most.
for f in $D/enable $R/enable; do
	for bad in '1\000' '+1' '01' '1\n\n' '1 ' 'y' '2' '\n' '1\n0'; do
		refused $f "$bad"
	done
	printf 1 > $f || fail "$f refused 1 without a newline"
	cat $f > $f || fail "$f does not write back"
done
for f in $D/clear $R/clear $D/dump_to_console; do
	for bad in '1\000' '+1' '01' '1\n\n' '0'; do
		refused $f "$bad"
	done
done
# A refused 0 is logged with the file and the value, as every refusal is
# (past the log's rate limit of the refusals above: 5 s).
sleep 5
dmesg -c > /dev/null
for name in clear dump_to_console; do
	refused $D/$name '0'
	frec_klog | grep -q "frec/$name: refused \"0\": " ||
		fail "no log line for 0 written to $name: $(frec_klog | tail -n 2)"
done

# Numbers: plain decimal only.
size=$(cat $R/size)
for bad in "+$size" "0$size" "$size\n\n" '0x1000' " $size" "$size\000" '-4096' \
	'18446744073709551616' '99999999999999999999999'; do
	refused $R/size "$bad"
done
for bad in '0' '1048577' '4294967296' '+5' '05' '5\000'; do
	refused $D/oops_records "$bad"
done
echo 7 > $D/oops_records || fail "oops_records refused 7"
cat $D/oops_records > $D/oops_records || fail "oops_records does not write back"

# The module parameter takes the range the debugfs file takes.
P=/sys/module/frec/parameters/oops_records
for bad in 0 1048577 4294967295; do
	if echo $bad > $P 2>/dev/null; then fail "parameter oops_records took $bad"; fi
done
[ "$(cat $P)" = 7 ] || fail "parameter oops_records is $(cat $P), want 7"
echo 1048576 > $P || fail "parameter oops_records refused 1048576"
[ "$(cat $D/oops_records)" = 1048576 ] || fail "debugfs oops_records is $(cat $D/oops_records)"
echo 64 > $P

# Filters: what cat shows writes back, even the longest one taken.
text=$(head -c 1000 /dev/zero | tr '\0' x)
for line in "seq=5 text=$text" "time=1 text=$text" "seq=1-2 cpu=0 ring=hanoi_* text=$text" \
	"time=1-2 seq=3 text=$(head -c 980 /dev/zero | tr '\0' y)"; do
	if echo "$line" > $D/filter 2>/dev/null; then
		shown=$(cat $D/filter)
		cat $D/filter > $D/filter || fail "filter '${shown%%text=*}text=...' ($(echo "$shown" | wc -c) bytes) does not write back"
		[ "$(cat $D/filter)" = "$shown" ] || fail "filter changed when written back"
	fi
done
echo 'time=1-' > $D/filter
refused $D/filter 'seq=1\000'
refused $D/filter 'seq=1\n\n'
refused $D/filter 'seq=1\nseq=2'
echo > $D/filter

# A refusal is logged with the file and the value (rate-limited: the
# writes above may have used up the burst; wait for the next interval).
sleep 5
dmesg -c > /dev/null
refused $R/level 'Debug'
refused $D/enable '+1'
refused $R/size '0x1000'
refused $D/filter 'ring=a/b'
refused $D/oops_rings 'hanoi_*,a/b'
frec_klog | grep -q 'hanoi_moves/level: refused "Debug": want err, warn' || fail "refused level not logged"
frec_klog | grep -q 'frec/enable: refused "+1": want 0 or 1' || fail "refused enable not logged"
frec_klog | grep -q 'hanoi_moves/size: refused "0x1000": not a plain decimal' || fail "refused size not logged"
frec_klog | grep -q "frec/filter: refused \"ring=a/b\": ring=a/b: '/' cannot be in a ring glob" ||
	fail "refused filter not logged with the term at fault"
frec_klog | grep -q "frec/oops_rings: refused \"hanoi_\*,a/b\": hanoi_\*,a/b: '/' cannot be in a ring glob" ||
	fail "refused oops_rings not logged with the glob at fault"

echo info > $R/level
cat $D/dump > /tmp/after
diff /tmp/before /tmp/after || fail "records changed"
# Last: a valid size write resizes, which clears the ring.
cat $R/size > $R/size || fail "size does not write back"
[ "$(cat $R/size)" = "$size" ] || fail "size reads $(cat $R/size) after writing $size"
rmmod frec_hanoi
frec_unload
