"""Record golden games: per sample mission, seeds played by fixed policies, with a hash of the full event log.

    PYTHONPATH=. python tests/golden/games/make_goldens.py            # rewrite the goldens (only when a rule change is intended)
    PYTHONPATH=. python tests/golden/games/make_goldens.py --check    # compare without writing (also shows heuristic games)

The random policy is stable, so the test (tests/engine/test_rules_golden_games.py) replays those games; the
heuristic games are recorded as a manual check while the AI is tuned (they may change for reasons of their own).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from engine.ai.base import make_policy, policy_names
from engine.mission import load_mission
from engine.resources import sample_missions
from engine.rules.game import Game
from engine.sim.play import play_out

HERE = Path(__file__).resolve().parent
RANDOM_SEEDS = range(20)
HEURISTIC_SEEDS = range(5)
VARIANT_SEEDS = range(6)
# Rule variants the samples do not use (all are 4e): random games under each, so every rules path is covered.
VARIANTS: dict[str, dict[str, Any]] = {
    "classic": {"ruleset": "classic"},
    "fire_module": {"options": {"fire_module": True}},
    "4e_ladders": {"options": {"ladder_rule": "4e", "falling_table": "advanced", "hole_los": "advanced"}},
    "players_setup": {"options": {"random_setup": "players", "marine_activation_cap": 2}},
}


def variant_game(path: Path, variant: str) -> Game:
    """The mission's Game under one of VARIANTS."""
    mission = load_mission(path)
    spec = VARIANTS[variant]
    if "ruleset" in spec:
        mission = dataclasses.replace(mission, ruleset=spec["ruleset"])
    return Game(mission, spec.get("options"))


def log_text(state: Any) -> str:
    """The full event log: one line per action with its dice and effects."""
    return "\n".join(f"{e.turn}|{e.player}|{e.action}|{','.join(map(str, e.dice))}|{e.effects}" for e in state.log)


def play(game: Game, seed: int, policies: dict[str, str]) -> dict[str, Any]:
    """One game's record: seed, policies, number of actions, result and the log's SHA-256."""
    pols = {side: make_policy(name) for side, name in policies.items()}
    state, applied, capped = play_out(game, seed, pols)
    res = state.result() if state.is_terminal() else None
    return {
        "seed": seed,
        "policies": policies,
        "actions": len(applied),
        "capped": capped,
        "result": [res.winner, res.turns, res.reason] if res else None,
        "log_sha256": hashlib.sha256(log_text(state).encode()).hexdigest(),
    }


def record(path: Path, heuristic: bool = True) -> dict[str, Any]:
    """All recorded games of one mission."""
    game = Game(load_mission(path))
    rand = {"marines": "random", "genestealers": "random"}
    out: dict[str, Any] = {"mission": path.stem, "random": [play(game, s, rand) for s in RANDOM_SEEDS]}
    names = policy_names()
    if heuristic and "heuristic-marines" in names and "heuristic-genestealers" in names:
        heur = {"marines": "heuristic-marines", "genestealers": "heuristic-genestealers"}
        out["heuristic"] = [play(game, s, heur) for s in HEURISTIC_SEEDS]
    out["variants"] = {v: [play(variant_game(path, v), s, rand) for s in VARIANT_SEEDS] for v in VARIANTS}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the stored goldens, write nothing")
    args = ap.parse_args(argv)
    bad = 0
    for path in sample_missions():
        rec = record(path)
        gold = HERE / f"{path.stem}.json"
        if args.check:
            old = json.loads(gold.read_text())
            pairs = [(k, old.get(k, []), rec.get(k, [])) for k in ("random", "heuristic")]
            pairs += [(v, old["variants"][v], rec["variants"][v]) for v in VARIANTS]
            for kind, olds, news in pairs:
                for a, b in zip(olds, news, strict=False):
                    if a != b:
                        bad += 1
                        print(f"{path.stem} {kind} seed {a['seed']}: differs", file=sys.stderr)
            print(f"{path.stem}: checked")
        else:
            gold.write_text(json.dumps(rec, indent=1) + "\n")
            print(f"{path.stem}: {len(rec['random'])} random, {len(rec.get('heuristic', []))} heuristic games")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
