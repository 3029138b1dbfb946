#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KernelShark opens frec-decode's trace.dat (`-F trace-dat`) and draws its
# events: `make check`'s kernelshark part, host only.
#
#   kernelshark-check.sh [-n NAME] [-i FILE...]
#
# frec-gen writes two recordings (events and text records, several CPUs,
# records lost); frec-decode makes a trace.dat of each.  KernelShark, under
# Xvfb (1280x800), opens the first alone ("kernelshark:frec") and then both
# ("kernelshark:two-files", the second appended with -a: it stands for an
# ftrace recording of the same machine, which the host has none of).  Each
# time the check waits for the main window ("Kernel Shark ...") to be shown,
# stretches it to the screen, saves it as
# build/tools/kernelshark/NAME.png, and fails if KernelShark died, showed
# any other window (an error dialog), logged an error, or if the image
# lacks drawn events, a colour per file or the event list
# (kernelshark-image.py).  -i FILE opens FILE alone instead
# ("kernelshark:input"), to see the check fail on a bad file; -i FILE
# FILE2... opens FILE with the others appended (make demo's ftrace.dat and
# frec.dat: doc/kernelshark-timeline.png); -n NAME names that check
# "kernelshark:NAME" (check.sh opens each stock kernel's ftrace.dat with
# the frec.dat of the same recording that guest test 0055 exports:
# "kernelshark:ftrace-stock-6.1").
#
# Prints "PASS kernelshark:NAME", "FAIL kernelshark:NAME: why (see LOG)",
# or "SKIP kernelshark: why" without kernelshark, xvfb-run, xdotool, xwd
# or netpbm (scripts/install-deps.sh installs them).  About 10 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$FREC_BUILD/tools/kernelshark
dec=$FREC_BUILD/tools/decode
WAIT_TENTHS=300		# the window is drawn within a second or two here

# In Xvfb: run kernelshark ARGS..., wait for its main window, save it as
# XWD.  Prints what went wrong, if anything, and exits 1.
in_x() { # xwd log args...
	local xwd=$1 log=$2 pid wid= other title i j
	shift 2
	kernelshark "$@" > "$log" 2>&1 &
	pid=$!
	for ((i = 0; i < WAIT_TENTHS; i++)); do
		kill -0 "$pid" 2> /dev/null || break
		wid=$(xdotool search --onlyvisible --name '^Kernel Shark' 2> /dev/null | head -n 1) || true
		[ -n "$wid" ] && break
		sleep 0.1
	done
	if ! kill -0 "$pid" 2> /dev/null; then
		wait "$pid" && i=0 || i=$?
		echo "kernelshark exited with status $i before its window was shown"
		return 1
	fi
	if [ -z "$wid" ]; then
		kill "$pid"
		echo "no KernelShark window after $((WAIT_TENTHS / 10)) s"
		return 1
	fi
	# A window just mapped may ignore a resize: ask until it is done.
	for ((j = 0; j < 30; j++)); do
		xdotool windowsize "$wid" 1280 800 2> /dev/null || break
		sleep 0.1
		xwininfo -id "$wid" 2> /dev/null | grep -q 'Width: 1280' && break
	done
	sleep 2		# loading, and drawing at the new size
	# FREC_KS_XDOTOOL="ACTION;ACTION...": xdotool commands run in turn on
	# the shown window (WID in them stands for it), a second apart: how
	# doc/kernelshark-timeline.png drags the plots' splitter down and
	# zooms in (doc/decode.md).
	if [ -n "${FREC_KS_XDOTOOL:-}" ]; then
		local IFS=';' act
		for act in $FREC_KS_XDOTOOL; do
			IFS=' '
			# shellcheck disable=SC2046  # words on purpose
			xdotool $(echo "$act" | sed "s/WID/$wid/g")
			sleep 1
		done
	fi
	if ! kill -0 "$pid" 2> /dev/null; then
		wait "$pid" && j=0 || j=$?
		echo "kernelshark exited with status $j after its window was shown"
		return 1
	fi
	title=$(xdotool getwindowname "$wid" 2> /dev/null) || title=?
	# Any other visible window with a title is a dialog: an error, a warning.
	other=$(for w in $(xdotool search --onlyvisible --name '.' 2> /dev/null); do
		[ "$w" = "$wid" ] || xdotool getwindowname "$w" 2> /dev/null
	done | grep -v '^$' | head -n 1) || true
	xwd -id "$wid" -silent > "$xwd" || { kill "$pid"; echo "xwd could not save the window"; return 1; }
	kill "$pid"
	wait "$pid" 2> /dev/null || true
	if [ -n "$other" ]; then
		echo "a window besides the main one: \"$other\""
		return 1
	fi
	echo "main window \"$title\" shown in $((i / 10)).$((i % 10)) s"
}

# xvfb-run -a kills its X server at the end without waiting for it, so a
# run right after may find display :99 free by its lock file while the
# old server still holds its socket: KernelShark then fails to connect
# ("could not connect to display :99").  Each run starts its search for a
# free display 10 numbers further on.
xvfb_display=99

# open NAME FILE...: KernelShark on the trace.dat files, the first given,
# the others appended; one PASS or FAIL line.
open_files() {
	local name=$1 log=$out/$1.log f args=() why
	shift
	xvfb_display=$((xvfb_display + 10))
	for f in "$@"; do
		[ ${#args[@]} = 0 ] && args=("$f") || args+=(-a "$f")
	done
	rm -f "$out/$name.xwd" "$out/$name.png"
	if ! why=$(KS_USER_CACHE_DIR=$out/cache timeout 120 \
			xvfb-run -a -n "$xvfb_display" -s "-screen 0 1280x800x24" "$0" --in-x "$out/$name.xwd" \
			"$out/$name.kernelshark.log" "${args[@]}" 2> "$log"); then
		echo "FAIL kernelshark:$name: ${why:-xvfb-run failed} (see $out/$name.kernelshark.log, $log)"
		return 1
	fi
	local shown=$why
	# "Loading" each file; plugins of scheduler events do not apply to
	# frec's ("failed to initialize on stream"), anything else is an error.
	if grep -iE 'error|fail|cannot|unable' "$out/$name.kernelshark.log" |
		grep -vq 'plugin ".*" failed to initialize on stream'; then
		echo "FAIL kernelshark:$name: KernelShark logged an error (see $out/$name.kernelshark.log)"
		return 1
	fi
	xwdtopnm -quiet "$out/$name.xwd" 2>> "$log" | pamdepth 255 > "$out/$name.ppm"
	pnmtopng < "$out/$name.ppm" > "$out/$name.png" 2>> "$log"
	if ! why=$(python3 "$FREC_ROOT/scripts/kernelshark-image.py" "$out/$name.ppm" "$#" 2>&1); then
		echo "FAIL kernelshark:$name: $why (see $out/$name.png)"
		return 1
	fi
	echo "PASS kernelshark:$name: $shown; $why; $out/$name.png"
}

if [ "${1:-}" = --in-x ]; then
	shift
	in_x "$@"
	exit
fi
input=() input_name=input
if [ "${1:-}" = -n ]; then
	input_name=$2
	shift 2
fi
if [ "${1:-}" = -i ]; then
	for f in "${@:2}"; do
		input+=("$(realpath "$f")")
	done
fi

for t in kernelshark xvfb-run xdotool xwd xwdtopnm pamdepth pnmtopng; do
	command -v "$t" > /dev/null || {
		echo "SKIP kernelshark: no $t (scripts/install-deps.sh installs it)"
		exit 0
	}
done
mkdir -p "$out/cache"
# Root gets a warning dialog first: say it was seen, in a cache of our own.
printf '[General]\nnoRootWarn=true\n' > "$out/cache/setting.ini"

if [ ${#input[@]} -gt 0 ]; then
	open_files "$input_name" "${input[@]}"
	exit
fi

make -C "$FREC_ROOT/tools" decode > "$out/build.log" 2>&1 ||
	{ echo "FAIL kernelshark:build: make -C tools decode (see $out/build.log)"; exit 1; }
rc=0
for g in "a -n 400 -c 4 --lose" "b -n 300 -c 2 -s 7"; do
	set -- $g
	"$dec/frec-gen" "${@:2}" "$out/$1" > "$out/gen-$1.log" 2>&1 &&
	"$dec/frec-decode" -S "$out/$1.sites" -f "$out/$1.formats" -k "$out/$1.kallsyms" \
		-F trace-dat -o "$out/$1.dat" "$out/$1.raw" >> "$out/gen-$1.log" 2>&1 ||
		{ echo "FAIL kernelshark:$1.dat: frec-gen or frec-decode (see $out/gen-$1.log)"; exit 1; }
done
open_files frec "$out/a.dat" || rc=1
open_files two-files "$out/a.dat" "$out/b.dat" || rc=1
exit $rc
