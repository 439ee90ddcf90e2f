"""The small things a designer meets: export names, live square info, the ladder's top marker, the replay
wording, chart axes, names over tokens, tips that fit, a map that never shrinks to a strip, the tool bar."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QStatusTipEvent
from PySide6.QtWidgets import QApplication

from editor.commands import PaintTerrainCommand
from editor.lab.replay import reason_text
from editor.scene.overlay import Token

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")
L = Qt.MouseButton.LeftButton
NO = Qt.KeyboardModifier.NoModifier


def test_png_export_of_a_two_level_mission_names_the_files_it_wrote(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert window.export_render("png", str(tmp_path / "pitfall.png"))
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["pitfall-lower-level.png", "pitfall-upper-level.png"]
    message = window.statusBar().toolTip()  # the full text (the bar may show it cut to fit)
    assert "pitfall-upper-level.png" in message and "pitfall-lower-level.png" in message and "one per level" in message
    assert sorted(Path(p).name for p in window.last_export) == written


def test_square_info_follows_painting_and_tab_switches(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    lv = w.doc.level("upper")
    x, y = next((x, y) for y in range(lv.height) for x in range(lv.width) if lv.cell(x, y) == "#")
    w.views["upper"].squareHovered.emit("upper", x, y)
    assert "· wall ·" in w.coords.text()
    w.doc.undo_stack.push(PaintTerrainCommand(w.doc, "upper", {(x, y): "."}))
    assert "· floor ·" in w.coords.text()  # no mouse move needed
    w.show_level("lower")
    text = w.coords.text()
    assert text.startswith("Lower level") and f"x {x}, y {y}" not in text


def test_placing_a_ladder_bottom_marks_the_top_on_the_level_below(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    t = w.tool_named("Ladder")
    w.set_tool(t)
    lower = w.views["lower"].level_scene
    assert lower.anchor.square is None
    t.press(w.views["upper"].level_scene, 14, 9, L, NO)
    assert w.current_level() == "lower" and lower.anchor.square == (14, 9) and lower.anchor.text == "top"
    w.set_tool(t)  # choosing the same tool again keeps the half-made ladder
    assert t.pending is not None and lower.anchor.square == (14, 9)
    t.press(lower, 14, 9, L, NO)
    assert lower.anchor.square is None and w.doc.mission.ladders[-1].bottom.level == "lower"
    t.press(w.views["upper"].level_scene, 14, 9, L, NO)
    t.cancel()
    assert lower.anchor.square is None


def test_replay_list_wording() -> None:
    assert reason_text("only 0 Marines escaped") == "no Marine escaped"
    assert reason_text("only 1 Marines escaped") == "only 1 Marine escaped"
    assert reason_text("1 Marines escaped") == "1 Marine escaped"
    assert reason_text("3 Marines escaped") == "3 Marines escaped"
    assert reason_text("all Marines dead") == "all Marines dead"


def test_casualties_chart_without_casualties_has_a_plain_whole_number_axis(qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.lab.charts import ChartsView
    from editor.lab.runs import LabRun
    from engine.sim import BatchSpec
    from engine.sim.record import GameRecord

    view = ChartsView()
    qtbot.addWidget(view)
    run = LabRun(BatchSpec(games=2, seed=1, mission_doc={}, runner="fake"))
    run.add([GameRecord(index=i, seed=1, winner="marines", turns=4,
                        marines={"sgt": {"died_turn": None, "escaped": True}}) for i in range(2)])
    run.finish(None)
    view.show_run(run)
    for name in ("bottom", "left"):
        axis = view.p_casualties.getAxis(name)
        assert not axis.autoSIPrefix and "x0.001" not in axis.labelString()
    lo, hi = view.p_casualties.viewRange()[0]
    assert lo < 0 and hi >= 1


def test_section_names_stay_readable_over_tokens(window) -> None:  # type: ignore[no-untyped-def]
    scene = window.scene("upper")
    scene._check_labels()
    label = scene._labels["a"]
    sq = (int(label[0]), int(label[1]))
    scene.set_tokens([Token("marine", "M1", sq[0], sq[1], "E", "m1")])
    scene._check_labels()
    assert (int(scene._labels["a"][0]), int(scene._labels["a"][1])) != sq  # the name moved off the token
    assert scene.names.zValue() > scene.tokens.zValue()
    scene.set_tokens([])


def test_long_tips_are_cut_before_the_coordinates(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.show()
    w.resize(1000, 700)
    qtbot.waitExposed(w)
    w.views["upper"].squareHovered.emit("upper", 3, 10)
    tip = "A very long tool tip " * 40
    QApplication.sendEvent(w, QStatusTipEvent(tip))
    bar = w.statusBar()
    shown = bar.currentMessage()
    assert shown.endswith("…") and len(shown) < len(tip)
    assert bar.fontMetrics().horizontalAdvance(shown) < bar.width() - w.coords.width()
    assert bar.toolTip() == " ".join(tip.split())


def test_the_map_keeps_room_in_the_smallest_window(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.show()
    w.resize(100, 100)
    qtbot.waitExposed(w)
    QApplication.processEvents()
    assert w.tabs.width() >= 420 and w.tabs.height() >= 320


def test_tool_bar_has_an_icon_for_every_tool(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    actions = w.tool_bar.actions()
    assert actions == list(w.tool_actions.values())
    assert all(not a.icon().isNull() for a in actions)
    w.tool_actions["Flood fill"].trigger()
    assert w.tool is w.tool_named("Flood fill")
    assert w.toolBarArea(w.tool_bar) == Qt.ToolBarArea.LeftToolBarArea
