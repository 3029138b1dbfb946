#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""frec-decode's list of spans in flight (--in-flight; a region image's
text, and --previous=dump, without it) against a computation of its own,
on dumps frec-gen writes, and against what frec-gen says became of every
span (PREFIX.spans).

    check_inflight.py BUILD_DIR DECODER

The computation, from the text output's record lines alone: a begin is
a line "> span N cpu C", an end "< span N dur=... span=C/S"; they pair by
N, the generator's number of the span (not by the end's span= name, which
the decoder pairs by).  Open: a begin no end names.  Per (ring, CPU) the
seqs and timestamps give a bound (kmod/lib/frec_inflight.c's DOC block):
a gap in a per-CPU ring's seqs, its newest timestamp; a first seq above
1, or a global-order ring, its oldest; else none.  A span is "certain"
when begun after every bound of its ring.  The list must be, byte for
byte, the header (the last timestamp, open of begun, certain and maybe,
ends whose N no begin has) and a line per open span in the order of the
begins, "# in flight span=C/S certain|maybe age=NSns: " and the begin's
line.

Against the truth: every span frec-gen left open whose begin the dump
holds is listed; every span listed "certain" was left open, or ended in a
record stamped before its begin (two CPUs' clocks apart: the skew the
list does not allow for, as its DOC block says); and, for the power of
the test, dumps that lost records list spans that ended (their end lost)
as "maybe", none as "certain" unless skewed.  A region image's text and
--previous=dump list what --in-flight lists for its raw dump; a filter
does not change the list (it is the whole dump's), a dump cut short
gets none; --in-flight with
another output or --stats is a usage error.  Prints "N passed, M failed".
"""
import re
import sys

import checker

LINE = re.compile(rb"^(\d+) \[ *(\d+)\.(\d{9})\] cpu(\d+) (?:(?:T\d+|softirq|hardirq|nmi) )?"
                  rb"(\S+): ")
BEGIN = re.compile(rb" > span (\d+) cpu \d+$")
END = re.compile(rb" < span (\d+) dur=\d+ns(?: skew=-\d+ns)? span=\d+/\d+$")


def expected(out):
    """The list the text OUT's records call for, and the begins' numbers
    listed with their certainty."""
    lines = out.split(b"\n")
    glob = b"order=global" in lines[0]
    srcs, begins, ends, last = {}, [], set(), 0
    for line in lines:
        m = LINE.match(line)
        if not m or line.startswith(b"#"):
            continue
        seq, ts = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3))
        cpu, ring = int(m.group(4)), m.group(5)
        s = srcs.setdefault((ring, cpu), [])
        s.append((seq, ts))
        last = max(last, ts)
        b, e = BEGIN.search(line), END.search(line)
        if b:
            begins.append((int(b.group(1)), ring, cpu, seq, ts, line))
        elif e:
            ends.add(int(e.group(1)))
    bounds = {}
    for (ring, cpu), s in srcs.items():
        seqs = [q for q, _ in s]
        first, newest = min(t for _, t in s), max(t for _, t in s)
        if not glob and max(seqs) - min(seqs) + 1 != len(s):
            bounds.setdefault(ring, []).append(newest)
        elif glob or min(seqs) > 1:
            bounds.setdefault(ring, []).append(first)
    opened = {n for n, *_ in begins}
    listed, body = {}, []
    for n, ring, cpu, seq, ts, line in begins:
        if n in ends:
            continue
        certain = all(ts > b for b in bounds.get(ring, []))
        listed[n] = certain
        body.append(b"# in flight span=%d/%d %s age=%dns: %s\n" %
                    (cpu, seq, b"certain" if certain else b"maybe", last - ts, line))
    if not begins and not ends:
        return b"", listed
    ncert = sum(listed.values())
    head = (b"# in flight at the end [%5d.%09d]: %d of %d spans begun never ended "
            b"(%d certain, %d maybe); %d ends name a begin the dump lacks\n" %
            (last // 10**9, last % 10**9, len(listed), len(begins), ncert,
             len(listed) - ncert, len(ends - opened)))
    return head + b"".join(body), listed


def section(out):
    return b"".join(l for l in out.splitlines(keepends=True)
                    if l.startswith(checker.IN_FLIGHT))


def fates(prefix):
    """N -> (begin ts, end ts or None), from PREFIX.spans."""
    f = {}
    with open(prefix + ".spans", "rb") as s:
        for line in s:
            n, b, e = line.split()
            f[int(n)] = (int(b), None if e == b"-" else int(e))
    return f


def main():
    c = checker.Checker(sys.argv[1], sys.argv[2], "check-inflight")
    lost_maybe = certain_seen = 0
    for name, args in (("plain", ["-c", "4"]), ("one-cpu", ["-c", "1"]),
                       ("wrap", ["-c", "4", "--wrap"]), ("wrap-3", ["-c", "3", "--wrap", "-s", "7"]),
                       ("lose", ["-c", "3", "--lose"]),
                       ("global", ["-c", "3", "--global", "--shuffle"]),
                       ("unsynced", ["-c", "2", "--unsynced", "--shuffle"])):
        p = c.make(name, "-n", "3000", *args)
        tables = ["-f", p + ".formats", "-S", p + ".sites", "-k", p + ".kallsyms"]
        rc, out, err = c.run_decoder([*tables, "--in-flight", p + ".raw"])
        with open(p + ".txt", "rb") as f:
            records = f.read()
        c.check(f"{name}: the records as without --in-flight", rc == 0 and
                checker.records_only(out) == records, f"exit {rc}; {err[:300]}")
        want, listed = expected(out)
        got = section(out)
        c.check(f"{name}: the list, line for line", got == want and want,
                f"got {got[:600]!r}\nwant {want[:600]!r}")
        with open(p + ".raw", "rb") as f:
            krc, kout, _ = c.run_decoder([*tables, "--in-flight", "-"], stdin=f)
        c.check(f"{name}: kept whole (standard input), the same", krc == 0 and kout == out,
                f"exit {krc}")
        frc, fout, _ = c.run_decoder([*tables, "--in-flight", "--ring", "events", p + ".raw"])
        c.check(f"{name}: a filter leaves the list whole", frc == 0 and section(fout) == got,
                f"exit {frc}")
        truth = fates(p)
        in_dump = {int(m.group(1)) for m in re.finditer(rb" > span (\d+) cpu \d+\n", out)}
        open_in_dump = {n for n, (_, e) in truth.items() if e is None and n in in_dump}
        c.check(f"{name}: every span left open whose begin is in the dump listed",
                open_in_dump <= set(listed), f"{sorted(open_in_dump - set(listed))[:10]}")
        wrong = [n for n, cert in listed.items() if cert and truth[n][1] is not None and
                 truth[n][1] >= truth[n][0]]
        c.check(f"{name}: no span that ended listed as certain (but a skewed one)",
                not wrong, f"{wrong[:10]}")
        lost_maybe += sum(1 for n, cert in listed.items() if not cert and truth[n][1] is not None)
        certain_seen += sum(listed.values())
        if name in ("plain", "one-cpu"):
            c.check(f"{name}: nothing lost, every span listed certain, no end without begin",
                    all(listed.values()) and b"; 0 ends name" in got, got[:300])
    c.check("some dump lost the end of a span listed, as maybe", lost_maybe > 0)
    c.check("spans listed as certain", certain_seen > 0)

    # A region image: its text and --previous=dump list what --in-flight
    # lists for its raw dump (no kallsyms: its sites name the callers).
    p = c.make("region", "-n", "2000", "-c", "4", "--region")
    tables = ["-n", "-f", p + ".formats", "-S", p + ".sites"]
    rc, out, err = c.run_decoder([*tables, "--in-flight", p + ".raw"])
    rrc, rout, rerr = c.run_decoder([p + ".region"])
    prc, pout, _ = c.run_decoder(["--previous=dump", p + ".region"])
    c.check("region: the text as --in-flight of its raw dump", rc == 0 and rrc == 0 and
            rout == out and section(out), f"exit {rc} {rrc}; {rerr[:300]}")
    c.check("region: --previous=dump the same", prc == 0 and pout == rout, f"exit {prc}")
    want, _ = expected(rout)
    c.check("region: the list, line for line", section(rout) == want)
    # A dump an error stops reading (cut in a record): its records up to
    # there, no list.
    with open(p + ".raw", "rb") as f:
        raw = f.read()
    cut = p + ".cut.raw"
    with open(cut, "wb") as f:
        f.write(raw[:len(raw) // 2 + 3])
    rc, out, err = c.run_decoder([*tables, "--in-flight", cut])
    c.check("a dump cut short: an error, records, no list", rc == 1 and b"\n1 [" in out and
            not section(out), f"exit {rc}; {err[:200]}")
    # usage
    for bad in (["-F", "json"], ["--stats"], ["-F", "hist"]):
        rc, _, err = c.run_decoder([*tables, "--in-flight", *bad, p + ".raw"])
        c.check(f"--in-flight {' '.join(bad)}: a usage error", rc == 2 and "--in-flight" in err,
                f"exit {rc}; {err[:200]}")
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
