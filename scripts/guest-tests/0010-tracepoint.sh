#!/bin/sh
# description: ftrace's frec:frec_record and frec:frec_printk events show exactly the records frec keeps, same (seq, ring, CPU), the record's name, and caller
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
T=/sys/kernel/tracing
[ -d $T/events/frec ] || fail "no events/frec in tracefs"
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/frec/enable || fail "enable events/frec"
echo 1 > $T/tracing_on
insmod "$FREC_MODULES/frec_hanoi.ko" disks=5 calls=1 || fail "insmod frec_hanoi.ko"
echo 0 > $T/tracing_on
echo 0 > $T/events/frec/enable
grep -v '^#' $T/trace | head -n 3
# seq ring cpu caller, from both sides.
grep -v '^#' $T/trace | sed -nE 's/.* frec_(record|printk): ring=([^ ]*) seq=([0-9]*) cpu=([0-9]*) caller=([^ ]*) .*/\3 \2 cpu\4 \5/p' |
	sort -n > /tmp/ftrace
grep -v '^#' $D/dump | sed -E 's/^([0-9]+) \[ *[0-9.]+\] (cpu[0-9]+) [^ ]+ ([^:]+): ([^ ]+) .*/\1 \3 \2 \4/' |
	sort -n > /tmp/frec
[ "$(wc -l < /tmp/frec)" = 96 ] || fail "frec holds $(wc -l < /tmp/frec) records, want 31 moves + 62 calls + 3 timing"
# ftrace names a caller when its trace is read: by then the sample's init
# code is freed and it prints the address; frec named it when the init
# memory went.  Those callers must be the init function in frec.
# A record is named by (seq, ring, CPU): each CPU numbers its records of a ring.
awk 'NR == FNR { if ($4 ~ /^0x/) gone[$1 " " $2 " " $3] = 1; next }
	($1 " " $2 " " $3) in gone { if ($4 !~ /^frec_hanoi_init\+/) { print "caller of " $1 " " $2 " " $3 ": " $4; exit 1 } $4 = "(init)" }
	{ print }' /tmp/ftrace /tmp/frec > /tmp/frec.cmp || fail "an init caller is not named"
awk '$4 ~ /^0x/ { $4 = "(init)" } { print }' /tmp/ftrace > /tmp/ftrace.cmp
echo "# $(grep -c '(init)' /tmp/ftrace.cmp) callers in freed init code, named by frec"
diff /tmp/frec.cmp /tmp/ftrace.cmp || fail "ftrace and frec disagree"
echo "# $(wc -l < /tmp/ftrace) records agree"
rmmod frec_hanoi
frec_unload
