"""Render editor/resources/icon.svg to the PNG sizes a desktop wants and a multi-size Windows .ico.

Run from anywhere: `python packaging/render_icons.py [OUT_DIR]` (default packaging/icons). Uses Qt's own
QSvgRenderer, so the PNGs look exactly like the icon the editor draws at runtime.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "editor" / "resources" / "icon.svg"
OUT = Path(__file__).resolve().parent / "icons"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def render_png(svg: Path, size: int) -> bytes:
    """The SVG drawn on a transparent size x size square, as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg}: not a valid SVG for Qt")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")  # type: ignore[call-overload]  # the stubs say bytes, the binding wants str
    buf.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A .ico holding one PNG-compressed image per size (the format Windows Vista and later read)."""
    # Qt's ico writer stores a single image; the container is simple enough to write by hand.
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs += blob
    return header + entries + blobs


def main(argv: list[str]) -> int:
    """Write hulkforge-<size>.png for every size, hulkforge.svg and hulkforge.ico into the output folder."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(["render_icons"])
    out = Path(argv[0]) if argv else OUT
    out.mkdir(parents=True, exist_ok=True)
    pngs = {size: render_png(SOURCE, size) for size in SIZES}
    for size, blob in pngs.items():
        (out / f"hulkforge-{size}.png").write_bytes(blob)
    (out / "hulkforge.svg").write_bytes(SOURCE.read_bytes())
    (out / "hulkforge.ico").write_bytes(ico_bytes({s: pngs[s] for s in ICO_SIZES}))
    print(f"{len(pngs)} PNGs, hulkforge.svg and hulkforge.ico in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
