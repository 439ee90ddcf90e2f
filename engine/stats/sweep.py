"""Sweep curves: a win rate and its interval for each value of one swept parameter."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.stats.aggregate import BatchStats
from engine.stats.intervals import paired_diff


@dataclass
class SweepCurve:
    """Arrays aligned with `values`: the rate of `outcome` and its Wilson 95% bounds."""

    values: list[Any]
    outcome: str
    rate: npt.NDArray[np.float64]
    low: npt.NDArray[np.float64]
    high: npt.NDArray[np.float64]
    games: npt.NDArray[np.int64]


def sweep_curve(values: Sequence[Any], batches: Sequence[BatchStats], outcome: str = "marines") -> SweepCurve:
    """The curve of one outcome over the swept values."""
    intervals = [b.interval(outcome) for b in batches]
    return SweepCurve(
        values=list(values),
        outcome=outcome,
        rate=np.array([b.rate(outcome) for b in batches], dtype=np.float64),
        low=np.array([i[0] for i in intervals], dtype=np.float64),
        high=np.array([i[1] for i in intervals], dtype=np.float64),
        games=np.array([b.games for b in batches], dtype=np.int64),
    )


def compare_on_shared_seeds(
    a: BatchStats, b: BatchStats, outcome: str = "marines"
) -> tuple[float, float, float]:
    """Rate(a) - rate(b) with a paired 95% interval, over the game indexes both batches played."""
    wa, wb = a.won(outcome), b.won(outcome)
    pairs = [(x, y) for x, y in zip(wa, wb, strict=False) if x is not None and y is not None]
    return paired_diff([bool(p[0]) for p in pairs], [bool(p[1]) for p in pairs])
