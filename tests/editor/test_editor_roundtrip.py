"""Seeded random editing sessions: whatever the tools do, undoing everything gives the file back exactly."""

from __future__ import annotations

import copy
import random

import pytest
from PySide6.QtCore import QRect, Qt

from editor.commands.region import rotate_map
from editor.tools.special_tools import copy_selection, delete_selection, paste_clipboard, rotate_selection
from engine.mission import mission_to_dict

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")

L, R = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
NO = Qt.KeyboardModifier.NoModifier
CLICK_TOOLS = ("Brush", "Rectangle", "Flood fill", "Eraser", "Section", "Door", "Bulkhead", "Entry area", "Exit",
               "Deployment", "Objective", "Pitfall", "Ladder", "Rubble", "Chute", "Random zone")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_session_undoes_to_the_original_and_redoes_to_the_end(window, seed: int) -> None:  # type: ignore[no-untyped-def]
    w = window
    rng = random.Random(seed)
    before = copy.deepcopy(mission_to_dict(w.doc.mission))
    for _ in range(60):
        level = rng.choice(["upper", "lower"])
        w.show_level(level)
        scene = w.views[level].level_scene
        x, y = rng.randrange(0, 30), rng.randrange(0, 20)
        op = rng.random()
        if op < 0.75:
            tool = w.tool_named(rng.choice(CLICK_TOOLS))
            w.set_tool(tool)
            button = L if rng.random() < 0.8 else R
            tool.hover(scene, x, y)
            tool.press(scene, x, y, button, NO)
            tool.move(scene, min(29, x + 2), y, button, NO)
            tool.release(scene, min(29, x + 2), y, button, NO)
        elif op < 0.85:
            w.ctx.set_selection(level, QRect(x, y, rng.randrange(1, 4), rng.randrange(1, 4)))
            copy_selection(w.ctx)
            target = rng.choice(["upper", "lower"])
            paste_clipboard(w.ctx, target, rng.randrange(0, 27), rng.randrange(0, 17))
        elif op < 0.92:
            w.ctx.set_selection(level, QRect(x, y, 3, 3))
            rng.choice([delete_selection, rotate_selection])(w.ctx)
        else:
            w.doc.undo_stack.push(rotate_map(w.doc))
    w.tool_named("Ladder").cancel()
    w.doc.validate_now()  # must not raise, whatever the map has become
    end = copy.deepcopy(mission_to_dict(w.doc.mission))
    steps = w.doc.undo_stack.count()
    assert steps > 20  # the session really edited (edits that changed nothing are no steps)
    w.doc.undo_stack.setIndex(0)
    assert mission_to_dict(w.doc.mission) == before
    w.doc.undo_stack.setIndex(steps)
    assert mission_to_dict(w.doc.mission) == end
