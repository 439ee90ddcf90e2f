"""Per-square heatmaps, one array per level, shaped like the level's rows (row y, column x)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.sim.record import SQUARE_FIELDS
from engine.stats.aggregate import BatchStats

Heatmap = npt.NDArray[np.float64]


def level_shapes(mission: Any) -> dict[str, tuple[int, int]]:
    """(height, width) of every level of a mission model."""
    return {lv.id: (lv.height, lv.width) for lv in mission.levels}


def heatmap(
    counts: Mapping[tuple[str, int, int], int] | Iterable[tuple[tuple[str, int, int], int]],
    shapes: Mapping[str, tuple[int, int]],
    per_games: int = 0,
) -> dict[str, Heatmap]:
    """Arrays per level from (level, x, y) -> count; divided by `per_games` when given (a per-game rate).

    Squares outside a level's grid (a stale mission, a level removed since) are dropped, not an error.
    """
    out = {lv: np.zeros(shape, dtype=np.float64) for lv, shape in shapes.items()}
    items = counts.items() if isinstance(counts, Mapping) else counts
    for (lv, x, y), n in items:
        grid = out.get(lv)
        if grid is not None and 0 <= y < grid.shape[0] and 0 <= x < grid.shape[1]:
            grid[y, x] += n
    if per_games > 0:
        for grid in out.values():
            grid /= per_games
    return out


def batch_heatmaps(stats: BatchStats, mission: Any, per_game: bool = True) -> dict[str, dict[str, Heatmap]]:
    """{count name: {level id: array}} for marine_deaths, genestealer_deaths and genestealer_traffic."""
    shapes = level_shapes(mission)
    n = stats.games if per_game else 0
    return {name: heatmap(stats.squares[name], shapes, n) for name in SQUARE_FIELDS}
