#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seeds for fuzz_decode: each input behind the mode byte that feeds it
to the right parser (see fuzz_decode.c).

    fuzz_seeds.py TESTDATA_DIR SEED_DIR
SEED_DIR already holds frec-gen's g1.*, g2.* and g3.*; they are rewritten
as seeds (mode 110: --stats), and the crafted inputs of TESTDATA_DIR/bad
are added."""
import glob
import os
import struct
import sys


def seed(out, name, mode, data):
    with open(os.path.join(out, f"{name}.m{mode}"), "wb") as f:
        f.write(bytes([mode]) + data)


def main():
    testdata, out = sys.argv[1], sys.argv[2]
    for path in sorted(glob.glob(os.path.join(out, "g[0-9].*"))):
        base = os.path.basename(path)
        with open(path, "rb") as f:
            data = f.read()
        os.unlink(path)
        if base.endswith(".raw"):
            # kept and merged, read twice (11-16), as a trace.dat (22, 33),
            # as histograms (44, 55), --stats (110)
            for mode in list(range(6)) + list(range(11, 17)) + [22, 33, 44, 55, 110]:
                seed(out, base, mode, data[:8192])
            # as the raw version before contexts (3), whose context
            # fields readers ignore: text, JSON, CSV
            old = bytearray(data[:8192])
            for order in "<>":
                if struct.unpack_from(order + "I", old, 12)[0] == 4:
                    struct.pack_into(order + "I", old, 12, 3)
                    for mode in range(3):
                        seed(out, base + ".v3", mode, bytes(old))
        elif base.endswith(".region"):
            # spread in as fuzz_decode.c reads it back: block 0, then the
            # first 512 bytes of each next block
            packed = data[:4096] + b"".join(data[b * 4096:b * 4096 + 512] for b in range(1, 9))
            for mode in list(range(6)) + [22, 44]:
                seed(out, base, mode, packed)
        elif base.endswith(".formats"):
            seed(out, base, 6, data)
            for i, line in enumerate(data.split(b"\n")):
                if b'"' in line:
                    seed(out, f"{base}.{i}", 8, line.split(b'"', 1)[1][:-1])
        elif base.endswith(".kallsyms"):
            seed(out, base, 7, data[:8192])
        elif base.endswith(".sites"):
            seed(out, base, 10, data[:8192])
    for i, line in enumerate((b"ring=hanoi_* cpu=0-1 seq=100- time=12.5-13 text=disk 3",
                              b"ring=[!a]*,x?[a-c],ab cpu=0,2-3", b"time=-1.5 seq=5",
                              b"seq=9-3", b"ring=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q")):
        seed(out, f"filter{i}", 9, line)
    for path in sorted(glob.glob(os.path.join(testdata, "bad", "*"))):
        base = os.path.basename(path)
        with open(path, "rb") as f:
            data = f.read()
        # a raw dump kept and merged (0), and read twice (11)
        modes = {".formats": [6], ".kallsyms": [7], ".sites": [10]}.get(
            os.path.splitext(base)[1], [0, 11])
        for mode in modes if base != "MANIFEST" else []:
            seed(out, base, mode, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
