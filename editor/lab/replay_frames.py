"""Frames of a replay: tokens and game marks per level, the dice and events of each step, from engine.sim.replay."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QThread, Signal

from editor.scene.overlay import Mark, Token
from editor.worker_gc import no_collection_in_thread
from engine.sim import BatchSpec, game_seed
from engine.sim.record import GameRecord
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
    marks: dict[str, list[Mark]] = field(default_factory=dict)

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


def feature_marks(state: Any) -> dict[str, list[Mark]]:
    """This game's counters by level: pitfalls (and their bottoms below), ladder ends, rubble, chutes, lift entrances.

    Read from the state's own features, so a Pitfall game shows the counters drawn for its seed.
    """
    b = state.game.board
    feat = state.feat
    out: dict[str, list[Mark]] = {}

    def add(kind: Any, sq: int, label: str = "") -> None:
        li, x, y = b.lxy(sq)
        out.setdefault(b.level_ids[li], []).append(Mark(kind, x, y, label))

    for sq in sorted(feat.pit_down):
        letter = feat.pit_letter.get(sq, "")
        add("pitfall", sq, letter)
        if feat.pit_down[sq] >= 0:  # -1: a bottomless pit, nothing below
            add("pitfall_bottom", feat.pit_down[sq], letter)
    for top in sorted(feat.ladder_top):
        add("ladder_top", top)
        add("ladder_bottom", feat.ladder[top])
    for sq in sorted(feat.rubble):
        add("rubble", sq)
    for sq in sorted(feat.chutes):
        add("chute", sq)
    for lift in state.game.mission.lifts:  # (fixed by the mission: never drawn per game)
        for e in lift.entrances:
            add("lift", b.sq_of(e.level, e.x, e.y), lift.id)
    return out


def step_marks(state: Any) -> dict[str, list[Mark]]:
    """What changes during a game, by level: every door's state and the flamer markers / fire on the board."""
    b = state.game.board
    out: dict[str, list[Mark]] = {}
    for d in state.game.mission.doors:
        out.setdefault(d.level, []).append(Mark("door", d.x, d.y, d.id, state.door_state.get(d.id, d.state)))
    for sq, n in sorted(state.flames.items()):
        li, x, y = b.lxy(sq)
        out.setdefault(b.level_ids[li], []).append(Mark("fire", x, y, str(n) if n > 1 else ""))
    return out


class _MarksOf:
    """Game marks of successive states; the counters are read again only when the state's features change
    (players' set-up places them during the game)."""

    def __init__(self) -> None:
        self._feat: object = None
        self._features: dict[str, list[Mark]] = {}

    def __call__(self, state: Any) -> dict[str, list[Mark]]:
        if state.feat is not self._feat:
            self._feat, self._features = state.feat, feature_marks(state)
        out = {lv: list(ms) for lv, ms in self._features.items()}
        for lv, ms in step_marks(state).items():
            out.setdefault(lv, []).extend(ms)
        return out


def build_frames(spec: BatchSpec, index: int, row: GameRecord | None = None) -> list[Frame]:
    """Play game `index` of the batch again and keep a frame per action (with the set-up first). With its `row`
    holding the game's actions (a played game: a person's decisions), those are played back."""
    seed = row.seed if row is not None and row.actions is not None else game_seed(spec.seed, index)
    start = build_game(spec).new_state(seed)
    marks_of = _MarksOf()
    frames = [Frame(-1, int(getattr(start, "turn", 1)), "", "set-up", [], "", tokens_of(start), marks_of(start))]
    source: BatchSpec | dict[str, Any] = spec
    if row is not None and row.actions is not None:
        source = {"spec": spec.to_json(), "games": [row.to_json()]}
    for step, state in replay_states(source, index):
        events = step.get("events") or []
        dice = [int(d) for e in events for d in (e.get("dice") or [])]
        effects = "; ".join(str(e.get("effects")) for e in events if e.get("effects"))
        turn = int(events[0].get("turn", 0)) if events else int(getattr(state, "turn", 0))
        frames.append(Frame(int(step["step"]), turn, str(step["player"]), str(step["action"]), dice, effects,
                            tokens_of(state), marks_of(state)))
    return frames


class ReplayLoader(QThread):
    """Builds the frames of one game off the GUI thread (long games take a moment)."""

    loaded = Signal(int, list)  # game index, [Frame]
    failed = Signal(int, str)

    def __init__(self, spec: BatchSpec, index: int, row: GameRecord | None = None) -> None:
        super().__init__()
        self.spec, self.index, self.row = spec, index, row

    @no_collection_in_thread
    def run(self) -> None:
        """Build the frames (the thread body)."""
        try:
            frames = build_frames(self.spec, self.index, self.row)
        except Exception as exc:  # shown in the panel; a broken replay must not take the editor down
            tb = traceback.extract_tb(exc.__traceback__)[-1:]
            where = f" ({tb[0].filename}:{tb[0].lineno})" if tb else ""
            self.failed.emit(self.index, f"{type(exc).__name__}: {exc}{where}")
            return
        self.loaded.emit(self.index, frames)
