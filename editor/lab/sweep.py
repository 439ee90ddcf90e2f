"""SweepPanel: one setting over a list of values, on shared seeds → the win-rate curve with its band."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from editor.lab.options_table import setting_names
from editor.lab.plots import SIDE_COLOURS, line_with_band, new_layout, style_plot
from editor.lab.runs import LabRun
from engine.sim.cli_support import parse_value
from engine.stats import sweep_curve

OUTCOMES = (("marines", "Marine win rate"), ("genestealers", "Genestealer win rate"), ("draw", "Draw rate"))


def parse_values(text: str) -> list[Any]:
    """'1, 2, 3' or '1 2 3' -> [1, 2, 3]; words stay strings; 'a..b' (integers) expands to a range."""
    parts = [p for chunk in text.replace(";", ",").split(",") for p in chunk.split()]
    out: list[Any] = []
    for p in parts:
        lo, sep, hi = p.partition("..")
        if sep and lo.lstrip("-").isdigit() and hi.lstrip("-").isdigit():
            out.extend(range(int(lo), int(hi) + 1))
        else:
            out.append(parse_value(p))
    return out


class SweepPanel(QWidget):
    """Games and seed come from the run panel; every value plays the same seeds."""

    runRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs: list[LabRun] = []
        self.data: dict[str, Any] = {}
        self.param = QComboBox()
        self.param.addItems(setting_names())
        self.param.setCurrentText("reinforcements.per_turn")
        self.values = QLineEdit("0, 1, 2, 3")
        self.values.setToolTip("comma-separated values, or a range such as 1..6")
        self.outcome = QComboBox()
        for key, label in OUTCOMES:
            self.outcome.addItem(label, key)
        self.outcome.currentIndexChanged.connect(lambda _i: self.show_runs(self.runs))
        self.run_button = QPushButton("Run sweep")
        self.run_button.clicked.connect(self.runRequested)
        self.result = QLabel("One batch per value (games and seed from the run panel, other settings too).")
        self.result.setWordWrap(True)
        left = QWidget()
        form = QFormLayout(left)
        form.addRow("Setting", self.param)
        form.addRow("Values", self.values)
        form.addRow("Curve", self.outcome)
        form.addRow(self.run_button)
        form.addRow(self.result)
        self.canvas = new_layout()
        self.plot = self.canvas.addPlot()
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(self.canvas)
        split.setSizes([330, 700])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)
        self.clear()

    def sweep(self) -> tuple[str, list[Any]]:
        """(setting name, values) typed by the user."""
        return self.param.currentText(), parse_values(self.values.text())

    def clear(self) -> None:
        """Empty plot with the title of the current setting."""
        self.plot.clear()
        style_plot(self.plot, f"{self.outcome.currentText()} over {self.param.currentText()} (Wilson 95%)",
                   self.param.currentText(), self.outcome.currentText())
        self.plot.setYRange(0, 1, padding=0.02)
        self.data = {}

    def show_runs(self, runs: list[LabRun]) -> None:
        """Draw the curve over the values whose batches have games so far."""
        self.runs = runs
        self.clear()
        started = [r for r in runs if r.stats.games]
        if not started:
            return
        values = [r.value for r in started]
        outcome = str(self.outcome.currentData())
        curve = sweep_curve(values, [r.stats for r in started], outcome)
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        x = np.array(values, dtype=float) if numeric else np.arange(len(values), dtype=float)
        line_with_band(self.plot, x, curve.rate, curve.low, curve.high, SIDE_COLOURS.get(outcome, "#333"),
                       symbol="o")
        if not numeric or len(values) <= 12:
            # Tick exactly the swept values: "2, 3, 4" reads better than an automatic 2.0, 2.5, 3.0 scale.
            self.plot.getAxis("bottom").setTicks([[(float(xv), str(v)) for xv, v in zip(x, values, strict=True)]])
        self.data = {"values": values, "curve": curve}
        lines = [f"{v}: {100 * r:.1f}% [{100 * lo:.1f}–{100 * hi:.1f}] of {n}"
                 for v, r, lo, hi, n in zip(values, curve.rate, curve.low, curve.high, curve.games, strict=True)]
        self.result.setText("<br>".join(lines))
