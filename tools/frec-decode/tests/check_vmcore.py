#!/usr/bin/env python3
"""frec-decode --vmcore against synthetic kdumps (uapi/frec_vmcore.h): an
ELF vmcore whose PT_LOAD segments hold a region image's tables and its
rings' slots scattered over physical pages, listed by a kdump directory,
as frec with vmcore_region= keeps them; and the same pages in
makedumpfile's compressed kdump format (makedumpfile -c -d 31: zlib
pages, zero pages' bits cleared in the 2nd bitmap).

    check_vmcore.py BUILD_DIR DECODER

The tables and each ring's slots are split into pages placed out of order
(an extent each), pages of zeros left out of the file (as makedumpfile -d
31 leaves them out), and a newer directory copy with a bad checksum sits
beside the valid one: the decoder prints the text the region image
itself decodes to (PREFIX.nokallsyms.txt), --previous=dump the same, and
warns of the bad copy by its offset.  Refused, naming the offset: a file
that is no ELF, a vmcore cut short, a vmcore with no
directory (a boot without frec), directories whose checksums are valid
but whose counts claim more than the vmcore holds.  A compressed kdump
decodes to the same text, its zero pages left out or sharing one page of
zeros; refused, naming the offset: a bad signature, the flattened
format, a header cut short, block_size 8192, bitmaps past the file's
end, a max_mapnr of 2^40, a split or incomplete dump, page descriptors
cut short, a page descriptor whose data lies past the end or of 0
bytes, a page that decompresses to the wrong size or not at all, an lzo
page and a zstd page.  Prints "N passed, M failed".
"""
import os
import struct
import sys
import zlib

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


def kdump(pages, version=6, desc_hook=None, block_size=PAGE, split=0,
          bitmap_blocks=None, shared_zero=False):
    """PAGES {phys: 4096 bytes} in makedumpfile's compressed kdump format:
    zlib pages (raw where zlib does not shrink them), pages of zeros left
    out of the 2nd bitmap; or, SHARED_ZERO, kept with descriptors of one
    page of zeros, as makedumpfile -c -d 31 writes them (its bitmap is
    written before it reads the pages).  DESC_HOOK(pfn, desc,
    data) may change a page's descriptor [offset, size, flags] and data.
    Returns (file, {phys: its data's file offset}, the descriptors' file
    offset)."""
    max_mapnr = max(pages) // PAGE + 1
    half = (max_mapnr + 8 * PAGE - 1) // (8 * PAGE) * PAGE
    first, second = bytearray(half), bytearray(half)
    for pfn in range(max_mapnr):
        first[pfn // 8] |= 1 << pfn % 8
    kept = sorted(pa for pa in pages if shared_zero or any(pages[pa]))
    for pa in kept:
        second[pa // PAGE // 8] |= 1 << pa // PAGE % 8
    nblocks = bitmap_blocks if bitmap_blocks is not None else 2 * half // PAGE
    hdr = bytearray(PAGE)
    hdr[:8] = b"KDUMP   "
    struct.pack_into("<i", hdr, 8, version)
    hdr[12:12 + 6] = b"Linux\0"
    struct.pack_into("<IiiIIIIIIi", hdr, 424, 1, block_size, 1, nblocks,
                     max_mapnr, len(kept), 0, len(kept), 0, 2)
    sub = bytearray(PAGE)
    struct.pack_into("<Qii", sub, 0, 0, 31, split)
    struct.pack_into("<QQQ", sub, 80, 0, max_mapnr, max_mapnr)
    descs_at = 2 * PAGE + 2 * half
    data_at = descs_at + 24 * len(kept)
    descs, data, where = bytearray(), bytearray(), {}
    if shared_zero:
        data += bytes(PAGE)
    for pa in kept:
        z = zlib.compress(bytes(pages[pa]))
        d = [data_at + len(data), len(z), 1] if len(z) < PAGE else \
            [data_at + len(data), PAGE, 0]
        if shared_zero and not any(pages[pa]):
            where[pa] = data_at
            descs += struct.pack("<qIIQ", data_at, PAGE, 0, 0)
            continue
        b = z if d[2] else bytes(pages[pa])
        if desc_hook:
            b = desc_hook(pa // PAGE, d, b)
        where[pa] = d[0]
        descs += struct.pack("<qIIQ", d[0], d[1], d[2], 0)
        data += b
    return bytes(hdr + sub + first + second + descs + data), where, descs_at


def region_pages(img, bad_counts=None, zero_pages=False):
    """IMG (a region image) as the physical pages of a kdump: returns
    {phys: 4096 bytes}, the rings' pages of zeros left out unless
    ZERO_PAGES."""
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
            if zero_pages or any(chunk):
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
    return pages


def vmcore(img, bad_counts=None):
    """IMG (a region image) as an ELF kdump: returns (vmcore, its
    directory's file offset)."""
    core = elf(region_pages(img, bad_counts))
    return core, core.index(MAGIC)


def check_kdump(c, img, want, decode, refused):
    """The compressed kdump format: whole, and refused."""
    pages = region_pages(img)
    core, where, descs_at = kdump(pages)
    zlibbed = sum(struct.unpack_from("<I", core, descs_at + 24 * i + 12)[0] == 1
                  for i in range(len(where)))
    rc, out, err = decode(core)
    c.check("compressed kdump: the dump's text", rc in (0, 3) and out == want,
            f"exit {rc}, {len(out)} bytes, expected {len(want)}; {err[:400]}")
    c.check("compressed kdump: the newer copy with a bad checksum skipped, by its offset",
            f"offset {where[0x300000]}: a kdump directory with a bad checksum" in err,
            err[:400])
    c.check("compressed kdump: zero pages left out of the bitmap counted",
            "are not in the vmcore: read as zeros" in err, err[:400])
    c.check("compressed kdump: its pages are zlib pages", zlibbed > len(where) // 2 and
            len(core) < len(elf(pages)) // 2,
            f"{zlibbed} of {len(where)} zlib, {len(core)} bytes")

    zpages = region_pages(img, zero_pages=True)
    zcore, zwhere, _ = kdump(zpages, shared_zero=True)
    shared = sum(1 for pa in zwhere if zwhere[pa] == min(zwhere.values()))
    rc, out, err = decode(zcore)
    c.check("compressed kdump, zero pages one shared page (as makedumpfile -c): the text",
            rc in (0, 3) and out == want and shared > 1 and "not in the vmcore" not in err,
            f"exit {rc}, {len(out)} bytes, expected {len(want)}, {shared} pages share "
            f"the page of zeros; {err[:400]}")

    refused("compressed kdump: a bad signature refused at offset 0",
            b"KDUMP  X" + core[8:], "offset 0: not an ELF vmcore nor a compressed kdump")
    refused("compressed kdump: its header cut short, refused",
            core[:300], "offset 0: the disk_dump_header of 464 bytes runs past the file's end")
    refused("compressed kdump: block_size 8192 refused",
            kdump(pages, block_size=8192)[0], "offset 428: block_size 8192: want 4096")
    refused("compressed kdump: bitmaps past the file's end refused",
            kdump(pages, bitmap_blocks=1 << 20)[0], "offset 436: bitmaps of 1048576 blocks")
    refused("compressed kdump: a split dump refused",
            kdump(pages, split=1)[0], "offset 4108: one part of a split dump")
    refused("makedumpfile's flattened format (-F) refused",
            b"makedumpfile\0\0\0\0" + bytes(8192), "offset 0: makedumpfile's flattened format")
    refused("compressed kdump: an incomplete dump refused",
            core[:424] + struct.pack("<I", 9) + core[428:], "offset 424: an incomplete dump")
    big = PAGE + 96
    refused("compressed kdump: a max_mapnr of 2^40 refused",
            core[:big] + struct.pack("<Q", 1 << 40) + core[big + 8:],
            f"offset {big}: max_mapnr 1099511627776: want 1 to ")
    cut = core[:descs_at + 24 * 3]
    refused("compressed kdump: cut inside its page descriptors, refused",
            cut, f"offset {descs_at}: {len(where)} page descriptors")

    def hooked(name, change, text):
        """The directory's page with its descriptor or data changed: TEXT,
        its {desc} and {data} the offsets of its descriptor and data."""
        def hook(pfn, d, b):
            if pfn == 0x200000 // PAGE:
                return change(d, b)
            return b
        core2 = kdump(pages, desc_hook=hook)[0]
        at = descs_at + 24 * sorted(where).index(0x200000)
        refused("compressed kdump: " + name, core2, text.format(desc=at, data=where[0x200000]))

    def set_desc(field, value):
        def change(d, b):
            d[field] = value
            return b
        return change

    def short(d, b):
        z = zlib.compress(zlib.decompress(b)[:4000])
        d[1] = len(z)
        return z

    for name, change, text in (
            ("a page descriptor past the file's end refused", set_desc(0, 1 << 40),
             "offset 1099511627776: a page's data of "),
            ("a page descriptor of 0 bytes refused", set_desc(1, 0),
             "offset {desc}: a page descriptor of 0 bytes, zlib: want 1 to 4096"),
            ("an lzo page refused, by its descriptor's offset and flag", set_desc(2, 2),
             "offset {desc}: a page compressed with lzo (makedumpfile -l) (flags 0x2)"),
            ("a zstd page refused, by its descriptor's offset and flag", set_desc(2, 0x20),
             "offset {desc}: a page compressed with zstd (makedumpfile -z) (flags 0x20)"),
            ("a page that decompresses to 4000 bytes refused", short,
             "decompresses to 4000, not 4096"),
            ("a zlib page of garbage refused", lambda d, b: bytes(x ^ 0x5a for x in b),
             "does not decompress: ")):
        hooked(name, change, text)

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
        rc, out, err = c.run_decoder([*args, "--vmcore", path])
        # The records; their list of spans in flight: check_inflight.py.
        return rc, checker.records_only(out), err

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
    vrc, vout, _ = c.run_decoder(["--vmcore", path])
    rrc, rout, _ = c.run_decoder([a + ".region"])
    vlist = [l for l in vout.split(b"\n") if l.startswith(checker.IN_FLIGHT)]
    c.check("kdump: the spans in flight as the region's", vlist and vout == rout and
            vrc in (0, 3) and rrc == 0, f"exit {vrc}, {len(vlist)} lines")

    def refused(name, core, text):
        rc, out, err = decode(core)
        c.check(name, rc == 1 and not out and text in err, f"exit {rc}: {err[:400]}")

    refused("no ELF: refused at offset 0", b"\0" * 8192, "offset 0: not an ELF vmcore")
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
    # Refused at the first: the memory a file this size describes is far
    # less than 2^64 (the wrap guard stays, for a larger file).
    refused("two rings of 2^63 bytes in 2^64 of memory: refused", bytes(core6),
            f"offset {at6}: ring 0: ")

    # A ring of 2^40 bytes of zeros in a file of a few hundred KiB whose
    # PT_LOAD claims memory to the 2^64th byte: more than a file that size
    # describes (a page a bit, as a compressed kdump's bitmaps), refused;
    # the image was allocated before.
    def unheld_ring(rings, extents):
        r = rings[0]
        r[3], r[5], r[7] = 1, (1 << 40) // 64, 1
        extents[r[6]] = (0x8000000, 1 << 40)

    core7, at7 = vmcore(img, unheld_ring)
    core7 = bytearray(core7)
    struct.pack_into("<Q", core7, 64 + 40, (1 << 64) - 1 - struct.unpack_from("<Q", core7, 64 + 24)[0])
    refused("ELF: a ring of 2^40 bytes in 2^64 of claimed memory, in a small file: refused",
            bytes(core7), f"offset {at7}: ring 0: ")
    check_kdump(c, img, want, decode, refused)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
