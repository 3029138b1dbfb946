#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Feed frec-decode every crafted input of testdata/bad/ (see MANIFEST and
make_bad.py) in each output format (trace-dat and hist too); each must give its exit code and its
message, never crash or trip a sanitizer, and finish within 10 s.

    check_bad.py TESTDATA_DIR FREC_DECODE
Prints "N passed, N failed"."""
import json
import os
import subprocess
import sys


def main():
    testdata, decoder = sys.argv[1], sys.argv[2]
    bad = os.path.join(testdata, "bad")
    tables = {opt: os.path.join(testdata, "small." + ext)
              for opt, ext in (("-f", "formats"), ("-S", "sites"), ("-k", "kallsyms"))}
    good_raw = os.path.join(bad, "ok-unknown-entry.raw")
    passed = failed = 0
    with open(os.path.join(bad, "MANIFEST")) as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    for line in lines:
        name, opt, code, text = line.split("|", 3)
        path = os.path.join(bad, name)
        for fmt in ("text", "json", "csv", "trace-dat", "hist"):
            # the file under test in place of its option's small table
            args = [a for o, t in tables.items() for a in (o, path if o == opt else t)]
            args.append(good_raw if opt else path)
            try:
                p = subprocess.run([decoder, "-F", fmt] + args, capture_output=True,
                                   timeout=10)
            except subprocess.TimeoutExpired:
                print(f"not ok {name} ({fmt}): hung")
                failed += 1
                continue
            err = p.stderr.decode(errors="replace")
            why = []
            if p.returncode != int(code):
                why.append(f"exit {p.returncode}, expected {code}")
            if text and text not in err:
                why.append(f"stderr lacks {text!r}")
            if not text and err:
                why.append("stderr not empty")
            if "Sanitizer" in err or "runtime error" in err:
                why.append("sanitizer report")
            if fmt == "json" and p.stdout:
                try:
                    json.loads(p.stdout)
                except ValueError as e:
                    why.append(f"JSON does not parse: {e}")
            if why:
                print(f"not ok {name} ({fmt}): {'; '.join(why)}\n# {err.strip()}")
                failed += 1
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
