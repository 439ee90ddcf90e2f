"""Lab › Tune and Lab › Strength driven by qtbot: progress, the path, the chart, cancel, saving the mission."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from editor.document import MissionDocument
from editor.lab.lab_widget import LabWidget
from engine.ai.weights import save_weights_file
from engine.mission import read_document
from engine.resources import sample_mission
from engine.sim import BatchSpec

TIMEOUT_MS = 120_000
# The fake coin game: Marine win rate 0.62 at reinforcements.per_turn=4, 0.5 at 5, 0.38 at 6...
CURVE = [0.95, 0.9, 0.82, 0.72, 0.62, 0.5, 0.38, 0.2, 0.1]


@pytest.fixture
def lab(qtbot: Any) -> Any:
    doc = MissionDocument.open(sample_mission("tutorial"))
    w = LabWidget(doc)
    qtbot.addWidget(w)
    w.resize(1300, 850)
    w.run_panel.workers.setValue(1)
    w.run_panel.seed.setValue(1)
    yield w
    w.shutdown()


def coin(seed: int = 1) -> BatchSpec:
    return BatchSpec(games=0, seed=seed, runner="fake",
                     runner_args={"win_curve": CURVE, "curve_param": "reinforcements.per_turn"})


def test_the_tune_tab_finds_the_value_draws_it_and_saves_the_mission(lab: LabWidget, qtbot: Any,
                                                                     tmp_path: Path) -> None:
    panel = lab.tune
    panel.spec_source = coin  # the stand-in mission whose win rate is a known function of the parameter
    panel.param1.setCurrentText("reinforcements.per_turn")
    panel.range1.setText("0..8")
    panel.tolerance.setValue(0.03)
    assert not panel.save_button.isEnabled()
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS) as blocker:
        panel.run_button.click()
        assert not panel.run_button.isEnabled() and panel.cancel_button.isEnabled()
    result = blocker.args[0]
    assert result.ok and result.values() == {"reinforcements.per_turn": 5}
    assert panel.table.rowCount() == len(result.steps)
    assert panel.progress.value() == result.spent
    assert "Hit" in panel.status.text()
    pts = panel.chart_points()
    assert list(pts["x"]) == sorted({s.point[0] for s in result.steps})
    assert pts["hit"].sum() == 1 and pts["x"][pts["hit"]][0] == 5
    assert all(pts["low"] <= pts["rate"]) and all(pts["rate"] <= pts["high"])
    assert panel.save_button.isEnabled()
    out = tmp_path / "tuned.json"
    assert panel.save_to(str(out))
    tuned = read_document(out)
    assert {r["per_turn"] for r in tuned["genestealers"]["reinforcements"]} == {5}
    assert tuned["meta"] == read_document(sample_mission("tutorial"))["meta"]


def test_cancel_stops_the_tune_and_keeps_the_path(lab: LabWidget, qtbot: Any) -> None:
    panel = lab.tune
    panel.spec_source = coin
    panel.range1.setText("0..8")
    panel.tolerance.setValue(0.005)  # tens of thousands of games: only cancel ends it soon
    panel.budget.setValue(1_000_000)
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS) as blocker:
        assert panel.start()
        qtbot.waitUntil(lambda: panel.table.rowCount() >= 3, timeout=TIMEOUT_MS)
        panel.cancel_button.click()
    result = blocker.args[0]
    assert result.status == "cancelled"
    assert "Cancelled" in panel.status.text()
    assert panel.run_button.isEnabled() and not panel.save_button.isEnabled()
    assert panel.table.rowCount() == len(result.steps) >= 3


def test_a_bad_range_is_shown_and_nothing_starts(lab: LabWidget) -> None:
    lab.tune.range1.setText("5..1")
    assert not lab.tune.start()
    assert "lower to a higher" in lab.tune.status.text()
    assert lab.tune.job is None


def test_the_strength_tab_plays_the_diagonal_and_gives_a_verdict(lab: LabWidget, qtbot: Any,
                                                                  tmp_path: Path) -> None:
    weights = tmp_path / "w.json"
    save_weights_file(str(weights), {"marines": {"caution": 1.0}})
    lab.run_panel.games.setValue(10)
    panel = lab.strength
    panel.weights.setText(str(weights))
    panel.tiers.setText("random,novice,heuristic")  # the tiers every build has
    panel.full.setChecked(False)
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS) as blocker:
        panel.run_button.click()
    report = blocker.args[0]
    assert [c.marines for c in report.diagonal()] == ["random", "novice", "heuristic", "tuned"]
    assert panel.table.item(0, 0).text().startswith("0.0%")  # random Marines never win
    assert panel.table.item(3, 3) is not None and panel.table.item(0, 1) is None
    assert ("ROBUST" in panel.verdict.text()) or ("DEPENDS ON WHO PLAYS" in panel.verdict.text())
