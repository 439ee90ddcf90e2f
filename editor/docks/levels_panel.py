"""The Levels panel, after Tiled's layers: show or hide, lock, rename, reorder (depth), add and remove levels, and
how strongly the level below shows through. Mission edits are commands; showing and locking are view state."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QSlider,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.commands import AddLevelCommand, ChangeValueCommand, CompoundCommand
from editor.commands.levels import change_level_id, remove_level
from editor.document import MissionDocument
from editor.level_view import LevelView
from engine.mission.model import WALL, Level

SHOW, LOCK, NAME, INFO = range(4)
LEVEL_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_NAME = 80
MAX_LEVELS = 8


def blank_level(level_id: str, depth: int, width: int, height: int, name: str = "") -> Level:
    """A level of walls, ready to paint."""
    return Level(level_id, depth, [WALL * width for _ in range(height)], name or level_id)


class LevelsPanel(QWidget):
    """Levels top-down (depth 0 first), each with Show and Lock boxes and an editable name."""

    def __init__(self, doc: MissionDocument, view: LevelView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc, self.view = doc, view
        self._loading = False
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Show", "Lock", "Level", "Id · size"])
        self.tree.setRootIsDecorated(False)
        self.tree.setToolTip("Levels from the top (depth 0) down. Show: its tab and its faint outline on the level "
                             "above. Lock: tools leave it alone. Double-click a name to rename it.")
        for col, width in ((SHOW, 46), (LOCK, 42), (NAME, 130)):
            self.tree.setColumnWidth(col, width)
        self.tree.itemChanged.connect(self._item_changed)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.tree)
        # Two rows of three: one row of six buttons made the dock (and the window's minimum width) too wide.
        row = QGridLayout()
        for i, (text, tip, slot) in enumerate((
            ("Add", "Add a level of walls below the lowest one, as large as it", self.add_level),
            ("Remove…", "Remove the selected level, every feature on it and every reference to them "
                        "(asks first; one undo step)", self.remove_level),
            ("Up", "Move the selected level up (swap depth with the one above)", lambda: self.move_level(-1)),
            ("Down", "Move the selected level down (swap depth with the one below)", lambda: self.move_level(1)),
            ("Rename…", "Rename the selected level (its id stays, features keep pointing at it)", self.rename_level),
            ("Id…", "Give the selected level another id; its features, random zones and victory conditions "
                    "follow (one undo step)", self.change_id),
        )):
            b = QPushButton(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _checked=False, f=slot: f())
            row.addWidget(b, i // 3, i % 3)
        lay.addLayout(row)
        below = QHBoxLayout()
        self.show_below = QCheckBox("Level below")
        self.show_below.setToolTip("Draw the floor of the level below faintly (View › Show level below, Ctrl+B)")
        self.show_below.toggled.connect(view.set_show_below)
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(5, 100)
        self.opacity.setToolTip("Opacity of the level below")
        self.opacity.valueChanged.connect(lambda v: view.set_below_opacity(v / 100))
        self.opacity_label = QLabel()
        below.addWidget(self.show_below)
        below.addWidget(self.opacity, 1)
        below.addWidget(self.opacity_label)
        lay.addLayout(below)
        self.message = QLabel()
        self.message.setWordWrap(True)
        lay.addWidget(self.message)
        doc.levelsChanged.connect(self.refresh)
        view.changed.connect(self.refresh)
        self.refresh()

    # --- showing the list ------------------------------------------------------------------------
    def refresh(self) -> None:
        current = self.selected()
        self._loading = True
        levels = self.doc.mission.levels_top_down()
        items = self._items()
        if [item.data(NAME, Qt.ItemDataRole.UserRole) for item in items] != levels or any(
                item.data(NAME, Qt.ItemDataRole.UserRole) is not lv for item, lv in zip(items, levels, strict=True)):
            # Rebuilt only when the levels themselves change: this may run inside an item's own signal (a box
            # ticked), and deleting that item then would crash.
            self.tree.clear()
            for lv in levels:
                item = QTreeWidgetItem()
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEditable)
                item.setData(NAME, Qt.ItemDataRole.UserRole, lv)
                self.tree.addTopLevelItem(item)
            items = self._items()
        for item, lv in zip(items, levels, strict=True):
            item.setText(NAME, lv.name or lv.id)
            item.setText(INFO, f"{lv.id} · {lv.width}×{lv.height} · depth {lv.depth}")
            item.setToolTip(NAME, f"Level {lv.id}: double-click to rename")
            item.setCheckState(SHOW, Qt.CheckState.Unchecked if lv.id in self.view.hidden else Qt.CheckState.Checked)
            item.setCheckState(LOCK, Qt.CheckState.Checked if lv.id in self.view.locked else Qt.CheckState.Unchecked)
            if lv is current:
                self.tree.setCurrentItem(item)
        if self.tree.currentItem() is None and items:
            self.tree.setCurrentItem(items[0])
        self.show_below.setChecked(self.view.show_below)
        self.opacity.setValue(round(self.view.below_opacity * 100))
        self.opacity_label.setText(f"{round(self.view.below_opacity * 100)}%")
        self._loading = False

    def selected(self) -> Level | None:
        item = self.tree.currentItem()
        lv = item.data(NAME, Qt.ItemDataRole.UserRole) if item is not None else None
        return lv if isinstance(lv, Level) and any(lv is x for x in self.doc.mission.levels) else None

    def _items(self) -> list[QTreeWidgetItem]:
        return [item for i in range(self.tree.topLevelItemCount()) if (item := self.tree.topLevelItem(i)) is not None]

    def select(self, level_id: str) -> None:
        for item in self._items():
            if item.data(NAME, Qt.ItemDataRole.UserRole).id == level_id:
                self.tree.setCurrentItem(item)

    def _item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._loading:
            return
        lv: Level = item.data(NAME, Qt.ItemDataRole.UserRole)
        if column == SHOW:
            hide = item.checkState(SHOW) != Qt.CheckState.Checked
            if hide and len(self.view.hidden | {lv.id}) >= len(self.doc.mission.levels):
                self.say("One level at least stays shown.")
                self.refresh()
                return
            self.view.set_hidden(lv.id, hide)
        elif column == LOCK:
            self.view.set_locked(lv.id, item.checkState(LOCK) == Qt.CheckState.Checked)
        elif column == NAME:
            self.rename_level(item.text(NAME), lv)

    def say(self, text: str) -> None:
        self.message.setText(text)

    # --- edits -------------------------------------------------------------------------------------
    def add_level(self) -> Level | None:
        m = self.doc.mission
        if len(m.levels) >= MAX_LEVELS:
            self.say(f"A mission has at most {MAX_LEVELS} levels.")
            return None
        lowest = max(m.levels, key=lambda lv: lv.depth)
        n = len(m.levels) + 1
        while m.level(f"level{n}") is not None:
            n += 1
        lv = blank_level(f"level{n}", lowest.depth + 1, lowest.width, lowest.height, f"Level {n}")
        self.doc.undo_stack.push(AddLevelCommand(self.doc, lv))
        self.select(lv.id)
        return lv

    def remove_level(self, ask: bool = True) -> bool:
        """Remove the selected level after saying what goes with it; one undo step. True when removed."""
        lv = self.selected()
        if lv is None:
            return False
        if len(self.doc.mission.levels) == 1:
            self.say("A mission keeps one level at least.")
            return False
        cmd, goes = remove_level(self.doc, lv)
        if ask:
            detail = "".join(f"\n• {line}" for line in goes) if goes else "\nNothing else stands on it."
            answer = QMessageBox.question(
                self, "Remove level", f"Remove level {lv.name or lv.id} ({lv.id}) and with it:{detail}\n\n"
                "Undo (Ctrl+Z) brings it all back.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        self.doc.undo_stack.push(cmd)
        self.view.set_hidden(lv.id, False)
        return True

    def rename_level(self, name: str | None = None, level: Level | None = None) -> None:
        """Rename a level (the selected one by default); asks for the name when none is given."""
        lv = level or self.selected()
        if lv is None:
            return
        if not isinstance(name, str):
            text, ok = QInputDialog.getText(self, "Rename level", "Name:", text=lv.name)
            if not ok:
                return
            name = text
        name = name.strip()[:MAX_NAME]
        if name != lv.name:
            self.doc.undo_stack.push(ChangeValueCommand(self.doc, lv, "name", name, "levels", "Rename level"))
        else:
            self.refresh()

    def change_id(self, new_id: str | None = None) -> bool:
        """Give the selected level another id (letters, digits, '-' and '_'); its features follow."""
        lv = self.selected()
        if lv is None:
            return False
        if not isinstance(new_id, str):
            text, ok = QInputDialog.getText(self, "Level id", "Id (letters, digits, - and _):", text=lv.id)
            if not ok:
                return False
            new_id = text.strip()
        if not LEVEL_ID.fullmatch(new_id):
            self.say(f"{new_id!r} is not an id: 1 to 32 letters, digits, '-' or '_'.")
            return False
        if any(other.id == new_id for other in self.doc.mission.levels):
            self.say(f"Another level is already called {new_id}.")
            return False
        old = lv.id
        self.doc.undo_stack.push(change_level_id(self.doc, lv, new_id))
        self.view.rename(old, new_id)
        self.select(new_id)
        return True

    def move_level(self, step: int) -> None:
        lv = self.selected()
        if lv is None:
            return
        other = self.doc.mission.level_above(lv.id) if step < 0 else self.doc.mission.level_below(lv.id)
        if other is None:
            return
        cmd = CompoundCommand("Reorder levels")
        ChangeValueCommand(self.doc, lv, "depth", other.depth, "levels", parent=cmd)
        ChangeValueCommand(self.doc, other, "depth", lv.depth, "levels", parent=cmd)
        self.doc.undo_stack.push(cmd)
        self.select(lv.id)
