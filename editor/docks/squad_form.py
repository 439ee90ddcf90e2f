"""The squad table: one row per Marine; every edit is a command."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.commands import AddFeatureCommand, ChangeValueCommand, RemoveFeatureCommand, ReplaceFeatureCommand
from editor.docks.schema_info import marine_enum, number_range
from editor.document import MissionDocument
from editor.features import next_id
from engine.mission.model import FACINGS, Marine

SQUAD_COLUMNS = ("id", "rank", "name", "ranged", "melee", "storm_shield", "level", "x", "y", "facing")


def _combo(values: list[str], current: str, on_change: Any) -> QComboBox:
    c = QComboBox()
    c.addItems(values)
    c.setCurrentText(current)
    c.activated.connect(lambda _i: on_change(c.currentText()))
    return c


class SquadForm(QWidget):
    """One row per Marine; enum columns are combo boxes taken from the schema."""

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self._loading = False
        self.table = QTableWidget(0, len(SQUAD_COLUMNS))
        self.table.setHorizontalHeaderLabels([c.replace("_", " ") for c in SQUAD_COLUMNS])
        self.table.setToolTip("The squad; place or move Marines on the map with the deployment tool (M)")
        self.table.itemChanged.connect(self._item_changed)
        self._levels: list[str] = []
        self._fresh = False
        add = QPushButton("Add Marine")
        add.setToolTip("Add a Marine on the first floor square of the first level (move it with the deployment tool)")
        add.clicked.connect(self.add_marine)
        remove = QPushButton("Remove")
        remove.setToolTip("Remove the selected Marine")
        remove.clicked.connect(self.remove_marine)
        self.psi = QSpinBox()
        self.psi.setRange(*number_range("marines", "psi_points"))
        self.psi.setToolTip("Psi points of the Archivist")
        self.psi.valueChanged.connect(self._psi)
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        row.addWidget(QLabel("Psi points"))
        row.addWidget(self.psi)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table)
        lay.addLayout(row)
        doc.featuresChanged.connect(self.refresh)
        doc.propertiesChanged.connect(self.refresh)
        doc.levelsChanged.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the cell widgets only when rows or levels change; otherwise update values in place
        (rebuilding widgets of a hidden table on every edit left stray editors drawn at the origin)."""
        self._loading = True
        squad = self.doc.mission.marines.squad
        levels = [lv.id for lv in self.doc.mission.levels_top_down()]
        if self.table.rowCount() != len(squad) or levels != self._levels:
            self._build(len(squad), levels)
        for r, mm in enumerate(squad):
            for c, col in enumerate(SQUAD_COLUMNS):
                value = getattr(mm, col)
                widget = self.table.cellWidget(r, c)
                if isinstance(widget, QComboBox):
                    widget.setCurrentText(str(value))
                elif isinstance(widget, QCheckBox):
                    widget.blockSignals(True)
                    widget.setChecked(bool(value))
                    widget.blockSignals(False)
                else:
                    item = self.table.item(r, c)
                    if item is None:
                        self.table.setItem(r, c, QTableWidgetItem(str(value)))
                    elif item.text() != str(value):
                        item.setText(str(value))
        if self._fresh:
            self.table.resizeColumnsToContents()
            self._fresh = False
        self.psi.setValue(self.doc.mission.marines.psi_points)
        self._loading = False

    def _build(self, rows: int, levels: list[str]) -> None:
        self._levels = levels
        self.table.clearContents()
        self.table.setRowCount(rows)
        for r in range(rows):
            for c, col in enumerate(SQUAD_COLUMNS):
                if col in ("rank", "ranged", "melee", "facing", "level"):
                    fixed: dict[str, list[str]] = {"facing": list(FACINGS), "level": levels}
                    choices = fixed[col] if col in fixed else marine_enum(col)
                    self.table.setCellWidget(r, c, _combo(choices, "", lambda v, i=r, k=col: self._set(i, k, v)))
                elif col == "storm_shield":
                    box = QCheckBox()
                    box.toggled.connect(lambda v, i=r: self._set(i, "storm_shield", v))
                    self.table.setCellWidget(r, c, box)
        self._fresh = True

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if self._loading:
            return
        col = SQUAD_COLUMNS[item.column()]
        text = item.text().strip()
        if col in ("x", "y"):
            mm = self.doc.mission.marines.squad[item.row()]
            lv = self.doc.mission.level(mm.level)
            size = (lv.width if col == "x" else lv.height) if lv is not None else 0
            if not text.isdigit() or int(text) >= size:  # a square of the map, never beside it
                self.refresh()
                return
            self._set(item.row(), col, int(text))
        else:
            self._set(item.row(), col, text)

    def _set(self, row: int, key: str, value: Any) -> None:
        if self._loading:
            return
        old = self.doc.mission.marines.squad[row]
        if getattr(old, key) == value:
            return
        self.doc.undo_stack.push(ReplaceFeatureCommand(self.doc, "squad", old, dataclasses.replace(old, **{key: value}),
                                                       f"Change {old.id} {key}"))

    def _psi(self, value: int) -> None:
        if not self._loading and value != self.doc.mission.marines.psi_points:
            self.doc.undo_stack.push(ChangeValueCommand(self.doc, self.doc.mission.marines, "psi_points", value))

    def add_marine(self) -> None:
        m = self.doc.mission
        lv = m.levels_top_down()[0]
        taken = {(mm.level, mm.x, mm.y) for mm in m.marines.squad}
        spot = next(((x, y) for y in range(lv.height) for x in range(lv.width)
                     if lv.is_floor(x, y) and (lv.id, x, y) not in taken), (0, 0))
        self.doc.undo_stack.push(AddFeatureCommand(self.doc, "squad", Marine(next_id(m, "squad", "M"), "marine",
                                                                              lv.id, *spot, "N")))

    def remove_marine(self) -> None:
        row = self.table.currentRow()
        squad = self.doc.mission.marines.squad
        if 0 <= row < len(squad):
            self.doc.undo_stack.push(RemoveFeatureCommand(self.doc, "squad", squad[row]))
