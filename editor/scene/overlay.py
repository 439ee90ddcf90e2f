"""Overlay data for the balance lab: tokens (models on the board) and heatmap colour scales."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from PySide6.QtGui import QColor

from editor import palette

TokenKind = Literal["marine", "genestealer", "blip"]
ColourScale = Callable[[float], QColor | str] | tuple[float, float] | None


@dataclass(frozen=True)
class Token:
    """A model drawn over the map: kind, id, square, facing ('N'/'E'/'S'/'W' or None) and a short label."""

    kind: TokenKind
    id: str
    x: int
    y: int
    facing: str | None = None
    label: str = ""


def _lerp(a: QColor, b: QColor, t: float) -> QColor:
    t = min(1.0, max(0.0, t))
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def colour_function(values: dict[tuple[int, int], float], scale: ColourScale) -> Callable[[float], QColor]:
    """Turn a colour scale (callable, (vmin, vmax) or None = data range) into value -> QColor."""
    if callable(scale):
        fn = scale
        return lambda v: QColor(fn(v))
    if scale is None:
        lo = min(values.values(), default=0.0)
        hi = max(values.values(), default=1.0)
    else:
        lo, hi = scale
    span = (hi - lo) or 1.0
    low, high = QColor(palette.HEAT_LOW), QColor(palette.HEAT_HIGH)
    return lambda v: _lerp(low, high, (v - lo) / span)
