"""Benchmark: games per second and actions per second of the engine alone on each sample mission.

    python -m benchmarks.rules [--games N] [--mission NAME] [--policy random|heuristic]

random: uniform random play (very many Genestealers on the board). heuristic: games are first played by the
heuristic policies, then replayed and timed, so only the engine's time is counted (legal_actions + apply).
"""

from __future__ import annotations

import argparse
import random
import time

from engine.mission import load_mission
from engine.resources import sample_missions
from engine.rules.actions import Action
from engine.rules.game import Game


def bench(path: str, games: int, seed: int = 0) -> tuple[float, float, float]:
    """(games/s, actions/s, mean turns) of random play on one mission."""
    game = Game(load_mission(path))
    actions = 0
    turns = 0
    t0 = time.perf_counter()
    for i in range(games):
        s = game.new_state(seed + i)
        rng = random.Random(seed + i)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            actions += 1
        turns += s.result().turns
    dt = time.perf_counter() - t0
    return games / dt, actions / dt, turns / games


def bench_replay(path: str, games: int, seed: int = 0) -> tuple[float, float, float]:
    """(games/s, actions/s, mean turns) of the engine replaying games played by the heuristic policies."""
    from engine.ai.base import make_policy
    from engine.sim.play import play_out

    game = Game(load_mission(path))
    pols = {side: make_policy(f"heuristic-{side}") for side in ("marines", "genestealers")}
    played: list[tuple[int, list[Action]]] = []
    turns = 0
    for i in range(games):
        state, applied, _capped = play_out(game, seed + i, pols)
        played.append((seed + i, applied))
        turns += state.turn
    actions = sum(len(a) for _, a in played)
    t0 = time.perf_counter()
    for s_seed, applied in played:
        s = game.new_state(s_seed)
        for a in applied:
            s.apply(a)
    dt = time.perf_counter() - t0
    return games / dt, actions / dt, turns / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--mission", default=None, help="one sample mission name (default: all)")
    ap.add_argument("--policy", choices=("random", "heuristic"), default="random")
    args = ap.parse_args(argv)
    run = bench if args.policy == "random" else bench_replay
    for path in sample_missions():
        if args.mission and path.stem != args.mission.removesuffix(".json"):
            continue
        gps, aps, turns = run(str(path), args.games)
        print(f"{path.stem:20s} {gps:8.1f} games/s {aps:10.0f} actions/s  mean turns {turns:5.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
