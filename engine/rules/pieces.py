"""Pieces on the board, the read-only views handed to players, log events and results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Side = Literal["marines", "genestealers"]


class IllegalActionError(ValueError):
    """The action is not legal in this state."""


class Piece:
    """One Marine, Genestealer or blip; mutable, copied field by field with the state.

    Everything on a piece is what both players may know: a blip's value (how many Genestealers it hides) is
    kept by the kernel (`Kernel.blip_value`), so a view of the pieces hands the Marines no hidden value."""

    __slots__ = (
        "acted",
        "alpha",
        "ammo",
        "ap",
        "carry",
        "entry",
        "facing",
        "free",
        "guard",
        "id",
        "jam",
        "kind",
        "lock",
        "melee",
        "ow",
        "prone",
        "ranged",
        "rank",
        "reloaded",
        "shield",
        "sq",
        "st",
        "sus",
    )

    def __init__(self, pid: str, kind: str) -> None:
        self.id = pid
        self.kind = kind  # "marine" | "stealer" | "blip"
        self.sq = -1  # -1: off the board (lurking at self.entry)
        self.facing = -1
        self.ap = 0
        self.st = 0  # activation: 0 fresh, 1 active, 2 done
        self.rank = ""
        self.ranged = "none"
        self.melee = ""
        self.shield = False
        self.ow = False
        self.guard = False
        self.jam = False
        self.prone = False
        self.sus = ""  # sustained-fire target id
        self.ammo = 0
        self.reloaded = False
        self.carry = ""
        self.free = False  # a move or turn earns a free shot in the same action
        self.alpha = False
        self.entry = ""
        self.lock = False  # lurking: may not enter this turn
        self.acted = False

    def copy(self) -> Piece:
        # Straight-line copies (several times faster than a setattr loop): copy() is on the hot path of
        # search-based players. Keep in step with __slots__ (test_rules_basics checks it).
        p = Piece(self.id, self.kind)
        p.sq = self.sq
        p.facing = self.facing
        p.ap = self.ap
        p.st = self.st
        p.rank = self.rank
        p.ranged = self.ranged
        p.melee = self.melee
        p.shield = self.shield
        p.ow = self.ow
        p.guard = self.guard
        p.jam = self.jam
        p.prone = self.prone
        p.sus = self.sus
        p.ammo = self.ammo
        p.reloaded = self.reloaded
        p.carry = self.carry
        p.free = self.free
        p.alpha = self.alpha
        p.entry = self.entry
        p.lock = self.lock
        p.acted = self.acted
        return p


@dataclass(frozen=True)
class ModelView:
    """What players, the editor and statistics may read about a model."""

    id: str
    kind: Literal["marine", "stealer"]
    level: str | None
    x: int | None
    y: int | None
    facing: str | None
    ap: int
    activated: bool
    overwatch: bool = False
    guard: bool = False
    jammed: bool = False
    prone: bool = False
    carrying: str | None = None
    rank: str = ""
    ranged: str = "none"
    melee: str = ""
    ammo: int = 0
    alpha: bool = False
    lurking_at: str | None = None


@dataclass(frozen=True)
class BlipView:
    id: str
    level: str | None
    x: int | None
    y: int | None
    facing: None
    ap: int
    activated: bool
    value: int | None  # None when hidden from the viewer
    lurking_at: str | None = None


@dataclass(frozen=True)
class Event:
    """One applied action: who did what, the dice rolled while it resolved, and its effects in words."""

    turn: int
    player: str
    action: str
    dice: tuple[int, ...]
    effects: str



@dataclass(frozen=True)
class Death:
    id: str
    kind: str
    level: str | None
    x: int | None
    y: int | None
    killer: str | None
    turn: int
    cause: str


@dataclass(frozen=True)
class GameResult:
    winner: Literal["marines", "genestealers", "draw"]
    turns: int
    reason: str
