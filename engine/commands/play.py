"""`hulkforge play MISSION --seed S`: play one game with AI policies (or a person for a side) and print its log."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play one game between two AI policies, or against a person in the terminal, and print its log",
        description="Play one game of MISSION (a file or a sample name) and print every action, its dice and "
        "effects, then the result. The game is a pure function of the mission, options, policies and seed. "
        "With --marines human (or --genestealers human) each decision of that side is read from standard "
        "input: an action's text form or its number in the printed list; ? lists the legal actions; end of "
        "input resigns (exit 0 with the result); undo takes back that side's last decision (marked in the record).",
    )
    p.add_argument("mission", help="mission file, or the name of a sample mission (e.g. pitfall)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--marines", default=None,
                   help="Marine policy, or human (default: the registry's default)")
    p.add_argument("--genestealers", default=None,
                   help="Genestealer policy, or human (default: the registry's default)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="rule option override (JSON value), repeatable")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="write the game as a one-game results file that hulkforge replay FILE --game 0 reads")
    return p


def run(args: argparse.Namespace) -> int:
    import json
    import random

    from engine.ai import default_policy
    from engine.ai.base import UnknownPolicyError
    from engine.commands.human import HumanPlayer, Resigned, UndoAsked
    from engine.commands.playable import report_invalid
    from engine.mission import MissionFileError
    from engine.mission.playable import InvalidMission, load_playable_document
    from engine.resources import mission_path
    from engine.sim.session import HUMAN, PlaySession

    path = mission_path(args.mission)
    try:
        doc, _mission = load_playable_document(path)
    except MissionFileError as exc:
        print(f"hulkforge play: {exc}", file=sys.stderr)
        return 2
    except InvalidMission as exc:
        return report_invalid("hulkforge play", exc)
    overrides: dict[str, object] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            overrides[name] = json.loads(value)
        except json.JSONDecodeError:
            overrides[name] = value
    if args.record is not None:
        from engine.sim.outputs import OutputError, check_output_path

        try:
            check_output_path(args.record)
        except OutputError as exc:
            print(f"hulkforge play: --record {exc}", file=sys.stderr)
            return 2
    sides = ("marines", "genestealers")
    names = {side: getattr(args, side) or default_policy(side) for side in sides}
    try:
        session = PlaySession(doc, names, args.seed, overrides, mission_path=path)
    except InvalidMission as exc:
        return report_invalid("hulkforge play", exc)
    except UnknownPolicyError as exc:
        print(f"hulkforge play: {exc}; or {HUMAN} for a person in the terminal", file=sys.stderr)
        return 2
    except ValueError as exc:  # a bad rule option, or a weights file that cannot be used
        print(f"hulkforge play: {exc}", file=sys.stderr)
        return 2
    people = {side: HumanPlayer(side) for side in session.humans()}
    rng = random.Random(0)  # (a person draws nothing from it)
    printed = 0
    while not session.is_over():
        mover = session.to_move()
        assert mover is not None
        if mover in people:
            try:
                session.apply(people[mover].choose(session.state, session.legal(), rng))
            except Resigned:
                session.resign(mover)
                break
            except UndoAsked:
                if session.undo():
                    printed = min(printed, len(session.state.log))
                    print(f"undone: back to turn {session.state.turn}, {session.to_move()} to decide")
                else:
                    print("nothing to undo: no decision of yours yet")
        else:
            session.play_ai()
        if not args.quiet:
            log = session.state.log
            for ev in log[printed:]:
                print(_event_line(ev))
            printed = len(log)
    result = session.result()
    assert result is not None
    winner, turns, reason = result
    print(f"result: {winner} after {turns} turns ({reason}); "
          f"policies {names['marines']} vs {names['genestealers']}, seed {args.seed}")
    if args.record is not None:
        try:
            session.write_record(args.record)
        except OSError as exc:
            print(f"hulkforge play: --record {args.record}: cannot write: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"game recorded in {args.record} (hulkforge replay {args.record} --game 0)")
    return 0


def _event_line(ev: Any) -> str:
    dice = " ".join(map(str, ev.dice))
    line = f"T{ev.turn:<3d} {ev.player:12s} {ev.action:28s}"
    if dice:
        line += f" [{dice}]"
    if ev.effects:
        line += f"  {ev.effects}"
    return line
