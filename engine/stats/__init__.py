"""Statistics of batches: Wilson intervals, distributions, survival, per-square heatmaps, sweep curves.

Numbers only (numpy arrays and plain values): the editor draws them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.stats.aggregate import BatchStats, MarineFate
from engine.stats.distributions import histogram_mean, histogram_median, length_distribution, survival_curve
from engine.stats.heatmap import batch_heatmaps, heatmap, level_shapes
from engine.stats.intervals import newcombe_diff, paired_diff, wilson
from engine.stats.sweep import SweepCurve, compare_on_shared_seeds, sweep_curve

__all__ = [
    "BatchStats",
    "MarineFate",
    "SweepCurve",
    "batch_heatmaps",
    "compare_on_shared_seeds",
    "heatmap",
    "histogram_mean",
    "histogram_median",
    "length_distribution",
    "level_shapes",
    "marine_survival_curve",
    "newcombe_diff",
    "paired_diff",
    "survival_curve",
    "sweep_curve",
    "wilson",
]


def marine_survival_curve(stats: BatchStats) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """(turns, fraction of all Marines of all games alive at the end of each turn) for a batch."""
    return stats.survival()
