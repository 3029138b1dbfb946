#!/bin/sh
# description: frozen names the site that fired after the site's module went and its id was given to a site of another module (frec_hanoi, frec_spans): the file, line, module and function of the site that fired, not of the site that has its id now
# kernels: 6.1 debug
. /frec/guest/lib.sh
frec_reset
frec_load
D=$FREC_DEBUGFS
# frec_test_user (which needs frec_test_lib) records on demand: the
# trigger is armed before its site stores a record.
for m in frec_test_lib frec_test_user; do
	insmod "$FREC_MODULES/$m.ko" || fail "insmod $m.ko"
done
echo 'module frec_test_user func frec_test_user_core freeze' > $D/control || fail "arm freeze"
echo 1 > /sys/module/frec_test_user/parameters/record || fail "record"
cat $D/frozen
id=$(sed -n 's/^fired: site \([0-9]*\) .*/\1/p' $D/frozen)
[ -n "$id" ] || fail "no site fired: $(cat $D/frozen)"
fired=$(sed -n 's/^fired: site [0-9]* //p' $D/frozen)
case $fired in
*frec_test_user.c:*' [frec_test_user]frec_test_user_core') ;;
*) fail "frozen names '$fired', not a site of frec_test_user_core" ;;
esac
rmmod frec_test_user || fail "rmmod frec_test_user"
# Modules loaded later take the ids frec_test_user gave back, its
# site's among them.
for m in "frec_hanoi disks=3" "frec_spans loops=2"; do
	set -- $m
	insmod "$FREC_MODULES/$1.ko" "$2" || fail "insmod $m"
	now=$(awk -v id="$id" '$1 == id { print $4, $5 }' $D/sites)
	case $now in '"frec_test_user"'*|'') ;; *) break ;; esac
done
echo "# site $id fired; its id is now a site of $now"
case $now in '"frec_test_user"'*|'') fail "id $id was not given again: '$now'" ;; esac
cat $D/frozen
grep -qxF "fired: site $id $fired" $D/frozen ||
	fail "frozen names $(grep '^fired:' $D/frozen), not the site that fired: $fired"
echo 0 > $D/frozen || fail "clear frozen"
rmmod frec_spans 2> /dev/null
rmmod frec_hanoi || fail "rmmod frec_hanoi"
rmmod frec_test_lib || fail "rmmod frec_test_lib"
frec_unload
