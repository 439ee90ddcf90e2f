"""`hulkforge replay results.json --game K`: play game K of a batch again and print its event log."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay",
        help="re-play one game of a results file and print its event log",
        description="Re-play game K of a results file (written by simulate --out) from its seed, with the "
        "mission, options and policies recorded in the file, and print every event: turn, side, action, "
        "dice, effects. Checks that the winner matches the recorded one. Exit 0: it matches; 1: it "
        "differs (the rules or a policy changed since); 2: unreadable file or no such game.",
    )
    p.add_argument("results", metavar="RESULTS", help="a results file from hulkforge simulate --out")
    p.add_argument("--game", "-g", type=int, required=True, metavar="K", help="the game index to replay")
    p.add_argument("--json", action="store_true", help="print the events and the outcome as JSON")
    return p


def format_event(e: dict[str, Any]) -> str:
    """One log event as a line."""
    if "action" not in e:
        return f"  {e.get('text', e)}"
    dice = f"  dice {' '.join(map(str, e['dice']))}" if e.get("dice") else ""
    effects = f"  -> {e['effects']}" if e.get("effects") else ""
    return f"T{e.get('turn', '?'):>2} {e.get('player', '')!s:<12} {e['action']}{dice}{effects}"


def run(args: argparse.Namespace) -> int:
    from engine.mission import MissionFileError
    from engine.sim.replay import ReplayMismatch, replay_game
    from engine.sim.results import ResultsFileError, read_results, replay_spec

    try:
        doc = read_results(args.results)
        replay_spec(doc, args.results)
    except ResultsFileError as exc:
        print(f"hulkforge replay: {exc}", file=sys.stderr)
        return 2
    rows = {row["index"]: row for row in doc["games"]}
    row = rows.get(args.game)
    if row is None:
        print(f"hulkforge replay: {args.results}: $.games has no game {args.game} "
              f"({len(rows)} games recorded)", file=sys.stderr)
        return 2
    try:
        rep = replay_game(doc, args.game)
    except ReplayMismatch as exc:
        print(f"hulkforge replay: {args.results}: game {args.game}: {exc}", file=sys.stderr)
        return 1
    except (MissionFileError, ValueError, KeyError) as exc:
        print(f"hulkforge replay: {args.results}: cannot rebuild the game: {exc}", file=sys.stderr)
        return 2
    log = rep.log()
    rec = rep.record
    same = rec.winner == row["winner"] and rec.turns == row["turns"]
    if args.json:
        print(json.dumps({"game": args.game, "seed": rec.seed, "recorded": {"winner": row["winner"],
                          "turns": row["turns"]}, "replayed": rec.to_json(), "matches": same, "events": log},
                         indent=2))
    else:
        for e in log:
            print(format_event(e))
        print(f"game {args.game} (seed {rec.seed}): {rec.winner} after {rec.turns} turns - {rec.reason}")
        if same:
            print(f"matches the recorded result ({row['winner']}, {row['turns']} turns)")
    if not same:
        print(f"hulkforge replay: game {args.game} replayed as {rec.winner} in {rec.turns} turns, but the file "
              f"records {row['winner']} in {row['turns']} turns", file=sys.stderr)
        return 1
    return 0
