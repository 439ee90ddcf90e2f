"""The editor never writes a file it cannot open again, opens broken files for repair, and points at what is
wrong: each defect found by using it as a designer would, from the smallest input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtWidgets import QInputDialog, QMessageBox

from editor.commands import AddFeatureCommand, ChangeValueCommand, RemoveFeatureCommand
from editor.document import MissionDocument
from editor.scene.terrain_item import S
from engine.mission import mission_to_dict, read_document
from engine.mission.model import Door, Pitfall, Rubble

Button = QMessageBox.StandardButton
L, R = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
NO = Qt.KeyboardModifier.NoModifier
pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def write(tmp_path: Path, doc: dict, name: str = "m.json") -> Path:  # type: ignore[type-arg]
    f = tmp_path / name
    f.write_text(json.dumps(doc))
    return f


# --- 1. Tools › New… beside Floor ------------------------------------------------------------------
def test_new_section_button_asks_for_the_name(window, qtbot, monkeypatch, capfd) -> None:  # type: ignore[no-untyped-def]
    asked: list[str] = []

    def get_text(parent, title, label, *args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(label)
        return "Armoury", True

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    panel = window.tools_panel
    before = dict(window.doc.level("upper").sections)
    qtbot.mouseClick(panel.new_section, L)
    assert asked, "the button must open the dialog"
    (code,) = set(window.doc.level("upper").sections) - set(before)
    assert window.doc.level("upper").sections[code].name == "Armoury"
    assert panel.sec_name.text() == "Armoury"
    assert "TypeError" not in capfd.readouterr().err
    assert not [i for i in window.doc.validate_now() if i.rule == "SCHEMA"]


def test_new_section_cancelled_creates_nothing(window, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("", False))
    steps = window.doc.undo_stack.count()
    qtbot.mouseClick(window.tools_panel.new_section, L)
    assert window.doc.undo_stack.count() == steps


# --- 2. clicks beside the map ---------------------------------------------------------------------
OUTSIDE = [(-1, -10), (-1, 5), (5, -1), (30, 5), (5, 20)]  # pitfall's upper level is 30x20


@pytest.mark.parametrize("tool", ["Door", "Bulkhead", "Entry area", "Exit", "Deployment", "Objective", "Pitfall",
                                  "Rubble", "Chute", "Ladder"])
def test_placement_tools_refuse_squares_beside_the_map(window, tool: str) -> None:  # type: ignore[no-untyped-def]
    w = window
    t = w.tool_named(tool)
    w.set_tool(t)
    scene = w.views["upper"].level_scene
    before = mission_to_dict(w.doc.mission)
    for x, y in OUTSIDE:
        t.hover(scene, x, y)
        assert not scene.preview.ok
        t.press(scene, x, y, L, NO)
        t.release(scene, x, y, L, NO)
        t.press(scene, x, y, L, Qt.KeyboardModifier.ShiftModifier)
    assert mission_to_dict(w.doc.mission) == before


def test_moving_a_marine_beside_the_map_is_refused(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.ctx.options.marine = w.doc.mission.marines.squad[0].id
    t = w.tool_named("Deployment")
    t.press(w.views["upper"].level_scene, -1, -10, L, NO)
    assert all(mm.x >= 0 and mm.y >= 0 for mm in w.doc.mission.marines.squad)


def test_a_real_click_above_left_of_the_map_places_nothing(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.show()
    qtbot.waitExposed(w)
    w.set_tool(w.tool_named("Deployment"))
    view = w.views["upper"]
    view.fit()
    squad = len(w.doc.mission.marines.squad)
    pos = view.mapFromScene(QPointF(-S * 0.5, -S * 0.5))
    qtbot.mouseClick(view.viewport(), L, pos=pos)
    assert len(w.doc.mission.marines.squad) == squad
    inside = view.mapFromScene(QPointF(S * 3.5, S * 10.5))  # a floor square: the click does reach the tool
    qtbot.mouseClick(view.viewport(), L, pos=inside)
    assert len(w.doc.mission.marines.squad) == squad + 1


def test_squad_table_refuses_a_square_beside_the_map(window) -> None:  # type: ignore[no-untyped-def]
    table = window.properties.squad_form.table
    x_col = 7
    old = window.doc.mission.marines.squad[0].x
    for text in ("-1", "30", "x"):
        table.item(0, x_col).setText(text)
        assert window.doc.mission.marines.squad[0].x == old
        assert table.item(0, x_col).text() == str(old)


# --- 3. Genestealers › Add row ---------------------------------------------------------------------
def test_add_reinforcement_row_needs_an_entry_area(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    form = w.properties.stealer_form
    for e in list(w.doc.mission.entry_areas):
        w.doc.undo_stack.push(RemoveFeatureCommand(w.doc, "entry_areas", e))
    rows = len(w.doc.mission.genestealers.reinforcements)
    assert not form.add_button.isEnabled()
    form.add_row()
    assert len(w.doc.mission.genestealers.reinforcements) == rows
    assert "entry area" in form.note.text()
    w.doc.undo_stack.undo()  # one entry area back
    assert form.add_button.isEnabled()
    form.add_row()
    assert w.doc.mission.genestealers.reinforcements[-1].entry_areas == [w.doc.mission.entry_areas[-1].id]


def test_emptying_a_rows_entry_areas_is_refused(window) -> None:  # type: ignore[no-untyped-def]
    form = window.properties.stealer_form
    before = list(window.doc.mission.genestealers.reinforcements[0].entry_areas)
    form.table.item(0, 3).setText("  ")
    assert window.doc.mission.genestealers.reinforcements[0].entry_areas == before
    assert "entry area" in form.note.text()


# --- 4. Save warns; Open repairs --------------------------------------------------------------------
def break_the_format(w) -> None:  # type: ignore[no-untyped-def]
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "doors", Door("D9", "upper", 12, 13, "door", "ajar")))  # type: ignore[arg-type]


def test_save_warns_before_writing_a_mission_that_breaks_the_format(window, reply, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = window
    break_the_format(w)
    target = tmp_path / "broken.json"
    shown = reply("warning", Button.Cancel)
    assert not w.save_as(str(target))
    assert not target.exists() and w.doc.dirty
    assert "door D9: state: 'ajar' is not one of" in shown[0]
    shown = reply("warning", Button.Save)
    assert w.save_as(str(target))
    assert target.exists() and not w.doc.dirty


def test_a_mission_that_breaks_the_format_is_not_exported_to_other_clients(window, reply, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = window
    break_the_format(w)
    shown = reply("warning", Button.Ok)
    assert not w.export_tiled(str(tmp_path / "m.tmj"))
    assert not w.export_derelict(str(tmp_path / "d.json"))
    assert not list(tmp_path.iterdir())
    assert len(shown) == 2 and "door D9: state: 'ajar' is not one of" in shown[0] and "Tiled" in shown[0]
    w.doc.undo_stack.undo()
    assert w.export_tiled(str(tmp_path / "m.tmj"))  # fixed: it goes
    w.doc.undo_stack.setClean()


def test_a_valid_mission_saves_without_a_word(window, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert window.save_as(str(tmp_path / "fine.json"))  # no_modal: any dialog would fail the test


def test_what_was_saved_broken_opens_again_for_repair(window, reply, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = window
    break_the_format(w)
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("A", "upper", 15, 11)))
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "rubble", Rubble("upper", 16, 11)))
    target = tmp_path / "broken.json"
    reply("warning", Button.Save)
    assert w.save_as(str(target))
    saved = mission_to_dict(w.doc.mission)
    shown = reply("warning", Button.Ok)
    assert w.open_file(str(target), ask=False)
    assert w.doc.path == str(target) and mission_to_dict(w.doc.mission) == saved
    assert shown and "Opened for repair" not in shown[0] and "does not follow the mission format" in shown[0]
    rules = {i.rule for i in w.doc.issues}
    assert {"SCHEMA", "PIT-ADJACENT"} <= rules  # the placement rules still run beside the schema error
    assert not w.doc.dirty  # nothing had to change to read it


def test_starting_on_a_broken_file_opens_it_not_a_blank_mission(config_dir, tmp_path, monkeypatch, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.app import create_main_window

    doc = read_document(Path(__file__).resolve().parents[2] / "sample_missions" / "pitfall.json")
    doc["levels"][0]["sections"]["a"]["name"] = False  # what Tools › New… used to write
    doc["genestealers"]["reinforcements"][0]["entry_areas"] = []  # what Add row used to write
    f = write(tmp_path, doc)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a, **k: shown.append(text))
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: pytest.fail("refused a parseable file"))
    w = create_main_window(str(f), with_lab=False)
    w.autosave_timer.stop()
    qtbot.waitUntil(lambda: bool(shown))
    assert w.doc.path == str(f) and w.doc.mission.meta.title == "Pitfall"
    assert w.doc.level("upper").sections["a"].name == "false"
    assert "reinforcement row 1: entry_areas: [] should be non-empty" in shown[0]
    assert "section a of level 'Upper level': name: false is not text" in shown[0]
    assert w.doc.dirty  # reading it changed the section's name: that is unsaved
    w.doc.undo_stack.setClean()
    w.close()


def test_a_file_with_a_key_twice_opens_for_repair_and_saving_mends_it(window, reply, tmp_path) -> None:  # type: ignore[no-untyped-def]
    doc = read_document(Path(__file__).resolve().parents[2] / "sample_missions" / "pitfall.json")
    f = tmp_path / "m.json"
    f.write_text(json.dumps(doc).replace('"title": ', '"title": "Old", "title": ', 1))
    shown = reply("warning", Button.Ok)
    assert window.open_file(str(f), ask=False)
    assert window.doc.path == str(f) and window.doc.mission.meta.title == "Pitfall"
    assert shown and 'the key "title" appears twice: the last value was kept' in shown[0]
    assert window.doc.dirty  # what the editor holds differs from the file
    assert window.save()
    assert read_document(f)["meta"]["title"] == "Pitfall"  # the strict reader takes it now


def test_unreadable_bytes_are_still_refused(window, reply, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not json")
    shown = reply("critical", Button.Ok)
    assert not window.open_file(str(bad), ask=False)
    assert shown and "not UTF-8" in shown[0]


def test_recovery_restores_a_broken_autosave(window, reply, pitfall_path) -> None:  # type: ignore[no-untyped-def]
    from editor.app import create_main_window

    w = window
    break_the_format(w)
    assert w.autosave()
    kept = mission_to_dict(w.doc.mission)
    w2 = create_main_window(str(pitfall_path), with_lab=False)
    reply("question", Button.Yes)
    assert w2.offer_recovery()
    assert mission_to_dict(w2.doc.mission) == kept
    w2.doc.undo_stack.setClean()
    w2.close()


# --- 5. an issue names and selects its object ------------------------------------------------------
def test_a_schema_issue_names_its_object_and_selects_it(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    break_the_format(w)
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("A", "upper", 15, 11)))
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "rubble", Rubble("upper", 16, 11)))
    w.doc.validate_now()
    tree = w.validation.tree
    rows = {tree.topLevelItem(i).text(1): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())}
    assert {"SCHEMA", "PIT-ADJACENT"} <= set(rows)
    item = rows["SCHEMA"]
    assert item.text(2) == "Upper level 12,13"  # the level as the designer named it
    assert item.text(3) == "door D9: state: 'ajar' is not one of ['closed', 'open']"
    w.show_level("lower")
    tree.scrollToItem(item)
    qtbot.mouseClick(tree.viewport(), L, pos=tree.visualItemRect(item).center())
    assert w.current_level() == "upper"
    level, rect = w.ctx.selection
    assert level == "upper" and rect.boundingRect().getRect() == (12, 13, 1, 1)
    panel = w.properties.feature_panel
    kind, door = panel.current()
    assert kind == "doors" and door.id == "D9"
    assert w.properties.currentWidget().widget() is panel
    state = panel.widgets["state"]
    assert state.currentText() == "ajar (not allowed)"  # what the file holds, shown to be fixed


def test_a_reinforcement_issue_selects_its_row(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    g = w.doc.mission.genestealers
    rows = [*g.reinforcements]
    rows[1] = type(rows[1])(rows[1].from_turn, rows[1].per_turn, [])
    w.doc.undo_stack.push(ChangeValueCommand(w.doc, g, "reinforcements", rows))
    (issue,) = [i for i in w.doc.validate_now() if i.rule == "SCHEMA"]
    assert issue.message == "reinforcement row 2: entry_areas: [] should be non-empty"
    w.show_issue(issue)
    assert w.properties.currentWidget().widget() is w.properties.stealer_form
    assert w.properties.stealer_form.table.currentRow() == 1


def test_a_section_issue_selects_the_section(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    sec = w.doc.level("upper").sections["a"]
    w.doc.undo_stack.push(ChangeValueCommand(w.doc, sec, "name", "x" * 81, "sections:upper"))
    (issue,) = [i for i in w.doc.validate_now() if i.rule == "SCHEMA"]
    assert issue.message.startswith("section a of level 'Upper level': name: ")
    w.show_issue(issue)
    assert w.ctx.options.section == "a" and w.tools_panel.sec_name.text() == "x" * 80  # the field's own limit
    level, rect = w.ctx.selection
    assert level == "upper" and rect.boundingRect().contains(2, 10)


# --- 6. Levels › Remove ---------------------------------------------------------------------------
def test_removing_a_level_asks_first(window, reply) -> None:  # type: ignore[no-untyped-def]
    w = window
    panel = w.levels_panel
    panel.select("lower")
    asked = reply("question", Button.Cancel)
    assert not panel.remove_level()
    assert w.doc.level("lower") is not None
    assert "L-W" in asked[0] and "reinforcement row 1" in asked[0]


def test_removing_a_level_removes_the_references_in_the_same_step(window, reply, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = window
    before = mission_to_dict(w.doc.mission)
    panel = w.levels_panel
    panel.select("lower")
    reply("question", Button.Yes)
    steps = w.doc.undo_stack.count()
    assert panel.remove_level()
    assert w.doc.undo_stack.count() == steps + 1
    assert w.tabs.count() == 1
    issues = w.doc.validate_now()
    assert not [i for i in issues if i.rule.startswith("REF-") or i.rule == "SCHEMA"], issues
    g = w.doc.mission.genestealers
    assert g.starting.entry_areas == [] and g.starting.blips == 0
    assert [r.entry_areas for r in g.reinforcements] == [["U-W", "U-SW", "U-SE"]]
    assert w.save_as(str(tmp_path / "one-level.json"))  # no warning: nothing breaks the format
    assert mission_to_dict(MissionDocument.open(tmp_path / "one-level.json").mission) == mission_to_dict(w.doc.mission)
    w.doc.undo_stack.undo()
    assert mission_to_dict(w.doc.mission) == before and w.tabs.count() == 2


def test_the_lab_will_not_play_a_mission_open_for_repair(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.lab.lab_widget import LabWidget

    lab = LabWidget(window.doc)
    qtbot.addWidget(lab)
    break_the_format(window)
    assert not lab.start_batch()
    assert lab.job is None
    assert "breaks the file format" in lab.run_panel.status.text()


# --- anything parseable opens and draws ------------------------------------------------------------
def _damaged() -> list[dict]:  # type: ignore[type-arg]
    base = read_document(Path(__file__).resolve().parents[2] / "sample_missions" / "pitfall.json")
    cases = []
    for change in (
        lambda d: d.__setitem__("levels", []),
        lambda d: d["levels"][0].__setitem__("rows", []),
        lambda d: d["levels"][0].__setitem__("rows", [123, None, "#..#"]),
        lambda d: d["levels"][1].__setitem__("id", "upper"),  # two levels called upper
        lambda d: d["levels"][1].pop("id"),
        lambda d: d["levels"][0].__setitem__("depth", "top"),
        lambda d: d["doors"][0].update(x=10_000, y=-5, state=7),
        lambda d: d["ladders"].append({"id": "L9", "top": {"level": "nowhere", "x": 1, "y": 1}, "bottom": 3}),
        lambda d: d["entry_areas"][0].update(side="Q", id=["E"]),
        lambda d: d["marines"]["squad"][0].update(facing=None, rank=5, melee={}),
        lambda d: d.update(marines=None, genestealers=[], victory="win", meta=3, random_setup=7),
        lambda d: d["levels"][0]["sections"].update(a="room", b={"name": 5, "kind": "hall"}),
        lambda d: d.update(random_setup={"zones": [{"level": "upper", "section": "zz"}], "counters": [{"kind": 4}]}),
        lambda d: d.update(victory=[{"kind": "escape", "via": "exit", "win_at": "2"},
                                    {"kind": "objective_carried", "objective": ["x"], "to": {"exit": [1]}}]),
    ):
        doc = json.loads(json.dumps(base))
        change(doc)
        cases.append(doc)
    return cases


@pytest.mark.parametrize("doc", _damaged(), ids=lambda d: "")
def test_any_parseable_mission_opens_draws_and_validates(window, reply, tmp_path, doc) -> None:  # type: ignore[no-untyped-def]
    w = window
    f = write(tmp_path, doc)
    reply("warning", Button.Ok)
    assert w.open_file(str(f), ask=False)
    assert w.doc.path == str(f) and w.doc.mission.levels
    w.show()
    for level in list(w.views):
        w.show_level(level)
        assert not w.views[level].grab().isNull()  # paints every item, features included
    w.doc.validate_now()
    for issue in w.doc.issues:
        w.show_issue(issue)
    level = next(iter(w.views))
    for tool in ("Pitfall", "Ladder", "Deployment"):  # the red/green preview validates a hypothetical copy
        w.tool_named(tool).hover(w.views[level].level_scene, 3, 10)
    w.set_tool(w.tool_named("Select"))
    w.ctx.set_selection(level, QRect(-1, -1, 300, 300))  # every feature in Properties › Feature, broken or not
    panel = w.properties.feature_panel
    for row in range(panel.chooser.count()):
        panel._picked(row)
    w.doc.undo_stack.setClean()


def test_a_screenshot_of_a_mission_open_for_repair_does_not_wait_for_a_click(config_dir, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`hulkforge edit BROKEN --screenshot PNG` must quit by itself: no repair dialog, no 'save changes?'."""
    import os
    import subprocess
    import sys

    doc = read_document(Path(__file__).resolve().parents[2] / "sample_missions" / "pitfall.json")
    doc["levels"][0]["sections"]["a"]["name"] = False  # reading it changes the name: an unsaved change
    doc["doors"][0]["state"] = "ajar"
    f = write(tmp_path, doc)
    shot = tmp_path / "shot.png"
    proc = subprocess.run([sys.executable, "-m", "engine.cli", "edit", str(f), "--screenshot", str(shot)],
                          capture_output=True, text=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert shot.is_file() and shot.stat().st_size > 10_000
