"""Overlay data for the balance lab: tokens (models on the board), game marks and heatmap colour scales."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import palette
from editor.scene.feature_item import draw_text, square, squares_around
from editor.scene.terrain_item import S
from engine.mission.model import WALL, Level

TokenKind = Literal["marine", "genestealer", "blip"]
ColourScale = Callable[[float], QColor | str] | tuple[float, float] | None


@dataclass(frozen=True)
class Token:
    """A model drawn over the map: kind, id, square, facing ('N'/'E'/'S'/'W' or None) and a short label."""

    kind: TokenKind
    id: str
    x: int
    y: int
    facing: str | None = None
    label: str = ""


def _lerp(a: QColor, b: QColor, t: float) -> QColor:
    t = min(1.0, max(0.0, t))
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def colour_function(values: dict[tuple[int, int], float], scale: ColourScale) -> Callable[[float], QColor]:
    """Turn a colour scale (callable, (vmin, vmax) or None = data range) into value -> QColor."""
    if callable(scale):
        fn = scale
        return lambda v: QColor(fn(v))
    if scale is None:
        lo = min(values.values(), default=0.0)
        hi = max(values.values(), default=1.0)
    else:
        lo, hi = scale
    span = (hi - lo) or 1.0
    low, high = QColor(palette.HEAT_LOW), QColor(palette.HEAT_HIGH)
    return lambda v: _lerp(low, high, (v - lo) / span)


MarkKind = Literal["pitfall", "pitfall_bottom", "ladder_top", "ladder_bottom", "lift", "rubble", "chute", "door",
                   "fire"]


@dataclass(frozen=True)
class Mark:
    """A game counter or state drawn over the map during a replay: a kind, a square, a label and a state.

    Pitfalls carry their letter; doors their state ('open' / 'closed' / 'destroyed'); fire its marker count.
    """

    kind: MarkKind
    x: int
    y: int
    label: str = ""
    state: str = ""


class GameMarksItem(QGraphicsItem):
    """One game's counters, door states and fire over the mission's own features (replays).

    Drawn above the fixed features, so a door opened or destroyed during the game hides the mission's bar.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(12)  # over the features (10), under issue marks (30) and tokens (60)
        self.marks: list[Mark] = []
        self.level: Level | None = None
        self._bounds = QRectF()

    def set_marks(self, marks: list[Mark], level: Level | None) -> None:
        """Replace the marks (the level tells which way each door runs)."""
        self.prepareGeometryChange()
        self.marks, self.level = list(marks), level
        self._bounds = squares_around((m.x, m.y) for m in marks)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        order = ("pitfall_bottom", "rubble", "chute", "fire", "pitfall", "ladder_top", "ladder_bottom", "lift", "door")
        for kind in order:
            for m in self.marks:
                if m.kind == kind:
                    getattr(self, f"_{kind}")(p, m)

    def _pitfall_bottom(self, p: QPainter, m: Mark) -> None:
        r = square(m.x, m.y, 0.1)
        p.setPen(QPen(QColor(palette.PITFALL_BOTTOM), 2.5, Qt.PenStyle.DashLine))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(r)
        draw_text(p, r, m.label.lower(), palette.PITFALL_BOTTOM, 0.4)

    def _pitfall(self, p: QPainter, m: Mark) -> None:
        r = square(m.x, m.y, 0.08)
        p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.5))
        p.setBrush(QColor(palette.PITFALL))
        p.drawEllipse(r)
        draw_text(p, r, m.label, "#ffffff", 0.45)

    def _ladder(self, p: QPainter, m: Mark, arrow: str) -> None:
        r = square(m.x, m.y, 0.12)
        p.setPen(QPen(QColor(palette.LADDER), 3))
        left, right = r.left() + S * 0.12, r.right() - S * 0.12
        p.drawLine(QPointF(left, r.top()), QPointF(left, r.bottom()))
        p.drawLine(QPointF(right, r.top()), QPointF(right, r.bottom()))
        for k in range(1, 4):
            yy = r.top() + r.height() * k / 4
            p.drawLine(QPointF(left, yy), QPointF(right, yy))
        draw_text(p, square(m.x, m.y), arrow, palette.TOKEN_OUTLINE, 0.3)

    def _ladder_top(self, p: QPainter, m: Mark) -> None:
        self._ladder(p, m, "▼")

    def _ladder_bottom(self, p: QPainter, m: Mark) -> None:
        self._ladder(p, m, "▲")

    def _lift(self, p: QPainter, m: Mark) -> None:
        p.setPen(QPen(QColor("#ffffff"), 1.5))
        p.setBrush(QColor(palette.LIFT))
        p.drawRect(square(m.x, m.y, 0.08))
        draw_text(p, square(m.x, m.y), m.label[:4], "#ffffff", 0.3)

    def _rubble(self, p: QPainter, m: Mark) -> None:
        p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 0.8))
        p.setBrush(QColor(palette.RUBBLE))
        for fx, fy, fr in ((0.3, 0.35, 0.16), (0.65, 0.3, 0.13), (0.5, 0.68, 0.18), (0.25, 0.72, 0.1)):
            p.drawEllipse(QPointF((m.x + fx) * S, (m.y + fy) * S), fr * S, fr * S)

    def _chute(self, p: QPainter, m: Mark) -> None:
        r = square(m.x, m.y, 0.06)
        p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1))
        p.setBrush(QColor(palette.CHUTE))
        p.drawRect(r)

    def _fire(self, p: QPainter, m: Mark) -> None:
        outer = QColor(palette.HEAT_HIGH)
        outer.setAlpha(150)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(outer)
        p.drawRect(square(m.x, m.y, 0.03))
        p.setBrush(QColor(palette.WARNING))
        p.drawEllipse(square(m.x, m.y, 0.28))
        if m.label:
            draw_text(p, square(m.x, m.y), m.label, palette.TOKEN_OUTLINE, 0.32)

    def _door(self, p: QPainter, m: Mark) -> None:
        lv = self.level
        across_row = lv is not None and lv.cell(m.x - 1, m.y) == WALL and lv.cell(m.x + 1, m.y) == WALL
        r = square(m.x, m.y)
        # Cover the mission's own door (drawn in its starting state) with floor first.
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(palette.FLOOR))
        p.drawRect(QRectF(r.left(), r.center().y() - S * 0.22, S, S * 0.44) if across_row
                   else QRectF(r.center().x() - S * 0.22, r.top(), S * 0.44, S))
        bar = (QRectF(r.left(), r.center().y() - S * 0.14, S, S * 0.28) if across_row
               else QRectF(r.center().x() - S * 0.14, r.top(), S * 0.28, S))
        leaf = S * 0.22
        if m.state == "open":
            p.setPen(QPen(QColor(palette.DOOR_CLOSED), 2))
            p.setBrush(QColor(palette.DOOR_OPEN))
            if across_row:
                p.drawRect(QRectF(bar.left(), bar.top(), leaf, bar.height()))
                p.drawRect(QRectF(bar.right() - leaf, bar.top(), leaf, bar.height()))
            else:
                p.drawRect(QRectF(bar.left(), bar.top(), bar.width(), leaf))
                p.drawRect(QRectF(bar.left(), bar.bottom() - leaf, bar.width(), leaf))
        elif m.state == "destroyed":
            # Wreckage: scattered shards and a red cross, clearly neither open nor closed.
            p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 0.8))
            p.setBrush(QColor(palette.DOOR_CLOSED))
            for fx, fy, fr in ((0.25, 0.3, 0.1), (0.72, 0.68, 0.1), (0.3, 0.75, 0.07), (0.7, 0.28, 0.07)):
                p.drawEllipse(QPointF((m.x + fx) * S, (m.y + fy) * S), fr * S, fr * S)
            p.setPen(QPen(QColor(palette.ERROR), 2.5))
            inner = square(m.x, m.y, 0.22)
            p.drawLine(inner.topLeft(), inner.bottomRight())
            p.drawLine(inner.topRight(), inner.bottomLeft())
        else:
            p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.5))
            p.setBrush(QColor(palette.DOOR_CLOSED))
            p.drawRect(bar)
