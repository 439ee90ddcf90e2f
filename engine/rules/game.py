"""Game (per-mission tables shared by every game on a mission), and the entry points to a game in progress:
Game.new_state, GameState (state.py) and replay. See engine/rules/README.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from engine.mission.model import Mission
from engine.rules.actions import Action, act, move_actions, parse_action
from engine.rules.board import FACE_NAMES, Board
from engine.rules.dice import Dice
from engine.rules.features import Features, draw_features
from engine.rules.kernel import BLIP_AP, BLIP_POOL_VALUES, MARINE_AP, STEALER_AP, G, M, Player, base_step_cost
from engine.rules.options import resolve_options, rule_options
from engine.rules.pieces import IllegalActionError
from engine.rules.state import GameState
from engine.rules.verbs import VERBS
from engine.rules.victory import victory_plan

__all__ = [
    "BLIP_AP", "BLIP_POOL_VALUES", "MARINE_AP", "STEALER_AP", "G", "Game", "GameState", "IllegalActionError", "M",
    "Player", "replay",
]


_KIND_INDEX = {"marine": 0, "stealer": 1, "blip": 2}
_ORDERS = tuple(v.name for v in VERBS if v.order)  # the one-argument orders, interned per piece


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
        # Marine id -> the squares of the deployment area he is listed in (set up there by the Marine player).
        self.deploy_areas: dict[str, tuple[int, ...]] = {}
        for area in mission.deployment_areas:
            squares = tuple(self.board.sq_of(area.level, x, y) for x, y in area.squares)
            for m in mission.marines.squad:
                if m.level == area.level and (m.x, m.y) in area.squares and m.id not in self.deploy_areas:
                    self.deploy_areas[m.id] = squares
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
        nb: tuple[Any, ...] = self.board.nbr[s]  # (Any: compiled, the steps keep the Board's ints)
        for d, t in enumerate(nb):
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



def replay(game: Game, seed: int, actions: Iterable[Action | str]) -> GameState:
    """Re-apply a game's actions from its seed; gives the same final state."""
    s = game.new_state(seed)
    for a in actions:
        s.apply(a if isinstance(a, Action) else parse_action(a))
    return s
