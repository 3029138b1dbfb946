#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn a QEMU serial console log into one KTAP document for
#   tools/testing/kunit/kunit.py parse OUT.ktap
#
#   ktap-extract.sh LOG > OUT.ktap        (LOG "-" or none: stdin)
#
# What KUnit 6.1 prints when a test module is insmodded (each line may carry
# a "[    1.234567] " printk timestamp and a trailing \r, and other kernel
# lines may come in between):
#
#       KTAP version 1                     <- suite header, 4 spaces
#       # Subtest: frec_demo
#       1..2
#       ok 1 pass_case                     <- cases, 4 spaces
#       # fail_case: EXPECTATION FAILED at ...
#   	Expected 1 + 1 == 3, but ...       <- continuation lines: tabs
#       not ok 2 fail_case
#   # frec_demo: pass:1 fail:1 skip:0 total:2
#   not ok 1 frec_demo                     <- suite result, column 0
#
# There is no top-level "KTAP version 1" / "1..N" for module suites (the boot
# executor prints its own, "1..0" when nothing is built in), and suite
# numbers count every suite run since boot.  So: drop the top-level lines,
# keep each suite block from its header to its column-0 result line
# (interleaved kernel lines inside a block are kept as they are: kunit.py
# shows them as the test's log), number the suites 1..N in order and put
# "KTAP version 1" / "1..N" in front.  A suite whose result line never came
# (oops, panic, timeout) gets "not ok N NAME # ..." so it counts as failed.
#
# Exit status 0 even with no suite found ("1..0", which kunit.py parse
# reports as failed); a warning goes to stderr then.
set -euo pipefail

[ $# -le 1 ] || { echo "usage: $(basename "$0") [LOG] > OUT.ktap" >&2; exit 2; }
log=${1:--}
[ "$log" = - ] || [ -r "$log" ] || { echo "$(basename "$0"): cannot read $log" >&2; exit 2; }

awk '
function start(nm) {
	n++
	name = nm
	open = 1
}
function close_unfinished(why) {
	if (!open)
		return
	out[nout++] = "not ok " n " " (name == "" ? "suite" : name) \
		" # ktap-extract: " why
	open = 0
}
{
	sub(/\r+$/, "")
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "")
	line = $0
	if (line ~ /^    KTAP version [0-9]+$/) {
		# A suite header.  One while a suite is still open: that
		# suite never printed its result.
		close_unfinished("no result line before the next suite")
		start("")
	} else if (line ~ /^    # Subtest: /) {
		nm = substr(line, 16)
		if (!open) {
			start(nm)		# kernels without the KTAP line
		} else if (name == "") {
			name = nm
		} else {
			close_unfinished("no result line before the next suite")
			start(nm)
		}
	} else if (!open) {
		next			# not in a suite: boot executor, other kernel lines
	} else if (line ~ /^(not ok|ok) [0-9]+/) {
		# The suite result: renumber it among the suites found.
		res = (line ~ /^not ok/) ? "not ok" : "ok"
		rest = substr(line, length(res) + 2)
		sub(/^[0-9]+/, "", rest)
		out[nout++] = res " " n rest
		open = 0
		next
	}
	out[nout++] = line
}
END {
	close_unfinished("no result line (crash or timeout?)")
	print "KTAP version 1"
	print "1.." (n + 0)
	for (i = 0; i < nout; i++)
		print out[i]
	if (n == 0)
		print "ktap-extract: no KUnit suite in the log" > "/dev/stderr"
}
' "$log"
