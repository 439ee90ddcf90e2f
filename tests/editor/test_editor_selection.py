"""Selection as in Tiled: Shift adds, Ctrl takes away, select features by kind, Paste in Place; a paste onto another
level brings the section declarations its squares need."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt

from editor.commands import PaintTerrainCommand, SetSectionCommand
from editor.commands.region import area_squares
from engine.mission.model import Section

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")

L = Qt.MouseButton.LeftButton
NO, SHIFT, CTRL = Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier, Qt.KeyboardModifier.ControlModifier


def drag(w, level: str, a: tuple[int, int], b: tuple[int, int], mods=NO) -> None:  # type: ignore[no-untyped-def]
    t = w.tool_named("Select")
    w.set_tool(t)
    scene = w.views[level].level_scene
    t.press(scene, *a, L, mods)
    t.move(scene, *b, L, mods)
    t.release(scene, *b, L, mods)


def test_shift_adds_to_the_selection_and_ctrl_takes_away(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    drag(w, "upper", (1, 1), (3, 3))
    drag(w, "upper", (8, 8), (9, 9), SHIFT)
    level, area = w.ctx.selection
    assert level == "upper" and len(area_squares(area)) == 9 + 4
    assert area.contains(QPoint(2, 2)) and area.contains(QPoint(9, 9)) and not area.contains(QPoint(5, 5))
    drag(w, "upper", (2, 2), (2, 3), CTRL)
    assert len(area_squares(w.ctx.selection[1])) == 13 - 2 and not w.ctx.selection[1].contains(QPoint(2, 2))
    drag(w, "upper", (20, 15), (20, 15))  # a plain click starts afresh
    assert area_squares(w.ctx.selection[1]) == {(20, 15)}
    assert w.views["upper"].level_scene.selection.area is not None


def test_delete_of_a_shaped_selection_leaves_the_squares_outside_it(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    drag(w, "upper", (1, 1), (5, 4))
    drag(w, "upper", (1, 1), (5, 3), CTRL)  # only row 4 stays selected
    w.act_by_text("Delete").trigger()
    lv = w.doc.level("upper")
    assert lv.rows[4][1:6] == "#####" and lv.rows[2][1:6] == "jjjjj"


def test_select_all_of_a_kind_and_same_kind_as_the_selection(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.show_level("upper")
    w.act_by_text("Doors").trigger()
    doors = {(d.x, d.y) for d in w.doc.mission.doors if d.level == "upper"}
    assert w.ctx.selection[0] == "upper" and area_squares(w.ctx.selection[1]) == doors
    drag(w, "upper", (12, 10), (12, 10))  # one door
    w.act_by_text("Same kind as the selection").trigger()
    assert area_squares(w.ctx.selection[1]) == doors


def test_paste_in_place_onto_another_level_brings_the_section_declarations(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    doc = w.doc
    # A new section z on the upper level, and a y that both levels declare differently.
    doc.undo_stack.push(SetSectionCommand(doc, "upper", "z", Section("Vault", "room")))
    doc.undo_stack.push(SetSectionCommand(doc, "upper", "y", Section("Alpha", "room")))
    doc.undo_stack.push(SetSectionCommand(doc, "lower", "y", Section("Beta", "corridor")))
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(x, 14): "z" for x in range(20, 23)}
                                            | {(x, 15): "y" for x in range(20, 23)}))
    w.ctx.set_selection("upper", QRect(20, 14, 3, 2))
    w.act_by_text("Copy").trigger()
    w.show_level("lower")
    w.act_by_text("Paste in place").trigger()
    lower = doc.level("lower")
    assert lower.rows[14][20:23] == "zzz" and lower.sections["z"] == Section("Vault", "room")
    code = lower.rows[15][20]
    assert code not in ("y", "z") and lower.sections[code] == Section("Alpha", "room")
    assert lower.sections["y"] == Section("Beta", "corridor")
    doc.validate_now()
    assert not [i for i in doc.issues if i.rule == "SECTION-UNDECLARED"]
    doc.undo_stack.undo()  # the paste is one step, declarations included
    assert "z" not in lower.sections and lower.rows[14][20:23] != "zzz"


def test_the_select_tools_right_click_menu_selects_the_kind_under_the_mouse(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    menu = w.selection_menu("upper", 12, 10)  # door UD1
    texts = [a.text().replace("&", "") for a in menu.actions() if not a.isSeparator()]
    assert texts[0] == "Select all doors of this level" and "Paste in place" in texts
    menu.actions()[0].trigger()
    assert area_squares(w.ctx.selection[1]) == {(d.x, d.y) for d in w.doc.mission.doors if d.level == "upper"}
