"""The strength check: how the Marine win rate moves when both sides play better, and whether the verdict holds.

Every pairing of player strengths plays the same game seeds. The strengths are the skill tiers of
engine.tune.tiers (random, novice, heuristic, the look-ahead player; a tier whose policies are not registered
is skipped with a note) and, given weights from `train`, the tuned heuristic players. Two verdicts:

- the skill curve: the Marine win rate at equal strength, tier by tier. CONVERGED when the two strongest tiers
  agree (the paired 95% interval of their difference lies within ±CONVERGED_WITHIN); otherwise which way it is
  still moving, or that the interval is too wide to tell;
- robustness: heuristic-vs-heuristic against tuned-vs-tuned (the paired interval of the difference holds 0).
  The tuned players are not a rung of the curve: trained on this mission, they may be exploitable by weaker
  players, so they are compared with the heuristic they came from.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.base import SIDES
from engine.sim.batch import iter_batch, prepare_spec
from engine.sim.local import LocalPool, RunStatus
from engine.sim.spec import BatchSpec
from engine.sim.stopping import stop_reason
from engine.stats.intervals import paired_diff, wilson
from engine.tune.tiers import TIERS, Tier, playable

TUNED = "tuned"
CONVERGED_WITHIN = 0.05  # the two strongest tiers agree when their paired 95% interval lies within ±5 points


def level_policy(level: str, side: str, tuned: Mapping[str, Mapping[str, float]],
                 tiers: Sequence[Tier] = TIERS) -> tuple[str, dict[str, float]]:
    """The policy name and parameters that play `side` at `level` (a tier's name, or "tuned")."""
    if level == TUNED:
        return f"heuristic-{side}", dict(tuned.get(side, {}))
    for t in tiers:
        if t.name == level:
            return t.player(side)
    raise ValueError(f"unknown strength {level!r}")


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


def paired_marine_diff(a: Cell, b: Cell) -> tuple[float, float, float] | None:
    """Marine win rate of `a` minus `b` on the game indices both finished, with its paired 95% interval."""
    pairs = [(x, y) for x, y in zip(a.winners, b.winners, strict=True) if x and y]
    if not pairs:
        return None
    return paired_diff([x == "marines" for x, _ in pairs], [y == "marines" for _, y in pairs])


@dataclass(frozen=True)
class CurveVerdict:
    """The skill curve's verdict: the two strongest tiers played and the paired difference between them."""

    strongest: str
    below: str
    diff: tuple[float, float, float]  # strongest - below, Marine win rate, with its paired 95% interval

    @property
    def status(self) -> str:
        """converged, rising, falling, or unsettled (the interval holds 0 but reaches past ±CONVERGED_WITHIN)."""
        _d, lo, hi = self.diff
        if -CONVERGED_WITHIN <= lo and hi <= CONVERGED_WITHIN:
            return "converged"
        if lo > 0:
            return "rising"
        if hi < 0:
            return "falling"
        return "unsettled"

    @property
    def headline(self) -> str:
        """The verdict in capitals."""
        return {"converged": "CONVERGED", "rising": "MARINE WIN RATE STILL RISING WITH SKILL",
                "falling": "MARINE WIN RATE STILL FALLING WITH SKILL",
                "unsettled": "NOT SETTLED: TOO FEW GAMES TO TELL"}[self.status]

    def text(self) -> str:
        """One sentence."""
        d, lo, hi = self.diff
        paired = f"{self.strongest} − {self.below} {100 * d:+.1f} pts [{100 * lo:+.1f}, {100 * hi:+.1f}] paired"
        within = f"±{100 * CONVERGED_WITHIN:.0f} points"
        why = {"converged": f"the two strongest tiers agree within {within}",
               "rising": "better players still win more for the Marines",
               "falling": "better players still win less for the Marines",
               "unsettled": f"the interval holds 0 but reaches past {within}; play more games"}[self.status]
        return f"{self.headline}: {why} ({paired})."

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"status": self.status, "headline": self.headline, "text": self.text(), "strongest": self.strongest,
                "below": self.below, "diff": self.diff[0], "diff_ci95": list(self.diff[1:]),
                "within": CONVERGED_WITHIN}


@dataclass
class StrengthReport:
    """The cells played, by (Marine level, Genestealer level), and the verdicts."""

    levels: list[str]
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    tuned_sides: list[str] = field(default_factory=list)
    cancelled: bool = False
    stopped: str | None = None  # "interrupted" (Ctrl-C), "terminated" (SIGTERM), "cancelled" or a reason
    skipped: list[str] = field(default_factory=list)  # a note per tier not played (its policies not registered)
    tiers: list[Tier] = field(default_factory=list)  # the tiers of `levels`, weakest first (not "tuned")

    def diagonal(self) -> list[Cell]:
        """Equal strength on both sides, in the order of `levels`."""
        return [self.cells[(lv, lv)] for lv in self.levels if (lv, lv) in self.cells]

    def curve(self) -> list[Cell]:
        """The skill curve: equal strength at each tier played, weakest first (the tuned players are not a tier)."""
        return [c for c in self.diagonal() if c.marines != TUNED and c.games]

    def curve_verdict(self) -> CurveVerdict | None:
        """The verdict of the two strongest tiers played; None with fewer than two."""
        curve = self.curve()
        if len(curve) < 2:
            return None
        top, below = curve[-1], curve[-2]
        d = paired_marine_diff(top, below)
        return None if d is None else CurveVerdict(top.marines, below.marines, d)

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
        h, t = self.cells.get(("heuristic", "heuristic")), self.cells.get((TUNED, TUNED))
        if h is None or t is None or not h.games or not t.games:
            return None
        return paired_marine_diff(t, h)

    def curve_text(self) -> str:
        """The skill curve's sentence."""
        v = self.curve_verdict()
        if v is None:
            return "No skill-curve verdict: fewer than two tiers played."
        return f"Skill curve: {v.text()}"

    def robust_text(self) -> str:
        """The robustness sentence (heuristic against tuned)."""
        robust = self.robust
        if robust is None:
            return "No verdict on robustness without tuned players (give a weights file from hulkforge train)."
        h, t = self.cells[("heuristic", "heuristic")], self.cells[(TUNED, TUNED)]
        d = self.heuristic_vs_tuned()
        assert d is not None
        paired = f"tuned - heuristic {100 * d[0]:+.1f} pts [{100 * d[1]:+.1f}, {100 * d[2]:+.1f}] paired"
        if robust:
            return (f"ROBUST: heuristic {_ci(h)} and tuned {_ci(t)} agree ({paired}); the verdict does not hang "
                    f"on the AI's strength.")
        return (f"DEPENDS ON WHO PLAYS: heuristic {_ci(h)} and tuned {_ci(t)} disagree ({paired}); better "
                f"players would judge this mission differently.")

    def verdict(self) -> str:
        """The summary: the Marine win rate at equal strength, the skill curve's verdict, robustness."""
        diag = ", ".join(f"{c.marines} {100 * c.rate():.1f}%" for c in self.diagonal())
        return f"Marine win rate at equal strength: {diag}. {self.curve_text()} {self.robust_text()}"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        v = self.curve_verdict()
        players = {t.name: {s: t.player(s)[0] for s in SIDES} for t in self.tiers}
        return {"levels": self.levels, "tuned_sides": self.tuned_sides, "robust": self.robust,
                "verdict": self.verdict(), "cells": [c.to_json() for c in self.cells.values()],
                "curve": [{"tier": c.marines, "players": players.get(c.marines, {}), **c.to_json()}
                          for c in self.curve()],
                "curve_verdict": v.to_json() if v is not None else None, "skipped_tiers": self.skipped,
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


def check_tiers(tiers: Sequence[Tier] | None = None) -> tuple[list[Tier], list[str]]:
    """The tiers a check plays (default: every tier of engine.tune.tiers) and a note per tier skipped."""
    return playable(TIERS if tiers is None else tiers)


def check_levels(tuned: Mapping[str, Mapping[str, float]] | None, tiers: Sequence[Tier] | None = None) -> list[str]:
    """The strengths a check plays, weakest first: the playable tiers, with the tuned players (only given
    weights) right after the heuristic ones."""
    names = [t.name for t in check_tiers(tiers)[0]]
    if tuned:
        names.insert(names.index("heuristic") + 1 if "heuristic" in names else len(names), TUNED)
    return names


def check_games(games: int, tuned: Mapping[str, Mapping[str, float]] | None, matrix: bool,
                tiers: Sequence[Tier] | None = None) -> int:
    """How many games a check of `games` per pairing plays in all (the progress total)."""
    return games * len(pairings(check_levels(tuned, tiers), matrix))


def strength_check(
    base: BatchSpec,
    tuned: Mapping[str, Mapping[str, float]] | None = None,
    *,
    matrix: bool = True,
    tiers: Sequence[Tier] | None = None,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    cancel: threading.Event | None = None,
    on_cell: Callable[[Cell], None] | None = None,
    on_games: Callable[[int], None] | None = None,
    on_report: Callable[[StrengthReport], None] | None = None,
) -> StrengthReport:
    """Play every pairing of strengths for `base.games` games on `base.seed` (the tuned level only with weights).

    `tiers`: the skill tiers, weakest first (default engine.tune.tiers.TIERS); those whose policies are not
    registered are skipped with a note in the report. Each pairing is one batch of the batch runner, so it
    spreads over the local pool or a Dask cluster like any other. `on_report` gets the report so far after each
    pairing. Ctrl-C or SIGTERM stops it like `cancel`: the pairings played are kept, the one in play with the
    games it finished.
    """
    tuned = dict(tuned or {})
    played, skipped = check_tiers(tiers)
    levels = check_levels(tuned, tiers)
    report = StrengthReport(levels, tuned_sides=[s for s in SIDES if s in tuned], skipped=skipped, tiers=played)
    spec0 = prepare_spec(base)
    pool = LocalPool(workers) if backend == "local" else None
    try:
        for m, g in pairings(levels, matrix):
            pol = {s: level_policy(lv, s, tuned, played) for s, lv in zip(SIDES, (m, g), strict=True)}
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


def format_curve(report: StrengthReport) -> list[str]:
    """The skill curve as a table: tier, players, games, Marine win rate with its Wilson 95% interval."""
    players = {t.name: f"{t.player(SIDES[0])[0]} / {t.player(SIDES[1])[0]}" for t in report.tiers}
    lines = ["  skill curve (equal strength on both sides, weakest first): Marine win rate, 95% CI",
             f"    {'tier':<12}{'players':<44}{'games':>7}  Marine wins"]
    for c in report.curve():
        lines.append(f"    {c.marines:<12}{players.get(c.marines, ''):<44}{c.games:>7}  {_ci(c)}")
    lines += [f"    ({note})" for note in report.skipped]
    v = report.curve_verdict()
    lines.append(f"  {v.text() if v is not None else report.curve_text()}")
    return lines


def format_report(report: StrengthReport, title: str = "") -> str:
    """The matrix of Marine win rates (rows: Marine level, columns: Genestealer level), the curve, the verdicts."""
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
    lines += format_curve(report)
    diag = ", ".join(f"{c.marines} {100 * c.rate():.1f}%" for c in report.diagonal())
    lines.append(f"  Marine win rate at equal strength: {diag}. {report.robust_text()}")
    if report.cancelled:
        lines.append("  (stopped early: the cells left blank were not played)")
    return "\n".join(lines)
