#!/usr/bin/env python3
"""frec-decode against black box region images (uapi/frec_region.h) that
frec-gen --region writes, whole and damaged.

    check_region.py BUILD_DIR DECODER

A whole region decodes to the text its records' dump would print
(PREFIX.nokallsyms.txt: the region names callers by its own sites, with no
kallsyms).  Damaged ones: random bytes, another layout version, too small
are refused with their message and offset; a region cut short, or with a
corrupt block of slots, a corrupt site, text or ring entry, or corrupt
state copies, loses only what is corrupt: every line printed is one of the
expected lines, the counts reconcile, and what is lost is named by offset
inside the damage.  A ring entry sealed with a name no ring may have (a
blank, a Latin-1 letter) is skipped alone, in an image and in a raw dump
alike: every other ring's line prints.  Headers with valid checksums whose
counts claim more than the image holds (a table of about 2^32 entries, a
ring of 2^30 CPUs or 2^33 slots, on a 45 KiB image that says it is a 1 TiB
region) are read, as what the image holds, within a second of CPU and without a
sanitizer report, saying what the claim was.  On every image the decoder
reads, --previous=dump (the module's frec/previous/dump code,
kmod/lib/frec_region_dump.c) prints exactly the decoder's text; on the
whole one --previous=sites and --previous=formats list the generator's
sites and texts, and --previous=stats counts every record.  Prints "N
passed, M failed".
"""
import os
import random
import re
import resource
import struct
import subprocess
import sys

import checker

MAGIC = b"\x89FRECBLACKBOX\r\n\0"
BLOCK = 4096
# struct frec_region_header: magic, version @16, ..., sect[5] @176, 24 bytes each
SECT_OFF = 176
RINGS, SITES, TEXTS, POOL, PARTS = range(5)
SECT_NAMES = ("rings", "sites", "texts", "pool", "parts")
# Version 4's header: @csum @300, then @caller_base @304; versions 2 and
# 3 end at @csum.
HEADER_BYTES = 312
HEADER_V3_BYTES = 304
REGION_MAX = 1 << 40
# struct frec_region_ring: nr_cpus @12, nr_slots @24, parts_offset @32, csum @84
RING_BYTES = 88


def _crc32c_table():
    table = []
    for n in range(256):
        for _ in range(8):
            n = (n >> 1) ^ (0x82F63B78 if n & 1 else 0)
        table.append(n)
    return table


CRC32C = _crc32c_table()


def crc32c(data):
    """frec_region_csum(): CRC-32C."""
    crc = 0xFFFFFFFF
    for b in data:
        crc = CRC32C[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def seal(img, off, size, at=None):
    """The entry of SIZE bytes at OFF checksummed as the module seals it:
    the crc of the entry with its crc (its last 4 bytes, or AT bytes in) 0."""
    at = size - 4 if at is None else at
    struct.pack_into("<I", img, off + at, 0)
    struct.pack_into("<I", img, off + at, crc32c(bytes(img[off:off + size])))


def seal_header(img):
    """The header of a region image checksummed, as long as its version's."""
    version = struct.unpack_from("<I", img, 16)[0]
    seal(img, 0, HEADER_BYTES if version >= 4 else HEADER_V3_BYTES, 300)


class Checker(checker.Checker):
    def __init__(self, build, decoder):
        super().__init__(build, decoder, "check-region", ["--region"])

        self.previous = []	# (image, the module's dump text differs)

    def decode(self, data, *args, name="img.region"):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        rc, out, err = self.run_decoder([*args, path])
        if rc in (0, 3):
            prc, pout, _ = self.run_decoder(["--previous=dump", path])
            self.previous.append((len(self.previous), prc != rc or pout != out))
        # The records; their list of spans in flight: check_inflight.py.
        return rc, checker.records_only(out), err


def sect(img, i):
    off, size, entry, nr = struct.unpack_from("<QQII", img, SECT_OFF + 24 * i)
    return off, size, entry, nr


TEXT_RING = re.compile(rb"^\d+ \[ *\d+\.\d{9}\] cpu\d+ (?:(?:T\d+|softirq|hardirq|nmi) )?(\S+): ")


def without_ring(text, ring):
    """TEXT (a dump's text) without the lines of RING."""
    lines = text.split(b"\n")[:-1]
    return b"".join(l + b"\n" for l in lines
                    if not (TEXT_RING.match(l) and TEXT_RING.match(l).group(1) == ring))


def raw_rename_ring(raw, old, new):
    """A raw dump with ring OLD's entry named NEW; and where that entry is."""
    raw = bytearray(raw)
    at = struct.unpack_from("<I", raw, 16)[0]	# header_bytes
    while at < len(raw):
        typ, size = struct.unpack_from("<II", raw, at)
        if typ == 1 and raw[at + 24:at + 56].rstrip(b"\0") == old:
            raw[at + 24:at + 56] = new.ljust(32, b"\0")
            return bytes(raw), at
        at += size
    raise ValueError(f"no ring {old!r}")


def check_ring_names(c, prefix, img, want):
    """A ring entry whole, its checksum right, named what no ring can be: a
    blank, or a Latin-1 letter (which the kernel's isalnum() takes): that
    ring is skipped with its records, alone, naming the entry's offset;
    every other ring's lines print as they would have.  In a region image,
    and in a raw dump (kept whole from standard input, and read twice from
    a file)."""
    rings_off, _, ring_bytes, _ = sect(img, RINGS)
    at = rings_off + ring_bytes * 1
    old = img[at + 40:at + 72].rstrip(b"\0")
    with open(prefix + ".raw", "rb") as f:
        raw = f.read()
    with open(prefix + ".txt", "rb") as f:
        want_raw = f.read()
    tables = ["-f", prefix + ".formats", "-S", prefix + ".sites", "-k", prefix + ".kallsyms"]
    for label, name in (("a blank", b"bad name"), ("a Latin-1 letter", b"caf\xe9")):
        bad = bytearray(img)
        bad[at + 40:at + 72] = name.ljust(32, b"\0")
        struct.pack_into("<I", bad, at + 84, 0)
        struct.pack_into("<I", bad, at + 84, crc32c(bytes(bad[at:at + 88])))
        rc, out, err = c.decode(bytes(bad))
        others = without_ring(want, old)
        rec, _ = report(err)
        c.check(f"region, ring named with {label}: the other rings' lines, all of them",
                rc == 3 and out == others and len(others) < len(want),
                f"exit {rc}, {len(out)} bytes, expected {len(others)}; {err[:400]}")
        c.check(f"region, ring named with {label}: its entry reported at its offset",
                f"offset {at}: ring entry: corrupt" in err and
                rec == len(lines_of(others)), err[:400])
        braw, entry = raw_rename_ring(raw, old, name)
        path = os.path.join(c.dir, "ring-name.raw")
        with open(path, "wb") as f:
            f.write(braw)
        others = without_ring(want_raw, old)
        for how in ("read twice", "kept whole"):
            if how == "read twice":
                rc, out, err = c.run_decoder([*tables, path])
            else:
                with open(path, "rb") as f:
                    rc, out, err = c.run_decoder([*tables, "-"], stdin=f)
            c.check(f"raw dump {how}, ring named with {label}: the other rings' lines, all",
                    rc == 3 and out == others and len(others) < len(want_raw),
                    f"exit {rc}, {len(out)} bytes, expected {len(others)}; {err[:400]}")
            c.check(f"raw dump {how}, ring named with {label}: skipped at its offset",
                    f"offset {entry + 24}: ring name is not 1-31 characters" in err and
                    "skipped, with its records" in err, err[:400])


def claimed(img, counts=None, region=REGION_MAX, parts_to_end=False):
    """IMG with a header that claims more than IMG holds, sealed: section i
    made COUNTS[i] entries long (its bytes grown to hold them, the
    sections after it moved along), the region REGION bytes, the parts
    section to its end if PARTS_TO_END."""
    out = bytearray(img)
    off = BLOCK
    for i in range(5):
        _, size, entry, nr = sect(img, i)
        if counts and i in counts:
            nr = counts[i]
            size = (nr * entry + BLOCK - 1) // BLOCK * BLOCK
        if i == PARTS and parts_to_end:
            size = region - off
        struct.pack_into("<QQII", out, SECT_OFF + 24 * i, off, size, entry, nr)
        off += size
    struct.pack_into("<Q", out, 32, region)
    seal_header(out)
    return out


def report(err):
    m = re.search(r"(\d+) records recovered, (\d+) rejected", err)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def lines_of(out):
    return out.split(b"\n")[2:-1]


def head(line):
    """A line's "seq [time] cpuN ring:": which record it is."""
    return line.split(b": ", 1)[0]


def check_damaged(c, name, img, want_lines, total, lo, hi, rc_want=3, renamed=False):
    """Decoded with warnings; output a subset of the expected lines (with
    renamed, a line may also be an expected record's with some name printed
    as an address: the entry naming it is gone); the report's count of
    records recovered is the lines printed, fewer than were stored; every
    offset named in a warning about a record or an entry is inside
    [lo, hi)."""
    rc, out, err = c.decode(img)
    got = lines_of(out)
    rec, rej = report(err)
    heads = {head(l): l for l in want_lines}
    odd = [l for l in got if l not in want_lines and
           not (renamed and head(l) in heads and b"0x" in l)]
    offs = [int(x) for x in re.findall(r"offset (\d+): (?:ring \S+ cpu \d+: record|"
                                       r"site entry|text entry|ring entry)", err)]
    c.check(f"{name}: exit {rc_want}, only expected lines", rc == rc_want and got and
            not odd and len({head(l) for l in got}) == len(got),
            f"exit {rc}, {len(got)} lines; {odd[:2]} {err[:300]}")
    c.check(f"{name}: counts reconcile", rec == len(got) and rec < total,
            f"recovered {rec} rejected {rej} printed {len(got)} of {total}")
    c.check(f"{name}: what is lost is named inside the damage", offs and
            all(lo <= o < hi for o in offs), f"{offs[:10]} not in [{lo}, {hi}); {err[:300]}")
    return got, err


def child_cpu():
    """CPU seconds (user and system) of this process's waited children."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def decode_timed(c, img, args, name, limit=20):
    """frec-decode ARGS on IMG: (exit code or None if still running after
    LIMIT s, stdout, stderr, CPU seconds it took).  CPU time, not the
    clock's: a machine busy with other work (CI builds the debug kernel
    beside this) stretches the clock's seconds, not the decoder's work."""
    path = os.path.join(c.dir, name)
    with open(path, "wb") as f:
        f.write(img)
    start = child_cpu()
    try:
        p = subprocess.run([c.decoder, *args, path], capture_output=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, b"", f"still running after {limit} s", float(limit)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace"), child_cpu() - start


def gist(err):
    """What to quote of a failed run's stderr: a sanitizer's verdict and
    the first frames, or the decoder's first and last lines."""
    lines = err.splitlines()
    san = [i for i, l in enumerate(lines) if "ERROR: AddressSanitizer" in l or
           "runtime error" in l]
    if san:
        return " | ".join(lines[san[0]:san[0] + 6])
    return " | ".join(lines[:2] + lines[-2:])


def check_claims(c):
    """A 45 KiB image whose header, checksum valid, says it is a 1 TiB
    region holding tables, rings or slots far past the image's end: read
    as what the image holds, within a second of CPU, saying what was claimed."""
    small = c.make("claims", "-n", "20", "-c", "1", "--no-expected")
    with open(small + ".region", "rb") as f:
        img = f.read()
    cases = []
    for s, nr in ((RINGS, 0xFFFFFFFF), (SITES, 0xFFFFFFFE), (TEXTS, 0xFFFFFFFF)):
        name = SECT_NAMES[s]
        cases.append((f"{name} section claims {nr} entries", claimed(img, {s: nr}),
                      rf"offset {SECT_OFF + 24 * s + 20}: {name} section: {nr} entries "
                      r"claimed, \d+ in the image"))
    # the ring whose parts come last grown to the end of the region, in
    # CPUs or in slots; the other rings, untouched, lose nothing
    base = claimed(img, parts_to_end=True)
    rings_off = sect(img, RINGS)[0]
    last = rings_off + RING_BYTES * max(
        range(3), key=lambda r: struct.unpack_from("<Q", img, rings_off + RING_BYTES * r + 32))
    nr_slots, parts_at = struct.unpack_from("<QQ", base, last + 24)
    name = base[last + 40:last + 72].rstrip(b"\0").decode()
    part = nr_slots * 64
    cpus = min((REGION_MAX - parts_at) // part, 0xFFFFFFFF)
    many_cpus = bytearray(base)
    struct.pack_into("<I", many_cpus, last + 12, cpus)
    seal(many_cpus, last, RING_BYTES)
    shown = (len(img) - parts_at + part - 1) // part
    cases.append((f"a ring of {cpus} CPUs", many_cpus,
                  rf"offset {parts_at + shown * part}: ring {name} cpus {shown}-{cpus - 1}: "
                  r"parts past the end of the image.*20 records recovered"))
    many_slots = bytearray(base)
    struct.pack_into("<Q", many_slots, last + 24, 1 << 33)
    seal(many_slots, last, RING_BYTES)
    cases.append(("a ring of 2^33 slots", many_slots,
                  rf"offset \d+: ring {name} cpu 0: record: past the end of the image"))

    for what, bad, want in cases:
        rc, out, err, took = decode_timed(c, bad, [], "claimed.region")
        c.check(f"{what}: read as what the image holds, within a second",
                rc == 3 and took < 1 and "Sanitizer" not in err and
                re.search(r"\d+ records recovered", err) and
                "image: ends before the region does" in err,
                f"exit {rc} after {took:.1f} s of CPU: {gist(err)[:600]}")
        c.check(f"{what}: the claim is reported", re.search(want, err, re.S),
                f"no {want!r} in: {gist(err)[:300]}")
        if rc != 3:
            continue
        for prev in ("dump", "sites", "formats", "stats"):
            rc, out, err, took = decode_timed(c, bad, [f"--previous={prev}"],
                                              "claimed.region")
            c.check(f"{what}: --previous={prev} within a second",
                    rc == 3 and took < 1 and "Sanitizer" not in err,
                    f"exit {rc} after {took:.1f} s of CPU: {gist(err)[:600]}")


def main():
    c = Checker(sys.argv[1], sys.argv[2])
    total = 3000
    a = c.make("whole", "-n", str(total), "-c", "4")
    with open(a + ".region", "rb") as f:
        img = f.read()
    with open(a + ".nokallsyms.txt", "rb") as f:
        want = f.read()
    want_lines = set(lines_of(want))

    rc, out, err = c.decode(img)
    c.check("whole region: the dump's text", rc == 0 and out == want,
            f"exit {rc}, {len(out)} bytes, expected {len(want)}; {err[:300]}")
    c.check("whole region: boot, release, end and counts reported",
            "region of boot 5eedb007-1d00-4000-8000-123456789abc, kernel 6.1.0-frec-gen, "
            f"ended: panic; {total} records recovered, 0 rejected" in err, err[:300])
    p = subprocess.run([c.decoder, "--region", "-"], input=img, capture_output=True)
    c.check("whole region: --region from standard input", p.returncode == 0 and
            checker.records_only(p.stdout) == want, p.stderr[:200])
    g = c.make("global", "-n", "500", "-c", "3", "-s", "5", "--global")
    with open(g + ".region", "rb") as f, open(g + ".nokallsyms.txt", "rb") as w:
        rc, out, err = c.decode(f.read())
        c.check("global-order region: the dump's text", rc == 0 and out == w.read(), err[:300])

    # The same boot as a region of version 3 holds it: its header ends
    # before @caller_base, its caller words are offsets from 0.
    v3 = bytearray(img)
    struct.pack_into("<I", v3, 16, 3)
    struct.pack_into("<I", v3, 20, HEADER_V3_BYTES)
    struct.pack_into("<Q", v3, HEADER_V3_BYTES, 0)
    seal_header(v3)
    rc, out, err = c.decode(bytes(v3))
    c.check("version 3 region: the dump's text", rc == 0 and out == want,
            f"exit {rc}, {len(out)} bytes, expected {len(want)}; {err[:300]}")

    # The same boot as a region of version 2 holds it: each caller word
    # the whole caller (frec_caller_of() of version 3's word), no
    # context; its text is the dump's without the context column.
    v2 = bytearray(img)
    rings_off, _, _, nr = sect(img, RINGS)
    for e in range(rings_off, rings_off + nr * RING_BYTES, RING_BYTES):
        cpus = struct.unpack_from("<I", img, e + 12)[0]
        slots, parts = struct.unpack_from("<QQ", img, e + 24)
        for s in range(parts, parts + cpus * slots * 64, 64):
            state, word = struct.unpack_from("<Q16xQ", img, s)
            if state and not state & 3:
                up = word >> 32
                caller = (0x5afe << 48 | up if word & 0x20000000 else
                          up - (up >> 31 << 32)) % (1 << 64)
                struct.pack_into("<Q", v2, s + 24, caller)
    struct.pack_into("<I", v2, 16, 2)
    struct.pack_into("<I", v2, 20, HEADER_V3_BYTES)
    struct.pack_into("<Q", v2, HEADER_V3_BYTES, 0)
    seal_header(v2)
    want_v2 = re.sub(rb"(?m)^(\d+ \[ *\d+\.\d{9}\] cpu\d+) (?:T\d+|softirq|hardirq|nmi) ",
                     rb"\1 ", want.replace(b" cpu context ring: ", b" cpu ring: "))
    rc, out, err = c.decode(bytes(v2))
    c.check("version 2 region: the dump's text without contexts", rc == 0 and out == want_v2,
            f"exit {rc}, {len(out)} bytes, expected {len(want_v2)}; {err[:300]}")

    rnd = random.Random(24)
    rc, out, err = c.decode(bytes(rnd.getrandbits(8) for _ in range(len(img))), "--region")
    c.check("random bytes: refused as not a region, offset 0", rc == 1 and not out and
            "offset 0: not a frec region (no magic)" in err, err[:300])
    other = bytearray(img)
    struct.pack_into("<I", other, 16, 5)
    rc, out, err = c.decode(bytes(other))
    c.check("another layout version: refused, naming it", rc == 1 and not out and
            "offset 16: region layout version 5, this reader knows 2 to 4" in err, err[:300])
    rc, out, err = c.decode(img[:3000])
    c.check("too small: refused", rc == 1 and not out and
            "offset 3000: region shorter than its first block" in err, err[:300])
    bad = bytearray(img)
    bad[60] ^= 1	# in the boot id: only the checksum can tell
    rc, out, err = c.decode(bytes(bad))
    c.check("header bit flip: refused by its checksum", rc == 1 and not out and
            "region header checksum mismatch" in err, err[:300])

    parts_off, parts_size, _, _ = sect(img, PARTS)
    # cut in the middle of a slot, a third into the parts
    cut = parts_off + (parts_size // 3) // 64 * 64 + 24
    got, err = check_damaged(c, "cut mid-record", img[:cut], want_lines, total, cut - 6 * 64,
                             len(img))
    c.check("cut mid-record: the cut is reported", f"offset {cut}: image: ends before" in err,
            err[:300])

    # the block of slots holding the most records, overwritten with random bytes
    blk = max(range(parts_off, parts_off + parts_size, BLOCK),
              key=lambda b: sum(img[o:o + 8] != bytes(8) for o in range(b, b + BLOCK, 64)))
    bad = bytearray(img)
    bad[blk:blk + BLOCK] = bytes(rnd.getrandbits(8) for _ in range(BLOCK))
    got, err = check_damaged(c, "corrupt block of slots", bytes(bad), want_lines, total,
                             blk - 6 * 64, blk + BLOCK)
    c.check("corrupt block of slots: loses at most its records", len(got) >= total - 70,
            f"{len(got)} of {total}")

    # a torn write: one continuation slot BUSY (its record must go, alone),
    # and one first slot BUSY
    for what, bit in (("continuation", 2), ("first", 0)):
        def state(o):
            return struct.unpack_from("<Q", img, o)[0]

        # (a continuation slot whose first slot is a few slots before it,
        # not at the other end of the array)
        at = next(o for o in range(parts_off + 6 * 64, parts_off + parts_size, 64)
                  if (state(o) & 3) == bit and state(o) >> 3 and
                  (not bit or any(state(o - 64 * d) >> 3 == state(o) >> 3 and
                                  not state(o - 64 * d) & 3 for d in range(1, 7))))
        bad = bytearray(img)
        struct.pack_into("<Q", bad, at, 1)
        got, err = check_damaged(c, f"torn write, {what} slot busy", bytes(bad), want_lines,
                                 total, at - 6 * 64, at + 1)
        c.check(f"torn write, {what} slot busy: one record lost", len(got) == total - 1,
                f"{len(got)} of {total}")

    # a site entry, a text entry, a ring entry damaged
    # (the text entry: the first whose loss costs records, the format of a
    # site without an id)
    texts_off, _, text_bytes, _ = sect(img, TEXTS)
    text_idx = next(i for i in range(21) if subprocess.run(
        [c.decoder, "--region", "-"], capture_output=True,
        input=img[:texts_off + text_bytes * i] +
        bytes([img[texts_off + text_bytes * i] ^ 0x10]) +
        img[texts_off + text_bytes * i + 1:]).stdout.count(b"\n") < total + 2)
    # each damage where only the entry's checksum can tell: a site's line,
    # a text's address, a ring's name
    for what, s, idx, field in (("site", SITES, 3, 8), ("text", TEXTS, text_idx, 0),
                                ("ring", RINGS, 1, 40)):
        off, _, entry, _ = sect(img, s)
        at = off + entry * idx + field
        bad = bytearray(img)
        bad[at] ^= 0x10
        got, err = check_damaged(c, f"corrupt {what} entry", bytes(bad), want_lines, total,
                                 0 if what == "site" else off, parts_off + parts_size,
                                 renamed=what != "ring")
        c.check(f"corrupt {what} entry: reported at its offset",
                f"offset {off + entry * idx}: {what} entry: corrupt" in err, err[:300])

    check_ring_names(c, a, img, want)

    # both state copies damaged: the end is unknown, the records are whole
    bad = bytearray(img)
    bad[2048 + 30] ^= 1
    bad[3072 + 30] ^= 1
    rc, out, err = c.decode(bytes(bad))
    c.check("corrupt state copies: end unknown, records whole", rc == 0 and out == want and
            "ended: unknown (no valid state copy)" in err, err[:300])
    bad = bytearray(img)
    bad[2048 + 30] ^= 1
    bad[3072 + 30] ^= 1
    bad[3072 + 30] ^= 1
    rc, out, err = c.decode(bytes(bad))
    c.check("one state copy damaged: the other tells the end", rc == 0 and
            "ended: panic" in err, err[:300])

    bad = [i for i, differs in c.previous if differs]
    c.check(f"--previous=dump: the decoder's text on all {len(c.previous)} images read",
            len(c.previous) >= 10 and not bad, f"differs on images {bad[:10]}")
    path = os.path.join(c.dir, "whole.region")
    with open(path, "wb") as f:
        f.write(img)
    with open(a + ".sites", "rb") as f:
        want_sites = [l for l in f.read().split(b"\n") if l and not l.startswith(b"#")]
    rc, out, err = c.run_decoder(["--previous=sites", path])
    c.check("--previous=sites: the generator's sites, one line each", rc == 0 and
            [l for l in out.split(b"\n") if l and not l.startswith(b"#")] == want_sites,
            err[:300])
    with open(a + ".formats", "rb") as f:
        want_texts = sorted(f.read().split(b"\n"))
    rc, out, err = c.run_decoder(["--previous=formats", path])
    c.check("--previous=formats: the generator's texts", rc == 0 and
            sorted(out.split(b"\n")) == want_texts, err[:300])
    rc, out, err = c.run_decoder(["--previous=stats", path])
    alls = [int(x) for x in re.findall(rb"^all +recovered=(\d+) ", out, re.M)]
    cpus = [int(x) for x in re.findall(rb"^cpu\d+ +recovered=(\d+) ", out, re.M)]
    c.check("--previous=stats: every record, per ring and CPU", rc == 0 and
            len(alls) == 3 and sum(alls) == total and sum(cpus) == total, out[:300])

    check_claims(c)

    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
