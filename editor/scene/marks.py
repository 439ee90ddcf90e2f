"""Items that mark squares over the map: issues, the selection, the tool preview, heatmaps, tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import numpy as np
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPainterPath, QPen, QRegion
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import palette
from editor.scene.feature_item import draw_facing, draw_text, square, squares_around
from editor.scene.grid_arrays import argb, boundary_lines, image_from
from editor.scene.overlay import Token
from editor.scene.terrain_item import S


class _SquaresItem(QGraphicsItem):
    """Base: a set of squares and a bounding rect that covers them all."""

    def __init__(self, z: float) -> None:
        super().__init__()
        self.setZValue(z)
        self._bounds = QRectF()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def _set_bounds(self, squares: list[tuple[int, int]]) -> None:
        self.prepareGeometryChange()
        self._bounds = squares_around(squares)


class IssueMarksItem(_SquaresItem):
    """Offending squares: red for errors, amber for warnings, every square of every issue; the selected
    issue outlined heavier.

    Drawn as a tinted image of one pixel per square and the outlines of each area, so an issue covering a whole
    200x200 map paints in a few calls.
    """

    def __init__(self) -> None:
        super().__init__(30)
        self.focus: set[tuple[int, int]] = set()
        self._grid = np.zeros((0, 0), dtype=np.uint8)  # 0 none, 1 warning, 2 error; cell (0, 0) is `_origin`
        self._focus_grid = np.zeros((0, 0), dtype=bool)
        self._image = QImage()
        self._origin = (0, 0)
        self._outlines: list[tuple[str, float, list[QLineF]]] = []

    @property
    def marks(self) -> dict[tuple[int, int], str]:
        """Every marked square and its severity (for tests and tools; painting reads the grid)."""
        ox, oy = self._origin
        ys, xs = np.nonzero(self._grid)
        return {(int(x) + ox, int(y) + oy): ("error" if self._grid[y, x] == 2 else "warning")
                for y, x in zip(ys, xs, strict=True)}

    def set_marks(self, marks: dict[tuple[int, int], str], focus: set[tuple[int, int]]) -> None:
        """Squares and their severity, one by one."""
        self.set_issues([(sev, (sq,)) for sq, sev in marks.items()], focus)

    def set_issues(self, groups: list[tuple[str, tuple[tuple[int, int], ...]]], focus: set[tuple[int, int]]) -> None:
        """(severity, squares) of each issue; the squares go into numpy whole, so a map-wide issue costs
        milliseconds, and nothing is repainted when the marks did not change."""
        arrays = sorted(((2 if sev == "error" else 1, np.asarray(squares, dtype=np.int64).reshape(-1, 2))
                         for sev, squares in groups if squares), key=lambda item: item[0])
        every = [a for _, a in arrays]
        if focus:
            every.append(np.asarray(sorted(focus), dtype=np.int64).reshape(-1, 2))
        if every:
            stacked = np.concatenate(every)
            ox, oy = int(stacked[:, 0].min()), int(stacked[:, 1].min())
            w, h = int(stacked[:, 0].max()) - ox + 1, int(stacked[:, 1].max()) - oy + 1
        else:
            ox = oy = w = h = 0
        grid = np.zeros((h, w), dtype=np.uint8)
        for level, a in arrays:  # errors last: a square in both shows as an error
            grid[a[:, 1] - oy, a[:, 0] - ox] = level
        focus_grid = np.zeros((h, w), dtype=bool)
        if focus:
            f = every[-1]
            focus_grid[f[:, 1] - oy, f[:, 0] - ox] = True
        if ((ox, oy) == self._origin and np.array_equal(grid, self._grid)
                and np.array_equal(focus_grid, self._focus_grid)):
            return
        old_bounds = QRectF(self._bounds)
        self._grid, self._focus_grid, self._origin, self.focus = grid, focus_grid, (ox, oy), set(focus)
        self._build()
        self.prepareGeometryChange()
        self._bounds = QRectF((ox - 1) * S, (oy - 1) * S, (w + 2) * S, (h + 2) * S) if w else QRectF()
        self.update(old_bounds)
        self.update()

    def _build(self) -> None:
        self._outlines = []
        if self._grid.size == 0:
            self._image = QImage()
            return
        lut = np.array([0, argb(palette.WARNING, 60), argb(palette.ERROR, 60)], dtype=np.uint32)
        self._image = image_from(lut[self._grid])
        for level, colour in ((1, palette.WARNING), (2, palette.ERROR)):
            area = self._grid == level
            if area.any():
                self._outlines.append((colour, 2.5, boundary_lines(area, S, origin=self._origin)))
        if self._focus_grid.any():
            self._outlines.append((palette.ERROR, 5.0, boundary_lines(self._focus_grid, S, origin=self._origin)))

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._image.isNull():
            return
        ox, oy = self._origin
        p.save()
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        p.drawImage(QRectF(ox * S, oy * S, self._image.width() * S, self._image.height() * S), self._image)
        p.restore()
        p.setBrush(Qt.BrushStyle.NoBrush)
        for colour, width, lines in self._outlines:
            p.setPen(QPen(QColor(colour), width))
            p.drawLines(lines)


class SelectionItem(_SquaresItem):
    """The selected squares (any shape: added to and cut from), tinted and outlined with a dashed line."""

    def __init__(self) -> None:
        super().__init__(40)
        self.area: QRegion | None = None
        self._outline = QPainterPath()

    def set_area(self, area: QRegion | None) -> None:
        self.area = area
        if area is None or area.isEmpty():
            self.area = None
            self._set_bounds([])
        else:
            r = area.boundingRect()
            self._set_bounds([(r.left(), r.top()), (r.right(), r.bottom())])
            path = QPainterPath()
            for part in area:
                path.addRect(QRectF(part.left() * S, part.top() * S, part.width() * S, part.height() * S))
            self._outline = path.simplified()  # one outline around the squares, not one box per run
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.area is None:
            return
        colour = QColor(palette.SELECTION)
        fill = QColor(colour)
        fill.setAlpha(45)
        p.setBrush(fill)
        p.setPen(QPen(colour, 2.5, Qt.PenStyle.DashLine))
        p.drawPath(self._outline)


class PreviewItem(_SquaresItem):
    """Where the current tool would act: green outline, or red when the placement would break a rule."""

    def __init__(self) -> None:
        super().__init__(50)
        self.squares: list[tuple[int, int]] = []
        self.ok = True
        self.reason = ""

    def set_preview(self, squares: list[tuple[int, int]], ok: bool, reason: str = "") -> None:
        self.squares, self.ok, self.reason = squares, ok, reason
        self._set_bounds(squares)
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        colour = QColor(palette.PREVIEW_OK if self.ok else palette.ERROR)
        fill = QColor(colour)
        fill.setAlpha(40 if self.ok else 110)
        p.setBrush(fill)
        p.setPen(QPen(colour, 2))
        for x, y in self.squares:
            p.drawRect(square(x, y, 0.02))


class AnchorItem(_SquaresItem):
    """Where a two-click feature's first end went (a ladder's top, seen from the level below while the bottom
    is placed): a dashed ring with a word, so the designer can line the second end up with it."""

    def __init__(self) -> None:
        super().__init__(55)
        self.square: tuple[int, int] | None = None
        self.text = ""

    def set_anchor(self, square: tuple[int, int] | None, text: str = "") -> None:
        self.square, self.text = square, text
        self._set_bounds([square] if square is not None else [])
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.square is None:
            return
        x, y = self.square
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(QColor(palette.LADDER), 3, Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(square(x, y, 0.06))
        if self.text:
            box = QRectF((x - 0.5) * S, (y - 0.55) * S, 2 * S, 0.5 * S)
            draw_text(p, box, self.text, palette.LADDER, 0.32)


class HeatmapItem(_SquaresItem):
    """Per-square values as translucent colour (balance lab: where models die, where they walk)."""

    def __init__(self) -> None:
        super().__init__(8)  # under the counters, so a heatmap never hides what stands on a square
        self.values: dict[tuple[int, int], float] = {}
        self.colour: Callable[[float], QColor] = lambda v: QColor(palette.HEAT_HIGH)
        self.opacity_ = 0.6

    def set_values(self, values: dict[tuple[int, int], float], colour: Callable[[float], QColor]) -> None:
        self.values, self.colour = values, colour
        self._set_bounds(list(values))
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        for (x, y), v in self.values.items():
            c = QColor(self.colour(v))
            c.setAlphaF(self.opacity_)
            p.setBrush(QBrush(c))
            p.drawRect(square(x, y))


class TokensItem(_SquaresItem):
    """Marines, Genestealers and blips over the map (replays)."""

    FILL: ClassVar[dict[str, str]] = {
        "marine": palette.MARINE, "genestealer": palette.GENESTEALER, "blip": palette.BLIP,
    }

    def __init__(self) -> None:
        super().__init__(60)
        self.tokens: list[Token] = []

    def set_tokens(self, tokens: list[Token]) -> None:
        self.tokens = list(tokens)
        self._set_bounds([(t.x, t.y) for t in tokens])
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for t in self.tokens:
            fill = self.FILL.get(t.kind, palette.BLIP)
            if t.kind == "blip":
                r = square(t.x, t.y, 0.14)
                p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.2))
                p.setBrush(QColor(fill))
                p.drawRoundedRect(r, S * 0.12, S * 0.12)
                draw_text(p, r, t.label or "?", "#ffffff", 0.34)
            else:
                draw_facing(p, t.x, t.y, t.facing, fill, t.label or t.id[-2:])
