"""Small dialogs: New mission (size and number of levels)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QSpinBox, QWidget

from editor.docks.schema_info import most_items
from engine.mission.model import Genestealers, Level, Marine, Marines, Meta, Mission, Section


class NewMissionDialog(QDialog):
    """Asks for a title, the map size and the number of levels."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New mission")
        form = QFormLayout(self)
        self.title = QLineEdit("Untitled mission")
        self.title.setToolTip("Mission title")
        self.width_ = QSpinBox()
        self.width_.setRange(5, most_items("levels", "[]", "rows", "[]"))
        self.width_.setValue(30)
        self.width_.setToolTip("Squares across")
        self.height_ = QSpinBox()
        self.height_.setRange(5, most_items("levels", "[]", "rows"))
        self.height_.setValue(20)
        self.height_.setToolTip("Squares down")
        self.levels = QSpinBox()
        self.levels.setRange(1, most_items("levels"))
        self.levels.setValue(1)
        self.levels.setToolTip("Number of stacked levels (depth 0 is the top)")
        form.addRow("Title", self.title)
        form.addRow("Width", self.width_)
        form.addRow("Height", self.height_)
        form.addRow("Levels", self.levels)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def mission(self) -> Mission:
        return new_mission(self.title.text() or "Untitled mission", self.width_.value(), self.height_.value(),
                           self.levels.value())


def new_mission(title: str, width: int, height: int, levels: int) -> Mission:
    """A walled map with a small starting room and one Marine on the top level, ready to paint."""
    lvls = []
    for d in range(levels):
        rows = ["#" * width for _ in range(height)]
        lvls.append(Level("upper" if levels > 1 and d == 0 else f"level{d + 1}", d, rows, f"Level {d + 1}"))
    top = lvls[0]
    room_w, room_h = min(5, width - 2), min(3, height - 2)
    for y in range(1, 1 + room_h):
        top.rows[y] = "#" + "a" * room_w + "#" * (width - 1 - room_w)
    top.sections["a"] = Section("Start", "room")
    return Mission(
        meta=Meta(title),
        levels=lvls,
        marines=Marines([Marine("M1", "sergeant", top.id, 1, 1, "E")]),
        genestealers=Genestealers(),
        victory=[{"kind": "marines_eliminated"}],
    )
