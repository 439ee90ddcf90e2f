"""Lab › Tune: find the parameter values that give a target Marine win rate, with progress, cancel and a chart.

The search is engine.tune.search.tune, run on an EngineJob thread; each look at a point arrives by signal and goes into
the path table and the chart (win rate against the first parameter, with its 95% interval, the target band
shaded). `add_tune_tabs(lab)` puts this panel and the strength check into the lab.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from editor.lab.engine_job import StatusJobPanel
from editor.lab.plots import FOREGROUND, SIDE_COLOURS, style_plot, translucent
from engine.sim import BatchSpec
from engine.tune.result import Step, TuneResult
from engine.tune.space import VALID_RANGES, TunedParam, parse_param, tunable_names

NONE = "(none)"


class TunePanel(StatusJobPanel):
    """The form, the path and the chart of a tune. `spec_source` gives the base batch (mission, players, seed)."""

    finished = Signal(object)  # TuneResult or None
    stepped = Signal(object)  # Step, emitted from the tune's thread: queued to the GUI thread

    def __init__(self, spec_source: Callable[[], BatchSpec], run_options: Callable[[], dict[str, Any]],
                 mission_doc: Callable[[], dict[str, Any]], parent: QWidget | None = None) -> None:
        super().__init__("Tune", "Players, seed, workers and fixed settings come from the run panel.",
                         spec_source, run_options, parent)
        self.mission_doc = mission_doc
        self.steps: list[Step] = []
        self.result: TuneResult | None = None
        self.params: list[TunedParam] = []
        self.base: BatchSpec | None = None  # the batch of the last tune: its fixed settings go into a saved mission

        names = tunable_names()
        self.param1 = QComboBox()
        self.param1.addItems(names)
        self.param1.setCurrentText("reinforcements.per_turn")
        self.range1 = QLineEdit()
        self.param2 = QComboBox()
        self.param2.addItems([NONE, *names])
        self.range2 = QLineEdit()
        for combo, edit in ((self.param1, self.range1), (self.param2, self.range2)):
            # Any number of the mission by its path may be typed (genestealers.limited.total).
            combo.setEditable(True)
            combo.setToolTip("a parameter: pick one, or type any path of the mission (hulkforge tune --list-params)")
            edit.setToolTip("the range searched, LO..HI")
            combo.currentTextChanged.connect(lambda name, e=edit: e.setText(self._default_range(name)))
        self.range1.setText(self._default_range(self.param1.currentText()))
        self.range2.setEnabled(False)
        self.param2.currentTextChanged.connect(lambda name: self.range2.setEnabled(name != NONE))
        self.target = QDoubleSpinBox()
        self.target.setRange(0.01, 0.99)
        self.target.setSingleStep(0.05)
        self.target.setValue(0.5)
        self.tolerance = QDoubleSpinBox()
        self.tolerance.setDecimals(3)
        self.tolerance.setRange(0.005, 0.2)
        self.tolerance.setSingleStep(0.005)
        self.tolerance.setValue(0.02)
        self.budget = QSpinBox()
        self.budget.setRange(100, 10_000_000)
        self.budget.setSingleStep(1000)
        self.budget.setValue(20_000)
        self.run_button.setToolTip("Search for values whose Marine win rate is the target ± tolerance at 95%")
        self.save_button = QPushButton("Save tuned mission…")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self._save)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["values", "games", "Marines win", "95% CI", "verdict", "spent"])
        self.table.verticalHeader().setVisible(False)
        self.stepped.connect(self._step)

        left = QWidget()
        form = QFormLayout(left)
        form.addRow("Parameter", self.param1)
        form.addRow("Range", self.range1)
        form.addRow("Second parameter", self.param2)
        form.addRow("Its range", self.range2)
        form.addRow("Target Marine win rate", self.target)
        form.addRow("Tolerance (±)", self.tolerance)
        form.addRow("Budget (games)", self.budget)
        buttons = QHBoxLayout()
        for b in (self.run_button, self.cancel_button, self.save_button):
            buttons.addWidget(b)
        form.addRow(buttons)
        form.addRow(self.progress)
        form.addRow(self.status)
        form.addRow(self.table)
        self.place(left, 420)
        self._draw()

    # --- running --------------------------------------------------------------------------------------
    def read_params(self) -> list[TunedParam]:
        """The parameters of the form; ValueError says what is wrong."""
        texts = [f"{self.param1.currentText()}={self.range1.text().strip()}"]
        if self.param2.currentText() != NONE:
            if self.param2.currentText() == self.param1.currentText():
                raise ValueError("choose two different parameters")
            texts.append(f"{self.param2.currentText()}={self.range2.text().strip()}")
        doc = self.mission_doc()
        return [parse_param(t.removesuffix("="), doc) for t in texts]

    def open_param(self, name: str, lo: int | None = None, hi: int | None = None) -> None:
        """Put `name` in the first parameter (a lever chosen in Levers), with a range when given."""
        self.param1.setCurrentText(name)
        if lo is not None and hi is not None:
            self.range1.setText(f"{lo}..{hi}")
        self.param2.setCurrentText(NONE)

    def _default_range(self, name: str) -> str:
        """'LO..HI' of the range a parameter gets when none is typed ('' for a choice or an unknown name)."""
        if name in VALID_RANGES:
            return _default_range(name)
        try:
            p = parse_param(name, self.mission_doc())
        except (ValueError, KeyError):
            return ""
        return "" if p.choices else f"{p.lo:g}..{p.hi:g}"

    def start(self) -> bool:
        """Start the tune of the form (False, with the reason shown, when it cannot)."""
        if self.job is not None:
            return False
        try:
            params = self.read_params()
            base = self.spec_source()
        except ValueError as exc:
            self._message(str(exc), error=True)
            return False
        self.params, self.steps, self.result, self.base = params, [], None, base
        self.table.setRowCount(0)
        self.save_button.setEnabled(False)
        self._message(f"Tuning {', '.join(p.name for p in params)} to {100 * self.target.value():.1f}% ± "
                      f"{100 * self.tolerance.value():.1f}%…")
        self._draw()
        self.run_engine(_tune_then_lever, base, params, self.mission_doc(), total=self.budget.value(),
                        target=self.target.value(), tolerance=self.tolerance.value(), budget=self.budget.value(),
                        on_step=self.stepped.emit)
        return True

    def _step(self, s: Step) -> None:
        self.steps.append(s)
        row = self.table.rowCount()
        self.table.insertRow(row)
        values = ", ".join(p.label(x) for p, x in zip(self.params, s.point, strict=True))
        for col, text in enumerate((values, str(s.games), f"{100 * s.rate:.1f}%",
                                    f"[{100 * s.low:.1f}, {100 * s.high:.1f}]", s.verdict, str(s.spent))):
            self.table.setItem(row, col, QTableWidgetItem(text))
        self.table.scrollToBottom()
        self._draw()

    def _done(self, result: TuneResult | None, error: str) -> None:
        self.job_ended()
        self.result = result
        if result is None:
            self._message(error, error=True)
        else:
            head = {"hit": "Hit", "out_of_reach": "Out of reach", "budget": "Budget spent",
                    "cancelled": "Cancelled"}[result.status]
            self._message(f"{head}: {result.message}. {result.spent} games, {result.seconds:.1f} s.",
                          error=not result.ok and result.status != "cancelled")
            self.save_button.setEnabled(result.ok)
            if result.status != "cancelled":  # a search that ends early is done: the bar says so
                self.progress.setRange(0, max(1, result.spent))
                self.progress.setValue(max(1, result.spent))
        self._draw()
        self.finished.emit(result)

    def _save(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save tuned mission", "", "Mission (*.json)")
        if path:
            self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Write the mission as edited, with the run panel's settings the tune played and the tuned values, to
        `path` (atomic; refused if it breaks a rule)."""
        from engine.commands.tune import write_tuned

        if self.result is None or not self.result.ok:
            return False
        try:
            base = self.base
            ok = write_tuned(self.mission_doc(), self.result, path, base.options if base else None,
                             base.mission_params if base else None)
        except OSError as exc:
            self._message(f"{path}: cannot write: {exc}", error=True)
            return False
        self._message(f"Tuned mission written to {path}." if ok else
                      "Not written: the tuned mission breaks a placement rule.", error=not ok)
        return ok

    # --- chart ----------------------------------------------------------------------------------------
    def chart_points(self) -> dict[str, np.ndarray]:
        """The last look at every point: x (the first parameter), rate, low, high; hits flagged."""
        last: dict[tuple[float, ...], Step] = {}
        for s in self.steps:
            last[s.point] = s
        pts = sorted(last.values(), key=lambda s: s.point)
        x = np.array([s.point[0] for s in pts], dtype=float)
        if len(self.params) > 1 and pts:
            # A second parameter spreads the points of one x a little apart, so their intervals stay readable.
            p2 = self.params[1]
            x = x + np.array([(s.point[1] - p2.lo) / max(p2.hi - p2.lo, 1e-9) - 0.5 for s in pts]) * 0.3 * (
                1.0 if self.params[0].integer else (self.params[0].hi - self.params[0].lo) / 20)
        return {"x": x, "rate": np.array([s.rate for s in pts]), "low": np.array([s.low for s in pts]),
                "high": np.array([s.high for s in pts]), "hit": np.array([s.verdict == "hit" for s in pts])}

    def _draw(self) -> None:
        plot = self.plot
        plot.clear()
        name = self.params[0].name if self.params else self.param1.currentText()
        style_plot(plot, f"Marine win rate over {name} (Wilson 95%)", name, "Marine win rate")
        plot.setYRange(0, 1, padding=0.02)
        t, tol = self.target.value(), self.tolerance.value()
        plot.addItem(pg.LinearRegionItem((t - tol, t + tol), orientation="horizontal", movable=False,
                                         brush=pg.mkBrush(translucent("#2e7d32", 50)), pen=pg.mkPen(None)))
        dash = pg.mkPen("#2e7d32", width=1, style=Qt.PenStyle.DashLine)
        plot.addItem(pg.InfiniteLine(t, angle=0, pen=dash))
        if self.params:
            p = self.params[0]
            plot.setXRange(p.lo, p.hi, padding=0.05)
            if p.integer and p.hi - p.lo <= 20:
                plot.getAxis("bottom").setTicks([[(float(v), str(v)) for v in range(int(p.lo), int(p.hi) + 1)]])
        d = self.chart_points()
        if not len(d["x"]):
            return
        colour = SIDE_COLOURS["marines"]
        plot.addItem(pg.ErrorBarItem(x=d["x"], y=d["rate"], top=d["high"] - d["rate"], bottom=d["rate"] - d["low"],
                                     beam=0.08, pen=pg.mkPen(FOREGROUND, width=1.2)))
        plot.addItem(pg.ScatterPlotItem(d["x"], d["rate"], size=8, brush=pg.mkBrush(colour),
                                        pen=pg.mkPen(FOREGROUND, width=0.5)))
        if d["hit"].any():
            plot.addItem(pg.ScatterPlotItem(d["x"][d["hit"]], d["rate"][d["hit"]], size=16, symbol="star",
                                            brush=pg.mkBrush("#2e7d32"), pen=pg.mkPen(FOREGROUND, width=0.5)))


def _tune_then_lever(base: BatchSpec, params: list[TunedParam], doc: dict[str, Any], **kw: Any) -> TuneResult:
    """The tune; when one parameter cannot reach the target, the levers at its closest value name a second one
    (100 games a step, as the command line does)."""
    from engine.tune.levers import second_lever
    from engine.tune.search import tune

    result = tune(base, params, **kw)
    if result.status == "out_of_reach" and len(params) == 1:
        result.message += "; " + second_lever(
            base, doc, result, games=100, backend=kw.get("backend", "local"), workers=kw.get("workers"),
            scheduler=kw.get("scheduler"), mission_arg=base.mission or "MISSION", cancel=kw.get("cancel"),
            on_games=kw.get("on_games"))
    return result


def _default_range(name: str) -> str:
    """'LO..HI' of the range a parameter gets when none is typed."""
    if name not in VALID_RANGES:
        return ""
    p = parse_param(name)
    return f"{p.lo:g}..{p.hi:g}"


def add_tune_tabs(lab: Any) -> None:
    """Add the Tune and Strength tabs to a LabWidget: they take mission, players and run options from it."""
    from editor.lab.strength_panel import StrengthPanel
    from engine.mission import mission_to_dict

    def spec() -> BatchSpec:
        if lab.job is not None:
            raise ValueError("a batch is running in the lab: wait for it or cancel it first")
        return lab.make_spec()  # type: ignore[no-any-return]

    def options() -> dict[str, Any]:
        return lab.run_panel.form()  # type: ignore[no-any-return]

    lab.tune = TunePanel(spec, options, lambda: mission_to_dict(lab.doc.mission))
    lab.strength = StrengthPanel(spec, options)
    lab.add_page(lab.tune, "Tune")
    lab.add_page(lab.strength, "Strength")
    panels = (lab.tune, lab.strength)
    lab_shutdown = lab.shutdown

    def shutdown() -> None:
        """The lab's shutdown, and the panels' threads first (an instance attribute shadows the method)."""
        for panel in panels:
            panel.shutdown()
        lab_shutdown()

    lab.shutdown = shutdown
    app = QApplication.instance()
    if app is not None:
        for panel in panels:
            app.aboutToQuit.connect(panel.shutdown)
