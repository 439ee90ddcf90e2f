"""Dice: every roll in a game comes from one injected random.Random and is recorded for the event log."""

from __future__ import annotations

import random
from collections.abc import Iterable


class Dice:
    """Six-sided dice drawn from an injected RNG; rolls are kept until take() so each event can log its dice."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._pending: list[int] = []

    def d6(self) -> int:
        """One die."""
        value = self.rng.randint(1, 6)
        self._pending.append(value)
        return value

    def roll(self, n: int) -> tuple[int, ...]:
        """n dice, in the order rolled."""
        return tuple(self.d6() for _ in range(n))

    def copy(self) -> Dice:
        """Dice in the same state (the same rolls to come), independent of these."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new._pending = list(self._pending)
        return new

    def take(self) -> tuple[int, ...]:
        """The dice rolled since the last take(), oldest first; clears them."""
        if not self._pending:
            return ()  # most actions roll nothing
        out = tuple(self._pending)
        self._pending.clear()
        return out


class ScriptedDice(Dice):
    """Dice that return a fixed sequence: for rulebook scenarios and replays. Runs out loudly."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(random.Random(0))
        self._script = list(values)
        self._next = 0

    def d6(self) -> int:
        if self._next >= len(self._script):
            raise IndexError(f"scripted dice ran out after {len(self._script)} rolls")
        value = self._script[self._next]
        self._next += 1
        self._pending.append(value)
        return value

    def copy(self) -> ScriptedDice:
        new = super().copy()
        assert isinstance(new, ScriptedDice)
        new._script = list(self._script)
        return new

    @property
    def remaining(self) -> int:
        return len(self._script) - self._next
