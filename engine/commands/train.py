"""`hulkforge train MISSION --side marines --games N -o weights.json`: self-tuned heuristic players."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.ai.base import SIDES
from engine.commands.playable import report_invalid
from engine.mission.playable import InvalidMission
from engine.sim.batch import BACKENDS
from engine.sim.cli_support import UsageError, add_param_file_argument, build_spec, pct, short_number
from engine.sim.spec import MAX_GAMES
from engine.sim.stopping import EXIT_CODES, stop_name, stop_reason


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "train",
        help="tune the heuristic players' weights for a mission by self-play",
        description="Optimise one side's weights (engine/ai/weights.py) for this mission against the other "
        "side's current best, alternating sides over --rounds, then compare the tuned and the start weights "
        "on fresh seeds (paired, with 95% intervals). Writes a weights file that simulate, sweep and tune read "
        "as --marines heuristic-marines:FILE or --param-file FILE. Exit 0: written; 1: cancelled or no file; "
        "2: bad input, or -o cannot be written (checked before the first game, or a full disk); 130: Ctrl-C; "
        "143: SIGTERM. After each finished round -o holds the weights so far with \"complete\": false, so a "
        "stop or a kill keeps the finished rounds.",
    )
    p.add_argument("mission", metavar="MISSION", help="mission file (.json) or a sample name such as pitfall")
    p.add_argument("--side", choices=SIDES, required=True, help="the side to train (first, when --rounds > 1)")
    p.add_argument("--games", "-n", type=int, required=True, help="games the search may play, over all rounds")
    p.add_argument("--rounds", type=int, default=1,
                   help="rounds, alternating sides: 1 trains --side only, 2 then answers with the other side, ...")
    p.add_argument("--trial-games", type=int, default=100, help="games per trial, on shared seeds (default 100)")
    p.add_argument("--check-games", type=int, default=1000,
                   help="games of the final tuned-vs-start comparison per trained side (default 1000; 0: none); "
                   "with --against, per opponent")
    p.add_argument("--against", metavar="OPPONENTS", default=None,
                   help="train against a population instead of the other side's current weights: any of random, "
                   "novice, heuristic, search (the look-ahead player), rounds (the other side's start weights and "
                   "earlier rounds), comma-separated; weights more than 3 points worse than the defaults against "
                   "any of them are refused")
    p.add_argument("--seed", "-s", type=int, default=1, help="seed of the games and of the search (default 1)")
    p.add_argument("--workers", "-w", type=int, default=None, help="worker processes (default: one per CPU)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="local process pool (default) or Dask")
    p.add_argument("--scheduler", metavar="ADDR", default=None, help="Dask scheduler address")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option or mission parameter for every game (repeatable)")
    p.add_argument("--start", dest="param_files", action="append", default=[], metavar="WEIGHTS.json",
                   help="start from the weights of this file instead of the defaults")
    add_param_file_argument(p)
    p.add_argument("-o", "--out", metavar="FILE", required=True, help="weights file to write")
    p.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    return p


def run(args: argparse.Namespace) -> int:
    from engine.commands.simulate import parse_sets
    from engine.sim.outputs import OutputClaim, OutputError

    try:
        for flag, v, least in (("--games", args.games, 1), ("--rounds", args.rounds, 1),
                               ("--trial-games", args.trial_games, 1), ("--check-games", args.check_games, 0)):
            if not least <= v <= MAX_GAMES:
                raise UsageError(f"{flag} must be between {least} and {MAX_GAMES:,}, not {short_number(v)}")
        per_trial = args.trial_games
        if args.against is not None:
            from engine.tune.population import build_population, parse_against

            try:
                args.against = parse_against(args.against)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            for side in SIDES:  # the fewest opponents either side meets (the first round has no earlier rounds)
                opponents, notes = build_population(args.against, side, {}, [])
                if not opponents:
                    raise UsageError(f"--against: no opponent left for the {side} ({'; '.join(notes)})")
                per_trial = max(per_trial, len(opponents) * args.trial_games)
        if args.games < 4 * per_trial * args.rounds:
            raise UsageError(f"--games {args.games} leaves fewer than 4 trials of {per_trial} games a round")
        args.params = []
        args.marines = args.genestealers = None  # the heuristic players: their weights are what is trained
        args.max_actions = 20_000
        base = build_spec(args, parse_sets(args.sets))
    except UsageError as exc:
        print(f"hulkforge train: {exc}", file=sys.stderr)
        return 2
    except InvalidMission as exc:
        return report_invalid("hulkforge train", exc)
    try:
        claim = OutputClaim(args.out)  # checked and held before the first game
    except OutputError as exc:
        print(f"hulkforge train: {exc}", file=sys.stderr)
        return 2
    kept = Kept(args.out)
    try:
        return _train(args, base, kept)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as Terminated: the finished rounds are in the file
        reason = stop_reason(exc)
        print(f"hulkforge train: stopped ({stop_name(reason)}) before the end; {kept.describe()}", file=sys.stderr)
        return EXIT_CODES[reason]
    except OSError as exc:  # a full disk while writing a round: the atomic write left the previous file whole
        print(f"hulkforge train: {args.out}: cannot write: {exc.strerror or exc}; {kept.describe()}",
              file=sys.stderr)
        return 2
    finally:
        claim.release()


class Kept:
    """What the weights file holds so far: the rounds written to it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.rounds = 0
        self.weights: dict[str, dict[str, float]] = {}

    def describe(self) -> str:
        """One clause for the last line of a stopped run."""
        if not self.rounds:
            return "no round finished, nothing written"
        return (f"kept the {self.rounds} finished round(s) in {self.path} (\"complete\": false; its weights "
                f"load with --param-file or --start)")


def _train(args: argparse.Namespace, base: Any, kept: Kept) -> int:
    from engine.ai.weights import save_weights_file
    from engine.sim.stopping import signals_held
    from engine.tune.population import format_check
    from engine.tune.train import train

    if not args.json:
        against = f" against {','.join(args.against)}" if args.against else ""
        print(f"train {args.side} on {args.mission}{against}: {args.games} games over {args.rounds} round(s), "
              f"{args.trial_games} a trial{' per opponent' if args.against else ''}, seed {args.seed}", flush=True)

    def on_round(rd: Any) -> None:
        if not args.json:
            choice = "new weights" if rd.changed else "kept the incumbent"
            refused = ", ".join(f"{100 * gap:+.1f} against {who}" for who, gap in rd.refused)
            worst = (f"; worst case against {rd.worst_against} {100 * rd.worst:+.1f} pts vs the defaults, "
                     f"{rd.rejected} candidate(s) refused{' (' + refused + ')' if refused else ''}"
                     if rd.worst is not None else "")
            print(f"  round {args.rounds and len(done) + 1}: {rd.side}, {rd.trials} trials, best trial "
                  f"{pct(rd.best_trial_score)}; fresh seeds: incumbent {pct(rd.incumbent_check)}, kept "
                  f"{pct(rd.kept_check)} ({choice}){worst}, {rd.games} games", flush=True)
        done.append(rd)
        # The best weights so far, written before the next round starts: a kill loses that round at most.
        weights = {**kept.weights, rd.side: rd.weights}
        with signals_held():  # what the last line says is kept is what the file holds
            save_weights_file(args.out, weights, **info, complete=False, rounds=len(done))
            kept.weights, kept.rounds = weights, len(done)

    done: list[Any] = []
    info: dict[str, Any] = {
        "mission": args.mission, "trained": {"side": args.side, "games": args.games, "rounds": args.rounds,
                                             "trial_games": args.trial_games, "seed": args.seed}}
    result = train(base, args.side, games=args.games, rounds=args.rounds, trial_games=args.trial_games,
                   check_games=args.check_games, backend=args.backend, workers=args.workers,
                   scheduler=args.scheduler, on_round=on_round, against=args.against)
    if result.cancelled:
        print(f"hulkforge train: stopped before the end; {kept.describe()}", file=sys.stderr)
        return 1
    info["checks"] = [c.to_json() for c in result.checks]
    if args.against:
        info["trained"]["against"] = args.against
        info["population_checks"] = [c.to_json() for c in result.population]
        info["notes"] = result.notes
    save_weights_file(args.out, result.weights, **info, complete=True, rounds=len(result.rounds))
    if args.json:
        print(json.dumps({"weights": result.weights, "rounds": [r.__dict__ for r in result.rounds],
                          "checks": info["checks"], "population_checks": info.get("population_checks", []),
                          "notes": result.notes, "games_spent": result.spent, "seconds": result.seconds,
                          "written": args.out}, indent=2, sort_keys=True))
        return 0
    for note in result.notes:
        print(f"  ({note})")
    for pc in result.population:
        print("\n".join(format_check(pc)))
    for c in result.checks:
        d, lo, hi = c.diff
        verdict = "significantly better" if c.significant else "not significantly better"
        opponent = "marines" if c.side == "genestealers" else "genestealers"
        print(f"  {c.side} win rate over {c.games} fresh games, against the start {opponent}: "
              f"start {pct(c.start_rate)} [{pct(c.start_ci[0])}, {pct(c.start_ci[1])}], tuned "
              f"{pct(c.tuned_rate)} [{pct(c.tuned_ci[0])}, {pct(c.tuned_ci[1])}], "
              f"{100 * d:+.1f} pts [{100 * lo:+.1f}, {100 * hi:+.1f}] paired: {verdict}")
    print(f"  {result.spent} games, {result.seconds:.1f} s; weights written to {args.out}")
    return 0
