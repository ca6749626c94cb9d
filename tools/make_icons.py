"""Draw the app's PNG icons (a die showing five on the table's green) with the standard
library only: each pixel is sampled 4x4 times and the PNG is written with zlib and struct.

    python tools/make_icons.py     # writes src/zar/server/static/icons/icon-*.png

The SVG icon (icons/icon.svg) is written by hand; these PNGs draw the same picture.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "src" / "zar" / "server" / "static" / "icons"

FELT = (0x1F, 0x5A, 0x49)
IVORY = (0xFF, 0xFA, 0xF0)
EDGE = (0xCF, 0xC4, 0xA8)
PIP = (0x20, 0x20, 0x20)
SAMPLES = 4


def rounded_square(x: float, y: float, centre: float, half: float, radius: float) -> float:
    """The signed distance from (x, y) to a rounded square (negative inside)."""
    qx = abs(x - centre) - (half - radius)
    qy = abs(y - centre) - (half - radius)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def colour_at(x: float, y: float, *, maskable: bool) -> tuple[int, int, int, int]:
    """The picture in a 512 x 512 frame: the felt (a rounded tile, or full bleed when
    maskable), then the die turned by 8 degrees, its edge, its five pips."""
    if not maskable and rounded_square(x, y, 256, 256, 112) > 0:
        return (0, 0, 0, 0)
    scale = 0.78 if maskable else 1.0  # a maskable icon keeps its picture in the safe zone
    angle = math.radians(8)
    dx, dy = (x - 256) / scale, (y - 256) / scale
    u = 256 + dx * math.cos(angle) - dy * math.sin(angle)
    v = 256 + dx * math.sin(angle) + dy * math.cos(angle)
    die = rounded_square(u, v, 256, 140, 60)
    if die > 0:
        return (*FELT, 255)
    for px in (186, 326):
        for py in (186, 326):
            if math.hypot(u - px, v - py) < 26:
                return (*PIP, 255)
    if math.hypot(u - 256, v - 256) < 26:
        return (*PIP, 255)
    return (*(EDGE if die > -6 else IVORY), 255)


def draw(size: int, *, maskable: bool = False) -> bytes:
    rows = []
    step = 512 / size
    for j in range(size):
        row = bytearray([0])  # PNG filter: none
        for i in range(size):
            total = [0, 0, 0, 0]
            for sj in range(SAMPLES):
                for si in range(SAMPLES):
                    x = (i + (si + 0.5) / SAMPLES) * step
                    y = (j + (sj + 0.5) / SAMPLES) * step
                    r, g, b, a = colour_at(x, y, maskable=maskable)
                    total[0] += r * a
                    total[1] += g * a
                    total[2] += b * a
                    total[3] += a
            alpha = total[3]
            n = SAMPLES * SAMPLES
            if alpha:
                row += bytes((total[0] // alpha, total[1] // alpha, total[2] // alpha, alpha // n))
            else:
                row += bytes(4)
        rows.append(bytes(row))
    return png(size, b"".join(rows))


def png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        (ICONS / name).write_bytes(draw(size, maskable=maskable))
        print(f"{name}: {(ICONS / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
