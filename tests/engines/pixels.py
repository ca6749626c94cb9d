"""A screenshot's pixels: a PNG read with the standard library (8-bit RGB or RGBA, not
interlaced, as the browsers write them)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


class Picture:
    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", path
        chunks: dict[bytes, bytes] = {}
        at = 8
        while at < len(data):
            (length,) = struct.unpack(">I", data[at : at + 4])
            kind = data[at + 4 : at + 8]
            chunks[kind] = chunks.get(kind, b"") + data[at + 8 : at + 8 + length]
            at += 12 + length
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
        assert depth == 8, depth
        assert colour in (2, 6), colour  # RGB, RGBA
        assert interlace == 0
        self.width, self.height = width, height
        self.step = 3 if colour == 2 else 4
        raw = zlib.decompress(chunks[b"IDAT"])
        stride = width * self.step
        rows: list[bytearray] = []
        previous = bytearray(stride)
        for y in range(height):
            kind = raw[y * (stride + 1)]
            row = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
            for x in range(stride):
                left = row[x - self.step] if x >= self.step else 0
                up = previous[x]
                corner = previous[x - self.step] if x >= self.step else 0
                if kind == 1:
                    row[x] = (row[x] + left) & 0xFF
                elif kind == 2:
                    row[x] = (row[x] + up) & 0xFF
                elif kind == 3:
                    row[x] = (row[x] + (left + up) // 2) & 0xFF
                elif kind == 4:
                    guess = left + up - corner
                    pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                    best = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                    row[x] = (row[x] + best) & 0xFF
            rows.append(row)
            previous = row
        self.rows = rows

    def at(self, x: int, y: int) -> tuple[int, int, int]:
        row = self.rows[y]
        i = x * self.step
        return row[i], row[i + 1], row[i + 2]
