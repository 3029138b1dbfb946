#!/bin/sh
# description: black box on 6.12: region_label= takes a reserve_mem= range, shows frec/previous/info, and refuses a label the command line did not reserve, naming it
# kernels: 6.12 arm64-6.12
# can-run: 6.12 6.12-rt debug
# boot: alone
# cmdline: reserve_mem=1M:4096:frecbox
. /frec/guest/lib.sh
. /frec/run.conf
D=$FREC_DEBUGFS
frec_reset
insmod "$FREC_MODULES/frec.ko" region_label=nosuch 2> /dev/null && fail "region_label=nosuch loaded"
dmesg | grep -q 'region_label=nosuch: no reserve_mem= range' || fail "no log line naming region_label=nosuch"
frec_load region_label=frecbox persist_rings=crash_test
dmesg | grep 'frec: region:' | tail -n 2
grep -q '^previous boot: none found: ' $D/previous/info || { cat $D/previous/info; fail "a fresh range is not 'none found'"; }
cat $D/previous/info
frec_unload
frec_load region_label=frecbox
cat $D/previous/info
grep -q '^end: clean unload$' $D/previous/info || fail "the unloaded load is not the previous one"
grep -q '^ring: ' $D/previous/info && fail "a ring no persist_rings= named"
frec_unload
