"""A playtest: one game that people and policies play a decision at a time (the terminal and the editor share it).

A seat is "human" (a person answers its decisions) or a policy name of the registry (a weights file as
'NAME:FILE'). The session holds the game, the decisions taken (who took each), the decisions a person took back
(`undo`, marked in the record), the policies' decision RNGs (the same as `hulkforge play` draws from, so a person
who makes a policy's choices plays that policy's game) and the optional sand timer. The game stays a pure function
of (mission, options, seed, actions): undo replays the kept actions from the seed, and a saved game
(engine/sim/session_file.py) resumes by replaying them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.ai.base import SIDES, Policy, default_policy, make_policy, policy_rng
from engine.mission import mission_from_dict, validate_document
from engine.mission.playable import InvalidMission
from engine.rules.actions import PASS, Action, parse_action
from engine.rules.decisions import CommandDecision
from engine.rules.game import Game, replay
from engine.rules.observation import Observation
from engine.rules.pieces import Event
from engine.rules.state import GameState
from engine.sim.play import action_text, finish_record, marine_ids_of
from engine.sim.played import resign, resignation, write_played_game
from engine.sim.record import GameRecord
from engine.sim.sand_timer import SandTimer
from engine.sim.spec import BatchSpec

HUMAN = "human"
TIMER = "timer"  # who took a decision the sand timer forced (the end of the Marine action phase)

RngState = tuple[Any, ...]


class SessionError(ValueError):
    """A playtest request the game cannot honour (an unknown seat, a decision out of turn)."""


@dataclass(frozen=True)
class Ply:
    """One decision taken: its action's text, the side and who took it (human, a policy name, or timer)."""

    action: str
    side: str
    by: str


class PlaySession:
    """One game between seats (see the module's docstring)."""

    def __init__(self, mission_doc: Mapping[str, Any], seats: Mapping[str, str | None], seed: int = 0,
                 options: Mapping[str, object] | None = None, mission_path: str = "",
                 timer: SandTimer | None = None) -> None:
        self.mission_doc = dict(mission_doc)
        self.mission_path = mission_path
        errors = [i for i in validate_document(self.mission_doc) if i.severity == "error"]
        if errors:
            raise InvalidMission(mission_path or "mission", errors)
        self.seed = int(seed)
        self.options = dict(options or {})
        self.game = Game(mission_from_dict(self.mission_doc), self.options)  # ValueError: a bad option
        self.seats = {side: seats.get(side) or default_policy(side) for side in SIDES}
        self.policies: dict[str, Policy] = {}
        for side, name in self.seats.items():
            if name != HUMAN:
                self.policies[side] = make_policy(name)  # UnknownPolicyError / ValueError for a bad name
        self.timer = timer
        self.plies: list[Ply] = []
        self.undone: list[dict[str, Any]] = []
        self.resigned: str | None = None
        self._rngs = {side: policy_rng(self.seed, side) for side in SIDES}
        # The policies' RNG states before each decision a person took (what undo puts back).
        self._marks: dict[int, dict[str, RngState]] = {}
        self._timer_turn = 0
        self._timer_ply = 0  # decisions taken when the timer was last turned
        self.state: GameState = self.game.new_state(self.seed)
        self._start_policies()
        self._follow_timer()

    # --- who decides --------------------------------------------------------------------------------------------
    def to_move(self) -> str | None:
        """The side whose decision waits (None once the game is over or a side resigned)."""
        if self.resigned is not None:
            return None
        player = self.state.current_player()
        return None if player is None else str(player)

    def is_over(self) -> bool:
        return self.to_move() is None

    def human_to_move(self) -> bool:
        """A person answers the waiting decision."""
        side = self.to_move()
        return side is not None and self.seats[side] == HUMAN

    def humans(self) -> list[str]:
        """The sides people play."""
        return [side for side in SIDES if self.seats[side] == HUMAN]

    def observation(self, side: str) -> Observation:
        """What `side` may know now (the only thing a person's view reads)."""
        return self.state.observation(side)  # type: ignore[arg-type]

    def legal(self) -> list[Action]:
        """The legal actions of the waiting decision."""
        return [] if self.is_over() else self.state.legal_actions()

    # --- deciding -----------------------------------------------------------------------------------------------
    def apply(self, action: Action | str, by: str = HUMAN) -> list[Event]:
        """Play `action` for the side to move; returns the events it logged (IllegalActionError when illegal)."""
        side = self.to_move()
        if side is None:
            raise SessionError("the game is over")
        if isinstance(action, str):
            action = parse_action(action)  # IllegalActionError (a ValueError) when it does not parse
        if by == HUMAN:
            self._marks[len(self.plies)] = {s: self._rngs[s].getstate() for s in self.policies}
        before = len(self.state.log)
        self.state.apply(action)
        self.plies.append(Ply(action_text(action), side, by))
        self._follow_timer()
        return list(self.state.log[before:])

    def ai_action(self) -> Action:
        """The waiting decision's answer by its seat's policy (the seat must be a policy's)."""
        side = self.to_move()
        if side is None or side not in self.policies:
            raise SessionError(f"no policy decides now ({side or 'the game is over'})")
        action: Action = self.policies[side].choose(self.state, self.state.legal_view(), self._rngs[side])
        return action

    def ai_job(self) -> Callable[[], Action]:
        """The waiting decision's answer by its policy, as work that may run on another thread: it decides on an
        exact copy of the game (the same action as on the game itself) and draws from the side's decision RNG,
        which nothing else touches until `apply` takes the action it returns."""
        side = self.to_move()
        if side is None or side not in self.policies:
            raise SessionError(f"no policy decides now ({side or 'the game is over'})")
        policy, rng, state = self.policies[side], self._rngs[side], self.state.copy()
        return lambda: policy.choose(state, state.legal_view(), rng)

    def play_ai(self) -> list[Event]:
        """Let the policy of the side to move take its decision."""
        side = self.to_move()
        action = self.ai_action()
        return self.apply(action, by=self.seats[side or ""])

    def resign(self, side: str) -> None:
        """`side` gives the game up."""
        if side not in SIDES:
            raise SessionError(f"no side {side!r}")
        self.resigned = side
        if self.timer is not None:
            self.timer.stop()

    # --- undo ---------------------------------------------------------------------------------------------------
    def can_undo(self) -> bool:
        return any(p.by == HUMAN for p in self.plies)

    def undo(self) -> bool:
        """Take back the last decision a person took and every decision after it; False when there is none.

        The game is replayed from its seed with the kept actions, and the policies' RNGs are put back, so the
        game goes on exactly as if the decision had never been taken. The record keeps a mark of it.
        """
        last = next((i for i in range(len(self.plies) - 1, -1, -1) if self.plies[i].by == HUMAN), None)
        if last is None:
            return False
        ply = self.plies[last]
        self.undone.append({"step": last, "side": ply.side, "action": ply.action})
        self._rewind(last)
        return True

    def _rewind(self, n: int) -> None:
        marks = self._marks.get(n, {})
        for side, st in marks.items():
            self._rngs[side].setstate(st)
        self._marks = {i: m for i, m in self._marks.items() if i < n}
        self.plies = self.plies[:n]
        self.state = replay(self.game, self.seed, [p.action for p in self.plies])
        self.resigned = None
        self._start_policies()
        if self.timer is not None:
            self.timer.stop()
            self._timer_turn = 0  # back in a Marine action phase, the sand runs again from full
        self._follow_timer()

    def _start_policies(self) -> None:
        for policy in {id(p): p for p in self.policies.values()}.values():
            start = getattr(policy, "start_game", None)
            if start is not None:
                start(self.state)

    # --- the sand timer -----------------------------------------------------------------------------------------
    def marine_action_phase(self) -> bool:
        """The Marine command phase is over and their action phase runs (a reaction or sub-decision included)."""
        k = self.state
        return (not self.is_over() and k.phase == "marines"
                and not isinstance(k.decision(), CommandDecision))

    def _follow_timer(self) -> None:
        timer = self.timer
        if timer is None:
            return
        if self.marine_action_phase():
            if self._timer_turn != self.state.turn:
                # The Genestealer player turns the timer as the Marine command phase ends.
                self._timer_turn = self.state.turn
                self._timer_ply = len(self.plies)
                timer.turn()
        elif timer.running:
            timer.stop()

    def turn_timer_again(self) -> bool:
        """Turn the timer over afresh if the Marines have taken no decision since it was turned (hot-seat: the
        Marine player was not yet at the table when their command phase ended); False otherwise."""
        timer = self.timer
        if timer is None or not timer.running or len(self.plies) != self._timer_ply:
            return False
        timer.turn()
        return True

    def timer_check(self) -> list[Event]:
        """When the sand has run out and the action under way is complete, end the Marine action phase."""
        timer = self.timer
        if (timer is None or not timer.run_out() or not self.marine_action_phase()
                or self.state.decision() is not None or self.to_move() != "marines"):
            return []
        return self.apply(PASS, by=TIMER)

    # --- the record ---------------------------------------------------------------------------------------------
    def actions(self) -> list[str]:
        return [p.action for p in self.plies]

    def result(self) -> tuple[str, int, str] | None:
        """(winner, turns, reason) once the game is over, else None."""
        if self.resigned is not None:
            return SIDES[1 - SIDES.index(self.resigned)], self.state.turn, resignation(self.resigned)
        if not self.state.is_terminal():
            return None
        res = self.state.result()
        return res.winner, res.turns, res.reason

    def spec(self) -> BatchSpec:
        """The one-game batch this game is (what `replay` and the lab read)."""
        return BatchSpec(games=1, seed=self.seed, mission=self.mission_path, mission_doc=self.mission_doc,
                         options=dict(self.options), policies=dict(self.seats), keep_actions=True)

    def record(self) -> GameRecord:
        """The game's record (its actions kept, the decisions taken back marked)."""
        spec = self.spec()
        record = finish_record(self.state, 0, self.seed, self.actions(), False, spec.max_actions, True,
                               marine_ids_of(self.game))
        if self.resigned is not None:
            resign(record, self.resigned)
        record.undone = [dict(u) for u in self.undone] if self.undone else None
        return record

    def write_record(self, path: str) -> None:
        """Write the game as a one-game results file (atomically): `hulkforge replay FILE --game 0` reads it."""
        write_played_game(path, self.spec(), self.record())

    # --- the policies' RNGs (a saved game keeps them) -----------------------------------------------------------
    def rng_states(self) -> dict[str, RngState]:
        return {side: self._rngs[side].getstate() for side in self.policies}

    def marks(self) -> dict[int, dict[str, RngState]]:
        return dict(self._marks)

    def restore(self, plies: list[Ply], undone: list[dict[str, Any]], resigned: str | None,
                rngs: Mapping[str, RngState], marks: Mapping[int, Mapping[str, RngState]]) -> None:
        """Put a saved game back: its decisions are replayed from the seed (IllegalActionError when one does not
        apply to this mission any more)."""
        state = self.game.new_state(self.seed)
        for i, p in enumerate(plies):
            if state.current_player() != p.side:
                raise ValueError(f"decision {i}: {p.action!r} is not the {p.side}' to take")
            state.apply(parse_action(p.action))
        self.state, self.plies, self.undone = state, list(plies), [dict(u) for u in undone]
        for side, st in rngs.items():
            if side in self._rngs:
                self._rngs[side].setstate(st)
        self._marks = {int(i): dict(m) for i, m in marks.items()}
        self.resigned = resigned
        self._start_policies()
        self._timer_turn = 0
        self._follow_timer()
