"""Heatmaps on the map: where Marines die, where Genestealers die, Genestealer traffic, with a colour bar."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QLinearGradient, QPainter, QPaintEvent
from PySide6.QtWidgets import QButtonGroup, QLabel, QRadioButton, QSlider, QVBoxLayout, QWidget

from editor import palette
from editor.lab.lab_map import LabMap
from editor.lab.runs import LabRun
from engine.stats import batch_heatmaps

KINDS: tuple[tuple[str, str], ...] = (
    ("", "Off"),
    ("marine_deaths", "Where Marines die"),
    ("genestealer_deaths", "Where Genestealers die"),
    ("genestealer_traffic", "Genestealer traffic"),
)
UNITS = {"marine_deaths": "deaths per game", "genestealer_deaths": "deaths per game",
         "genestealer_traffic": "visits per game"}


def square_values(grid: np.ndarray) -> dict[tuple[int, int], float]:
    """Non-zero cells of a (row y, column x) array as {(x, y): value}."""
    ys, xs = np.nonzero(grid)
    return {(int(x), int(y)): float(grid[y, x]) for y, x in zip(ys, xs, strict=True)}


class ColourBar(QWidget):
    """The heatmap's colour scale: low → high, with its end values and unit."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vmax = 0.0
        self.unit = ""
        self.setMinimumHeight(44)

    def set_scale(self, vmax: float, unit: str) -> None:
        """The largest value shown and its unit."""
        self.vmax, self.unit = vmax, unit
        self.update()

    def sizeHint(self) -> QSize:
        """Wide and short: a bar with labels under it."""
        return QSize(220, 44)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Gradient bar, then 0, the unit and the maximum under it."""
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        bar = QRectF(8, 4, self.width() - 16, 16)
        grad = QLinearGradient(bar.topLeft(), bar.topRight())
        grad.setColorAt(0, QColor(palette.HEAT_LOW))
        grad.setColorAt(1, QColor(palette.HEAT_HIGH))
        p.fillRect(bar, grad)
        p.setPen(QColor("#444444"))
        p.drawRect(bar)
        text = QRectF(8, 22, self.width() - 16, 18)
        p.drawText(text, Qt.AlignmentFlag.AlignLeft, "0")
        p.drawText(text, Qt.AlignmentFlag.AlignHCenter, self.unit)
        p.drawText(text, Qt.AlignmentFlag.AlignRight, f"{self.vmax:.3g}")
        p.end()


class HeatmapPanel(QWidget):
    """Choose which count to paint; the same scale serves every level so levels compare."""

    def __init__(self, lab_map: LabMap, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lab_map = lab_map
        self.run: LabRun | None = None
        self.grids: dict[str, dict[str, np.ndarray]] = {}
        self.kind = ""
        self.group = QButtonGroup(self)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("<b>Heatmap</b>"))
        self.buttons: dict[str, QRadioButton] = {}
        for i, (key, label) in enumerate(KINDS):
            b = QRadioButton(label)
            self.group.addButton(b, i)
            self.buttons[key] = b
            lay.addWidget(b)
        self.buttons[""].setChecked(True)
        self.group.idToggled.connect(self._toggled)
        self.colour_bar = ColourBar()
        lay.addWidget(self.colour_bar)
        lay.addWidget(QLabel("Opacity"))
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(10, 100)
        self.opacity.setValue(70)
        self.opacity.valueChanged.connect(lambda _v: self.apply())
        lay.addWidget(self.opacity)
        self.info = QLabel("Run a batch to see where models die and walk.")
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        lay.addStretch(1)

    def _toggled(self, button_id: int, checked: bool) -> None:
        if checked:
            self.set_kind(KINDS[button_id][0])

    def set_kind(self, kind: str) -> None:
        """Show one count ("" turns the heatmap off)."""
        self.kind = kind
        b = self.buttons[kind]
        if not b.isChecked():
            b.setChecked(True)
        self.apply()

    def show_run(self, run: LabRun) -> None:
        """Recompute the per-level arrays (per game) from the run's statistics."""
        self.run = run
        self.grids = batch_heatmaps(run.stats, self.lab_map.doc.mission) if run.stats.games else {}
        self.apply()

    def values(self, level_id: str) -> dict[tuple[int, int], float]:
        """What is painted on a level now."""
        grid = self.grids.get(self.kind, {}).get(level_id)
        return {} if grid is None else square_values(grid)

    def apply(self) -> None:
        """Paint (or clear) the heatmap of every level with one shared scale."""
        levels = self.lab_map.level_ids()
        per_level = self.grids.get(self.kind, {})
        vmax = max((float(g.max()) for g in per_level.values() if g.size), default=0.0)
        for lv in levels:
            vals = self.values(lv) if self.kind else {}
            for sc in self.lab_map.scenes_for(lv):
                sc.set_heatmap(vals or None, (0.0, vmax or 1.0), opacity=self.opacity.value() / 100)
        self.colour_bar.set_scale(vmax if self.kind else 0.0, UNITS.get(self.kind, ""))
        self.info.setText(self._describe(per_level, vmax))

    def _describe(self, per_level: dict[str, Any], vmax: float) -> str:
        if not self.kind:
            return "Heatmap off."
        if self.run is None or not self.run.stats.games:
            return "Run a batch first."
        best = None
        for lv, g in per_level.items():
            if g.size and float(g.max()) == vmax and vmax > 0:
                y, x = np.unravel_index(int(np.argmax(g)), g.shape)
                best = (lv, int(x), int(y))
        total = sum(float(g.sum()) for g in per_level.values())
        lv = self.lab_map.doc.mission.level(best[0]) if best else None
        name = (lv.name or lv.id) if lv is not None else (best[0] if best else "")
        where = f"; hottest square {name} ({best[1]}, {best[2]}): {vmax:.3g}" if best else ""
        return f"{total:.3g} {UNITS[self.kind]} in all{where}. Over {self.run.stats.games} games."
