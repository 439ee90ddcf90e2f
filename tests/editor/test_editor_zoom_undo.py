"""The map's wheel zoom keeps the square under the cursor; an edit that changes nothing is no undo step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from editor.commands import ChangeValueCommand
from editor.scene.terrain_item import S

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def wheel(view, pos: QPoint, notches: int) -> None:  # type: ignore[no-untyped-def]
    event = QWheelEvent(QPointF(pos), QPointF(view.viewport().mapToGlobal(pos)), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)


def test_wheel_zoom_keeps_the_square_under_the_cursor(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.show()
    qtbot.waitExposed(window)
    view = window.current_view()
    view.set_zoom(1.0)
    pos = view.mapFromScene(QPointF(20.5 * S, 3.5 * S))
    assert view.square_at(pos) == (20, 3)
    for notches in (3, 2, -1, 4):
        wheel(view, pos, notches)
        assert view.square_at(pos) == (20, 3), view.zoom()
    assert view.zoom() > 2.5
    view.set_zoom(0.3)  # the whole level smaller than the view: no room to scroll without the margin
    pos = view.mapFromScene(QPointF(20.5 * S, 3.5 * S))
    for notches in (2, 3, -1):
        wheel(view, pos, notches)
        assert view.square_at(pos) == (20, 3), view.zoom()


L, NO = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def stroke(w, tool: str, level: str, x: int, y: int) -> None:  # type: ignore[no-untyped-def]
    t = w.tool_named(tool)
    w.set_tool(t)
    scene = w.views[level].level_scene
    t.press(scene, x, y, L, NO)
    t.release(scene, x, y, L, NO)


def test_an_edit_that_changes_nothing_keeps_the_redo_steps_and_the_file_clean(window) -> None:  # type: ignore[no-untyped-def]
    w = window
    stack = w.doc.undo_stack
    for x in range(3, 8):
        stroke(w, "Brush", "upper", x, 1)
    while stack.canUndo():
        stack.undo()
    assert stack.count() == 5 and not w.doc.dirty
    assert w.doc.level("upper").cell(1, 0) == "#"
    stroke(w, "Eraser", "upper", 1, 0)  # erasing a wall
    lv = w.doc.mission.levels[0]
    stack.push(ChangeValueCommand(w.doc, lv, "name", lv.name))  # the same name again
    assert stack.count() == 5 and stack.index() == 0 and not w.doc.dirty and not w.isWindowModified()
    while stack.canRedo():
        stack.redo()
    assert stack.index() == 5


def test_ctrl_y_redoes_as_well_as_ctrl_shift_z(window) -> None:  # type: ignore[no-untyped-def]
    keys = {k.toString() for k in window.act_redo.shortcuts()}
    assert {"Ctrl+Y", "Ctrl+Shift+Z"} <= keys
