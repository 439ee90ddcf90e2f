"""Benchmark: `python -m benchmarks.sim [--mission pitfall] [--games N] [--engine auto|installed|checkout]` prints
games/s per core and pooled, of the engine a user of this checkout runs: the installed one when it is compiled from
these very sources (README's commands install it so, docs/speed.md), else the checkout's sources."""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import engine
from engine.ai.base import SIDES, default_policy, make_policy
from engine.compiled import engine_build, installed_copy
from engine.sim.local import default_workers, stop_fork_server
from engine.sim.play import play_game
from engine.sim.runner import build_game, tune_gc_for_games
from engine.sim.spec import BatchSpec, game_seed


def main(argv: Sequence[str] | None = None) -> int:
    """Time one core in this process, then the local pool with every core."""
    # Imported here, not above: the pool's workers import this module again when they start (it is __main__),
    # and the batch and CLI modules would bring NumPy into each of them, which `hulkforge simulate` does not.
    from engine.resources import mission_path
    from engine.sim.batch import run_batch

    p = argparse.ArgumentParser(prog="python -m benchmarks.sim", description=__doc__)
    p.add_argument("--mission", default="pitfall", help="mission file or sample name (default pitfall)")
    p.add_argument("--games", type=int, default=200, help="games per measurement (default 200)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=None, help="pool size (default: one per CPU)")
    for side in SIDES:
        p.add_argument(f"--{side}", default=None, help=f"policy for the {side} (default as in simulate)")
    p.add_argument("--engine", choices=("auto", "installed", "checkout"), default="auto",
                   help="which engine to measure: the one installed in this environment when it is compiled from "
                        "exactly this checkout's sources, else the checkout's (auto, the default); the installed "
                        "one whatever it is (installed); the checkout's sources, plain Python (checkout)")
    args = p.parse_args(argv)
    checkout = Path(__file__).resolve().parents[1]
    if not sys.flags.safe_path and (args.engine == "installed" or
                                    (args.engine == "auto" and installed_copy(checkout) is not None)):
        # Again, with -P: neither the checkout nor the current directory goes on sys.path, so `engine` is the
        # installed package (the pool's workers inherit the path).
        rest = list(sys.argv[1:] if argv is None else argv)
        return subprocess.call([sys.executable, "-P", str(Path(__file__).resolve()), *rest])
    where = Path(engine.__file__).resolve().parent
    if sys.flags.safe_path and where.is_relative_to(checkout):
        p.error(f"the engine installed here is the checkout itself ({checkout}: an editable install)")
    policies = {side: getattr(args, side) or default_policy(side) for side in SIDES}
    spec = BatchSpec(games=args.games, seed=args.seed, mission=mission_path(args.mission), policies=policies)

    t0 = time.perf_counter()
    game = build_game(spec)
    built = time.perf_counter() - t0
    players = {side: make_policy(policies[side]) for side in SIDES}
    tune_gc_for_games()  # as the pool's workers do, so the one-core figure is a worker's
    t0 = time.perf_counter()
    actions = 0
    for i in range(args.games):
        actions += play_game(game, game_seed(args.seed, i), players, index=i).n_actions
    one = time.perf_counter() - t0
    print(f"mission {spec.mission}, policies {policies}")
    print(f"engine: {engine_build()}, from {where}")
    print(f"build Game: {1000 * built:.1f} ms")
    print(f"1 core (in process): {args.games / one:.1f} games/s, {actions / one:.0f} actions/s, "
          f"{actions / args.games:.0f} actions/game")

    workers = args.workers or default_workers()
    before = _cpu_seconds()
    result = run_batch(spec, workers=workers, keep_records=False)
    stop_fork_server()  # so that its CPU time, and its workers', is counted (they are its children, not ours)
    cpu = _cpu_seconds() - before
    print(f"pool of {workers} worker(s): {result.games_per_second:.1f} games/s "
          f"({result.games_per_second / workers:.1f} per worker) over {result.seconds:.2f} s "
          f"(includes starting the workers)")
    # Wall-clock per worker falls whenever other programs share the cores; CPU time counts only what the batch
    # used (its workers and the fork server they come from, start-up included, and this process), so it is the
    # steadier per-core figure.
    if cpu > 0:
        print(f"pool CPU time: {cpu:.2f} s, {(result.stats.games + result.stats.failed) / cpu:.1f} games per "
              f"CPU-second")
    return 0


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers, once it has stopped them)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    raise SystemExit(main())
