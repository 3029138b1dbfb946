#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""frec-decode against dumps made by frec-gen, whose expected text
(PREFIX.txt) is what the module's dump prints for the same records:

  - text output equal to PREFIX.txt, byte for byte (plain, byte-swapped,
    with bad and missing formats and unknown entries, from stdin, to -o);
  - JSON that parses, with name, ph, ts, pid and tid on every event, a
    record per record, non-decreasing ts on every CPU track, slices that
    never close more than they opened, and the same messages as the text;
  - CSV with a row per record that rebuilds each text line exactly;
  - every filter (--filter in the module's language, and its shorthands
    --ring, --cpu, --seq, --time, combined) against the expected lines
    filtered here, a ring name the dump lacks, bad filters, and --delta
    against the timestamps;
  - callers without kallsyms (-n, or kallsyms of zeros): equal to
    PREFIX.nokallsyms.txt, the sites' first callers named as the sites file
    names them, every other address an address;
  - warnings and exit codes: bad formats, missing formats and unknown site
    ids reported once each, with their offset; kallsyms of zeros, no
    kallsyms, no formats or sites file, a truncated dump.

    check_outputs.py BUILD_DIR FREC_DECODE
BUILD_DIR holds frec-gen; files go to BUILD_DIR/check.  Prints
"N passed, N failed"."""
import csv
import io
import json
import os
import re
import subprocess
import sys

import checker

NL = b"\n"
LINE = re.compile(r"^(\d+) \[ *(\d+)\.(\d{9})\] cpu(\d+) (?:(?:T\d+|softirq|hardirq|nmi) )?([A-Za-z0-9_-]+): (.*)\n$",
                  re.S)


class Checker(checker.Checker):
    def __init__(self, build, decoder):
        super().__init__(build, decoder, "check")

    def decode(self, prefix, *args, stdin=None, raw=True, kallsyms=True, sites=None):
        cmd = ["-f", prefix + ".formats", "-S", sites or prefix + ".sites"]
        if kallsyms:
            cmd += ["-k", prefix + ".kallsyms"]
        cmd += list(args)
        if raw:
            cmd.append(prefix + ".raw")
        return self.run_decoder(cmd, stdin=stdin)


def expected(prefix):
    with open(prefix + ".txt", "rb") as f:
        data = f.read()
    head, lines = data.split(b"\n", 2)[:2], data.split(b"\n", 2)[2]
    return b"\n".join(head) + b"\n", [l + b"\n" for l in lines.split(b"\n")[:-1]]


def head_field(prefix, field):
    """A field of the expected dump's header, e.g. clock in
    "# frec dump: clock=NAME order=ORDER"."""
    with open(prefix + ".txt", "rb") as f:
        first = f.readline().decode("latin-1")
    m = re.search(field + r"=(\S+)", first)
    return m.group(1) if m else None


def parse_line(line):
    m = LINE.match(line.decode("latin-1"))
    seq, s, ns, cpu, ring, rest = m.groups()
    return int(seq), int(s) * 10**9 + int(ns), int(cpu), ring, rest


def check_text(c, prefix, name, code=0, *args, kallsyms=True):
    """The text output against PREFIX.txt, or without kallsyms against
    PREFIX.nokallsyms.txt."""
    if not kallsyms:
        args += ("--no-kallsyms",)
        name += ", no kallsyms"
    rc, out, err = c.decode(prefix, *args, kallsyms=kallsyms)
    with open(prefix + (".txt" if kallsyms else ".nokallsyms.txt"), "rb") as f:
        want = f.read()
    c.check(f"{name}: text equals the expected dump", out == want,
            f"{len(out)} bytes, expected {len(want)}; first difference at "
            f"{next((i for i, (a, b) in enumerate(zip(out, want)) if a != b), min(len(out), len(want)))}")
    c.check(f"{name}: exit code {code}", rc == code, f"exit {rc}; {err.strip()[:300]}")
    return err


def check_json(c, prefix, name, track="cpu"):
    rc, out, err = c.decode(prefix, "-F", "json", "--json-track", track)
    head, lines = expected(prefix)
    try:
        doc = json.loads(out)
    except ValueError as e:
        c.check(f"{name}: JSON parses", False, str(e))
        return
    events = doc.get("traceEvents", [])
    # Perfetto's tokenizer versions differ on displayTimeUnit (ignored and
    # counted, or refused unless ms/ns), and older ones stop at an unknown
    # top-level key: traceEvents first, and no displayTimeUnit.
    c.check(f"{name}: traceEvents first, no displayTimeUnit",
            list(doc)[:1] == ["traceEvents"] and "displayTimeUnit" not in doc, str(list(doc)))
    c.check(f"{name}: otherData names the clock and the order",
            doc.get("otherData", {}).get("clock") == head_field(prefix, "clock") and
            doc.get("otherData", {}).get("order") == head_field(prefix, "order"),
            str(doc.get("otherData")))
    missing = [e for e in events if not all(k in e for k in ("name", "ph", "ts", "pid", "tid"))
               and e.get("ph") != "M"]
    c.check(f"{name}: every event has name, ph, ts, pid, tid", not missing, str(missing[:2]))
    meta = [e for e in events if e["ph"] == "M"]
    c.check(f"{name}: metadata has name, ph, pid, tid",
            all(all(k in e for k in ("name", "ph", "pid", "tid")) for e in meta))
    # spans' slices (X, b, e) come besides their records' events (check_json.py)
    recs = [e for e in events if e["ph"] not in ("M", "C", "X", "b", "e")]
    c.check(f"{name}: one event per record", len(recs) == len(lines),
            f"{len(recs)} events, {len(lines)} records")
    named, last, depth, bad_order, bad_depth = set(), {}, {}, [], []
    for e in events:
        key = (e["pid"], e["tid"])
        if e["ph"] in ("C", "X", "b", "e"):
            continue
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                named.add(key)
            continue
        if key not in named:
            bad_order.append(("unnamed track", key))
        if track == "cpu" and e["ts"] < last.get(key, 0):
            bad_order.append((key, e["ts"], last[key]))
        last[key] = e["ts"]
        if e["ph"] == "B":
            depth[key] = depth.get(key, 0) + 1
        elif e["ph"] == "E":
            depth[key] = depth.get(key, 0) - 1
            if depth[key] < 0:
                bad_depth.append(e)
    c.check(f"{name}: tracks named, ts non-decreasing per CPU track", not bad_order,
            str(bad_order[:3]))
    c.check(f"{name}: no slice ends before it begins", not bad_depth, str(bad_depth[:2]))
    c.check(f"{name}: has slices", track != "cpu" or any(e["ph"] == "B" for e in recs))
    bad = []
    for e, line in zip(recs, lines):
        seq, ts, cpu, ring, rest = parse_line(line)
        a = e["args"]
        if (a["seq"], a["cpu"], a["ring"], e["cat"]) != (seq, cpu, ring, ring) or \
           abs(e["ts"] * 1000 - ts) > 0.6 or not rest.startswith(a["caller"] + " "):
            bad.append((e, line))
    c.check(f"{name}: events match the records", not bad, str(bad[:1]))
    c.check(f"{name}: JSON exit code", rc in (0, 3), err[:300])


def escape(msg):
    return "".join(f"\\x{ord(ch):02x}" if ord(ch) < 0x20 or ord(ch) == 0x7f else ch
                   for ch in msg)


def check_csv(c, prefix, name):
    rc, out, err = c.decode(prefix, "-F", "csv")
    head, lines = expected(prefix)
    rows = list(csv.reader(io.StringIO(out.decode("latin-1"), newline="")))
    c.check(f"{name}: CSV header", rows and rows[0] ==
            ["seq", "ts_ns", "cpu", "context", "ring", "caller", "message"], str(rows[:1]))
    c.check(f"{name}: a CSV row per record", len(rows) - 1 == len(lines),
            f"{len(rows) - 1} rows, {len(lines)} records")
    bad = []
    for row, line in zip(rows[1:], lines):
        seq, ts, cpu, context, ring, caller, msg = row
        ts = int(ts)
        context = context + " " if context else ""
        rebuilt = (f"{seq} [{ts // 10**9:5d}.{ts % 10**9:09d}] cpu{cpu} {context}{ring}: "
                   f"{caller} {msg}\n")
        if rebuilt.encode("latin-1") != line and not line.endswith(b"[...]\n"):
            bad.append((rebuilt, line))
    c.check(f"{name}: CSV rows rebuild the text lines", not bad, str(bad[:1]))


def check_filters(c, prefix, name):
    head, lines = expected(prefix)
    # seq, ts, cpu, ring, caller and message, and the line (text= reads it)
    parsed = [parse_line(l) + (l.decode("latin-1"),) for l in lines]
    t_lo, t_hi = sorted([parsed[len(parsed) // 3][1], parsed[len(parsed) // 2][1]])

    def sec(ns):
        return f"{ns // 10**9}.{ns % 10**9:09d}"

    cases = [
        (["--ring", "log"], lambda p: p[3] == "log"),
        (["--ring", "events,hanoi_moves"], lambda p: p[3] in ("events", "hanoi_moves")),
        (["-r", "events", "-r", "log"], lambda p: p[3] in ("events", "log")),
        (["--ring", "hanoi_*"], lambda p: p[3].startswith("hanoi_")),
        (["--ring", "[!e]*"], lambda p: not p[3].startswith("e")),
        (["--ring", "?ve?ts,l[a-p]g"], lambda p: p[3] in ("events", "log")),
        (["--ring", "nosuchring*"], lambda p: False),
        (["--cpu", "0,2-3"], lambda p: p[2] in (0, 2, 3)),
        (["-c", "0", "-c", "3"], lambda p: p[2] in (0, 3)),
        (["-c", "1"], lambda p: p[2] == 1),
        (["--seq", "20-40"], lambda p: 20 <= p[0] <= 40),
        (["--seq", "240-"], lambda p: p[0] >= 240),
        (["--seq", "-5"], lambda p: p[0] <= 5),
        (["--seq", "77"], lambda p: p[0] == 77),
        (["--time", f"{sec(t_lo)}-{sec(t_hi)}"], lambda p: t_lo <= p[1] <= t_hi),
        (["--time", f"{sec(t_hi)}-"], lambda p: p[1] >= t_hi),
        (["--ring", "events", "--cpu", "1-2", "--seq", "50-"],
         lambda p: p[3] == "events" and 1 <= p[2] <= 2 and p[0] >= 50),
        (["--filter", "ring=events cpu=1-2 seq=50-"],
         lambda p: p[3] == "events" and 1 <= p[2] <= 2 and p[0] >= 50),
        (["--filter", f"time={sec(t_lo)}-{sec(t_hi)}\tseq=-200 ring=log,hanoi_?oves"],
         lambda p: t_lo <= p[1] <= t_hi and p[0] <= 200 and p[3] in ("log", "hanoi_moves")),
        (["--filter", "text=alpha"], lambda p: "alpha" in p[5]),
        (["--filter", "text=] cpu1 e"], lambda p: "] cpu1 e" in p[5]),
        (["--cpu", "1", "--filter", "seq=10- text= beta"],
         lambda p: p[2] == 1 and p[0] >= 10 and " beta" in p[5]),
        (["--filter", ""], lambda p: True),
    ]
    for args, keep in cases:
        rc, out, err = c.decode(prefix, *args)
        want = head + b"".join(l for l, p in zip(lines, parsed) if keep(p))
        c.check(f"{name}: filter {' '.join(args)}", out == want and rc in (0, 3),
                f"exit {rc}, {out.count(NL)} lines, expected {want.count(NL)}")
    rc, out, err = c.decode(prefix, "--delta", "--ring", "log")
    got = out.split(b"\n")
    kept = [(l, p) for l, p in zip(lines, parsed) if p[3] == "log"]
    ok = got[2] == b"# +delta: time since the previous line" and len(got) - 4 == len(kept)
    prev = None
    for g, (l, p) in zip(got[3:], kept):
        d = 0 if prev is None else p[1] - prev
        prev = p[1]
        sign = "-" if d < 0 else "+"
        want = f"{sign}{abs(d) // 10**9}.{abs(d) % 10**9:09d} ".encode() + l[:-1]
        ok = ok and g == want
    c.check(f"{name}: --delta", ok, f"{got[:4]}")
    for bad in (["--seq", "5-3"], ["--time", "1.0000000001"], ["--cpu", "x"],
                ["--time", "5"], ["--time", "1.-2"], ["--cpu", "0 1"],
                ["--filter", "seq=1 seq=2"], ["--seq", "1", "--filter", "seq=2"],
                ["--filter", "cpu=8192"], ["--filter", "bogus=1"],
                ["--filter", "text=" + "x" * 1020],
                ["-F", "xml"], ["--json-track", "pid"], ["--nosuchoption"]):
        rc, out, err = c.decode(prefix, *bad)
        c.check(f"{name}: usage error {' '.join(bad)[:60]}",
                rc == 2 and "frec-decode" in err and not out, f"exit {rc}")
    # the module's language names the term at fault
    rc, out, err = c.decode(prefix, "--seq", "9-3")
    c.check(f"{name}: a bad filter names its term",
            err.startswith("frec-decode: filter: seq=9-3: the range is empty\n"), err[:200])
    # a ring name without wildcards must be in the dump, as in the module;
    # the rings that are there are decoded all the same
    for args, term, shown in ((["--ring", "nosuchring"], "ring=nosuchring", ()),
                              (["--filter", "ring=log,nosuchring"], "ring=log,nosuchring",
                               ("log",))):
        rc, out, err = c.decode(prefix, *args)
        want = head + b"".join(l for l, p in zip(lines, parsed) if p[3] in shown)
        c.check(f"{name}: {' '.join(args)}: exit 2, the ring named",
                rc == 2 and out == want and err.endswith(
                    f": filter: {term}: no ring named nosuchring in the dump\n"),
                f"exit {rc}: {err[:200]}")


def check_stats(c, prefix, name):
    """--stats against PREFIX.stats, which frec-gen wrote from the records
    it kept and the seqs it gave them."""
    rc, out, err = c.decode(prefix, "--stats")
    with open(prefix + ".stats", "rb") as f:
        want = f.read()
    c.check(f"{name}: --stats equals the expected table", out == want and rc in (0, 3),
            f"exit {rc}; got {out[:300]!r}, expected {want[:300]!r}")
    return want


def check_merge(c):
    """Dumps whose records are not listed in the merged order (each
    (ring, CPU) in seq order, the whole interleaved at random), with
    records lost, in both merge orders: the decoder merges them back."""
    s = c.make("shuffled", "-n", "3000", "-c", "4", "-s", "3", "--shuffle", "--lose",
               "--unknown")
    check_text(c, s, "shuffled, records lost")
    check_text(c, s, "shuffled, records lost", kallsyms=False)
    want = check_stats(c, s, "shuffled, records lost")
    rows = [l.split() for l in want.decode().splitlines() if not l.startswith("#")]
    c.check("shuffled: stats show records lost, in gaps and before the first",
            any(int(r[6]) for r in rows) and any(int(r[7]) for r in rows), str(rows[:3]))
    check_json(c, s, "shuffled")
    check_csv(c, s, "shuffled")
    g = c.make("global", "-n", "2000", "-c", "3", "-s", "5", "--global", "--shuffle",
               "--swap", "--lose")
    check_text(c, g, "global order, shuffled, swapped")
    c.check("global order: the header says so", head_field(g, "order") == "global")
    want = check_stats(c, g, "global order")
    c.check("global order: no losses claimed from global seqs",
            all(l.endswith(b" - -") for l in want.splitlines() if not l.startswith(b"#")),
            want[:200])
    check_json(c, g, "global")
    u = c.make("unsynced", "-n", "500", "-c", "2", "--unsynced")
    check_text(c, u, "clock not synchronised")
    c.check("unsynced: the header says time-approximate",
            head_field(u, "order") == "time-approximate")
    check_stats(c, u, "unsynced")


def main():
    c = Checker(sys.argv[1], sys.argv[2])
    a = c.make("plain", "-n", "3000", "-c", "4", "--unknown")
    check_text(c, a, "plain")
    check_text(c, a, "plain", kallsyms=False)
    with open(a + ".raw", "rb") as f:
        rc, out, err = c.decode(a, stdin=f, raw=False)
    with open(a + ".txt", "rb") as f:
        c.check("plain: from stdin", out == f.read() and rc == 0, err[:200])
    out_path = os.path.join(c.dir, "out.txt")
    rc, out, err = c.decode(a, "-o", out_path)
    with open(out_path, "rb") as f, open(a + ".txt", "rb") as g:
        c.check("plain: -o", f.read() == g.read() and rc == 0 and not out, err[:200])
    check_json(c, a, "plain")
    check_json(c, a, "plain ring tracks", track="ring")
    check_csv(c, a, "plain")
    check_filters(c, a, "plain")
    check_stats(c, a, "plain")
    check_merge(c)

    b = c.make("odd", "-n", "3000", "-c", "3", "-s", "7", "--swap", "--bad",
               "--missing", "--unknown")
    err = check_text(c, b, "swapped, bad and missing formats", 3)
    check_text(c, b, "swapped, bad and missing formats", 3, kallsyms=False)
    reports = [l for l in err.splitlines() if "bad format at byte" in l]
    c.check("bad formats reported once each, with site or address and offset",
            reports and len(reports) == len(set(re.sub(r"offset \d+: ", "", l)
                                                for l in reports))
            and any(": site " in l for l in reports) and any(": format " in l for l in reports)
            and all(re.search(r"offset \d+: (site \d+|format 0x[0-9a-f]+): "
                              r"bad format at byte \d+$", l)
                    for l in reports), str(reports))
    for what, word in (("formats", r"format 0x[0-9a-f]+"), ("sites", r"site \d+")):
        missing = [l for l in err.splitlines() if f"is not in the {what} file" in l]
        c.check(f"missing {what} reported once each, with their offset", missing and
                len(missing) == len(set(re.sub(r"offset \d+: ", "", l) for l in missing))
                and all(re.search(rf": offset \d+: {word} is not in the {what} file$", l)
                        for l in missing), str(missing))
    check_json(c, b, "odd")
    check_csv(c, b, "odd")

    # most events name their site by id: without the sites file, each id
    # is missing once, and the callers of sites print as addresses
    rc, out, err = c.decode(a, "--no-kallsyms", kallsyms=False, sites="/dev/null")
    ids = set(re.findall(r": offset \d+: site (\d+) is not in the sites file\n", err))
    with open(a + ".sites", encoding="latin-1") as f:
        listed = {l.split()[0] for l in f if not l.startswith("#")}
    c.check("no sites: every site id used reported missing, callers as addresses",
            rc == 3 and len(ids) > 10 and ids <= listed and
            all(re.match(rb"\d+ \[[ \d.]+\] cpu\d+ (?:(?:T\d+|softirq|hardirq|nmi) )?\w+: 0x[0-9a-f]+ ", l)
                for l in out.split(b"\n")[2:-1]), f"exit {rc}, {len(ids)} ids; {err[:200]}")

    # kallsyms as a user without CAP_SYSLOG reads it
    z = c.make("zero", "-n", "200")
    with open(z + ".kallsyms") as f:
        zeroed = re.sub(r"^[0-9a-f]{16}", "0" * 16, f.read(), flags=re.M)
    with open(z + ".kallsyms", "w") as f:
        f.write(zeroed)
    rc, out, err = c.decode(z)
    with open(z + ".nokallsyms.txt", "rb") as f:
        want = f.read()
    c.check("kallsyms of zeros: warned, exit 3, callers as without kallsyms",
            rc == 3 and "every address is 0" in err and "kptr_restrict" in err and
            out == want, f"exit {rc} {err[:200]}")
    check_text(c, z, "zero", kallsyms=False)
    named = [l for l in want.split(b"\n")[2:-1]
             if not re.match(rb"\d+ \[[ \d.]+\] cpu\d+ (?:(?:T\d+|softirq|hardirq|nmi) )?\w+: 0x[0-9a-f]+ ", l)]
    c.check("no kallsyms: most callers named by their sites all the same",
            len(named) > len(want.split(b"\n")) // 2, f"{len(named)} named")
    rc, out, err = c.decode(z, "--no-kallsyms", kallsyms=False, sites="/dev/null")
    c.check("--no-kallsyms, no sites: callers as addresses", rc == 3 and
            all(re.match(rb"\d+ \[[ \d.]+\] cpu\d+ (?:(?:T\d+|softirq|hardirq|nmi) )?\w+: 0x[0-9a-f]+ ", l)
                for l in out.split(b"\n")[2:-1]), f"exit {rc} {err[:200]}")
    for opt, name in (("-f", "formats"), ("-S", "sites")):
        args = [a for o, t in (("-f", z + ".formats"), ("-S", z + ".sites"))
                if o != opt for a in (o, t)]
        p = subprocess.run([c.decoder, *args, "-k", z + ".kallsyms", z + ".raw"],
                           capture_output=True)
        c.check(f"no {name} file: warned, exit 3", p.returncode == 3 and
                f"frec/{name}: No such file or directory (going on without it)".encode()
                in p.stderr, p.stderr[:200])
        p = subprocess.run([c.decoder, opt, "/nonexistent", z + ".raw"], capture_output=True)
        c.check(f"a named {name} file that is missing: exit 1", p.returncode == 1 and
                b"/nonexistent: No such file" in p.stderr, p.stderr[:200])

    # a dump cut anywhere: error with the offset, what came before printed
    with open(a + ".raw", "rb") as f:
        raw = f.read()
    head, lines = expected(a)
    cut_path = os.path.join(c.dir, "cut.raw")
    for cut in (len(raw) // 2 + 3, len(raw) - 1, 49, 47, 100):
        with open(cut_path, "wb") as f:
            f.write(raw[:cut])
        p = subprocess.run([c.decoder, "-f", a + ".formats", "-S", a + ".sites",
                            "-k", a + ".kallsyms", cut_path], capture_output=True)
        m = re.search(rb"cut.raw: offset (\d+): truncated", p.stderr)
        c.check(f"cut at {cut}: exit 1, offset named, output a prefix",
                p.returncode == 1 and m and int(m.group(1)) <= cut and
                (head + b"".join(lines)).startswith(p.stdout), p.stderr[:200])
    for opt in ("--help", "--version"):
        p = subprocess.run([c.decoder, opt], capture_output=True)
        c.check(f"{opt}", p.returncode == 0 and b"frec-decode" in p.stdout)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
