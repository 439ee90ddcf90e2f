"""Draws every feature standing on one level: doors, counters, deployment, pitfall bottoms, zones."""

from __future__ import annotations

import weakref
from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import palette
from editor.document import MissionDocument
from editor.scene.terrain_item import S
from engine.mission.kinds import KINDS, Kind, items
from engine.mission.model import WALL, Level

FACING_ANGLE = {"N": 0.0, "E": 90.0, "S": 180.0, "W": 270.0}


def square(x: int, y: int, inset: float = 0.0) -> QRectF:
    """The scene rectangle of a square, shrunk by `inset` (a fraction of a square) on every side."""
    return QRectF((x + inset) * S, (y + inset) * S, S * (1 - 2 * inset), S * (1 - 2 * inset))


def squares_around(squares: Iterable[tuple[int, int]]) -> QRectF:
    """The scene rectangle holding the squares and one square all round (labels and arrows reach a little past
    their own square); empty when there are none."""
    pts = list(squares)
    if not pts:
        return QRectF()
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    return QRectF((min(xs) - 1) * S, (min(ys) - 1) * S, (max(xs) - min(xs) + 3) * S, (max(ys) - min(ys) + 3) * S)


def _font(p: QPainter, frac: float, bold: bool = True) -> None:
    f = QFont()
    f.setPixelSize(max(1, int(S * frac)))
    f.setBold(bold)
    p.setFont(f)


def draw_text(p: QPainter, rect: QRectF, text: str, colour: str, frac: float = 0.42) -> None:
    _font(p, frac)
    p.setPen(QColor(colour))
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def draw_facing(p: QPainter, x: int, y: int, facing: str | None, fill: str, label: str) -> None:
    """A round model base with a wedge pointing where it faces (deployment, marine and stealer tokens)."""
    c = QPointF((x + 0.5) * S, (y + 0.5) * S)
    r = S * 0.38
    p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.2))
    p.setBrush(QColor(fill))
    p.drawEllipse(c, r, r)
    if facing in FACING_ANGLE:
        p.save()
        p.translate(c)
        p.rotate(FACING_ANGLE[facing])
        p.setBrush(QColor("#ffffff"))
        p.setPen(Qt.PenStyle.NoPen)
        p.drawPolygon(QPolygonF([QPointF(0, -r * 1.05), QPointF(-r * 0.45, -r * 0.45), QPointF(r * 0.45, -r * 0.45)]))
        p.restore()
    draw_text(p, QRectF(c.x() - r, c.y() - r * 0.55, 2 * r, 1.4 * r), label, "#ffffff", 0.3)


def draw_side_arrow(p: QPainter, x: int, y: int, side: str, colour: str, label: str) -> None:
    """An arrow on the square pointing off the board towards the entry/exit side."""
    p.save()
    p.translate((x + 0.5) * S, (y + 0.5) * S)
    p.rotate(FACING_ANGLE.get(side, 0.0))
    p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1))
    p.setBrush(QColor(colour))
    h = S * 0.5
    p.drawPolygon(QPolygonF([QPointF(0, -h * 0.95), QPointF(-h * 0.8, 0), QPointF(-h * 0.35, 0),
                             QPointF(-h * 0.35, h * 0.85), QPointF(h * 0.35, h * 0.85), QPointF(h * 0.35, 0),
                             QPointF(h * 0.8, 0)]))
    p.restore()
    draw_text(p, square(x, y, 0.05).translated(0, S * 0.18), label, "#ffffff", 0.24)


# The kinds FeatureItem.paint draws in a way of their own; any other kind of the registry is drawn by _generic.
DRAWN_HERE = frozenset({"doors", "entry_areas", "exits", "objectives", "pitfalls", "ladders", "rubble", "chutes",
                        "lifts", "deployment_areas", "torpedoes", "squad"})
_GENERIC = tuple(k for k in KINDS if k.key not in DRAWN_HERE)
_LEGEND_COLOURS = dict(palette.LEGEND)


# Weakly held: a closed document must be free to go.
_standing_cache: tuple[weakref.ref[MissionDocument] | None, int, dict[str, dict[tuple[int, int], list[str]]]] = (
    None, -1, {})


def standing(doc: MissionDocument) -> dict[str, dict[tuple[int, int], list[str]]]:
    """level -> square -> what stands there (the features' reprs; a pitfall also on the square below it), once
    per change of the features (not of the squares) for all its levels' scenes."""
    global _standing_cache
    cached_doc, rev, out = _standing_cache
    if cached_doc is not None and cached_doc() is doc and rev == doc.features_revision:
        return out
    from editor.features import iter_features, places

    m = doc.mission
    out = {}
    for kind, obj in iter_features(m):
        for lv, x, y in places(kind, obj):
            text = f"{lv}{kind}{obj!r}"
            out.setdefault(lv, {}).setdefault((x, y), []).append(text)
            if kind == "pitfalls":
                below = m.level_below(lv)
                if below is not None:
                    out.setdefault(below.id, {}).setdefault((x, y), []).append(text)
    _standing_cache = (weakref.ref(doc), doc.features_revision, out)
    return out


class FeatureItem(QGraphicsItem):
    """Only draws; everything is read from the document at paint time."""

    def __init__(self, doc: MissionDocument, level_id: str) -> None:
        super().__init__()
        self.doc, self.level_id = doc, level_id
        self.setZValue(10)
        self._drawn: dict[tuple[int, int], list[str]] | None = None  # what stood where at the last changed_area
        self._zones_drawn = ""

    def _standing(self) -> dict[tuple[int, int], list[str]]:
        """Each square of this level and what stands on it (the features' reprs; pitfall bottoms from above)."""
        return standing(self.doc).get(self.level_id, {})

    def changed_area(self) -> QRectF | None:
        """The scene rectangle around every square whose features changed since the last call (empty: none),
        or None when the whole level must be redrawn (the first call, random zones changed). An edit of one
        door then repaints a few squares, not a 200x200 map."""
        now = self._standing()
        zones = repr(self.doc.mission.random_setup)
        before, self._drawn = self._drawn, now
        if before is None or zones != self._zones_drawn:
            self._zones_drawn = zones
            return None
        changed = [sq for sq in before.keys() | now.keys() if before.get(sq) != now.get(sq)]
        return squares_around(changed)

    def boundingRect(self) -> QRectF:
        lv = self.doc.mission.level(self.level_id)
        return QRectF() if lv is None else QRectF(-S, -S, (lv.width + 2) * S, (lv.height + 2) * S)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        m, here = self.doc.mission, self.level_id
        lv = m.level(here)
        if lv is None:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._zones(p, lv)
        for area in m.deployment_areas:
            if area.level == here:
                for x, y in area.squares:
                    self._area(p, x, y)
        above = m.level_above(here)
        for pit in m.pitfalls:
            if above is not None and pit.level == above.id:
                self._pitfall(p, pit.x, pit.y, pit.letter, bottom=True)
        for r in m.rubble:
            if r.level == here:
                self._rubble(p, r.x, r.y)
        for c in m.chutes:
            if c.level == here:
                self._chute(p, c.x, c.y)
        for kind in _GENERIC:
            self._generic(p, kind)
        for pit in m.pitfalls:
            if pit.level == here:
                self._pitfall(p, pit.x, pit.y, pit.letter, bottom=False)
        for la in m.ladders:
            if la.top.level == here:
                self._ladder(p, la.top.x, la.top.y, la.id, "▼")
            if la.bottom.level == here:
                self._ladder(p, la.bottom.x, la.bottom.y, la.id, "▲")
        for lift in m.lifts:
            for e in lift.entrances:
                if e.level == here:
                    self._lift(p, e.x, e.y, lift.id)
        for d in m.doors:
            if d.level == here:
                self._door(p, lv, d.x, d.y, d.kind, d.state)
        for o in m.objectives:
            if o.level == here:
                self._objective(p, o.x, o.y)
        for e in m.entry_areas:
            if e.level == here:
                draw_side_arrow(p, e.x, e.y, e.side, palette.ENTRY, e.id)
        for x in m.exits:
            if x.level == here:
                draw_side_arrow(p, x.x, x.y, x.side, palette.EXIT, x.id)
        for t in m.torpedoes:
            if t.level == here:
                draw_side_arrow(p, t.x, t.y, t.side, palette.TORPEDO, t.id)
        for mm in m.marines.squad:
            if mm.level == here:
                label = {"sergeant": "Sg", "archivist": "Ar"}.get(mm.rank, mm.id[-2:])
                draw_facing(p, mm.x, mm.y, mm.facing, palette.DEPLOY, label)

    def _zones(self, p: QPainter, lv: Level) -> None:
        rs = self.doc.mission.random_setup
        if rs is None:
            return
        codes = {code for level, code in rs.zones if level == lv.id}
        if not codes:
            return
        colour = QColor(palette.RANDOM_ZONE)
        colour.setAlpha(150)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(colour, Qt.BrushStyle.BDiagPattern))
        for y, row in enumerate(lv.rows):
            for x, c in enumerate(row):
                if c in codes:
                    p.drawRect(square(x, y))

    def _door(self, p: QPainter, lv: Level, x: int, y: int, kind: str, state: str) -> None:
        # The door runs between the two walls that hold it.
        across_row = lv.cell(x - 1, y) == WALL and lv.cell(x + 1, y) == WALL
        r = square(x, y)
        bar = (QRectF(r.left(), r.center().y() - S * 0.14, S, S * 0.28) if across_row
               else QRectF(r.center().x() - S * 0.14, r.top(), S * 0.28, S))
        if kind == "bulkhead":
            p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.5))
            p.setBrush(QColor(palette.BULKHEAD))
            p.drawRect(bar.adjusted(-S * 0.06, -S * 0.06, S * 0.06, S * 0.06))
            p.setPen(QPen(QColor("#ffffff"), 1.5, Qt.PenStyle.DashLine))
            if across_row:
                p.drawLine(QPointF(bar.left(), bar.center().y()), QPointF(bar.right(), bar.center().y()))
            else:
                p.drawLine(QPointF(bar.center().x(), bar.top()), QPointF(bar.center().x(), bar.bottom()))
            if state == "closed":
                draw_text(p, r, "B", "#ffffff", 0.3)
            return
        if state == "open":
            p.setPen(QPen(QColor(palette.DOOR_CLOSED), 2))
            p.setBrush(QColor(palette.DOOR_OPEN))
            # An open door: the leaf slid into the wall, leaving a gap in the middle.
            if across_row:
                p.drawRect(QRectF(bar.left(), bar.top(), S * 0.22, bar.height()))
                p.drawRect(QRectF(bar.right() - S * 0.22, bar.top(), S * 0.22, bar.height()))
            else:
                p.drawRect(QRectF(bar.left(), bar.top(), bar.width(), S * 0.22))
                p.drawRect(QRectF(bar.left(), bar.bottom() - S * 0.22, bar.width(), S * 0.22))
        else:
            p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.5))
            p.setBrush(QColor(palette.DOOR_CLOSED))
            p.drawRect(bar)

    def _objective(self, p: QPainter, x: int, y: int) -> None:
        c = square(x, y).center()
        h = S * 0.4
        p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.2))
        p.setBrush(QColor(palette.OBJECTIVE))
        p.drawPolygon(QPolygonF([QPointF(c.x(), c.y() - h), QPointF(c.x() + h, c.y()),
                                 QPointF(c.x(), c.y() + h), QPointF(c.x() - h, c.y())]))
        draw_text(p, square(x, y), "O", palette.TOKEN_OUTLINE, 0.36)

    def _pitfall(self, p: QPainter, x: int, y: int, letter: str, bottom: bool) -> None:
        r = square(x, y, 0.1)
        if bottom:
            p.setPen(QPen(QColor(palette.PITFALL_BOTTOM), 2, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(r)
            draw_text(p, r, letter.lower(), palette.PITFALL_BOTTOM, 0.4)
        else:
            p.setPen(QPen(QColor("#000000"), 1))
            p.setBrush(QColor(palette.PITFALL))
            p.drawEllipse(r)
            draw_text(p, r, letter, "#ffffff", 0.45)

    def _ladder(self, p: QPainter, x: int, y: int, ident: str, arrow: str) -> None:
        r = square(x, y, 0.12)
        p.setPen(QPen(QColor(palette.LADDER), 3))
        p.drawLine(QPointF(r.left() + S * 0.12, r.top()), QPointF(r.left() + S * 0.12, r.bottom()))
        p.drawLine(QPointF(r.right() - S * 0.12, r.top()), QPointF(r.right() - S * 0.12, r.bottom()))
        for k in range(1, 4):
            yy = r.top() + r.height() * k / 4
            p.drawLine(QPointF(r.left() + S * 0.12, yy), QPointF(r.right() - S * 0.12, yy))
        draw_text(p, square(x, y), arrow, palette.LADDER, 0.3)

    def _generic(self, p: QPainter, kind: Kind) -> None:
        """A kind with no drawing of its own: its squares in its legend colour, with its ident."""
        for obj in items(self.doc.mission, kind):
            ident = str(getattr(obj, kind.ident, "")) if kind.ident else ""
            for _role, sq in kind.ends(obj):
                if sq.level == self.level_id:
                    p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1))
                    p.setBrush(QColor(_LEGEND_COLOURS[kind.legend(obj)]))
                    p.drawRect(square(sq.x, sq.y, 0.1))
                    draw_text(p, square(sq.x, sq.y), ident[:4], "#ffffff", 0.26)

    def _area(self, p: QPainter, x: int, y: int) -> None:
        c = QColor(palette.DEPLOY_AREA)
        c.setAlpha(150)
        p.setPen(QPen(QColor(palette.DEPLOY), 1))
        p.setBrush(c)
        p.drawRect(square(x, y, 0.04))

    def _lift(self, p: QPainter, x: int, y: int, ident: str) -> None:
        r = square(x, y, 0.08)
        p.setPen(QPen(QColor("#ffffff"), 1.5))
        p.setBrush(QColor(palette.LIFT))
        p.drawRect(r)
        draw_text(p, square(x, y), ident[:4], "#ffffff", 0.3)

    def _rubble(self, p: QPainter, x: int, y: int) -> None:
        p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 0.8))
        p.setBrush(QColor(palette.RUBBLE))
        for fx, fy, fr in ((0.3, 0.35, 0.16), (0.65, 0.3, 0.13), (0.5, 0.68, 0.18), (0.25, 0.72, 0.1)):
            p.drawEllipse(QPointF((x + fx) * S, (y + fy) * S), fr * S, fr * S)

    def _chute(self, p: QPainter, x: int, y: int) -> None:
        r = square(x, y, 0.06)
        p.setPen(QPen(QColor("#000000"), 1))
        p.setBrush(QColor(palette.CHUTE))
        p.drawRect(r)
        p.setPen(QPen(QColor("#e57373"), 2))
        p.drawLine(r.topLeft(), r.bottomRight())
        p.drawLine(r.topRight(), r.bottomLeft())
