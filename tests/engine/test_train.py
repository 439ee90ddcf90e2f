"""train: self-play tuning of the heuristic players' weights improves a deliberately bad player."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from engine.ai.weights import MarineWeights, load_weights_file
from engine.cli import main
from engine.resources import mission_path
from engine.sim.spec import BatchSpec
from engine.tune.train import train

# Marines that run ahead alone, never guard the rear, spend every command point and ignore threats: on Recover
# the Relic they win about 15% of games against the default Genestealers, the default Marines about 34%.
BAD = {"gap": 5.0, "rear_guard": 0.0, "cp_reserve": 0.0, "caution": 0.0, "threat_radius": 2.0, "dash_below": 4.0}


def spec(mission: str, seed: int = 1, marines: dict[str, float] | None = None) -> BatchSpec:
    return BatchSpec(games=0, seed=seed, mission=mission_path(mission), params={"marines": marines or {}},
                     policies={"marines": "heuristic-marines", "genestealers": "heuristic-genestealers"})


@pytest.mark.timeout(110)  # a real training run: about 25 s alone on a core, more on a busy machine
def test_training_from_bad_weights_beats_them_significantly() -> None:
    r = train(spec("recover_the_relic", marines=BAD), "marines", games=600, trial_games=30, check_games=200,
              workers=2)
    assert not r.cancelled
    (check,) = r.checks
    assert check.side == "marines" and check.games == 200
    assert check.significant, check
    assert check.tuned_rate > check.start_rate + 0.1
    assert set(r.weights) == {"marines"}
    assert r.rounds[0].changed


def test_the_same_seed_trains_the_same_weights_and_rounds_alternate_sides() -> None:
    a = train(spec("tutorial"), "genestealers", games=240, rounds=2, trial_games=20, check_games=0, workers=2)
    b = train(spec("tutorial"), "genestealers", games=240, rounds=2, trial_games=20, check_games=0, workers=1)
    assert [rd.side for rd in a.rounds] == ["genestealers", "marines"]
    assert a.weights == b.weights and set(a.weights) == {"marines", "genestealers"}
    assert a.spent == b.spent <= 240


def test_the_command_writes_a_weights_file_that_simulate_reads(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.json"
    code = main(["train", "tutorial", "--side", "marines", "--games", "80", "--trial-games", "20",
                 "--check-games", "20", "--workers", "1", "-o", str(out)])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "marines win rate over 20 fresh games" in text
    weights = load_weights_file(str(out))
    assert set(weights) == {"marines"} and len(weights["marines"]) == len(fields(MarineWeights))
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["trained"]["side"] == "marines" and doc["checks"][0]["games"] == 20
    assert main(["simulate", "tutorial", "--games", "4", "--workers", "1",
                 "--marines", f"heuristic-marines:{out}"]) == 0


def test_the_command_refuses_a_budget_too_small_for_a_search(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    out = tmp_path / "w.json"
    assert main(["train", "tutorial", "--side", "marines", "--games", "50", "-o", str(out)]) == 2
    assert "fewer than 4 trials" in capsys.readouterr().err
    assert not out.exists()
