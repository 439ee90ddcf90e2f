"""The level list: add, remove, rename and reorder (depth 0 is the top)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QInputDialog, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from editor.commands import AddLevelCommand, ChangeValueCommand, CompoundCommand, RemoveLevelCommand
from editor.document import MissionDocument
from engine.mission.model import WALL, Level


def blank_level(level_id: str, depth: int, width: int, height: int, name: str = "") -> Level:
    """A level of walls, ready to paint."""
    return Level(level_id, depth, [WALL * width for _ in range(height)], name or level_id)


class LevelsForm(QWidget):
    """Lists levels top-down; buttons build level commands."""

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.list = QListWidget()
        self.list.setToolTip("Levels from the top (depth 0) down")
        lay = QVBoxLayout(self)
        lay.addWidget(self.list)
        row = QHBoxLayout()
        for text, tip, slot in (
            ("Add", "Add a level of walls below the lowest one, as large as it", self.add_level),
            ("Remove", "Remove the selected level and every feature on it", self.remove_level),
            ("Rename…", "Rename the selected level (its id stays, features keep pointing at it)", self.rename_level),
            ("Up", "Move the selected level up (swap depth with the one above)", lambda: self.move_level(-1)),
            ("Down", "Move the selected level down (swap depth with the one below)", lambda: self.move_level(1)),
        ):
            b = QPushButton(text)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            row.addWidget(b)
        lay.addLayout(row)
        doc.levelsChanged.connect(self.refresh)
        doc.propertiesChanged.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        current = self.selected()
        self.list.clear()
        for lv in self.doc.mission.levels_top_down():
            item = QListWidgetItem(f"{lv.depth}: {lv.name or lv.id}  [{lv.id}, {lv.width}×{lv.height}]")
            item.setData(Qt.ItemDataRole.UserRole, lv.id)
            self.list.addItem(item)
            if current is not None and lv.id == current.id:
                self.list.setCurrentItem(item)

    def selected(self) -> Level | None:
        item = self.list.currentItem()
        return self.doc.mission.level(item.data(Qt.ItemDataRole.UserRole)) if item else None

    def add_level(self) -> Level:
        m = self.doc.mission
        lowest = max(m.levels, key=lambda lv: lv.depth)
        n = len(m.levels) + 1
        while m.level(f"level{n}") is not None:
            n += 1
        lv = blank_level(f"level{n}", lowest.depth + 1, lowest.width, lowest.height, f"Level {n}")
        self.doc.undo_stack.push(AddLevelCommand(self.doc, lv))
        return lv

    def remove_level(self) -> None:
        lv = self.selected()
        if lv is not None and len(self.doc.mission.levels) > 1:
            self.doc.undo_stack.push(RemoveLevelCommand(self.doc, lv))

    def rename_level(self, name: str | None = None) -> None:
        lv = self.selected()
        if lv is None:
            return
        if not isinstance(name, str):
            text, ok = QInputDialog.getText(self, "Rename level", "Name:", text=lv.name)
            if not ok:
                return
            name = text
        self.doc.undo_stack.push(ChangeValueCommand(self.doc, lv, "name", name, "levels", "Rename level"))

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
