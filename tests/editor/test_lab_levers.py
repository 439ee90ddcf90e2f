"""Lab › Levers driven by qtbot: progress, the ranked table, the tornado chart, cancel, Open in Tune."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from editor.document import MissionDocument
from editor.lab.lab_widget import LabWidget
from engine.resources import sample_mission
from engine.sim import BatchSpec

TIMEOUT_MS = 120_000
BLIPS = "genestealers.starting.blips"
TURN = "victory.turn_limit.turn"
# The Tutorial as a coin game: each starting blip costs the Marines a lot, a later turn limit helps a little.
SURFACE = {"bias": 0.8, "weights": {BLIPS: -1.2, TURN: 0.04}, "at": {BLIPS: 1, TURN: 10}}


@pytest.fixture
def lab(qtbot: Any) -> Any:
    doc = MissionDocument.open(sample_mission("tutorial"))
    w = LabWidget(doc)
    qtbot.addWidget(w)
    w.resize(1300, 850)
    w.run_panel.workers.setValue(1)
    yield w
    w.shutdown()


def coin() -> BatchSpec:
    return BatchSpec(games=150, seed=1, runner="fake", runner_args={"win_logit": SURFACE})


def test_the_levers_tab_ranks_the_knobs_draws_the_tornado_and_opens_tune(lab: LabWidget, qtbot: Any) -> None:
    panel = lab.levers
    panel.spec_source = coin
    panel.games.setValue(150)
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS) as blocker:
        panel.run_button.click()
        assert not panel.run_button.isEnabled() and panel.cancel_button.isEnabled()
    report = blocker.args[0]
    assert report is not None and not report.cancelled
    assert report.ranked()[0].name == BLIPS
    assert panel.progress.value() == report.spent
    assert panel.table.rowCount() == sum(len(lv.arms) for lv in report.ranked())
    assert panel.table.item(0, 0).text() == BLIPS
    assert "Strongest lever: " + BLIPS in panel.status.text()
    bars = panel.chart_bars()
    top = int(np.argmax(bars["y"]))  # the strongest lever is drawn on top
    assert bars["down"][top] > 0.1 and bars["up"][top] < -0.15  # one blip fewer: Marines win more
    assert bars["down_lo"][top] <= bars["down"][top] <= bars["down_hi"][top]
    # Open in Tune on the strongest lever: the Tune tab shows it with a range around the mission's value.
    assert panel.tune_button.isEnabled()
    panel.tune_button.click()
    assert lab.tabs.currentWidget() is lab.tune
    assert lab.tune.param1.currentText() == BLIPS and lab.tune.range1.text() == "0..4"
    assert [p.name for p in lab.tune.read_params()] == [BLIPS]


def test_cancel_keeps_the_levers_played_so_far(lab: LabWidget, qtbot: Any) -> None:
    panel = lab.levers
    panel.spec_source = coin
    panel.games.setValue(150)
    panel.leverDone.connect(lambda _lever: panel.cancel())
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS) as blocker:
        panel.run_button.click()
    report = blocker.args[0]
    assert report.cancelled and 1 <= len(report.levers) < 5
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()


def test_a_tune_out_of_reach_in_the_lab_names_the_second_lever(lab: LabWidget, qtbot: Any) -> None:
    panel = lab.tune
    panel.spec_source = coin
    panel.param1.setCurrentText(TURN)
    assert panel.range1.text() == "5..20"  # the path's default range, from the mission's value
    panel.range1.setText("8..12")
    panel.target.setValue(0.2)
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS) as blocker:
        panel.run_button.click()
    result = blocker.args[0]
    assert result.status == "out_of_reach"
    assert f"best second lever: {BLIPS} 1 → 2 (+1)" in panel.status.text()
    assert f"--set {TURN}=" in result.message and f"--param {BLIPS}=1.." in result.message


def test_levers_play_their_own_game_count_not_the_run_panels(lab: LabWidget, qtbot: Any) -> None:
    panel = lab.levers
    panel.spec_source = lambda: coin().with_changes(games=20_000)  # as a big run panel would hand it
    panel.games.setValue(40)
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS) as blocker:
        panel.run_button.click()
    report = blocker.args[0]
    assert report.spent == 40 * (1 + sum(len(lv.arms) for lv in report.levers))
