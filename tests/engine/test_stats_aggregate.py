"""BatchStats, distributions, heatmaps and sweep curves on hand-made records."""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest

from engine.sim.record import GameRecord
from engine.stats import (
    BatchStats,
    batch_heatmaps,
    compare_on_shared_seeds,
    histogram_mean,
    histogram_median,
    length_distribution,
    marine_survival_curve,
    sweep_curve,
    wilson,
)


def rec(index: int, winner: str | None, turns: int, died: dict[str, int | None] | None = None,
        mdeaths: list[list[object]] | None = None, traffic: list[list[object]] | None = None) -> GameRecord:
    fates = {m: {"died_turn": t, "escaped": False} for m, t in (died or {"m1": None, "m2": None}).items()}
    lost = sum(1 for f in fates.values() if f["died_turn"] is not None)
    return GameRecord(index=index, seed=index, winner=winner, turns=turns, reason="test",
                      casualties={"marines": lost, "genestealers": 2}, marines=fates,
                      marine_deaths=mdeaths or [], genestealer_traffic=traffic or [])


def test_rates_intervals_and_turns() -> None:
    s = BatchStats()
    s.add(rec(0, "marines", 5))
    s.add(rec(1, "genestealers", 7, {"m1": 3, "m2": 6}, [["L0", 1, 2, 2]]))
    s.add(rec(2, "genestealers", 9, {"m1": 9, "m2": None}, [["L0", 1, 2, 1], ["L1", 0, 0, 1]]))
    s.add(rec(3, "draw", 10))
    s.add(GameRecord.failed(4, 4, "worker died"))
    out = s.summary()
    assert (out["games"], out["failed_games"]) == (4, 1)
    assert (out["marine_wins"], out["genestealer_wins"], out["draws"]) == (1, 2, 1)
    assert out["marine_win_rate"] == 0.25
    assert out["marine_win_ci95"] == list(wilson(1, 4))
    assert out["mean_turns"] == pytest.approx(7.75)
    assert out["median_turns"] == 8.0
    assert out["mean_casualties"]["marines"] == pytest.approx(3 / 4)
    assert out["marine_survival"]["m1"]["survived"] == 2
    assert out["marine_survival"]["m2"]["rate"] == 0.75
    assert s.square_rows("marine_deaths") == [["L0", 1, 2, 3], ["L1", 0, 0, 1]]
    assert out["errors"] == {"worker died": 1}


def test_totals_do_not_depend_on_arrival_order() -> None:
    records = [rec(i, random.Random(i).choice(["marines", "genestealers", "draw"]), 3 + i % 5,
                   traffic=[["L0", i % 3, 0, 1 + i % 2]]) for i in range(50)]
    a, b = BatchStats(), BatchStats()
    for r in records:
        a.add(r)
    shuffled = records[:]
    random.Random(1).shuffle(shuffled)
    for r in shuffled:
        b.add(r)
    assert a.summary() == b.summary()
    assert a.squares == b.squares and a.outcomes == b.outcomes


def test_histogram_statistics() -> None:
    assert histogram_median({1: 1, 2: 1, 10: 1}) == 2
    assert histogram_median({1: 2, 3: 2}) == 2.0
    assert histogram_median({}) == 0.0
    assert histogram_mean({2: 3, 4: 1}) == 2.5
    turns, frac = length_distribution({2: 1, 4: 3})
    assert turns.tolist() == [0, 1, 2, 3, 4]
    assert frac.tolist() == [0, 0, 0.25, 0, 0.75]


def test_survival_curve_counts_every_marine_of_every_game() -> None:
    s = BatchStats()
    s.add(rec(0, "genestealers", 4, {"m1": 1, "m2": 3}))
    s.add(rec(1, "marines", 4, {"m1": None, "m2": 3}))
    turns, alive = marine_survival_curve(s)
    assert turns.tolist() == [0, 1, 2, 3, 4]
    assert alive.tolist() == [1.0, 0.75, 0.75, 0.25, 0.25]


def test_heatmaps_have_the_shape_of_each_level_and_drop_stray_squares() -> None:
    s = BatchStats()
    s.add(rec(0, "genestealers", 4, mdeaths=[["A", 2, 1, 3], ["B", 0, 0, 1], ["A", 99, 0, 5], ["Z", 0, 0, 1]]))
    s.add(rec(1, "genestealers", 4, mdeaths=[["A", 2, 1, 1]]))
    mission = SimpleNamespace(levels=[SimpleNamespace(id="A", height=2, width=4),
                                      SimpleNamespace(id="B", height=1, width=1)])
    maps = batch_heatmaps(s, mission)
    assert set(maps) == {"marine_deaths", "genestealer_deaths", "genestealer_traffic"}
    a = maps["marine_deaths"]["A"]
    assert a.shape == (2, 4)
    assert a[1, 2] == 2.0  # 4 deaths over 2 games
    assert a.sum() == 2.0
    assert maps["marine_deaths"]["B"][0, 0] == 0.5
    assert np.all(maps["genestealer_traffic"]["A"] == 0)


def test_sweep_curve_and_paired_comparison_on_shared_seeds() -> None:
    base, better = BatchStats(), BatchStats()
    for i in range(100):
        base.add(rec(i, "marines" if i < 30 else "genestealers", 5))
        better.add(rec(i, "marines" if i < 45 else "genestealers", 5))
    curve = sweep_curve([1, 2], [base, better], "marines")
    assert curve.rate.tolist() == [0.3, 0.45]
    assert np.all(curve.low < curve.rate) and np.all(curve.rate < curve.high)
    d, lo, hi = compare_on_shared_seeds(better, base)
    assert d == pytest.approx(0.15)
    assert 0 < lo < d < hi
