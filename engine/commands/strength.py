"""`hulkforge simulate MISSION --strength-check [--tuned WEIGHTS.json]`: does the verdict depend on who plays?"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from engine.commands.playable import report_invalid
from engine.mission.playable import InvalidMission
from engine.sim.cli_support import Progress, UsageError, build_spec


def run_strength_check(args: argparse.Namespace) -> int:
    """The strength check of simulate's arguments (policies and --param are set per level, so they are refused)."""
    from engine.ai.weights import load_weights_file
    from engine.commands.simulate import parse_sets
    from engine.sim.batch import BatchError
    from engine.sim.outputs import OutputClaim, OutputError
    from engine.sim.stopping import stop_exit_code, stop_name
    from engine.tune.strength import check_games, format_report, strength_check

    try:
        if args.marines or args.genestealers or args.params or args.param_files:
            raise UsageError("--strength-check chooses the players itself; give tuned weights with --tuned")
        tiers = None
        if args.tiers is not None:
            from engine.tune.tiers import parse_tiers

            try:
                tiers = parse_tiers(args.tiers)
            except ValueError as exc:
                raise UsageError(f"--tiers: {exc}") from None
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
    try:
        claim = OutputClaim(args.out) if args.out else None  # checked and held before the first game
    except OutputError as exc:
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 2
    progress = Progress(check_games(spec.games, tuned, not args.diagonal, tiers), "strength check: ")

    def document(report: Any, complete: bool) -> dict[str, Any]:
        return {"mission": args.mission, "games": spec.games, "seed": spec.seed, **report.to_json(),
                "complete": complete}

    def save(report: Any, complete: bool) -> None:
        if args.out:
            write_report(args.out, document(report, complete))

    try:
        # The report is rewritten after every pairing, so a crash or a kill loses the pairing in play only.
        report = strength_check(spec, tuned, matrix=not args.diagonal, tiers=tiers, backend=args.backend,
                                workers=args.workers,
                                scheduler=args.scheduler, on_games=lambda n: progress.update(n),
                                on_report=lambda r: save(r, False))
        progress.close()
        save(report, not report.cancelled)
    except BatchError as exc:
        progress.close()
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        progress.close()
        print(f"hulkforge simulate: {args.out}: cannot write: {exc.strerror or exc}"
              f"{'; it holds the pairings played before' if os.path.exists(args.out) else ''}", file=sys.stderr)
        return 2
    finally:
        if claim is not None:
            claim.release()
    if args.json:
        print(json.dumps(document(report, not report.cancelled), indent=2, sort_keys=True))
    else:
        print(format_report(report, f"{args.mission}, {spec.games} games per pairing, seed {spec.seed}"))
    if report.stopped:
        where = f" in {args.out}" if args.out else ""
        print(f"hulkforge simulate: strength check stopped ({stop_name(report.stopped)}): kept the {len(report.cells)} "
              f"pairings played{where}", file=sys.stderr)
    return stop_exit_code(report.stopped) or (130 if report.cancelled else 0)


def write_report(path: str, doc: dict[str, Any]) -> None:
    """Replace the report file atomically."""
    from engine.mission.io import atomic_write_text

    atomic_write_text(path, json.dumps(doc, indent=2, sort_keys=True) + "\n")
