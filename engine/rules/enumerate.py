"""Exact outcome distributions: run any dice-driven resolution function under dice that try every face."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import cache
from typing import TypeVar

from engine.rules.dice import Dice

T = TypeVar("T", bound=Hashable)

_UNUSED_RNG = random.Random(0)  # Dice wants an RNG; EnumDice never draws from it


class _NeedDice(BaseException):
    """The run asked for dice beyond the current prefix. A BaseException so that no `except Exception` in
    the rules code can swallow it."""

    def __init__(self, n: int, together: bool) -> None:
        super().__init__(n)
        self.n = n
        self.together = together


@cache
def _multisets(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Sorted n-dice outcomes with how many ordered rolls give each."""
    out = []
    for combo in itertools.combinations_with_replacement(range(1, 7), n):
        ways = math.factorial(n)
        for k in Counter(combo).values():
            ways //= math.factorial(k)
        out.append((combo, ways))
    return tuple(out)


class EnumDice(Dice):
    """Dice that replay a prefix of outcomes, one per d6() or roll() call, then stop the run to branch."""

    def __init__(self, prefix: tuple[tuple[int, ...], ...], *, symmetric: bool) -> None:
        super().__init__(_UNUSED_RNG)
        self._prefix = prefix
        self._next = 0
        self._symmetric = symmetric

    def _take(self, n: int, together: bool) -> tuple[int, ...]:
        if self._next >= len(self._prefix):
            raise _NeedDice(n, together)
        values = self._prefix[self._next]
        self._next += 1
        self._pending.extend(values)
        return values

    def d6(self) -> int:
        return self._take(1, False)[0]

    def roll(self, n: int) -> tuple[int, ...]:
        return self._take(n, self._symmetric and n > 1)


def distribution_counts(
    fn: Callable[[Dice], T], *, symmetric: bool = False, max_dice: int = 12
) -> tuple[dict[T, int], int]:
    """Every result of fn(dice) with its count of equally likely outcomes out of 6^depth: (counts, depth).

    A depth-first search over the dice fn asks for; fn must be deterministic given its dice, and is re-run
    once per node of the tree of rolls. With symmetric=True a roll(n) call yields its dice sorted, each
    multiset weighted by the orders that give it: valid only when fn never cares about the order within
    one roll() call (close assault: the best, worst or any die), and much faster.
    """
    found: dict[T, dict[int, int]] = {}
    stack: list[tuple[tuple[tuple[int, ...], ...], int, int]] = [((), 1, 0)]  # prefix, ordered ways, dice
    while stack:
        prefix, ways, used = stack.pop()
        try:
            result = fn(EnumDice(prefix, symmetric=symmetric))
        except _NeedDice as need:
            if used + need.n > max_dice:
                raise ValueError(f"more than {max_dice} dice: enumeration refused") from None
            if need.together:
                stack.extend(((*prefix, c), ways * w, used + need.n) for c, w in _multisets(need.n))
            else:
                stack.extend(((*prefix, c), ways, used + need.n)
                             for c in itertools.product(range(1, 7), repeat=need.n))
            continue
        by_depth = found.setdefault(result, {})
        by_depth[used] = by_depth.get(used, 0) + ways
    deepest = max((d for by_depth in found.values() for d in by_depth), default=0)
    counts = {r: sum(n * 6 ** (deepest - d) for d, n in by_depth.items()) for r, by_depth in found.items()}
    return counts, deepest


def distribution(fn: Callable[[Dice], T], *, symmetric: bool = False, max_dice: int = 12) -> dict[T, Fraction]:
    """Every result of fn(dice) with its exact probability (see distribution_counts)."""
    counts, depth = distribution_counts(fn, symmetric=symmetric, max_dice=max_dice)
    return {r: Fraction(n, 6**depth) for r, n in counts.items()}
