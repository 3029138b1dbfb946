#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the crafted inputs of testdata/: raw dumps broken in one way each,
bad formats, sites and kallsyms files, their MANIFEST (what frec-decode
must answer), and the small formats, sites and kallsyms files they are
decoded against.  Run from anywhere:

    python3 tools/frec-decode/tests/make_bad.py

The files are committed; rerun this after changing it, and commit them.
Layouts follow uapi/frec_raw.h (checked against it by test_decode.c)."""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "testdata")

MAGIC = b"FRECRAW\0"
ORDER = 0x01020304


CLOCK_SYNCED = 0x1
MERGE_BY_SEQ = 0x2


def header(magic=MAGIC, order=ORDER, version=3, header_bytes=48,
           slot_bytes=64, word_bytes=8, flags=CLOCK_SYNCED, clock=b"local",
           extra=b"", e="<"):
    return struct.pack(e + "8sIIIIII16s", magic, order, version, header_bytes,
                       slot_bytes, word_bytes, flags, clock) + extra


def ring(rid=7, kind=0, name=b"events", order=0, bytes_=56, e="<"):
    return struct.pack(e + "IIIIII32s", 1, bytes_, rid, kind, order, 0, name)


def record(seq, typ=2, ts=1000, site=0xffffffffc0a80000, caller=0xffffffff81000010,
           rid=7, cpu=0, text=b"", length=None, bytes_=None, args=(1, 2, 0, 0),
           e="<"):
    n = len(text) if length is None else length
    size = (88 + len(text) + 7) // 8 * 8 if bytes_ is None else bytes_
    body = struct.pack(e + "IIQQQQIIII4Q", typ, size, seq, ts, site, caller,
                       rid, cpu, n, 0, *args) + text
    return body + b"\0" * ((-len(body)) % 8)


def clock(offset=-3100000, window=40, flags=1, name=b"local", bytes_=48, e="<"):
    return struct.pack(e + "IIqQII16s", 4, bytes_, offset, window, flags, 0, name)


GOOD = header() + ring() + record(1) + record(2, ts=2000, cpu=1)

# name: (bytes, extra args, exit code, stderr text)
CASES = {
    "empty": (b"", 1, "offset 0: empty: no raw dump header"),
    "magic": (b"GARBAGE!" + GOOD[8:], 1, "offset 0: not a frec raw dump"),
    "text-file": (b"# frec dump: clock=local\n1 [ 0.1] cpu0 x: y z\n", 1,
                  "offset 0: not a frec raw dump"),
    "short-header": (GOOD[:20], 1, "offset 0: truncated header: 20 of 48 bytes"),
    "byte-order": (header(order=0x11223344) + GOOD[48:], 1,
                   "offset 8: byte order word 0x11223344 is neither"),
    "version": (header(version=5) + GOOD[48:], 1,
                "offset 12: version 5; this frec-decode reads versions 3 to 4"),
    # the layout before per-CPU seqs: its ring entries are 8 bytes shorter
    "version-1": (header(version=1) + struct.pack("<IIII32s", 1, 48, 7, 0, b"events")
                  + record(1), 1,
                  "offset 12: version 1; this frec-decode reads versions 3 to 4"),
    # the layout before site words: the same bytes, a format address where
    # the site word is
    "version-2": (header(version=2) + GOOD[48:], 1,
                  "offset 12: version 2; this frec-decode reads versions 3 to 4"),
    "header-bytes": (header(header_bytes=52) + GOOD[48:], 1,
                     "offset 16: header_bytes 52: not a multiple of 8"),
    "header-bytes-huge": (header(header_bytes=1 << 20) + GOOD[48:], 1,
                          "offset 16: header_bytes 1048576"),
    "header-extra-cut": (header(header_bytes=64, extra=b"\0" * 8), 1,
                         "offset 0: truncated header: 56 of 64 bytes"),
    "slot-bytes": (header(slot_bytes=32) + GOOD[48:], 1,
                   "offset 20: slot_bytes 32, expected 64"),
    "word-bytes": (header(word_bytes=4) + GOOD[48:], 1,
                   "offset 24: word_bytes 4: only dumps of 64-bit kernels"),
    "clock": (header(clock=b"lo\ncal") + GOOD[48:], 1,
              "offset 32: clock name is not 1-15 characters"),
    "clock-unterminated": (header(clock=b"x" * 16) + GOOD[48:], 1,
                           "offset 32: clock name"),
    "entry-head-cut": (header() + b"\1\0\0\0", 1,
                       "offset 48: truncated entry: 4 of 8 head bytes"),
    "entry-cut": (header() + ring() + record(1)[:40], 1,
                  "offset 104: truncated entry: 40 of 88 bytes"),
    "entry-bytes-odd": (header() + struct.pack("<II", 2, 12) + b"\0" * 8, 1,
                        "offset 52: entry of 12 bytes: not a multiple of 8"),
    "entry-bytes-zero": (header() + struct.pack("<II", 99, 0), 1,
                         "offset 52: entry of 0 bytes"),
    "entry-huge": (header() + ring() + record(1, bytes_=1 << 20), 1,
                   "offset 104: entry of type 2 and 1048576 bytes, more than 65536"),
    "unknown-cut": (header() + struct.pack("<II", 99, 4096) + b"\0" * 8, 1,
                    "offset 48: truncated entry: 16 of 4096 bytes"),
    "ring-short": (header() + struct.pack("<II", 1, 16) + b"\0" * 8, 1,
                   "offset 48: ring entry of 16 bytes, 56 needed"),
    # a ring entry whole but for a field: that ring is skipped with its
    # records, alone; ring 7's record before and after it still prints
    "ok-ring-kind": (header() + ring() + record(1) + ring(rid=8, kind=5)
                     + record(1, rid=8) + record(2, ts=2000), 3,
                     "offset 204: ring kind 5, expected 0 or 1: ring entry skipped, "
                     "with its records"),
    "ok-ring-name": (header() + ring() + record(1) + ring(rid=8, name=b"bad name")
                     + record(1, rid=8) + record(2, ts=2000), 3,
                     "offset 216: ring name is not 1-31 characters of [A-Za-z0-9_-]: "
                     "ring entry skipped, with its records"),
    # a Latin-1 letter: the kernel's isalnum() takes it, ring names do not
    "ok-ring-name-latin1": (header() + ring() + record(1) + ring(rid=8, name=b"caf\xe9")
                            + record(1, rid=8) + record(2, ts=2000), 3,
                            "offset 216: ring name is not 1-31 characters"),
    "ok-ring-name-empty": (header() + ring(name=b"") + ring() + record(1), 3,
                           "offset 72: ring name is not 1-31 characters"),
    "ok-ring-name-unterminated": (header() + ring() + ring(rid=8, name=b"x" * 32)
                                  + record(1), 3,
                                  "offset 128: ring name is not 1-31 characters"),
    "ok-ring-order": (header() + ring() + ring(rid=8, order=5) + record(1, rid=8)
                      + record(1), 3,
                      "offset 120: ring order 5, expected 0 (per CPU) or 1 (global): "
                      "ring entry skipped, with its records"),
    # a bad entry of a ring a good one defined: the ring keeps the good one
    "ok-ring-name-again": (header() + ring() + ring(name=b"bad name") + record(1), 3,
                           "offset 128: ring name is not 1-31 characters of "
                           "[A-Za-z0-9_-]: ring entry skipped; the ring keeps its "
                           "earlier entry"),
    "ring-order-cpu-by-seq": (header(flags=MERGE_BY_SEQ) + ring(order=0) + record(1), 1,
                              "offset 64: ring events numbers its records per CPU, "
                              "in a dump merged by seq"),
    "no-ring": (header() + ring() + record(1, rid=9), 1,
                "offset 144: record of ring 9, which no ring entry defined before it"),
    "ts-order": (header() + ring() + record(7, ts=2000) + record(8), 1,
                 "offset 208: timestamp 1000 after 2000 of ring 7 on cpu 0: records out of order"),
    "seq-repeat": (header() + ring() + record(3, cpu=2) + record(3, ts=2000, cpu=2), 1,
                   "offset 200: seq 3 after seq 3 of ring 7 on cpu 2"),
    "ts-order-ring": (header() + ring() + ring(rid=8, name=b"other")
                      + record(4, rid=8, ts=3000) + record(9) + record(5, rid=8, ts=2000), 1,
                      "offset 352: timestamp 2000 after 3000 of ring 8 on cpu 0"),
    "seq-zero": (header() + ring() + record(0), 1, "offset 112: seq 0: seqs start at 1"),
    "cpu": (header() + ring() + record(1, cpu=70000), 1,
            "offset 148: cpu 70000, more than 65535"),
    "event-text": (header() + ring() + record(1, text=b"12345678"), 1,
                   "offset 152: event with 8 bytes of text"),
    "text-len": (header() + ring(kind=1) + record(1, typ=3, site=0, text=b"hi",
                                                  length=500), 1,
                 "offset 152: text of 500 bytes in an entry of 96"),
    "event-short": (header() + ring() + struct.pack("<II", 2, 16) + b"\0" * 8, 1,
                    "offset 104: event entry of 16 bytes, 88 needed"),
    "garbage": (bytes((i * 131 + 7) % 256 for i in range(3000)), 1,
                "not a frec raw dump"),
    "good-then-garbage": (GOOD + b"\xff" * 24, 1,
                          "offset 284: entry of 4294967295 bytes: not a multiple of 8"),
    "good-then-huge": (GOOD + struct.pack("<II", 3, 1 << 24), 1,
                       "offset 280: entry of type 3 and 16777216 bytes, more than 65536"),
    "clock-short": (header() + struct.pack("<II", 4, 16) + b"\0" * 8 + ring() + record(1), 1,
                    "offset 48: clock entry of 16 bytes, 48 needed"),
    "clock-name": (header() + clock(name=b"lo cal") + ring() + record(1), 1,
                   "offset 80: trace clock name is not 1-15 characters"),
    # these decode: the format asks readers to cope with them
    "ok-clock": (header() + clock() + ring() + record(1), 0, ""),
    "ok-clock-unknown-name": (header() + clock(name=b"mono") + ring() + record(1), 0, ""),
    "ok-clock-longer": (header() + clock(bytes_=56) + b"\0" * 8 + ring() + record(1), 0, ""),
    "ok-swapped": (header(e=">") + ring(e=">") + record(1, e=">")
                   + record(2, ts=2000, cpu=1, e=">"), 0, ""),
    "ok-unknown-entry": (header() + struct.pack("<II", 99, 24) + b"\0" * 16
                         + ring() + record(1), 0, ""),
    "ok-longer-header": (header(header_bytes=64, extra=b"\xee" * 16) + ring()
                         + record(1), 0, ""),
    "ok-header-only": (header(), 0, ""),
    "ok-text-padding": (header() + ring(rid=2, kind=1, name=b"log")
                        + record(1, typ=3, site=0, rid=2, text=b"line\n"), 0, ""),
    "ok-bad-format": (header() + ring() + record(1, site=0xffffffffc0a80040), 3,
                      "offset 104: format 0xffffffffc0a80040: bad format at byte 4"),
    "ok-missing-format": (header() + ring() + record(1, site=0xffffffffc0f01234)
                          + record(2, site=0xffffffffc0f01234), 3,
                          "offset 104: format 0xffffffffc0f01234 is not in the formats file"),
    # site words below FREC_SITE_ID_LIMIT are ids in the sites file
    "ok-site": (header() + ring() + record(1, site=1) + record(2, ts=2000, cpu=1, site=1), 0, ""),
    "ok-unknown-site": (header() + ring() + record(1, site=1) + record(2, ts=2000, site=0x1234),
                        3, "offset 192: site 4660 is not in the sites file"),
    "ok-bad-site-format": (header() + ring() + record(1, site=2, args=(1, 2, 3, 4)), 3,
                           "offset 104: site 2: bad format at byte 4"),
    # seqs are per (ring, CPU): the same seq on two CPUs, listed out of the
    # merged order, a CPU whose first records were overwritten
    "ok-seq-per-cpu": (header() + ring() + record(1, ts=3000) + record(2, ts=4000)
                       + record(1, ts=1000, cpu=1) + record(9, ts=3500, cpu=2), 0, ""),
    # merged by seq: cpu1's seq 2 (ts 5000) before cpu0's seq 4 (ts 3000)
    "ok-global": (header(flags=MERGE_BY_SEQ) + ring(order=1) + record(4, ts=3000)
                  + record(2, ts=5000, cpu=1) + record(7, ts=6000, cpu=1), 0, ""),
    "ok-unknown-flags": (header(flags=0x80000000) + ring() + record(1), 0, ""),
}

FORMATS = (
    '0xffffffffc0a80000 : "irq %d status %#lx"\n'
    '0xffffffffc0a80040 : "bad %y"\n'
    '0xffffffff82000000 : "alpha"\n'
)
SITES = (
    "# id level line module file function caller caller-symbol format\n"
    '1 info 7 "frec" "/src/frec/kmod/frec.c" "frec_fn" 0xffffffffc0a00010 '
    '"frec_fn+0x10/0x100 [frec]" "irq %d status %#lx"\n'
    '2 warn 9 "" "kernel/x.c" "do_work" 0x0 "" "bad %y"\n'
)
KALLSYMS = (
    "0000000000000000 A fixed_percpu_data\n"
    "ffffffff81000000 T _stext\n"
    "ffffffff81000100 t do_work\n"
    "ffffffffc0a00000 t frec_fn\t[frec]\n"
    "ffffffffc0a00100 d __this_module\t[frec]\n"
)

# Bad tables: (file, contents, which option, exit, stderr)
TABLES = {
    "formats-syntax.formats": ('0x10 : "ok"\n0x20 "no colon"\n', "-f", 1,
                               "formats-syntax.formats: line 2: expected 0x<address>"),
    "formats-noquote.formats": ('0x10 : "ok\n', "-f", 1, "line 1: expected"),
    "formats-hex.formats": ('0x11223344556677889 : "too long"\n', "-f", 1,
                            "line 1: expected"),
    "formats-dup.formats": ('0x10 : "a"\n0x10 : "b"\n', "-f", 1,
                            "line 2: 0x10 listed on line 1 with another string"),
    "sites-id.sites": ('1 info 1 "m" "f" "g" 0x0 "" "a"\nx1 info 1 "m" "f" "g" 0x0 "" "a"\n',
                       "-S", 1, "sites-id.sites: line 2: id 'x1': not a decimal number"),
    "sites-id-zero.sites": ('0 info 1 "m" "f" "g" 0x0 "" "a"\n', "-S", 1,
                            "line 1: id 0: site ids start at 1"),
    "sites-id-limit.sites": ('16777216 info 1 "m" "f" "g" 0x0 "" "a"\n', "-S", 1,
                             "line 1: id 16777216: not below 16777216"),
    "sites-dup.sites": ('# c\n5 info 1 "m" "f" "g" 0x0 "" "a"\n5 info 1 "m" "f" "g" 0x0 "" "a"\n',
                        "-S", 1, "line 3: id 5: listed on line 2 already"),
    "sites-level.sites": ('1 fatal 1 "m" "f" "g" 0x0 "" "a"\n', "-S", 1,
                          "line 1: level 'fatal': not err, warn, info, debug or trace"),
    "sites-quote.sites": ('1 info 1 "m" "f" "g" 0x0 "" "a\\"\n', "-S", 1,
                          "line 1: format: no closing quote"),
    "sites-missing.sites": ('1 info 1 "m" "f" "g" 0x0\n', "-S", 1,
                            "line 1: missing caller symbol"),
    "sites-trailing.sites": ('1 info 1 "m" "f" "g" 0x0 "" "a" 7\n', "-S", 1,
                             "line 1: a byte after the format"),
    "kallsyms-syntax.kallsyms": ("ffffffff81000000 T a\nffffffff81000100\n", "-k", 1,
                                 "kallsyms-syntax.kallsyms: line 2: expected <hex address>"),
    "kallsyms-module.kallsyms": ("ffffffff81000000 t a\t[mod\n", "-k", 1,
                                 "line 1: expected"),
    "kallsyms-zero.kallsyms": ("0000000000000000 T _stext\n0000000000000000 t a\t[m]\n",
                               "-k", 3, "every address is 0"),
}


def main():
    bad = os.path.join(OUT, "bad")
    os.makedirs(bad, exist_ok=True)
    for name in os.listdir(bad):
        os.unlink(os.path.join(bad, name))
    with open(os.path.join(OUT, "small.formats"), "w") as f:
        f.write(FORMATS)
    with open(os.path.join(OUT, "small.sites"), "w") as f:
        f.write(SITES)
    with open(os.path.join(OUT, "small.kallsyms"), "w") as f:
        f.write(KALLSYMS)
    manifest = ["# file|option|exit code|text stderr must hold (empty: nothing)"]
    for name, (data, code, text) in sorted(CASES.items()):
        with open(os.path.join(bad, name + ".raw"), "wb") as f:
            f.write(data)
        manifest.append(f"{name}.raw||{code}|{text}")
    for name, (data, opt, code, text) in sorted(TABLES.items()):
        with open(os.path.join(bad, name), "w") as f:
            f.write(data)
        manifest.append(f"{name}|{opt}|{code}|{text}")
    with open(os.path.join(bad, "MANIFEST"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
