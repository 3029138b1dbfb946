#!/bin/sh
# description: frec_null_blk under fio with its ring persisted in the black box region: the request span's histogram counts requests while fio runs; sysrq-b in the middle of fio; the next boot's previous/dump ends with the requests in flight at the reset (spans begun, never ended: at least one, at most fio's 64 outstanding, each a request's begin with its tag), and frec-decode of previous/raw lists the same; make demo shows both
# kernels: 6.12
# can-run: 6.1 6.12 6.12-rt
# boot: twice
# cmdline: memmap=2M$0x20000000
# timeout: 300
#
# 2 MiB of region: the null_blk ring is 256 KiB a CPU.  fio's load is
# make bench's (iodepth 32, two jobs), but the hrtimer completes a
# request after 10 ms, not 50 us: fio under TCG takes tens of us to issue
# a request, so with 50 us requests spent most of their time in fio, and
# a first run on 6.1 found none in flight at the reset; with 1 ms runs of
# 2026-11-29 found 4 and 40 on 6.1, and 1 on 6.12.  With 10 ms a request
# waits in the driver far longer than fio takes to issue the next.  The
# reset comes 2 s after the first request ends, in a 120 s run.
. /frec/guest/lib.sh
. /frec/run.conf
NB_COMPLETION_NS=10000000
. /frec/guest/nullblk.sh
R=2M@0x20000000
H=/tmp/hist

case $FREC_PHASE in
1)
	frec_load region="$R" persist_rings=null_blk
	nb_load frec
	echo 0 > $FREC_DEBUGFS/hist || fail "reset hist"
	[ -x /host/usr/bin/fio ] || fail "no fio on the host (scripts/install-deps.sh installs it)"
	$NB_LD --library-path $NB_LIB /host/usr/bin/fio --name=randread --filename=/dev/nullb0 \
		--rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=32 --numjobs=2 \
		--thread --group_reporting --time_based --runtime=120 --norandommap \
		--output=/tmp/fio.log > /dev/null 2>&1 &
	fio=$!
	# fio starts slowly under TCG (the host's, over 9p): the reset comes
	# 2 s after the span's histogram counts its first request.
	i=0
	until nb_frec_hist | awk '$1 == "sum" && $4 > 0 { ok = 1 } END { exit !ok }'; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "the span's histogram counted no request in 60 s"
		kill -0 $fio 2>/dev/null || { cat /tmp/fio.log; fail "fio did not run"; }
		sleep 0.1
	done
	sleep 2
	grep -A 40 '^hist .*\[frec_null_blk\]' $FREC_DEBUGFS/hist | awk 'NR > 1 && /^hist / { exit } { print }' > $H
	echo "# frec/hist, the request span, 2 s into fio's requests:"
	sed 's/^/#   /' $H
	echo "# sysrq-b, fio running"
	frec_blackbox_sysrq_b
	;;
2)
	frec_load region="$R"
	info=$FREC_DEBUGFS/previous/info
	grep -q '^ring: null_blk, ' $info || { cat $info; fail "no null_blk ring in the previous boot's region"; }
	grep -q '^end: no end marked (a reset or a hang)$' $info || { cat $info; fail "the previous boot did not end by a reset"; }
	grep '^records recovered: ' $info | sed 's/^/# /'
	cat $FREC_DEBUGFS/previous/dump > /tmp/pdump || fail "cat previous/dump"
	head=$(grep '^# in flight at the end ' /tmp/pdump) || fail "previous/dump lists no spans in flight"
	echo "$head"
	n=$(echo "$head" | sed -n 's/.*: \([0-9]*\) of [0-9]* spans begun never ended.*/\1/p')
	[ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 64 ] ||
		fail "$n requests in flight at the reset: fio had 1 to 64 outstanding"
	[ "$(grep -c '^# in flight span=' /tmp/pdump)" -eq "$n" ] || fail "the header counts $n, the list differs"
	if grep '^# in flight span=' /tmp/pdump | grep -v ' null_blk: .* > rq tag [0-9]* op 0 sector '; then
		fail "a span in flight is not a read request's begin"
	fi
	# The list and frec-decode's come from the same code (frec_inflight.c):
	# check it against the dump's own records.  Each listed span's begin
	# is a record of the dump, and no end in the dump names it.  From a
	# file, not a pipe: fail must leave the test, not a subshell.
	grep '^# in flight span=' /tmp/pdump > /tmp/ifl
	while read -r line; do
		s=$(echo "$line" | sed 's/^# in flight span=\([0-9]*\/[0-9]*\) .*/\1/')
		grep -qFx "$(echo "$line" | sed 's/^# in flight span=[^:]*: //')" /tmp/pdump ||
			fail "span=$s: its begin is not a record of the dump"
		grep -q " span=$s\$" /tmp/pdump && fail "span=$s is listed in flight, but its end is in the dump"
	done < /tmp/ifl
	grep '^# in flight span=' /tmp/pdump | head -n 8
	[ "$n" -le 8 ] || echo "# ... $((n - 8)) more"
	cat $FREC_DEBUGFS/previous/raw > /tmp/raw
	frec_decode /tmp/raw > /tmp/decoded 2> /tmp/decode.err || { cat /tmp/decode.err; fail "frec-decode failed"; }
	grep '^# in flight' /tmp/pdump > /tmp/p.list
	grep '^# in flight' /tmp/decoded > /tmp/d.list
	diff /tmp/p.list /tmp/d.list > /dev/null ||
		{ diff /tmp/p.list /tmp/d.list | head -n 5; fail "frec-decode of previous/raw lists other spans"; }
	echo "# frec-decode of previous/raw lists the same $n"
	frec_unload
	;;
*)	fail "run as a '# boot: twice' test (guest-run.sh)" ;;
esac
