#!/usr/bin/env python3
"""Prints how much of a PNG screenshot is ink: the share of pixels unlike its most common colour (book/test.sh).

    png-ink.py FILE [X0]   prints e.g. "0.134": 13.4 % of the pixels (right of column X0) differ from the background

Standard library only (WeasyPrint's Debian package brings python3), 8-bit RGB/RGBA PNGs as Chromium writes them.
"""
import collections
import struct
import sys
import zlib


def pixels(path, x0):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"png-ink: {path} is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = header[:4]
    if depth != 8 or colour not in (2, 6):
        sys.exit(f"png-ink: {path}: only 8-bit RGB or RGBA (depth {depth}, colour type {colour})")
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    previous, rows = bytearray(stride), []
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # undo the row filter (PNG spec, section 9)
            left = line[i - bpp] if i >= bpp else 0
            up, corner = previous[i], previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return [row[x:x + 3] for row in rows[::4] for x in range(x0 * bpp, stride, bpp * 4)]  # every 4th pixel each way


def main():
    sample = pixels(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    background, count = collections.Counter(sample).most_common(1)[0]
    print(f"{1 - count / len(sample):.3f}")


main()
