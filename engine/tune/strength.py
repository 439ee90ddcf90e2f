"""The strength check: how the Marine win rate moves when both sides play better, and whether the verdict holds.

Every pairing of player strengths (random, novice, heuristic, tuned) plays the same game seeds. The verdict is
robust when heuristic-vs-heuristic and tuned-vs-tuned agree: the paired 95% interval of the difference of their
Marine win rates holds 0. Then a better AI does not change what the mission says; otherwise the balance
depends on who plays.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.ai.base import SIDES
from engine.sim.batch import iter_batch, prepare_spec
from engine.sim.local import LocalPool, RunStatus
from engine.sim.spec import BatchSpec
from engine.sim.stopping import stop_reason
from engine.stats.intervals import paired_diff, wilson

LEVELS = ("random", "novice", "heuristic", "tuned")


def level_policy(level: str, side: str, tuned: Mapping[str, Mapping[str, float]]) -> tuple[str, dict[str, float]]:
    """The policy name and parameters that play `side` at `level`."""
    if level == "random":
        return "random", {}
    if level == "novice":
        return f"novice-{side}", {}
    if level == "tuned":
        return f"heuristic-{side}", dict(tuned.get(side, {}))
    return f"heuristic-{side}", {}


@dataclass
class Cell:
    """One pairing: the Marine and Genestealer levels, and game outcomes by index (for paired comparisons)."""

    marines: str
    genestealers: str
    winners: list[str]

    @property
    def games(self) -> int:
        """Finished games."""
        return sum(1 for w in self.winners if w)

    def rate(self, side: str = "marines") -> float:
        """Win rate of `side` (or "draw")."""
        return self.winners.count(side) / self.games if self.games else 0.0

    def interval(self, side: str = "marines") -> tuple[float, float]:
        """Wilson 95% interval of that rate."""
        return wilson(self.winners.count(side), self.games)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"marines": self.marines, "genestealers": self.genestealers, "games": self.games,
                "marine_win_rate": self.rate(), "marine_win_ci95": list(self.interval()),
                "genestealer_win_rate": self.rate("genestealers"), "draw_rate": self.rate("draw")}


@dataclass
class StrengthReport:
    """The cells played, by (Marine level, Genestealer level), and the verdict."""

    levels: list[str]
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    tuned_sides: list[str] = field(default_factory=list)
    cancelled: bool = False
    stopped: str | None = None  # "interrupted" (Ctrl-C), "terminated" (SIGTERM), "cancelled" or a reason

    def diagonal(self) -> list[Cell]:
        """Equal strength on both sides, weakest first."""
        return [self.cells[(lv, lv)] for lv in self.levels if (lv, lv) in self.cells]

    @property
    def robust(self) -> bool | None:
        """True when heuristic and tuned (equal strengths) agree: the paired 95% interval of their difference
        holds 0. None without both. (Paired on shared seeds, it is stricter than overlapping Wilson intervals.)"""
        d = self.heuristic_vs_tuned()
        if d is None:
            return None
        return d[1] <= 0 <= d[2]

    def heuristic_vs_tuned(self) -> tuple[float, float, float] | None:
        """Tuned minus heuristic Marine win rate on the diagonal, paired by seed, with its 95% interval."""
        h, t = self.cells.get(("heuristic", "heuristic")), self.cells.get(("tuned", "tuned"))
        if h is None or t is None or not h.games or not t.games:
            return None
        pairs = [(a, b) for a, b in zip(t.winners, h.winners, strict=True) if a and b]
        return paired_diff([a == "marines" for a, _ in pairs], [b == "marines" for _, b in pairs])

    def verdict(self) -> str:
        """One sentence for the summary."""
        diag = ", ".join(f"{c.marines} {100 * c.rate():.1f}%" for c in self.diagonal())
        robust = self.robust
        if robust is None:
            return (f"Marine win rate at equal strength: {diag}. No verdict on robustness without tuned players "
                    f"(give a weights file from hulkforge train).")
        h, t = self.cells[("heuristic", "heuristic")], self.cells[("tuned", "tuned")]
        d = self.heuristic_vs_tuned()
        assert d is not None
        paired = f"tuned - heuristic {100 * d[0]:+.1f} pts [{100 * d[1]:+.1f}, {100 * d[2]:+.1f}] paired"
        if robust:
            return (f"Marine win rate at equal strength: {diag}. ROBUST: heuristic {_ci(h)} and tuned {_ci(t)} "
                    f"agree ({paired}); the verdict does not hang on the AI's strength.")
        return (f"Marine win rate at equal strength: {diag}. DEPENDS ON WHO PLAYS: heuristic {_ci(h)} and tuned "
                f"{_ci(t)} disagree ({paired}); better players would judge this mission differently.")

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"levels": self.levels, "tuned_sides": self.tuned_sides, "robust": self.robust,
                "verdict": self.verdict(), "cells": [c.to_json() for c in self.cells.values()],
                "cancelled": self.cancelled}


def _ci(c: Cell) -> str:
    lo, hi = c.interval()
    return f"{100 * c.rate():.1f}% [{100 * lo:.1f}–{100 * hi:.1f}]"


def pairings(levels: list[str], matrix: bool) -> list[tuple[str, str]]:
    """The (Marine, Genestealer) levels to play: the diagonal first, then, with `matrix`, every other pair."""
    pairs = [(lv, lv) for lv in levels]
    if matrix:
        pairs += [(m, g) for m in levels for g in levels if m != g]
    return pairs


def check_levels(tuned: Mapping[str, Mapping[str, float]] | None) -> list[str]:
    """The strengths a check plays: the tuned level only with tuned weights."""
    return [lv for lv in LEVELS if lv != "tuned" or tuned]


def check_games(games: int, tuned: Mapping[str, Mapping[str, float]] | None, matrix: bool) -> int:
    """How many games a check of `games` per pairing plays in all (the progress total)."""
    return games * len(pairings(check_levels(tuned), matrix))


def strength_check(
    base: BatchSpec,
    tuned: Mapping[str, Mapping[str, float]] | None = None,
    *,
    matrix: bool = True,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    cancel: threading.Event | None = None,
    on_cell: Callable[[Cell], None] | None = None,
    on_games: Callable[[int], None] | None = None,
    on_report: Callable[[StrengthReport], None] | None = None,
) -> StrengthReport:
    """Play every pairing of strengths for `base.games` games on `base.seed` (the tuned level only with weights).

    `on_report` gets the report so far after each pairing. Ctrl-C or SIGTERM stops it like `cancel`: the
    pairings played are kept, the one in play with the games it finished.
    """
    tuned = dict(tuned or {})
    levels = check_levels(tuned)
    report = StrengthReport(levels, tuned_sides=[s for s in SIDES if s in tuned])
    spec0 = prepare_spec(base)
    pool = LocalPool(workers) if backend == "local" else None
    try:
        for m, g in pairings(levels, matrix):
            pol = {s: level_policy(lv, s, tuned) for s, lv in zip(SIDES, (m, g), strict=True)}
            spec = spec0.with_changes(policies={s: p[0] for s, p in pol.items()},
                                      params={s: p[1] for s, p in pol.items() if p[1]})
            cell = Cell(m, g, [""] * spec.games)
            status = RunStatus()
            try:
                for rec in iter_batch(spec, backend=backend, workers=workers, scheduler=scheduler, cancel=cancel,
                                      status=status, pool=pool):
                    cell.winners[rec.index] = rec.winner or ""
                    if on_games is not None:
                        on_games(1)
            except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as Terminated
                status.stopped = stop_reason(exc)
            report.cells[(m, g)] = cell
            if on_cell is not None:
                on_cell(cell)
            if status.stopped is not None:
                report.cancelled = True
                report.stopped = status.stopped
            if on_report is not None:
                on_report(report)
            if report.cancelled:
                break
    finally:
        if pool is not None:
            pool.close()
    return report


def format_report(report: StrengthReport, title: str = "") -> str:
    """The matrix of Marine win rates (rows: Marine level, columns: Genestealer level) and the verdict."""
    lv = report.levels
    width = 22
    lines = [f"strength check{(' of ' + title) if title else ''}: Marine win rate, 95% CI "
             f"(rows: Marines, columns: Genestealers)"]
    lines.append(f"  {'':<10}" + "".join(f"{g:>{width}}" for g in lv))
    for m in lv:
        row = f"  {m:<10}"
        for g in lv:
            c = report.cells.get((m, g))
            row += f"{(_ci(c) if c is not None and c.games else '-'):>{width}}"
        lines.append(row)
    if report.tuned_sides and len(report.tuned_sides) < 2:
        missing = [s for s in SIDES if s not in report.tuned_sides]
        lines.append(f"  (tuned {missing[0]} play the default heuristic weights: the weights file has none)")
    lines.append("  " + report.verdict())
    if report.cancelled:
        lines.append("  (stopped early: the cells left blank were not played)")
    return "\n".join(lines)
