"""Tools on a real (offscreen) window: painting, placing every feature, previews, selection and paste."""

from __future__ import annotations

import copy

import pytest
from PySide6.QtCore import QPoint, Qt

from editor.features import features_at
from engine.mission import mission_to_dict

L, R = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
NO = Qt.KeyboardModifier.NoModifier

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def snap(w) -> dict:  # type: ignore[no-untyped-def, type-arg]
    return copy.deepcopy(mission_to_dict(w.doc.mission))


def click(w, tool: str, level: str, x: int, y: int, button=L, mods=NO) -> None:  # type: ignore[no-untyped-def]
    """Drive a tool the way the map view does."""
    t = w.tool_named(tool)
    w.set_tool(t)
    scene = w.views[level].level_scene
    t.hover(scene, x, y)
    t.press(scene, x, y, button, mods)
    t.release(scene, x, y, button, mods)


def view_point(w, level: str, x: int, y: int) -> QPoint:  # type: ignore[no-untyped-def]
    view = w.views[level]
    return view.mapFromScene((x + 0.5) * 32, (y + 0.5) * 32)


def test_brush_stroke_with_real_mouse_events_is_one_undo_step(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.show_level("upper")
    view = w.views["upper"]
    view.set_zoom(1.0)
    view.centerOn(6 * 32, 6 * 32)
    before = snap(w)
    qtbot.keyClick(view, Qt.Key.Key_B)  # the brush shortcut
    w.set_tool(w.tool_named("Brush"))
    vp = view.viewport()
    qtbot.mousePress(vp, L, pos=view_point(w, "upper", 4, 6))
    for x in range(5, 10):
        qtbot.mouseMove(vp, view_point(w, "upper", x, 6))
    qtbot.mouseRelease(vp, L, pos=view_point(w, "upper", 9, 6))
    assert w.doc.level("upper").rows[6][4:10] == "......"
    assert w.doc.undo_stack.count() == 1
    assert w.isWindowModified()
    w.doc.undo_stack.undo()
    assert snap(w) == before
    assert not w.isWindowModified()


def test_rectangle_fill_and_eraser(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    before = snap(w)
    t = w.tool_named("Rectangle")
    scene = w.views["upper"].level_scene
    t.press(scene, 7, 3, L, NO)
    t.move(scene, 9, 5, L, NO)
    t.release(scene, 9, 5, L, NO)
    assert all(w.doc.level("upper").rows[y][7:10] == "..." for y in (3, 4, 5))
    click(w, "Flood fill", "upper", 8, 4, R)  # back to wall
    assert w.doc.level("upper").rows[4][7:10] == "###"
    click(w, "Eraser", "upper", 12, 10)  # door UD1 and its square go
    assert not features_at(w.doc.mission, "upper", 12, 10)
    assert w.doc.level("upper").cell(12, 10) == "#"
    while w.doc.undo_stack.canUndo():
        w.doc.undo_stack.undo()
    assert snap(w) == before


def test_section_tool_creates_and_assigns(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    w.show_level("upper")
    code = w.tools_panel.create_section("Armoury", "room")
    assert w.doc.level("upper").sections[code].name == "Armoury"
    assert w.ctx.options.section == code
    click(w, "Section", "upper", 2, 2, mods=Qt.KeyboardModifier.ControlModifier)  # whole west store
    assert w.doc.level("upper").section_of(4, 4) == code
    assert w.doc.level("upper").cell(0, 0) == "#"


@pytest.mark.parametrize(
    ("tool", "kind", "x", "y"),
    [("Door", "doors", 3, 6), ("Bulkhead", "doors", 3, 7), ("Entry area", "entry_areas", 1, 1),
     ("Exit", "exits", 5, 1), ("Deployment", "squad", 20, 10), ("Objective", "objectives", 14, 9),
     ("Pitfall", "pitfalls", 14, 9), ("Rubble", "rubble", 16, 12), ("Chute", "chutes", 2, 4)],
)
def test_each_placement_tool_adds_its_feature_and_undo_restores(window, tool, kind, x, y) -> None:  # type: ignore[no-untyped-def]
    w = window
    before = snap(w)
    click(w, tool, "upper", x, y)
    placed = features_at(w.doc.mission, "upper", x, y, kind)
    assert placed, f"{tool} placed nothing"
    w.doc.undo_stack.undo()
    assert snap(w) == before
    w.doc.undo_stack.redo()
    click(w, tool, "upper", x, y, R)  # right click removes
    assert not features_at(w.doc.mission, "upper", x, y, kind)


def test_door_click_toggles_state_and_bulkhead_kind(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    click(w, "Door", "upper", 12, 10)
    door = features_at(w.doc.mission, "upper", 12, 10, "doors")[0][1]
    assert door.state == "open"
    click(w, "Bulkhead", "upper", 3, 7)
    assert features_at(w.doc.mission, "upper", 3, 7, "doors")[0][1].kind == "bulkhead"


def test_deployment_moves_the_chosen_marine_with_facing(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    marine = w.doc.mission.marines.squad[0]
    w.ctx.options.marine = marine.id
    w.ctx.options.facing = "S"
    click(w, "Deployment", "upper", 14, 9)
    moved = next(m for m in w.doc.mission.marines.squad if m.id == marine.id)
    assert (moved.x, moved.y, moved.facing) == (14, 9, "S")
    assert len(w.doc.mission.marines.squad) == 5


def test_pitfall_takes_next_free_letter_and_bottom_is_on_level_below(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    click(w, "Pitfall", "upper", 14, 9)
    letters = {p.letter for p in w.doc.mission.pitfalls}
    assert letters == {"G"}  # A-F are the random counters of pitfall.json
    assert w.doc.mission.level_below("upper").is_floor(14, 9)


def test_pitfall_preview_is_red_next_to_rubble(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    click(w, "Rubble", "upper", 15, 9)
    t = w.tool_named("Pitfall")
    w.set_tool(t)
    scene = w.views["upper"].level_scene
    t.hover(scene, 14, 9)
    assert scene.preview.ok is False and "PIT-ADJACENT" in scene.preview.reason
    t.hover(scene, 13, 8)  # diagonal is fine
    assert scene.preview.ok is True


def test_ladder_two_clicks_across_levels(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    click(w, "Ladder", "upper", 14, 9)
    assert w.current_level() == "lower"  # the view switched to place the bottom end
    click(w, "Ladder", "lower", 14, 9)
    ladder = w.doc.mission.ladders[-1]
    assert (ladder.top.level, ladder.bottom.level) == ("upper", "lower")
    assert (ladder.bottom.x, ladder.bottom.y) == (14, 9)
    assert w.doc.undo_stack.count() == 1


def test_turbo_lift_two_clicks_then_shift_click_adds_a_level(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    click(w, "Turbo-lift", "upper", 14, 9)
    assert w.doc.mission.lifts == []  # one entrance is no lift yet
    click(w, "Turbo-lift", "lower", 14, 9)
    lift = w.doc.mission.lifts[-1]
    assert [(e.level, e.x, e.y) for e in lift.entrances] == [("upper", 14, 9), ("lower", 14, 9)]
    click(w, "Turbo-lift", "lower", 13, 9, mods=Qt.KeyboardModifier.ShiftModifier)
    assert len(w.doc.mission.lifts[-1].entrances) == 2  # a lift stops once per level
    assert features_at(w.doc.mission, "lower", 14, 9, "lifts")
    click(w, "Turbo-lift", "lower", 14, 9, button=R)
    assert w.doc.mission.lifts == []
    assert w.doc.undo_stack.count() == 2


def test_deployment_area_grows_by_clicks_and_shrinks_by_right_clicks(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    click(w, "Deployment area", "upper", 14, 9)
    click(w, "Deployment area", "upper", 13, 9)
    assert [a.squares for a in w.doc.mission.deployment_areas] == [[(14, 9), (13, 9)]]
    click(w, "Deployment area", "upper", 12, 9, mods=Qt.KeyboardModifier.ShiftModifier)
    assert len(w.doc.mission.deployment_areas) == 2
    click(w, "Deployment area", "upper", 14, 9, button=R)
    assert w.doc.mission.deployment_areas[0].squares == [(13, 9)]


def test_zone_tool_toggles_a_section(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    zones = list(w.doc.mission.random_setup.zones)
    click(w, "Random zone", "upper", 2, 10)  # section a is not a zone yet
    assert ("upper", "a") in w.doc.mission.random_setup.zones
    click(w, "Random zone", "upper", 2, 10)
    assert w.doc.mission.random_setup.zones == zones


def test_select_copy_paste_onto_another_level_and_rotate(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    before = snap(w)
    t = w.tool_named("Select")
    w.set_tool(t)
    up = w.views["upper"].level_scene
    t.press(up, 11, 9, L, NO)
    t.move(up, 13, 11, L, NO)
    t.release(up, 13, 11, L, NO)
    assert w.ctx.selection is not None and w.ctx.selection[1].boundingRect().width() == 3
    w.cut()
    assert not features_at(w.doc.mission, "upper", 12, 10, "doors")
    w.show_level("lower")
    low = w.views["lower"].level_scene
    t.move(low, 2, 12, NO, NO)
    w.paste()
    assert features_at(w.doc.mission, "lower", 3, 13, "doors")
    w.ctx.set_selection("lower", w.ctx.selection[1])
    from editor.tools.special_tools import rotate_selection

    assert rotate_selection(w.ctx)
    while w.doc.undo_stack.canUndo():
        w.doc.undo_stack.undo()
    assert snap(w) == before


def test_drag_inside_selection_moves_it(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    t = w.tool_named("Select")
    w.set_tool(t)
    up = w.views["upper"].level_scene
    t.press(up, 11, 9, L, NO)
    t.move(up, 13, 11, L, NO)
    t.release(up, 13, 11, L, NO)
    t.press(up, 12, 10, L, NO)
    t.move(up, 12, 11, L, NO)
    t.release(up, 12, 11, L, NO)
    door = next(d for d in w.doc.mission.doors if d.id == "UD1")
    assert (door.x, door.y) == (12, 11)


def test_rotate_map_action(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    from editor.commands.region import rotate_map

    w.doc.undo_stack.push(rotate_map(w.doc))
    assert w.doc.level("upper").width == 20
    assert w.views["upper"].level_scene.sceneRect().width() == (20 + 2) * 32
