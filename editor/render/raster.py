"""PNG and PDF output: the SVG of engine.export.svg painted by QSvgRenderer onto a QImage or a QPdfWriter."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QByteArray, QMarginsF, QRectF, QSizeF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from editor import palette
from engine.export.colours import Colours
from engine.export.svg import SvgPage, export_svg, level_page, level_paths, pick_levels
from engine.mission import Mission

Format = Literal["png", "svg", "pdf"]
MM_PER_INCH = 25.4
MAX_PIXELS = 400_000_000  # a 200 x 200 level at 600 dpi stays under this; far beyond would exhaust memory


def _app() -> None:
    # Text in the SVG needs fonts, and Qt's font database needs an application object. A full QApplication,
    # not a QGuiApplication: the process may open widgets later (the editor, tests), and Qt aborts if the
    # first application object created cannot serve them.
    if QApplication.instance() is None:
        _app.keep = QApplication([])  # type: ignore[attr-defined]


def pixel_size(page: SvgPage, dpi: int) -> tuple[int, int]:
    """The PNG size of a page at dpi dots per inch."""
    return round(page.width_mm / MM_PER_INCH * dpi), round(page.height_mm / MM_PER_INCH * dpi)


def _renderer(page: SvgPage) -> QSvgRenderer:
    r = QSvgRenderer(QByteArray(page.svg.encode("utf-8")))
    if not r.isValid():
        raise RuntimeError(f"the SVG of level {page.level!r} could not be parsed by Qt")
    return r


def _png(page: SvgPage, path: Path, dpi: int) -> None:
    w, h = pixel_size(page, dpi)
    if w * h > MAX_PIXELS:
        raise ValueError(f"{w}x{h} pixels at {dpi} dpi is too large; choose a lower --dpi")
    image = QImage(w, h, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFF)
    dots_per_metre = round(dpi / 0.0254)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    _renderer(page).render(painter, QRectF(0, 0, w, h))
    painter.end()
    tmp = path.with_name(f".{path.name}.tmp")
    if not image.save(str(tmp), "PNG"):  # type: ignore[call-overload]  # stubs want bytes, Qt wants str
        raise OSError(f"{path}: cannot write the PNG")
    os.replace(tmp, path)


def _pdf(pages: list[SvgPage], path: Path, dpi: int) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setResolution(dpi)
    writer.setTitle(path.stem)
    writer.setCreator("hulkforge")
    painter: QPainter | None = None
    for i, page in enumerate(pages):
        size = QPageSize(QSizeF(page.width_mm, page.height_mm), QPageSize.Unit.Millimeter, page.level)
        layout = QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0))
        writer.setPageLayout(layout)
        if i == 0:
            painter = QPainter(writer)
        else:
            writer.newPage()
        assert painter is not None
        full = writer.pageLayout().fullRectPixels(writer.resolution())
        _renderer(page).render(painter, QRectF(full))
    if painter is not None:
        painter.end()
    os.replace(tmp, path)


def render_mission(
    mission: Mission,
    path: str | os.PathLike[str],
    fmt: Format,
    dpi: int = 150,
    levels: list[str] | None = None,
) -> list[Path]:
    """Print levels: PNG/SVG one file per level (stem-LEVEL.ext when several), PDF one page per level."""
    if fmt not in ("png", "svg", "pdf"):
        raise ValueError(f"unknown format {fmt!r}: use png, svg or pdf")
    if not 10 <= dpi <= 1200:
        raise ValueError(f"dpi {dpi} is outside 10..1200")
    pal = Colours.from_palette(palette)
    if fmt == "svg":
        return export_svg(mission, path, levels, pal)
    ids = pick_levels(mission, levels)
    _app()
    pages = [level_page(mission, lid, pal) for lid in ids]
    if fmt == "pdf":
        _pdf(pages, Path(path), dpi)
        return [Path(path)]
    out = level_paths(path, ids, len(mission.levels) > 1)
    for page, target in zip(pages, out, strict=True):
        _png(page, target, dpi)
    return out
