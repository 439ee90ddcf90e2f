"""tune on a stand-in mission whose Marine win rate is a known function of the parameter (the fake coin game)."""

from __future__ import annotations

import threading

import pytest

from engine.sim.spec import BatchSpec
from engine.tune.result import BUDGET, CANCELLED, HIT, OUT_OF_REACH
from engine.tune.search import tune
from engine.tune.space import TunedParam, parse_param

# Marine win rate by reinforcements.per_turn = 0..8: falls as more Genestealers come.
CURVE = [0.95, 0.9, 0.82, 0.72, 0.62, 0.5, 0.38, 0.2, 0.1]


def coin_spec(seed: int = 1, curve: list[float] | None = None) -> BatchSpec:
    return BatchSpec(games=0, seed=seed, runner="fake",
                     runner_args={"win_curve": curve or CURVE, "curve_param": "reinforcements.per_turn"})


PER_TURN = TunedParam("reinforcements.per_turn", 0, 8)


def test_one_integer_parameter_finds_the_value_whose_rate_is_in_the_band() -> None:
    r = tune(coin_spec(), [PER_TURN], target=0.5, tolerance=0.03, workers=1)
    assert r.status == HIT, r.message
    assert r.values() == {"reinforcements.per_turn": 5}  # 50%: the only value within 50 ± 3
    assert r.best is not None and 0.47 <= r.best.low and r.best.high <= 0.53
    # The values far from the target were dropped after their first hundred games.
    far = [s for s in r.steps if s.point in ((0.0,), (8.0,))]
    assert all(s.games == 100 for s in far)
    assert r.spent == sum(max(s.games for s in r.steps if s.point == p) for p in {s.point for s in r.steps})


def test_the_same_seed_gives_the_same_path_and_another_seed_other_games() -> None:
    a = tune(coin_spec(seed=5), [PER_TURN], target=0.5, tolerance=0.03, workers=2)
    b = tune(coin_spec(seed=5), [PER_TURN], target=0.5, tolerance=0.03, workers=1)
    c = tune(coin_spec(seed=6), [PER_TURN], target=0.5, tolerance=0.03, workers=1)
    assert a.steps == b.steps
    assert [s.rate for s in c.steps] != [s.rate for s in a.steps]


def test_a_real_parameter_converges_to_the_root_of_the_curve() -> None:
    # On reinforcements.scale the coin is the curve interpolated linearly: 0.62 at 4, 0.5 at 5, so 60% is
    # reached at 4 + 2/12 = 4.167.
    scale = TunedParam("reinforcements.scale", 0.0, 8.0, integer=False)
    spec = BatchSpec(games=0, seed=2, runner="fake",
                     runner_args={"win_curve": CURVE, "curve_param": "reinforcements.scale"})
    r = tune(spec, [scale], target=0.6, tolerance=0.03, workers=1)
    assert r.status == HIT, r.message
    x = r.values()["reinforcements.scale"]
    assert 4.167 - 0.3 < x < 4.167 + 0.3  # ±3% of win rate is ±0.25 of the parameter here


def test_a_target_outside_the_range_is_reported_out_of_reach_after_the_two_ends() -> None:
    r = tune(coin_spec(), [TunedParam("reinforcements.per_turn", 0, 3)], target=0.5, workers=1)
    assert r.status == OUT_OF_REACH
    assert "above it at both ends" in r.message
    assert {s.point for s in r.steps} == {(0.0,), (3.0,)}


def test_a_target_between_two_integers_is_out_of_reach_with_both_neighbours_named() -> None:
    curve = [0.9, 0.8, 0.6, 0.4, 0.2]  # 50% falls between 2 and 3
    r = tune(coin_spec(curve=curve), [TunedParam("reinforcements.per_turn", 0, 4)], target=0.5, workers=1)
    assert r.status == OUT_OF_REACH
    assert "between 2 (" in r.message and "and 3 (" in r.message


def test_the_budget_stops_the_tune_with_the_closest_value() -> None:
    r = tune(coin_spec(), [PER_TURN], target=0.5, tolerance=0.03, budget=350, workers=1)
    assert r.status == BUDGET
    assert r.spent == 350
    assert "closest so far" in r.message


def test_cancel_stops_at_once() -> None:
    cancel = threading.Event()
    cancel.set()
    r = tune(coin_spec(), [PER_TURN], target=0.5, cancel=cancel, workers=1)
    assert r.status == CANCELLED


def test_two_parameters_search_with_optuna_and_hit() -> None:
    # The coin reads per_turn only: the second parameter is noise the search must not be confused by.
    params = [PER_TURN, TunedParam("genestealers.starting_blips", 0, 3)]
    a = tune(coin_spec(), params, target=0.5, tolerance=0.03, workers=1)
    assert a.status == HIT, a.message
    assert a.values()["reinforcements.per_turn"] == 5
    b = tune(coin_spec(), params, target=0.5, tolerance=0.03, workers=1)
    assert a.steps == b.steps


@pytest.mark.parametrize(("text", "message"), [
    ("nope", "cannot tune 'nope'"),
    ("reinforcements.per_turn=3..1", "from a lower to a higher"),
    ("reinforcements.per_turn=0.5..2", "whole numbers"),
    ("reinforcements.per_turn=0..500", "outside what it accepts"),
    ("reinforcements.per_turn=1-4", "expected a range"),
])
def test_bad_parameters_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_param(text)


def test_a_parameter_without_range_gets_its_default_range() -> None:
    assert parse_param("reinforcements.per_turn") == TunedParam("reinforcements.per_turn", 0, 6)
    assert parse_param("turn_cap=5..20") == TunedParam("turn_cap", 5, 20)


def test_shared_seeds_narrow_what_a_new_point_may_be_through_a_known_one() -> None:
    from engine.stats.intervals import wilson
    from engine.tune.evaluate import Evaluator
    from engine.tune.search import Z_TURN, Tuner

    ev = Evaluator(coin_spec(), [PER_TURN], budget=10_000, workers=1)
    try:
        ev.ensure((5.0,), 1600)  # 50%: played deep
        new = ev.ensure((4.0,), 100)  # 62%: the same coins, so the two differ only where 0.5 <= u < 0.62
        tuner = Tuner(ev, 0.5, 0.02, seed=1)
        lo, hi = tuner.reach(new)
        own_lo, own_hi = wilson(new.wins, new.games, Z_TURN)  # what the point alone says, at the same 99%
        assert hi - lo < 0.75 * (own_hi - own_lo)
        assert lo <= 0.62 <= hi
    finally:
        ev.close()


def test_dask_gives_the_same_path_as_the_local_pool() -> None:
    pytest.importorskip("distributed")
    few = TunedParam("reinforcements.per_turn", 0, 3)
    local = tune(coin_spec(), [few], target=0.5, workers=1)
    dask = tune(coin_spec(), [few], target=0.5, workers=1, backend="dask")
    assert dask.status == local.status == OUT_OF_REACH
    assert dask.steps == local.steps


def test_a_cancel_midway_keeps_each_point_a_prefix_of_game_indices() -> None:
    from engine.tune.evaluate import Evaluator, TuneStopped

    cancel = threading.Event()
    seen = []

    def count(n: int) -> None:
        seen.append(n)
        if len(seen) == 150:
            cancel.set()

    ev = Evaluator(coin_spec(), [PER_TURN], budget=10_000, workers=2, cancel=cancel, on_games=count)
    try:
        ev.ensure((5.0,), 100)
        with pytest.raises(TuneStopped, match="cancelled"):
            ev.ensure((5.0,), 400)
        d = ev.data((5.0,))
        assert 100 <= d.played < 400
        assert 0 not in d.outcomes  # every kept index has its game (the coin game never fails)
        assert ev.spent >= d.played
    finally:
        ev.close()


def test_a_point_that_plays_like_a_deep_one_off_the_middle_is_set_aside_early() -> None:
    from engine.tune.evaluate import Evaluator
    from engine.tune.search import PURSUE_GAMES, Tuner

    # Every value of the cap plays about 45%: the coins differ only on the few seeds with 0.45 <= u < 0.455.
    cap = TunedParam("genestealers.model_cap", 0, 11)
    spec = BatchSpec(games=0, seed=1, runner="fake",
                     runner_args={"win_curve": [0.45] * 6 + [0.455] * 6, "curve_param": "genestealers.model_cap"})
    ev = Evaluator(spec, [cap], budget=10_000, workers=1)
    try:
        deep = ev.ensure((11.0,), PURSUE_GAMES)
        assert abs(deep.rate - 0.5) > 0.01  # off the middle of 50 ± 2, not out of the band
        s = Tuner(ev, 0.5, 0.02, seed=1).settle((5.0,))
        assert s.games == 400  # a look of 1,600 games would have been spent without the shared-seed estimate
    finally:
        ev.close()
