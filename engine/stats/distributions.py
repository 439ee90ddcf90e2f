"""Distributions from histograms (kept as counters so a batch of any size aggregates in constant memory)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt


def histogram_mean(hist: Mapping[int, int]) -> float:
    """Mean of the values counted in `hist`; 0 when empty."""
    n = sum(hist.values())
    return sum(v * c for v, c in hist.items()) / n if n else 0.0


def histogram_median(hist: Mapping[int, int]) -> float:
    """Median of the values counted in `hist` (the mean of the two middle values when their count is even)."""
    n = sum(hist.values())
    if n == 0:
        return 0.0
    lo_rank, hi_rank = (n - 1) // 2, n // 2
    lo = hi = None
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if lo is None and seen > lo_rank:
            lo = value
        if seen > hi_rank:
            hi = value
            break
    assert lo is not None and hi is not None
    return (lo + hi) / 2


def length_distribution(hist: Mapping[int, int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """(turns, fraction of games that lasted exactly that many turns), turns from 0 to the longest game."""
    if not hist:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    turns = np.arange(0, max(hist) + 1, dtype=np.int64)
    counts = np.array([hist.get(int(t), 0) for t in turns], dtype=np.float64)
    return turns, counts / counts.sum()


def survival_curve(
    died_turns: Mapping[int, int], population: int, last_turn: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """(turns 0..last_turn, fraction of `population` still alive at the end of each turn).

    `died_turns` counts deaths by turn over all Marines of all games; `population` is Marines x games.
    """
    turns = np.arange(0, max(last_turn, max(died_turns, default=0)) + 1, dtype=np.int64)
    if population <= 0:
        return turns, np.ones(len(turns))
    deaths = np.array([died_turns.get(int(t), 0) for t in turns], dtype=np.float64)
    return turns, 1.0 - np.cumsum(deaths) / population
