"""simulate --strength-check: every pairing of strengths on shared seeds, and a verdict on robustness."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.ai.weights import save_weights_file
from engine.cli import main
from engine.tune.strength import Cell, StrengthReport, level_policy, pairings


def cell(m: str, wins: int, games: int = 100) -> Cell:
    return Cell(m, m, ["marines"] * wins + ["genestealers"] * (games - wins))


def test_the_verdict_is_robust_when_heuristic_and_tuned_agree_on_shared_seeds() -> None:
    report = StrengthReport(["heuristic", "tuned"], {("heuristic", "heuristic"): cell("heuristic", 50),
                                                     ("tuned", "tuned"): cell("tuned", 53)})
    assert report.robust is True
    assert "ROBUST" in report.verdict()
    # 50% and 58% have overlapping Wilson intervals, but the same 50 games won plus 8 more on the same seeds
    # is a real difference: paired, they disagree.
    report.cells[("tuned", "tuned")] = cell("tuned", 58)
    assert report.robust is False
    report.cells[("tuned", "tuned")] = cell("tuned", 80)
    assert report.robust is False
    assert "DEPENDS ON WHO PLAYS" in report.verdict()
    d = report.heuristic_vs_tuned()
    assert d is not None and d[0] == pytest.approx(0.3) and d[1] > 0


def test_without_tuned_players_there_is_no_verdict() -> None:
    report = StrengthReport(["heuristic"], {("heuristic", "heuristic"): cell("heuristic", 50)})
    assert report.robust is None
    assert "without tuned players" in report.verdict()


def test_levels_map_to_policies_and_pairings_put_the_diagonal_first() -> None:
    tuned = {"marines": {"caution": 0.9}}
    assert level_policy("tuned", "marines", tuned) == ("heuristic-marines", {"caution": 0.9})
    assert level_policy("tuned", "genestealers", tuned) == ("heuristic-genestealers", {})
    assert level_policy("novice", "genestealers", tuned) == ("novice-genestealers", {})
    assert pairings(["a", "b"], matrix=False) == [("a", "a"), ("b", "b")]
    assert pairings(["a", "b"], matrix=True) == [("a", "a"), ("b", "b"), ("a", "b"), ("b", "a")]


def test_the_command_plays_each_pairing_and_writes_the_report(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    weights = str(tmp_path / "w.json")
    save_weights_file(weights, {"marines": {"caution": 1.0}, "genestealers": {"aggression": 1.0}})
    out = tmp_path / "strength.json"
    code = main(["simulate", "tutorial", "--strength-check", "--diagonal", "--tuned", weights, "--games", "30",
                 "--workers", "1", "--out", str(out), "--tiers", "random,novice,heuristic"])
    text = capsys.readouterr().out
    assert code == 0
    assert "Marine win rate at equal strength: random 0.0%" in text
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [(c["marines"], c["genestealers"]) for c in doc["cells"]] == [
        ("random", "random"), ("novice", "novice"), ("heuristic", "heuristic"), ("tuned", "tuned")]
    assert all(c["games"] == 30 for c in doc["cells"])
    assert doc["robust"] in (True, False)


def test_the_progress_counts_every_pairing_of_the_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    """Three strengths in a full matrix are nine pairings: the progress total is nine times the games."""
    assert main(["simulate", "tutorial", "--strength-check", "--games", "2", "--workers", "1",
                 "--tiers", "random,novice,heuristic"]) == 0
    progress = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("strength check: ")]
    assert progress and progress[-1].startswith("strength check: 18/18 games")


def test_the_command_refuses_players_it_chooses_itself(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "tutorial", "--strength-check", "--marines", "random"]) == 2
    assert "chooses the players itself" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["simulate", "tutorial", "--strength-check", "--tuned", str(bad)]) == 2
    assert f"--tuned: {bad}: not JSON" in capsys.readouterr().err
