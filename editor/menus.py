# mypy: disable-error-code="attr-defined"
# (a mixin: the attributes it uses are the MainWindow's)
"""Menus and the edit/view actions of the main window (a mixin: `self` is the MainWindow)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect
from PySide6.QtGui import QAction, QCursor, QKeySequence
from PySide6.QtWidgets import QMenu

from editor.commands.region import area_squares, rotate_map
from editor.features import KINDS, features_at, features_in
from editor.tools.special_tools import (
    SelectTool,
    copy_selection,
    delete_selection,
    paste_clipboard,
    paste_in_place,
    rotate_selection,
    select_kind,
)


class MenuActions:
    """File, Edit, View and Tools menus; Edit and View actions act on the window's document and views."""

    def _action(self, menu: QMenu, text: str, slot: Any, shortcut: Any = None, tip: str = "") -> QAction:
        act: QAction = QAction(text, self)  # type: ignore[call-overload]
        if shortcut is not None:
            if isinstance(shortcut, list):
                act.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                act.setShortcut(QKeySequence(shortcut))
        act.setToolTip(tip or text.replace("&", "").rstrip("…"))
        act.setStatusTip(act.toolTip())
        act.triggered.connect(lambda _c=False: slot())
        menu.addAction(act)
        return act

    def _make_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.make_file_menu(self.file_menu)
        edit = bar.addMenu("&Edit")
        self.act_undo = self._action(edit, "&Undo", lambda: self.doc.undo_stack.undo(), QKeySequence.StandardKey.Undo)
        self.act_redo = self._action(edit, "&Redo", lambda: self.doc.undo_stack.redo(), QKeySequence.StandardKey.Redo)
        # Both habits redo: Ctrl+Shift+Z (the platform's) and Ctrl+Y (Windows', Tiled's).
        redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        self.act_redo.setShortcuts([*redo_keys, *[k for k in (QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y"))
                                                  if k not in redo_keys]])
        edit.addSeparator()
        self._action(edit, "Cu&t", self.cut, QKeySequence.StandardKey.Cut, "Copy the selection, then delete it")
        self._action(edit, "&Copy", lambda: copy_selection(self.ctx), QKeySequence.StandardKey.Copy,
                     "Copy the selected region (terrain and features)")
        self._action(edit, "&Paste", self.paste, QKeySequence.StandardKey.Paste,
                     "Paste at the square under the mouse, on the level shown (any level)")
        self._action(edit, "Paste in p&lace", lambda: self._on_level(lambda lv: paste_in_place(self.ctx, lv)),
                     "Ctrl+Shift+V", "Paste where the copy was taken from, on the level shown")
        self._action(edit, "&Delete", lambda: delete_selection(self.ctx), QKeySequence.StandardKey.Delete,
                     "Remove the features in the selection and turn it to wall")
        self._action(edit, "Select &all", self.select_all, QKeySequence.StandardKey.SelectAll)
        kinds = edit.addMenu("Select all of &kind")
        kinds.setToolTipsVisible(True)
        self._action(kinds, "Same kind as the selection", self.select_same_kind, "Ctrl+Shift+A",
                     "Select every feature of the kind selected, on the level shown")
        kinds.addSeparator()
        for kind, name in KINDS.items():
            plural = name if name == "rubble" else f"{name}s"
            self._action(kinds, plural.capitalize(), lambda k=kind: self.select_kind(k),
                         tip=f"Select every {name} on the level shown")
        edit.addSeparator()
        self._action(edit, "&Rotate selection 90°", lambda: rotate_selection(self.ctx), "Ctrl+R",
                     "Turn the selected region clockwise about its top-left corner")
        self._action(edit, "Rotate &map 90°", self.rotate_map,
                     "Ctrl+Shift+R", "Turn every level and feature clockwise")
        view = bar.addMenu("&View")
        self._action(view, "Zoom &in", lambda: self._zoom(1.25), ["Ctrl+=", "Ctrl++"])
        self._action(view, "Zoom &out", lambda: self._zoom(0.8), "Ctrl+-")
        self._action(view, "&Fit level", lambda: self.current_view() and self.current_view().fit(), "Ctrl+0")
        view.addSeparator()
        self.act_grid = self._action(view, "Show &grid", self.toggle_grid, "Ctrl+G", "Draw the square grid")
        self.act_grid.setCheckable(True)
        self.act_grid.setChecked(True)
        self.act_below = self._action(view, "Show level &below", self.toggle_below, "Ctrl+B",
                                      "Draw the floor of the level below faintly, to line up pitfalls and ladders")
        self.act_below.setCheckable(True)
        self._action(view, "&Next level", lambda: self._step_level(1), "Ctrl+PgDown", "Show the level below")
        self._action(view, "&Previous level", lambda: self._step_level(-1), "Ctrl+PgUp", "Show the level above")
        view.addSeparator()
        for dock in (self.tools_dock, self.levels_dock, self.legend_dock, self.properties_dock,
                     self.validation_dock, self.history_dock):
            view.addAction(dock.toggleViewAction())
        tools = bar.addMenu("&Tools")
        for act in self.tool_actions.values():
            tools.addAction(act)
        for menu in (self.file_menu, edit, view, tools):
            menu.setToolTipsVisible(True)
        self.help_menu = self.make_help_menu()

    def act_by_text(self, text: str) -> QAction:
        """The menu action whose text (without '&') starts with text (scripts and tests drive the menus by it)."""
        found = next((a for a in self.findChildren(QAction) if a.text().replace("&", "").startswith(text)), None)
        if found is None:
            raise KeyError(text)
        return found

    def selection_menu(self, level: str, x: int, y: int) -> QMenu:
        """The Select tool's right-click menu: select the kinds of the features on the square, and the clipboard."""
        menu = QMenu(self)
        for kind in dict.fromkeys(k for k, _ in features_at(self.doc.mission, level, x, y)):
            name = KINDS[kind]
            menu.addAction(f"Select all {name if name == 'rubble' else name + 's'} of this level",
                           lambda k=kind: (self.show_level(level), self.select_kind(k)))
        if not menu.isEmpty():
            menu.addSeparator()
        for text in ("Cut", "Copy", "Paste", "Paste in place", "Delete", "Select all"):
            menu.addAction(self.act_by_text(text))
        return menu

    def show_selection_menu(self, level: str, x: int, y: int) -> None:
        self.selection_menu(level, x, y).popup(QCursor.pos())

    # --- edit actions -------------------------------------------------------------------------
    def cut(self) -> None:
        if copy_selection(self.ctx):
            delete_selection(self.ctx)

    def paste(self) -> None:
        level = self.current_level()
        if level is None or self.ctx.clipboard is None:
            return
        select = next(t for t in self.tools if isinstance(t, SelectTool))
        hover = self._last_hover
        x, y = (hover[1], hover[2]) if hover[0] == level and hover[1] is not None else (0, 0)
        if select.hover_square and select.hover_square[0] == level:
            x, y = select.hover_square[1], select.hover_square[2]
        paste_clipboard(self.ctx, level, x, y)

    def rotate_map(self) -> None:
        if all(self.ctx.editable(lv.id) for lv in self.doc.mission.levels):
            self.doc.undo_stack.push(rotate_map(self.doc))

    def _on_level(self, act: Any) -> None:
        level = self.current_level()
        if level is not None:
            act(level)

    def select_kind(self, kind: str) -> None:
        level = self.current_level()
        if level is None:
            return
        lv = self.doc.mission.level(level)
        n = select_kind(self.ctx, level, kind)
        self.show_status(f"{n} {KINDS[kind]}(s) selected on {lv.name or lv.id if lv else level}", 4000)

    def select_same_kind(self) -> None:
        sel = self.ctx.selection
        found = features_in(self.doc.mission, sel[0], area_squares(sel[1])) if sel else []
        if not found:
            self.show_status("select a feature first: its kind is the one selected", 4000)
            return
        self.show_level(sel[0])
        self.select_kind(found[0][0])

    def select_all(self) -> None:
        level = self.current_level()
        if level is not None:
            lv = self.doc.level(level)
            self.ctx.set_selection(level, QRect(0, 0, lv.width, lv.height))

    def _zoom(self, factor: float) -> None:
        view = self.current_view()
        if view is not None:
            view.zoom_by(factor)

    def toggle_grid(self) -> None:
        self.show_grid = self.act_grid.isChecked()
        for view in self.views.values():
            view.level_scene.set_show_grid(self.show_grid)

    def toggle_below(self) -> None:
        self.level_view.set_show_below(self.act_below.isChecked())

    def _step_level(self, step: int) -> None:
        i = self.tabs.currentIndex() + step
        if 0 <= i < self.tabs.count():
            self.tabs.setCurrentIndex(i)

