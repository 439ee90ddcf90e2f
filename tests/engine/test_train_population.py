"""train --against: a population of opponents, and the gate that keeps a trained side within 3 points of the
defaults against every one of them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine.ai.base as registry
from engine.ai.base import policy_names
from engine.ai.weights import SEARCH_RANGES, MarineWeights, defaults
from engine.cli import main
from engine.sim.spec import BatchSpec
from engine.tune.population import GATE, build_population, parse_against
from engine.tune.train import Outcomes, Trainer, train

DEFAULT_CAUTION = MarineWeights().caution  # 0.5


def marine_win_chance(caution: float, opponent: str) -> float:
    """A stand-in mission: more caution beats the heuristic Genestealers and loses to the novices' rush, and the
    mean over both rises with caution, so training on the mean alone (or on the heuristic alone) overfits."""
    if opponent.startswith("novice"):
        return 0.9 - 0.2 * caution
    return 0.3 + 0.6 * caution


def stub_play(self: Trainer, weights: dict[str, dict[str, float]], seed: int, games: int,
              policies: dict[str, str] | None = None) -> Outcomes:
    """Games on common random numbers: game i of `seed` draws one number, whatever the players."""
    opponent = (policies or {}).get("genestealers", "heuristic-genestealers")
    p = marine_win_chance(weights["marines"]["caution"], opponent)
    self.spent += games
    return Outcomes(["marines" if random.Random(f"{seed}/{i}").random() < p else "genestealers"
                     for i in range(games)])


BASE = BatchSpec(games=0, seed=1, runner="fake")


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Trainer, "play", stub_play)
    # The stand-in mission reads caution alone: search only it, so how many other weights the players have does
    # not change how many trials it takes to find.
    monkeypatch.setitem(SEARCH_RANGES, "marines", {"caution": SEARCH_RANGES["marines"]["caution"]})


def test_a_population_refuses_weights_that_trade_one_opponent_for_another(stub: None) -> None:
    # Trained against the heuristic alone, the Marines turn cautious and lose to the novices.
    alone = train(BASE, "marines", games=1600, trial_games=50, check_games=400, workers=1)
    assert alone.weights["marines"]["caution"] > DEFAULT_CAUTION + 0.2
    # Against both, every kept candidate stays within the gate against the novices.
    # (3,000 games: enough for a round without the gate to keep caution near 1 and lose 7 points to the novices.)
    pop = train(BASE, "marines", games=3000, trial_games=50, check_games=400, workers=1,
                against=["novice", "heuristic"])
    (rd,) = pop.rounds
    assert rd.worst is not None and rd.worst >= -GATE
    assert all(gap < -GATE for _, gap in rd.refused) and len(rd.refused) == rd.rejected
    (check,) = pop.population
    assert [r.opponent for r in check.rows] == ["novice", "heuristic"]
    # What is written is within the gate on the check's fresh seeds, or the defaults (fell back).
    assert check.within_gate != check.fell_back
    assert check.fell_back or check.rows[0].trained_rate >= check.rows[0].default_rate - GATE
    assert marine_win_chance(pop.weights["marines"]["caution"], "novice") >= 0.8 - GATE - 0.02


def test_a_side_that_fails_the_final_check_keeps_the_defaults(stub: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def unlucky(self: Trainer, weights: dict[str, dict[str, float]], seed: int, games: int,
                policies: dict[str, str] | None = None) -> Outcomes:
        out = stub_play(self, weights, seed, games, policies)
        changed = weights["marines"] != defaults(MarineWeights)
        if seed == BASE.seed * 1000 + 999 and changed and (policies or {}).get("genestealers", "").startswith("n"):
            out.winners = ["genestealers"] * games  # the final check's fresh seeds find the trade-off
        return out

    monkeypatch.setattr(Trainer, "play", unlucky)
    r = train(BASE, "marines", games=2000, trial_games=50, check_games=100, workers=1,
              against=["novice", "heuristic"])
    (check,) = r.population
    assert r.rounds[0].changed  # the round found weights it kept...
    assert check.fell_back and not check.within_gate  # ...that the fresh seeds refuse
    assert r.weights["marines"] == defaults(MarineWeights)


def test_the_population_names_its_opponents_and_skips_players_not_built_in(monkeypatch: pytest.MonkeyPatch) -> None:
    policy_names()
    for name in ("search-marines", "search-genestealers"):
        monkeypatch.delitem(registry._REGISTRY, name, raising=False)
    start = {"aggression": 0.5}
    r1, r3 = {"aggression": 0.9}, {"aggression": 0.2}
    opps, notes = build_population(parse_against("random,novice,heuristic,search,rounds"), "marines", start,
                                   [(2, r1), (4, r1), (6, r3)])
    assert [(o.name, o.policy) for o in opps] == [
        ("random", "random"), ("novice", "novice-genestealers"), ("heuristic", "heuristic-genestealers"),
        ("genestealers of round 2", "heuristic-genestealers"), ("genestealers of round 6", "heuristic-genestealers")]
    assert opps[2].params == start and opps[3].params == r1
    assert notes == ["opponent search skipped: search-marines, search-genestealers not registered in this build"]
    # Without `heuristic`, `rounds` meets the other side's start weights itself.
    opps, _ = build_population(["rounds"], "genestealers", start, [])
    assert [(o.name, o.policy, o.params) for o in opps] == [("start weights", "heuristic-marines", start)]
    for bad in ("novice,expert", "novice,novice", ""):
        with pytest.raises(ValueError, match="--against"):
            parse_against(bad)


def test_the_command_prints_the_population_table_and_writes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "w.json"
    code = main(["train", "tutorial", "--side", "genestealers", "--games", "120", "--trial-games", "10",
                 "--check-games", "10", "--workers", "1", "--against", "random,novice", "-o", str(out)])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "genestealers against the population, 10 fresh games per opponent" in text
    assert "worst case:" in text
    doc = json.loads(out.read_text(encoding="utf-8"))
    (pc,) = doc["population_checks"]
    assert [o["opponent"] for o in pc["opponents"]] == ["random", "novice"]
    assert pc["worst_diff"] >= -GATE or pc["fell_back_to_defaults"]
    assert doc["trained"]["against"] == ["random", "novice"]
    assert main(["train", "tutorial", "--side", "marines", "--games", "120", "--trial-games", "10",
                 "--against", "novice,wizard", "-o", str(tmp_path / "x.json")]) == 2
    assert "--against: unknown opponent 'wizard'" in capsys.readouterr().err
    policy_names()
    for name in ("search-marines", "search-genestealers"):
        monkeypatch.delitem(registry._REGISTRY, name, raising=False)
    assert main(["train", "tutorial", "--side", "marines", "--games", "120", "--trial-games", "10",
                 "--against", "search", "-o", str(tmp_path / "x.json")]) == 2
    assert "--against: no opponent left for the marines (opponent search skipped" in capsys.readouterr().err
    assert main(["train", "tutorial", "--side", "marines", "--games", "70", "--trial-games", "10",
                 "--against", "random,novice", "-o", str(tmp_path / "x.json")]) == 2
    assert "leaves fewer than 4 trials of 20 games a round" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
