"""Properties › Feature (one selected feature's own fields) and the Levels panel (show, lock, opacity, reorder,
rename, id, remove): model -> widget and widget -> model, one undo step per edit."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QMessageBox

from editor.commands import AddFeatureCommand
from engine.mission import mission_to_dict
from engine.mission.model import Ladder, Rubble, Square

Button = QMessageBox.StandardButton
L = Qt.MouseButton.LeftButton
NO = Qt.KeyboardModifier.NoModifier
pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def click_select(w, level: str, x: int, y: int) -> None:  # type: ignore[no-untyped-def]
    """A click with the Select tool on one square."""
    tool = w.tool_named("Select")
    w.set_tool(tool)
    w.show_level(level)
    scene = w.views[level].level_scene
    tool.press(scene, x, y, L, NO)
    tool.release(scene, x, y, L, NO)


def steps(w) -> int:  # type: ignore[no-untyped-def]
    return int(w.doc.undo_stack.index())


# --- Properties › Feature --------------------------------------------------------------------------
def test_selecting_a_door_shows_its_fields_and_each_edit_is_one_step(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    click_select(w, "upper", 12, 10)  # door UD1
    panel = w.properties.feature_panel
    assert w.properties.currentWidget().widget() is panel
    kind, door = panel.current()
    assert (kind, door.id) == ("doors", "UD1")
    state = panel.widgets["state"]
    assert state.currentText() == "closed"
    n = steps(w)
    state.setCurrentIndex(state.findData("open"))
    state.activated.emit(state.currentIndex())
    assert w.doc.mission.doors[0].state == "open" and steps(w) == n + 1
    kind_box = panel.widgets["kind"]
    kind_box.setCurrentIndex(kind_box.findData("bulkhead"))
    kind_box.activated.emit(kind_box.currentIndex())
    assert w.doc.mission.doors[0].kind == "bulkhead" and steps(w) == n + 2
    ident = panel.widgets["id"]
    ident.setText("Gate")
    ident.editingFinished.emit()
    assert w.doc.mission.doors[0].id == "Gate" and steps(w) == n + 3
    w.doc.undo_stack.undo()
    assert w.doc.mission.doors[0].id == "UD1" and panel.widgets["id"].text() == "UD1"  # the panel follows undo


def test_an_id_already_taken_or_malformed_is_refused(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    click_select(w, "upper", 12, 10)
    panel = w.properties.feature_panel
    n = steps(w)
    for text in ("UD2", "no spaces"):
        panel.widgets["id"].setText(text)
        panel._text("id", text)  # as editingFinished would (the validator already stops the second one)
        assert w.doc.mission.doors[0].id == "UD1" and steps(w) == n
    assert "UD2 is taken" in panel.message.text() or "not a valid id" in panel.message.text()


def test_renaming_an_entry_area_renames_the_blips_that_name_it(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    e = w.doc.mission.entry_areas[0]  # L-W, named by the starting blips and reinforcement row 1
    click_select(w, e.level, e.x, e.y)
    panel = w.properties.feature_panel
    n = steps(w)
    panel.widgets["id"].setText("LowWest")
    panel.widgets["id"].editingFinished.emit()
    g = w.doc.mission.genestealers
    assert g.starting.entry_areas[0] == "LowWest" and g.reinforcements[0].entry_areas[0] == "LowWest"
    assert steps(w) == n + 1
    assert not [i for i in w.doc.validate_now() if i.rule.startswith("REF-")]
    w.doc.undo_stack.undo()
    assert g is w.doc.mission.genestealers and w.doc.mission.genestealers.starting.entry_areas[0] == "L-W"


def test_a_marine_edits_rank_weapons_and_facing(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    mm = w.doc.mission.marines.squad[2]
    click_select(w, mm.level, mm.x, mm.y)
    panel = w.properties.feature_panel
    kind, got = panel.current()
    assert kind == "squad" and got is mm
    for field, value in (("rank", "archivist"), ("melee", "force_axe"), ("ranged", "none"), ("facing", "W")):
        box = panel.widgets[field]
        box.setCurrentIndex(box.findData(value))
        box.activated.emit(box.currentIndex())
        assert getattr(w.doc.mission.marines.squad[2], field) == value
    panel.widgets["storm_shield"].setChecked(True)
    assert w.doc.mission.marines.squad[2].storm_shield


def test_moving_a_feature_from_the_panel_takes_the_selection_along(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "rubble", Rubble("upper", 3, 10)))
    click_select(w, "upper", 3, 10)
    panel = w.properties.feature_panel
    x = panel.widgets["x"]
    assert x.maximum() == 29 and x.minimum() == 0  # the grid, not beyond
    n = steps(w)
    x.setValue(4)
    assert w.doc.mission.rubble[-1].x == 4 and steps(w) == n + 1
    level, rect = w.ctx.selection
    assert (level, rect.boundingRect()) == ("upper", QRect(4, 10, 1, 1))
    assert panel.current()[1] is w.doc.mission.rubble[-1]


def test_a_ladder_edits_both_ends(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "ladders", Ladder("LAD1", Square("upper", 3, 10),
                                                                     Square("lower", 3, 10))))
    click_select(w, "lower", 3, 10)
    panel = w.properties.feature_panel
    assert panel.current()[0] == "ladders"
    panel.widgets["bottomy"].setValue(11)
    assert w.doc.mission.ladders[0].bottom == Square("lower", 3, 11)
    assert w.doc.mission.ladders[0].top == Square("upper", 3, 10)


def test_several_features_on_the_selection_are_offered_to_choose(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.ctx.set_selection("upper", QRect(10, 5, 8, 8))  # doors UD1 (12,10) and UD2 (15,7)
    panel = w.properties.feature_panel
    assert panel.chooser.count() >= 2 and not panel.chooser.isHidden()
    labels = [panel.chooser.itemText(i) for i in range(panel.chooser.count())]
    assert {"door UD1 · Upper level 12,10", "door UD2 · Upper level 15,7"} <= set(labels)
    panel.chooser.setCurrentIndex(labels.index("door UD2 · Upper level 15,7"))
    panel.chooser.activated.emit(panel.chooser.currentIndex())
    assert panel.current()[1].id == "UD2"


def test_pitfall_letter_must_be_free(window) -> None:  # type: ignore[no-untyped-def]
    from engine.mission.model import Pitfall

    w = window
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("Q", "upper", 3, 10)))
    click_select(w, "upper", 3, 10)
    panel = w.properties.feature_panel
    panel._text("letter", "R")
    assert w.doc.mission.pitfalls[-1].letter == "R"
    taken = next((c.letter for c in (w.doc.mission.random_setup.counters if w.doc.mission.random_setup else [])
                  if c.letter), None)
    if taken:
        panel._text("letter", taken)
        assert w.doc.mission.pitfalls[-1].letter == "R" and "taken" in panel.message.text()


# --- Levels panel ----------------------------------------------------------------------------------
def row(panel, level: str):  # type: ignore[no-untyped-def]
    tree = panel.tree
    return next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                if tree.topLevelItem(i).text(3).startswith(level + " "))


def test_hiding_a_level_keeps_its_tab_and_hides_its_map_and_its_outline_above(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    panel = w.levels_panel
    w.act_below.setChecked(True)
    w.toggle_below()
    assert w.views["upper"].level_scene.ghost.isVisible()
    row(panel, "lower").setCheckState(0, Qt.CheckState.Unchecked)
    assert w.tabs.isTabVisible(1) and w.tabs.tabText(1).endswith("(hidden)") and w.tabs.isTabVisible(0)
    assert not w.views["lower"].level_scene.terrain.isVisible()
    assert not w.views["upper"].level_scene.ghost.isVisible()
    row(panel, "upper").setCheckState(0, Qt.CheckState.Unchecked)  # the last one shown stays
    assert w.tabs.isTabVisible(0) and "stays shown" in panel.message.text()
    row(panel, "lower").setCheckState(0, Qt.CheckState.Checked)
    assert w.tabs.tabText(1) == "1: Lower level" and w.views["lower"].level_scene.terrain.isVisible()
    assert w.views["upper"].level_scene.ghost.isVisible()
    assert w.doc.undo_stack.count() == 0  # showing is not an edit of the mission


def test_a_locked_level_refuses_tools_but_allows_selecting(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.show()
    qtbot.waitExposed(w)
    row(w.levels_panel, "upper").setCheckState(1, Qt.CheckState.Checked)
    view = w.views["upper"]
    view.fit()
    w.set_tool(w.tool_named("Deployment"))
    before = mission_to_dict(w.doc.mission)
    from PySide6.QtCore import QPointF

    from editor.scene.terrain_item import S

    qtbot.mouseClick(view.viewport(), L, pos=view.mapFromScene(QPointF(S * 3.5, S * 10.5)))
    assert mission_to_dict(w.doc.mission) == before
    assert "locked" in w.statusBar().currentMessage()
    w.ctx.set_selection("upper", QRect(3, 10, 2, 2))
    from editor.tools.special_tools import delete_selection

    assert not delete_selection(w.ctx) and mission_to_dict(w.doc.mission) == before
    row(w.levels_panel, "upper").setCheckState(1, Qt.CheckState.Unchecked)
    assert delete_selection(w.ctx)


def test_opacity_of_the_level_below(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.levels_panel.opacity.setValue(70)
    assert w.views["upper"].level_scene.ghost.opacity() == pytest.approx(0.7)
    assert w.levels_panel.opacity_label.text() == "70%"


def test_rename_inline_reorder_and_change_id(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    panel = w.levels_panel
    item = row(panel, "lower")
    item.setText(2, "Sump")
    assert w.doc.level("lower").name == "Sump" and w.tabs.tabText(1) == "1: Sump"
    panel.select("lower")
    panel.move_level(-1)
    assert w.doc.level("lower").depth == 0 and w.tabs.tabText(0) == "0: Sump"
    w.doc.undo_stack.undo()
    panel.select("lower")
    n = steps(w)
    assert panel.change_id("sump")
    assert steps(w) == n + 1
    assert w.doc.mission.level("lower") is None and "sump" in w.views
    assert all(e.level != "lower" for e in w.doc.mission.entry_areas)
    assert not [i for i in w.doc.validate_now() if i.rule.startswith("REF-")]
    assert not panel.change_id("upper") and "already" in panel.message.text()
    assert not panel.change_id("bad id") and "not an id" in panel.message.text()
    w.doc.undo_stack.undo()
    assert "lower" in w.views and w.doc.mission.entry_areas[0].level == "lower"


def test_a_reinforcement_row_every_nth_turn_is_edited_in_its_column_and_kept_by_other_edits(window) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QTableWidgetItem

    w = window
    form = w.properties.stealer_form
    table = form.table
    col = table.columnCount() - 1
    assert table.horizontalHeaderItem(col).text() == "every"
    table.setItem(0, col, QTableWidgetItem("2"))
    assert w.doc.mission.genestealers.reinforcements[0].every == 2
    table.setItem(0, 2, QTableWidgetItem("3"))  # per_turn: the row keeps its every
    row = w.doc.mission.genestealers.reinforcements[0]
    assert (row.per_turn, row.every) == (3, 2)
    assert mission_to_dict(w.doc.mission)["genestealers"]["reinforcements"][0]["every"] == 2
    w.doc.undo_stack.undo()
    w.doc.undo_stack.undo()
    assert w.doc.mission.genestealers.reinforcements[0].every == 1
