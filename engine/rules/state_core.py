"""State core: one game's kernel (engine/rules/kernel.py), blip pile and log, its read-only views and notes."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from engine.rules.board import FACE_NAMES
from engine.rules.dice import Dice
from engine.rules.features import draw_features
from engine.rules.kernel import Kernel
from engine.rules.pieces import BlipView, GameResult, ModelView, Piece, new_event

if TYPE_CHECKING:
    from engine.rules.features import Features
    from engine.rules.game import Game
    from engine.rules.pieces import Death, Event

M: Final = "marines"
G: Final = "genestealers"
Player = Literal["marines", "genestealers"]
MARINE_AP, STEALER_AP, BLIP_AP = 4, 6, 6
BLIP_POOL_VALUES = {1: 9, 2: 4, 3: 9}


class StateCore:
    """The data of one game; the rules live in the layers above (see game.GameState)."""

    game: Game
    k: Kernel
    # The kernel's containers (_alias): read them, change them only through the kernel's mutators.
    p: dict[str, Piece]
    occ: dict[int, str]
    closed: dict[int, str]
    door_state: dict[str, str]
    flames: dict[int, int]
    barriers: dict[int, int]
    obj_at: dict[int, str]
    traffic: dict[int, int]
    stack: list[tuple[Any, ...]]
    deaths: list[Death]
    escaped: list[str]
    # Frame and action handlers by name (`_run_X`, `_legal_X`, `_do_X`, `_act_X` -> X), collected once per class
    # so the hot paths index a dict instead of building a method name and calling getattr on every frame.
    _run_fns: ClassVar[dict[str, Callable[..., Any]]] = {}
    _legal_fns: ClassVar[dict[str, Callable[..., Any]]] = {}
    _do_fns: ClassVar[dict[str, Callable[..., Any]]] = {}
    _act_fns: ClassVar[dict[str, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for prefix, table in (("_run_", "_run_fns"), ("_legal_", "_legal_fns"), ("_do_", "_do_fns"),
                              ("_act_", "_act_fns")):
            fns = {name[len(prefix):]: getattr(cls, name) for name in dir(cls) if name.startswith(prefix)}
            setattr(cls, table, {k: f for k, f in fns.items() if callable(f)})

    def __init__(self, game: Game, dice: Dice, rng: random.Random | None = None, *, _blank: bool = False) -> None:
        self.game = game
        self.dice = dice
        # The handler tables again, as instance attributes for the hot paths (apply, _drain, _piece_action):
        # CPython 3.11 specialises loading an instance attribute, not a class attribute read through self
        # (that costs about 230 machine instructions more each time).
        cls = type(self)
        self._run_tab = cls._run_fns
        self._legal_tab = cls._legal_fns
        self._do_tab = cls._do_fns
        self._act_tab = cls._act_fns
        if _blank:
            return
        rng = rng if rng is not None else dice.rng
        mission = game.mission
        players_setup = mission.random_setup is not None and game.opts.random_setup == "players"
        k = self.k = Kernel(game, game._static_features or draw_features(game, None if players_setup else rng))
        # The event log (the `log` property): apply appends (turn, player, action, dice, effects) tuples, made into
        # Events when the log is read; _log_raw counts the tuples not made yet (always the latest entries).
        self._log: list[Any] = []
        self._log_raw = 0
        self.alpha_used = False
        self.setup_order: list[int] = []
        self.setup_placed: dict[int, int] = {}
        gs = mission.genestealers
        pool = gs.pool or BLIP_POOL_VALUES
        self.pile: list[int] = [v for v in sorted(pool) for _ in range(pool[v])]
        rng.shuffle(self.pile)
        self.used: list[int] = []
        self.limited_unit = gs.limited.unit if gs.limited else None
        self.limited_left = gs.limited.total if gs.limited else None
        self.model_cap = gs.model_cap
        self.seq = 0
        # In execution order: the players' Pitfall set-up (if chosen), the starting blips placed by the
        # Genestealer player, then the first Marine turn.
        seq: list[tuple[Any, ...]] = []
        if players_setup and mission.random_setup is not None:
            # [PF] the counters are shuffled face down and placed alternately by the players (Marines first).
            self.setup_order = list(range(len(mission.random_setup.counters)))
            rng.shuffle(self.setup_order)
            seq += [("setup", i, M if i % 2 == 0 else G) for i in range(len(self.setup_order))]
            seq.append(("setup_done",))
        n = gs.starting.blips
        if n:
            seq.append(("lurk", n, tuple(gs.starting.entry_areas), "limited"))
        seq.append(("begin_marines",))
        k.stack.extend(reversed(seq))
        self._alias()

    # -- the kernel's data, read by players, statistics and tests --------------------------------------------
    def _alias(self) -> None:
        """The kernel's containers, read through the state as plain attributes (the kernel never replaces them)."""
        k = self.k
        self.p, self.occ, self.closed, self.door_state = k.p, k.occ, k.closed, k.door_state
        self.flames, self.barriers, self.obj_at, self.traffic = k.flames, k.barriers, k.obj_at, k.traffic
        self.stack, self.deaths, self.escaped = k.stack, k.deaths, k.escaped

    @property
    def feat(self) -> Features:
        return self.k.feat

    @property
    def turn(self) -> int:
        return self.k.turn

    @property
    def phase(self) -> str:
        return self.k.phase

    @property
    def cp(self) -> int:
        return self.k.cp

    @property
    def psi(self) -> int:
        return self.k.psi

    @property
    def active(self) -> str | None:
        return self.k.active

    @property
    def result_(self) -> GameResult | None:
        return self.k.result

    @property
    def version(self) -> int:
        """Moves with every decision applied (and with touch()): answers about a state belong to one version."""
        return self.k.version

    def touch(self) -> None:
        """The state was edited by hand (scenarios, tests): answers kept for the current version are dropped."""
        self.k.version += 1

    @property
    def log(self) -> list[Event]:
        """Every applied action as an Event (turn, player, action text, dice rolled, effects), oldest first."""
        raw = self._log
        left = self._log_raw
        if left:
            # Most games are played without reading their log: an Event is made only when someone does.
            k = len(raw) - 1
            while left and k >= 0:
                e = raw[k]
                if type(e) is tuple:
                    raw[k] = new_event(*e)
                    left -= 1
                k -= 1
            self._log_raw = 0
        return raw

    def _view(self, pc: Piece) -> ModelView:
        b = self.game.board
        lvl = x = y = None
        if pc.sq >= 0:
            li, x, y = b.lxy(pc.sq)
            lvl = b.level_ids[li]
        return ModelView(
            pc.id, pc.kind, lvl, x, y, FACE_NAMES[pc.facing] if pc.facing >= 0 else None,  # type: ignore[arg-type]
            pc.ap, pc.st != 0, pc.ow, pc.guard, pc.jam, pc.prone, pc.carry or None, pc.rank, pc.ranged,
            pc.melee, pc.ammo, pc.alpha, pc.entry if pc.sq < 0 else None,
        )

    def marines(self) -> list[ModelView]:
        return [self._view(pc) for pc in self.k.p.values() if pc.kind == "marine"]

    def genestealers(self) -> list[ModelView]:
        return [self._view(pc) for pc in self.k.p.values() if pc.kind == "stealer"]

    def blips(self, viewer: Player | None = None) -> list[BlipView]:
        """Blips; their value is hidden when viewer is "marines"."""
        b = self.game.board
        out = []
        for pc in self.k.p.values():
            if pc.kind != "blip":
                continue
            lvl = x = y = None
            if pc.sq >= 0:
                li, x, y = b.lxy(pc.sq)
                lvl = b.level_ids[li]
            out.append(BlipView(pc.id, lvl, x, y, None, pc.ap, pc.st != 0,
                                None if viewer == M else pc.value, pc.entry if pc.sq < 0 else None))
        return out

    def piece(self, pid: str) -> Piece | None:
        """The live piece (read it, do not mutate it)."""
        return self.k.p.get(pid)

    @property
    def command_points(self) -> int:
        return self.k.cp

    def casualties(self) -> dict[str, int]:
        out = {M: 0, G: 0}
        for d in self.k.deaths:
            out[M if d.kind == "marine" else G] += 1
        return out

    def traffic_squares(self) -> dict[tuple[str, int, int], int]:
        """How many times Genestealers and blips entered each square: (level, x, y) -> count, in (level, x, y)
        order (what the game's record sorts them by)."""
        keys, rank = self.game.board.square_keys()
        traffic = self.k.traffic
        return {keys[sq]: traffic[sq] for sq in sorted(traffic, key=rank.__getitem__)}

    def features(self) -> dict[str, list[tuple[str, int, int]]]:
        """This game's pitfalls, ladder ends, rubble and chutes as (level, x, y)."""
        return self.k.feat.describe(self.game.board)

    def _finish(self, winner: str, reason: str) -> None:
        k = self.k
        if k.result is None:
            k.result = GameResult(winner, k.turn, reason)  # type: ignore[arg-type]
            k.stack.clear()
            k.note(f"game over: {winner} ({reason})")

    def _new_id(self, prefix: str) -> str:
        self.seq += 1
        return f"{prefix}{self.seq}"
