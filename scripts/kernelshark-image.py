#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Does a screenshot of KernelShark's main window show drawn events?

    kernelshark-image.py IMAGE.ppm STREAMS

IMAGE is the window (a binary PPM, as xwdtopnm writes it), STREAMS the
number of files KernelShark opened.  Below the toolbar (the top 100
rows, where the only colour is the green "Marker A" button) KernelShark
draws in colour only the events of its CPU plots and, with more than one
file, each file's colour in the CPU labels and the table's stream column.
So the window must hold many pixels of strong colour there (events drawn,
not a blank or grey window), of at least STREAMS hues with 2 files or
more, and many dark text pixels (the table's rows).  Prints one line
with the figures, and "ok" or what is missing; exits 1 if anything is.
"""
import sys

TOOLBAR_ROWS = 100
MIN_COLOURED = 100       # pixels of the events' bars: hundreds with a few events
MIN_TEXT = 5000          # dark pixels of the table's text: tens of thousands


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + 3 * w * h]


def hue_bin(r, g, b):
    """One of 12 hues of a strongly coloured pixel."""
    hi, lo = max(r, g, b), min(r, g, b)
    d = hi - lo
    if hi == r:
        h = ((g - b) / d) % 6
    elif hi == g:
        h = (b - r) / d + 2
    else:
        h = (r - g) / d + 4
    return int(h * 2) % 12


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    w, h, px = read_ppm(sys.argv[1])
    streams = int(sys.argv[2])
    coloured, text, hues = 0, 0, {}
    for i in range(3 * w * TOOLBAR_ROWS, len(px), 3):
        r, g, b = px[i], px[i + 1], px[i + 2]
        hi, lo = max(r, g, b), min(r, g, b)
        if hi - lo >= 60:
            coloured += 1
            hb = hue_bin(r, g, b)
            hues[hb] = hues.get(hb, 0) + 1
        elif hi < 80:
            text += 1
    # a hue counts if it covers a few label-sized patches, not stray pixels
    many = sorted(k for k, n in hues.items() if n >= 50)
    want = streams if streams > 1 else 1
    missing = []
    if coloured < MIN_COLOURED:
        missing.append(f"fewer than {MIN_COLOURED} coloured pixels (no events drawn)")
    if len(many) < want:
        missing.append(f"fewer than {want} colours (one per file)")
    if text < MIN_TEXT:
        missing.append(f"fewer than {MIN_TEXT} text pixels (no event list)")
    print(f"{w}x{h}: {coloured} coloured pixels of {len(many)} colours below the "
          f"toolbar, {text} text pixels: " + ("; ".join(missing) or "ok"))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
