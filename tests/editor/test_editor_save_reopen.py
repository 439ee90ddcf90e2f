"""Property: whatever sequence of editor commands a designer runs, what is saved opens again as the same mission
(nothing to repair), and the editor's own commands do not make a valid mission break the file format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRect, Qt

from editor.commands.region import rotate_map
from editor.document import MissionDocument
from editor.tools.special_tools import copy_selection, delete_selection, paste_clipboard, rotate_selection
from engine.mission import mission_to_dict

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")

L, R = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
NO, SHIFT = Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier
TOOLS = ("Brush", "Rectangle", "Flood fill", "Eraser", "Section", "Door", "Bulkhead", "Entry area", "Exit",
         "Deployment", "Objective", "Pitfall", "Ladder", "Rubble", "Chute", "Random zone", "Select")
coord = st.integers(-2, 31)
op = st.one_of(
    st.tuples(st.just("tool"), st.sampled_from(TOOLS), coord, coord, st.sampled_from([L, R]), st.booleans()),
    st.tuples(st.just("region"), st.sampled_from(["copy-paste", "delete", "rotate"]), coord, coord),
    st.tuples(st.just("feature"), st.integers(0, 40), st.integers(0, 10), st.integers(0, 10)),
    st.tuples(st.just("level"), st.sampled_from(["add", "remove", "up", "down", "rename", "id"]), st.integers(0, 3)),
    st.tuples(st.just("form"), st.sampled_from(["reinf-add", "reinf-remove", "marine-add", "marine-remove",
                                                 "section", "victory", "rotate-map"]), st.integers(0, 9)),
    st.tuples(st.just("undo"), st.integers(1, 3)),
    st.tuples(st.just("redo"), st.integers(1, 2)),
)


def run(w, step: tuple[Any, ...]) -> None:  # type: ignore[no-untyped-def]
    levels = [lv.id for lv in w.doc.mission.levels_top_down()]
    kind = step[0]
    if kind == "tool":
        _, name, x, y, button, shift = step
        level = levels[(x + y) % len(levels)]
        w.show_level(level)
        scene = w.views[level].level_scene
        tool = w.tool_named(name)
        w.set_tool(tool)
        tool.hover(scene, x, y)
        tool.press(scene, x, y, button, SHIFT if shift else NO)
        tool.move(scene, x + 1, y, button, NO)
        tool.release(scene, x + 1, y, button, NO)
    elif kind == "region":
        _, what, x, y = step
        level = levels[x % len(levels)]
        w.ctx.set_selection(level, QRect(x, y, 3, 2))
        if what == "copy-paste":
            copy_selection(w.ctx)
            paste_clipboard(w.ctx, levels[y % len(levels)], y, x % 20)
        else:
            (delete_selection if what == "delete" else rotate_selection)(w.ctx)
    elif kind == "feature":
        _, pick, field, value = step
        features = [(k, i) for k in ("doors", "entry_areas", "exits", "objectives", "pitfalls", "ladders", "rubble",
                                     "chutes", "squad")
                    for i in range(len(w.doc.mission.marines.squad if k == "squad" else getattr(w.doc.mission, k)))]
        if not features:
            return
        panel = w.properties.feature_panel
        panel.choose(*features[pick % len(features)])
        names = [n for n in panel.widgets if panel.widgets[n].isEnabled()]
        name = names[field % len(names)]
        widget = panel.widgets[name]
        from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox

        if isinstance(widget, QComboBox) and widget.count():
            widget.setCurrentIndex(value % widget.count())
            widget.activated.emit(widget.currentIndex())
        elif isinstance(widget, QSpinBox):
            widget.setValue(widget.minimum() + value % (widget.maximum() - widget.minimum() + 1))
        elif isinstance(widget, QCheckBox):
            widget.setChecked(not widget.isChecked())
        elif isinstance(widget, QLineEdit):
            panel._text(name, ["X1", "E1", "A", "Zed", "L-W", "", "B"][value % 7])
    elif kind == "level":
        _, what, which = step
        panel = w.levels_panel
        panel.select(levels[which % len(levels)])
        {"add": panel.add_level, "remove": lambda: panel.remove_level(ask=False),
         "up": lambda: panel.move_level(-1), "down": lambda: panel.move_level(1),
         "rename": lambda: panel.rename_level(f"Deck {which}"), "id": lambda: panel.change_id(f"deck{which}")}[what]()
    elif kind == "form":
        _, what, n = step
        props = w.properties
        if what == "reinf-add":
            props.stealer_form.add_row()
        elif what == "reinf-remove":
            props.stealer_form.table.setCurrentCell(n % 3, 0)
            props.stealer_form.remove_row()
        elif what == "marine-add":
            props.squad_form.add_marine()
        elif what == "marine-remove":
            props.squad_form.table.setCurrentCell(n % 6, 0)
            props.squad_form.remove_marine()
        elif what == "section":
            w.tools_panel.create_section(f"Room {n}")
        elif what == "victory":
            props.victory_form.add_template(["escape", "turn_limit", "marines_eliminated", "section_flamed"][n % 4])
        else:
            w.doc.undo_stack.push(rotate_map(w.doc))
    elif kind == "undo":
        for _ in range(step[1]):
            w.doc.undo_stack.undo()
    else:
        for _ in range(step[1]):
            w.doc.undo_stack.redo()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(st.lists(op, min_size=1, max_size=25))
def test_any_editing_session_saves_a_file_that_reopens_the_same(window, pitfall_path: Path, tmp_path: Path,
                                                                steps: list) -> None:  # type: ignore[type-arg]
    w = window
    w.set_document(MissionDocument.open(pitfall_path, w))
    w.tool_named("Ladder").cancel()
    for step in steps:
        run(w, step)
    w.tool_named("Ladder").cancel()
    # The one format error a designer may make on purpose: removing every Marine (to deploy them again);
    # saving then warns. Nothing else the editor does may break the format.
    made = [i for i in w.doc.validate_now() if i.rule == "SCHEMA" and i.path != "$.marines.squad"]
    assert made == [], f"the editor's own commands broke the format: {made}"
    target = tmp_path / "session.json"
    w.doc.save(target)
    again = MissionDocument.open(target)
    assert again.read_notes == []
    assert mission_to_dict(again.mission) == mission_to_dict(w.doc.mission)
    again.deleteLater()
    w.doc.undo_stack.setClean()
