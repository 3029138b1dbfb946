#!/usr/bin/env python3
"""frec-decode -F json against the rules of Perfetto's JSON importer, as
write_json.c states them, on dumps frec-gen writes (several CPUs, rings
that lost records, odd bytes in messages, a region image).

    check_json.py BUILD_DIR DECODER

Rules checked: the output is valid UTF-8 and JSON, an object whose first
key is "traceEvents", no "displayTimeUnit"; every event has the fields
its phase needs (M: name, pid, tid, args.name or args.sort_index; i: name,
cat, ts, pid, tid, "s":"t"; C: name, ts, pid, numeric args); pids are a
ring's position + 1, tids pid * 100000 + cpu; each pid has a
process_name (the ring) and each (pid, tid) an instant uses a
thread_name (cpuN), both before their first use, and no tid is used by
two pids; every record of the text output is exactly one instant, at its
timestamp to the ns, on its ring's process and its CPU's thread, named
by its message; ts never goes back on a track; the last value of each
"cpuN lost" counter is --stats' missing + before for that ring and CPU,
and every (ring, CPU) that lost records has one; every span end of the
text output is exactly one slice, a complete event (X) on the end's CPU
track when its begin is on that CPU, or a pair of async events (b, e)
with one id, from the begin's time (the end's less dur) to the end's,
with the text's duration; complete events nest on every track; there are
both kinds.  Prints "N passed, M
failed".
"""
import json
import re
import sys

import checker

LINE = re.compile(rb"^(\d+) \[ *(\d+)\.(\d{9})\] cpu(\d+) (?:(?:T\d+|softirq|hardirq|nmi) )?(\S+): ")
SPAN_END = re.compile(rb" < .* dur=(\d+)ns(?: skew=-\d+ns)? span=(\d+)/(\d+)$")
TID_PER_PID = 100000


def text_records(text):
    """(ring, cpu, seq) -> ts in ns, of the text output's record lines."""
    recs = {}
    for line in text.split(b"\n"):
        m = LINE.match(line)
        if m:
            key = (m.group(5).decode(), int(m.group(4)), int(m.group(1)))
            recs[key] = int(m.group(2)) * 10**9 + int(m.group(3))
    return recs


def text_span_ends(text):
    """(ring, cpu, seq) of each span end -> (ts, dur, begin cpu), in ns."""
    ends = {}
    for line in text.split(b"\n"):
        m, e = LINE.match(line), SPAN_END.search(line)
        if m and e:
            key = (m.group(5).decode(), int(m.group(4)), int(m.group(1)))
            ends[key] = (int(m.group(2)) * 10**9 + int(m.group(3)), int(e.group(1)),
                         int(e.group(2)))
    return ends


def check_spans(c, name, slices, asyncs, text):
    """The spans' slices against the text's span ends."""
    want = text_span_ends(text)
    bad, got = [], {}
    for e in slices:
        a = e["args"]
        got.setdefault((a["ring"], a["end_cpu"], a["end_seq"]), []).append(e)
    pairs = {}
    for e in asyncs:
        pairs.setdefault((e["pid"], e["id"]), []).append(e)
    for (pid, _), evs in pairs.items():
        phs = sorted(x["ph"] for x in evs)
        if phs != ["b", "e"]:
            bad.append(("async id not one b and one e", evs[:2]))
            continue
        b = next(x for x in evs if x["ph"] == "b")
        en = next(x for x in evs if x["ph"] == "e")
        a = b["args"]
        got.setdefault((a["ring"], a["end_cpu"], a["end_seq"]), []).append(
            dict(b, ph="be", end_ts=ts_ns(en)))
    for k, (ts, dur, bcpu) in want.items():
        evs = got.get(k, [])
        if len(evs) != 1:
            bad.append(("span end not one slice", k, len(evs)))
            continue
        e = evs[0]
        if e["args"]["dur_ns"] != dur or ts_ns(e) != ts - dur:
            bad.append(("slice time", k, e))
        if e["ph"] == "X":
            if round(float(e["dur"]) * 1000) != dur or bcpu != k[1]:
                bad.append(("complete event's dur or CPU", k, e))
        elif e["end_ts"] != ts:
            bad.append(("async end time", k, e))
    extra = set(got) - set(want)
    c.check(f"{name}: every span end is one slice, at its times", not bad and not extra,
            f"{bad[:2]}; not span ends in the text: {sorted(extra)[:3]}")
    nest_bad = []
    by_track = {}
    for e in slices:
        by_track.setdefault((e["pid"], e["tid"]), []).append(
            (ts_ns(e), -round(float(e["dur"]) * 1000), e))
    for track, evs in by_track.items():
        stack = []
        for ts, negdur, e in sorted(evs, key=lambda x: (x[0], x[1])):
            while stack and stack[-1] <= ts:
                stack.pop()
            end = ts - negdur
            if stack and end > stack[-1]:
                nest_bad.append((track, e))
            stack.append(end)
    c.check(f"{name}: complete events nest on their tracks", not nest_bad, str(nest_bad[:2]))
    c.check(f"{name}: spans both as complete and as async events",
            bool(slices) and bool(asyncs), f"{len(slices)} X, {len(asyncs)} b/e")


def stats_losses(stats):
    """(ring, cpu) -> records lost (missing + before) of --stats' table."""
    lost = {}
    for line in stats.decode().splitlines():
        f = line.split()
        if line.startswith("#") or len(f) != 8 or f[6] == "-":
            continue
        lost[(f[0], int(f[2]))] = int(f[6]) + int(f[7])
    return lost


def ts_ns(e):
    """An event's ts, as written (µs with three decimals), in ns."""
    whole, _, frac = e["raw_ts"].partition(".")
    return int(whole) * 1000 + int(frac.ljust(3, "0"))


def check_doc(c, name, out, text, stats):
    try:
        s = out.decode("utf-8")
    except UnicodeDecodeError as e:
        c.check(f"{name}: valid UTF-8", False, str(e))
        return
    c.check(f"{name}: valid UTF-8", True)
    raw_ts = re.findall(r'"ts":([0-9.]+)', s)
    try:
        doc = json.loads(s)
    except ValueError as e:
        c.check(f"{name}: valid JSON", False, str(e))
        return
    c.check(f"{name}: an object, traceEvents first, no displayTimeUnit",
            isinstance(doc, dict) and list(doc)[:1] == ["traceEvents"] and
            "displayTimeUnit" not in doc, str(list(doc)[:3]))
    events = doc.get("traceEvents", [])
    i = 0
    for e in events:
        if "ts" in e:
            e["raw_ts"] = raw_ts[i]
            i += 1
    c.check(f"{name}: ts has three decimals", all(re.fullmatch(r"\d+\.\d{3}", t)
                                                 for t in raw_ts), str(raw_ts[:3]))

    bad, procs, threads, tid_pid = [], {}, {}, {}
    instants, last_ts, counters = {}, {}, {}
    slices, asyncs = [], []
    for e in events:
        ph = e.get("ph")
        pid, tid = e.get("pid"), e.get("tid")
        if not isinstance(pid, int) or not isinstance(tid, int):
            bad.append(("pid/tid", e))
            continue
        if tid_pid.setdefault(tid, pid) != pid:
            bad.append(("tid of two pids", e))
        if ph == "M":
            args = e.get("args", {})
            if e.get("name") == "process_name" and isinstance(args.get("name"), str):
                procs[pid] = args["name"]
            elif e.get("name") == "thread_name" and isinstance(args.get("name"), str):
                threads[(pid, tid)] = args["name"]
            elif e.get("name") not in ("process_sort_index", "thread_sort_index") or \
                    not isinstance(args.get("sort_index"), int):
                bad.append(("metadata", e))
            continue
        if not isinstance(e.get("name"), str) or "raw_ts" not in e:
            bad.append(("name/ts", e))
            continue
        if pid not in procs:
            bad.append(("pid used before its process_name", e))
            continue
        key = (pid, tid)
        if ph == "C":
            args = e.get("args")
            m = re.fullmatch(r"cpu(\d+) lost", e["name"])
            if tid != pid or not m or not isinstance(args, dict) or \
                    list(args) != ["records"] or not isinstance(args["records"], int):
                bad.append(("counter", e))
                continue
            counters[(procs[pid], int(m.group(1)))] = args["records"]
        elif ph in ("i", "B", "E"):
            a = e.get("args", {})
            if ph == "i" and e.get("s") != "t":
                bad.append(("instant without \"s\":\"t\"", e))
            if not isinstance(e.get("cat"), str) or key not in threads:
                bad.append(("cat, or track used before its thread_name", e))
                continue
            want_tid = pid * TID_PER_PID + a.get("cpu", -1)
            if tid != want_tid or threads[key] != f"cpu{a.get('cpu')}" or \
                    procs[pid] != a.get("ring") or e["cat"] != a.get("ring"):
                bad.append(("not on its ring's process and CPU's thread", e))
            rec = (a.get("ring"), a.get("cpu"), a.get("seq"))
            instants.setdefault(rec, []).append((ts_ns(e), e))
        elif ph == "X":
            a = e.get("args", {})
            if key not in threads or not isinstance(e.get("dur"), (int, float)) or \
                    tid != pid * TID_PER_PID + a.get("end_cpu", -1) or \
                    e.get("cat") != a.get("ring") or procs[pid] != a.get("ring"):
                bad.append(("complete event not on its end's CPU track", e))
            slices.append(e)
            continue
        elif ph in ("b", "e"):
            a = e.get("args", {})
            if not isinstance(e.get("id"), str) or e.get("cat") != a.get("ring") or \
                    procs[pid] != a.get("ring"):
                bad.append(("async event", e))
            asyncs.append(e)
            continue
        else:
            bad.append(("phase", e))
            continue
        if ph != "C":
            if ts_ns(e) < last_ts.get(key, 0):
                bad.append(("ts goes back on its track", e))
            last_ts[key] = ts_ns(e)
    c.check(f"{name}: every event has its phase's fields, on a named track", not bad,
            str(bad[:2]))

    want = text_records(text)
    twice = [k for k, v in instants.items() if len(v) != 1]
    c.check(f"{name}: every record once", set(instants) == set(want) and not twice,
            f"{len(instants)} in JSON, {len(want)} in text; twice {twice[:3]}; "
            f"missing {sorted(set(want) - set(instants))[:3]}; "
            f"extra {sorted(set(instants) - set(want))[:3]}")
    wrong_ts = [(k, v[0][0], want[k]) for k, v in instants.items()
                if k in want and v[0][0] != want[k]]
    c.check(f"{name}: every record at its timestamp", not wrong_ts, str(wrong_ts[:3]))
    if name != "region":
        check_spans(c, name, slices, asyncs, text)
    lost = stats_losses(stats)
    wrong = {k: (counters.get(k), v) for k, v in lost.items()
             if counters.get(k, 0) != v or (v and k not in counters)}
    extra = set(counters) - set(lost)
    c.check(f"{name}: loss counters end at --stats' missing + before",
            not wrong and not extra and any(lost.values()),
            f"(counter, stats): {wrong}; not in stats {extra}; lost {sum(lost.values())}")
    return len(instants)


# --json-track=task: a task's track and a CPU's interrupts' (write_json.c)
TID_PER_RING = 1 << 23
TASK_IRQ = 1 << 22
CONTEXT_LINE = re.compile(rb"^(\d+) \[ *\d+\.\d{9}\] cpu(\d+) (T\d+|softirq|hardirq|nmi) (\S+): ")
# the names frec-gen's task entries give (frec-gen.c, gen_comms)
# (1234's is "frec\ntest\x1b": control bytes become '?', tasks.c)
GEN_COMMS = {0: "<idle>", 1: "init", 57: "kworker/0:1", 1234: "frec?test?"}


def check_tasks(c, name, out, text):
    """--json-track=task: each record once, on its task's track (or its
    CPU's interrupts'), named comm-pid; complete events nest per track."""
    doc = json.loads(out)
    want = {}
    for line in text.split(b"\n"):
        m = CONTEXT_LINE.match(line)
        if m:
            want[(m.group(4).decode(), int(m.group(2)), int(m.group(1)))] = m.group(3).decode()
    threads, procs, bad, seen = {}, {}, [], {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "M" and e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") == "M" and e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        elif e.get("ph") in ("i", "B", "E"):
            a = e["args"]
            rec = (a["ring"], a["cpu"], a["seq"])
            seen[rec] = seen.get(rec, 0) + 1
            ctx = want.get(rec)
            if ctx is None:
                bad.append(("not a record of the text", e))
                continue
            if ctx.startswith("T"):
                pid = int(ctx[1:])
                comm = GEN_COMMS.get(pid, "<...>")
                tid, tname = e["pid"] * TID_PER_RING + pid, f"{comm}-{pid}"
            else:
                tid = e["pid"] * TID_PER_RING + TASK_IRQ + a["cpu"]
                tname = f"cpu{a['cpu']} interrupts"
            if e["tid"] != tid or threads.get((e["pid"], tid)) != tname:
                bad.append((f"not on the track {tname!r}", e))
    c.check(f"{name}, per task: every record on its task's track, named", not bad,
            str(bad[:2]))
    twice = [r for r, n in seen.items() if n != 1]
    c.check(f"{name}, per task: every record once", not twice and set(seen) == set(want),
            f"{len(seen)} in JSON, {len(want)} in text, twice {twice[:3]}")
    check_nesting(c, f"{name}, per task", doc)


def check_nesting(c, name, doc):
    """Complete events on one track nest (Perfetto's rule for slices)."""
    by_track = {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "X":
            by_track.setdefault((e["pid"], e["tid"]), []).append(
                (e["ts"], e["ts"] + e["dur"]))
    bad = []
    for track, evs in by_track.items():
        stack = []
        for b, end in sorted(evs, key=lambda x: (x[0], -x[1])):
            while stack and stack[-1] <= b:
                stack.pop()
            if stack and end > stack[-1] + 1e-6:
                bad.append(track)
                break
            stack.append(end)
    c.check(f"{name}: complete events nest on their tracks", not bad, str(bad[:2]))


def main():
    c = checker.Checker(sys.argv[1], sys.argv[2], "check-json")
    for what, args in (("lossy", ("-n", "4000", "-c", "5", "--lose")),
                       ("lossy shuffled", ("-n", "3000", "-c", "3", "--lose", "--shuffle")),
                       ("many cpus", ("-n", "6000", "-c", "40", "--lose", "--swap"))):
        prefix = c.make(what.replace(" ", "-"), *args)
        files = ["-f", prefix + ".formats", "-S", prefix + ".sites", "-k",
                 prefix + ".kallsyms", prefix + ".raw"]
        rc, out, err = c.run_decoder(["-F", "json", *files])
        c.check(f"{what}: exit 0", rc == 0, err[:300])
        _, text, _ = c.run_decoder(files)
        _, stats, _ = c.run_decoder(["--stats", *files])
        check_doc(c, what, out, text, stats)
        rc, out, err = c.run_decoder(["-F", "json", "--json-track=task", *files])
        c.check(f"{what}, per task: exit 0", rc == 0, err[:300])
        check_tasks(c, what, out, text)

    prefix = c.make("region", "-n", "3000", "-c", "4", "--lose", "--region")
    img = prefix + ".region"
    rc, out, err = c.run_decoder(["-F", "json", img])
    c.check("region: exit 0", rc == 0, err[:300])
    _, text, _ = c.run_decoder([img])
    _, stats, _ = c.run_decoder(["--stats", img])
    check_doc(c, "region", out, text, stats)
    rc, out, err = c.run_decoder(["-F", "json", "--json-track=task", img])
    c.check("region, per task: exit 0", rc == 0, err[:300])
    check_tasks(c, "region", out, text)

    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
