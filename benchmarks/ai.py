"""Results matrix and speed of the AI players: `python -m benchmarks.ai`.

For each sample mission, plays every pairing of Marine policy x Genestealer policy on the same game seeds and
prints Marine wins, draws and Genestealer wins with Wilson 95% intervals, the mean game length, and the
speed of each pairing in games per second on one core (each cell runs in one process; `--jobs` cells run at
once, so speeds are per core as long as jobs <= cores).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from engine.resources import sample_names
from engine.stats.intervals import wilson

SAMPLES = tuple(sample_names())
MARINES = ("random", "novice-marines", "heuristic-marines")
STEALERS = ("random", "novice-genestealers", "heuristic-genestealers")


@dataclass
class Cell:
    """One pairing's results on one mission."""

    mission: str
    marines: str
    stealers: str
    games: int
    marine_wins: int
    draws: int
    stealer_wins: int
    turns: float
    seconds: float
    capped: int
    policy_seconds: float = 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def play_cell(mission: str, marines: str, stealers: str, games: int, seed: int) -> Cell:
    """Play `games` games of one pairing on one sample mission (game i uses the batch seed's i-th seed)."""
    from engine.ai.base import make_policy
    from engine.mission import load_mission
    from engine.resources import sample_mission
    from engine.rules.game import Game
    from engine.sim.play import play_game
    from engine.sim.spec import game_seed

    game = Game(load_mission(str(sample_mission(mission))))
    pols = {"marines": _Timed(make_policy(marines)), "genestealers": _Timed(make_policy(stealers))}
    wins = {"marines": 0, "draw": 0, "genestealers": 0}
    turns = 0
    capped = 0
    t0 = time.perf_counter()
    for i in range(games):
        rec = play_game(game, game_seed(seed, i), pols, index=i)
        winner = str(rec.winner)
        wins[winner] = wins.get(winner, 0) + 1
        turns += rec.turns
        capped += 1 if rec.capped else 0
    dt = time.perf_counter() - t0
    spent = sum(p.seconds for p in pols.values())
    return Cell(mission, marines, stealers, games, wins["marines"], wins["draw"], wins["genestealers"],
                turns / max(games, 1), dt, capped, spent)


class _Timed:
    """A policy wrapper that adds up the time spent choosing (the rest of a game is the rules engine)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.params = inner.params
        self.seconds = 0.0

    def choose(self, state: Any, actions: Any, rng: Any) -> Any:
        t0 = time.perf_counter()
        a = self.inner.choose(state, actions, rng)
        self.seconds += time.perf_counter() - t0
        return a


def _pct(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.0f}% [{100 * lo:.0f}–{100 * hi:.0f}]" if n else "–"


def markdown(cells: Sequence[Cell]) -> str:
    """The matrix as Markdown tables, one per mission."""
    out = []
    for mission in dict.fromkeys(c.mission for c in cells):
        mc = [c for c in cells if c.mission == mission]
        n = mc[0].games
        out.append(f"### {mission} ({n} games per cell)\n")
        out.append("| Marines \\ Genestealers | " + " | ".join(dict.fromkeys(c.stealers for c in mc)) + " |")
        out.append("| --- |" + " --- |" * len(dict.fromkeys(c.stealers for c in mc)))
        for mp in dict.fromkeys(c.marines for c in mc):
            row = [f"**{mp}**"]
            for c in (c for c in mc if c.marines == mp):
                row.append(
                    f"M {_pct(c.marine_wins, c.games)}<br>draw {_pct(c.draws, c.games)}<br>"
                    f"GS {_pct(c.stealer_wins, c.games)}<br>{c.turns:.1f} turns, {c.games_per_s:.1f} games/s"
                    + (f", {c.capped} capped" if c.capped else "")
                )
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the matrix and print it (and write it to --out)."""
    doc = __doc__.splitlines()[0] if __doc__ else ""
    p = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=doc)
    p.add_argument("--games", type=int, default=200, help="games per cell (default 200)")
    p.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    p.add_argument("--missions", nargs="*", default=list(SAMPLES), help="sample missions (default: all)")
    p.add_argument("--marines", nargs="*", default=list(MARINES), help="Marine policies")
    p.add_argument("--genestealers", nargs="*", default=list(STEALERS), help="Genestealer policies")
    p.add_argument("--jobs", type=int, default=2, help="cells played at once (default 2)")
    p.add_argument("--out", help="also write the Markdown matrix to this file")
    args = p.parse_args(argv)
    jobs = [(m, mp, gp) for m in args.missions for mp in args.marines for gp in args.genestealers]
    cells: list[Cell] = []
    if args.jobs <= 1:
        # In this process, so that `python -m cProfile -m benchmarks.ai --jobs 1` profiles the games.
        results = (play_cell(m, mp, gp, args.games, args.seed) for m, mp, gp in jobs)
        for c in results:
            cells.append(c)
            _progress(c)
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as ex:
            futs = [ex.submit(play_cell, m, mp, gp, args.games, args.seed) for m, mp, gp in jobs]
            for f in futs:
                c = f.result()
                cells.append(c)
                _progress(c)
    text = markdown(cells)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


def _progress(c: Cell) -> None:
    n = max(c.games, 1)
    print(f"{c.mission:18} {c.marines:18} {c.stealers:22} M {c.marine_wins:4} D {c.draws:4} "
          f"G {c.stealer_wins:4}  {c.turns:5.1f} turns  {c.games_per_s:6.1f} games/s  "
          f"policies {1000 * c.policy_seconds / n:6.1f} ms/game, "
          f"engine {1000 * (c.seconds - c.policy_seconds) / n:6.1f} ms/game", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
