#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""frec-decode -F hist against a computation of its own, on dumps frec-gen
writes (span ends on four sites, one without an id, one that never ends;
nested; ended on other CPUs; some behind their begins' clocks).

    check_hist.py BUILD_DIR DECODER

The values: the dur= of every span end of the text output (0 for a
skewed one, whose text says dur=0ns skew=...), with the same filter as
the histograms; the site of each: its record's site word, read from the
raw dump itself (a small reader of uapi/frec_raw.h here, the record named
by ring, CPU and seq).  As the module's frec/hist: a histogram for every
span-end site of the sites file, in id order, named from the sites file,
those that never ended "count=0"; the ends of a site without an id
(its records hold the format's address) in no histogram, counted on the
'# from' line as not counted.  Per site: count, sum, min, max and mean
(sum // count) exact; min, max and each percentile p (p50, p90, p99,
p99.9) the midpoint of the bucket of the exact figure (for a percentile,
the value of rank ceil(count * p / 100) among the values sorted), and
within 1/32 of it (|printed - exact| * 32 <= exact: equal below 32 ns);
and the buckets exact: every value's bucket
is computed here from the layout frec_hist.c's DOC block gives (a value
v < 32 alone in [v, v + 1); else, with e its highest set bit and
s = e - 4, [v >> s << s, that + 2^s)), and the printed "[low, high) n"
lines must be those buckets and counts, in order.  Then the header line,
the "# from" line's totals, the exit code, and the warning for events of
unknown format.  Prints "N passed, M failed".
"""
import math
import re
import struct
import sys

import checker

HEADER = (b"# frec hist: values in ns; buckets [low, high) count; "
          b"min, max and percentiles exact below 32 ns, else within 1/32")
LINE = re.compile(rb"^(\d+) \[ *\d+\.\d{9}\] cpu(\d+) (?:(?:T\d+|softirq|hardirq|nmi) )?(\S+): ")
SPAN_END = re.compile(rb" < .* dur=(\d+)ns(?: skew=-\d+ns)? span=\d+/\d+$")
HIST = re.compile(rb"^hist (.*)$")
STATS = re.compile(rb"^  count=(\d+)(?: sum=(\d+)ns min=(\d+)ns mean=(\d+)ns "
                   rb"p50=(\d+)ns p90=(\d+)ns p99=(\d+)ns p99\.9=(\d+)ns max=(\d+)ns)?$")
BUCKET = re.compile(rb"^  \[(\d+), (\d+|inf)\) (\d+)$")
PCTS = (5000, 9000, 9900, 9990)
SPAN_MARK_END = b"\x1f< "
FROM = re.compile(rb"^# from .*: (\d+) span ends in (\d+) sites \((\d+) skewed, "
                  rb"counted as 0 ns\), (\d+) not counted \(no site id\)$")


def raw_sites(path):
    """(ring name, cpu, seq) -> site word, of every event of a raw dump."""
    with open(path, "rb") as f:
        data = f.read()
    e = "<" if struct.unpack_from("<I", data, 8)[0] == 0x01020304 else ">"
    at = struct.unpack_from(e + "I", data, 16)[0]
    rings, events = {}, []
    while at + 8 <= len(data):
        typ, size = struct.unpack_from(e + "II", data, at)
        if size < 8:
            break
        if typ == 1:
            rid = struct.unpack_from(e + "I", data, at + 8)[0]
            rings[rid] = data[at + 24:at + 56].split(b"\0")[0]
        elif typ == 2:
            seq, _, site, _, rid, cpu = struct.unpack_from(e + "QQQQII", data, at + 8)
            events.append((rid, cpu, seq, site))
        at += size
    return {(rings[r], c, s): site for r, c, s, site in events}


def unquote(s):
    return re.sub(rb"\\(.)", lambda m: {b"n": b"\n", b"t": b"\t"}.get(m.group(1),
                                                                         m.group(1)), s)


def site_names(prefix):
    """site id -> the name frec/hist gives it, for every span-end site of
    the sites file."""
    names = {}
    q = rb'"((?:[^"\\]|\\.)*)"'
    with open(prefix + ".sites", "rb") as f:
        for line in f:
            m = re.match(rb"^(\d+) \S+ (\d+) " + q + b" " + q + b" " + q +
                         rb" \S+ " + q + b" " + q + b"$", line.rstrip(b"\n"))
            if m and unquote(m.group(7)).startswith(SPAN_MARK_END):
                mod, file, fn = (unquote(m.group(i)) for i in (3, 4, 5))
                names[int(m.group(1))] = b"%s %s:%s %s [%s]" % (
                    m.group(1), file, m.group(2), fn, mod)
    return names


def bucket(v):
    """[low, high) of the bucket of @v, from frec_hist.c's DOC block."""
    if v < 32:
        return v, v + 1
    s = v.bit_length() - 1 - 4
    low = v >> s << s
    return low, low + (1 << s)


def mid(v):
    """What frec/hist reports for a figure @v: its bucket's midpoint."""
    if v >= 1 << 40:
        return 1 << 40
    low, high = bucket(v)
    return low + (high - low) // 2


def expected(text, sites):
    """site word -> the values (ns) of its span ends in @text, in order."""
    vals = {}
    for line in text.split(b"\n"):
        m, e = LINE.match(line), SPAN_END.search(line)
        if m and e:
            key = (m.group(3), int(m.group(2)), int(m.group(1)))
            vals.setdefault(sites[key], []).append(int(e.group(1)))
    return vals


def parse_hist(out):
    """The histograms printed: [(name, stats match, [(low, high, n)])], and
    the lines starting with '#'."""
    hists, comments = [], []
    for line in out.split(b"\n")[:-1]:
        if line.startswith(b"#"):
            comments.append(line)
        elif HIST.match(line):
            hists.append([HIST.match(line).group(1), None, []])
        elif hists and STATS.match(line):
            hists[-1][1] = STATS.match(line)
        elif hists and BUCKET.match(line):
            m = BUCKET.match(line)
            hists[-1][2].append((int(m.group(1)), m.group(2).decode(), int(m.group(3))))
        else:
            hists.append([b"?unparsed " + line, None, []])
    return hists, comments


def check_site(c, what, name, got, vals):
    """One site's histogram against its values."""
    st, buckets = got[1], got[2]
    if not st or st.group(2) is None:
        c.check(f"{what}: {name}: statistics line", False, repr(st and st.group(0)))
        return
    n = len(vals)
    s = sorted(vals)
    exact = {"count": n, "sum": sum(vals), "mean": sum(vals) // n}
    printed = {"count": int(st.group(1)), "sum": int(st.group(2)), "mean": int(st.group(4))}
    c.check(f"{what}: {name}: count, sum, mean", printed == exact,
            f"{printed} != {exact}")
    figures = [("min", s[0], int(st.group(3))), ("max", s[-1], int(st.group(9)))]
    for i, p in enumerate(PCTS):
        figures.append((f"p{p / 100:g}", s[math.ceil(n * p / 10000) - 1], int(st.group(5 + i))))
    for fig, want, pv in figures:
        c.check(f"{what}: {name}: {fig} {pv}: bucket midpoint of {want}, within 1/32",
                pv == mid(want) and abs(pv - want) * 32 <= want, f"midpoint {mid(want)}")
    counts = {}
    for v in vals:
        counts[bucket(v)] = counts.get(bucket(v), 0) + 1
    want_b = [(lo, str(hi), k) for (lo, hi), k in sorted(counts.items())]
    c.check(f"{what}: {name}: buckets", buckets == want_b,
            f"printed {buckets[:6]}..., computed {want_b[:6]}...")
    c.check(f"{what}: {name}: buckets sum to count",
            sum(k for _, _, k in buckets) == printed["count"], "")


def check_dump(c, what, prefix, files, filt=(), want_rc=0):
    """-F hist of a dump (with the filter @filt) against its text output."""
    rc, out, err = c.run_decoder(["-F", "hist", *filt, *files])
    c.check(f"{what}: exit {want_rc}", rc == want_rc, err[:300])
    c.check(f"{what}: no sanitizer report", "runtime error" not in err and
            "Sanitizer" not in err, err[:300])
    _, text, _ = c.run_decoder([*filt, *files])
    sites = raw_sites(prefix + ".raw")
    vals = expected(text, sites)
    names = site_names(prefix)
    hists, comments = parse_hist(out)
    c.check(f"{what}: the header, then the '# from' line", len(comments) == 2 and
            comments[0] == HEADER and FROM.match(comments[1]) is not None, repr(comments))
    m = FROM.match(comments[1]) if len(comments) == 2 else None
    # the ends of a site without an id: in no histogram, as in frec/hist
    noid = sum(len(v) for k, v in vals.items() if k not in names)
    vals = {k: v for k, v in vals.items() if k in names}
    ends = sum(len(v) for v in vals.values())
    skewed = len([1 for line in text.split(b"\n") if b" skew=-" in line and
                  LINE.match(line) and SPAN_END.search(line) and
                  sites[(LINE.match(line).group(3), int(LINE.match(line).group(2)),
                         int(LINE.match(line).group(1)))] in names])
    c.check(f"{what}: totals {ends} span ends, {len(names)} sites, {skewed} skewed, "
            f"{noid} not counted",
            m is not None and tuple(int(m.group(i)) for i in range(1, 5)) ==
            (ends, len(names), skewed, noid), repr(comments))
    c.check(f"{what}: some span ends, some skewed, several sites, some without an id",
            ends > 0 and (skewed > 0 or filt) and len(vals) > 1 and (noid > 0 or filt),
            f"{ends} {skewed} {len(vals)} {noid}")
    never = [k for k in names if k not in vals]
    c.check(f"{what}: a span-end site that never ended", len(never) > 0, repr(never))
    c.check(f"{what}: one histogram per span-end site of the sites file, in id order, "
            "named as frec/hist",
            [h[0] for h in hists] == [names[k] for k in sorted(names)],
            f"{[h[0] for h in hists]} != {[names[k] for k in sorted(names)]}")
    for h, key in zip(hists, sorted(names)):
        if key in vals:
            check_site(c, what, h[0].decode(errors="replace"), h, vals[key])
        else:
            c.check(f"{what}: {h[0].decode(errors='replace')}: never ended: count=0, "
                    "no buckets", h[1] is not None and h[1].group(0) == b"  count=0" and
                    not h[2], repr(h[1] and h[1].group(0)))
    return err


def main():
    c = checker.Checker(sys.argv[1], sys.argv[2], "check-hist")
    for what, args, filt in (
            ("4 cpus", ("-n", "20000", "-c", "4"), ()),
            ("lossy shuffled", ("-n", "8000", "-c", "3", "--lose", "--shuffle"), ()),
            ("global swapped", ("-n", "8000", "-c", "2", "--global", "--swap"), ()),
            ("filtered", ("-n", "20000", "-c", "4", "-s", "7"),
             ("--cpu", "0,2", "--time", "1.2-"))):
        prefix = c.make(what.replace(" ", "-"), *args)
        files = ["-f", prefix + ".formats", "-S", prefix + ".sites", "-k",
                 prefix + ".kallsyms", prefix + ".raw"]
        check_dump(c, what, prefix, files, filt)

    # Events of unknown format: left out, and said so.
    prefix = c.make("missing", "-n", "8000", "-c", "3", "--missing")
    files = ["-f", prefix + ".formats", "-S", prefix + ".sites", "-k",
             prefix + ".kallsyms", prefix + ".raw"]
    err = check_dump(c, "missing", prefix, files, want_rc=3)
    c.check("missing: warned of the events left out",
            re.search(r"\d+ events of unknown format left out of the histograms", err)
            is not None, err[-300:])

    # A region image: the same histograms as its records' raw dump.
    prefix = c.make("region", "-n", "3000", "-c", "4", "--region")
    rc, out, err = c.run_decoder(["-F", "hist", prefix + ".region"])
    c.check("region: exit 0", rc == 0, err[:300])
    files = ["-f", prefix + ".formats", "-S", prefix + ".sites", "-k",
             prefix + ".kallsyms", prefix + ".raw"]
    _, raw_out, _ = c.run_decoder(["-F", "hist", *files])
    hists, _ = parse_hist(out)
    c.check("region: some histograms", len(hists) > 1, repr(hists[:1]))
    c.check("region: lines not starting with '#' equal the raw dump's",
            [l for l in out.split(b"\n") if not l.startswith(b"#")] ==
            [l for l in raw_out.split(b"\n") if not l.startswith(b"#")], err[:300])

    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
