"""The window as a document editor: validation dock, files, dialogs, recovery, overlays, the CLI entry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog, QMessageBox

from editor import settings
from editor.commands import AddFeatureCommand, ChangeValueCommand
from editor.scene.overlay import Token
from engine.mission import load_mission, mission_to_dict
from engine.mission.model import Pitfall, Rubble

Button = QMessageBox.StandardButton

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def break_a_rule(w) -> None:  # type: ignore[no-untyped-def]
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("A", "upper", 15, 11)))
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "rubble", Rubble("upper", 16, 11)))
    w.doc.validate_now()


def test_title_shows_file_and_dirty_marker(window) -> None:  # type: ignore[no-untyped-def]
    assert "pitfall.json[*]" in window.windowTitle()
    assert not window.isWindowModified()
    window.doc.undo_stack.push(ChangeValueCommand(window.doc, window.doc.mission.meta, "title", "X"))
    assert window.isWindowModified()


def test_issue_list_fills_and_clicking_selects_and_marks_squares(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    assert w.validation.tree.topLevelItemCount() == 0
    w.show_level("lower")
    break_a_rule(w)
    tree = w.validation.tree
    assert tree.topLevelItemCount() >= 1
    row = next(i for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(1) == "PIT-ADJACENT")
    item = tree.topLevelItem(row)
    tree.scrollToItem(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())
    assert w.current_level() == "upper"
    scene = w.views["upper"].level_scene
    assert scene.focus_squares and (15, 11) in scene.focus_squares
    assert (15, 11) in scene.issue_marks.marks
    level, rect = w.ctx.selection
    assert level == "upper" and rect.contains(QPoint(15, 11))


def test_validation_is_debounced_but_arrives(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("A", "upper", 15, 11)))
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "rubble", Rubble("upper", 16, 11)))
    with qtbot.waitSignal(w.doc.issuesChanged, timeout=2000):
        pass
    assert any(i.rule == "PIT-ADJACENT" for i in w.doc.issues)


def test_save_as_then_reopen_round_trip_and_recent_files(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    w = window
    break_a_rule(w)
    target = tmp_path / "copy.json"
    assert w.save_as(str(target))
    assert not w.isWindowModified() and w.doc.path == str(target)
    expected = mission_to_dict(w.doc.mission)
    assert mission_to_dict(load_mission(target)) == expected
    assert w.open_file(str(target))
    assert mission_to_dict(w.doc.mission) == expected
    assert settings.recent_files()[0] == str(target.resolve())
    assert w.recent_menu.actions()[0].toolTip() == str(target.resolve())


def test_file_that_fails_to_load_names_the_problem_and_keeps_the_window(window, reply, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = window
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hulkforge-mission", "version": 7}', encoding="utf-8")
    doc = w.doc
    shown = reply("critical", Button.Ok)
    assert not w.open_file(str(bad))
    assert len(shown) == 1 and "version" in shown[0] and "bad.json" in shown[0]
    assert w.doc is doc and w.tabs.count() == 2


def test_dirty_prompt_cancel_keeps_and_discard_replaces(window, reply, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = window
    other = tmp_path / "other.json"
    w.doc.save(other)
    w.doc.undo_stack.push(ChangeValueCommand(w.doc, w.doc.mission.meta, "title", "Changed"))
    asked = reply("question", Button.Cancel)
    assert not w.open_file(str(other))
    assert asked and w.doc.mission.meta.title == "Changed"
    reply("question", Button.Discard)
    assert w.open_file(str(other))
    assert w.doc.mission.meta.title == "Pitfall" and not w.doc.dirty


def test_new_dialog_makes_a_mission_of_the_asked_size(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from editor.dialogs import NewMissionDialog

    def fake_exec(self: NewMissionDialog) -> int:
        self.width_.setValue(12)
        self.height_.setValue(9)
        self.levels.setValue(3)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(NewMissionDialog, "exec", fake_exec)
    assert window.new_document()
    m = window.doc.mission
    assert [(lv.width, lv.height, lv.depth) for lv in m.levels] == [(12, 9, 0), (12, 9, 1), (12, 9, 2)]
    assert window.tabs.count() == 3 and window.doc.path is None
    assert window.doc.validate_now() == []


def test_autosave_then_recovery_after_a_crash(window, reply, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    assert not w.autosave()  # nothing unsaved
    w.doc.undo_stack.push(ChangeValueCommand(w.doc, w.doc.mission.meta, "title", "Unsaved work"))
    assert w.autosave()
    assert settings.recovery_file().is_file()
    # A second window plays the restarted editor after a crash.
    from editor.app import create_main_window

    w2 = create_main_window(None, with_lab=False)
    try:
        reply("question", Button.Yes)
        assert w2.offer_recovery()
        assert w2.doc.mission.meta.title == "Unsaved work" and w2.doc.dirty
        assert w2.doc.path and w2.doc.path.endswith("pitfall.json")
    finally:
        w2.doc.undo_stack.setClean()
        w2.close()
    assert not settings.recovery_file().exists()  # a clean close discards it


def test_properties_edit_goes_through_undo(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    form = w.properties.mission_form
    form.fields["title"].setText("Renamed")
    form.fields["title"].textEdited.emit("Renamed")
    assert w.doc.mission.meta.title == "Renamed"
    w.doc.undo_stack.undo()
    assert w.doc.mission.meta.title == "Pitfall" and form.fields["title"].text() == "Pitfall"
    g = w.properties.stealer_form
    g.add_row()
    assert len(w.doc.mission.genestealers.reinforcements) == 3
    levels = w.levels_panel
    levels.select("lower")
    levels.move_level(-1)
    assert w.doc.level("lower").depth == 0 and w.tabs.tabText(0).startswith("0: Lower")
    w.doc.undo_stack.undo()
    assert w.doc.level("upper").depth == 0
    vic = w.properties.victory_form
    vic.text.setPlainText(json.dumps([{"kind": "marines_eliminated"}]))
    assert vic.apply_text() and w.doc.mission.victory == [{"kind": "marines_eliminated"}]
    vic.text.setPlainText("[oops")
    assert not vic.apply_text() and "JSON" in vic.error.text()


def test_overlay_api(window) -> None:  # type: ignore[no-untyped-def]
    scene = window.scene("upper")
    scene.set_heatmap({(3, 10): 1.0, (4, 10): 3.0}, (0.0, 4.0))
    assert scene.heatmap.values == {(3, 10): 1.0, (4, 10): 3.0}
    assert scene.heatmap.colour(4.0) != scene.heatmap.colour(0.0)
    scene.set_tokens([Token("marine", "M1", 3, 10, "E", "Sg"), Token("blip", "B1", 5, 10)])
    assert len(scene.tokens.tokens) == 2 and not scene.tokens.boundingRect().isEmpty()
    scene.clear_overlays()
    assert scene.heatmap.values == {} and scene.tokens.tokens == []


def test_export_without_renderer_reports_clearly(window, reply, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import importlib

    real = importlib.import_module

    def missing(name: str, *a, **k):  # type: ignore[no-untyped-def]
        if name == "editor.render":
            raise ImportError("No module named 'editor.render'")
        return real(name, *a, **k)

    monkeypatch.setattr(importlib, "import_module", missing)
    shown = reply("warning", Button.Ok)
    assert not window.export_render("png", "/tmp/never.png")
    assert shown and "editor.render" in shown[0]


def test_edit_command_reports_missing_file_without_qt(tmp_path) -> None:  # type: ignore[no-untyped-def]
    code = ("import sys, engine.cli as c; r = c.main(['edit', sys.argv[1]]); "
            "assert 'PySide6' not in sys.modules; sys.exit(r)")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "nope.json")], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 2
    assert "nope.json: no such file" in done.stderr and "Traceback" not in done.stderr


def test_close_with_changes_asks_and_cancel_keeps_the_window(window, reply) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.show()
    w.doc.undo_stack.push(ChangeValueCommand(w.doc, w.doc.mission.meta, "title", "Changed"))
    asked = reply("question", Button.Cancel)
    assert not w.close()
    assert asked and w.isVisible()


def test_every_tool_has_a_single_letter_shortcut_shown_in_its_tooltip(window) -> None:  # type: ignore[no-untyped-def]
    keys = set()
    for name, act in window.tool_actions.items():
        key = act.shortcut().toString()
        assert len(key) == 1 and f"({key})" in act.toolTip(), name
        keys.add(key)
    assert len(keys) == len(window.tool_actions)  # no two tools share a key


def test_squad_table_and_level_list_edit_through_commands(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    squad = w.properties.squad_form
    rank = squad.table.cellWidget(1, 1)
    rank.setCurrentText("archivist")
    rank.activated.emit(rank.currentIndex())
    assert w.doc.mission.marines.squad[1].rank == "archivist"
    squad.add_marine()
    assert len(w.doc.mission.marines.squad) == 6 and squad.table.rowCount() == 6
    levels = w.levels_panel
    added = levels.add_level()
    assert w.tabs.count() == 3 and w.doc.level(added.id).depth == 2
    levels.select(added.id)
    levels.rename_level("Sump")
    assert w.doc.level(added.id).name == "Sump" and w.tabs.tabText(2) == "2: Sump"
    assert levels.remove_level(ask=False)
    assert w.tabs.count() == 2
    while w.doc.undo_stack.canUndo():
        w.doc.undo_stack.undo()
    assert w.doc.mission.marines.squad[1].rank == "marine" and len(w.doc.mission.marines.squad) == 5


def test_victory_templates_add_valid_conditions(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    vic = w.properties.victory_form
    vic.add_template("turn_limit")
    assert w.doc.mission.victory[-1] == {"kind": "turn_limit", "turn": 12, "result": "genestealers"}
    assert not [i for i in w.doc.validate_now() if i.path.startswith("$.victory")]
    assert '"turn_limit"' in vic.text.toPlainText()
    w.doc.undo_stack.undo()
    assert all(v["kind"] != "turn_limit" for v in w.doc.mission.victory)


@pytest.mark.parametrize("by_name", [False, True], ids=["file", "sample-name"])
def test_main_opens_a_window_and_saves_a_screenshot(config_dir, pitfall_path, tmp_path, by_name) -> None:  # type: ignore[no-untyped-def]
    """`hulkforge edit FILE --screenshot PNG` end to end, in its own process: it runs and quits the application's
    event loop, which is process-wide state the other tests must not inherit. FILE may be a sample's name, as for
    every command that reads a mission."""
    import os
    import subprocess
    import sys

    shot = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-m", "engine.cli", "edit", "pitfall" if by_name else str(pitfall_path),
         "--screenshot", str(shot)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert shot.is_file() and shot.stat().st_size > 10_000


def test_the_level_stays_fitted_as_the_window_grows_until_the_user_zooms(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.resize(700, 500)
    w.show()
    qtbot.waitExposed(w)
    w.show_level("upper")
    view = w.views["upper"]
    small = view.zoom()

    def level_in_view() -> bool:
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        return shown.adjusted(-1, -1, 1, 1).contains(view.level_scene.sceneRect())

    assert level_in_view()
    w.resize(1400, 900)
    qtbot.waitUntil(lambda: view.zoom() > small * 1.3)
    assert level_in_view()  # maximising shows the same whole level, larger

    view.zoom_by(1.5)  # the user zooms: from now on a resize keeps their zoom
    zoomed = view.zoom()
    before = view.viewport().size()
    w.resize(900, 700)
    qtbot.waitUntil(lambda: view.viewport().size() != before)  # the view has had its resize event
    assert view.zoom() == zoomed

    view.fit()  # Fit level (Ctrl+0) fits again, and keeps fitting
    w.resize(1300, 880)
    qtbot.waitUntil(level_in_view)
    after = view.zoom()
    view.fit()
    assert view.zoom() == pytest.approx(after)  # already fitted to the new size


def test_rules_in_force_follow_the_features(qtbot, config_dir, no_modal) -> None:  # type: ignore[no-untyped-def]
    # The designer's surprise: one pitfall switches the default ladder rule; the mission panel says so.
    from editor.app import create_main_window
    from engine.mission.model import Pitfall
    from engine.resources import sample_mission

    w = create_main_window(str(sample_mission("tutorial")), with_lab=False)
    w.autosave_timer.stop()
    try:
        tree = w.properties.mission_form.in_force

        def row(name: str) -> list[str]:
            item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                        if tree.topLevelItem(i).text(0) == name)
            return [item.text(c) for c in range(3)]

        assert row("ruleset") == ["ruleset", "4e", "mission"]
        assert row("ladder_rule") == ["ladder_rule", "4e", "mission contents (the mission has no Pitfall feature)"]
        assert row("flamer_shots") == ["flamer_shots", "6", "ruleset default (4e)"]
        deck = w.doc.mission.levels[0]
        x, y = next((x, y) for y, r in enumerate(deck.rows) for x, ch in enumerate(r) if ch != "#")
        w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("A", deck.id, x, y)))
        assert row("ladder_rule") == ["ladder_rule", "pitfall", "mission contents (the mission has pitfalls)"]
        w.doc.undo_stack.undo()
        assert row("ladder_rule")[1] == "4e"
    finally:
        w.doc.undo_stack.setClean()
        w.close()
