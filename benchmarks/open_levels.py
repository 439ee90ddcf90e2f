"""Benchmark: Pitfall's forces on one open level, `python -m benchmarks.open_levels [--sizes 40,80,200]`.

Each size is a square level of floor only (one room section, no wall inside it): the longest lines of sight and
the largest arcs a level of that size can have. The Marines, the Genestealers' pool, blips and reinforcements and
the victory conditions are Pitfall's (sample_missions/pitfall.json); the Marines start in a row across the
middle of the west side, facing east as in Pitfall, the disposal chute is in the north-east corner, and the
three entry areas are on the west and south edges. Heuristic players on both sides by default, as `simulate`.

Prints, per size, each game's CPU seconds, actions and turns, then games per CPU-second. A game stopped by
--budget (CPU seconds per size) counts as unfinished: the line says how far it got.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from engine.ai.base import SIDES, default_policy, make_policy
from engine.sim.play import play_out
from engine.sim.runner import tune_gc_for_games
from engine.sim.spec import game_seed

DEFAULT_SIZES = (40, 80, 200)


def open_level_doc(size: int) -> dict[str, Any]:
    """A format-v1 mission document: Pitfall's forces and victory on one open size x size level."""
    from engine.resources import sample_mission

    if not 12 <= size <= 200:
        raise ValueError(f"open level size {size}: must be 12 to 200")
    pitfall = json.loads(sample_mission("pitfall").read_text(encoding="utf-8"))
    mid = size // 2
    squad = copy.deepcopy(pitfall["marines"]["squad"])
    for m in squad:
        # Pitfall's row (x 5-9), moved to the middle of the west side; facings as in Pitfall.
        m["level"], m["y"] = "hall", mid
    gs = copy.deepcopy(pitfall["genestealers"])
    # Pitfall's lower and upper entry areas (turns 1-10, then from 11) become the same three, one level here.
    same = {"L-W": "W", "L-SW": "SW", "L-SE": "SE", "U-W": "W", "U-SW": "SW", "U-SE": "SE"}
    gs["starting"]["entry_areas"] = [same[e] for e in gs["starting"]["entry_areas"]]
    for row in gs["reinforcements"]:
        row["entry_areas"] = [same[e] for e in row["entry_areas"]]
    return {
        "format": "hulkforge-mission", "version": 1,
        "meta": {"title": f"Open level {size}x{size}", "author": "benchmarks/open_levels.py",
                 "description": "Pitfall's forces on one open level: the longest lines of sight of its size."},
        "ruleset": pitfall["ruleset"], "options": dict(pitfall["options"]),
        "levels": [{"id": "hall", "name": "Hall", "depth": 0, "rows": ["a" * size] * size,
                    "sections": {"a": {"name": "Hall", "kind": "room"}}}],
        "doors": [],
        "entry_areas": [{"id": "W", "level": "hall", "x": 0, "y": 2, "side": "W"},
                        {"id": "SW", "level": "hall", "x": 2, "y": size - 1, "side": "S"},
                        {"id": "SE", "level": "hall", "x": size - 3, "y": size - 1, "side": "S"}],
        "exits": [], "objectives": [], "pitfalls": [], "ladders": [], "rubble": [],
        "chutes": [{"id": "chute", "level": "hall", "x": size - 4, "y": 3}],
        "marines": {"squad": squad, "psi_points": pitfall["marines"]["psi_points"]},
        "genestealers": gs,
        "victory": copy.deepcopy(pitfall["victory"]),
    }


class _OverBudget(Exception):
    """The game ran past its CPU budget; carries the state it reached."""

    def __init__(self, state: Any) -> None:
        super().__init__()
        self.state = state


def play_timed(game: Any, seed: int, policies: dict[str, Any], budget: float) -> tuple[float, int, Any]:
    """Play one game (engine.sim.play.play_out, uncapped) until it ends or `budget` CPU seconds pass: (CPU
    seconds, actions, the state reached)."""
    t0 = time.process_time()
    n = 0

    def check(_player: str, _action: Any, state: Any) -> None:
        nonlocal n
        n += 1
        if n % 16 == 0 and time.process_time() - t0 > budget:
            raise _OverBudget(state)

    try:
        state, _applied, _capped = play_out(game, seed, policies, max_actions=sys.maxsize, on_step=check)
    except _OverBudget as stop:
        state = stop.state
    return time.process_time() - t0, n, state


def main(argv: Sequence[str] | None = None) -> int:
    from engine.mission import mission_from_dict
    from engine.rules.game import Game

    p = argparse.ArgumentParser(prog="python -m benchmarks.open_levels", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                   help="level sizes, comma-separated (default 40,80,200)")
    p.add_argument("--games", type=int, default=1, help="games per size (default 1)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=float, default=240.0,
                   help="CPU seconds per game before it is stopped and counted unfinished (default 240)")
    for side in SIDES:
        p.add_argument(f"--{side}", default=None, help=f"policy for the {side} (default as in simulate)")
    args = p.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
        docs = {size: open_level_doc(size) for size in sizes}
    except ValueError as exc:
        p.error(str(exc))
    names = {side: getattr(args, side) or default_policy(side) for side in SIDES}
    tune_gc_for_games()
    print(f"policies {names}, seed {args.seed}")
    for size in sizes:
        t0 = time.process_time()
        game = Game(mission_from_dict(docs[size]))
        built = time.process_time() - t0
        total, finished = built, 0
        players = {side: make_policy(names[side]) for side in SIDES}  # as a batch worker: once per mission
        for i in range(args.games):
            cpu, actions, state = play_timed(game, game_seed(args.seed, i), players, args.budget)
            total += cpu
            if state.is_terminal():
                finished += 1
                res = state.result()
                end = f", {res.winner} ({res.reason})"
            else:
                end = f", STOPPED after {args.budget:.0f} s, unfinished"
            print(f"{size}x{size} game {i}: {cpu:.2f} s CPU, {actions} actions, turn {state.turn}{end}")
        rate = f"{finished / total:.3f} games per CPU-second" if finished == args.games else "unfinished"
        print(f"{size}x{size}: {rate} ({total:.2f} s CPU for {args.games} game(s), Game built in {built:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
