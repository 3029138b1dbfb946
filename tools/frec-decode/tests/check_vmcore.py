#!/usr/bin/env python3
"""frec-decode --vmcore against synthetic kdumps (uapi/frec_vmcore.h): an
ELF vmcore whose PT_LOAD segments hold a region image's tables and its
rings' slots scattered over physical pages, listed by a kdump directory,
as frec with vmcore_region= keeps them.

    check_vmcore.py BUILD_DIR DECODER

The tables and each ring's slots are split into pages placed out of order
(an extent each), pages of zeros left out of the file (as makedumpfile -d
31 leaves them out), and a newer directory copy with a bad checksum sits
beside the valid one: the decoder prints the text the region image
itself decodes to (PREFIX.nokallsyms.txt), --previous=dump the same, and
warns of the bad copy by its offset.  Refused, naming the offset: a file
that is no ELF, a compressed kdump, a vmcore cut short, a vmcore with no
directory (a boot without frec), directories whose checksums are valid
but whose counts claim more than the vmcore holds.  Prints "N passed, M
failed".
"""
import os
import struct
import sys

import checker
from check_region import crc32c, sect, RINGS, PARTS, BLOCK

MAGIC = b"\x89FRECKDUMPDIR\r\n\0"
DIR_BYTES = 64
VRING_BYTES = 64
NO_PHYS = (1 << 64) - 1
PAGE = 4096


def dir_csum(d):
    """frec_vmcore_dir_csum(): the bytes before @csum (at 60), then after
    the 64-byte header."""
    return crc32c(bytes(d[:60]) + bytes(d[64:]))


def directory(gen, tables_ext, rings, extents, tables_bytes):
    """A sealed directory copy: RINGS are (name, kind, order, nr_cpus,
    max_record_len, nr_slots, first_extent, nr_extents)."""
    body = b"".join(struct.pack("<32sIIIIQII", *r) for r in rings)
    body += b"".join(struct.pack("<QQ", p, n) for p, n in extents)
    d = bytearray(MAGIC + struct.pack("<IIQQIIIIII", 1, DIR_BYTES + len(body), gen,
                                      tables_bytes, tables_ext, len(rings),
                                      len(extents), 0, 0, 0)) + body
    struct.pack_into("<I", d, 60, dir_csum(d))
    return d


def elf(pages):
    """An ELF64 vmcore of PAGES {phys: 4096 bytes}: a PT_LOAD per run."""
    runs = []
    for pa in sorted(pages):
        if runs and runs[-1][0] + len(runs[-1][1]) == pa:
            runs[-1][1].extend(pages[pa])
        else:
            runs.append([pa, bytearray(pages[pa])])
    off = 64 + 56 * len(runs)
    hdr = bytearray(b"\x7fELF" + bytes([2, 1, 1]) + bytes(9))
    hdr += struct.pack("<HHIQQQIHHHHHH", 4, 62, 1, 0, 64, 0, 0, 64, 56, len(runs), 0, 0, 0)
    ph = bytearray()
    data = bytearray()
    for pa, b in runs:
        ph += struct.pack("<IIQQQQQQ", 1, 7, off + len(data), pa, pa, len(b), len(b), PAGE)
        data += b
    return bytes(hdr + ph + data)


def vmcore(img, bad_counts=None):
    """IMG (a region image) as a kdump: returns (vmcore, its directory's
    file offset)."""
    rings_off, _, ring_bytes, nr = sect(img, RINGS)
    parts_off = sect(img, PARTS)[0]
    tables = bytearray(img[:parts_off] + bytes(BLOCK))
    pages, extents, rings = {}, [], []
    # The tables, page by page, last page first: an extent each.
    npages = len(tables) // PAGE
    for i in range(npages):
        pa = 0x400000 + (npages - 1 - i) * PAGE
        pages[pa] = tables[i * PAGE:(i + 1) * PAGE]
        extents.append((pa, PAGE))
    tables_ext = len(extents)
    # The persisted rings' entries go: the kernel's tables have none.
    for i in range(nr):
        at = rings_off + i * ring_bytes
        e = img[at:at + ring_bytes]
        tables[at:at + ring_bytes] = bytes(ring_bytes)
        if not any(e):
            continue
        _, kind, order, cpus, maxlen, _, slots, poff = struct.unpack_from("<IIIIIIQQ", e)
        name = e[40:72]
        first = len(extents)
        part = img[poff:poff + cpus * slots * 64]
        # Every other page, so no two extents merge; zero pages left out.
        base = 0x1000000 + len(rings) * 0x1000000
        for k in range(0, len(part), PAGE):
            chunk = part[k:k + PAGE]
            pa = base + 2 * k
            if any(chunk):
                pages[pa] = chunk.ljust(PAGE, b"\0")
            extents.append((pa, len(chunk)))
        rings.append([name, kind, order, cpus, maxlen, slots, first, len(extents) - first])
    for i in range(npages):
        pages[0x400000 + (npages - 1 - i) * PAGE] = tables[i * PAGE:(i + 1) * PAGE]
    if bad_counts:
        bad_counts(rings, extents)
    good = directory(5, tables_ext, rings, extents, len(tables))
    newer_bad = directory(6, tables_ext, rings, extents, len(tables))
    newer_bad[60] ^= 1
    for pa, d in ((0x200000, good), (0x300000, newer_bad)):
        for k in range(0, len(d), PAGE):
            pages[pa + k] = d[k:k + PAGE].ljust(PAGE, b"\0")
    core = elf(pages)
    return core, core.index(MAGIC)


def main():
    c = checker.Checker(sys.argv[1], sys.argv[2], "check-vmcore", ["--region"])
    a = c.make("kdump", "-n", "2000", "-c", "3")
    with open(a + ".region", "rb") as f:
        img = f.read()
    with open(a + ".nokallsyms.txt", "rb") as f:
        want = f.read()
    path = os.path.join(c.dir, "core")

    def decode(core, *args):
        with open(path, "wb") as f:
            f.write(core)
        return c.run_decoder([*args, "--vmcore", path])

    core, dir_at = vmcore(img)
    rc, out, err = decode(core)
    bad_at = core.index(MAGIC, dir_at + 1)
    c.check("kdump: the dump's text", rc in (0, 3) and out == want,
            f"exit {rc}, {len(out)} bytes, expected {len(want)}; {err[:400]}")
    c.check("kdump: the newer copy with a bad checksum skipped, by its offset",
            f"offset {bad_at}: a kdump directory with a bad checksum" in err, err[:400])
    c.check("kdump: pages left out counted", "are not in the vmcore: read as zeros" in err,
            err[:400])
    prc, pout, _ = c.run_decoder(["--previous=dump", "--vmcore", path])
    rrc, rout, _ = c.run_decoder(["--previous=dump", a + ".region"])
    c.check("kdump: --previous=dump as the region's", pout == rout and rrc == 0, f"exit {prc}")

    def refused(name, core, text):
        rc, out, err = decode(core)
        c.check(name, rc == 1 and not out and text in err, f"exit {rc}: {err[:400]}")

    refused("no ELF: refused at offset 0", b"\0" * 8192, "offset 0: not an ELF vmcore")
    refused("a compressed kdump: refused by name", b"KDUMP   " + bytes(8192),
            "offset 0: a compressed kdump")
    cut = len(core) - 3 * PAGE
    phnum = struct.unpack_from("<H", core, 56)[0]
    first = next(64 + 56 * i for i in range(phnum)
                 if sum(struct.unpack_from("<QQ", core, 64 + 56 * i + 8)[::2][:1]) +
                 struct.unpack_from("<Q", core, 64 + 56 * i + 32)[0] > cut)
    rc, out, err = decode(core[:cut])
    c.check("cut short: refused, naming the first PT_LOAD past the end",
            rc == 1 and not out and f"offset {first}: PT_LOAD's" in err and
            "run past the file's end" in err, f"exit {rc}: {err[:400]}")
    nodir = core.replace(MAGIC, b"\x89FRECKDUMPDIX\r\n\0")
    refused("no directory (a boot without frec): refused", nodir,
            f"offset {len(nodir)}: no valid frec kdump directory")

    def huge_slots(rings, extents):
        rings[0][5] = 1 << 40

    core2, at2 = vmcore(img, huge_slots)
    refused("a ring of 2^40 slots (valid checksum): refused, naming the directory", core2,
            f"offset {at2}: ring 0: ")

    def long_extent(rings, extents):
        p, n = extents[rings[0][6]]
        extents[rings[0][6]] = (p, n + PAGE)

    core3, at3 = vmcore(img, long_extent)
    refused("an extent longer than its ring: refused", core3, f"offset {at3}: extent ")

    def huge_zeros(rings, extents):
        extents[rings[1][6]] = (NO_PHYS, 1 << 62)

    core4, at4 = vmcore(img, huge_zeros)
    refused("an extent of 2^62 zeros: refused", core4, f"offset {at4}: extent ")

    # A PT_LOAD claiming the whole 2^64-byte physical space, and tables of
    # 2^64 - 4096 bytes: with the parts section's block after them, the
    # image's size would wrap to 0.
    top = (1 << 64) - PAGE
    core5 = bytearray(elf({0: bytes(directory(1, 1, [], [(NO_PHYS, top)], top)).ljust(PAGE, b"\0")}))
    struct.pack_into("<Q", core5, 64 + 40, (1 << 64) - 1)
    refused("tables of 2^64 - 4096 bytes in 2^64 of memory: refused", bytes(core5),
            f"offset {core5.index(MAGIC)}: tables of {top} bytes")

    def wrapping_rings(rings, extents):
        # Two rings of 2^63 bytes of zeros each: their sum wraps to 0.
        for r in rings[:2]:
            r[3], r[5], r[7] = 1, 1 << 57, 1
            extents[r[6]] = (NO_PHYS, 1 << 63)

    core6, at6 = vmcore(img, wrapping_rings)
    core6 = bytearray(core6)
    struct.pack_into("<Q", core6, 64 + 40, (1 << 64) - 1 - struct.unpack_from("<Q", core6, 64 + 24)[0])
    refused("two rings of 2^63 bytes in 2^64 of memory: refused", bytes(core6),
            f"offset {at6}: ring 1: ")
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
