"""A tiny stand-in game with the rules engine's state API, for testing the batch machinery on its own.

Two sides take turns on a 6x4 board; each action is "attack" or "wait", a d6 decides casualties. It is
deterministic given its seed, cheap, and can be told to crash (raise, or kill its process) on one game
index, which is how the tests check that a dying worker never hangs a batch.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

MARINE_IDS = ("m1", "m2", "m3")


@dataclass(frozen=True)
class FakeDeath:
    """Shaped like engine.rules.pieces.Death (the fields statistics read)."""

    id: str
    kind: str
    level: str | None
    x: int | None
    y: int | None
    turn: int


@dataclass(frozen=True)
class FakeModel:
    id: str


@dataclass(frozen=True)
class FakeResult:
    winner: str
    turns: int
    reason: str


class FakeState:
    """State of the fake game, with the rules engine's API (current_player, legal_actions, apply, result)."""

    def __init__(self, seed: int, turn_cap: int, coin: float | None = None) -> None:
        self.rng = random.Random(seed)
        self.coin = coin
        self.turn = 1
        self.player: str | None = "marines"
        self.alive = list(MARINE_IDS)
        self.stealers = 6
        self.turn_cap = turn_cap
        self.deaths: list[FakeDeath] = []
        self.escaped: list[str] = []
        self.traffic: Counter[tuple[str, int, int]] = Counter()
        self._gs_dead = 0
        self.log: list[dict[str, Any]] = []
        self._result: FakeResult | None = None

    def current_player(self) -> str | None:
        return None if self._result else self.player

    def legal_actions(self) -> list[str]:
        return [] if self._result else ["attack", "wait"]

    def traffic_squares(self) -> dict[tuple[str, int, int], int]:
        return dict(sorted(self.traffic.items()))

    def marines(self) -> list[FakeModel]:
        return [FakeModel(m) for m in self.alive]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> FakeResult | None:
        return self._result

    def copy(self) -> FakeState:
        other = FakeState.__new__(FakeState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.alive = list(self.alive)
        other.deaths = list(self.deaths)
        other.escaped = list(self.escaped)
        other.traffic = Counter(self.traffic)
        other.log = list(self.log)
        return other

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r}")
        if self.coin is not None:
            # A coin game: decided by one draw, Marines winning with probability `coin`.
            winner = "marines" if self.rng.random() < self.coin else "genestealers"
            self._result = FakeResult(winner, self.turn, "coin")
            return
        die = self.rng.randint(1, 6)
        x, y = die % 6, self.turn % 4
        effects = ""
        if action == "attack" and self.player == "marines" and die >= 4:
            self.stealers -= 1
            self._gs_dead += 1
            self.deaths.append(FakeDeath(f"g{self._gs_dead}", "stealer", "L0", x, y, self.turn))
            effects = "a Genestealer dies"
        elif action == "attack" and self.player == "genestealers" and die >= 5 and self.alive:
            dead = self.alive.pop(0)
            self.deaths.append(FakeDeath(dead, "marine", "L0", x, y, self.turn))
            effects = f"{dead} dies"
        if self.player == "genestealers":
            self.traffic[("L0", x, (y + 1) % 4)] += 1
        self.log.append({"turn": self.turn, "player": self.player, "action": action, "dice": [die],
                         "effects": effects})
        if self.player == "genestealers":
            self.turn += 1
        self.player = "genestealers" if self.player == "marines" else "marines"
        if not self.alive:
            self._result = FakeResult("genestealers", self.turn, "all Marines dead")
        elif self.stealers <= 0:
            self._result = FakeResult("marines", self.turn, "all Genestealers dead")
        elif self.turn > self.turn_cap:
            self.escaped.append(self.alive[0])
            self._result = FakeResult("draw", self.turn_cap, "turn cap")


class FakeGame:
    """Builds fake states; `crash_index`/`crash_mode` make one game fail on purpose."""

    marine_ids = MARINE_IDS

    def __init__(
        self,
        turn_cap: int = 12,
        crash_index: int | None = None,
        crash_mode: str = "raise",
        win_curve: list[float] | None = None,
        curve_param: str = "reinforcements.per_turn",
        settings: dict[str, Any] | None = None,
        win_logit: dict[str, Any] | None = None,
    ) -> None:
        self.turn_cap = turn_cap
        self.crash_index = crash_index
        self.crash_mode = crash_mode
        # With a win curve, every game is a coin whose chance of a Marine win is the curve at the value of
        # `curve_param` in the batch's settings (linear between the curve's points): a stand-in mission whose
        # win rate is a known function of a parameter, for testing a tune.
        self.coin: float | None = None
        if win_curve is not None:
            x = float((settings or {}).get(curve_param, 0))
            i = min(max(int(x), 0), len(win_curve) - 1)
            j = min(i + 1, len(win_curve) - 1)
            self.coin = win_curve[i] + (win_curve[j] - win_curve[i]) * min(max(x - i, 0.0), 1.0)
        # With a logit surface {"bias": b, "weights": {name: w}, "at": {name: x0}}, the chance of a Marine win is
        # 1 / (1 + exp(-(b + sum of w * (x - x0)))) with x each setting's value (x0 when the batch does not set
        # it): a stand-in mission whose win rate is a known function of several knobs.
        if win_logit is not None:
            at = win_logit.get("at", {})
            z = float(win_logit.get("bias", 0.0)) + sum(
                float(w) * (float((settings or {}).get(name, at.get(name, 0))) - float(at.get(name, 0)))
                for name, w in win_logit.get("weights", {}).items())
            self.coin = 1.0 / (1.0 + math.exp(-z))

    def new_state(self, seed: int) -> FakeState:
        return FakeState(seed, self.turn_cap, self.coin)

    def check_crash(self, index: int) -> None:
        """Fail on purpose in the configured game: raise, end the process like a segfault would, or hang."""
        if index != self.crash_index:
            return
        if self.crash_mode == "exit":
            os._exit(3)
        if self.crash_mode == "hang":
            time.sleep(3600)
        raise RuntimeError(f"fake game {index} crashed on purpose")
