"""Lab › Strength: play the mission with players of graded skill on each side (random, novice, heuristic, the
look-ahead player, and tuned ones), draw the skill curve and say whether the balance verdict has stopped moving
(engine.tune.strength)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from editor import settings
from editor.lab.engine_job import JobPanel
from editor.lab.plots import FOREGROUND, SIDE_COLOURS, style_plot
from engine.sim import BatchSpec
from engine.sim.played_games import person_results, read_played_games
from engine.tune.strength import TUNED, Cell, StrengthReport, check_levels, check_tiers, pairings
from engine.tune.tiers import TIER_NAMES, parse_tiers

DEFAULT_GAMES = 400  # per pairing: 9 or 16 pairings make a check of a few thousand games


class StrengthPanel(JobPanel):
    """A weights file for the tuned players, Run/Cancel, the matrix of Marine win rates, a chart, the verdict."""

    finished = Signal(object)
    cellDone = Signal(object)  # Cell, emitted from the check's thread: queued to the GUI thread

    def __init__(self, spec_source: Callable[[], BatchSpec], run_options: Callable[[], dict[str, Any]],
                 parent: QWidget | None = None) -> None:
        super().__init__("Run strength check", spec_source, run_options, parent)
        self.cells: list[Cell] = []
        self.report: StrengthReport | None = None
        self.levels: list[str] = []
        self.weights = QLineEdit()
        self.weights.setPlaceholderText("weights file from hulkforge train (optional)")
        browse = QPushButton("…")
        browse.clicked.connect(self._browse)
        self.full = QCheckBox("every pairing (else equal strengths only)")
        self.full.setChecked(True)
        self.games = QSpinBox()
        self.games.setRange(10, 1_000_000)
        self.games.setSingleStep(100)
        self.games.setValue(DEFAULT_GAMES)
        self.games.setToolTip("Games played for each pairing of players (its own count, not the run panel's)")
        self.tiers = QLineEdit(",".join(TIER_NAMES))
        self.tiers.setToolTip("Skill tiers, weakest first; search:GAMES sets the look-ahead budget. A tier whose "
                              "players are not in this build is skipped with a note.")
        self.skipped: list[str] = []
        self._people: list[tuple[str, float]] | None = None  # people_lines as last read
        self.verdict = QLabel("Seed, mission and workers come from the run panel.")
        self.verdict.setWordWrap(True)
        self.table = QTableWidget(0, 0)
        self.cellDone.connect(self._cell)
        left = QWidget()
        form = QFormLayout(left)
        row = QHBoxLayout()
        row.addWidget(self.weights, 1)
        row.addWidget(browse)
        form.addRow("Tuned players", row)
        form.addRow(self.full)
        form.addRow("Games per pairing", self.games)
        form.addRow("Skill tiers", self.tiers)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        form.addRow(buttons)
        form.addRow(self.progress)
        form.addRow(self.verdict)
        form.addRow(self.table)
        self.place(left, 520)
        self._draw()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Weights file", "", "Weights (*.json)")
        if path:
            self.weights.setText(path)

    def start(self) -> bool:
        """Start the check (False, with the reason shown, when it cannot)."""
        from engine.ai.weights import load_weights_file

        if self.job is not None:
            return False
        try:
            tuned = load_weights_file(self.weights.text().strip()) if self.weights.text().strip() else {}
            base = self.spec_source().with_changes(games=self.games.value())
            tiers = parse_tiers(self.tiers.text())
        except ValueError as exc:
            self.verdict.setText(f"<span style='color:#b71c1c'>{exc}</span>")
            return False
        self.levels = check_levels(tuned, tiers)
        self.skipped = check_tiers(tiers)[1]
        self.cells, self.report = [], None
        n_pairs = len(pairings(self.levels, self.full.isChecked()))
        self._fill_table()
        from engine.tune.strength import strength_check

        self.verdict.setText(f"Playing {n_pairs} pairings of {base.games} games…" + self._notes())
        self.run_engine(strength_check, base, tuned, total=base.games * n_pairs, matrix=self.full.isChecked(),
                        tiers=tiers, on_cell=self.cellDone.emit)
        return True

    def _cell(self, cell: Cell) -> None:
        self.cells.append(cell)
        self._fill_table()
        self._draw()

    def _done(self, report: StrengthReport | None, error: str) -> None:
        self.job_ended()
        self.report = report
        if report is None:
            self.verdict.setText(f"<span style='color:#b71c1c'>{error}</span>")
        else:
            self.verdict.setText(report.verdict() + (" (stopped early)" if report.cancelled else "") + self._notes())
            self._draw()
        self.finished.emit(report)

    def _notes(self) -> str:
        return "".join(f"<br><i>{note}</i>" for note in self.skipped)

    def _fill_table(self) -> None:
        lv = self.levels
        self.table.setRowCount(len(lv))
        self.table.setColumnCount(len(lv))
        self.table.setVerticalHeaderLabels([f"M {x}" for x in lv])
        self.table.setHorizontalHeaderLabels([f"GS {x}" for x in lv])
        for c in self.cells:
            lo, hi = c.interval()
            item = QTableWidgetItem(f"{100 * c.rate():.1f}% [{100 * lo:.0f}–{100 * hi:.0f}]")
            self.table.setItem(lv.index(c.marines), lv.index(c.genestealers), item)
        self.table.resizeColumnsToContents()

    def chart_points(self) -> dict[str, Any]:
        """The skill curve as drawn: tier names, x positions, Marine win rates and their Wilson intervals; the
        tuned players apart (they are not a tier)."""
        diag = {c.marines: c for c in self.cells if c.marines == c.genestealers and c.games}
        curve = [lv for lv in self.levels if lv != TUNED and lv in diag]
        tuned = [lv for lv in self.levels if lv == TUNED and lv in diag]

        def arrays(names: list[str]) -> dict[str, np.ndarray]:
            cells = [diag[n] for n in names]
            return {"x": np.array([float(self.levels.index(n)) for n in names]),
                    "rate": np.array([c.rate() for c in cells]),
                    "low": np.array([c.interval()[0] for c in cells]),
                    "high": np.array([c.interval()[1] for c in cells])}

        return {"tiers": curve, **arrays(curve), "tuned": arrays(tuned)}

    def people_lines(self) -> list[tuple[str, float]]:
        """The designer's own games against the players (the folder Game › Keep remembers, this mission only) as
        Marine win rates to draw across the curve: a label and a rate per side the person played."""
        folder = settings.settings().value("play/folder")
        doc = self.spec_source().mission_doc
        if not isinstance(folder, str) or not folder or doc is None:
            return []
        games, _skipped = read_played_games([folder], doc)
        lines = []
        for r in person_results(games):
            opponents = sorted({g.opponent for g in games if g.side == r.side})
            marine_rate = r.rate if r.side == "marines" else 1.0 - r.rate
            lines.append((f"you as the {r.side} vs {', '.join(opponents)}: {r.wins}/{r.games}", marine_rate))
        return lines

    def _draw(self) -> None:
        plot = self.plot
        plot.clear()
        verdict = self.report.curve_verdict() if self.report is not None else None
        title = "Skill curve: Marine win rate at equal strength (Wilson 95%)"
        style_plot(plot, title + (f"<br>{verdict.headline}" if verdict is not None else ""),
                   "players on both sides, weakest first", "Marine win rate")
        plot.setYRange(0, 1, padding=0.02)
        pts = self.chart_points()
        plot.getAxis("bottom").setTicks([[(float(i), lv) for i, lv in enumerate(self.levels)]])
        colour = SIDE_COLOURS["marines"]
        for group, pen, symbol in ((pts, pg.mkPen(colour, width=2), "o"), (pts["tuned"], None, "s")):
            x, y = group["x"], group["rate"]
            if not len(x):
                continue
            plot.addItem(pg.PlotDataItem(x, y, pen=pen, symbol=symbol, symbolBrush=colour if pen else None,
                                         symbolPen=pg.mkPen(colour)))
            plot.addItem(pg.ErrorBarItem(x=x, y=y, top=group["high"] - y, bottom=y - group["low"], beam=0.15,
                                         pen=pg.mkPen(FOREGROUND)))
        # A person's games beside the players': the Marine win rate of their games, across the whole curve. The
        # folder is read again only between checks, not at every pairing a running check finishes.
        if self.job is None or self._people is None:
            self._people = self.people_lines()
        for label, rate in self._people:
            plot.addItem(pg.InfiniteLine(pos=rate, angle=0, pen=pg.mkPen(FOREGROUND, style=Qt.PenStyle.DashLine),
                                         label=label, labelOpts={"position": 0.05, "color": FOREGROUND}))
