"""Regenerate the perft fixtures: python tests/engine/perft/make_perft.py (review the diff before committing)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engine.mission import load_mission
from engine.resources import sample_missions
from engine.rules.game import Game
from engine.rules.testing import perft

HERE = Path(__file__).resolve().parent
POINTS = (0, 15, 60, 150)


def positions_along(game: Game, seed: int) -> list[dict[str, object]]:
    """Follow one seeded random game and record the position at each of POINTS it reaches."""
    s = game.new_state(seed)
    rng = random.Random(seed)
    played: list[str] = []
    positions: list[dict[str, object]] = []
    for i in range(max(POINTS) + 1):
        if s.is_terminal():
            break
        if i in POINTS:
            positions.append({
                "actions": list(played),
                "player": s.current_player(),
                "legal": [str(a) for a in s.legal_actions()],
                "perft1": perft(s, 1),
                "perft2": perft(s, 2),
            })
        a = rng.choice(s.legal_actions())
        s.apply(a)
        played.append(str(a))
    return positions


def main() -> None:
    for path in sample_missions():
        game = Game(load_mission(path))
        # The first seed whose game lasts long enough to reach every point, so each mission keeps the same depth
        # of coverage whatever its balance.
        seed, positions = 1, positions_along(game, 1)
        while len(positions) < len(POINTS) and seed < 50:
            seed += 1
            positions = positions_along(game, seed)
        out = {"mission": path.stem, "seed": seed, "options": {}, "positions": positions}
        (HERE / f"{path.stem}.json").write_text(json.dumps(out, indent=1) + "\n")
        print(path.stem, seed, [(len(p["actions"]), p["perft1"], p["perft2"]) for p in positions])

if __name__ == "__main__":
    main()
