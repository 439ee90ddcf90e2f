"""PNG and PDF output: the SVG of engine.export.svg painted by QSvgRenderer onto a QImage or a QPdfWriter.

Pages are painted in memory and the files written together through engine.export.staging, so a failure leaves
no file behind.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSizeF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from editor import palette
from engine.export.colours import Colours
from engine.export.outputs import check_targets
from engine.export.safe_text import one_line
from engine.export.staging import staged_files
from engine.export.svg import Paper, SvgPage, export_svg, level_paths, pages, pick_levels
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
        raise ValueError(f"the drawing of level {page.level!r} could not be read back by Qt's SVG renderer")
    return r


def _paint(renderer: QSvgRenderer, painter: QPainter, rect: QRectF) -> None:
    try:
        renderer.render(painter, rect)
    finally:
        painter.end()  # a painter left active when its device goes away crashes Qt


def png_bytes(page: SvgPage, dpi: int) -> bytes:
    """One page as PNG bytes at dpi dots per inch."""
    w, h = pixel_size(page, dpi)
    if w * h > MAX_PIXELS:
        raise ValueError(f"{w}x{h} pixels at {dpi} dpi is too large; choose a lower --dpi")
    renderer = _renderer(page)
    image = QImage(w, h, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFF)
    dots_per_metre = round(dpi / 0.0254)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    _paint(renderer, painter, QRectF(0, 0, w, h))
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, "PNG"):  # type: ignore[call-overload]
        raise ValueError(f"Qt could not encode level {page.level!r} as PNG")
    buf.close()
    return bytes(data.data())


def pdf_bytes(sheets: list[SvgPage], dpi: int, title: str) -> bytes:
    """Every page in one PDF whose document title is title."""
    renderers = [_renderer(page) for page in sheets]  # all parsed before the writer starts a page
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(dpi)
    writer.setTitle(one_line(title))
    writer.setCreator("hulkforge")
    painter: QPainter | None = None
    try:
        for page, renderer in zip(sheets, renderers, strict=True):
            size = QPageSize(QSizeF(page.width_mm, page.height_mm), QPageSize.Unit.Millimeter, page.level)
            writer.setPageLayout(QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
            if painter is None:
                painter = QPainter(writer)
            else:
                writer.newPage()
            renderer.render(painter, QRectF(writer.pageLayout().fullRectPixels(writer.resolution())))
    finally:
        if painter is not None:
            painter.end()
    buf.close()
    return bytes(data.data())


def render_mission(
    mission: Mission,
    path: str | os.PathLike[str],
    fmt: Format,
    dpi: int = 150,
    levels: list[str] | None = None,
    paper: Paper = "a4",
) -> list[Path]:
    """Print levels: PNG/SVG one file per level (stem-LEVEL.ext when several), PDF one page per level; all the
    files are written or none."""
    if fmt not in ("png", "svg", "pdf"):
        raise ValueError(f"unknown format {fmt!r}: use png, svg or pdf")
    if not 10 <= dpi <= 1200:
        raise ValueError(f"dpi {dpi} is outside 10..1200")
    pal = Colours.from_palette(palette)
    if fmt == "svg":
        return export_svg(mission, path, levels, pal, paper)
    ids = pick_levels(mission, levels)
    targets = [Path(path)] if fmt == "pdf" else level_paths(path, mission, ids)
    check_targets(targets)
    _app()
    sheets = pages(mission, ids, pal, paper)
    blobs = [pdf_bytes(sheets, dpi, mission.meta.title)] if fmt == "pdf" else [png_bytes(p, dpi) for p in sheets]
    with staged_files() as out:
        for target, blob in zip(targets, blobs, strict=True):
            out.write_bytes(target, blob)
    return out.files
