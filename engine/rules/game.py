"""Game (per-mission tables) and GameState (one game in progress): the OpenSpiel-shaped public API.

Every choice inside a rule is a decision exposed through current_player()/legal_actions(): sub-decisions
(overwatch fire, parry, guard re-roll, blip placement, facings, CP reactions, ...) sit on a small stack of
immutable frames, so copy() stays cheap and replays are exact. See engine/rules/README.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal

from engine.mission.model import Mission
from engine.rules import combat as cb
from engine.rules.actions import END, PASS, Action, act, parse_action
from engine.rules.board import DIR_INDEX, DIR_NAMES, DIR_VEC, FACE_INDEX, FACE_NAMES, FACE_VEC, Board
from engine.rules.dice import Dice
from engine.rules.features import Features, draw_features, placed_features, setup_squares
from engine.rules.options import resolve_options
from engine.rules.pieces import BlipView, Death, Event, GameResult, IllegalActionError, ModelView, Piece

M: Final = "marines"
G: Final = "genestealers"
Player = Literal["marines", "genestealers"]
MARINE_AP, STEALER_AP, BLIP_AP = 4, 6, 6
BLIP_POOL_VALUES = {1: 9, 2: 4, 3: 9}

__all__ = ["Game", "GameState", "IllegalActionError", "replay"]


class Game:
    """Immutable per-mission data shared by every state of every game on that mission."""

    def __init__(self, mission: Mission, options: Mapping[str, object] | None = None) -> None:
        self.mission = mission
        self.options: dict[str, object] = resolve_options(mission, options)
        self.board = Board(mission)
        self.ruleset = mission.ruleset
        self.ow_range = int(self.options["overwatch_range"])  # type: ignore[call-overload]
        self.flamer_range = int(self.options["flamer_range"])  # type: ignore[call-overload]
        self.pf_ladders = self.options["ladder_rule"] == "pitfall"
        self.sustained_on = bool(self.options["sustained_fire"])
        self.turn_cap = int(self.options["turn_cap"])  # type: ignore[call-overload]
        self.cap = self.options["marine_activation_cap"]
        self.wide_sight = mission.ruleset == "classic"
        self.fire_module = bool(self.options["fire_module"])
        # [2e] heavy flamer markers on single squares (chains, stacks of 2) instead of whole sections
        self.markers = mission.ruleset == "classic" and not self.fire_module
        self.victory = list(mission.victory)
        self._moves: dict[str, list[Action]] = {}
        self._turns: dict[str, list[Action]] = {}
        self._static_features: Features | None = None if mission.random_setup else draw_features(self, None)

    def move_table(self, pid: str) -> list[Action]:
        """Interned move actions of one piece: index dir * 6 + (0 plain, 1-4 new facing N E S W, 5 jump)."""
        tab = self._moves.get(pid)
        if tab is None:
            tab = []
            for dn in DIR_NAMES:
                tab.append(act("move", pid, dn))
                tab.extend(act("move", pid, dn, f) for f in FACE_NAMES)
                tab.append(act("move", pid, dn, "jump"))
            self._moves[pid] = tab
        return tab

    def turn_table(self, pid: str) -> list[Action]:
        tab = self._turns.get(pid)
        if tab is None:
            tab = self._turns[pid] = [act("turn", pid, f) for f in FACE_NAMES]
        return tab

    def new_state(self, seed: int) -> GameState:
        """A fresh game; all its randomness (set-up, blip pile, dice) comes from random.Random(seed)."""
        return GameState(self, Dice(random.Random(seed)))

    def new_state_with_dice(self, dice: Dice, rng: random.Random | None = None) -> GameState:
        """A fresh game rolling the given dice (ScriptedDice for rulebook scenarios)."""
        return GameState(self, dice, rng)


class GameState:
    """One game in progress. Mutated by apply(); copy() gives an independent game sharing the Game."""

    game: Game

    # ---------------------------------------------------------------- construction
    def __init__(self, game: Game, dice: Dice, rng: random.Random | None = None, *, _blank: bool = False) -> None:
        self.game = game
        self.dice = dice
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
        self.log: list[Event] = []
        self.alpha_used = False
        players_setup = mission.random_setup is not None and game.options["random_setup"] == "players"
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
                pc.ammo = int(game.options["assault_cannon_shots"])  # type: ignore[call-overload]
            elif pc.ranged == "heavy_flamer":
                pc.ammo = int(game.options["flamer_shots"])  # type: ignore[call-overload]
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
        self._legal_ids: set[int] = set()
        self._seen_memo: dict[int, bool] | None = None
        self._eyes_memo: list[tuple[Piece, int, int, int, int, int]] | None = None
        self._near_memo: dict[int, bool] | None = None
        self.version = 0
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
        self._drain()

    def copy(self) -> GameState:
        """An independent copy (dice state included); cheap: pieces are copied, tables shared."""
        s = GameState(self.game, _copy_dice(self.dice), _blank=True)
        d = s.__dict__
        for k, v in self.__dict__.items():
            if k in ("game", "dice"):
                continue
            if k == "p":
                d[k] = {pid: pc.copy() for pid, pc in v.items()}
            elif isinstance(v, (dict, list)):
                d[k] = v.copy()
            else:
                d[k] = v
        return s

    # ---------------------------------------------------------------- public API
    def current_player(self) -> Player | None:
        if self.result_ is not None:
            return None
        if self.stack:
            return _FRAME_PLAYER[self.stack[-1][0]](self.stack[-1])  # type: ignore[no-any-return]
        return M if self.phase == "marines" else G

    def is_terminal(self) -> bool:
        return self.result_ is not None

    def result(self) -> GameResult:
        if self.result_ is None:
            raise ValueError("the game is not over")
        return self.result_

    def legal_actions(self) -> list[Action]:
        if self._legal_key == self.version:
            return list(self._legal)
        self._seen_memo = {}
        try:
            return self._compute_legal()
        finally:
            self._seen_memo = None
            self._eyes_memo = None
            self._near_memo = None

    def _compute_legal(self) -> list[Action]:
        if self.result_ is not None:
            out: list[Action] = []
        elif self.stack:
            out = getattr(self, "_legal_" + self.stack[-1][0])(self.stack[-1])
        elif self.phase == "marines":
            out = self._marine_phase_actions()
        else:
            out = self._stealer_phase_actions()
        self._legal = out
        self._legal_ids = {id(x) for x in out}
        self._legal_key = self.version
        return list(out)

    def apply(self, action: Action | str) -> None:
        """Apply one legal action (or its text); raises IllegalActionError otherwise."""
        a = parse_action(action) if isinstance(action, str) else action
        if self._legal_key != self.version:
            self.legal_actions()
        if id(a) not in self._legal_ids and a not in self._legal:
            raise IllegalActionError(f"illegal action {a.text()!r} for {self.current_player()} (turn {self.turn})")
        player = self.current_player() or ""
        turn = self.turn
        self._fx = []
        self.version += 1
        if self.stack:
            frame = self.stack.pop()
            getattr(self, "_do_" + frame[0])(frame, a)
        elif a.verb == "pass":
            self._end_phase_step()
        elif a.verb == "end":
            self._end_activation()
        else:
            self._piece_action(a, reaction=False)
        self._drain()
        self.log.append(Event(turn, player, a.text(), self.dice.take(), "; ".join(self._fx)))
        self.version += 1

    # read-only views ------------------------------------------------------------------------------
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
        """How many times Genestealers and blips entered each square: (level, x, y) -> count."""
        b = self.game.board
        out = {}
        for sq in sorted(self.traffic):
            li, x, y = b.lxy(sq)
            out[(b.level_ids[li], x, y)] = self.traffic[sq]
        return out

    def features(self) -> dict[str, list[tuple[str, int, int]]]:
        """This game's pitfalls, ladder ends, rubble and chutes as (level, x, y)."""
        return self.feat.describe(self.game.board)

    # ---------------------------------------------------------------- frame machinery
    def _drain(self) -> None:
        """Run automatic frames until a decision is needed or the stack is empty."""
        while self.result_ is None and self.stack:
            top = self.stack[-1]
            if _FRAME_PLAYER[top[0]] is not _AUTO:
                if top[0] in _NEVER_EMPTY or getattr(self, "_legal_" + top[0])(top):
                    return
                self.stack.pop()  # a decision with no options is skipped
                continue
            self.stack.pop()
            getattr(self, "_run_" + top[0])(top)

    def _note(self, text: str) -> None:
        self._fx.append(text)

    # ---------------------------------------------------------------- phases
    def _run_begin_marines(self, frame: tuple[Any, ...]) -> None:
        self.phase = "marines"
        self.active = None
        self.activations = 0
        self.psi_used = False
        for pc in self.p.values():
            if pc.kind == "marine":
                pc.ap, pc.st, pc.free, pc.acted = MARINE_AP, 0, False, False
        self.cp = self.cp_start = self.dice.d6()
        self._note(f"command points {self.cp}")
        if self.game.options["command_points"] == "chits" and any(
            pc.rank == "sergeant" and pc.sq >= 0 for pc in self.p.values() if pc.kind == "marine"
        ):
            self.stack.append(("cmd",))

    def _end_phase_step(self) -> None:
        self._end_activation()
        if self.phase == "marines":
            self._begin_stealers()
        else:
            self._end_phase()

    def _end_activation(self) -> None:
        if self.active is not None:
            pc = self.p.get(self.active)
            if pc is not None:
                pc.st = 2
                pc.free = False
            self.active = None

    def _begin_stealers(self) -> None:
        if self.game.markers and self.flames:
            # [2e] record keeping: one flamer marker is removed from each square at the end of the Marine phase
            self.flames = {t: n - 1 for t, n in self.flames.items() if n > 1}
        self.phase = "stealers"
        self.active = None
        b = self.game.board
        radius = int(self.game.options["lurk_radius"])  # type: ignore[call-overload]
        marine_sqs = [pc.sq for pc in self.p.values() if pc.kind == "marine" and pc.sq >= 0]
        locked = tuple(
            eid for eid, esq in b.entries.items()
            if any(ms // b.plane == esq // b.plane and b.rng(ms, esq) <= radius for ms in marine_sqs)
        )
        self.stack.append(("begin_stealer_actions",))
        for r in reversed(self.game.mission.genestealers.reinforcements):
            if r.from_turn <= self.turn and (r.to_turn is None or self.turn <= r.to_turn):
                self.stack.append(("lurk", r.per_turn, tuple(r.entry_areas), r.pool, locked))

    def _run_begin_stealer_actions(self, frame: tuple[Any, ...]) -> None:
        for pc in self.p.values():
            if pc.kind != "marine":
                pc.ap = STEALER_AP if pc.kind == "stealer" else BLIP_AP
                pc.st, pc.acted = 0, False

    def _end_phase(self) -> None:
        if self.game.markers:
            # [2e] models that did not move out of a flamed square are hit again
            for t in sorted(self.flames):
                tid = self.occ.get(t)
                if tid is not None:
                    self._burn(self.p[tid], None)
        self._check_victory(end_phase=True)
        if self.result_ is not None:
            return
        self.flames.clear()
        self.barriers.clear()
        self.cp = 0
        keep_jams = self.game.ruleset == "classic"  # [2e] jammed bolters stay jammed until cleared
        for pc in self.p.values():
            pc.ow = pc.guard = False
            pc.jam = pc.jam and keep_jams
            pc.sus = ""
            pc.lock = False
        if self.turn >= self.game.turn_cap:
            self._finish("draw", f"turn cap {self.game.turn_cap} reached")
            return
        self.turn += 1
        self.stack.append(("begin_marines",))

    # ---------------------------------------------------------------- victory
    def _finish(self, winner: str, reason: str) -> None:
        if self.result_ is None:
            self.result_ = GameResult(winner, self.turn, reason)  # type: ignore[arg-type]
            self.stack.clear()
            self._note(f"game over: {winner} ({reason})")

    def _check_victory(self, end_phase: bool = False) -> None:
        if self.result_ is not None:
            return
        on_board = [pc for pc in self.p.values() if pc.kind == "marine"]
        for cond in self.game.victory:
            kind = cond["kind"]
            if kind == "escape":
                via = cond.get("via") or ["exit", "chute"]
                n = sum(1 for v in self.escaped_via.values() if v in via)  # type: ignore[operator,misc]
                win_at = int(cond["win_at"])  # type: ignore[call-overload]
                if n >= win_at:
                    self._finish(M, f"{n} Marines escaped")
                    return
                if not on_board:
                    draw_at = cond.get("draw_at")
                    if draw_at is not None and n >= int(draw_at):  # type: ignore[call-overload]
                        self._finish("draw", f"{n} Marine escaped")
                    else:
                        self._finish(G, f"only {n} Marines escaped")
                    return
            elif kind == "marines_eliminated":
                if not on_board and not self.escaped:
                    self._finish(G, "all Marines dead")
                    return
            elif kind == "turn_limit":
                if end_phase and self.turn >= int(cond["turn"]):  # type: ignore[call-overload]
                    self._finish(str(cond.get("result", G)), f"turn limit {cond['turn']}")
                    return
            elif kind == "objective_carried":
                oid = str(cond["objective"])
                dest = self.objective_carried_to.get(oid)
                to = cond.get("to")
                if dest is None and isinstance(to, dict) and "level" in to:
                    b = self.game.board
                    for pc in on_board:
                        if pc.carry == oid and pc.sq >= 0:
                            here = f"sq:{b.name(pc.sq)}"
                            if here == _dest_key(b, to):
                                dest = here
                if dest is not None and (to is None or dest == _dest_key(self.game.board, to)):
                    self._finish(str(cond.get("result", M)), f"objective {oid} carried")
                    return
            elif kind == "section_flamed":
                b = self.game.board
                key = (b.level_index.get(str(cond["level"]), -1), str(cond["section"]))
                if key in self.flamed_sections:
                    self._finish(str(cond.get("result", M)), f"section {cond['section']} flamed")
                    return
            elif kind == "objective_flamed":
                b = self.game.board
                for o in self.game.mission.objectives:
                    if o.id == cond["objective"]:
                        s = b.sq_of(o.level, o.x, o.y)
                        if (s // b.plane, b.section[s]) in self.flamed_sections:
                            self._finish(str(cond.get("result", M)), f"objective {o.id} flamed")
                            return
        if not on_board:
            self._finish(G, "no Marines left on the board")

    # ---------------------------------------------------------------- LOS
    def _blocked(self, c: int) -> bool:
        return c in self.occ or c in self.closed or c in self.flames or c in self.barriers

    def _clear_line(self, a: int, t: int, ignore_fire: bool = False) -> bool:
        line = self.game.board.line(a, t)
        if line is None:
            return False
        occ, closed, bar = self.occ, self.closed, self.barriers
        flames: dict[int, int] = {} if ignore_fire else self.flames
        for c in line:
            if type(c) is int:
                if c in occ or c in closed or c in flames or c in bar:
                    return False
            else:
                p, q = c  # type: ignore[misc]
                if (p in occ or p in closed or p in flames or p in bar) and (
                    q in occ or q in closed or q in flames or q in bar
                ):
                    return False
        return True

    def _sees(self, m: Piece, t: int) -> bool:
        """Marine m has LOS to square t (front arc; through holes per the Pitfall rules)."""
        ms = m.sq
        if m.prone or ms < 0:
            return False
        b = self.game.board
        if ms // b.plane == t // b.plane:
            return t in b.static_view(ms, m.facing) and self._clear_line(
                ms, t, self.game.fire_module and m.ranged == "assault_cannon"
            )
        if not self.game.pf_ladders and self.feat.ladder.get(ms) == t:
            return True  # [4e] the two ends of a ladder are adjacent, whatever the facing
        if ms not in self.feat._views:
            return False
        return self.feat.hole_sees(self, m, t)

    def _seen_by_marine(self, t: int) -> bool:
        """Some Marine sees square t (for blips: [2e] Marines see to the front and sides, fire only to the front)."""
        memo = self._seen_memo
        if memo is not None:
            r = memo.get(t)
            if r is not None:
                return r
        r = self._seen_by_marine_now(t)
        if memo is not None:
            memo[t] = r
        return r

    def _eyes(self) -> list[tuple[Piece, int, int, int, int, int]]:
        """(marine, square, level, x, y, facing) of every Marine that can see (not prone, on the board)."""
        eyes = self._eyes_memo
        if eyes is None:
            b = self.game.board
            eyes = [(pc, pc.sq, pc.sq // b.plane, b.xs[pc.sq], b.ys[pc.sq], pc.facing) for pc in self.p.values()
                    if pc.kind == "marine" and pc.sq >= 0 and not pc.prone]
            if self._seen_memo is not None:
                self._eyes_memo = eyes
        return eyes

    def _seen_by_marine_now(self, t: int) -> bool:
        b = self.game.board
        wide = self.game.wide_sight
        tl = t // b.plane
        views = self.feat._views
        for m, ms, lvl, _x, _y, f in self._eyes():
            if lvl == tl:
                if t in b.static_view(ms, f):
                    if self._clear_line(ms, t):
                        return True
                elif wide and ms != t and not b.in_arc(ms, (f + 2) % 4, t) and self._clear_line(ms, t):
                    return True
            elif ms in views or (not self.game.pf_ladders and ms in self.feat.ladder):
                if self._sees(m, t):
                    return True
        return False

    def _adjacent_to_marine(self, t: int) -> bool:
        near = self._near_memo
        if near is None:
            b = self.game.board
            near = {}
            for pc in self.p.values():
                if pc.kind == "marine" and pc.sq >= 0:
                    for n in b.nbr[pc.sq]:
                        near[n] = True
            if self._seen_memo is not None:
                self._near_memo = near
        return t in near

    # ---------------------------------------------------------------- movement helpers
    def _free_square(self, t: int) -> bool:
        return t >= 0 and t not in self.occ and t not in self.closed and t not in self.barriers

    def _diag_ok(self, s: int, d: int) -> bool:
        if d % 2 == 0:
            return True
        nb = self.game.board.nbr[s]
        o1, o2 = nb[d - 1], nb[(d + 1) % 8]
        b1 = o1 < 0 or o1 in self.occ or o1 in self.closed
        b2 = o2 < 0 or o2 in self.occ or o2 in self.closed
        return not (b1 and b2)

    def _step_cost(self, pc: Piece, d: int, t: int) -> int | None:
        if pc.kind == "blip":
            cost = 1
        else:
            dx, dy = DIR_VEC[d]
            fx, fy = FACE_VEC[pc.facing]
            dot = dx * fx + dy * fy
            if dot > 0:
                cost = 1
            elif dot < 0:
                cost = 2
            elif pc.kind == "marine":
                return None
            else:
                cost = 1
        if t in self.feat.rubble:
            cost += 1
        return cost

    def _can_enter(self, pc: Piece, t: int) -> bool:
        if t < 0 or t in self.occ or t in self.closed or t in self.barriers:
            return False
        if t in self.flames and (pc.sq not in self.flames or self.game.fire_module or self.game.markers):
            return False
        if pc.kind == "blip":
            if t in self.obj_at or self._adjacent_to_marine(t) or self._seen_by_marine(t):
                return False
        return True

    # ---------------------------------------------------------------- budgets and payment
    def _budget(self, pc: Piece, reaction: bool) -> int:
        if pc.kind == "marine":
            if reaction:
                return self.cp
            if pc.st == 2:
                return self.cp
            if pc.st == 0 and self.game.cap is not None and self.activations >= self.game.cap:  # type: ignore[operator]
                return self.cp
            return pc.ap + self.cp
        return pc.ap if pc.st != 2 else 0

    def _pay(self, pc: Piece, cost: int, reaction: bool) -> None:
        if pc.kind == "marine":
            if reaction or pc.st == 2 or (
                pc.st == 0 and self.game.cap is not None and self.activations >= self.game.cap  # type: ignore[operator]
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

    # ---------------------------------------------------------------- action generation
    def _marine_phase_actions(self) -> list[Action]:
        out: list[Action] = [PASS]
        if self.active is not None:
            out.append(END)
        for pc in self.p.values():
            if pc.kind == "marine" and pc.sq >= 0:
                self._marine_actions(pc, self._budget(pc, False), out, in_turn=True)
        return out

    def _stealer_phase_actions(self) -> list[Action]:
        out: list[Action] = [PASS]
        if self.active is not None:
            out.append(END)
        for pc in self.p.values():
            if pc.kind == "marine" or pc.st == 2:
                continue
            if pc.kind == "stealer":
                self._stealer_actions(pc, out)
            else:
                self._blip_actions(pc, out)
        return out

    def _door_targets(self, pc: Piece) -> list[tuple[str, int]]:
        """Doors the piece may open or close: adjacent, and among its three front squares (blips: adjacent)."""
        b = self.game.board
        res = []
        nb = b.nbr[pc.sq]
        if pc.kind == "blip":
            dirs: Iterable[int] = range(8)
        else:
            f = pc.facing * 2
            dirs = ((f - 1) % 8, f, (f + 1) % 8)
        for d in dirs:
            t = nb[d]
            if t >= 0:
                did = b.door_at.get(t)
                if did is not None:
                    res.append((did, t))
        return res

    def _door_actions(self, pc: Piece, budget: int, out: list[Action]) -> None:
        if budget < 1:
            return
        for did, t in self._door_targets(pc):
            state = self.door_state[did]
            if state == "closed":
                if t not in self.flames and self.game.board.door_kind[did] == "door":
                    out.append(act("open", pc.id, did))
            elif state == "open" and t not in self.occ and t not in self.obj_at and t not in self.flames:
                out.append(act("close", pc.id, did))

    def _front(self, pc: Piece) -> int:
        return self.game.board.nbr[pc.sq][pc.facing * 2]

    def _marine_actions(self, pc: Piece, budget: int, out: list[Action], in_turn: bool) -> None:
        if budget <= 0 and not (pc.free and pc.ranged in ("storm_bolter", "assault_cannon")):
            if pc.carry and in_turn:
                out.append(act("drop", pc.id))
            return
        pid = pc.id
        b = self.game.board
        s = pc.sq
        if pc.prone:
            if budget >= 2:
                for fname in FACE_NAMES:
                    out.append(act("stand", pid, fname))
            return
        nb = b.nbr[s]
        feat = self.feat
        tab = self.game.move_table(pid)
        occ, closed, flames, rubble = self.occ, self.closed, self.flames, feat.rubble
        in_flames = s in flames and not self.game.fire_module and not self.game.markers
        f0 = pc.facing
        fwd = f0 * 2
        for d in range(8):
            t = nb[d]
            if t < 0 or t in occ or t in closed or t in self.barriers or (t in flames and not in_flames):
                continue
            rel = (d - fwd) % 8
            if rel == 2 or rel == 6:
                continue  # Marines never step sideways
            cost = (1 if rel in (0, 1, 7) else 2) + (1 if t in rubble else 0)
            if cost > budget or (d % 2 and not self._diag_ok(s, d)):
                continue
            out.append(tab[d * 6])
            if t in feat.pit_down:
                out.append(tab[d * 6 + 5])
        if self.game.fire_module and s in flames:
            return  # [AE-F] a unit in fire may only step out of it
        turns = self.game.turn_table(pid)
        for f in range(4):
            if f != f0 and (1 if (f - f0) % 4 != 2 else 2) <= budget:
                out.append(turns[f])
        shoot_cost = 0 if pc.free else 1
        if pc.ranged in ("storm_bolter", "assault_cannon") and not pc.jam and shoot_cost <= budget and (
            pc.ranged == "storm_bolter" or pc.ammo > 0
        ):
            for tid in self._shoot_targets(pc, None):
                out.append(act("shoot", pid, tid))
        if budget >= 2 and pc.ranged == "heavy_flamer" and pc.ammo > 0:
            for t in self._flame_targets(pc):
                out.append(act("flame", pid, b.name(t)))
        if pc.ranged == "heavy_flamer" and self.game.ruleset == "classic" and budget >= 4 and pc.ammo < int(
            self.game.options["flamer_shots"]  # type: ignore[call-overload]
        ):
            out.append(act("reload", pid))  # [2e] the heavy flamer reloads for 4 AP
        if pc.ranged in ("storm_bolter", "assault_cannon"):
            if budget >= 2 and not pc.ow:
                out.append(act("overwatch", pid))
            if pc.jam and budget >= 1:
                out.append(act("unjam", pid))
            if pc.ranged == "assault_cannon" and budget >= 4 and not pc.reloaded and pc.ammo < int(
                self.game.options["assault_cannon_shots"]  # type: ignore[call-overload]
            ):
                out.append(act("reload", pid))
        if budget >= 2 and not pc.guard:
            out.append(act("guard", pid))
        if budget >= 1:
            t = nb[pc.facing * 2]
            if not self.game.pf_ladders and s in feat.ladder:
                below_id = self.occ.get(feat.ladder[s])
                if below_id is not None and self.p[below_id].kind == "stealer":
                    out.append(act("assault", pid, below_id))
            if t >= 0:
                front_id = self.occ.get(t)
                if front_id is not None and self.p[front_id].kind == "stealer":
                    out.append(act("assault", pid, front_id))
                did = self.closed.get(t)
                if did is not None and b.door_kind[did] == "door":
                    out.append(act("assault", pid, did))
        self._door_actions(pc, budget, out)
        if budget >= 1 and s in b.exit_at:
            out.append(act("exit", pid))
        if s in feat.ladder:
            other = feat.ladder[s]
            cost = 2
            if cost <= budget and self._free_square(other) and (other not in self.flames):
                out.append(act("climb", pid))
        if budget >= 1 and (s in feat.pit_down or (s in feat.ladder_top and self.game.pf_ladders)):
            out.append(act("jump", pid))
        if pc.carry and in_turn:
            out.append(act("drop", pid))
            t = nb[pc.facing * 2]
            if budget >= 1 and t >= 0:
                oid = self.occ.get(t)
                if oid is not None and self.p[oid].kind == "marine" and not self.p[oid].carry:
                    out.append(act("give", pid, oid))
        if pc.rank == "archivist" and in_turn and not self.psi_used:
            self._psi_actions(pc, out)

    def _psi_actions(self, pc: Piece, out: list[Action]) -> None:
        """[4e] one power per Marine turn, no AP, no LOS needed."""
        b = self.game.board
        s = pc.sq
        lvl = s // b.plane
        if self.psi >= 1 and self.cp < self.cp_start:
            out.append(act("psi", "prescience"))
        if self.psi >= 2:
            for t in range(lvl * b.plane, (lvl + 1) * b.plane):
                if b.floor[t] and t != s and b.rng(s, t) <= 12 and self._free_square(t) and t not in self.flames:
                    out.append(act("psi", "barrier", b.name(t)))
        if self.psi >= 3:
            sections: dict[str, int] = {}
            for q in self.p.values():
                if q.kind != "marine" and q.sq >= 0 and q.sq // b.plane == lvl and b.rng(s, q.sq) <= 6:
                    out.append(act("psi", "storm", q.id))
            for (li, code), squares in b.sections.items():
                if li == lvl and any(b.rng(s, t) <= 6 for t in squares):
                    if any(self.occ.get(t) and self.p[self.occ[t]].kind != "marine" for t in squares):
                        sections[code] = squares[0]
            for code in sorted(sections):
                out.append(act("psi", "storm", b.name(sections[code])))

    def _shoot_targets(self, pc: Piece, only: str | None) -> list[str]:
        res = []
        b = self.game.board
        for q in self.p.values():
            if q.kind == "stealer" and q.sq >= 0 and (only is None or q.id == only) and self._sees(pc, q.sq):
                res.append(q.id)
        if only is None:
            for t, did in self.closed.items():
                if b.door_kind[did] == "door" and self._sees(pc, t):
                    res.append(did)
        return res

    def _flame_targets(self, pc: Piece) -> list[int]:
        """One target square per visible section within flamer range (the first visible square found)."""
        b = self.game.board
        rng = self.game.flamer_range
        if self.game.markers:
            # [2e] per-square markers: any visible square in range without a closed door, at most 2 markers.
            return [t for t in self.feat.arc_squares(b, pc.sq, pc.facing, rng)
                    if t not in self.closed and self.flames.get(t, 0) < 2 and self._sees(pc, t)]
        seen: dict[tuple[int, str | None], int] = {}
        for t in self.feat.arc_squares(b, pc.sq, pc.facing, rng):
            key = (t // b.plane, b.section[t])
            if key in seen or t in self.closed:
                continue
            if self._sees(pc, t):
                seen[key] = t
        # [PF] the flamer also fires up or down through a ladder or pitfall square (that section only)
        for _here, there, opp, _upper in self.feat._views.get(pc.sq, ()):
            for t in (there, opp):
                key = (t // b.plane, b.section[t]) if t >= 0 else (-1, None)
                if t >= 0 and key not in seen and t not in self.closed and self._sees(pc, t):
                    seen[key] = t
        return list(seen.values())

    def _stealer_actions(self, pc: Piece, out: list[Action]) -> None:
        pid = pc.id
        budget = pc.ap
        if budget <= 0:
            return
        b = self.game.board
        feat = self.feat
        if pc.sq < 0:
            t = b.entries[pc.entry]
            if not pc.lock and self._can_enter(pc, t):
                out.append(act("enter", pid))
            return
        s = pc.sq
        nb = b.nbr[s]
        f0 = pc.facing
        tab = self.game.move_table(pid)
        occ, closed, flames, rubble = self.occ, self.closed, self.flames, feat.rubble
        fx, fy = FACE_VEC[f0]
        in_flames = s in flames and not self.game.fire_module and not self.game.markers
        left, right = (f0 + 3) % 4 + 1, (f0 + 1) % 4 + 1
        for d in range(8):
            t = nb[d]
            if t < 0 or t in occ or t in closed or t in self.barriers or (t in flames and not in_flames):
                continue
            dx, dy = DIR_VEC[d]
            cost = (2 if dx * fx + dy * fy < 0 else 1) + (1 if t in rubble else 0)
            if cost > budget or (d % 2 and not self._diag_ok(s, d)):
                continue
            k = d * 6
            out.append(tab[k])
            out.append(tab[k + right])
            out.append(tab[k + left])
            if feat.pit_down.get(t, -1) >= 0 and self._can_enter(pc, feat.pit_down[t]):
                out.append(tab[k + 5])
        if self.game.fire_module and s in flames:
            return  # [AE-F] a unit in fire may only step out of it
        turns = self.game.turn_table(pid)
        for f in range(4):
            if f != f0:
                out.append(turns[f])
        t = nb[f0 * 2]
        if t >= 0:
            tid = self.occ.get(t)
            if tid is not None and self.p[tid].kind == "marine":
                out.append(act("assault", pid, tid))
            did = self.closed.get(t)
            if did is not None and b.door_kind[did] == "door":
                out.append(act("assault", pid, did))
        for other in feat.through(s):
            tid = self.occ.get(other)
            if tid is not None and self.p[tid].kind == "marine":
                out.append(act("assault", pid, tid))
        self._door_actions(pc, budget, out)
        self._hole_moves(pc, budget, out)

    def _hole_moves(self, pc: Piece, budget: int, out: list[Action]) -> None:
        feat = self.feat
        s = pc.sq
        if s in feat.ladder:
            other = feat.ladder[s]
            cost = 2 if self.game.pf_ladders else 1
            if cost <= budget and self._can_enter(pc, other):
                out.append(act("climb", pc.id))
        elif s in feat.pit_up and budget >= 3 and self._can_enter(pc, feat.pit_up[s]):
            out.append(act("climb", pc.id))
        if budget >= 1:
            below = feat.pit_down.get(s)
            if below is None and self.game.pf_ladders and s in feat.ladder_top:
                below = feat.ladder[s]
            if below is not None and below >= 0 and self._can_enter(pc, below):
                out.append(act("jump", pc.id))

    def _blip_actions(self, pc: Piece, out: list[Action]) -> None:
        pid = pc.id
        budget = pc.ap
        if not pc.acted:
            out.append(act("reveal", pid))
        if budget <= 0:
            return
        b = self.game.board
        if pc.sq < 0:
            t = b.entries[pc.entry]
            if not pc.lock and self._can_enter(pc, t):
                out.append(act("enter", pid))
            return
        s = pc.sq
        nb = b.nbr[s]
        tab = self.game.move_table(pid)
        rubble = self.feat.rubble
        for d in range(8):
            t = nb[d]
            if t < 0 or (budget < 2 and t in rubble):
                continue
            if (d % 2 and not self._diag_ok(s, d)) or not self._can_enter(pc, t):
                continue
            out.append(tab[d * 6])
            below = self.feat.pit_down.get(t, -1)
            if below >= 0 and self._can_enter(pc, below):
                out.append(tab[d * 6 + 5])  # jump straight through, declared on entering (no extra AP)
        self._door_actions(pc, budget, out)
        self._hole_moves(pc, budget, out)

    # ---------------------------------------------------------------- applying piece actions
    def _piece_action(self, a: Action, reaction: bool) -> None:
        pid = a.args[0] if a.args else ""
        verb = a.verb
        if verb == "psi":
            self._do_psi(a)
            self._after_action(None)
            return
        pc = self.p[pid]
        marine = pc.kind == "marine"
        if verb != "shoot" and marine:
            pc.sus = ""
        if marine and pc.ow and verb not in ("unjam", "overwatch"):
            pc.ow = False
        if marine and pc.guard and verb not in ("guard",):
            pc.guard = False
        base = len(self.stack)
        handler = getattr(self, "_act_" + verb)
        handler(pc, a, reaction)
        if pc.kind == "marine" and (reaction or verb not in ("move", "turn")):
            pc.free = False
        elif pc.kind == "stealer" and verb != "turn":
            pc.free = False
        self._after_action(pc if pc.kind != "marine" and pc.id in self.p else None, base)

    def _after_action(self, stealer: Piece | None, base: int | None = None) -> None:
        """Queue what follows an action, under the frames the action itself pushed (they resolve first):
        involuntary conversions, then the CP reaction, then overwatch."""
        hooks: list[tuple[Any, ...]] = []
        if self.phase == "stealers" and stealer is not None and stealer.kind == "stealer" and stealer.sq >= 0:
            hooks += [("susq", stealer.id), ("owq", stealer.id), ("reactq", stealer.id)]
        elif self.phase == "stealers" and stealer is not None:
            for m in self.p.values():
                if m.kind == "marine":
                    m.sus = ""
        hooks.append(("conv",))
        if base is None:
            self.stack.extend(hooks)
        else:
            self.stack[base:base] = hooks
        self._check_victory()

    def _run_susq(self, frame: tuple[Any, ...]) -> None:
        """Sustained fire is lost when another Genestealer acts or the shooter loses LOS to the target."""
        g = self.p.get(frame[1])
        for m in self.p.values():
            if m.kind == "marine" and m.sus and m.sus not in self.game.board.doors:
                if m.sus != frame[1] or g is None or not self._sees(m, g.sq):
                    m.sus = ""

    def _act_move(self, pc: Piece, a: Action, reaction: bool) -> None:
        d = DIR_INDEX[a.args[1]]
        t = self.game.board.nbr[pc.sq][d]
        cost = self._step_cost(pc, d, t) or 0
        self._pay(pc, cost, reaction)
        self._relocate(pc, t)
        extra = a.args[2] if len(a.args) > 2 else None
        if pc.kind == "marine":
            pc.free = True
        elif pc.kind == "stealer" and extra is not None and extra != "jump":
            pc.facing = FACE_INDEX[extra]
        self._entered(pc, t, jump=extra == "jump")

    def _relocate(self, pc: Piece, t: int) -> None:
        if pc.sq >= 0:
            del self.occ[pc.sq]
        pc.sq = t
        self.occ[t] = pc.id
        if pc.kind != "marine":
            self.traffic[t] = self.traffic.get(t, 0) + 1

    def _entered(self, pc: Piece, t: int, jump: bool = False) -> None:
        """Consequences of entering a square: objects, chute, flames, pitfalls."""
        feat = self.feat
        if t in self.obj_at and pc.kind != "blip" and not pc.carry:
            pc.carry = self.obj_at.pop(t)
            self._note(f"{pc.id} picks up {pc.carry}")
        if t in feat.chutes:
            self._remove(pc, escaped="chute")
            return
        if t in self.flames:
            self._burn(pc, None)
            if pc.id not in self.p:
                return
        if t in feat.pit_down:
            if jump:
                self._drop(pc, t)
            elif pc.kind == "marine":
                if self.dice.d6() == 1:
                    self._note(f"{pc.id} falls")
                    self._drop(pc, t)
        elif t in feat.ladder_top and pc.kind == "marine" and not self.game.pf_ladders:
            if self.dice.d6() == 1:
                self._note(f"{pc.id} falls from the ladder")
                pc.ap = 0
                self._drop(pc, t, ladder_fall=True)
        elif jump and t in feat.ladder_top:
            self._drop(pc, t)

    def _drop(self, pc: Piece, t: int, ladder_fall: bool = False) -> None:
        """pc goes down the hole at t (fall or jump)."""
        below = self.feat.pit_down.get(t)
        if below is None:
            below = self.feat.ladder.get(t, -1)
        if pc.kind != "marine":
            if below < 0 or not self._free_square(below):
                return
            self._relocate(pc, below)
            if pc.kind == "stealer":
                self.stack.append(("face", pc.id, G))
            return
        if below < 0:
            self._kill(pc, None, "bottomless fall")
            return
        del self.occ[pc.sq]
        pc.sq = -2  # in the air
        if ladder_fall:
            # [4e] falling from a ladder top: any model below dies; the Marine keeps his facing.
            occupant = self.occ.get(below)
            if occupant is not None:
                self._kill(self.p[occupant], pc.id, "crushed")
            self._place(pc, below)
            return
        self._land(pc, below)

    def _land(self, pc: Piece, below: int) -> None:
        occupant = self.occ.get(below)
        advanced = self.game.options["falling_table"] == "advanced"
        if advanced:
            if occupant is not None:
                self._kill(self.p[occupant], pc.id, "landed on")
            r = self.dice.d6()
            if r == 1:
                self._place(pc, below)
                self._kill(pc, None, "fall")
                return
            self._place(pc, below)
            if r <= 5:
                pc.prone = True
                self._note(f"{pc.id} lands prone")
            else:
                self.stack.append(("face", pc.id, G))
            return
        if occupant is None:
            self._land_empty(pc, below)
            return
        q = self.p[occupant]
        if q.kind != "marine":
            r = self.dice.d6()
            opts = self._empty_adjacent(below)
            if r >= 3 and opts and q.kind == "stealer":
                self.stack.append(("landempty", pc.id, below))
                self.stack.append(("scuttle", q.id, tuple(opts)))
                return
            self._kill(q, pc.id, "landed on")
            self._place(pc, below)
            pc.prone = True
            return
        r = self.dice.d6()
        if r <= 3:
            self._kill(q, None, "landed on")
            self._place(pc, below)
            pc.prone = True
            return
        q.prone = True
        q.ow = False
        opts = self._empty_adjacent(below)
        if not opts:
            self._kill(pc, None, "fall")
            return
        pc.prone = True
        self.stack.append(("shove", pc.id, tuple(opts)))

    def _land_empty(self, pc: Piece, below: int) -> None:
        self._place(pc, below)
        r = self.dice.d6()
        if r <= 4:
            pc.prone = True
            pc.ow = False
            self._note(f"{pc.id} lands prone")
        else:
            self.stack.append(("face", pc.id, M))

    def _run_landempty(self, frame: tuple[Any, ...]) -> None:
        pc = self.p.get(frame[1])
        if pc is not None:
            self._land_empty(pc, frame[2])

    def _place(self, pc: Piece, t: int) -> None:
        pc.sq = t
        self.occ[t] = pc.id
        if t in self.obj_at and pc.kind != "blip" and not pc.carry:
            pc.carry = self.obj_at.pop(t)

    def _empty_adjacent(self, s: int) -> list[int]:
        res = [t for t in self.game.board.nbr[s] if t >= 0 and self._free_square(t) and t not in self.flames]
        res.extend(t for t in self.feat.through(s) if self._free_square(t) and t not in self.flames)
        return res

    def _act_turn(self, pc: Piece, a: Action, reaction: bool) -> None:
        f = FACE_INDEX[a.args[1]]
        if pc.kind == "stealer":
            cost = self._stealer_turn_cost(pc, f)
            pc.free = cost == 0
        else:
            cost = 2 if (f - pc.facing) % 4 == 2 else 1
            pc.free = True
        self._pay(pc, cost, reaction)
        pc.facing = f

    def _stealer_turn_cost(self, pc: Piece, f: int) -> int:
        """[4e] 1 AP; [2e] 90° is free (once between two paid actions, so no endless spinning), 180° 1 AP."""
        if self.game.ruleset == "classic" and (f - pc.facing) % 4 != 2 and not pc.free:
            return 0
        return 1

    def _act_stand(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 2, reaction)
        pc.prone = False
        pc.facing = FACE_INDEX[a.args[1]]

    def _act_open(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        did = a.args[1]
        self.door_state[did] = "open"
        del self.closed[self.game.board.doors[did]]

    def _act_close(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        did = a.args[1]
        self.door_state[did] = "closed"
        t = self.game.board.doors[did]
        self.closed[t] = did
        if self.phase == "stealers" and pc.kind != "marine":
            self.stack.append(("owdoorq", did))

    def _act_exit(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        self._remove(pc, escaped="exit")

    def _act_enter(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        t = self.game.board.entries[pc.entry]
        if pc.kind == "stealer":
            pc.facing = self.game.board.entry_facing[pc.entry]
        pc.entry = ""
        self._relocate(pc, t)
        self._entered(pc, t)

    def _act_climb(self, pc: Piece, a: Action, reaction: bool) -> None:
        feat = self.feat
        s = pc.sq
        if s in feat.ladder:
            t = feat.ladder[s]
            cost = 2 if (self.game.pf_ladders or pc.kind == "marine") else 1
        else:
            t = feat.pit_up[s]
            cost = 3
        self._pay(pc, cost, reaction)
        self._relocate(pc, t)
        if pc.kind == "stealer":
            self.stack.append(("face", pc.id, G))
        elif pc.kind == "marine" and self.game.pf_ladders:
            self.stack.append(("face", pc.id, M))
        if pc.kind == "marine" and t in feat.ladder_top and not self.game.pf_ladders and self.dice.d6() == 1:
            self._note(f"{pc.id} falls from the ladder")
            pc.ap = 0
            self._drop(pc, t, ladder_fall=True)
        elif t in self.obj_at and pc.kind != "blip" and not pc.carry:
            pc.carry = self.obj_at.pop(t)

    def _act_jump(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        self._drop(pc, pc.sq)

    def _act_overwatch(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 2, reaction)
        pc.ow = True
        pc.guard = False

    def _act_guard(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 2, reaction)
        pc.guard = True
        pc.ow = False

    def _act_unjam(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        pc.jam = False

    def _act_reload(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 4, reaction)
        key = "flamer_shots" if pc.ranged == "heavy_flamer" else "assault_cannon_shots"
        pc.ammo = int(self.game.options[key])  # type: ignore[call-overload]
        pc.reloaded = pc.ranged == "assault_cannon"

    def _act_drop(self, pc: Piece, a: Action, reaction: bool) -> None:
        if pc.sq not in self.obj_at:
            self.obj_at[pc.sq] = pc.carry
            self._note(f"{pc.id} drops {pc.carry}")
            pc.carry = ""

    def _act_give(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        other = self.p[a.args[1]]
        other.carry, pc.carry = pc.carry, ""

    def _act_reveal(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._end_activation()
        self._convert(pc, voluntary=True)

    # shooting ---------------------------------------------------------------------------------
    def _act_shoot(self, pc: Piece, a: Action, reaction: bool) -> None:
        cost = 0 if pc.free else 1
        self._pay(pc, cost, reaction)
        pc.free = False
        self._shoot(pc, a.args[1], overwatch=False)

    def _shoot(self, pc: Piece, tid: str, overwatch: bool) -> None:
        g = self.game
        sustained = g.sustained_on and pc.sus == tid
        b = g.board
        if pc.ranged == "assault_cannon":
            pc.ammo -= 1
        door_sq = b.doors.get(tid)
        target = self.p.get(tid)
        tsq = door_sq if door_sq is not None else (target.sq if target else -1)
        rubble = self.feat.rubble_between(b, pc.sq, tsq) if self.feat.rubble else 0
        res = cb.ranged_attack(
            self.dice, pc.ranged, ruleset=g.ruleset, sustained=sustained, overwatch=overwatch,
            alpha=bool(target and target.alpha), rubble_piles=rubble,
            ac_reloaded=pc.reloaded,
        )
        self._note(f"{pc.id} shoots {tid}{' (sustained)' if sustained else ''}: {'kill' if res.kill else 'miss'}")
        if res.kill:
            if door_sq is not None:
                self._destroy_door(tid)
            elif target is not None:
                killed_sq = target.sq
                self._kill(target, pc.id, "shot")
                if g.options["overkill"] and pc.ranged == "storm_bolter":
                    need = 5 if sustained else 6
                    if sum(1 for d in res.dice if d >= need) >= 2:
                        self._overkill(pc, killed_sq)
            pc.sus = ""
        elif g.sustained_on:
            pc.sus = tid
        if res.jam:
            pc.jam = True
            self._note(f"{pc.id} jams")
        if res.explode:
            self._explode(pc)

    def _overkill(self, pc: Piece, sq: int) -> None:
        for n in self.game.board.nbr[sq]:
            tid = self.occ.get(n)
            if tid is not None and self.p[tid].kind == "stealer" and self._sees(pc, n):
                self._kill(self.p[tid], pc.id, "overkill")
                return

    def _explode(self, pc: Piece) -> None:
        b = self.game.board
        sq = pc.sq
        self._note(f"{pc.id}'s assault cannon explodes")
        self._kill(pc, None, "explosion")
        for t in b.section_squares(sq):
            tid = self.occ.get(t)
            if tid is not None and self.dice.d6() >= 4:
                self._kill(self.p[tid], pc.id, "explosion")
            did = b.door_at.get(t)
            if did is not None and self.door_state[did] != "destroyed" and b.door_kind[did] == "door":
                if self.dice.d6() >= 4:
                    self._destroy_door(did)

    def _destroy_door(self, did: str) -> None:
        self.door_state[did] = "destroyed"
        self.closed.pop(self.game.board.doors[did], None)
        self._note(f"door {did} destroyed")

    def _act_flame(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 2, reaction)
        b = self.game.board
        t = b.parse_sq(a.args[1])
        if self.game.markers:
            self._flame_marker(pc, t)
            return
        pc.ammo -= 1
        area = self._flame_area(t)
        if self.game.fire_module:
            # [AE-F] fire counters fall through pitfalls and ladder tops to the level below, never upward.
            feat = self.feat
            below = [feat.pit_down[sq] if sq in feat.pit_down else feat.ladder[sq]
                     for sq in area if sq in feat.pit_down or sq in feat.ladder_top]
            area = sorted(set(area) | {sq for sq in below if sq >= 0})
        for sq in area:
            self.flames[sq] = 1
        self.flamed_sections[(t // b.plane, b.section[t] or "")] = 1
        self._note(f"{pc.id} flames {b.name(t)} ({len(area)} squares)")
        for sq in area:
            tid = self.occ.get(sq)
            if tid is not None:
                self._burn(self.p[tid], pc.id)

    def _flame_marker(self, pc: Piece, t: int) -> None:
        """[2e] one flamer marker on t (a shot may chain more on adjacent squares: the "chain" decision)."""
        pc.ammo -= 1
        self.flames[t] = self.flames.get(t, 0) + 1
        self.flamed_sections[(t // self.game.board.plane, self.game.board.section[t] or "")] = 1
        self._note(f"{pc.id} flames {self.game.board.name(t)}")
        tid = self.occ.get(t)
        if tid is not None:
            self._burn(self.p[tid], pc.id)
        if pc.id in self.p and pc.ammo > 0:
            self.stack.append(("chain", pc.id, t))

    def _legal_chain(self, frame: tuple[Any, ...]) -> list[Action]:
        pc = self.p.get(frame[1])
        if pc is None or pc.ammo <= 0:
            return []
        b = self.game.board
        near = {*b.nbr[frame[2]], frame[2]}  # the next marker goes next to the last, or stacks on it
        out = [act("flame", pc.id, b.name(t)) for t in self._flame_targets(pc) if t in near]
        return [*out, PASS] if out else []

    def _do_chain(self, frame: tuple[Any, ...], a: Action) -> None:
        if a.verb == "flame":
            self._flame_marker(self.p[a.args[0]], self.game.board.parse_sq(a.args[1]))

    def _burn(self, q: Piece, killer: str | None) -> None:
        """A model or blip caught in flames: 4e 2+ (classic: dies unless 6); [AE-F] Marines die on 3+."""
        if self.game.fire_module and q.kind == "marine":
            killed = self.dice.d6() >= 3
        else:
            _die, killed = cb.flamer_attack(self.dice, ruleset=self.game.ruleset, alpha=q.alpha)
        if killed:
            self._kill(q, killer, "flamed")

    def _flame_area(self, t: int) -> list[int]:
        """The flamed squares: t's section, not past closed doors."""
        b = self.game.board
        sec = b.section[t]
        seen = {t: None}
        todo = [t]
        while todo:
            s = todo.pop()
            for n in b.nbr[s]:
                if n >= 0 and n not in seen and b.section[n] == sec and n not in self.closed:
                    seen[n] = None
                    todo.append(n)
        return sorted(seen)

    # close assault ----------------------------------------------------------------------------
    def _act_assault(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        tid = a.args[1]
        b = self.game.board
        if tid in b.doors:
            fighter = self._fighter(pc) if pc.kind == "marine" else None
            _rolled, destroyed = cb.door_attack(self.dice, "close_assault", marine=fighter)
            self._note(f"{pc.id} attacks door {tid}: {'destroyed' if destroyed else 'holds'}")
            if destroyed:
                self._destroy_door(tid)
            return
        dfn = self.p[tid]
        self._assault(pc, dfn)

    def _assault(self, att: Piece, dfn: Piece) -> None:
        b = self.game.board
        marine, stealer = (att, dfn) if att.kind == "marine" else (dfn, att)
        through = att.sq // b.plane != dfn.sq // b.plane
        # frontal: the defender faces the attacker (never through a hole; [4e] ladder ends count as face to face).
        ladder4e = through and not self.game.pf_ladders and self.feat.ladder.get(att.sq) == dfn.sq
        if ladder4e:
            through = False
            frontal = True
        else:
            frontal = (not through) and self._front(dfn) == att.sq
        if att.kind != "marine":
            marine.ow = False
        roll = cb.roll_assault(self.dice, self._fighter(marine), alpha=stealer.alpha, frontal=frontal,
                               marine_attacking=att.kind == "marine", ruleset=self.game.ruleset,
                               guard=marine.guard and marine is dfn)
        self.stack.append(("asr", att.id, dfn.id, roll, 0, through))

    def _fighter(self, m: Piece) -> Any:
        return cb.MarineFighter(m.melee, m.rank, m.shield, m.prone, self.psi if m.melee == "force_axe" else 0)

    def _run_asr(self, frame: tuple[Any, ...]) -> None:
        _, att_id, dfn_id, roll, stage, through = frame
        att, dfn = self.p.get(att_id), self.p.get(dfn_id)
        if att is None or dfn is None:
            return
        if stage == 0:
            if cb.parry_choices(roll):
                self.stack.append(("parry", att_id, dfn_id, roll, through))
                return
            stage = 1
        if stage == 1:
            if cb.guard_choices(roll):
                self.stack.append(("guardroll", att_id, dfn_id, roll, through))
                return
            stage = 2
        if stage == 2:
            if [p for p in cb.psi_choices(roll) if p <= self.psi]:
                self.stack.append(("psipoints", att_id, dfn_id, roll, through))
                return
        self._resolve_assault(att, dfn, roll, through)

    def _resolve_assault(self, att: Piece, dfn: Piece, roll: Any, through: bool) -> None:
        out = cb.assault_outcome(roll)
        dead = cb.assault_casualty(roll)
        self._note(f"{att.id} assaults {dfn.id}: {out}")
        if dead is not None:
            loser = att if (att.kind == "marine") == (dead == "marine") else dfn
            self._kill(loser, (dfn if loser is att else att).id, "close assault")
            return
        b = self.game.board
        facing_att = (not through) and not (dfn.kind == "marine" and dfn.prone) and self._front(dfn) == att.sq
        if out == ("marine" if att.kind == "marine" else "stealer"):
            return  # the attacker won against a defender it cannot harm? (not reached: attacker wins kill)
        if through and dfn.kind == "marine":
            opts = [t for t in (b.nbr[dfn.sq][dfn.facing * 2], b.nbr[dfn.sq][(dfn.facing * 2 + 4) % 8])
                    if t >= 0 and self._free_square(t) and t not in self.flames]
            if opts:
                self.stack.append(("retreat", dfn.id, tuple(opts)))
            return
        if not facing_att:
            f = _facing_towards(b, dfn.sq, att.sq)
            if f is not None:
                self.stack.append(("tf", dfn.id, f, M if dfn.kind == "marine" else G))

    # psychic powers ---------------------------------------------------------------------------
    def _do_psi(self, a: Action) -> None:
        power = a.args[0]
        b = self.game.board
        self.psi_used = True
        if power == "prescience":
            self.psi -= 1
            self.cp += 1
            self._note("prescience: +1 CP")
        elif power == "barrier":
            self.psi -= 2
            t = b.parse_sq(a.args[1])
            self.barriers[t] = 1
            self._note(f"force barrier at {a.args[1]}")
        elif power == "storm":
            self.psi -= 3
            arg = a.args[1]
            if ":" in arg:
                t = b.parse_sq(arg)
                self._note(f"psychic storm on section {b.section[t]}")
                for sq in b.section_squares(t):
                    tid = self.occ.get(sq)
                    if tid is not None and self.p[tid].kind != "marine":
                        q = self.p[tid]
                        if self.dice.d6() >= 4 and not q.alpha:
                            self._kill(q, "psi", "psychic storm")
            else:
                target = self.p.get(arg)
                self._note(f"psychic storm on {arg}")
                if target is not None and self.dice.d6() >= 2 and not target.alpha:
                    self._kill(target, "psi", "psychic storm")

    # deaths, escapes --------------------------------------------------------------------------
    def _kill(self, pc: Piece, killer: str | None, cause: str) -> None:
        b = self.game.board
        lvl = x = y = None
        if pc.sq >= 0:
            li, x, y = b.lxy(pc.sq)
            lvl = b.level_ids[li]
        self.deaths.append(Death(pc.id, pc.kind, lvl, x, y, killer, self.turn, cause))
        self._note(f"{pc.id} dies ({cause})")
        self._remove(pc, escaped=None)

    def _remove(self, pc: Piece, escaped: str | None) -> None:
        if pc.kind == "blip":
            self.used.append(pc.value)
        if pc.sq >= 0:
            self.occ.pop(pc.sq, None)
            if pc.carry:
                if escaped is None:
                    if pc.sq not in self.obj_at:
                        self.obj_at[pc.sq] = pc.carry
                elif escaped == "exit":
                    self.objective_carried_to[pc.carry] = "exit:" + self.game.board.exit_at.get(pc.sq, "")
        del self.p[pc.id]
        if self.active == pc.id:
            self.active = None
        if escaped is not None and pc.kind == "marine":
            self.escaped.append(pc.id)
            self.escaped_via[pc.id] = escaped
            self._note(f"{pc.id} escapes by the {escaped}")
        self._check_victory()

    # blips -------------------------------------------------------------------------------------
    def _new_id(self, prefix: str) -> str:
        self.seq += 1
        return f"{prefix}{self.seq}"

    def _draw_blip(self, pool: str) -> int | None:
        if pool == "limited" and self.limited_left is not None:
            if self.limited_left <= 0:
                return None
        if not self.pile:
            if not self.used:
                return None
            self.pile = self.used
            self.used = []
            self.game_rng_shuffle(self.pile)
        v = self.pile.pop()
        if pool == "limited" and self.limited_left is not None:
            if self.limited_unit == "stealers":
                v = min(v, self.limited_left)
                self.limited_left -= v
            else:
                self.limited_left -= 1
        return v

    def game_rng_shuffle(self, values: list[int]) -> None:
        self.dice.rng.shuffle(values)

    def _stealer_count(self) -> int:
        return sum(1 for pc in self.p.values() if pc.kind == "stealer")

    def _convert(self, blip: Piece, voluntary: bool) -> None:
        """Replace a blip by its Genestealers; placement decisions follow."""
        n = blip.value
        self._note(f"{blip.id} reveals {n} ({'voluntary' if voluntary else 'involuntary'})")
        may_act = not blip.acted and self.phase == "stealers"
        sq, entry = blip.sq, blip.entry
        self.used.append(n)
        if sq >= 0:
            self.occ.pop(sq, None)
        del self.p[blip.id]
        if self.active == blip.id:
            self.active = None
        if sq >= 0 and sq in self.flames:
            self._note(f"{blip.id} burns in the flames")
            return
        if self.game.mission.genestealers.alpha and not self.alpha_used and n == 3:
            # [4e] once per game a revealed "3" may be the Alpha instead: the Genestealer player decides.
            self.stack.append(("alpha", sq, entry, n, may_act, voluntary))
            return
        self._place_revealed(sq, entry, n, may_act, voluntary, False)

    def _place_revealed(self, sq: int, entry: str, n: int, may_act: bool, voluntary: bool, alpha: bool) -> None:
        b = self.game.board
        if alpha:
            n = 1
            self.alpha_used = True
        room = max(0, self.model_cap - self._stealer_count())
        n = min(n, room)
        if n <= 0:
            return
        if sq < 0:
            for _ in range(n):
                g = self._spawn(-1, entry, may_act, alpha)
                g.facing = b.entry_facing[entry]
            return
        g = self._spawn(sq, "", may_act, alpha)
        player = G if voluntary else M
        if n > 1:
            self.stack.append(("put", player, sq, n - 1, may_act, voluntary))
        self.stack.append(("hooks", g.id))
        self.stack.append(("face", g.id, G))

    def _legal_alpha(self, frame: tuple[Any, ...]) -> list[Action]:
        return [act("alpha", "yes"), act("alpha", "no")]

    def _do_alpha(self, frame: tuple[Any, ...], a: Action) -> None:
        _, sq, entry, n, may_act, voluntary = frame
        if a.args[0] == "yes":
            self._note("the Genestealer Alpha")
        self._place_revealed(sq, entry, n, may_act, voluntary, a.args[0] == "yes")

    def _spawn(self, sq: int, entry: str, may_act: bool, alpha: bool) -> Piece:
        g = Piece(self._new_id("g"), "stealer")
        g.facing = 0
        g.alpha = alpha
        g.ap = STEALER_AP if may_act else 0
        g.st = 0 if may_act else 2
        g.entry = entry
        if sq >= 0:
            self._place(g, sq)
        self.p[g.id] = g
        return g

    def _put_options(self, frame: tuple[Any, ...]) -> list[int]:
        _, _player, sq, _n, _may_act, voluntary = frame
        if self._free_square(sq) and sq not in self.flames:
            return [sq]  # [4e] the blip's own square, freed by a kill, must be used again
        opts = []
        for t in self._empty_adjacent(sq):
            if voluntary and self._seen_by_marine(t):
                continue
            opts.append(t)
        return opts

    # ---------------------------------------------------------------- frames: legal / do / run
    def _legal_setup(self, frame: tuple[Any, ...]) -> list[Action]:
        b = self.game.board
        return [act("setup", b.name(t)) for t in setup_squares(self.game, self.setup_placed)]

    def _do_setup(self, frame: tuple[Any, ...], a: Action) -> None:
        self.setup_placed = {**self.setup_placed, self.game.board.parse_sq(a.args[0]): frame[1]}

    def _run_setup_done(self, frame: tuple[Any, ...]) -> None:
        self.feat = placed_features(self.game, self.setup_placed, self.setup_order)
        self._note("counters turned face up")

    def _legal_cmd(self, frame: tuple[Any, ...]) -> list[Action]:
        return [act("cp", "keep"), act("cp", "redraw")]

    def _do_cmd(self, frame: tuple[Any, ...], a: Action) -> None:
        if a.args[0] == "redraw":
            self.cp = self.cp_start = self.dice.d6()
            self._note(f"redraw: command points {self.cp}")

    def _legal_lurk(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] <= 0:
            return []
        b = self.game.board
        cap = int(self.game.options["max_lurking"])  # type: ignore[call-overload]
        counts: dict[str, int] = {}
        for pc in self.p.values():
            if pc.sq < 0 and pc.entry:
                counts[pc.entry] = counts.get(pc.entry, 0) + 1
        out = [act("lurk", e) for e in frame[2] if e in b.entries and counts.get(e, 0) < cap]
        if out and not self._pool_has(frame[3]):
            return []
        return out

    def _pool_has(self, pool: str) -> bool:
        if pool == "limited" and self.limited_left is not None and self.limited_left <= 0:
            return False
        return bool(self.pile or self.used)

    def _do_lurk(self, frame: tuple[Any, ...], a: Action) -> None:
        v = self._draw_blip(frame[3])
        if v is not None:
            bl = Piece(self._new_id("b"), "blip")
            bl.value = v
            bl.entry = a.args[0]
            bl.lock = len(frame) > 4 and a.args[0] in frame[4]
            bl.ap = BLIP_AP
            self.p[bl.id] = bl
            self._note(f"{bl.id} lurks at {bl.entry}")
        if frame[1] > 1:
            self.stack.append((frame[0], frame[1] - 1, *frame[2:]))

    def _legal_put(self, frame: tuple[Any, ...]) -> list[Action]:
        if self._stealer_count() >= self.model_cap:
            return []
        b = self.game.board
        return [act("put", b.name(t)) for t in self._put_options(frame)]

    def _do_put(self, frame: tuple[Any, ...], a: Action) -> None:
        _, player, sq, n, may_act, voluntary = frame
        t = self.game.board.parse_sq(a.args[0])
        if n > 1:
            self.stack.append(("put", player, sq, n - 1, may_act, voluntary))
        g = self._spawn(t, "", may_act, False)
        self._note(f"{g.id} placed at {a.args[0]}")
        self.stack.append(("hooks", g.id))
        self.stack.append(("face", g.id, G))

    def _run_hooks(self, frame: tuple[Any, ...]) -> None:
        g = self.p.get(frame[1])
        if g is not None and self.phase == "stealers":
            self.stack.append(("owq", g.id))
            self.stack.append(("reactq", g.id))

    def _legal_face(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] not in self.p:
            return []
        return [act("face", frame[1], f) for f in FACE_NAMES]

    def _do_face(self, frame: tuple[Any, ...], a: Action) -> None:
        self.p[a.args[0]].facing = FACE_INDEX[a.args[1]]

    def _legal_tf(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] not in self.p:
            return []
        return [act("face", frame[1], FACE_NAMES[frame[2]]), PASS]

    def _do_tf(self, frame: tuple[Any, ...], a: Action) -> None:
        if a.verb == "face":
            pc = self.p[a.args[0]]
            pc.facing = FACE_INDEX[a.args[1]]
            pc.prone = False

    def _legal_retreat(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] not in self.p:
            return []
        b = self.game.board
        return [act("retreat", frame[1], b.name(t)) for t in frame[2] if self._free_square(t)] + [PASS]

    def _do_retreat(self, frame: tuple[Any, ...], a: Action) -> None:
        if a.verb == "retreat":
            pc = self.p[a.args[0]]
            self._relocate(pc, self.game.board.parse_sq(a.args[1]))
            self.stack.append(("conv",))

    def _legal_scuttle(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] not in self.p:
            return []
        b = self.game.board
        return [act("scuttle", frame[1], b.name(t)) for t in frame[2] if self._free_square(t)]

    def _do_scuttle(self, frame: tuple[Any, ...], a: Action) -> None:
        self._relocate(self.p[a.args[0]], self.game.board.parse_sq(a.args[1]))

    def _legal_shove(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] not in self.p:
            return []
        b = self.game.board
        return [act("shove", frame[1], b.name(t)) for t in frame[2] if self._free_square(t)]

    def _do_shove(self, frame: tuple[Any, ...], a: Action) -> None:
        self._place(self.p[a.args[0]], self.game.board.parse_sq(a.args[1]))
        self.stack.append(("conv",))

    # conversions
    def _run_conv(self, frame: tuple[Any, ...]) -> None:
        blips = [pc for pc in self.p.values() if pc.kind == "blip" and pc.sq >= 0]
        if not blips:
            return
        self._seen_memo = {}  # nothing moves while we look
        try:
            seen = next((pc for pc in blips if self._seen_by_marine(pc.sq)), None)
        finally:
            self._seen_memo = None
            self._eyes_memo = None
            self._near_memo = None
        if seen is not None:
            self.stack.append(("conv",))
            self._convert(seen, voluntary=False)

    # reactions
    def _run_reactq(self, frame: tuple[Any, ...]) -> None:
        g = self.p.get(frame[1])
        if g is None or g.sq < 0 or self.cp <= 0 or not self.game.options["cp_reactions"]:
            return
        if self._seen_by_marine(g.sq):
            self.stack.append(("react", g.id))

    def _legal_react(self, frame: tuple[Any, ...]) -> list[Action]:
        out: list[Action] = [PASS]
        for pc in self.p.values():
            if pc.kind == "marine" and pc.sq >= 0:
                self._marine_actions(pc, self.cp, out, in_turn=False)
        return out

    def _do_react(self, frame: tuple[Any, ...], a: Action) -> None:
        if a.verb != "pass":
            self._note("reaction")
            self._piece_action(a, reaction=True)

    # overwatch
    def _run_owq(self, frame: tuple[Any, ...]) -> None:
        g = self.p.get(frame[1])
        if g is None or g.sq < 0:
            return
        b = self.game.board
        rng = self.game.ow_range
        shooters = tuple(
            m.id for m in self.p.values()
            if m.kind == "marine" and m.ow and not m.jam and m.sq >= 0 and (m.ranged != "assault_cannon" or m.ammo > 0)
            and (m.sq // b.plane != g.sq // b.plane or b.rng(m.sq, g.sq) <= rng) and self._sees(m, g.sq)
        )
        if shooters:
            self.stack.append(("ow", g.id, shooters, ()))

    def _legal_ow(self, frame: tuple[Any, ...]) -> list[Action]:
        _, _gid, remaining, _declared = frame
        mid = remaining[0]
        if self.game.options["overwatch_compulsory"]:
            return [act("fire", mid)]
        return [act("fire", mid), act("hold", mid)]

    def _do_ow(self, frame: tuple[Any, ...], a: Action) -> None:
        _, gid, remaining, declared = frame
        if a.verb == "fire":
            declared = (*declared, a.args[0])
        remaining = remaining[1:]
        if remaining:
            self.stack.append(("ow", gid, remaining, declared))
            return
        for mid in declared:
            m, g = self.p.get(mid), self.p.get(gid)
            if m is None or g is None:
                break
            self._shoot(m, gid, overwatch=True)

    def _run_owdoorq(self, frame: tuple[Any, ...]) -> None:
        did = frame[1]
        b = self.game.board
        t = b.doors[did]
        if self.door_state.get(did) != "closed":
            return
        shooters = tuple(
            m.id for m in self.p.values()
            if m.kind == "marine" and m.ow and not m.jam and m.sq >= 0
            and m.ranged in ("storm_bolter", "assault_cannon")
            and m.sq // b.plane == t // b.plane and b.rng(m.sq, t) <= self.game.ow_range and self._sees(m, t)
        )
        if shooters:
            self.stack.append(("owdoor", did, shooters, ()))

    def _legal_owdoor(self, frame: tuple[Any, ...]) -> list[Action]:
        mid = frame[2][0]
        return [act("fire", mid), act("hold", mid)]

    def _do_owdoor(self, frame: tuple[Any, ...], a: Action) -> None:
        _, did, remaining, declared = frame
        if a.verb == "fire":
            declared = (*declared, a.args[0])
        if remaining[1:]:
            self.stack.append(("owdoor", did, remaining[1:], declared))
            return
        for mid in declared:
            m = self.p.get(mid)
            if m is None or self.door_state.get(did) != "closed":
                break
            self._shoot(m, did, overwatch=True)

    # assault decisions
    def _legal_parry(self, frame: tuple[Any, ...]) -> list[Action]:
        return [act("parry", str(i)) for i in cb.parry_choices(frame[3])] + [PASS]

    def _do_parry(self, frame: tuple[Any, ...], a: Action) -> None:
        _, att, dfn, roll, through = frame
        if a.verb == "parry":
            roll = cb.apply_parry(self.dice, roll, int(a.args[0]))
        self.stack.append(("asr", att, dfn, roll, 1, through))

    def _legal_guardroll(self, frame: tuple[Any, ...]) -> list[Action]:
        return [act("guardroll", str(i)) for i in cb.guard_choices(frame[3])] + [PASS]

    def _do_guardroll(self, frame: tuple[Any, ...], a: Action) -> None:
        _, att, dfn, roll, through = frame
        if a.verb == "guardroll":
            roll = cb.apply_guard(self.dice, roll, int(a.args[0]))
        self.stack.append(("asr", att, dfn, roll, 2, through))

    def _legal_psipoints(self, frame: tuple[Any, ...]) -> list[Action]:
        return [act("psipoints", str(i)) for i in cb.psi_choices(frame[3]) if i <= self.psi] + [PASS]

    def _do_psipoints(self, frame: tuple[Any, ...], a: Action) -> None:
        _, att, dfn, roll, through = frame
        if a.verb == "psipoints":
            n = int(a.args[0])
            self.psi -= n
            roll = cb.apply_psi(roll, n)
        self.stack.append(("asr", att, dfn, roll, 3, through))


_AUTO = None
# Decisions that always offer at least one action (skip computing their options just to check).
_NEVER_EMPTY = frozenset({"react", "ow", "owdoor", "cmd", "alpha", "parry", "guardroll", "psipoints"})


def _frame_player(player: Player | None) -> Any:
    return lambda frame: player


_FRAME_PLAYER: dict[str, Any] = {
    "begin_marines": _AUTO,
    "begin_stealer_actions": _AUTO,
    "conv": _AUTO,
    "hooks": _AUTO,
    "reactq": _AUTO,
    "owq": _AUTO,
    "susq": _AUTO,
    "owdoorq": _AUTO,
    "asr": _AUTO,
    "landempty": _AUTO,
    "setup_done": _AUTO,
    "setup": lambda frame: frame[2],
    "cmd": _frame_player(M),
    "chain": _frame_player(M),
    "lurk": _frame_player(G),
    "alpha": _frame_player(G),
    "put": lambda frame: frame[1],
    "face": lambda frame: frame[2],
    "tf": lambda frame: frame[3],
    "retreat": _frame_player(M),
    "scuttle": _frame_player(G),
    "shove": _frame_player(G),
    "react": _frame_player(M),
    "ow": _frame_player(M),
    "owdoor": _frame_player(M),
    "parry": _frame_player(M),
    "guardroll": _frame_player(M),
    "psipoints": _frame_player(M),
}


def _dest_key(b: Board, to: object) -> str:
    if isinstance(to, dict) and "exit" in to:
        return f"exit:{to['exit']}"
    if isinstance(to, dict):
        return f"sq:{b.name(b.sq_of(str(to['level']), int(to['x']), int(to['y'])))}"
    return ""


def _facing_towards(b: Board, s: int, t: int) -> int | None:
    if s // b.plane != t // b.plane:
        return None
    w = b.W
    dx = t % w - s % w
    dy = (t % b.plane) // w - (s % b.plane) // w
    if dx == 0 and dy < 0:
        return 0
    if dx > 0 and dy == 0:
        return 1
    if dx == 0 and dy > 0:
        return 2
    if dx < 0 and dy == 0:
        return 3
    return None


def _copy_dice(d: Dice) -> Dice:
    new = Dice.__new__(type(d))
    new.__dict__.update(d.__dict__)
    rng = random.Random()
    rng.setstate(d.rng.getstate())
    new.rng = rng
    new._pending = list(d._pending)
    if hasattr(d, "_script"):
        new._script = list(d._script)  # type: ignore[attr-defined]
    return new


def replay(game: Game, seed: int, actions: Iterable[Action | str]) -> GameState:
    """Re-apply a game's actions from its seed; gives the same final state."""
    s = game.new_state(seed)
    for a in actions:
        s.apply(a if isinstance(a, Action) else parse_action(a))
    return s
