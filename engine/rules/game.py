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
from engine.rules.board import FACE_NAMES, Board
from engine.rules.dice import Dice
from engine.rules.features import Features, draw_features
from engine.rules.lazy_legal import LegalActions
from engine.rules.options import resolve_options, rule_options
from engine.rules.phases import PhaseRules
from engine.rules.pieces import GameResult, IllegalActionError
from engine.rules.quick_legal import quick_turn_legal
from engine.rules.state_core import BLIP_AP, BLIP_POOL_VALUES, MARINE_AP, STEALER_AP, G, M, Player
from engine.rules.victory import victory_plan

__all__ = [
    "BLIP_AP", "BLIP_POOL_VALUES", "MARINE_AP", "STEALER_AP", "G", "Game", "GameState", "IllegalActionError", "M",
    "Player", "replay",
]


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


class GameState(PhaseRules):
    """One game in progress. Mutated by apply(); copy() gives an independent game sharing the Game."""

    def __init__(self, game: Game, dice: Dice, rng: random.Random | None = None, *, _blank: bool = False) -> None:
        super().__init__(game, dice, rng, _blank=_blank)
        if not _blank:
            self._drain()

    def copy(self) -> GameState:
        """An independent copy (dice state included); cheap: pieces are copied, tables shared."""
        s = GameState(self.game, _copy_dice(self.dice), _blank=True)
        d = s.__dict__
        for k, v in self.__dict__.items():
            if k in _NOT_COPIED:
                continue
            if k == "p":
                d[k] = {pid: pc.copy() for pid, pc in v.items()}
            elif isinstance(v, (dict, list)):
                d[k] = v.copy()
            else:
                d[k] = v
        s._end_memo()  # a memo scope belongs to one state object
        s._quick_memo = (-1, {}, {})
        s._ok_a, s._ok_v = None, -1
        return s

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
        self._open_memo()
        return list(self._compute_legal())

    def _compute_legal(self) -> list[Action]:
        """The legal actions, kept as self._legal (callers get copies: a policy may change its list)."""
        if self.result_ is not None:
            out: list[Action] = []
        elif self.stack:
            top = self.stack[-1]
            out = self._legal_tab[top[0]](self, top)
        else:
            out = self._phase_actions()
        self._legal = out
        self._legal_key = self.version
        return out

    def legal_view(self) -> LegalActions:
        """The legal actions as a lazy sequence: per-piece questions stay cheap, the full list is built on demand."""
        # LegalActions(self), its slots set directly (one per decision: the __init__ frame costs more than them).
        la = _new_legal_actions(LegalActions)
        la._state = self
        la._version = self.version
        la._all = None
        return la

    def legal_actions_of(self, pid: str) -> list[Action]:
        """The legal actions whose actor is piece `pid`, in legal_actions() order, without computing the others.

        In an action phase a piece's actions depend on that piece alone, so only its own are generated: a
        player deciding between two or three pieces pays for those, not for the whole side.
        """
        if self._legal_key != self.version and self.result_ is None and not self.stack:
            own = self._own_actions(pid)
            if own and own[-1].verb == "psi":
                # The Archivist's powers have no actor; _marine_actions lists them last.
                return [a for a in own if a.actor == pid]
            return own.copy()  # every other action of a piece's own list has that piece as its actor
        return [a for a in self.legal_actions() if a.actor == pid]

    def is_legal(self, action: Action) -> bool:
        """`action in legal_actions()`, answered from the actor's own actions when that is enough."""
        version = self.version
        if self._legal_key != version and self.result_ is None and not self.stack:
            verb = action.verb
            args = action.args
            if not args and (verb == "pass" or (verb == "end" and self.active is not None)):
                return True  # PASS, or END while a piece is active
            if args and verb not in NO_ACTOR_VERBS:  # action.actor, inlined
                actor = args[0]
                # A piece action is listed by its actor's generator alone (every action a generator lists has
                # that piece as its actor, psi powers aside): its own actions decide, none other would.
                memo = self._own_memo
                own = memo[1].get(actor) if memo[0] == version else None
                if own is not None:
                    ok = _listed(action, own)
                elif verb == "move":
                    ok = self._move_is_legal(actor, action)
                elif verb == "turn":
                    ok = self._turn_is_legal(actor, action)
                elif verb == "enter" or verb == "reveal":
                    ok = self._enter_or_reveal_is_legal(actor, action)
                elif (verb == "climb" or verb == "jump") and self.phase != "marines":
                    ok = self._hole_move_is_legal(actor, action)
                elif verb in _MARINE_ORDERS and self.phase == "marines":
                    ok = self._marine_order_is_legal(actor, action)
                else:
                    ok = _listed(action, self._own_actions(actor))
            elif verb == "psi":
                ok = self._psi_is_legal(action)
            else:
                return _listed(action, self._legal_list())  # no actor (END with no active piece, ...): the list
            if ok:
                # A player asks about the action it then applies: apply takes this answer (one slot, this version
                # only) instead of asking again.
                self._ok_a = action
                self._ok_v = version
            return ok
        return _listed(action, self._legal_list())

    def _turn_is_legal(self, actor: str, action: Action) -> bool:
        """Action phase, a turn whose actor's actions are not listed yet: that one facing is checked, and the
        answer kept for this version (a player asks, then apply asks again)."""
        version = self.version
        memo = self._quick_memo
        if memo[0] != version:
            memo = self._quick_memo = (version, {}, {})
        known = memo[2].get(action)
        if known is None:
            pc = self.p.get(actor)
            quick = quick_turn_legal(self, pc, action.args) if pc is not None else False
            known = memo[2][action] = quick if quick is not None else action in self._own_actions(actor)
        return known

    def _enter_or_reveal_is_legal(self, actor: str, action: Action) -> bool:
        """Action phase, `enter ID` or `reveal ID` whose actor's actions are not listed yet: the conditions under
        which its generator lists it (LegalRules._piece_actions, then _blip_actions or _stealer_actions), without
        the piece's steps and doors (tests/engine/test_rules_lazy_legal.py holds them to the full list)."""
        pc = self.p.get(actor)
        if pc is None or len(action.args) != 1 or self.phase == "marines" or pc.kind == "marine" or pc.st == 2:
            return False  # only Genestealers and blips list these, outside the Marine phase, until done
        if action.verb == "reveal":
            return pc.kind == "blip" and not pc.acted  # listed first, whatever the AP
        if pc.ap <= 0 or pc.sq >= 0 or pc.lock:
            return False
        self._open_memo()
        return self._can_enter(pc, self.game.board.entries[pc.entry])

    def _hole_move_is_legal(self, actor: str, action: Action) -> bool:
        """Genestealer phase, `climb ID` or `jump ID` whose actor's actions are not listed yet: past the early
        returns of _stealer_actions / _blip_actions, their own _hole_moves part lists exactly these."""
        pc = self.p.get(actor)
        if pc is None or len(action.args) != 1 or pc.kind == "marine" or pc.st == 2 or pc.ap <= 0 or pc.sq < 0:
            return False
        if pc.kind == "stealer" and self.game.fire_module and pc.sq in self.flames:
            return False  # [AE-F] a unit in fire may only step out of it
        self._open_memo()
        out: list[Action] = []
        self._hole_moves(pc, pc.ap, out)
        return _listed(action, out)

    def _marine_order_is_legal(self, actor: str, action: Action) -> bool:
        """Marine phase, `overwatch ID`, `guard ID` or `shoot ID TARGET` whose actor's actions are not listed yet:
        past the early returns of _marine_actions (`_marine_past_steps`), its own tests for these."""
        pc = self.p.get(actor)
        budget = self._marine_past_steps(pc) if pc is not None else None
        if pc is None or budget is None:
            return False
        verb = action.verb
        if verb == "shoot":
            if len(action.args) != 2:
                return False
            out: list[Action] = []
            self._marine_shots(pc, budget, out)
            return _listed(action, out)
        if len(action.args) != 1 or budget < 2:
            return False
        if verb == "overwatch":
            return (pc.ranged == "storm_bolter" or pc.ranged == "assault_cannon") and not pc.ow
        return not pc.guard  # guard

    def _psi_is_legal(self, action: Action) -> bool:
        """Action phase, a psi power: listed by an Archivist's own actions, past the early returns of
        _marine_actions (`_marine_past_steps`), once per Marine turn."""
        if self.phase != "marines" or self.psi_used:
            return False
        for pc in self.p.values():
            if pc.rank != "archivist" or self._marine_past_steps(pc) is None:
                continue
            memo = self._own_memo
            own = memo[1].get(pc.id) if memo[0] == self.version else None
            if own is not None:
                if _listed(action, own):
                    return True
                continue
            args = action.args
            # As _psi_actions lists them: prescience, and a storm on a model (ids hold no ":", squares do).
            if args == ("prescience",):
                return self.psi >= 1 and self.cp < self.cp_start
            out: list[Action] = []
            if len(args) == 2 and args[0] == "storm" and args[1] in self.p:
                if self.psi >= 3:
                    self._storm_targets(pc, out)
                if _listed(action, out):
                    return True
                continue
            self._psi_actions(pc, out)
            if _listed(action, out):
                return True
        return False

    def _legal_list(self) -> list[Action]:
        """The current legal actions (shared, not copied: callers must not change it)."""
        if self._legal_key != self.version:
            self._open_memo()
            self._compute_legal()
        return self._legal

    def _own_actions(self, pid: str) -> list[Action]:
        """Action phase only: what piece `pid` may do now (its slice of the phase's legal actions)."""
        memo = self._own_memo
        if memo[0] != self.version:
            memo = self._own_memo = (self.version, {})
        out = memo[1].get(pid)
        if out is not None:
            return out
        out = []
        pc = self.p.get(pid)
        if pc is not None:
            self._open_memo()
            self._piece_actions(pc, out)
        memo[1][pid] = out
        return out

    def apply(self, action: Action | str) -> None:
        """Apply one legal action (or its text); raises IllegalActionError otherwise."""
        a = parse_action(action) if isinstance(action, str) else action
        if (self._ok_a is not a or self._ok_v != self.version) and not self.is_legal(a):
            raise IllegalActionError(f"illegal action {a.text()!r} for {self.current_player()} (turn {self.turn})")
        stack = self.stack
        # current_player(), inlined: a legal action means the game is not over.
        player: str = _FRAME_PLAYER[stack[-1][0]](stack[-1]) if stack else M if self.phase == "marines" else G
        turn = self.turn
        self._fx = []
        if self.version != self._settled_v:
            # Edited by hand since the last apply (scenarios, tests): the change counters may have missed it.
            self._sight_rev = self._vic_clean = -1
            self._blip_squares = None
            self._sus_set = True
        self.version += 1
        if stack:
            frame = stack.pop()
            self._do_tab[frame[0]](self, frame, a)
        elif a.verb == "pass":
            self._end_phase_step()
        elif a.verb == "end":
            self._end_activation()
        else:
            self._piece_action(a, reaction=False)
        options = self._drain()
        # The log entry (the `log` property makes it an Event when read); dice.take() and a.text(), inlined.
        dice = self.dice._pending
        fx = self._fx
        self._log.append((turn, player, a._text, tuple(dice) if dice else (), "; ".join(fx) if fx else ""))
        if dice:
            dice.clear()
        self._log_raw += 1
        self.version = self._settled_v = self.version + 1
        if options is not None:
            # The decision's options as _drain listed them: nothing has changed since, so they are this version's
            # legal actions (what _compute_legal would list again for the player).
            self._legal = options
            self._legal_key = self.version

    def _drain(self) -> list[Action] | None:
        """Run automatic frames until a decision is needed or the stack is empty; the decision's options when they
        had to be listed to see that there are some."""
        stack = self.stack
        run_fns, legal_fns = self._run_tab, self._legal_tab
        while self.result_ is None and stack:
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
_MARINE_ORDERS = frozenset({"overwatch", "guard", "shoot"})  # answered by GameState._marine_order_is_legal
# Attributes copy() does not take over: the copy has its own dice, and starts with no memo scope open.
# The handler tables (_run_tab, ...) are the class's own, set by the constructor.
_NOT_COPIED = frozenset({
    "game", "dice", "_memo_v", "_seen_memo", "_sight_memo", "_quick_memo", "_ok_a", "_ok_v",
    "_run_tab", "_legal_tab", "_do_tab", "_act_tab",
})
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
