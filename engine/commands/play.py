"""`hulkforge play MISSION --seed S`: play one game with AI policies and print its log."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play one game between two AI policies and print its log",
        description="Play one game of MISSION (a file or a sample name) and print every action, its dice and "
        "effects, then the result. The game is a pure function of the mission, options, policies and seed.",
    )
    p.add_argument("mission", help="mission file, or the name of a sample mission (e.g. pitfall)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--marines", default=None, help="Marine policy (default: the registry's default)")
    p.add_argument("--genestealers", default=None, help="Genestealer policy (default: the registry's default)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="rule option override (JSON value), repeatable")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    return p


def run(args: argparse.Namespace) -> int:
    import json

    from engine.ai import default_policy, make_policy, policy_rng
    from engine.ai.base import UnknownPolicyError
    from engine.commands.playable import report_invalid
    from engine.mission import MissionFileError
    from engine.mission.playable import InvalidMission, load_playable
    from engine.resources import mission_path
    from engine.rules.game import Game

    try:
        mission = load_playable(mission_path(args.mission))
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
    sides = ("marines", "genestealers")
    names = {side: getattr(args, side) or default_policy(side) for side in sides}
    try:
        policies = {side: make_policy(names[side]) for side in sides}
    except (UnknownPolicyError, ValueError) as exc:
        print(f"hulkforge play: {exc}", file=sys.stderr)
        return 2
    rngs = {side: policy_rng(args.seed, side) for side in sides}
    state = game.new_state(args.seed)
    printed = 0
    while not state.is_terminal():
        side = state.current_player()
        assert side is not None
        actions = state.legal_actions()
        state.apply(policies[side].choose(state, actions, rngs[side]))
        if not args.quiet:
            for ev in state.log[printed:]:
                dice = " ".join(map(str, ev.dice))
                line = f"T{ev.turn:<3d} {ev.player:12s} {ev.action:28s}"
                if dice:
                    line += f" [{dice}]"
                if ev.effects:
                    line += f"  {ev.effects}"
                print(line)
            printed = len(state.log)
    res = state.result()
    print(f"result: {res.winner} after {res.turns} turns ({res.reason}); "
          f"policies {names['marines']} vs {names['genestealers']}, seed {args.seed}")
    return 0
