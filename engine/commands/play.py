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
        "input resigns (exit 0 with the result).",
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

    from engine.ai import default_policy, make_policy, policy_rng
    from engine.ai.base import UnknownPolicyError
    from engine.commands.human import HUMAN, HumanPlayer, Resigned
    from engine.commands.playable import report_invalid
    from engine.mission import MissionFileError
    from engine.mission.playable import InvalidMission, load_playable_document
    from engine.resources import mission_path
    from engine.rules.game import Game

    path = mission_path(args.mission)
    try:
        doc, mission = load_playable_document(path)
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
    try:
        game = Game(mission, overrides)
    except ValueError as exc:
        print(f"hulkforge play: {exc}", file=sys.stderr)
        return 2
    if args.record is not None:
        from engine.sim.outputs import OutputError, check_output_path

        try:
            check_output_path(args.record)
        except OutputError as exc:
            print(f"hulkforge play: --record {exc}", file=sys.stderr)
            return 2
    sides = ("marines", "genestealers")
    names = {side: getattr(args, side) or default_policy(side) for side in sides}
    policies: dict[str, Any] = {}
    try:
        for side in sides:
            policies[side] = HumanPlayer(side) if names[side] == HUMAN else make_policy(names[side])
    except (UnknownPolicyError, ValueError) as exc:
        print(f"hulkforge play: {exc}; or {HUMAN} for a person in the terminal", file=sys.stderr)
        return 2
    rngs = {side: policy_rng(args.seed, side) for side in sides}
    state = game.new_state(args.seed)
    applied: list[Any] = []
    resigned: str | None = None
    printed = 0
    while not state.is_terminal():
        mover = state.current_player()
        assert mover is not None
        actions = state.legal_actions()
        try:
            action = policies[mover].choose(state, actions, rngs[mover])
        except Resigned:
            resigned = mover
            break
        state.apply(action)
        applied.append(action)
        if not args.quiet:
            for ev in state.log[printed:]:
                print(_event_line(ev))
            printed = len(state.log)
    winner: str
    if resigned is None:
        res = state.result()
        winner, turns, reason = res.winner, res.turns, res.reason
    else:
        from engine.sim.played import resignation

        winner, turns, reason = sides[1 - sides.index(resigned)], state.turn, resignation(resigned)
    print(f"result: {winner} after {turns} turns ({reason}); "
          f"policies {names['marines']} vs {names['genestealers']}, seed {args.seed}")
    if args.record is not None:
        return _write_record(args, path, doc, overrides, names, state, applied, resigned)
    return 0


def _event_line(ev: Any) -> str:
    dice = " ".join(map(str, ev.dice))
    line = f"T{ev.turn:<3d} {ev.player:12s} {ev.action:28s}"
    if dice:
        line += f" [{dice}]"
    if ev.effects:
        line += f"  {ev.effects}"
    return line


def _write_record(args: argparse.Namespace, path: str, doc: dict[str, Any], options: dict[str, object],
                  names: dict[str, str], state: Any, applied: list[Any], resigned: str | None) -> int:
    """Write the played game as a one-game results file (replay reads it); 2 when it cannot be written."""
    from engine.sim.play import finish_record, marine_ids_of
    from engine.sim.played import resign, write_played_game
    from engine.sim.spec import BatchSpec

    spec = BatchSpec(games=1, seed=args.seed, mission=path, mission_doc=doc, options=options,
                     policies=dict(names), keep_actions=True)
    record = finish_record(state, 0, args.seed, applied, False, spec.max_actions, True,
                           marine_ids_of(state.game))
    if resigned is not None:
        resign(record, resigned)
    try:
        write_played_game(args.record, spec, record)
    except OSError as exc:
        print(f"hulkforge play: --record {args.record}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"game recorded in {args.record} (hulkforge replay {args.record} --game 0)")
    return 0
