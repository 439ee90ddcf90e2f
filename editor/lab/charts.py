"""ChartsView: the six charts of a batch (outcomes, convergence, length, survival, casualties, per Marine).

The plot items are made once and only get new data: rebuilding them several times a second while a batch
runs would cost the GUI thread more than the statistics themselves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from editor.lab import chart_data as cd
from editor.lab.plots import (
    FOREGROUND,
    SIDE_COLOURS,
    Band,
    BarsWithErrors,
    integer_ticks,
    new_layout,
    style_plot,
    swatch,
)
from editor.lab.runs import LabRun

EMPTY = np.zeros(0)


def pct(x: float) -> str:
    """0.123 -> "12.3%"."""
    return f"{100 * x:.1f}%"


class ChartsView(QWidget):
    """Redrawn from a LabRun whenever games arrive; `data` holds exactly what is drawn (tests read it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.headline = QLabel("No batch yet: choose policies and press Run.")
        self.headline.setWordWrap(True)
        self.headline.setStyleSheet("font-size: 11pt; padding: 2px;")
        self.canvas = new_layout()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.headline)
        lay.addWidget(self.canvas, 1)
        c = self.canvas
        self.p_outcome = c.addPlot(row=0, col=0)
        self.p_convergence = c.addPlot(row=0, col=1)
        self.p_length = c.addPlot(row=0, col=2)
        self.p_survival = c.addPlot(row=1, col=0)
        self.p_casualties = c.addPlot(row=1, col=1)
        self.p_marines = c.addPlot(row=1, col=2)
        style_plot(self.p_outcome, "Outcome (Wilson 95%)", "", "share of games")
        style_plot(self.p_convergence, "Marine win rate vs games played", "games", "Marine win rate")
        style_plot(self.p_length, "Game length", "turns", "games")
        style_plot(self.p_survival, "Marine survival", "turn", "Marines alive")
        style_plot(self.p_casualties, "Casualties per game", "models lost", "games")
        style_plot(self.p_marines, "Survival of each Marine (95%)", "", "alive at the end")
        for p in (self.p_outcome, self.p_convergence, self.p_survival, self.p_marines):
            p.setYRange(0, 1, padding=0.02)
            p.enableAutoRange(axis="y", enable=False)
        self.outcome_bars = BarsWithErrors(self.p_outcome, errors=True)
        self.p_outcome.getAxis("bottom").setTicks([[(float(i), lab) for i, (_, lab) in enumerate(cd.OUTCOME_LABELS)]])
        self.p_outcome.setXRange(-0.6, 2.6, padding=0)
        self.convergence_band = Band(self.p_convergence, SIDE_COLOURS["marines"])
        self.length_bars = BarsWithErrors(self.p_length, errors=False)
        self.survival_line = self.p_survival.plot(
            pen=pg.mkPen(SIDE_COLOURS["marines"], width=2), symbol="o", symbolSize=4,
            symbolBrush=SIDE_COLOURS["marines"], symbolPen=None)
        self.casualty_bars = {side: BarsWithErrors(self.p_casualties, errors=False)
                              for side in ("marines", "genestealers")}
        legend = self.p_casualties.addLegend(offset=(-5, 5), labelTextColor=FOREGROUND)
        legend.addItem(swatch(SIDE_COLOURS["marines"]), "Marines")
        legend.addItem(swatch(SIDE_COLOURS["genestealers"]), "Genestealers")
        self.marine_bars = BarsWithErrors(self.p_marines, errors=True)
        self.data: dict[str, Any] = {}
        self._marine_labels: list[str] = []

    def clear(self) -> None:
        """Empty charts with their titles."""
        self.outcome_bars.set_data(EMPTY, EMPTY, [])
        self.convergence_band.set_data(EMPTY, EMPTY, EMPTY, EMPTY)
        self.length_bars.set_data(EMPTY, EMPTY, [])
        self.survival_line.setData(EMPTY, EMPTY)
        for bars in self.casualty_bars.values():
            bars.set_data(EMPTY, EMPTY, [])
        self.marine_bars.set_data(EMPTY, EMPTY, [])
        self.data = {}
        self.headline.setText("No games yet.")

    def show_run(self, run: LabRun) -> None:
        """Give every chart the run's current numbers (cheap: a few hundred values)."""
        stats = run.stats
        out = cd.outcome_rates(stats)
        colours = [SIDE_COLOURS[k] for k, _ in cd.OUTCOME_LABELS]
        self.outcome_bars.set_data(np.arange(3, dtype=float), out.rate, colours, out.low, out.high)
        self.data["outcomes"] = out

        games, rate, low, high = cd.convergence(run.progress_marine_wins)
        self.convergence_band.set_data(games.astype(float), rate, low, high)
        self.data["convergence"] = (games, rate, low, high)

        turns, counts = cd.length_histogram(stats)
        self.length_bars.set_data(turns.astype(float), counts.astype(float), ["#607d8b"], width=0.85)
        integer_ticks(self.p_length.getAxis("bottom"), float(turns.max()) if len(turns) else 1.0)
        self.data["length"] = (turns, counts)

        s_turns, alive = cd.survival(stats)
        if stats.games and len(s_turns):
            self.survival_line.setData(s_turns.astype(float), alive)
        else:
            self.survival_line.setData(EMPTY, EMPTY)
        integer_ticks(self.p_survival.getAxis("bottom"), float(s_turns.max()) if len(s_turns) else 1.0)
        self.data["survival"] = (s_turns, alive)

        cas = cd.casualties(stats)
        for shift, side in ((-0.2, "marines"), (0.2, "genestealers")):
            values, n = cas[side]
            self.casualty_bars[side].set_data(values + shift, n.astype(float), [SIDE_COLOURS[side]], width=0.4)
        most = max((float(v.max()) for v, _ in cas.values() if len(v)), default=1.0)
        integer_ticks(self.p_casualties.getAxis("bottom"), most)
        # Whole bars in view, and a sensible span when every game lost nothing (all bars at 0).
        self.p_casualties.setXRange(-0.6, max(1.0, most) + 0.6, padding=0)
        self.data["casualties"] = cas

        ms = cd.marine_survival(stats)
        self.marine_bars.set_data(np.arange(len(ms.labels), dtype=float), ms.rate,
                                  [SIDE_COLOURS["marines"]], ms.low, ms.high)
        if ms.labels != self._marine_labels:
            self._marine_labels = list(ms.labels)
            self.p_marines.getAxis("bottom").setTicks([[(float(i), s) for i, s in enumerate(ms.labels)]])
            self.p_marines.setXRange(-0.6, max(1, len(ms.labels)) - 0.4, padding=0)
        self.data["marines"] = ms
        self.headline.setText(headline(run))


def headline(run: LabRun) -> str:
    """The sentence a tester reads first."""
    s = run.stats
    if s.games == 0:
        return run.state_text()
    parts = []
    for key, label in (("marines", "Marines win"), ("genestealers", "Genestealers win"), ("draw", "draws")):
        lo, hi = s.interval(key)
        parts.append(f"<b>{label} {pct(s.rate(key))}</b> [{pct(lo)}–{pct(hi)}]")
    mean_turns = float(np.average(list(s.turns), weights=list(s.turns.values()))) if s.turns else 0.0
    return (f"{run.label or 'Batch'}: {s.games} games — " + ", ".join(parts)
            + f"; mean length {mean_turns:.1f} turns")
