"""State core: the pieces and tables of one game, its read-only views, notes and AP/CP payment."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from engine.rules.board import FACE_INDEX, FACE_NAMES
from engine.rules.dice import Dice
from engine.rules.features import draw_features
from engine.rules.pieces import BlipView, GameResult, ModelView, Piece, new_event

if TYPE_CHECKING:
    from engine.rules.actions import Action
    from engine.rules.game import Game
    from engine.rules.pieces import Death, Event
    from engine.rules.sight import MarineSight

M: Final = "marines"
G: Final = "genestealers"
Player = Literal["marines", "genestealers"]
MARINE_AP, STEALER_AP, BLIP_AP = 4, 6, 6
BLIP_POOL_VALUES = {1: 9, 2: 4, 3: 9}


class StateCore:
    """The data of one game in progress; the rules live in the layers above (see game.GameState)."""

    game: Game
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
        b = game.board
        mission = game.mission
        self.turn = 1
        self.phase = "setup"
        self.p: dict[str, Piece] = {}
        self.occ: dict[int, str] = {}
        self.closed: dict[int, str] = {}
        self.door_state: dict[str, str] = {}
        for d in mission.doors:
            self.door_state[d.id] = d.state
            if d.state == "closed":
                self.closed[b.doors[d.id]] = d.id
        self.flames: dict[int, int] = {}
        self.barriers: dict[int, int] = {}
        self.cp = 0
        self.cp_start = 0
        self.psi = mission.marines.psi_points
        self.psi_used = False
        self.active: str | None = None
        self.activations = 0
        self.stack: list[tuple[Any, ...]] = []
        self.result_: GameResult | None = None
        self.deaths: list[Death] = []
        self.escaped: list[str] = []
        self.escaped_via: dict[str, str] = {}
        self.traffic: dict[int, int] = {}
        self.flamed_sections: dict[tuple[int, str], int] = {}
        # The event log (the `log` property): apply appends (turn, player, action, dice, effects) tuples, made into
        # Events when the log is read; _log_raw counts the tuples not made yet (always the latest entries).
        self._log: list[Any] = []
        self._log_raw = 0
        self.alpha_used = False
        players_setup = mission.random_setup is not None and game.opts.random_setup == "players"
        self.feat = game._static_features or draw_features(game, None if players_setup else rng)
        self.setup_order: list[int] = []
        self.setup_placed: dict[int, int] = {}
        self.obj_at: dict[int, str] = {}
        for o in mission.objectives:
            if o.kind == "object":
                self.obj_at[b.sq_of(o.level, o.x, o.y)] = o.id
        self.objective_carried_to: dict[str, str] = {}
        for mm in mission.marines.squad:
            pc = Piece(mm.id, "marine")
            pc.sq = b.sq_of(mm.level, mm.x, mm.y)
            pc.facing = FACE_INDEX[mm.facing]
            pc.rank, pc.ranged, pc.melee, pc.shield = mm.rank, mm.ranged, mm.melee, mm.storm_shield
            if pc.ranged == "assault_cannon":
                pc.ammo = game.opts.assault_cannon_shots
            elif pc.ranged == "heavy_flamer":
                pc.ammo = game.opts.flamer_shots
            self.p[pc.id] = pc
            self.occ[pc.sq] = pc.id
        gs = mission.genestealers
        pool = gs.pool or BLIP_POOL_VALUES
        self.pile: list[int] = [v for v in sorted(pool) for _ in range(pool[v])]
        rng.shuffle(self.pile)
        self.used: list[int] = []
        self.limited_unit = gs.limited.unit if gs.limited else None
        self.limited_left = gs.limited.total if gs.limited else None
        self.model_cap = gs.model_cap
        self.seq = 0
        self._fx: list[str] = []
        self._legal_key = -1
        self._legal: list[Action] = []
        self._own_memo: tuple[int, dict[str, list[Action]]] = (-1, {})
        # Single steps and turns asked about (game.py): per version, (actor, direction) -> that direction's moves
        # and turn action -> legal.
        self._quick_memo: tuple[int, dict[tuple[str, str], list[Action]], dict[Action, bool]] = (-1, {}, {})
        # The last action is_legal found legal in an action phase, and at which version (game.py: apply skips
        # asking again).
        self._ok_a: Action | None = None
        self._ok_v = -1
        # Memo scope (sight.py): the memos below are valid while _memo_v == version.
        self._memo_v = -1
        self._seen_memo: dict[int, bool] = {}
        self._sight_memo: MarineSight | None = None
        self._sight_cache: MarineSight | None = None  # shared by copies (sight.py)
        # Change counters (ints, so a copy starts from its original's values and then counts its own changes):
        # _pose_rev moves whenever a Marine's square, facing or prone flag changes or a Marine leaves the board;
        # _sight_rev is the _pose_rev at which _sight_cache was last known to hold the Marines' poses (sight.py).
        self._pose_rev = 0
        self._sight_rev = -1
        # _vic_rev moves whenever something the victory conditions read changes (a piece removed, an object
        # picked up, dropped or given, a carrier moved, a section flamed); _vic_clean is the _vic_rev at the
        # last check that found no winner (victory.py).
        self._vic_rev = 0
        self._vic_clean = -1
        # _blip_rev moves whenever a blip or Genestealer is put on a square, or a blip leaves one (moved, entered,
        # placed, revealed, removed); _blip_squares is (_blip_rev, the squares of the blips on the board, and by
        # Marine pose whether his view holds one of them) as the conversion check last found them (blips.py).
        self._blip_rev = 0
        # False only while no Marine has a sustained-fire target (set again by every sustained shot): a blip's action
        # then has none to clear (acting.py).
        self._sus_set = True
        self._blip_squares: tuple[int, frozenset[int], dict[int, bool]] | None = None
        self.version = 0
        self._settled_v = 0  # the version apply (or the constructor) left: see SightRules._sight
        # In execution order: the players' Pitfall set-up (if chosen), the starting blips placed by the
        # Genestealer player, then the first Marine turn.
        seq: list[tuple[Any, ...]] = []
        if players_setup and mission.random_setup is not None:
            # [PF] the counters are shuffled face down and placed alternately by the players (Marines first).
            self.setup_order = list(range(len(mission.random_setup.counters)))
            rng.shuffle(self.setup_order)
            seq += [("setup", k, M if k % 2 == 0 else G) for k in range(len(self.setup_order))]
            seq.append(("setup_done",))
        n = gs.starting.blips
        if n:
            seq.append(("lurk", n, tuple(gs.starting.entry_areas), "limited"))
        seq.append(("begin_marines",))
        self.stack = seq[::-1]

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
        return [self._view(pc) for pc in self.p.values() if pc.kind == "marine"]

    def genestealers(self) -> list[ModelView]:
        return [self._view(pc) for pc in self.p.values() if pc.kind == "stealer"]

    def blips(self, viewer: Player | None = None) -> list[BlipView]:
        """Blips; their value is hidden when viewer is "marines"."""
        b = self.game.board
        out = []
        for pc in self.p.values():
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
        return self.p.get(pid)

    @property
    def command_points(self) -> int:
        return self.cp

    def casualties(self) -> dict[str, int]:
        out = {M: 0, G: 0}
        for d in self.deaths:
            out[M if d.kind == "marine" else G] += 1
        return out

    def square_name(self, sq: int) -> str:
        return self.game.board.name(sq)

    def traffic_squares(self) -> dict[tuple[str, int, int], int]:
        """How many times Genestealers and blips entered each square: (level, x, y) -> count, in (level, x, y)
        order (what the game's record sorts them by)."""
        keys, rank = self.game.board.square_keys()
        traffic = self.traffic
        return {keys[sq]: traffic[sq] for sq in sorted(traffic, key=rank.__getitem__)}

    def features(self) -> dict[str, list[tuple[str, int, int]]]:
        """This game's pitfalls, ladder ends, rubble and chutes as (level, x, y)."""
        return self.feat.describe(self.game.board)

    def _note(self, text: str) -> None:
        self._fx.append(text)

    def _end_activation(self) -> None:
        if self.active is not None:
            pc = self.p.get(self.active)
            if pc is not None:
                pc.st = 2
                pc.free = False
            self.active = None

    def _finish(self, winner: str, reason: str) -> None:
        if self.result_ is None:
            self.result_ = GameResult(winner, self.turn, reason)  # type: ignore[arg-type]
            self.stack.clear()
            self._note(f"game over: {winner} ({reason})")

    def _new_id(self, prefix: str) -> str:
        self.seq += 1
        return f"{prefix}{self.seq}"

    def _stealer_count(self) -> int:
        return sum(1 for pc in self.p.values() if pc.kind == "stealer")

    def _free_square(self, t: int) -> bool:
        return t >= 0 and t not in self.occ and t not in self.closed and t not in self.barriers

    def _front(self, pc: Piece) -> int:
        return self.game.board.nbr[pc.sq][pc.facing * 2]

    def _budget(self, pc: Piece, reaction: bool) -> int:
        if pc.kind == "marine":
            if reaction:
                return self.cp
            if pc.st == 2:
                return self.cp
            if pc.st == 0 and self.game.cap is not None and self.activations >= self.game.cap:
                return self.cp
            return pc.ap + self.cp
        return pc.ap if pc.st != 2 else 0

    def _pay(self, pc: Piece, cost: int, reaction: bool) -> None:
        if pc.kind == "marine":
            if reaction or pc.st == 2 or (
                pc.st == 0 and self.game.cap is not None and self.activations >= self.game.cap
            ):
                self.cp -= cost
                if cost:
                    self._note(f"{cost} CP")
                return
            if pc.st == 0:
                self._end_activation()
                pc.st = 1
                self.active = pc.id
                self.activations += 1
            from_ap = min(pc.ap, cost)
            pc.ap -= from_ap
            if cost - from_ap:
                self.cp -= cost - from_ap
                self._note(f"{cost - from_ap} CP")
            return
        if pc.st == 0:
            self._end_activation()
            pc.st = 1
            self.active = pc.id
        pc.ap -= cost
        pc.acted = True
