"""`hulkforge levers MISSION [--games N]`: which number of the mission moves the Marine win rate most."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.sim.cli_support import Progress, UsageError, add_batch_arguments, build_spec, set_help_text

DEFAULT_GAMES = 200


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "levers",
        help="rank the mission's numbers by their effect on the Marine win rate",
        description="Play the mission as it is, then each of its numbers one step down and one step up (a "
        "choice: each other value), every batch on the same game seeds, and print the steps ranked by their "
        "effect on the Marine win rate: the paired difference to the mission as it is, with its 95% interval. "
        "A step is a sixth of the value, at least one. Steps that break a placement rule are skipped, with the "
        "reason. Exit 0: done; 1: a batch failed; 2: bad input; 130: interrupted.",
    )
    add_batch_arguments(p, "a rule option or mission parameter held fixed; " + set_help_text())
    p.set_defaults(games=DEFAULT_GAMES)
    p.add_argument("--lever", dest="levers", action="append", default=[], metavar="NAME",
                   help="only these parameters (repeatable): a path such as genestealers.limited.total, a "
                   "Marine's weapon such as marines.squad[2].ranged, or a rule option such as overwatch_range")
    return p


def run(args: argparse.Namespace) -> int:
    from engine.commands.playable import report_invalid
    from engine.mission import mission_from_dict, mission_to_dict, read_document
    from engine.mission.playable import InvalidMission
    from engine.resources import mission_path
    from engine.sim.batch import BatchError
    from engine.sim.cli_support import parse_value, split_assignment
    from engine.sim.params import apply_mission_params
    from engine.tune.levers import format_levers, lever_candidates, levers, steps

    try:
        sets = {}
        for text in args.sets:
            name, value = split_assignment(text, "--set")
            sets[name] = parse_value(value)
        spec = build_spec(args, sets)
        if spec.games < 1:
            raise UsageError(f"--games must be >= 1, not {spec.games}")
        doc = read_document(mission_path(args.mission))
        fixed_doc = mission_to_dict(apply_mission_params(mission_from_dict(doc), spec.mission_params))
        try:
            params = lever_candidates(fixed_doc, args.levers, spec.options)
        except ValueError as exc:
            raise UsageError(f"--lever: {exc}") from None
    except UsageError as exc:
        print(f"hulkforge levers: {exc}", file=sys.stderr)
        return 2
    except InvalidMission as exc:
        return report_invalid("hulkforge levers", exc)
    total = spec.games * (1 + sum(len(steps(p)) for p in params))
    progress = Progress(total, "levers: ")
    try:
        report = levers(spec, params, doc=doc, backend=args.backend, workers=args.workers,
                        scheduler=args.scheduler, on_games=lambda n: progress.update(n))
    except BatchError as exc:
        progress.close()
        print(f"hulkforge levers: {exc}", file=sys.stderr)
        return 1
    progress.close()
    if args.json:
        print(json.dumps({"mission": args.mission, "fixed": sets, **report.to_json()}, indent=2, sort_keys=True))
    else:
        print(format_levers(report, args.mission))
    return 130 if report.cancelled else 0
