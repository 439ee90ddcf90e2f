"""Icons of the tools, drawn with the map's own colours so each looks like what it places."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap, QPolygonF

from editor import palette
from editor.tools.kind_table import KIND_TOOLS, Shape
from engine.mission.kinds import BY_KEY

SIZE = 32
Draw = Callable[[QPainter], None]


def _square(p: QPainter, fill: str, outline: str = palette.SECTION_EDGE) -> None:
    p.setPen(QPen(QColor(outline), 1.5))
    p.setBrush(QColor(fill))
    p.drawRect(QRectF(5, 5, 22, 22))


def _bar(fill: str) -> Draw:
    def draw(p: QPainter) -> None:
        _square(p, palette.FLOOR)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(fill))
        p.drawRect(QRectF(5, 13, 22, 6))
    return draw


def _arrow(fill: str) -> Draw:
    def draw(p: QPainter) -> None:
        p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1))
        p.setBrush(QColor(fill))
        p.drawPolygon(QPolygonF([QPointF(4, 16), QPointF(15, 6), QPointF(15, 12), QPointF(28, 12),
                                 QPointF(28, 20), QPointF(15, 20), QPointF(15, 26)]))
    return draw


def _disc(fill: str) -> Draw:
    def draw(p: QPainter) -> None:
        p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.2))
        p.setBrush(QColor(fill))
        p.drawEllipse(QRectF(6, 6, 20, 20))
    return draw


def _select(p: QPainter) -> None:
    p.setPen(QPen(QColor(palette.SELECTION), 2, Qt.PenStyle.DashLine))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(QRectF(5, 5, 22, 22))


def _brush(p: QPainter) -> None:
    _square(p, palette.FLOOR)
    p.setPen(QPen(QColor(palette.SECTION_EDGE), 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(QPointF(10, 22), QPointF(22, 10))


def _rectangle(p: QPainter) -> None:
    p.setPen(QPen(QColor(palette.SECTION_EDGE), 2.5))
    p.setBrush(QColor(palette.FLOOR))
    p.drawRect(QRectF(4, 9, 24, 15))


def _fill(p: QPainter) -> None:
    _square(p, palette.SECTION_TINTS[0])
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(palette.SECTION_EDGE))
    p.drawPolygon(QPolygonF([QPointF(16, 8), QPointF(22, 17), QPointF(16, 24), QPointF(10, 17)]))


def _crossed(fill: str, cross: str) -> Draw:
    def draw(p: QPainter) -> None:
        _square(p, fill)
        p.setPen(QPen(QColor(cross), 2.5))
        p.drawLine(QPointF(9, 9), QPointF(23, 23))
        p.drawLine(QPointF(23, 9), QPointF(9, 23))
    return draw


def _section(p: QPainter) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(palette.SECTION_TINTS[1]))
    p.drawRect(QRectF(5, 5, 11, 22))
    p.setBrush(QColor(palette.SECTION_TINTS[2]))
    p.drawRect(QRectF(16, 5, 11, 22))
    p.setPen(QPen(QColor(palette.SECTION_EDGE), 2.5))
    p.drawLine(QPointF(16, 5), QPointF(16, 27))


def _objective(p: QPainter) -> None:
    p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1))
    p.setBrush(QColor(palette.OBJECTIVE))
    p.drawPolygon(QPolygonF([QPointF(16, 4), QPointF(28, 16), QPointF(16, 28), QPointF(4, 16)]))


def _pitfall(p: QPainter) -> None:
    _square(p, palette.FLOOR)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(palette.PITFALL))
    p.drawEllipse(QRectF(8, 8, 16, 16))


def _ladder(p: QPainter) -> None:
    p.setPen(QPen(QColor(palette.LADDER), 2.5))
    p.drawLine(QPointF(10, 4), QPointF(10, 28))
    p.drawLine(QPointF(22, 4), QPointF(22, 28))
    for y in (9, 16, 23):
        p.drawLine(QPointF(10, y), QPointF(22, y))


def _lift(p: QPainter) -> None:
    # A car in its shaft, arrows up and down.
    p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.5))
    p.setBrush(QColor(palette.LIFT))
    p.drawRect(QRectF(6, 6, 20, 20))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#ffffff"))
    p.drawPolygon(QPolygonF([QPointF(16, 8), QPointF(11, 14), QPointF(21, 14)]))
    p.drawPolygon(QPolygonF([QPointF(16, 24), QPointF(11, 18), QPointF(21, 18)]))


def _deploy_area(p: QPainter) -> None:
    # Four tinted squares, a Marine's disc on one.
    p.setPen(QPen(QColor(palette.DEPLOY), 1))
    p.setBrush(QColor(palette.DEPLOY_AREA))
    for x, y in ((4, 4), (16, 4), (4, 16), (16, 16)):
        p.drawRect(QRectF(x, y, 12, 12))
    p.setBrush(QColor(palette.DEPLOY))
    p.drawEllipse(QPointF(22, 22), 4.5, 4.5)


def _rubble(p: QPainter) -> None:
    p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1))
    p.setBrush(QColor(palette.RUBBLE))
    for x, y, r in ((11, 12, 6), (21, 13, 5), (15, 21, 6), (23, 22, 4)):
        p.drawEllipse(QPointF(x, y), r, r)


def _zone(p: QPainter) -> None:
    # A die in a dashed zone: random placement. Not a "?", which reads as help.
    pen = QPen(QColor(palette.RANDOM_ZONE), 2)
    pen.setStyle(Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(QRectF(3, 3, 26, 26))
    p.setPen(QPen(QColor(palette.TOKEN_OUTLINE), 1.5))
    p.setBrush(QColor(palette.RANDOM_ZONE).lighter(150))
    p.drawRoundedRect(QRectF(8, 8, 16, 16), 3, 3)
    p.setBrush(QColor(palette.TOKEN_OUTLINE))
    for x, y in ((12, 12), (16, 16), (20, 20), (20, 12), (12, 20)):
        p.drawEllipse(QPointF(x, y), 1.6, 1.6)


def _filled(fill: str) -> Draw:
    def draw(p: QPainter) -> None:
        _square(p, fill, palette.TOKEN_OUTLINE)
    return draw


_SHAPES: dict[Shape, Callable[[str], Draw]] = {"arrow": _arrow, "disc": _disc, "bar": _bar, "square": _filled}
_LEGEND_COLOURS = dict(palette.LEGEND)


def _kind_glyph(key: str, shape: Shape) -> Draw:
    """A simple kind's icon: its table row's shape in the colour of the kind's legend entry."""
    return _SHAPES[shape](_LEGEND_COLOURS[BY_KEY[key].legend(None)])


GLYPHS: dict[str, Draw] = {
    **{row.name: _kind_glyph(row.key, row.shape) for row in KIND_TOOLS},
    "Select": _select, "Brush": _brush, "Rectangle": _rectangle, "Flood fill": _fill,
    "Eraser": _crossed(palette.WALL, palette.FLOOR), "Section": _section,
    "Door": _bar(palette.DOOR_CLOSED), "Bulkhead": _bar(palette.BULKHEAD),
    "Deployment": _disc(palette.DEPLOY),
    "Deployment area": _deploy_area,
    "Objective": _objective, "Pitfall": _pitfall, "Ladder": _ladder, "Turbo-lift": _lift,
    "Rubble": _rubble,  # (drawn as rubble, not the table's square)
    "Chute": _crossed(palette.CHUTE, palette.ERROR), "Random zone": _zone,
}


def tool_icon(name: str) -> QIcon:
    """The icon of a tool by its name (an empty icon for a tool without a glyph)."""
    draw = GLYPHS.get(name)
    if draw is None:
        return QIcon()
    pix = QPixmap(SIZE, SIZE)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    draw(p)
    p.end()
    return QIcon(pix)
