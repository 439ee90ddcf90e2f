"""Compare two variants on shared seeds and sweep a setting from the lab; the lab inside the main window."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pytestqt")

from editor.document import MissionDocument
from editor.lab.lab_widget import LabWidget
from editor.lab.runs import LabRun, format_seconds
from editor.lab.sweep import parse_values
from engine.resources import sample_mission
from engine.sim import BatchSpec, GameRecord
from engine.stats import compare_on_shared_seeds

GAMES = 12
TIMEOUT_MS = 120_000


@pytest.fixture
def lab(qtbot: Any) -> Any:
    doc = MissionDocument.open(sample_mission("tutorial"))
    w = LabWidget(doc)
    qtbot.addWidget(w)
    w.resize(1300, 850)
    w.run_panel.games.setValue(GAMES)
    w.run_panel.seed.setValue(3)
    w.run_panel.workers.setValue(2)
    for side in ("marines", "genestealers"):
        w.run_panel.policy[side].setCurrentText("random")
    yield w
    w.shutdown()


def test_compare_plays_both_variants_on_the_same_seeds(lab: LabWidget, qtbot: Any) -> None:
    lab.compare.mode_settings.setChecked(True)
    lab.compare.overrides_b.set_override("marines.count", 1)
    with qtbot.waitSignal(lab.jobFinished, timeout=TIMEOUT_MS):
        lab.compare.run_button.click()
    a, b = lab.compare.runs
    assert a.stats.games == b.stats.games == GAMES
    assert [r.seed for r in a.rows] == [r.seed for r in b.rows]  # shared seeds, game by game
    assert b.spec.mission_params == {"marines.count": 1} and a.spec.mission_params == {}
    assert set(b.stats.marines) == {next(iter(a.stats.marines))}  # variant B really played one Marine
    data = lab.compare.data
    assert int(data["A"].counts.sum()) == int(data["B"].counts.sum()) == GAMES
    assert data["diff"] == pytest.approx(compare_on_shared_seeds(a.stats, b.stats, "marines"))
    d, lo, hi = data["diff"]
    assert lo <= d <= hi
    assert "A − B" in lab.compare.result.text()


def test_compare_against_a_saved_mission_file(lab: LabWidget, qtbot: Any, tmp_path: Any) -> None:
    lab.compare.mode_file.setChecked(True)
    lab.compare.path.setText(str(tmp_path / "missing.json"))
    assert not lab.start_compare()
    assert "missing.json" in lab.compare.result.text()
    lab.compare.path.setText(str(sample_mission("tutorial")))
    with qtbot.waitSignal(lab.jobFinished, timeout=TIMEOUT_MS):
        assert lab.start_compare()
    a, b = lab.compare.runs
    # The same mission on the same seeds plays the same games: no difference at all.
    assert [r.winner for r in a.rows] == [r.winner for r in b.rows]
    assert lab.compare.data["diff"][0] == 0.0


def test_sweep_draws_one_point_per_value(lab: LabWidget, qtbot: Any) -> None:
    lab.sweep.param.setCurrentText("marines.count")
    lab.sweep.values.setText("1..2")
    with qtbot.waitSignal(lab.jobFinished, timeout=TIMEOUT_MS):
        lab.sweep.run_button.click()
    runs = lab.sweep.runs
    assert [r.value for r in runs] == [1, 2]
    curve = lab.sweep.data["curve"]
    assert lab.sweep.data["values"] == [1, 2]
    assert list(curve.games) == [GAMES, GAMES]
    assert list(curve.rate) == [r.stats.rate("marines") for r in runs]
    assert all(lo <= r <= hi for r, lo, hi in zip(curve.rate, curve.low, curve.high, strict=True))
    lab.sweep.outcome.setCurrentIndex(1)  # redrawn for the Genestealers without rerunning
    assert lab.sweep.data["curve"].outcome == "genestealers"


def test_sweep_rejects_a_bad_value_before_running(lab: LabWidget) -> None:
    lab.sweep.param.setCurrentText("turn_cap")
    lab.sweep.values.setText("5, 0")
    assert not lab.start_sweep()
    assert lab.job is None and "turn_cap" in lab.sweep.result.text()


def test_parse_values_and_time_format() -> None:
    assert parse_values("1, 2 3") == [1, 2, 3]
    assert parse_values("2..4") == [2, 3, 4]
    assert parse_values("true, pitfall, 0.5") == [True, "pitfall", 0.5]
    assert format_seconds(12.4) == "12 s" and format_seconds(135) == "2 min 15 s"


def test_install_lab_adds_a_window_and_paints_on_the_editor_map(qtbot: Any) -> None:
    from editor.lab import install_lab
    from editor.mainwindow import MainWindow

    doc = MissionDocument.open(sample_mission("tutorial"))
    window = MainWindow(doc)
    qtbot.addWidget(window)
    dock = install_lab(window)
    assert window.lab_window is dock and dock.lab is not None and dock.lab.doc is doc
    assert install_lab(window) is dock  # a second install changes nothing
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus.count("&Lab") == 1
    run = LabRun(BatchSpec(games=1, seed=1, mission_doc={}, runner="fake"))
    run.add([GameRecord(index=0, seed=1, winner="genestealers", marine_deaths=[["deck", 3, 3, 1]],
                        marines={"sgt": {"died_turn": 2, "escaped": False}})])
    run.finish(None)
    dock.open()  # the editor's map mirrors the lab while the lab is open
    dock.lab.show_run(run)
    dock.lab.heatmaps.set_kind("marine_deaths")
    assert window.scene("deck").heatmap.values == {(3, 3): 1.0}  # the editor's own map shows it too
    dock.lab.heatmaps.set_kind("")
    assert window.scene("deck").heatmap.values == {}
    other = MissionDocument.open(sample_mission("pitfall"))
    window.set_document(other)
    assert dock.lab.doc is other
    dock.lab.shutdown()
    dock.close()


def test_cancelling_a_sweep_keeps_the_values_that_ran(lab: LabWidget, qtbot: Any) -> None:
    lab.run_panel.games.setValue(20_000)
    lab.run_panel.workers.setValue(1)
    lab.sweep.param.setCurrentText("turn_cap")
    lab.sweep.values.setText("5, 10, 20")
    with qtbot.waitSignal(lab.jobFinished, timeout=TIMEOUT_MS):
        assert lab.start_sweep()
        qtbot.waitUntil(lambda: lab.job_runs[0].done >= 3, timeout=TIMEOUT_MS)
        lab.cancel()
    first, *rest = lab.sweep.runs
    assert first.status is not None and first.status.stopped == "cancelled"
    assert 3 <= first.stats.games < 20_000
    assert all(r.stats.games == 0 and r.status is not None and r.status.stopped == "cancelled" for r in rest)
    assert lab.sweep.data["values"] == [5]  # the curve shows what finished, nothing invented
    assert lab.sweep.run_button.isEnabled()
