"""Frames of a replay: tokens per level and the dice and events of each step, from engine.sim.replay."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QThread, Signal

from editor.scene.overlay import Token
from engine.sim import BatchSpec, game_seed
from engine.sim.replay import replay_states
from engine.sim.runner import build_game


@dataclass
class Frame:
    """The board after one step (step -1: the set-up before any action)."""

    step: int
    turn: int
    player: str
    action: str
    dice: list[int]
    effects: str
    tokens: dict[str, list[Token]] = field(default_factory=dict)

    def text(self) -> str:
        """One line of the event list."""
        if self.step < 0:
            return "Set-up"
        dice = " ".join(str(d) for d in self.dice)
        rolled = f"  [dice {dice}]" if dice else ""
        effects = f" — {self.effects}" if self.effects else ""
        return f"{self.step + 1:>4}. T{self.turn} {self.player}: {self.action}{rolled}{effects}"


def tokens_of(state: Any) -> dict[str, list[Token]]:
    """Models on the board by level, as overlay tokens (blips show their value only once known)."""
    out: dict[str, list[Token]] = {}
    for m in state.marines():
        if m.level is not None and m.x is not None and m.y is not None:
            out.setdefault(m.level, []).append(Token("marine", m.id, m.x, m.y, m.facing, m.id[:3]))
    for g in state.genestealers():
        if g.level is not None and g.x is not None and g.y is not None:
            out.setdefault(g.level, []).append(Token("genestealer", g.id, g.x, g.y, g.facing, g.id[:3]))
    for b in state.blips():
        if b.level is not None and b.x is not None and b.y is not None:
            label = "?" if b.value is None else str(b.value)
            out.setdefault(b.level, []).append(Token("blip", b.id, b.x, b.y, None, label))
    return out


def build_frames(spec: BatchSpec, index: int) -> list[Frame]:
    """Play game `index` of the batch again and keep a frame per action (with the set-up first)."""
    start = build_game(spec).new_state(game_seed(spec.seed, index))
    frames = [Frame(-1, int(getattr(start, "turn", 1)), "", "set-up", [], "", tokens_of(start))]
    for step, state in replay_states(spec, index):
        events = step.get("events") or []
        dice = [int(d) for e in events for d in (e.get("dice") or [])]
        effects = "; ".join(str(e.get("effects")) for e in events if e.get("effects"))
        turn = int(events[0].get("turn", 0)) if events else int(getattr(state, "turn", 0))
        frames.append(Frame(int(step["step"]), turn, str(step["player"]), str(step["action"]), dice, effects,
                            tokens_of(state)))
    return frames


class ReplayLoader(QThread):
    """Builds the frames of one game off the GUI thread (long games take a moment)."""

    loaded = Signal(int, list)  # game index, [Frame]
    failed = Signal(int, str)

    def __init__(self, spec: BatchSpec, index: int) -> None:
        super().__init__()
        self.spec, self.index = spec, index

    def run(self) -> None:
        """Build the frames (the thread body)."""
        try:
            frames = build_frames(self.spec, self.index)
        except Exception as exc:  # shown in the panel; a broken replay must not take the editor down
            tb = traceback.extract_tb(exc.__traceback__)[-1:]
            where = f" ({tb[0].filename}:{tb[0].lineno})" if tb else ""
            self.failed.emit(self.index, f"{type(exc).__name__}: {exc}{where}")
            return
        self.loaded.emit(self.index, frames)
