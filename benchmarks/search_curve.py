"""Win rate against budget of the look-ahead players: `python -m benchmarks.search_curve`.

For each sample mission and side, plays the heuristic player of that side against the heuristic opponent, and
the look-ahead player (`search-marines` / `search-genestealers`) at each budget (`games`: look-ahead games per
candidate at a decision where the heuristic's plays disagree) against the same opponent, on the same game seeds
(game i of the batch seed `--seed`, as a batch deals them: engine.sim.spec.game_seed), and prints the side's win
rate with its Wilson 95% interval, the difference to the heuristic player paired by game
(engine.stats.intervals.paired_diff) and the CPU seconds per game of this process (`time.process_time`, one
core, whatever else the machine runs). Games are played in rounds of `--chunk` per point, each round printed
and written (`--json`) as it ends, so a run stopped early (Ctrl-C) keeps every finished round: the figures of
docs/ai.md ("Look-ahead players") name the games each point holds. `--missions`/`--sides` split a long run over
several processes.

    python -m benchmarks.search_curve --missions pitfall --budgets 1 2 4 8 --games 40
    python -m benchmarks.search_curve --missions pitfall --budgets 4 --games 500 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.base import SIDES, make_policy
from engine.mission import load_mission
from engine.resources import sample_mission, sample_missions
from engine.rules.game import Game
from engine.sim.play import play_game
from engine.sim.spec import game_seed
from engine.stats.intervals import paired_diff, wilson

MISSIONS = tuple(p.stem for p in sample_missions())  # every sample, a new one included
BUDGETS = (1, 2, 4, 8)


@dataclass
class Point:
    """One player (the heuristic, budget None, or the look-ahead player at a budget) on one mission and side."""

    mission: str
    side: str
    budget: int | None
    wins: list[bool] = field(default_factory=list)  # the side's win in game i
    cpu: float = 0.0  # CPU seconds of all its games

    def policy(self) -> tuple[str, dict[str, float]]:
        if self.budget is None:
            return f"heuristic-{self.side}", {}
        return f"search-{self.side}", {"games": float(self.budget)}

    def summary(self, base: Point) -> dict[str, Any]:
        n = len(self.wins)
        lo, hi = wilson(sum(self.wins), n)
        m = min(n, len(base.wins))
        d = paired_diff(self.wins[:m], base.wins[:m])
        return {"mission": self.mission, "side": self.side, "budget": self.budget, "games": n,
                "win_rate": sum(self.wins) / max(1, n), "low": lo, "high": hi, "paired_games": m,
                "diff": d[0], "diff_low": d[1], "diff_high": d[2], "cpu_per_game": self.cpu / max(1, n)}


def play_round(p: Point, game: Game, seed: int, start: int, stop: int) -> None:
    """Games start..stop-1 of batch seed `seed` for point p."""
    name, params = p.policy()
    other = SIDES[1] if p.side == SIDES[0] else SIDES[0]
    policies = {p.side: make_policy(name, params), other: make_policy(f"heuristic-{other}")}
    t = time.process_time()
    for i in range(start, stop):
        rec = play_game(game, game_seed(seed, i), policies, index=i)
        p.wins.append(rec.winner == p.side)
    p.cpu += time.process_time() - t


def _row(s: dict[str, Any]) -> str:
    who = "heuristic" if s["budget"] is None else f"games={s['budget']}"
    diff = "" if s["budget"] is None else (
        f"{100 * s['diff']:+6.1f} [{100 * s['diff_low']:+6.1f}, {100 * s['diff_high']:+6.1f}]")
    return (f"{s['mission']:18} {s['side']:12} {who:10} {s['games']:5} {100 * s['win_rate']:6.1f}% "
            f"[{100 * s['low']:5.1f}, {100 * s['high']:5.1f}] {diff:26} {s['cpu_per_game']:8.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.search_curve", description=__doc__.split("\n\n")[0])
    ap.add_argument("--missions", nargs="+", default=list(MISSIONS), choices=MISSIONS)
    ap.add_argument("--sides", nargs="+", default=list(SIDES), choices=SIDES)
    ap.add_argument("--budgets", nargs="+", type=int, default=list(BUDGETS), help="look-ahead games (default 1 2 4 8)")
    ap.add_argument("--games", type=int, default=40, help="games per point (default 40)")
    ap.add_argument("--chunk", type=int, default=25, help="games per point and round (default 25)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    ap.add_argument("--json", metavar="FILE", help="also write the points as JSON (after every round)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.chunk < 1 or any(b < 0 for b in args.budgets):
        ap.error("--games and --chunk must be at least 1 and budgets at least 0")
    games = {m: Game(load_mission(str(sample_mission(m))), {}) for m in args.missions}
    groups = [[Point(m, side, b) for b in (None, *args.budgets)] for m in args.missions for side in args.sides]
    for start in range(0, args.games, args.chunk):
        stop = min(args.games, start + args.chunk)
        rows: list[dict[str, Any]] = []
        for group in groups:
            for p in group:
                play_round(p, games[p.mission], args.seed, start, stop)
            rows.extend(p.summary(group[0]) for p in group)
        print(f"\n{stop} games per point (batch seed {args.seed})")
        print(f"{'mission':18} {'side':12} {'player':10} {'games':>5} {'win rate':>7} {'95% CI':14} "
              f"{'paired diff vs heuristic, pts':26} {'CPU-s/game':>8}")
        for s in rows:
            print(_row(s), flush=True)
        if args.json:
            tmp = f"{args.json}.tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(rows, f, indent=1)
            os.replace(tmp, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
