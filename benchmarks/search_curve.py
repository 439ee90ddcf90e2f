"""Win rate against budget of the look-ahead players: `python -m benchmarks.search_curve`.

For each sample mission and side, plays the heuristic player of that side against the heuristic opponent, then
the look-ahead player (`search-marines` / `search-genestealers`) at each budget (`games`: look-ahead games per
candidate and decision) against the same opponent, on the same game seeds (one batch seed: game i of every
batch starts from the same seed), and prints the side's win rate with its Wilson 95% interval, the paired
difference to the heuristic player (engine.stats.intervals.paired_diff, by game) and the CPU seconds per game
(the batch's worker processes, user + system). With one budget and `--games 500` it is the strength check of
docs/ai.md ("Look-ahead players").

    python -m benchmarks.search_curve --missions pitfall --budgets 1 2 4 8 --games 40
    python -m benchmarks.search_curve --budgets 4 --games 500 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from engine.ai.base import SIDES
from engine.resources import sample_mission
from engine.sim.batch import run_batch
from engine.sim.spec import BatchSpec
from engine.stats.intervals import paired_diff, wilson

MISSIONS = ("pitfall", "recover_the_relic", "the_long_drop", "tutorial")
BUDGETS = (1, 2, 4, 8)


@dataclass
class Point:
    """One player (the heuristic, budget None, or the look-ahead player at a budget) on one mission and side."""

    mission: str
    side: str
    budget: int | None
    games: int
    win_rate: float
    low: float
    high: float
    diff: float  # win rate minus the heuristic player's, paired by game
    diff_low: float
    diff_high: float
    cpu_per_game: float


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wins(mission: str, side: str, policy: str, params: dict[str, float], games: int, seed: int,
          workers: int) -> tuple[list[bool], float]:
    """The side's win in each game (by index) of the batch, and the CPU seconds per game its workers spent."""
    other = SIDES[1] if side == SIDES[0] else SIDES[0]
    spec = BatchSpec(games=games, seed=seed, mission=str(sample_mission(mission)),
                     policies={side: policy, other: f"heuristic-{other}"}, params={side: params} if params else {})
    before = _children_cpu()
    result = run_batch(spec, workers=workers)
    cpu = _children_cpu() - before
    by_index = {r.index: r.winner == side for r in result.records}
    return [by_index[i] for i in sorted(by_index)], cpu / max(1, len(by_index))


def curve(mission: str, side: str, budgets: Sequence[int], games: int, seed: int, workers: int) -> list[Point]:
    """The heuristic player's point, then the look-ahead player's at each budget."""
    base, base_cpu = _wins(mission, side, f"heuristic-{side}", {}, games, seed, workers)
    points = []
    for budget in (None, *budgets):
        if budget is None:
            wins, cpu = base, base_cpu
        else:
            wins, cpu = _wins(mission, side, f"search-{side}", {"games": float(budget)}, games, seed, workers)
        n = min(len(wins), len(base))
        d = paired_diff(wins[:n], base[:n])
        lo, hi = wilson(sum(wins), len(wins))
        points.append(Point(mission, side, budget, len(wins), sum(wins) / max(1, len(wins)), lo, hi, *d, cpu))
    return points


def _row(p: Point) -> str:
    who = "heuristic" if p.budget is None else f"games={p.budget}"
    diff = "" if p.budget is None else (
        f"{100 * p.diff:+6.1f} [{100 * p.diff_low:+6.1f}, {100 * p.diff_high:+6.1f}]")
    return (f"{p.mission:18} {p.side:12} {who:10} {p.games:5} {100 * p.win_rate:6.1f}% "
            f"[{100 * p.low:5.1f}, {100 * p.high:5.1f}] {diff:26} {p.cpu_per_game:8.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.search_curve", description=__doc__.split("\n\n")[0])
    ap.add_argument("--missions", nargs="+", default=list(MISSIONS), choices=MISSIONS)
    ap.add_argument("--sides", nargs="+", default=list(SIDES), choices=SIDES)
    ap.add_argument("--budgets", nargs="+", type=int, default=list(BUDGETS), help="look-ahead games (default 1 2 4 8)")
    ap.add_argument("--games", type=int, default=40, help="games per point (default 40)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--json", metavar="FILE", help="also write the points as JSON")
    args = ap.parse_args(argv)
    if args.games < 1 or any(b < 0 for b in args.budgets):
        ap.error("--games must be at least 1 and budgets at least 0")
    print(f"{'mission':18} {'side':12} {'player':10} {'games':>5} {'win rate':>7} {'95% CI':14} "
          f"{'paired diff vs heuristic, pts':26} {'CPU-s/game':>8}")
    points: list[Point] = []
    for mission in args.missions:
        for side in args.sides:
            for p in curve(mission, side, args.budgets, args.games, args.seed, args.workers):
                points.append(p)
                print(_row(p), flush=True)
    if args.json:
        tmp = f"{args.json}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump([asdict(p) for p in points], f, indent=1)
        os.replace(tmp, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
