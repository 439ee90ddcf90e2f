"""A minimal PNG encoder (8-bit RGB, no Qt) for the tileset images that go beside Tiled maps."""

from __future__ import annotations

import struct
import zlib

RGB = tuple[int, int, int]


def hex_rgb(colour: str) -> RGB:
    """(r, g, b) from '#rrggbb'."""
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode_png(width: int, height: int, pixels: list[list[RGB]]) -> bytes:
    """PNG bytes for rows of (r, g, b) pixels; pixels[y][x]."""
    if len(pixels) != height or any(len(row) != width for row in pixels):
        raise ValueError("pixel rows do not match the image size")
    raw = bytearray()
    for row in pixels:
        raw.append(0)  # filter type None: simple, and the images are tiny
        for r, g, b in row:
            raw += bytes((r, g, b))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + _chunk(b"IEND", b"")
    )


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) read from a PNG header; ValueError if data is not a PNG."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    w, h = struct.unpack(">II", data[16:24])
    return int(w), int(h)
