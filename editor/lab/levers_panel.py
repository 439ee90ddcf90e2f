"""Lab › Levers: each number of the mission a step down and a step up on shared seeds, as a tornado chart of the
effect on the Marine win rate (engine.tune.levers), and Tune opened on the chosen lever."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QApplication,
    QFormLayout,
    QHBoxLayout,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from editor.lab.engine_job import StatusJobPanel
from editor.lab.plots import FOREGROUND, style_plot
from engine.sim import BatchSpec
from engine.tune.levers import Lever, LeversReport

DOWN, UP = "#1565c0", "#c62828"  # a step down, a step up (or another value)
DEFAULT_GAMES = 200  # per step, as `hulkforge levers`: a table of some twenty levers is a few thousand games


class LeversPanel(StatusJobPanel):
    """Run/Cancel, the levers ranked in a table, a tornado chart, and Open in Tune on the selected lever."""

    finished = Signal(object)  # LeversReport or None
    leverDone = Signal(object)  # Lever, emitted from the job's thread: queued to the GUI thread

    def __init__(self, spec_source: Callable[[], BatchSpec], run_options: Callable[[], dict[str, Any]],
                 mission_doc: Callable[[], dict[str, Any]], open_tune: Callable[[str, int | None, int | None], None],
                 parent: QWidget | None = None) -> None:
        super().__init__("Run levers", "Seed, players, workers and fixed settings come from the run panel.",
                         spec_source, run_options, parent)
        self.mission_doc = mission_doc
        self.open_tune = open_tune
        self.levers: list[Lever] = []
        self.report: LeversReport | None = None
        self.games = QSpinBox()
        self.games.setRange(10, 1_000_000)
        self.games.setSingleStep(100)
        self.games.setValue(DEFAULT_GAMES)
        self.games.setToolTip("Games played for the mission and for each step of each lever (its own count, "
                              "not the run panel's)")
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["lever", "step", "Marines win", "effect (paired 95%)"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.tune_button = QPushButton("Open in Tune")
        self.tune_button.setToolTip("Tune the selected lever (the strongest when none is selected)")
        self.tune_button.setEnabled(False)
        self.tune_button.clicked.connect(self.tune_selected)
        self.leverDone.connect(self._lever)
        left = QWidget()
        form = QFormLayout(left)
        buttons = QHBoxLayout()
        for b in (self.run_button, self.cancel_button, self.tune_button):
            buttons.addWidget(b)
        form.addRow("Games per step", self.games)
        form.addRow(buttons)
        form.addRow(self.progress)
        form.addRow(self.status)
        form.addRow(self.table)
        self.place(left, 420)
        self._draw()

    # --- running --------------------------------------------------------------------------------------
    def start(self) -> bool:
        """Start the levers of the mission as edited (False, with the reason shown, when it cannot)."""
        from engine.mission import mission_from_dict, mission_to_dict
        from engine.sim.params import apply_mission_params
        from engine.tune.levers import lever_candidates, levers, steps

        if self.job is not None:
            return False
        try:
            base = self.spec_source().with_changes(games=self.games.value())
            doc = self.mission_doc()
            fixed = mission_to_dict(apply_mission_params(mission_from_dict(copy.deepcopy(doc)), base.mission_params))
            params = lever_candidates(fixed)
        except ValueError as exc:
            self._message(str(exc), error=True)
            return False
        self.levers, self.report = [], None
        self.table.setRowCount(0)
        self.tune_button.setEnabled(False)
        self._message(f"Playing the mission and {len(params)} levers a step either way, {base.games} games a step…")
        self._draw()
        total = base.games * (1 + sum(len(steps(p)) for p in params))
        self.run_engine(levers, base, params, total=total, doc=doc, on_lever=self.leverDone.emit)
        return True

    def _lever(self, lever: Lever) -> None:
        self.levers.append(lever)
        self._fill_table()
        self._draw()

    def _done(self, report: LeversReport | None, error: str) -> None:
        self.job_ended()
        self.report = report
        if report is None:
            self._message(error, error=True)
        else:
            self.levers = list(report.levers)
            best = report.ranked()[:1]
            head = (f"The mission as it is: Marines win {100 * report.base_rate:.1f}%. "
                    + (f"Strongest lever: {best[0].name}. " if best else "")
                    + f"{report.spent} games, {report.seconds:.1f} s"
                    + (" (stopped early)." if report.cancelled else "."))
            self._message(head)
            self.tune_button.setEnabled(bool(best))
            self._fill_table()
            self._draw()
        self.finished.emit(report)

    # --- table and Tune -------------------------------------------------------------------------------
    def ranked(self) -> list[Lever]:
        """The levers played so far with at least one step, largest effect first."""
        return sorted((lv for lv in self.levers if lv.arms), key=lambda lv: (-lv.effect, lv.name))

    def _fill_table(self) -> None:
        rows = [(lv, a) for lv in self.ranked() for a in lv.arms]
        self.table.setRowCount(len(rows))
        for r, (lv, a) in enumerate(rows):
            step = lv.describe(a).removeprefix(lv.name).strip()
            cells = (lv.name, step, f"{100 * a.rate:.1f}%",
                     f"{100 * a.diff:+.1f} [{100 * a.low:+.1f}, {100 * a.high:+.1f}]")
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()

    def selected(self) -> Lever | None:
        """The lever of the selected row, else the strongest."""
        rows = self.table.selectionModel().selectedRows()
        if rows:
            name = self.table.item(rows[0].row(), 0).text()
            return next((lv for lv in self.levers if lv.name == name), None)
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def tune_selected(self) -> None:
        """Open Tune on the selected lever, over the range its steps span (a choice: all its values)."""
        lever = self.selected()
        if lever is None:
            return
        values = [a.value for a in lever.arms if isinstance(a.value, int) and not isinstance(a.value, bool)]
        if lever.kind == "int" and values:
            lo, hi = min([lever.value, *values]), max([lever.value, *values])
            span = hi - lo
            self.open_tune(lever.name, max(0, lo - span), hi + span)
        else:
            self.open_tune(lever.name, None, None)

    # --- chart ----------------------------------------------------------------------------------------
    def chart_bars(self) -> dict[str, np.ndarray]:
        """Tornado bars, strongest lever on top: y (row), the effect and its interval of the step down (or
        another value) and of the step up; NaN where a lever has no such step."""
        ranked = self.ranked()
        n = len(ranked)
        out = {k: np.full(n, np.nan) for k in ("down", "down_lo", "down_hi", "up", "up_lo", "up_hi")}
        for i, lv in enumerate(ranked):
            for a in lv.arms:
                side = "up" if (lv.kind != "int" or a.value > lv.value) else "down"
                if lv.kind != "int" and not np.isnan(out["up"][i]) and abs(a.diff) <= abs(out["up"][i]):
                    continue  # a choice shows its strongest other value
                out[side][i], out[f"{side}_lo"][i], out[f"{side}_hi"][i] = a.diff, a.low, a.high
        out["y"] = np.arange(n, dtype=float)[::-1]
        return out

    def _draw(self) -> None:
        plot = self.plot
        plot.clear()
        style_plot(plot, "Effect of one step on the Marine win rate (paired 95%): blue down, red up",
                   "Marine win rate, points", "")
        bars = self.chart_bars()
        ranked = self.ranked()
        if not ranked:
            return
        y = bars["y"]
        for side, colour, shift in (("down", DOWN, -0.18), ("up", UP, 0.18)):
            d = bars[side]
            ok = ~np.isnan(d)
            if not ok.any():
                continue
            d100 = 100 * d[ok]
            plot.addItem(pg.BarGraphItem(x0=np.minimum(d100, 0), y=y[ok] + shift, width=np.abs(d100), height=0.34,
                                         brush=pg.mkBrush(colour), pen=pg.mkPen(FOREGROUND, width=0.5)))
            plot.addItem(pg.ErrorBarItem(x=d100, y=y[ok] + shift, left=d100 - 100 * bars[f"{side}_lo"][ok],
                                         right=100 * bars[f"{side}_hi"][ok] - d100, beam=0.1,
                                         pen=pg.mkPen(FOREGROUND, width=1)))
        plot.addItem(pg.InfiniteLine(0, angle=90, pen=pg.mkPen(FOREGROUND, width=1)))
        plot.getAxis("left").setTicks([[(float(yy), lv.name) for yy, lv in zip(y, ranked, strict=True)]])
        plot.setYRange(-0.6, len(ranked) - 0.4, padding=0)


def add_levers_tab(lab: Any) -> None:
    """Add the Levers tab to a LabWidget (after Tune, which it opens on a chosen lever)."""
    from engine.mission import mission_to_dict

    def spec() -> BatchSpec:
        if lab.job is not None:
            raise ValueError("a batch is running in the lab: wait for it or cancel it first")
        return lab.make_spec()  # type: ignore[no-any-return]

    def open_tune(name: str, lo: int | None, hi: int | None) -> None:
        lab.tune.open_param(name, lo, hi)
        lab.tabs.setCurrentWidget(lab.tune)

    lab.levers = LeversPanel(spec, lambda: lab.run_panel.form(), lambda: mission_to_dict(lab.doc.mission),
                             open_tune)
    lab.add_page(lab.levers, "Levers")
    lab_shutdown = lab.shutdown

    def shutdown() -> None:
        lab.levers.shutdown()
        lab_shutdown()

    lab.shutdown = shutdown
    app = QApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(lab.levers.shutdown)
