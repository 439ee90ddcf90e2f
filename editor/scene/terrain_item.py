"""Draws one level's squares: walls, floor tinted by section, section borders and names, the grid."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import palette
from editor.document import MissionDocument
from engine.mission.model import WALL, Level

S = 32.0  # scene units per square


def section_colours(level: Level) -> dict[str, QColor]:
    """A tint per section code; codes are ordered so a file always paints the same way."""
    codes = sorted({c for row in level.rows for c in row if c not in (WALL, ".")} | set(level.sections))
    return {c: QColor(palette.SECTION_TINTS[i % len(palette.SECTION_TINTS)]) for i, c in enumerate(codes)}


def section_label_squares(level: Level, avoid: frozenset[tuple[int, int]] = frozenset(),
                          ) -> dict[str, tuple[float, float]]:
    """Where to write each section's name: the section square nearest the section's centre of mass,
    preferring squares without a feature (`avoid`) so a name does not cover a counter."""
    cells: dict[str, list[tuple[int, int]]] = {}
    for y, row in enumerate(level.rows):
        for x, c in enumerate(row):
            if c not in (WALL, "."):
                cells.setdefault(c, []).append((x, y))
    out: dict[str, tuple[float, float]] = {}
    for code, sq in cells.items():
        mx = sum(x for x, _ in sq) / len(sq)
        my = sum(y for _, y in sq) / len(sq)
        bx, by = min(sq, key=lambda p: ((p in avoid) * 1e6 + (p[0] - mx) ** 2 + (p[1] - my) ** 2))
        out[code] = (bx, by)
    return out


def occupied(doc: MissionDocument, level_id: str) -> frozenset[tuple[int, int]]:
    """Squares of a level holding a feature (or the bottom of a pitfall above)."""
    from editor.features import iter_features, places

    out = {(x, y) for kind, obj in iter_features(doc.mission) for lv, x, y in places(kind, obj) if lv == level_id}
    above = doc.mission.level_above(level_id)
    if above is not None:
        out |= {(p.x, p.y) for p in doc.mission.pitfalls if p.level == above.id}
    return frozenset(out)


class TerrainItem(QGraphicsItem):
    """Only draws: reads the level from the document at paint time."""

    def __init__(self, doc: MissionDocument, level_id: str) -> None:
        super().__init__()
        self.doc, self.level_id = doc, level_id
        self.show_grid = True
        self._cache_rev = -1
        self._colours: dict[str, QColor] = {}
        self.setZValue(0)
        # Without this flag exposedRect is the whole item and one painted square repaints the map.
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

    def level(self) -> Level | None:
        return self.doc.mission.level(self.level_id)

    def boundingRect(self) -> QRectF:
        lv = self.level()
        if lv is None:
            return QRectF()
        return QRectF(0, 0, lv.width * S, lv.height * S)

    def _refresh_cache(self, lv: Level) -> None:
        if self._cache_rev != self.doc.revision:
            self._colours = section_colours(lv)
            self._cache_rev = self.doc.revision

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lv = self.level()
        if lv is None:
            return
        self._refresh_cache(lv)
        exposed = option.exposedRect if option.exposedRect.isValid() else self.boundingRect()
        x0 = max(0, int(exposed.left() // S))
        y0 = max(0, int(exposed.top() // S))
        x1 = min(lv.width, int(exposed.right() // S) + 1)
        y1 = min(lv.height, int(exposed.bottom() // S) + 1)
        wall, floor = QColor(palette.WALL), QColor(palette.FLOOR)
        rows = [row.ljust(x1, WALL) for row in lv.rows]  # ragged rows read as wall past their end
        p.setPen(Qt.PenStyle.NoPen)
        for y in range(y0, y1):
            row = rows[y]
            for x in range(x0, x1):
                c = row[x]
                p.setBrush(wall if c == WALL else self._colours.get(c, floor))
                p.drawRect(QRectF(x * S, y * S, S, S))
        if self.show_grid:
            p.setPen(QPen(QColor(palette.GRID_LINE), 0))
            p.setBrush(Qt.BrushStyle.NoBrush)
            for y in range(y0, y1):
                row = rows[y]
                for x in range(x0, x1):
                    if row[x] != WALL:
                        p.drawRect(QRectF(x * S, y * S, S, S))
        # Heavy borders where the section changes: the flamer and psychic storm hit whole sections.
        edge = QPen(QColor(palette.SECTION_EDGE), 3)
        edge.setCapStyle(Qt.PenCapStyle.FlatCap)
        p.setPen(edge)
        h = len(rows)

        def at(x: int, y: int) -> str:
            return rows[y][x] if 0 <= y < h and 0 <= x < len(rows[y]) else WALL

        for y in range(y0, y1):
            row = rows[y]
            for x in range(x0, x1):
                c = row[x]
                if c == WALL:
                    continue
                if at(x + 1, y) != c:
                    p.drawLine(QPointF((x + 1) * S, y * S), QPointF((x + 1) * S, (y + 1) * S))
                if at(x - 1, y) != c:
                    p.drawLine(QPointF(x * S, y * S), QPointF(x * S, (y + 1) * S))
                if at(x, y + 1) != c:
                    p.drawLine(QPointF(x * S, (y + 1) * S), QPointF((x + 1) * S, (y + 1) * S))
                if at(x, y - 1) != c:
                    p.drawLine(QPointF(x * S, y * S), QPointF((x + 1) * S, y * S))


class SectionNamesItem(QGraphicsItem):
    """Section codes and names on pale tags, above the features so a counter never hides a room's name."""

    def __init__(self, doc: MissionDocument, level_id: str) -> None:
        super().__init__()
        self.doc, self.level_id = doc, level_id
        self._cache_rev = -1
        self._labels: dict[str, tuple[float, float]] = {}
        self.setZValue(15)

    def boundingRect(self) -> QRectF:
        lv = self.doc.mission.level(self.level_id)
        return QRectF() if lv is None else QRectF(-S, 0, (lv.width + 2) * S, lv.height * S)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lv = self.doc.mission.level(self.level_id)
        if lv is None:
            return
        if self._cache_rev != self.doc.revision:
            self._labels = section_label_squares(lv, occupied(self.doc, self.level_id))
            self._cache_rev = self.doc.revision
        self._paint_names(p, lv)

    def _paint_names(self, p: QPainter, lv: Level) -> None:
        font = QFont()
        font.setPixelSize(int(S * 0.34))
        font.setBold(True)
        p.setFont(font)
        metrics = p.fontMetrics()
        back = QColor("#fbf8f0")
        back.setAlpha(215)
        for code, (x, y) in self._labels.items():
            sec = lv.sections.get(code)
            name = sec.name if sec and sec.name else ""
            text = f"{code}" + (f" · {name}" if name else "")
            # A pale tag behind the name keeps it legible where a narrow corridor puts it over walls.
            w = metrics.horizontalAdvance(text) + S * 0.3
            # Straddle the top edge when a wall is above: the tag then covers wall, not counters.
            top = y * S - S * 0.21 if lv.cell(int(x), int(y) - 1) == WALL else y * S + S * 0.04
            box = QRectF((x + 0.5) * S - w / 2, top, w, S * 0.42)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(back)
            p.drawRoundedRect(box, S * 0.1, S * 0.1)
            p.setPen(QColor(palette.SECTION_LABEL))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


class GhostBelowItem(QGraphicsItem):
    """The level below, drawn faintly over this one so pitfall bottoms and ladder ends line up."""

    def __init__(self, doc: MissionDocument, level_id: str) -> None:
        super().__init__()
        self.doc, self.level_id = doc, level_id
        self.setZValue(5)
        self.setVisible(False)

    def boundingRect(self) -> QRectF:
        below = self.doc.mission.level_below(self.level_id)
        if below is None:
            return QRectF()
        return QRectF(0, 0, below.width * S, below.height * S)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        below = self.doc.mission.level_below(self.level_id)
        if below is None:
            return
        colour = QColor(palette.GHOST_BELOW)  # how faint: the item's opacity (Levels panel)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        for y, row in enumerate(below.rows):
            for x, c in enumerate(row):
                if c != WALL:
                    p.drawRect(QRectF(x * S + S * 0.3, y * S + S * 0.3, S * 0.4, S * 0.4))
