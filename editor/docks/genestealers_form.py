"""The Genestealer side: blip pool, limits, starting blips and the reinforcement schedule table."""

from __future__ import annotations

from typing import Any, Literal

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.commands import ChangeValueCommand
from editor.docks.schema_info import number_range
from editor.document import MissionDocument
from engine.mission.model import LimitedPool, Reinforcement, StartingBlips

REINF_COLUMNS = ("from_turn", "to_turn", "per_turn", "entry_areas", "pool", "every")


def _ids(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


class GenestealersForm(QWidget):
    """Blip pool, limits, starting blips and the reinforcement schedule table."""

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self._loading = False
        form = QFormLayout()
        self.pool: dict[int, QSpinBox] = {}
        for n in (1, 2, 3):
            s = QSpinBox()
            s.setRange(*number_range("genestealers", "pool", str(n)))
            s.setToolTip(f"Blips worth {n} Genestealer(s) in the pool")
            s.valueChanged.connect(self._pool)
            self.pool[n] = s
            form.addRow(f"Blips of {n}", s)
        self.cap = QSpinBox()
        self.cap.setRange(*number_range("genestealers", "model_cap"))
        self.cap.setToolTip("Most Genestealer models on the board at once")
        self.cap.valueChanged.connect(lambda v: self._set(self.doc.mission.genestealers, "model_cap", v))
        form.addRow("Model cap", self.cap)
        self.alpha = QCheckBox("Genestealer Alpha allowed")
        self.alpha.setToolTip("Once per game a revealed '3' blip may be the Alpha")
        self.alpha.toggled.connect(lambda v: self._set(self.doc.mission.genestealers, "alpha", v))
        form.addRow("", self.alpha)
        self.limit_unit = QComboBox()
        self.limit_unit.addItems(["unlimited", "stealers", "blips"])
        self.limit_unit.setToolTip("Limit the total force by Genestealers or by blips")
        self.limit_unit.activated.connect(lambda _i: self._limit())
        self.limit_total = QSpinBox()
        self.limit_total.setRange(*number_range("genestealers", "limited", "total"))
        self.limit_total.setToolTip("The limit")
        self.limit_total.valueChanged.connect(lambda _v: self._limit())
        row = QHBoxLayout()
        row.addWidget(self.limit_unit)
        row.addWidget(self.limit_total)
        form.addRow("Total force", row)
        self.start_blips = QSpinBox()
        self.start_blips.setRange(*number_range("genestealers", "starting", "blips"))
        self.start_blips.setToolTip("Blips placed before the first turn")
        self.start_blips.valueChanged.connect(lambda _v: self._starting())
        self.start_areas = QLineEdit()
        self.start_areas.setToolTip("Entry area ids for the starting blips, comma-separated")
        self.start_areas.editingFinished.connect(self._starting)
        form.addRow("Starting blips", self.start_blips)
        form.addRow("…at entry areas", self.start_areas)
        self.table = QTableWidget(0, len(REINF_COLUMNS))
        self.table.setHorizontalHeaderLabels(["from turn", "to turn", "per turn", "entry areas", "pool", "every"])
        self.table.setToolTip("Reinforcement schedule: blips per turn from which entry areas; "
                              "blank 'to turn' = until the end")
        self.table.itemChanged.connect(self._reinf_changed)
        add = QPushButton("Add row")
        add.clicked.connect(lambda _checked=False: self.add_row())
        self.add_button = add
        remove = QPushButton("Remove row")
        remove.setToolTip("Remove the selected reinforcement row")
        remove.clicked.connect(self.remove_row)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(QLabel("<b>Reinforcements</b>"))
        lay.addWidget(self.table)
        self.note = QLabel()
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        lay.addLayout(buttons)
        doc.propertiesChanged.connect(self.refresh)
        doc.featuresChanged.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        self._loading = True
        g = self.doc.mission.genestealers
        for n, s in self.pool.items():
            s.setValue(g.pool.get(n, 0))
        self.cap.setValue(g.model_cap)
        self.alpha.setChecked(g.alpha)
        self.limit_unit.setCurrentText(g.limited.unit if g.limited else "unlimited")
        self.limit_total.setValue(g.limited.total if g.limited else 0)
        self.limit_total.setEnabled(g.limited is not None)
        self.start_blips.setValue(g.starting.blips)
        self.start_areas.setText(", ".join(g.starting.entry_areas))
        self.table.setRowCount(len(g.reinforcements))
        for r, rf in enumerate(g.reinforcements):
            values = (rf.from_turn, "" if rf.to_turn is None else rf.to_turn, rf.per_turn,
                      ", ".join(rf.entry_areas), rf.pool, rf.every)
            for c, v in enumerate(values):
                item = QTableWidgetItem(str(v))
                item.setToolTip("pool: limited or unlimited" if c == 4 else
                                "every Nth turn of the row's range (1: every turn)" if c == 5 else "")
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        # A reinforcement needs an entry area to arrive at (the schema wants at least one).
        has_entries = bool(self.doc.mission.entry_areas)
        self.add_button.setEnabled(has_entries)
        self.add_button.setToolTip("Add a reinforcement row" if has_entries else
                                   "Place an entry area on the map first: reinforcements arrive at one")
        self._loading = False

    def _set(self, target: Any, key: str, value: Any) -> None:
        if not self._loading and getattr(target, key) != value:
            self.doc.undo_stack.push(ChangeValueCommand(self.doc, target, key, value, text=f"Change {key}"))

    def _pool(self) -> None:
        pool = {n: s.value() for n, s in self.pool.items()}
        self._set(self.doc.mission.genestealers, "pool", pool)

    def _limit(self) -> None:
        unit = self.limit_unit.currentText()
        value = None if unit == "unlimited" else LimitedPool(unit, self.limit_total.value())  # type: ignore[arg-type]
        self._set(self.doc.mission.genestealers, "limited", value)

    def _starting(self) -> None:
        value = StartingBlips(self.start_blips.value(), _ids(self.start_areas.text()))
        self._set(self.doc.mission.genestealers, "starting", value)

    def _reinf_changed(self, _item: QTableWidgetItem) -> None:
        if self._loading:
            return
        rows = []
        for r in range(self.table.rowCount()):
            cells = [(cell.text().strip() if (cell := self.table.item(r, c)) else "")
                     for c in range(len(REINF_COLUMNS))]
            try:
                rows.append(Reinforcement(int(cells[0]), int(cells[2]), _ids(cells[3]),
                                          int(cells[1]) if cells[1] else None,
                                          "unlimited" if cells[4] == "unlimited" else "limited",
                                          max(1, int(cells[5])) if cells[5] else 1))
            except ValueError:
                self.note.setText(f"row {r + 1}: turns and blips per turn are whole numbers")
                self.refresh()  # put the table back as the model has it
                return
            if not rows[-1].entry_areas:
                self.note.setText(f"row {r + 1}: name at least one entry area (comma-separated ids)")
                self.refresh()
                return
        self.note.setText("")
        self._set(self.doc.mission.genestealers, "reinforcements", rows)

    def add_row(self) -> None:
        """Add a row after the last one, arriving at the first entry area; nothing when there is none."""
        g = self.doc.mission.genestealers
        last = g.reinforcements[-1] if g.reinforcements else None
        start = (last.to_turn or last.from_turn) + 1 if last else 1
        areas = [e.id for e in self.doc.mission.entry_areas][:1]
        if not areas:
            self.note.setText("Place an entry area on the map first: reinforcements arrive at one")
            return
        # A limited row with no limit set would draw without end (POOL-NO-LIMIT): a new row follows the pool.
        pool: Literal["limited", "unlimited"] = "limited" if g.limited is not None else "unlimited"
        self._set(g, "reinforcements", [*g.reinforcements, Reinforcement(start, 2, areas, pool=pool)])

    def remove_row(self) -> None:
        g = self.doc.mission.genestealers
        row = self.table.currentRow()
        if 0 <= row < len(g.reinforcements):
            self._set(g, "reinforcements", [r for i, r in enumerate(g.reinforcements) if i != row])
