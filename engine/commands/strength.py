"""`hulkforge simulate MISSION --strength-check [--tuned WEIGHTS.json]`: does the verdict depend on who plays?"""

from __future__ import annotations

import argparse
import json
import sys

from engine.commands.playable import report_invalid
from engine.mission.playable import InvalidMission
from engine.sim.cli_support import Progress, UsageError, build_spec


def run_strength_check(args: argparse.Namespace) -> int:
    """The strength check of simulate's arguments (policies and --param are set per level, so they are refused)."""
    from engine.ai.weights import load_weights_file
    from engine.commands.simulate import parse_sets
    from engine.mission.io import atomic_write_text
    from engine.sim.batch import BatchError
    from engine.tune.strength import check_games, format_report, strength_check

    try:
        if args.marines or args.genestealers or args.params or args.param_files:
            raise UsageError("--strength-check chooses the players itself; give tuned weights with --tuned")
        tuned = {}
        if args.tuned:
            try:
                tuned = load_weights_file(args.tuned)
            except ValueError as exc:
                raise UsageError(f"--tuned: {exc}") from None
        spec = build_spec(args, parse_sets(args.sets))
    except UsageError as exc:
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 2
    except InvalidMission as exc:
        return report_invalid("hulkforge simulate", exc)
    progress = Progress(check_games(spec.games, tuned, not args.diagonal), "strength check: ")
    try:
        report = strength_check(spec, tuned, matrix=not args.diagonal, backend=args.backend, workers=args.workers,
                                scheduler=args.scheduler, on_games=lambda n: progress.update(n))
    except BatchError as exc:
        progress.close()
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 1
    progress.close()
    doc = {"mission": args.mission, "games": spec.games, "seed": spec.seed, **report.to_json()}
    if args.json:
        print(json.dumps(doc, indent=2, sort_keys=True))
    else:
        print(format_report(report, f"{args.mission}, {spec.games} games per pairing, seed {spec.seed}"))
    if args.out:
        try:
            atomic_write_text(args.out, json.dumps(doc, indent=2, sort_keys=True) + "\n")
        except OSError as exc:
            print(f"hulkforge simulate: {args.out}: cannot write: {exc}", file=sys.stderr)
            return 2
    return 130 if report.cancelled else 0
