"""The skill curve of the strength check: tiers as data, skipped when unregistered, and its verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine.ai.base as registry
from engine.ai.base import make_policy, policy_names, register
from engine.cli import main
from engine.resources import mission_path
from engine.sim.spec import BatchSpec
from engine.tune.strength import Cell, StrengthReport, level_policy, strength_check
from engine.tune.tiers import TIERS, parse_tiers, playable, search_tier

SEARCH = ("search-marines", "search-genestealers")


def tier_cell(tier: str, outcomes: list[bool]) -> Cell:
    return Cell(tier, tier, ["marines" if w else "genestealers" for w in outcomes])


def curve_report(*cells: Cell) -> StrengthReport:
    return StrengthReport([c.marines for c in cells], {(c.marines, c.marines): c for c in cells})


def test_the_verdict_reads_the_two_strongest_tiers_paired_by_seed() -> None:
    base = [i % 2 == 0 for i in range(400)]  # 50% on 400 seeds
    novice = tier_cell("novice", [True] * 400)
    same = curve_report(novice, tier_cell("heuristic", base), tier_cell("search", base))
    v = same.curve_verdict()
    assert v is not None and (v.strongest, v.below) == ("search", "heuristic")
    assert v.status == "converged" and "CONVERGED" in same.verdict()
    # 30 more Marine wins on the same seeds: +7.5 points, the whole interval above 0.
    more = [w or i in range(1, 61, 2) for i, w in enumerate(base)]
    rising = curve_report(novice, tier_cell("heuristic", base), tier_cell("search", more))
    assert rising.curve_verdict().status == "rising"  # type: ignore[union-attr]
    assert "MARINE WIN RATE STILL RISING WITH SKILL" in rising.verdict()
    falling = curve_report(novice, tier_cell("heuristic", more), tier_cell("search", base))
    assert "MARINE WIN RATE STILL FALLING WITH SKILL" in falling.verdict()
    # The same 2-point gap on 100 seeds holds 0 but reaches past ±5: not converged, not moving either.
    few = [i % 2 == 0 for i in range(100)]
    unsettled = curve_report(tier_cell("heuristic", few), tier_cell("search", [w or i in (1, 3) for i, w in
                                                                                enumerate(few)]))
    assert unsettled.curve_verdict().status == "unsettled"  # type: ignore[union-attr]
    # The tuned players are not a rung of the curve, and one tier gives no verdict.
    alone = curve_report(tier_cell("heuristic", base), tier_cell("tuned", base))
    assert [c.marines for c in alone.curve()] == ["heuristic"] and alone.curve_verdict() is None


def test_tiers_are_data_and_a_tier_whose_players_are_not_registered_is_skipped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    policy_names()  # the registry is loaded: removing an entry now is not undone by a later load
    for name in SEARCH:
        monkeypatch.delitem(registry._REGISTRY, name, raising=False)
    tiers = parse_tiers("random,heuristic,search,search:16")
    assert [t.name for t in tiers] == ["random", "heuristic", "search", "search:16"]
    assert level_policy("search:16", "genestealers", {}, tiers) == ("search-genestealers", {"games": 16.0})
    kept, notes = playable(tiers)
    assert [t.name for t in kept] == ["random", "heuristic"]
    assert notes == [f"tier {n} skipped: search-marines, search-genestealers not registered in this build"
                     for n in ("search", "search:16")]
    for bad, why in (("heuristic,expert", "unknown tier 'expert'"), ("search:0", "budget"),
                     ("novice,novice", "given twice")):
        with pytest.raises(ValueError, match=why):
            parse_tiers(bad)
    assert [t.name for t in TIERS] == ["random", "novice", "heuristic", "search"]


def test_the_command_prints_and_writes_the_curve_and_notes_the_tiers_it_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    policy_names()
    for name in SEARCH:
        monkeypatch.delitem(registry._REGISTRY, name, raising=False)
    out = tmp_path / "strength.json"
    code = main(["simulate", "tutorial", "--strength-check", "--diagonal", "--games", "12", "--workers", "1",
                 "--tiers", "random,novice,heuristic,search", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "skill curve (equal strength on both sides" in text
    assert "(tier search skipped: search-marines, search-genestealers not registered in this build)" in text
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [p["tier"] for p in doc["curve"]] == ["random", "novice", "heuristic"]
    assert doc["curve"][1]["players"] == {"marines": "novice-marines", "genestealers": "novice-genestealers"}
    assert doc["curve_verdict"]["strongest"] == "heuristic" and doc["curve_verdict"]["below"] == "novice"
    assert doc["curve_verdict"]["headline"] in text
    assert doc["skipped_tiers"] == ["tier search skipped: search-marines, search-genestealers not registered in "
                                    "this build"]
    assert main(["simulate", "tutorial", "--strength-check", "--tiers", "heuristic,wizard"]) == 2
    assert "--tiers: unknown tier 'wizard'" in capsys.readouterr().err


BUDGETS: list[float] = []


def _look_ahead_double(side: str) -> Any:
    def factory(params: dict[str, float]) -> Any:
        BUDGETS.append(params["games"])
        return make_policy(f"heuristic-{side}")  # plays exactly as the heuristic tier: the same games
    return factory


def test_a_registered_look_ahead_tier_is_played_over_dask_with_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    policy_names()
    for side, name in zip(("marines", "genestealers"), SEARCH, strict=True):
        monkeypatch.setitem(registry._REGISTRY, name, registry.PolicyInfo(
            name, _look_ahead_double(side), side, {"games": 8.0}, "test double"))
    BUDGETS.clear()
    base = BatchSpec(games=12, seed=4, mission=mission_path("tutorial"))
    # In-process workers (processes=False) see the double this test registered.
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        report = strength_check(base, matrix=False, tiers=parse_tiers("heuristic,search:4"), backend="dask",
                                scheduler=cluster.scheduler_address)
    assert [c.marines for c in report.curve()] == ["heuristic", "search:4"]
    heuristic, search = report.curve()
    assert search.games == 12 and search.winners == heuristic.winners
    assert BUDGETS and set(BUDGETS) == {4.0}
    v = report.curve_verdict()
    assert v is not None and v.diff[0] == 0 and v.strongest == "search:4"
    assert search_tier(4).player("marines") == ("search-marines", {"games": 4.0})


def test_register_is_the_public_way_to_add_a_player() -> None:
    # The double above goes through the registry's own entry type; register() builds the same.
    register("test-double-either", lambda p: make_policy("random"), description="test double")
    try:
        assert "test-double-either" in policy_names()
    finally:
        registry._REGISTRY.pop("test-double-either")
