"""Save and share: results as JSON (the hulkforge-results format) and CSV; charts and maps as PNG and SVG.

SVG goes through QSvgGenerator because pyqtgraph's own SVG exporter fails on PySide6 6.12.
"""

from __future__ import annotations

import csv
import io
import json
import os

from PySide6.QtCore import QPoint, QRect, QRectF, QSize
from PySide6.QtGui import QColor, QImage, QPainter, QRegion
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene, QWidget

from editor.lab.runs import LabRun
from engine.mission.io import atomic_write_bytes

CSV_FIELDS = ("index", "seed", "winner", "turns", "reason", "marines_lost", "genestealers_lost",
              "marines_escaped", "n_actions", "capped", "error")


def results_json(run: LabRun) -> str:
    """The run as JSON text (readable by `hulkforge replay` and the results schema)."""
    return json.dumps(run.results_document(), indent=1, sort_keys=True)


def save_json(run: LabRun, path: str | os.PathLike[str]) -> None:
    """Results file: spec, one row per game, summary and per-square totals."""
    atomic_write_bytes(path, results_json(run).encode("utf-8"))


def results_csv(run: LabRun) -> str:
    """One line per game; one column per Marine with the turn it died (empty: survived)."""
    marines = list(run.stats.marines)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(list(CSV_FIELDS) + [f"died_turn_{m}" for m in marines])
    for r in sorted(run.rows, key=lambda r: r.index):
        died = [r.marines.get(m, {}).get("died_turn") for m in marines]
        w.writerow([r.index, r.seed, r.winner or "", r.turns, r.reason, r.casualties.get("marines", 0),
                    r.casualties.get("genestealers", 0), r.marines_escaped, r.n_actions, int(r.capped),
                    r.error or ""] + ["" if d is None else d for d in died])
    return out.getvalue()


def save_csv(run: LabRun, path: str | os.PathLike[str]) -> None:
    """The per-game CSV, written atomically."""
    atomic_write_bytes(path, results_csv(run).encode("utf-8"))


def save_png(widget: QWidget, path: str | os.PathLike[str], scale: float = 2.0) -> None:
    """A bitmap of the widget as it looks, at `scale` times its size for print-friendly sharpness."""
    size = widget.size() * scale
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.scale(scale, scale)
        draw_widget(p, widget)
    finally:
        p.end()
    write_png(image, path)


def draw_widget(p: QPainter, widget: QWidget) -> None:
    """Paint a widget at the painter's origin through its own paint events (vectors on an SVG device)."""
    # QWidget's render, not QGraphicsView's: the view's scene-to-target path misplaces pyqtgraph's plot
    # contents on a QSvgGenerator, while redirecting the widget's normal painting draws them where they are.
    flags = QWidget.RenderFlag.DrawWindowBackground | QWidget.RenderFlag.DrawChildren
    QWidget.render(widget, p, QPoint(0, 0), QRegion(), flags)


def write_png(image: QImage, path: str | os.PathLike[str]) -> None:
    """Save as PNG whatever the file name's suffix."""
    # The stubs ask for bytes, PySide6 6.12 itself only accepts str.
    if not image.save(os.fspath(path), "PNG"):  # type: ignore[call-overload]
        raise OSError(f"{path}: cannot write the PNG image")


def save_svg(widget: QWidget, path: str | os.PathLike[str], title: str = "hulkforge balance lab") -> None:
    """A vector drawing of a widget; a graphics view is drawn from its scene so the shapes stay vectors."""
    size = widget.size()
    gen = QSvgGenerator()
    gen.setFileName(os.fspath(path))
    gen.setSize(size)
    gen.setViewBox(QRect(0, 0, size.width(), size.height()))
    gen.setTitle(title)
    gen.setDescription("exported by the hulkforge balance lab")
    p = QPainter()
    if not p.begin(gen):
        raise OSError(f"{path}: cannot write the SVG drawing")
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(QRect(0, 0, size.width(), size.height()), QColor("white"))
        draw_widget(p, widget)
    finally:
        p.end()


def save_scene_svg(scene: QGraphicsScene, path: str | os.PathLike[str], title: str = "map") -> None:
    """A whole scene (a level with its heatmap or tokens) as SVG, at 1 pixel per scene unit."""
    rect = scene.sceneRect()
    size = QSize(int(rect.width()), int(rect.height()))
    gen = QSvgGenerator()
    gen.setFileName(os.fspath(path))
    gen.setSize(size)
    gen.setViewBox(QRect(0, 0, size.width(), size.height()))
    gen.setTitle(title)
    p = QPainter()
    if not p.begin(gen):
        raise OSError(f"{path}: cannot write the SVG drawing")
    scene.render(p, QRectF(0, 0, size.width(), size.height()), rect)
    p.end()


def save_scene_png(scene: QGraphicsScene, path: str | os.PathLike[str], scale: float = 1.0) -> None:
    """A whole scene as a PNG."""
    rect = scene.sceneRect()
    image = QImage(int(rect.width() * scale), int(rect.height() * scale), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(p, QRectF(0, 0, image.width(), image.height()), rect)
    p.end()
    write_png(image, path)
