"""ComparePanel: two variants on shared seeds, side by side, with the difference in win rate."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from editor.lab import chart_data as cd
from editor.lab.options_table import OverridesTable
from editor.lab.plots import (
    FOREGROUND,
    SIDE_COLOURS,
    bars_with_errors,
    new_layout,
    style_plot,
    swatch,
    translucent,
)
from editor.lab.runs import LabRun
from engine.stats import compare_on_shared_seeds, newcombe_diff

VARIANT_COLOURS = ("#1565c0", "#ef6c00")


class ComparePanel(QWidget):
    """Variant A is the mission as edited with the run panel's settings; B is a file or other settings."""

    runRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs: list[LabRun] = []
        self.data: dict[str, Any] = {}
        self.mode_file = QRadioButton("B = another mission file (same settings)")
        self.mode_settings = QRadioButton("B = this mission with other settings")
        self.mode_settings.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.mode_file)
        group.addButton(self.mode_settings)
        self.path = QLineEdit()
        self.path.setPlaceholderText("mission file for variant B (.json)")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        self.overrides_b = OverridesTable()
        self.run_button = QPushButton("Compare A and B")
        self.run_button.clicked.connect(self.runRequested)
        self.result = QLabel("A: this mission with the run panel's settings. Games and seed come from the run "
                             "panel; both variants play the same seeds.")
        self.result.setWordWrap(True)
        box = QGroupBox("Variant B")
        bl = QVBoxLayout(box)
        bl.addWidget(self.mode_settings)
        bl.addWidget(self.overrides_b, 1)
        bl.addWidget(self.mode_file)
        bl.addLayout(row)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(box, 1)
        ll.addWidget(self.run_button)
        ll.addWidget(self.result)

        self.canvas = new_layout()
        self.p_side = self.canvas.addPlot(row=0, col=0)
        self.p_diff = self.canvas.addPlot(row=0, col=1)
        self.legend = self.p_side.addLegend(offset=(-5, 5), labelTextColor=FOREGROUND)
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(self.canvas)
        split.setSizes([330, 700])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)
        self.clear()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Mission for variant B", "", "Missions (*.json)")
        if path:
            self.path.setText(path)
            self.mode_file.setChecked(True)

    def variant_b(self) -> dict[str, Any]:
        """{"mission": path} or {"settings": {...}}."""
        if self.mode_file.isChecked():
            return {"mission": self.path.text().strip()}
        return {"settings": self.overrides_b.settings()}

    def clear(self) -> None:
        """Empty both plots, titles kept."""
        self.p_side.clear()
        self.p_diff.clear()
        style_plot(self.p_side, "Outcomes, A vs B (Wilson 95%)", "", "share of games")
        style_plot(self.p_diff, "Marine win rate A − B (95%)", "", "percentage points")
        # Headroom above 100% keeps the legend off the bars.
        self.p_side.setYRange(0, 1.22, padding=0.0)
        self.p_side.getAxis("left").setTicks([[(v / 5, f"{v / 5:.1f}") for v in range(6)], []])
        self.p_diff.getAxis("left").enableAutoSIPrefix(False)
        self.data = {}

    def show_runs(self, runs: list[LabRun]) -> None:
        """Draw both variants and their difference (partial while they run)."""
        self.runs = runs
        self.clear()
        if len(runs) != 2:
            return
        a, b = runs
        legend = self.legend
        legend.clear()
        for k, (run, colour) in enumerate(zip(runs, VARIANT_COLOURS, strict=True)):
            r = cd.outcome_rates(run.stats)
            x = np.arange(3) + (k - 0.5) * 0.36
            bars_with_errors(self.p_side, [], r.rate, r.low, r.high, [colour] * 3, x=x, width=0.34)
            legend.addItem(swatch(colour), f"{'AB'[k]}: {run.label}")
            self.data["AB"[k]] = r
        self.p_side.getAxis("bottom").setTicks([[(float(i), lab) for i, (_, lab) in enumerate(cd.OUTCOME_LABELS)]])
        self.p_side.setXRange(-0.6, 2.6, padding=0)
        d, lo, hi = compare_on_shared_seeds(a.stats, b.stats, "marines")
        nd, nlo, nhi = newcombe_diff(a.stats.wins["marines"], a.stats.games, b.stats.wins["marines"], b.stats.games)
        self.data["diff"] = (d, lo, hi)
        self.data["newcombe"] = (nd, nlo, nhi)
        zero = pg.InfiniteLine(pos=0, angle=0, pen=pg.mkPen("#888888", style=pg.QtCore.Qt.PenStyle.DashLine))
        self.p_diff.addItem(zero)
        xs = np.array([0.0, 1.0])
        ys = 100 * np.array([d, nd])
        err = pg.ErrorBarItem(x=xs, y=ys, top=100 * np.array([hi - d, nhi - nd]),
                              bottom=100 * np.array([d - lo, nd - nlo]), beam=0.25, pen=pg.mkPen(FOREGROUND, width=2))
        self.p_diff.addItem(err)
        self.p_diff.addItem(pg.ScatterPlotItem(xs, ys, size=12, brush=[pg.mkBrush(SIDE_COLOURS["marines"]),
                                                                       pg.mkBrush(translucent("#555555", 200))]))
        self.p_diff.getAxis("bottom").setTicks([[(0.0, "paired (shared seeds)"), (1.0, "independent (Newcombe)")]])
        self.p_diff.setXRange(-0.6, 1.6, padding=0)
        span = 100 * max(0.05, abs(lo), abs(hi), abs(nlo), abs(nhi))
        self.p_diff.setYRange(-span * 1.1, span * 1.1, padding=0)
        games = min(a.stats.games, b.stats.games)
        self.result.setText(
            f"<b>Marine win rate A − B: {100 * d:+.1f} points</b> "
            f"(paired 95% [{100 * lo:+.1f}, {100 * hi:+.1f}], {games} shared seeds)<br>"
            f"A {100 * a.stats.rate('marines'):.1f}% of {a.stats.games}, B {100 * b.stats.rate('marines'):.1f}% of "
            f"{b.stats.games}. " + verdict(lo, hi))


def verdict(lo: float, hi: float) -> str:
    """Plain words for an interval of a difference."""
    if lo > 0:
        return "A favours the Marines more than B."
    if hi < 0:
        return "B favours the Marines more than A."
    return "No difference shown at 95%: play more games to narrow it."
