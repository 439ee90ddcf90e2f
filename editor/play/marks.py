"""ChoicesItem: what a selected model may do, drawn over the map (squares with their AP cost, targets with the
kill chance), and the tokens of one side's view (blips without their value for the Marines)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor.scene.feature_item import square, squares_around
from editor.scene.overlay import Token
from editor.scene.terrain_item import S
from engine.rules.board import FACE_NAMES
from engine.rules.observation import Observation

ATTACKS = ("shoot", "flame", "assault")
_COLOUR = {"move": "#2e7d32", "reach": "#558b2f", "reach_cp": "#b26a00", "attack": "#c62828", "door": "#ef6c00",
           "other": "#1565c0", "piece": "#fdd835"}


@dataclass(frozen=True)
class SquareMark:
    """One square marked for the selected model: kind (move, attack, door, other, piece) and its label."""

    x: int
    y: int
    kind: str
    label: str = ""


class ChoicesItem(QGraphicsItem):
    """Coloured frames and labels on the squares the selected model's actions point at."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(70)
        self.marks: list[SquareMark] = []
        self._bounds = QRectF()

    def set_marks(self, marks: list[SquareMark]) -> None:
        self.prepareGeometryChange()
        self.marks = list(marks)
        self._bounds = squares_around((m.x, m.y) for m in marks)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(max(6, int(S * 0.27)))
        p.setFont(font)
        for m in self.marks:
            colour = QColor(_COLOUR.get(m.kind, _COLOUR["other"]))
            r = square(m.x, m.y, 0.04)
            p.setPen(QPen(colour, 2.4 if m.kind != "piece" else 3.2))
            fill = QColor(colour)
            fill.setAlpha(0 if m.kind == "piece" else 25 if m.kind.startswith("reach") else 45)
            p.setBrush(fill)
            p.drawRect(r)
            if m.label:
                band = QRectF(r.left(), r.bottom() - S * 0.36, r.width(), S * 0.36)
                back = QColor("#ffffff")
                back.setAlpha(215)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(back)
                p.drawRect(band)
                p.setPen(colour.darker(130))
                p.drawText(band, Qt.AlignmentFlag.AlignCenter, m.label)


def view_tokens(obs: Observation) -> dict[str, list[Token]]:
    """Models on the board by level as `obs.player` knows them: a blip's value only for the Genestealers."""
    b = obs.game.board
    out: dict[str, list[Token]] = {}
    for pc in obs.p.values():
        if pc.sq < 0:
            continue
        li, x, y = b.lxy(pc.sq)
        level = b.level_ids[li]
        if pc.kind == "blip":
            label = str(obs.blip_value(pc.id)) if obs.player == "genestealers" else "?"
            out.setdefault(level, []).append(Token("blip", pc.id, x, y, None, label))
            continue
        facing = FACE_NAMES[pc.facing] if 0 <= pc.facing < len(FACE_NAMES) else None
        kind = "marine" if pc.kind == "marine" else "genestealer"
        out.setdefault(level, []).append(Token(kind, pc.id, x, y, facing, pc.id[:3]))  # type: ignore[arg-type]
    return out
