"""Nothing stale: an issue's outline goes once it is fixed, the lab's heatmaps leave the editor's map with the lab,
no "ladder cancelled" after New or Open, the lab follows Save As, Tune's bar ends full, Strength has its own
game count."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt

from editor.commands import AddFeatureCommand
from editor.lab.install import install as install_lab
from engine.mission.model import Pitfall, Rubble
from engine.tune.result import TuneResult

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def test_an_issues_outline_goes_once_it_is_fixed(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("A", "upper", 15, 11)))
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "rubble", Rubble("upper", 16, 11)))
    w.doc.validate_now()
    issue = next(i for i in w.doc.issues if i.rule == "PIT-ADJACENT")
    w.show_issue(issue)
    scene = w.views["upper"].level_scene
    assert (15, 11) in scene.focus_squares
    w.doc.undo_stack.undo()  # the rubble goes: fixed
    w.doc.validate_now()
    assert not scene.focus_squares


def test_no_ladder_cancelled_after_new_or_open(window, pitfall_path: Path) -> None:  # type: ignore[no-untyped-def]
    w = window
    said: list[str] = []
    w.ctx.message = said.append
    assert w.open_file(str(pitfall_path), ask=False)
    assert not any("ladder" in s for s in said)
    t = w.tool_named("Ladder")
    w.set_tool(t)
    t.press(w.views["upper"].level_scene, 14, 9, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    t.cancel()  # Esc on a half-made ladder does say so
    assert said[-1] == "ladder cancelled"


def test_the_lab_s_heatmap_leaves_the_editor_map_with_the_lab_and_follows_save_as(  # type: ignore[no-untyped-def]
        window, qtbot, tmp_path: Path) -> None:
    w = window
    lab_window = install_lab(w)
    lab = lab_window.lab
    kind = next(k for k in lab.heatmaps.buttons if k)
    lab.heatmaps.grids = {kind: {"upper": np.ones((20, 30)), "lower": np.ones((20, 30))}}
    lab_window.open()
    lab.heatmaps.set_kind(kind)
    editor_scene = w.views["upper"].level_scene
    assert editor_scene.heatmap.values
    lab_window.close()  # leaving the lab
    assert not editor_scene.heatmap.values
    assert lab.lab_map.scene("upper").heatmap.values  # the lab keeps its own
    lab_window.open()
    assert editor_scene.heatmap.values  # and shows it again on the editor's map
    lab_window.close()

    target = tmp_path / "renamed.json"
    assert w.save_as(str(target))
    assert "renamed.json" in lab_window.windowTitle()
    lab.shutdown()


def test_tune_bar_ends_full_and_strength_has_its_own_game_count(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    w = window
    lab = install_lab(w).lab
    tune = lab.tune
    tune.progress.setRange(0, 20_000)
    tune.progress.setValue(3_200)  # a search that hits its target after 16% of its budget
    tune.params = []
    tune._done(TuneResult([], 0.5, 0.02, "hit", "hit", spent=3_200), "")
    assert tune.progress.value() == tune.progress.maximum()

    lab.run_panel.games.setValue(20_000)
    strength = lab.strength
    strength.games.setValue(50)
    jobs: list[Any] = []

    class Job:  # captures the check instead of playing it
        def __init__(self, call: functools.partial) -> None:  # type: ignore[type-arg]
            jobs.append(call)
            self.progressed = self.done = type("S", (), {"connect": lambda *_: None})()

    monkeypatch.setattr("editor.lab.engine_job.EngineJob", Job)
    monkeypatch.setattr(strength, "launch", lambda job: None)
    assert strength.start()
    assert jobs[0].args[0].games == 50
    assert strength.progress.maximum() == 50 * len(strength.levels) ** 2
    lab.shutdown()


def test_a_sweeps_line_says_what_its_bar_shows(qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.document import MissionDocument
    from editor.lab.lab_widget import LabWidget
    from editor.lab.runs import LabRun
    from engine.resources import sample_mission
    from engine.sim import BatchSpec, GameRecord

    lab = LabWidget(MissionDocument.open(sample_mission("tutorial")))
    qtbot.addWidget(lab)
    runs = [LabRun(BatchSpec(games=100, seed=1, mission_doc={}, runner="fake"), f"turn_cap={v}") for v in (10, 20)]
    runs[0].add([GameRecord(index=i, seed=i, winner="marines") for i in range(100)])
    runs[0].finish(None)  # the first batch is over, the second has not sent a game yet
    lab.job_kind, lab.job_runs = "sweep", runs
    lab.run_panel.progress.setRange(0, 200)
    lab._redraw()
    text = lab.run_panel.status.text()
    assert lab.run_panel.progress.value() == 100
    assert text.startswith("all: 100/200 games") and "turn_cap=10: 100/100" in text, text
    lab.shutdown()
