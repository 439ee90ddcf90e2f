"""Small pyqtgraph helpers shared by the lab's charts: a light theme, bars with error bars, bands."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor, QFont

from editor import palette

BACKGROUND = "#ffffff"
FOREGROUND = "#222222"
SIDE_COLOURS = {"marines": palette.MARINE, "genestealers": palette.GENESTEALER, "draw": "#9e9e9e"}
BAND_ALPHA = 60
EMPTY = np.zeros(0)


def style_plot(plot: pg.PlotItem, title: str, x_label: str = "", y_label: str = "") -> None:
    """Titles, labels, grid and axis colours that read on a white page."""
    plot.setTitle(title, color=FOREGROUND, size="10pt")
    font = QFont()
    font.setPointSize(8)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(FOREGROUND))
        axis.setTextPen(pg.mkPen(FOREGROUND))
        axis.setStyle(tickFont=font)
        # Counts, turns and shares need no SI scale: a chart of zeros got a "models lost (x0.001)" axis.
        axis.enableAutoSIPrefix(False)
    if x_label:
        plot.setLabel("bottom", x_label, color=FOREGROUND)
    if y_label:
        plot.setLabel("left", y_label, color=FOREGROUND)
    plot.showGrid(x=False, y=True, alpha=0.25)
    plot.setMenuEnabled(False)
    plot.hideButtons()


def translucent(colour: str, alpha: int = BAND_ALPHA) -> QColor:
    """The colour with another alpha."""
    c = QColor(colour)
    c.setAlpha(alpha)
    return c


def bars_with_errors(
    plot: pg.PlotItem,
    labels: Sequence[str],
    values: np.ndarray,
    low: np.ndarray | None,
    high: np.ndarray | None,
    colours: Sequence[str],
    x: np.ndarray | None = None,
    width: float = 0.6,
) -> pg.BarGraphItem:
    """Bars at 0..n-1 (or `x`) labelled below, with error bars from `low` to `high` when given."""
    xs = np.arange(len(values), dtype=float) if x is None else np.asarray(x, dtype=float)
    bars = pg.BarGraphItem(x=xs, height=np.asarray(values, dtype=float), width=width,
                           brushes=[pg.mkBrush(c) for c in colours], pens=[pg.mkPen(FOREGROUND, width=0.5)] * len(xs))
    plot.addItem(bars)
    if low is not None and high is not None and len(values):
        v = np.asarray(values, dtype=float)
        err = pg.ErrorBarItem(x=xs, y=v, top=np.asarray(high) - v, bottom=v - np.asarray(low), beam=width * 0.35,
                              pen=pg.mkPen(FOREGROUND, width=1.5))
        plot.addItem(err)
    if labels:
        plot.getAxis("bottom").setTicks([[(float(i), str(s)) for i, s in zip(xs, labels, strict=True)]])
    return bars


def line_with_band(
    plot: pg.PlotItem, x: np.ndarray, y: np.ndarray, low: np.ndarray, high: np.ndarray, colour: str,
    name: str | None = None, symbol: str | None = None,
) -> pg.PlotDataItem:
    """A line and its shaded interval band."""
    lo = pg.PlotDataItem(x, low, pen=pg.mkPen(translucent(colour, 120), width=1))
    hi = pg.PlotDataItem(x, high, pen=pg.mkPen(translucent(colour, 120), width=1))
    plot.addItem(lo)
    plot.addItem(hi)
    plot.addItem(pg.FillBetweenItem(lo, hi, brush=pg.mkBrush(translucent(colour))))
    line = pg.PlotDataItem(x, y, pen=pg.mkPen(colour, width=2), name=name, symbol=symbol, symbolSize=7,
                           symbolBrush=colour, symbolPen=pg.mkPen(FOREGROUND, width=0.5))
    plot.addItem(line)
    return line


def new_layout() -> pg.GraphicsLayoutWidget:
    """A white chart canvas."""
    w = pg.GraphicsLayoutWidget()
    w.setBackground(BACKGROUND)
    w.ci.setContentsMargins(4, 4, 4, 4)
    return w


def swatch(colour: str) -> pg.ScatterPlotItem:
    """A square marker for a legend entry (bar items show no colour in pyqtgraph legends)."""
    return pg.ScatterPlotItem(symbol="s", size=11, brush=pg.mkBrush(colour), pen=pg.mkPen(FOREGROUND, width=0.5))


class BarsWithErrors:
    """A bar item and (optionally) its error bars, made once and fed new numbers."""

    def __init__(self, plot: pg.PlotItem, errors: bool) -> None:
        self.bars = pg.BarGraphItem(x=EMPTY, height=EMPTY, width=0.6, brush=pg.mkBrush("#888888"),
                                    pen=pg.mkPen(FOREGROUND, width=0.5))
        plot.addItem(self.bars)
        self.errors: pg.ErrorBarItem | None = None
        if errors:
            self.errors = pg.ErrorBarItem(x=EMPTY, y=EMPTY, top=EMPTY, bottom=EMPTY, beam=0.2,
                                          pen=pg.mkPen(FOREGROUND, width=1.5))
            plot.addItem(self.errors)

    def set_data(self, x: np.ndarray, heights: np.ndarray, colours: Sequence[str],
                 low: np.ndarray | None = None, high: np.ndarray | None = None, width: float = 0.6) -> None:
        """Bars at x; one colour for all, or one per bar; error bars from low to high."""
        x = np.asarray(x, dtype=float)
        h = np.asarray(heights, dtype=float)
        if len(colours) == len(x) and len(x) > 1:
            self.bars.setOpts(x=x, height=h, width=width, brush=None, brushes=[pg.mkBrush(c) for c in colours])
        else:
            brush = pg.mkBrush(colours[0] if colours else "#888888")
            self.bars.setOpts(x=x, height=h, width=width, brush=brush, brushes=None)
        if self.errors is not None:
            if low is None or high is None or not len(x):
                self.errors.setData(x=EMPTY, y=EMPTY, top=EMPTY, bottom=EMPTY)
            else:
                self.errors.setData(x=x, y=h, top=np.asarray(high) - h, bottom=h - np.asarray(low),
                                    beam=width * 0.35)


class Band:
    """A line with its shaded interval band, fed new numbers."""

    def __init__(self, plot: pg.PlotItem, colour: str, symbol: str | None = None) -> None:
        self.lo = pg.PlotDataItem(EMPTY, EMPTY, pen=pg.mkPen(translucent(colour, 120), width=1))
        self.hi = pg.PlotDataItem(EMPTY, EMPTY, pen=pg.mkPen(translucent(colour, 120), width=1))
        plot.addItem(self.lo)
        plot.addItem(self.hi)
        plot.addItem(pg.FillBetweenItem(self.lo, self.hi, brush=pg.mkBrush(translucent(colour))))
        self.line = pg.PlotDataItem(EMPTY, EMPTY, pen=pg.mkPen(colour, width=2), symbol=symbol, symbolSize=7,
                                    symbolBrush=colour, symbolPen=pg.mkPen(FOREGROUND, width=0.5))
        plot.addItem(self.line)

    def set_data(self, x: np.ndarray, y: np.ndarray, low: np.ndarray, high: np.ndarray) -> None:
        """New line, low and high arrays."""
        self.lo.setData(x, low)
        self.hi.setData(x, high)
        self.line.setData(x, y)


def integer_ticks(axis: pg.AxisItem, largest: float) -> None:
    """Ticks on whole numbers only (turns, models lost): 1, 2, 5, 10… apart depending on the range."""
    span = max(1.0, float(largest))
    major = next(step for step in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if span / step <= 10)
    axis.setTickSpacing(major=major, minor=major)
