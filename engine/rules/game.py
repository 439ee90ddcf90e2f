"""Game (per-mission tables) and GameState (one game in progress): the OpenSpiel-shaped public API.

Every choice inside a rule is a decision exposed through current_player()/legal_actions(): sub-decisions
(overwatch fire, parry, guard re-roll, blip placement, facings, CP reactions, ...) sit on a small stack of
immutable frames, so copy() stays cheap and replays are exact. The rules themselves live in topic modules
stacked as layers of GameState (state_core -> victory -> sight -> placement -> fire -> movement -> assault ->
psychic -> blips -> legal -> acting -> phases); see engine/rules/README.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from engine.mission.model import Mission
from engine.rules.actions import NO_ACTOR_VERBS, Action, act, move_actions, parse_action
from engine.rules.board import DIR_INDEX, FACE_NAMES, Board
from engine.rules.dice import Dice
from engine.rules.features import Features, draw_features
from engine.rules.kernel import Scope, base_step_cost
from engine.rules.lazy_legal import LegalActions
from engine.rules.options import resolve_options, rule_options
from engine.rules.phases import PhaseRules
from engine.rules.pieces import GameResult, IllegalActionError, Piece
from engine.rules.state_core import BLIP_AP, BLIP_POOL_VALUES, MARINE_AP, STEALER_AP, G, M, Player
from engine.rules.victory import victory_plan

__all__ = [
    "BLIP_AP", "BLIP_POOL_VALUES", "MARINE_AP", "STEALER_AP", "G", "Game", "GameState", "IllegalActionError", "M",
    "Player", "replay",
]


_KIND_INDEX = {"marine": 0, "stealer": 1, "blip": 2}
_ORDERS = ("overwatch", "guard", "unjam", "reload", "exit", "climb", "jump", "drop", "reveal")


class Game:
    """Immutable per-mission data shared by every state of every game on that mission."""

    def __init__(self, mission: Mission, options: Mapping[str, object] | None = None) -> None:
        self.mission = mission
        self.options: dict[str, object] = resolve_options(mission, options)
        opts = self.opts = rule_options(self.options)
        self.board = Board(mission)
        self.ruleset = mission.ruleset
        self.ow_range = opts.overwatch_range
        self.flamer_range = opts.flamer_range
        self.pf_ladders = opts.ladder_rule == "pitfall"
        self.sustained_on = opts.sustained_fire
        self.turn_cap = opts.turn_cap
        self.cap = opts.marine_activation_cap
        self.wide_sight = mission.ruleset == "classic"
        self.fire_module = opts.fire_module
        # [2e] heavy flamer markers on single squares (chains, stacks of 2) instead of whole sections
        self.markers = mission.ruleset == "classic" and not self.fire_module
        self.victory = list(mission.victory)
        self.victory_plan = victory_plan(self.board, self.victory, mission.objectives)
        self.marine_ids = tuple(m.id for m in mission.marines.squad)
        self._moves: dict[str, list[Action]] = {}
        self._turns: dict[str, list[Action]] = {}
        self._orders: dict[str, dict[str, Action]] = {}
        self._steps: dict[int, tuple[tuple[int, int, int], ...]] = {}
        self._steps_dir: dict[int, tuple[tuple[tuple[int, int, int], ...], ...]] = {}
        self._static_features: Features | None = None if mission.random_setup else draw_features(self, None)

    def move_table(self, pid: str) -> list[Action]:
        """Interned move actions of one piece: index dir * 6 + (0 plain, 1-4 new facing N E S W, 5 jump)."""
        tab = self._moves.get(pid)
        if tab is None:
            tab = self._moves[pid] = move_actions(pid)
        return tab

    def order_table(self, pid: str) -> dict[str, Action]:
        """Interned one-argument actions of one piece ("guard m1", "reveal b3", ...), by verb."""
        tab = self._orders.get(pid)
        if tab is None:
            tab = self._orders[pid] = {v: act(v, pid) for v in _ORDERS}
        return tab

    def steps(self, s: int, facing: int, kind: str) -> tuple[tuple[int, int, int], ...]:
        """(direction, square, AP before rubble) of each step a piece of `kind` facing `facing` may take from
        square s, in direction order (kernel.base_step_cost: the AP table)."""
        key = ((s * 4 + (facing & 3)) * 3) + _KIND_INDEX[kind]  # (a blip's facing, -1, is no facing)
        out = self._steps.get(key)
        if out is None:
            out = self._tabulate_steps(key, s, facing, kind)
        return out

    def steps_toward(self, s: int, facing: int, kind: str, d: int) -> tuple[tuple[int, int, int], ...]:
        """steps(s, facing, kind) toward direction d only (nothing or one step)."""
        key = ((s * 4 + (facing & 3)) * 3) + _KIND_INDEX[kind]
        out = self._steps_dir.get(key)
        if out is None:
            self._tabulate_steps(key, s, facing, kind)
            out = self._steps_dir[key]
        return out[d]

    def _tabulate_steps(self, key: int, s: int, facing: int, kind: str) -> tuple[tuple[int, int, int], ...]:
        every = []
        by_dir: list[tuple[tuple[int, int, int], ...]] = [()] * 8
        for d, t in enumerate(self.board.nbr[s]):
            cost = base_step_cost(kind, facing, d) if t >= 0 else None
            if cost is not None:
                step = (d, t, cost)
                every.append(step)
                by_dir[d] = (step,)
        out = self._steps[key] = tuple(every)
        self._steps_dir[key] = tuple(by_dir)
        return out

    def turn_table(self, pid: str) -> list[Action]:
        tab = self._turns.get(pid)
        if tab is None:
            tab = self._turns[pid] = [act("turn", pid, f) for f in FACE_NAMES]
        return tab

    def new_state(self, seed: int) -> GameState:
        """A fresh game; all its randomness (set-up, blip pile, dice) comes from random.Random(seed)."""
        return GameState(self, Dice(random.Random(seed)))



class GameState(PhaseRules):
    """One game in progress. Mutated by apply(); copy() gives an independent game sharing the Game."""

    def __init__(self, game: Game, dice: Dice, rng: random.Random | None = None, *, _blank: bool = False) -> None:
        super().__init__(game, dice, rng, _blank=_blank)
        if not _blank:
            self._drain()

    def copy(self) -> GameState:
        """An independent copy (dice state included); cheap: pieces are copied, tables shared."""
        s = GameState(self.game, _copy_dice(self.dice), _blank=True)
        s.k = self.k.copy()
        s._alias()
        s._log = self._log.copy()
        s._log_raw = self._log_raw
        s.alpha_used = self.alpha_used
        s.setup_order = self.setup_order.copy()
        s.setup_placed = self.setup_placed.copy()
        s.pile, s.used = self.pile.copy(), self.used.copy()
        s.limited_unit, s.limited_left, s.model_cap = self.limited_unit, self.limited_left, self.model_cap
        s.seq = self.seq
        return s

    def current_player(self) -> Player | None:
        k = self.k
        if k.result is not None:
            return None
        if k.stack:
            return _FRAME_PLAYER[k.stack[-1][0]](k.stack[-1])  # type: ignore[no-any-return]
        return M if k.phase == "marines" else G

    def is_terminal(self) -> bool:
        return self.k.result is not None

    def result(self) -> GameResult:
        if self.k.result is None:
            raise ValueError("the game is not over")
        return self.k.result

    def legal_actions(self) -> list[Action]:
        return list(self._legal_list())

    def _legal_list(self) -> list[Action]:
        """The current legal actions, kept for the decision (shared, not copied: callers must not change it)."""
        k = self.k
        sc = k.scope()
        out = sc.legal
        if out is None:
            if k.result is not None:
                out = []
            elif k.stack:
                top = k.stack[-1]
                out = self._legal_tab[top[0]](self, top)
            else:
                out = self._phase_actions()
            sc.legal = out
        return out

    def legal_view(self) -> LegalActions:
        """The legal actions as a lazy sequence: per-piece questions stay cheap, the full list is built on demand."""
        # LegalActions(self), its slots set directly (one per decision: the __init__ frame costs more than them).
        la = _new_legal_actions(LegalActions)
        la._state = self
        la._version = self.k.version
        la._all = None
        return la

    def legal_actions_of(self, pid: str, verb: str | None = None) -> list[Action]:
        """The legal actions whose actor is piece `pid` (with `verb`: only those), in legal_actions() order.

        In an action phase a piece's actions depend on that piece alone: its own generator lists them, and
        with `verb` only that part of it (so a player asking for a Marine's shots pays for those). There,
        `verb="psi"` gives the psychic powers an Archivist `pid` may use (a power has no actor).
        """
        k = self.k
        if k.result is None and not k.stack:
            sc = k.scope()
            own = sc.own.get(pid)
            if verb is None:
                if own is None:
                    own = self._own_actions(pid, sc)
                if own and own[-1].verb == "psi":
                    return [a for a in own if a.actor == pid]  # the Archivist's powers come last
                return own.copy()
            # (a part may list a neighbouring verb too: doors open and close, holes climb and jump)
            return [a for a in (own if own is not None else self._part(pid, verb, -1, sc)) if a.verb == verb]
        return [a for a in self._legal_list() if a.actor == pid and (verb is None or a.verb == verb)]

    def is_legal(self, action: Action) -> bool:
        """`action in legal_actions()`: in an action phase, whether the actor's generator lists it (its part for
        the action's verb, and for a move its direction only)."""
        k = self.k
        sc = k._scope
        if sc.version != k.version:
            sc = k.scope()
        elif sc.ok is action:
            return True
        if sc.legal is not None or k.result is not None or k.stack:
            ok = _listed(action, self._legal_list())
        else:
            verb = action.verb
            args = action.args
            if args and verb not in NO_ACTOR_VERBS:
                # A piece action: listed by its actor's generator alone (psi powers aside, a generator lists only
                # actions of its own piece).
                actor = args[0]
                listed = sc.own.get(actor)
                if listed is None:
                    d = -1
                    if verb == "move":
                        d = DIR_INDEX.get(args[1], -1) if len(args) > 1 else -1
                    listed = self._part(actor, verb, d, sc) if verb != "move" or d >= 0 else []
                ok = _listed(action, listed)
            elif not args:
                ok = verb == "pass" or (verb == "end" and k.active is not None)
            else:
                # Of the verbs without an actor only the psychic powers are offered in an action phase.
                ok = verb == "psi" and any(
                    _listed(action, self._part(pc.id, "psi", -1, sc)) for pc in k.p.values() if pc.rank == "archivist"
                )
        if ok:
            # A player asks about the action it then applies: apply takes this answer.
            sc.ok = action
        return ok

    def _part(self, pid: str, verb: str, d: int, sc: Scope) -> list[Action]:
        """Action phase: piece pid's actions of one verb (moves: toward d only, or all when d < 0), kept for the
        decision (a part may list a neighbouring verb too)."""
        key = (pid, verb, d)
        out = sc.parts.get(key)
        if out is None:
            out = sc.parts[key] = []
            pc = self.k.p.get(pid)
            if pc is not None:
                self._piece_actions(pc, out, verb, d)
        return out

    def _own_actions(self, pid: str, sc: Scope | None = None) -> list[Action]:
        """Action phase only: what piece `pid` may do now (its slice of the phase's legal actions)."""
        if sc is None:
            sc = self.k.scope()
        out = sc.own.get(pid)
        if out is None:
            out = sc.own[pid] = []
            pc = self.k.p.get(pid)
            if pc is not None:
                self._piece_actions(pc, out)
        return out

    # -- the rule predicates, for players -------------------------------------------------------------------
    def sees(self, m: Piece, t: int) -> bool:
        """Marine m has line of sight to square t now."""
        return self._sees(m, t)

    def can_enter(self, pc: Piece, t: int) -> bool:
        """Piece pc may step onto square t (if it has the AP)."""
        return self._can_enter(pc, t)

    def ap_budget(self, pc: Piece, cp: int | None = None) -> int:
        """What piece pc may spend in its own phase: AP and command points (`cp`: at most that many of them)."""
        return self.k.ap_budget(pc, False, cp)

    def step_cost(self, pc: Piece, d: int, t: int, facing: int | None = None) -> int | None:
        """AP for piece pc to step toward direction d onto square t (facing `facing`); None: not that way."""
        return self.k.step_cost(pc, d, t, facing)

    def turn_cost(self, pc: Piece, f: int) -> int:
        """AP for piece pc to turn to face f."""
        return self.k.turn_cost(pc, f)

    def free_square(self, t: int) -> bool:
        """Square t holds no piece, closed door or barrier."""
        return self.k.free_square(t)

    def apply(self, action: Action | str) -> None:
        """Apply one legal action (or its text); raises IllegalActionError otherwise."""
        a = parse_action(action) if isinstance(action, str) else action
        k = self.k
        sc = k._scope
        if (sc.ok is not a or sc.version != k.version) and not self.is_legal(a):
            raise IllegalActionError(f"illegal action {a.text()!r} for {self.current_player()} (turn {k.turn})")
        stack = k.stack
        # current_player(), inlined: a legal action means the game is not over.
        player: str = _FRAME_PLAYER[stack[-1][0]](stack[-1]) if stack else M if k.phase == "marines" else G
        turn = k.turn
        k.fx = []
        if k.version != k.settled:
            k.forget()  # edited by hand since the last apply (scenarios, tests): the counters may have missed it
        k.version += 1
        if stack:
            frame = stack.pop()
            self._do_tab[frame[0]](self, frame, a)
        elif a.verb == "pass":
            self._end_phase_step()
        elif a.verb == "end":
            k.end_activation()
        else:
            self._piece_action(a, reaction=False)
        options = self._drain()
        # The log entry (the `log` property makes it an Event when read); dice.take() and a.text(), inlined.
        dice = self.dice._pending
        fx = k.fx
        self._log.append((turn, player, a._text, tuple(dice) if dice else (), "; ".join(fx) if fx else ""))
        if dice:
            dice.clear()
        self._log_raw += 1
        k.version = k.settled = k.version + 1
        if options is not None:
            # The decision's options as _drain listed them: nothing has changed since, so they are this version's
            # legal actions (what _legal_list would list again for the player).
            k.scope().legal = options

    def _drain(self) -> list[Action] | None:
        """Run automatic frames until a decision is needed or the stack is empty; the decision's options when they
        had to be listed to see that there are some."""
        k = self.k
        stack = k.stack
        run_fns, legal_fns = self._run_tab, self._legal_tab
        while k.result is None and stack:
            top = stack[-1]
            name = top[0]
            if name not in _AUTO_FRAMES:
                if name in _NEVER_EMPTY:
                    return None
                options: list[Action] = legal_fns[name](self, top)
                if options:
                    return options
                stack.pop()  # a decision with no options is skipped
                continue
            stack.pop()
            run_fns[name](self, top)
        return None


_new_legal_actions = object.__new__


def _listed(a: Action, actions: list[Action]) -> bool:
    """`a in actions`, trying identity first: actions are interned, so a legal one is nearly always the very
    object listed, and `in` would call Action.__eq__ on every element before it."""
    for x in actions:
        if x is a:
            return True
    return a in actions


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
_AUTO_FRAMES = frozenset(name for name, who in _FRAME_PLAYER.items() if who is _AUTO)


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
