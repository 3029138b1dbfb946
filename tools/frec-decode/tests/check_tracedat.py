#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""frec-decode -F trace-dat against trace-cmd report, record for record.

    check_tracedat.py BUILD_DIR DECODER

For dumps frec-gen writes (many records on several CPUs, events and text
records, rings that lost records, gaps of seconds that need the ring
buffer's time-extend entries, global rings merged by seq, many CPUs), for
a crafted dump with gaps of 2^59 - 1 ns (the most a time extend holds),
2^59 ns and more, up to 2^63, and for a black box region image,
frec-decode writes a trace.dat and its text;
`trace-cmd report -i FILE` must print every record exactly once, on its
CPU, with the text's timestamp (to the ns with -t, and rounded to the
microsecond without), the text's message, ring, seq and caller (named
from the file's kallsyms as the text names it); and before each
record that follows records lost on its ring and CPU, and only there,
"CPU:N [K EVENTS DROPPED]" with K the seqs skipped.  A span's begin and
end are frec_span_begin and frec_span_end events whose span field is the
begin's name (seq << 16 | CPU), the same in both (what KernelShark's
latency plot pairs), and an end's dur its text's duration.  Skips, saying so, if
trace-cmd is not installed.  Prints "N passed, M failed".
"""
import re
import shutil
import subprocess
import sys

import checker

TEXT_LINE = re.compile(rb"^(\d+) \[ *(\d+)\.(\d{9})\] cpu(\d+) (?:(T\d+|softirq|hardirq|nmi) )?(\S+): (.*)$")
REPORT_LINE = re.compile(
    rb"^\s*(\S.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+): "
    rb"(frec_record|frec_printk|frec_span_begin|frec_span_end):\s+"
    rb"ring=(\S*) seq=(\d+) cpu=(\d+) caller=(\S+) (?:span=0x([0-9a-f]+) dur=(\d+) )?"
    rb"(?:fmt=\S+ args=\S+ msg=|text=)(.*)$")
SPAN_END = re.compile(rb" dur=(\d+)ns(?: skew=-\d+ns)? span=(\d+)/(\d+)$")
DROPPED = re.compile(rb"^CPU:(\d+) \[(\d+) EVENTS DROPPED\]$")
# the task names frec-gen's task entries give (tools/frec-decode/frec-gen.c,
# gen_comms): trace-cmd names pid 0 "<idle>", a pid with no name "<...>"
# (1234's is "frec\ntest\x1b": control bytes become '?', tasks.c)
GEN_COMMS = {0: b"<idle>", 1: b"init", 57: b"kworker/0:1", 1234: b"frec?test?"}

# a caller as a text line names it: "sym+0x1/0x2 [mod]", "0x...", or nothing
CALLER = re.compile(rb"^(\S+( \[[^\]]+\])?)? ")


def text_records(out):
    """(ring, cpu, seq) -> (ts_ns, message, is text record?) of a text output."""
    recs = {}
    for line in out.split(b"\n"):
        if not line or line.startswith(b"#"):
            continue
        m = TEXT_LINE.match(line)
        if not m:
            raise ValueError(f"text line not understood: {line[:120]!r}")
        key = (m.group(6), int(m.group(4)), int(m.group(1)))
        recs[key] = (int(m.group(2)) * 10**9 + int(m.group(3)), m.group(7), m.group(5))
    return recs


def report(c, path, full):
    p = subprocess.run(["trace-cmd", "report", *(["-t"] if full else []), "-i", path],
                       capture_output=True, timeout=300)
    c.check(f"{path}: trace-cmd report{' -t' if full else ''} exits 0",
            p.returncode == 0, p.stderr[-300:])
    return p.stdout.split(b"\n")


def compare(c, name, recs, lines, full, lost_expected, offset=0):
    """The report's LINES against the text's RECS, OFFSET ns ahead of them."""
    seen, errors, dropped = set(), [], None
    drops, begins, ends = 0, {}, {}
    for line in lines:
        m = DROPPED.match(line)
        if m:
            dropped = (int(m.group(1)), int(m.group(2)))
            drops += 1
            continue
        m = REPORT_LINE.match(line)
        if not m:
            if line.startswith((b"  ", b"\t")) or b": frec_" in line:
                errors.append(f"report line not understood: {line[:120]!r}")
            continue
        comm, pid, cpu_col, secs, frac, event, ring, seq, cpu, caller, span, dur, msg = m.groups()
        key = (ring, int(cpu), int(seq))
        e = SPAN_END.search(msg)
        if event == b"frec_span_begin":
            begins[(ring, int(span, 16))] = key
            if int(span, 16) != int(seq) << 16 | int(cpu) or int(dur):
                errors.append(f"{key}: a begin whose span is 0x{span.decode()}, dur {dur}")
        elif event == b"frec_span_end":
            ends[key] = (ring, int(span, 16))
            if not e or int(span, 16) != int(e.group(3)) << 16 | int(e.group(2)) or \
                    int(dur) != int(e.group(1)):
                errors.append(f"{key}: span 0x{span.decode()} dur {dur}, its message {msg!r}")
        elif span is not None or (e and b" < " in msg and event == b"frec_record"):
            errors.append(f"{key}: {event} with span fields, or a span end as a record")
        if key in seen:
            errors.append(f"{key}: printed twice")
        seen.add(key)
        if key not in recs:
            errors.append(f"{key}: not a record of the text")
            continue
        ts, rest, context = recs[key]
        ts = max(ts - offset, 0)
        # a task's record is its task's event: common_pid and comm
        if context and context.startswith(b"T"):
            # a black box names its tasks as a raw dump does (the
            # texts sweep's names, frec-gen's the same)
            pid_no = int(context[1:])
            want = (GEN_COMMS.get(pid_no, b"<...>"), pid_no)
            if (comm.strip(), int(pid)) != want:
                errors.append(f"{key}: task {comm.strip()!r}-{int(pid)}, the text's {context!r}")
        if int(cpu_col) != key[1]:
            errors.append(f"{key}: on CPU {int(cpu_col)}")
        if full:
            got, want = int(secs) * 10**9 + int(frac), ts
        else:
            got, want = int(secs) * 10**6 + int(frac), (ts + 500) // 1000
        if got != want:
            errors.append(f"{key}: at {secs.decode()}.{frac.decode()}, the text says {ts} ns")
        cm = CALLER.match(rest)
        if not cm or rest[cm.end():] != msg:
            errors.append(f"{key}: message {msg[:80]!r}, the text's line ends {rest[-80:]!r}")
        # a named caller: trace-cmd names it from the file's kallsyms,
        # "sym+0x1" for the text's "sym+0x1/0x2 [mod]"
        named = cm.group(1) if cm else None
        if named and b"+0x" in named and caller != named.split(b"/")[0]:
            errors.append(f"{key}: caller {caller!r}, the text's {named!r}")
        lost = lost_expected.get(key, 0)
        got_lost = dropped[1] if dropped and dropped[0] == key[1] else 0
        if lost != got_lost:
            errors.append(f"{key}: {got_lost} events dropped before it, {lost} lost")
        dropped = None
    # each end pairs with its begin where the begin is in the file
    unpaired = [k for k, v in ends.items()
                if v in begins and recs.get(begins[v], (0,))[0] > recs.get(k, (0,))[0]
                and b"skew" not in recs.get(k, (0, b""))[1]]
    if unpaired:
        errors.append(f"{len(unpaired)} ends before their begins, e.g. {unpaired[0]}")
    paired = sum(1 for v in ends.values() if v in begins)
    # a large input with span ends in its text (a filter may pick a ring
    # of text records alone) must pair some
    text_ends = sum(1 for _, rest, _ in recs.values() if b" dur=" in rest and b" span=" in rest)
    if recs and len(recs) > 500 and text_ends and not paired:
        errors.append(f"no span end pairs with a begin ({len(begins)} begins, {len(ends)} ends)")
    missing = set(recs) - seen
    if missing:
        errors.append(f"{len(missing)} records not in the report, e.g. {sorted(missing)[0]}")
    c.check(f"{name}: {len(recs)} records, {drops} drops, report{' -t' if full else ''} "
            "agrees record for record", not errors and recs,
            "; ".join(errors[:8]) + (f" (and {len(errors) - 8} more)" if len(errors) > 8 else ""))


def lost_before(recs, global_rings):
    """(ring, cpu, seq) -> the seqs its source skipped just before it."""
    lost, last = {}, {}
    for ring, cpu, seq in sorted(recs):
        if ring in global_rings:
            continue
        prev = last.get((ring, cpu), 0)
        if seq > prev + 1:
            lost[(ring, cpu, seq)] = seq - prev - 1
        last[(ring, cpu)] = seq
    return lost


def trace_clock(c, dat):
    """The trace clock trace-cmd finds in DAT."""
    p = subprocess.run(["trace-cmd", "dump", "--clock", "-i", dat],
                       capture_output=True, timeout=60)
    m = re.search(rb"\[(\w+)\]", p.stdout)
    return m.group(1).decode() if m else None


def check_input(c, name, inputs, global_rings=(), offset=None):
    dat = f"{c.dir}/{name}.dat"
    rc, text, err = c.run_decoder(inputs)
    c.check(f"{name}: text decodes", rc in (0, 3), err[-300:])
    rc, out, err = c.run_decoder(["-F", "trace-dat", "-o", dat, *inputs])
    c.check(f"{name}: trace.dat written", rc in (0, 3) and not out, err[-300:])
    recs = text_records(text)
    lost = lost_before(recs, global_rings)
    for full in (True, False):
        compare(c, name, recs, report(c, dat, full), full, lost, offset or 0)
    clock = trace_clock(c, dat)
    want = "local" if offset is not None else "perf"
    c.check(f"{name}: the file's trace clock is {want}", clock == want, f"it is {clock}")
    return recs, lost


def main():
    build, decoder = sys.argv[1], sys.argv[2]
    if not shutil.which("trace-cmd"):
        print("skipped: trace-cmd is not installed (scripts/install-deps.sh installs it)")
        print("0 passed, 0 failed")
        return 0
    c = checker.Checker(build, decoder, "check-tracedat")

    def tables(p):
        return ["-f", p + ".formats", "-S", p + ".sites", "-k", p + ".kallsyms"]

    p = c.make("lose", "-n", "6000", "-c", "4", "--gaps", "--lose")
    recs, lost = check_input(c, "lose", [*tables(p), p + ".raw"])
    c.check("lose: both kinds of records, losses, gaps over 2^27 ns",
            any(k[0] == b"log" for k in recs) and any(k[0] != b"log" for k in recs)
            and lost, f"{len(lost)} losses")
    p = c.make("many-cpus", "-n", "4000", "-c", "64", "--gaps", "--shuffle")
    check_input(c, "many-cpus", [*tables(p), p + ".raw"])
    p = c.make("nokallsyms", "-n", "500", "-c", "3")
    check_input(c, "nokallsyms", ["-n", *tables(p)[:4], p + ".raw"])
    p = c.make("global", "-n", "2000", "-c", "3", "--global", "--gaps", "--unsynced")
    check_input(c, "global", [*tables(p), p + ".raw"],
                global_rings={b"hanoi_moves", b"events", b"log"})
    # the module's clock entry: local_clock() is sched_clock() plus a
    # constant, here -3.1 ms (one 6.1 guest's) and +2 s (records before
    # ftrace's zero are at its zero); in the other byte order too
    p = c.make("offset", "-n", "2000", "-c", "2", "--gaps", "--trace-offset", "-3100000")
    check_input(c, "offset", [*tables(p), p + ".raw"], offset=-3100000)
    p = c.make("offset-swap", "-n", "500", "-c", "2", "--swap", "--trace-offset", "-1000")
    check_input(c, "offset-swap", [*tables(p), p + ".raw"], offset=-1000)
    p = c.make("offset-late", "-n", "2000", "-c", "2", "--gaps", "--trace-offset", "2000000000")
    recs, _ = check_input(c, "offset-late", [*tables(p), p + ".raw"], offset=2000000000)
    c.check("offset-late: records on both sides of ftrace's zero",
            min(v[0] for v in recs.values()) < 2 * 10**9 < max(v[0] for v in recs.values()),
            "all on one side")
    p = c.make("region", "-n", "3000", "-c", "2", "--gaps", "--region")
    check_input(c, "region", ["--region", p + ".region"])
    # a region's state copies carry the offset of the boot that wrote it
    p = c.make("region-offset", "-n", "1000", "-c", "2", "--region",
               "--trace-offset", "-6326109")
    check_input(c, "region-offset", ["--region", p + ".region"], offset=-6326109)

    # seqs that step back on a CPU (an interrupt's record numbered between
    # the reservation and the numbering of the record it interrupted): no
    # record lost, so no drop mark; and `trace-cmd report` of two files,
    # which hides the first record of a page flagged with drops, prints
    # every one
    import os
    import struct
    td = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata")
    raw = struct.pack("<8sIIIIII16s", b"FRECRAW\0", 0x01020304, 3, 48, 64, 8, 1, b"local")
    raw += struct.pack("<IIIIII32s", 1, 56, 7, 0, 0, 0, b"events")
    for i, (seq, cpu) in enumerate([(1, 0), (2, 0), (1, 1), (3, 0), (5, 0), (4, 0), (6, 0),
                                    (2, 1), (9, 0), (7, 0), (8, 0), (10, 0), (12, 0)]):
        raw += struct.pack("<IIQQQQIIII4Q", 2, 88, seq, 10**9 + 1000 * i, 0xffffffffc0a80000,
                           0xffffffff81000010, 7, cpu, 0, 0, 1, 2, 0, 0)
    sb = c.dir + "/stepback.raw"
    with open(sb, "wb") as f:
        f.write(raw)
    small = ["-f", td + "/small.formats", "-S", td + "/small.sites", "-k", td + "/small.kallsyms"]
    recs, lost = check_input(c, "stepback", [*small, sb])
    c.check("stepback: one real loss (seq 11 on cpu 0)", lost == {(b"events", 0, 12): 1}, str(lost))
    p = subprocess.run(["trace-cmd", "report", "-i", c.dir + "/many-cpus.dat", "-i",
                        c.dir + "/stepback.dat"], capture_output=True, timeout=300)
    shown = sum(1 for line in p.stdout.split(b"\n")
                if line.lstrip().startswith(b"stepback.dat:") and b"frec_record:" in line)
    c.check("stepback: trace-cmd report of it and another file prints every record",
            shown == len(recs) - 1, f"{shown} of the {len(recs)} less the one after the real loss")

    # gaps a time extend cannot hold: 27 + 32 bits of delta are 2^59 - 1 ns
    # at most.  One of exactly that (an extend with every bit set), one of
    # exactly 2^59, and larger ones, up to 2^63, between records of one
    # CPU: each must be at its own timestamp, to the ns
    gaps = [2**59 - 1, 2**59, 2**60 + 12345, 7, 2**63, 2**59 + 1]
    raw = struct.pack("<8sIIIIII16s", b"FRECRAW\0", 0x01020304, 3, 48, 64, 8, 1, b"local")
    raw += struct.pack("<IIIIII32s", 1, 56, 7, 0, 0, 0, b"events")
    ts = [10**9 + 123]
    for g in gaps:
        ts.append(ts[-1] + g)
    for seq, t in enumerate(ts, 1):
        raw += struct.pack("<IIQQQQIIII4Q", 2, 88, seq, t, 0xffffffffc0a80000,
                           0xffffffff81000010, 7, 0, 0, 0, seq, 2, 0, 0)
    # and CPU 1: a first record late, then one 2^59 ns after it
    raw += struct.pack("<IIQQQQIIII4Q", 2, 88, 1, ts[-1], 0xffffffffc0a80000,
                       0xffffffff81000010, 7, 1, 0, 0, 1, 2, 0, 0)
    raw += struct.pack("<IIQQQQIIII4Q", 2, 88, 2, ts[-1] + 2**59, 0xffffffffc0a80000,
                       0xffffffff81000010, 7, 1, 0, 0, 1, 2, 0, 0)
    hg = c.dir + "/huge-gaps.raw"
    with open(hg, "wb") as f:
        f.write(raw)
    recs, _ = check_input(c, "huge-gaps", [*small, hg])
    c.check("huge-gaps: the text holds every gap, to the ns",
            sorted(v[0] for k, v in recs.items() if k[1] == 0) == ts, str(sorted(recs.items())[:3]))

    # callers of a module that went: frec kept their names and the records
    # name them by number (uapi/frec_raw.h, FREC_CALLER_SAVED_KEY), keys
    # one apart that are no addresses: each record must still be named by
    # its own caller's name, not by the name whose key lies below its own
    # (2026-11-29: "frec_crash_test_record+0x1b" for records of
    # frec_crash_test_strings+0x70, from a 6.12 guest's region)
    saved = [(0x5afe000000000000, "mod_record+0x1a/0x110 [mod]"),
             (0x5afe000000000001, "mod_strings+0x70/0xc0 [mod]"),
             (0x5afe000000000002, "mod_other+0x5/0x40 [mod]")]
    raw = struct.pack("<8sIIIIII16s", b"FRECRAW\0", 0x01020304, 3, 48, 64, 8, 1, b"local")
    raw += struct.pack("<IIIIII32s", 1, 56, 7, 0, 0, 0, b"events")
    for seq in range(1, 10):
        raw += struct.pack("<IIQQQQIIII4Q", 2, 88, seq, 10**9 + 1000 * seq, 0xffffffffc0a80000,
                           saved[seq % 3][0], 7, 0, 0, 0, seq, 2, 0, 0)
    sc = c.dir + "/saved-callers.raw"
    with open(sc, "wb") as f:
        f.write(raw)
    scf = c.dir + "/saved-callers.formats"
    with open(scf, "w") as f:
        with open(td + "/small.formats") as g:
            f.write(g.read())
        for key, name in saved:
            f.write(f'0x{key:x} : symbol "{name}"\n')
    recs, _ = check_input(c, "saved-callers", ["-f", scf, *small[2:], sc])
    c.check("saved-callers: the text names each kept caller",
            all(any(n.split("/")[0].encode() in v[1] for v in recs.values()) for _, n in saved),
            str(sorted(recs.items())[:3]))

    # a filter: records left out are not lost
    p = c.dir + "/lose"
    rc, text, _ = c.run_decoder(["--cpu", "1", "--ring", "log", *tables(p), p + ".raw"])
    dat = c.dir + "/filtered.dat"
    c.run_decoder(["-F", "trace-dat", "-o", dat, "--cpu", "1", "--ring", "log",
                   *tables(p), p + ".raw"])
    compare(c, "filtered", text_records(text), report(c, dat, True), True, {})
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
