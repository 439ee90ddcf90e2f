"""The play view's board and helpers: the map view (fitted until zoomed), the policy's worker thread, the marks a
model's choices put on its squares, the log's lines and the mission drawn under the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QThread, Signal
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from editor.document import MissionDocument
from editor.lab.lab_map import FitView
from editor.play.marks import ATTACKS, SquareMark
from editor.scene.terrain_item import S
from editor.worker_gc import no_collection_in_thread
from engine.mission import mission_from_dict
from engine.rules.moves import RELOCATING
from engine.rules.pieces import Event
from engine.sim.choices import Choice, percent
from engine.sim.session import PlaySession

SIDE_NAMES = {"marines": "Marines", "genestealers": "Genestealers"}


class AiWorker(QThread):
    """Runs one policy decision (PlaySession.ai_job) off the GUI thread."""

    chosen = Signal(object, int, object)  # the action, the decisions taken when it started, the session
    failed = Signal(str)

    def __init__(self, job: Callable[[], object], ply: int, session: PlaySession) -> None:
        super().__init__()
        self.job, self.ply, self.session = job, ply, session

    @no_collection_in_thread
    def run(self) -> None:
        try:
            action = self.job()
        except Exception as exc:  # shown in the window; a failing player must not take the editor down
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.chosen.emit(action, self.ply, self.session)


class BoardView(FitView):
    """The map, fitted to the window until the wheel zooms it; a left click names the square under it."""

    squareClicked = Signal(int, int)
    zoomed = False

    def zoom_on(self, x: float, y: float, factor: float) -> None:
        """Zoom to `factor` times the natural size, centred on scene point (x, y)."""
        self.zoomed = True
        self.resetTransform()
        self.scale(factor, factor)
        self.centerOn(x, y)

    def fit(self) -> None:
        if not self.zoomed:
            super().fit()

    def wheelEvent(self, event: QWheelEvent) -> None:
        self.zoomed = True
        step = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.scale(step, step)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        self.zoomed = False  # back to the whole level
        self.fit()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            pt = self.mapToScene(event.position().toPoint())
            self.squareClicked.emit(int(pt.x() // S), int(pt.y() // S))
        super().mousePressEvent(event)


def event_line(ev: Event) -> str:
    """One line of the log: turn, side, action, the dice as rolled and what they did."""
    dice = " ".join(f"[{d}]" for d in ev.dice)
    line = f"T{ev.turn} {SIDE_NAMES.get(ev.player, ev.player)}: {ev.action}"
    if dice:
        line += f"  dice {dice}"
    if ev.effects:
        line += f" — {ev.effects}"
    return line


def square_mark(x: int, y: int, cs: list[Choice], pc: object = None) -> SquareMark:
    """The mark of a square the selected model's actions point at (`pc`: the model, whose AP a move's cost
    exceeds when he pays the rest in command points)."""
    attack = [c for c in cs if c.verb in ATTACKS]
    if attack:
        best = max(attack, key=lambda c: c.kill or 0)
        return SquareMark(x, y, "attack", percent(best.kill) if best.kill is not None else best.label())
    moves = [c for c in cs if c.verb in RELOCATING]
    if moves:
        cheapest = min(moves, key=lambda c: c.cost if c.cost is not None else 99)
        if pc is not None and cheapest.cost is not None and "CP" in (text := cost_text(cheapest.cost, pc)):
            return SquareMark(x, y, "reach_cp", text)
        return SquareMark(x, y, "move", cheapest.label())
    if any(c.verb in ("open", "close") for c in cs):
        return SquareMark(x, y, "door", cs[0].label())
    if all(c.verb == "turn" for c in cs):
        return SquareMark(x, y, "other", "turn")
    return SquareMark(x, y, "other", cs[0].verb)


def on_squares(choices: list[Choice]) -> bool:
    """A decision answered on the map: each answer placed on a square of its own (a deployment square, a facing, a
    Genestealer's placement), not several on one (fire or hold, both on the Marine)."""
    placed = [c.square for c in choices if c.square >= 0]
    return bool(placed) and len(set(placed)) == len(placed) == len(choices)


def where_text(board: Any, pc: Any) -> str:
    """Where a model of the models' list is: its square, or off the board (aboard a boarding torpedo, lurking)."""
    if pc.sq >= 0:
        return str(board.name(pc.sq))
    if pc.kind == "marine" and pc.entry in board.ramps:
        return f"aboard torpedo {pc.entry}"
    return f"lurking at {pc.entry}" if pc.entry else "off the board"


def board_document(session: PlaySession, parent: QWidget) -> MissionDocument:
    """The mission drawn under the game: its own copy, without the deployed squad (the game's Marines are the
    tokens)."""
    mission = mission_from_dict(session.mission_doc)
    mission.marines.squad.clear()
    return MissionDocument(mission, None, parent)


def cost_text(cost: int, pc: object) -> str:
    """A route's cost as the piece pays it: its AP, then (a Marine) command points."""
    ap = int(getattr(pc, "ap", cost))
    if getattr(pc, "kind", "") == "marine" and cost > ap:
        return f"{ap}+{cost - ap}CP"
    return f"{cost} AP"
