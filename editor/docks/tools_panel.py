"""The tools dock: one button per tool (shortcuts in tooltips) and the options the tools read."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from editor.commands import ChangeValueCommand, SetSectionCommand
from editor.features import free_section_code
from editor.tools.base import ToolContext
from engine.mission.model import WALL, Level, Section

MAX_NAME = 80  # the schema's longest section name


class ToolsPanel(QWidget):
    """Tool buttons above a form of options; sections of the current level are created and named here."""

    def __init__(self, ctx: ToolContext, actions: list[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.level_id = ""
        grid = QGridLayout()
        grid.setSpacing(2)
        for i, act in enumerate(actions):
            b = QToolButton()
            b.setDefaultAction(act)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setMinimumWidth(92)
            grid.addWidget(b, i // 2, i % 2)
        form = QFormLayout()
        self.section = QComboBox()
        self.section.setToolTip("What the brush, rectangle, fill and section tools paint as floor")
        self.section.currentIndexChanged.connect(self._section_picked)
        self.new_section = QPushButton("New…")
        self.new_section.setToolTip("Create a section (room or corridor) on this level and paint with it")
        # clicked(bool) would arrive as the name: the dialog must ask for it.
        self.new_section.clicked.connect(lambda _checked=False: self.create_section())
        row = QHBoxLayout()
        row.addWidget(self.section, 1)
        row.addWidget(self.new_section)
        form.addRow("Floor", row)
        self.sec_name = QLineEdit()
        self.sec_name.setToolTip("Name of the chosen section (shown on the map)")
        self.sec_name.setMaxLength(MAX_NAME)
        self.sec_name.editingFinished.connect(self._rename_section)
        self.sec_kind = QComboBox()
        self.sec_kind.addItems(["room", "corridor"])
        self.sec_kind.setToolTip("A room or a corridor section")
        self.sec_kind.activated.connect(self._kind_section)
        form.addRow("Name", self.sec_name)
        form.addRow("Kind", self.sec_kind)
        self.brush_spin = QSpinBox()
        self.brush_spin.setRange(1, 9)
        self.brush_spin.setToolTip("Brush size in squares")
        self.brush_spin.valueChanged.connect(lambda v: setattr(ctx.options, "brush_size", v))
        form.addRow("Brush", self.brush_spin)
        self.facing = QComboBox()
        self.facing.addItems(["N", "E", "S", "W"])
        self.facing.setToolTip("Facing of a Marine placed with the deployment tool")
        self.facing.currentTextChanged.connect(lambda t: setattr(ctx.options, "facing", t))
        form.addRow("Facing", self.facing)
        self.side = QComboBox()
        self.side.addItems(["auto", "N", "E", "S", "W"])
        self.side.setToolTip("Side of an entry area or exit (auto: towards the nearest wall)")
        self.side.currentTextChanged.connect(lambda t: setattr(ctx.options, "side", t))
        form.addRow("Side", self.side)
        self.marine = QComboBox()
        self.marine.setToolTip("Deploy a new Marine, or move this one")
        self.marine.currentIndexChanged.connect(self._marine_picked)
        form.addRow("Marine", self.marine)
        self.rank = QComboBox()
        self.rank.addItems(["marine", "sergeant", "archivist"])
        self.rank.setToolTip("Rank of a new Marine")
        self.rank.currentTextChanged.connect(lambda t: setattr(ctx.options, "rank", t))
        form.addRow("Rank", self.rank)
        lay = QVBoxLayout(self)
        lay.addLayout(grid)
        lay.addLayout(form)
        lay.addStretch(1)
        ctx.doc.sectionsChanged.connect(lambda _lv: self.refresh())
        ctx.doc.featuresChanged.connect(self.refresh_marines)
        self._codes: tuple[str, ...] = ()
        # Rebuilding the combo on every brush step made painting slow: check once after a burst of edits.
        self._codes_timer = QTimer(self)
        self._codes_timer.setSingleShot(True)
        self._codes_timer.setInterval(150)
        self._codes_timer.timeout.connect(self._check_codes)
        ctx.doc.terrainChanged.connect(lambda level, _r: self._codes_timer.start() if level == self.level_id else None)

    def _check_codes(self) -> None:
        lv = self.ctx.doc.mission.level(self.level_id)
        if lv is not None and self._section_codes(lv) != self._codes:
            self.refresh()

    @staticmethod
    def _section_codes(lv: Level) -> tuple[str, ...]:
        # One set of the joined rows: a comprehension over 320,000 squares held a big map's window 30 ms.
        return tuple(sorted((set(lv.sections) | set("".join(lv.rows))) - {WALL, "."}))

    def set_level(self, level_id: str) -> None:
        self.level_id = level_id
        self.refresh()

    def refresh(self) -> None:
        lv = self.ctx.doc.mission.level(self.level_id)
        current = self.ctx.options.section
        self.section.blockSignals(True)
        self.section.clear()
        self.section.addItem("floor, no section", ".")
        self._codes = self._section_codes(lv) if lv is not None else ()
        if lv is not None:
            for code in self._codes:
                sec = lv.sections.get(code)
                self.section.addItem(f"{code} — {sec.name if sec else '(unnamed)'}", code)
        index = max(0, self.section.findData(current))
        self.section.setCurrentIndex(index)
        self.section.blockSignals(False)
        self._section_picked(index)
        self.refresh_marines()

    def choose_section(self, code: str) -> None:
        """Pick a section of the current level for painting and for its name and kind below."""
        self.ctx.options.section = code
        self.refresh()

    def refresh_marines(self) -> None:
        current = self.ctx.options.marine
        self.marine.blockSignals(True)
        self.marine.clear()
        self.marine.addItem("new Marine", "")
        for mm in self.ctx.doc.mission.marines.squad:
            self.marine.addItem(f"{mm.id} ({mm.rank})", mm.id)
        self.marine.setCurrentIndex(max(0, self.marine.findData(current)))
        self.marine.blockSignals(False)
        self.ctx.options.marine = self.marine.currentData() or ""

    def _marine_picked(self, index: int) -> None:
        self.ctx.options.marine = self.marine.itemData(index) or ""

    def _section(self) -> Section | None:
        lv = self.ctx.doc.mission.level(self.level_id)
        return lv.sections.get(self.ctx.options.section) if lv else None

    def _section_picked(self, index: int) -> None:
        self.ctx.options.section = self.section.itemData(index) or "."
        sec = self._section()
        self.sec_name.setEnabled(self.ctx.options.section != ".")
        self.sec_kind.setEnabled(self.ctx.options.section != ".")
        self.sec_name.setText(sec.name if sec else "")
        self.sec_kind.setCurrentText(sec.kind if sec else "corridor")

    def create_section(self, name: str | None = None, kind: str = "room") -> str:
        """Create a section on the current level, choose it for painting, and return its code."""
        lv = self.ctx.doc.level(self.level_id)
        used = set(lv.sections) | {c for row in lv.rows for c in row}
        code = free_section_code(used - {WALL, "."} | {WALL, "."})
        if name is None:
            text, ok = QInputDialog.getText(self, "New section", f"Name of section '{code}':")
            if not ok:
                return ""
            name = text[:MAX_NAME]
        self.ctx.push(SetSectionCommand(self.ctx.doc, self.level_id, code, Section(name, kind)))  # type: ignore[arg-type]
        self.ctx.options.section = code
        self.refresh()
        return code

    def _rename_section(self) -> None:
        code = self.ctx.options.section
        sec = self._section()
        name = self.sec_name.text()
        if code == ".":
            return
        if sec is None:
            self.ctx.push(SetSectionCommand(self.ctx.doc, self.level_id, code, Section(name, "corridor")))
        elif sec.name != name:
            self.ctx.push(ChangeValueCommand(self.ctx.doc, sec, "name", name, f"sections:{self.level_id}",
                                             "Rename section"))

    def _kind_section(self) -> None:
        code = self.ctx.options.section
        sec = self._section()
        kind = self.sec_kind.currentText()
        if code == ".":
            return
        if sec is None:
            self.ctx.push(SetSectionCommand(self.ctx.doc, self.level_id, code, Section(self.sec_name.text(), kind)))  # type: ignore[arg-type]
        elif sec.kind != kind:
            self.ctx.push(ChangeValueCommand(self.ctx.doc, sec, "kind", kind, f"sections:{self.level_id}",
                                             "Section kind"))
