"""`hulkforge simulate MISSION --games N --seed S ...`: a Monte Carlo batch of AI-vs-AI games."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.sim.cli_support import (
    Progress,
    UsageError,
    add_batch_arguments,
    build_spec,
    dask_options,
    format_summary,
    parse_value,
    set_help_text,
    split_assignment,
)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate",
        help="play a batch of AI-vs-AI games and print win rates",
        description="Play a reproducible batch of games between two AI policies and summarise it: win rates "
        "with Wilson 95% intervals, game length, casualties. The same --seed and --games give the same "
        "games whatever --workers or --backend. Ctrl-C stops early and keeps the games that finished. "
        "Exit 0: done; 1: the batch could not run or games failed; 2: bad input; 130: interrupted.",
    )
    add_batch_arguments(p, set_help_text())
    p.add_argument("--out", "-o", metavar="FILE", default=None,
                   help="write summary + one row per game as JSON (schemas/results.schema.json)")
    p.add_argument("--keep-actions", action="store_true", help="also store every game's action texts in --out")
    p.add_argument("--strength-check", action="store_true",
                   help="play --games games for each pairing of random, novice, heuristic and tuned players and "
                   "report whether the Marine win rate depends on their strength (--out: the report as JSON)")
    p.add_argument("--tuned", metavar="WEIGHTS.json", default=None,
                   help="with --strength-check: the tuned players' weights (hulkforge train)")
    p.add_argument("--diagonal", action="store_true",
                   help="with --strength-check: only equal strengths on both sides (4 batches instead of 16)")
    return p


def parse_sets(items: list[str]) -> dict[str, Any]:
    """--set NAME=VALUE items as a dict."""
    out: dict[str, Any] = {}
    for text in items:
        name, value = split_assignment(text, "--set")
        out[name] = parse_value(value)
    return out


def run(args: argparse.Namespace) -> int:
    if args.strength_check:
        from engine.commands.strength import run_strength_check

        return run_strength_check(args)
    from engine.commands.playable import report_invalid
    from engine.mission.playable import InvalidMission
    from engine.sim.batch import BatchError, run_batch
    from engine.sim.results import ResultsWriter, square_totals

    try:
        spec = build_spec(args, parse_sets(args.sets))
        dask = dask_options(args)
    except UsageError as exc:
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 2
    except InvalidMission as exc:
        return report_invalid("hulkforge simulate", exc)
    spec.keep_actions = bool(args.keep_actions)
    from engine.sim.batch import prepare_spec

    spec = prepare_spec(spec)
    progress = Progress(spec.games, "simulate: ")
    try:
        writer = ResultsWriter(args.out, spec.to_json()) if args.out else None
    except OSError as exc:
        print(f"hulkforge simulate: {args.out}: cannot write: {exc}", file=sys.stderr)
        return 2

    def on_result(rec: Any) -> None:
        if writer is not None:
            writer.add(rec)
        progress.update()

    try:
        result = run_batch(spec, on_result=on_result, backend=args.backend, workers=args.workers,
                           scheduler=args.scheduler, keep_records=False, dask_options=dask)
        progress.close()
        summary = result.summary()
        summary["options_in_force"] = options_in_force(spec)
        if writer is not None:
            writer.finish(summary, square_totals(result.stats))
    except BatchError as exc:
        progress.close()
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"hulkforge simulate: {args.out}: cannot write: {exc}", file=sys.stderr)
        return 2
    finally:
        if writer is not None:
            writer.abort()  # a no-op after finish(); otherwise the temporary file goes, the target stays
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(format_summary(summary))
        if args.out:
            print(f"  results written to {args.out}")
    for msg in result.status.messages[:5]:
        print(f"hulkforge simulate: {msg}", file=sys.stderr)
    if result.status.stopped == "interrupted":
        return 130
    return 1 if result.stats.failed or result.status.stopped not in (None, "cancelled") else 0


def options_in_force(spec: Any) -> dict[str, Any]:
    """Every rule option as the games played them (defaults, mission, overrides)."""
    from engine.rules.options import resolve_options
    from engine.sim.runner import load_spec_mission

    return dict(resolve_options(load_spec_mission(spec), spec.options))
