"""OverridesTable: rule options and mission parameters a batch may override (name → value)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from engine.mission import Mission
from engine.rules.options import DEFAULTS, resolve_options
from engine.sim.cli_support import parse_value
from engine.sim.params import MISSION_PARAMS, apply_mission_params, is_mission_param


def setting_names() -> list[str]:
    """Every name a batch can override: rule options, then mission parameters."""
    return list(DEFAULTS) + list(MISSION_PARAMS)


def show_value(v: Any) -> str:
    """A value as typed in the table (JSON literals, bare strings)."""
    return json.dumps(v) if not isinstance(v, str) else v


def split_settings(settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(rule options, mission parameters)."""
    return ({k: v for k, v in settings.items() if not is_mission_param(k)},
            {k: v for k, v in settings.items() if is_mission_param(k)})


def check_settings(mission: Mission, settings: dict[str, Any]) -> None:
    """Raise ValueError (with the engine's message) when a name or value is not accepted."""
    import copy

    options, params = split_settings(settings)
    m = apply_mission_params(copy.deepcopy(mission), params)
    resolve_options(m, options)


def cell(table: QTableWidget, row: int, col: int) -> QTableWidgetItem:
    """The item of a cell this table always fills."""
    item = table.item(row, col)
    assert item is not None
    return item


class OverridesTable(QTableWidget):
    """Three columns: name, the value in force for this mission, the override (empty: keep)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 3, parent)
        self.setHorizontalHeaderLabels(["Setting", "Mission", "Override"])
        self.verticalHeader().setVisible(False)
        h = self.horizontalHeader()
        # Only the names size to their contents: the mission's values (long JSON lists) get a fixed column with
        # the full value as a tool tip, so the Override column always keeps room for its header and a value.
        h.setMinimumSectionSize(90)
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        h.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.setColumnWidth(1, 110)
        self.setAlternatingRowColors(True)
        names = setting_names()
        self.setRowCount(len(names))
        for row, name in enumerate(names):
            item = QTableWidgetItem(name)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            item.setToolTip(MISSION_PARAMS[name][1] if name in MISSION_PARAMS else "rule option (RULES.md)")
            self.setItem(row, 0, item)
            cur = QTableWidgetItem("")
            cur.setFlags(cur.flags() & ~Qt.ItemFlag.ItemIsEditable)
            cur.setForeground(Qt.GlobalColor.darkGray)
            self.setItem(row, 1, cur)
            self.setItem(row, 2, QTableWidgetItem(""))
        self.resizeRowsToContents()

    def show_mission(self, mission: Mission) -> None:
        """Fill the middle column with what the mission plays with when nothing is overridden."""
        try:
            resolved = resolve_options(mission)
        except ValueError:
            resolved = dict(DEFAULTS)
        current = {
            "reinforcements.per_turn": ",".join(str(r.per_turn) for r in mission.genestealers.reinforcements),
            "genestealers.starting_blips": mission.genestealers.starting.blips,
            "genestealers.model_cap": mission.genestealers.model_cap,
            "marines.psi_points": mission.marines.psi_points,
            "marines.count": len(mission.marines.squad),
            "reinforcements.scale": 1,
        }
        for row in range(self.rowCount()):
            name = cell(self, row, 0).text()
            value = resolved.get(name) if name in DEFAULTS else current.get(name, "")
            cell(self, row, 1).setText(show_value(value))
            cell(self, row, 1).setToolTip(show_value(value))

    def set_override(self, name: str, value: Any) -> None:
        """Type a value into the override column (tests and saved sessions)."""
        for row in range(self.rowCount()):
            if cell(self, row, 0).text() == name:
                cell(self, row, 2).setText("" if value is None else show_value(value))
                return
        raise KeyError(name)

    def settings(self) -> dict[str, Any]:
        """Overrides typed so far, values read as JSON literals where they are ones ("12", "true", "null")."""
        out: dict[str, Any] = {}
        for row in range(self.rowCount()):
            text = cell(self, row, 2).text().strip()
            if text:
                out[cell(self, row, 0).text()] = parse_value(text)
        return out
