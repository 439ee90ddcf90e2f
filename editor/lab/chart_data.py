"""The numbers behind each chart, computed from engine statistics with numpy; the charts only draw them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.stats import BatchStats, marine_survival_curve, wilson

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

OUTCOME_LABELS: tuple[tuple[str, str], ...] = (
    ("marines", "Marines win"), ("draw", "Draw"), ("genestealers", "Genestealers win"))
MAX_CURVE_POINTS = 400


@dataclass
class Rates:
    """Rates with Wilson 95% bounds, one per label, and the counts they come from."""

    labels: list[str]
    counts: Ints
    trials: Ints
    rate: Floats
    low: Floats
    high: Floats


def rates(labels: Sequence[str], counts: Sequence[int], trials: Sequence[int]) -> Rates:
    """Rates k/n with their Wilson intervals."""
    bounds = [wilson(int(k), int(n)) for k, n in zip(counts, trials, strict=True)]
    c = np.array(counts, dtype=np.int64)
    t = np.array(trials, dtype=np.int64)
    return Rates(list(labels), c, t, np.divide(c, t, out=np.zeros(len(c)), where=t > 0),
                 np.array([b[0] for b in bounds]), np.array([b[1] for b in bounds]))


def outcome_rates(stats: BatchStats) -> Rates:
    """Win / draw / loss of the batch."""
    return rates([label for _, label in OUTCOME_LABELS], [stats.wins[k] for k, _ in OUTCOME_LABELS],
                 [stats.games] * len(OUTCOME_LABELS))


def convergence(marine_wins: Sequence[int]) -> tuple[Ints, Floats, Floats, Floats]:
    """(games played, Marine win rate, Wilson low, high) after each game, thinned to a few hundred points."""
    n = len(marine_wins)
    if n == 0:
        empty = np.zeros(0)
        return np.zeros(0, dtype=np.int64), empty, empty, empty
    idx = np.unique(np.linspace(0, n - 1, min(n, MAX_CURVE_POINTS)).round().astype(np.int64))
    games = idx + 1
    wins = np.asarray(marine_wins, dtype=np.int64)[idx]
    bounds = [wilson(int(k), int(g)) for k, g in zip(wins, games, strict=True)]
    return (games, wins / games, np.array([b[0] for b in bounds]), np.array([b[1] for b in bounds]))


def histogram(counter: Mapping[int, int]) -> tuple[Ints, Ints]:
    """(values 0..max, games with that value) from a counter."""
    if not counter:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    values = np.arange(0, max(counter) + 1, dtype=np.int64)
    return values, np.array([counter.get(int(v), 0) for v in values], dtype=np.int64)


def length_histogram(stats: BatchStats) -> tuple[Ints, Ints]:
    """(turns, games that lasted that many turns)."""
    return histogram(stats.turns)


def survival(stats: BatchStats) -> tuple[Ints, Floats]:
    """(turn, fraction of all Marines still alive at its end)."""
    turns, alive = marine_survival_curve(stats)
    return np.asarray(turns, dtype=np.int64), np.asarray(alive, dtype=np.float64)


def casualties(stats: BatchStats) -> dict[str, tuple[Ints, Ints]]:
    """Per side: (models lost in a game, games with that many losses)."""
    return {side: histogram(stats.casualties[side]) for side in ("marines", "genestealers")}


def marine_survival(stats: BatchStats) -> Rates:
    """Per Marine (squad order as first seen): how often it was alive at the end, with its interval."""
    ids = list(stats.marines)
    return rates(ids, [stats.marines[m].survived for m in ids], [stats.marines[m].games for m in ids])
