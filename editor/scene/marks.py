"""Items that mark squares over the map: issues, the selection, the tool preview, heatmaps, tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import palette
from editor.scene.feature_item import draw_facing, draw_text, square
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
        if not squares:
            self._bounds = QRectF()
            return
        xs = [x for x, _ in squares]
        ys = [y for _, y in squares]
        self._bounds = QRectF((min(xs) - 1) * S, (min(ys) - 1) * S,
                              (max(xs) - min(xs) + 3) * S, (max(ys) - min(ys) + 3) * S)


class IssueMarksItem(_SquaresItem):
    """Offending squares: red for errors, amber for warnings; the selected issue drawn heavier."""

    def __init__(self) -> None:
        super().__init__(30)
        self.marks: dict[tuple[int, int], str] = {}
        self.focus: set[tuple[int, int]] = set()

    def set_marks(self, marks: dict[tuple[int, int], str], focus: set[tuple[int, int]]) -> None:
        changed = {sq for sq in marks.keys() | self.marks.keys() if marks.get(sq) != self.marks.get(sq)}
        changed |= focus ^ self.focus
        self.marks, self.focus = marks, focus
        if not changed:
            return
        # Repaint only what changed: a warning covering half the map must not repaint it on every stroke.
        xs = [x for x, _ in changed]
        ys = [y for _, y in changed]
        dirty = QRectF((min(xs) - 1) * S, (min(ys) - 1) * S, (max(xs) - min(xs) + 3) * S, (max(ys) - min(ys) + 3) * S)
        if not self._bounds.contains(dirty):
            self.prepareGeometryChange()
            self._bounds = self._bounds.united(dirty) if not self._bounds.isEmpty() else dirty
        self.update(dirty)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        for (x, y), severity in self.marks.items():
            colour = QColor(palette.ERROR if severity == "error" else palette.WARNING)
            fill = QColor(colour)
            fill.setAlpha(60)
            p.setBrush(fill)
            p.setPen(QPen(colour, 2.5 if (x, y) not in self.focus else 5))
            p.drawRect(square(x, y, 0.04))
        for x, y in self.focus - set(self.marks):
            p.setPen(QPen(QColor(palette.ERROR), 5))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(square(x, y, 0.04))


class SelectionItem(_SquaresItem):
    """The selected rectangle of squares (dashed) or a paste/move ghost."""

    def __init__(self) -> None:
        super().__init__(40)
        self.rect: QRect | None = None

    def set_rect(self, rect: QRect | None) -> None:
        self.rect = rect
        if rect is None:
            self._set_bounds([])
        else:
            self._set_bounds([(rect.left(), rect.top()), (rect.right(), rect.bottom())])
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.rect is None:
            return
        r = self.rect
        colour = QColor(palette.SELECTION)
        fill = QColor(colour)
        fill.setAlpha(45)
        p.setBrush(fill)
        p.setPen(QPen(colour, 2.5, Qt.PenStyle.DashLine))
        p.drawRect(QRectF(r.left() * S, r.top() * S, r.width() * S, r.height() * S))


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
