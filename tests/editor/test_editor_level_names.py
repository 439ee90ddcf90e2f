"""What a designer reads names a level by its name, not its id: messages, panels, export file names."""

from __future__ import annotations

import copy

import pytest
from PySide6.QtCore import QRect, Qt

from editor.commands import AddFeatureCommand
from engine.export.files import level_file_names
from engine.mission.model import Pitfall, Rubble

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def test_messages_and_panels_name_the_level(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    said: list[str] = []
    w.ctx.message = said.append
    w.level_view.set_locked("lower", True)
    assert not w.ctx.editable("lower")
    assert said[-1].startswith("level Lower level is locked")
    w.level_view.set_locked("lower", False)
    w.set_tool(w.tool_named("Ladder"))
    t = w.tool_named("Ladder")
    t.press(w.views["upper"].level_scene, 14, 9, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    assert "bottom end on Lower level" in said[-1]
    t.cancel()

    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("A", "upper", 15, 11)))
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "rubble", Rubble("upper", 16, 11)))
    w.doc.validate_now()
    tree = w.validation.tree
    places = {tree.topLevelItem(i).text(2) for i in range(tree.topLevelItemCount())}
    assert "Upper level 15,11" in places and not any(p.startswith("upper") for p in places)

    w.ctx.set_selection("upper", QRect(12, 10, 1, 1))
    panel = w.properties.feature_panel
    assert "Upper level 12,10" in panel.chooser.itemText(0)
    combo = panel.widgets["level"]
    assert [combo.itemText(i) for i in range(combo.count())] == ["Upper level", "Lower level"]
    assert combo.currentData() == "upper"


def test_level_file_names_are_the_names_and_stay_apart(window) -> None:  # type: ignore[no-untyped-def]
    m = copy.deepcopy(window.doc.mission)
    assert level_file_names(m) == {"upper": "upper-level", "lower": "lower-level"}
    for lv in m.levels:
        lv.name = "Deck"
    assert level_file_names(m) == {"upper": "deck-upper", "lower": "deck-lower"}
    m.levels[0].name = ""
    assert level_file_names(m)["upper"] == "upper"
