"""Perft: the number of legal actions (depth 1 and 2) at fixed positions, pinned in tests/engine/perft/*.json.

A rules change that alters these counts must be deliberate: regenerate with
`python tests/engine/perft/make_perft.py` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.rules.testing import perft

HERE = Path(__file__).resolve().parent / "perft"
FILES = sorted(HERE.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_perft(path: Path) -> None:
    data = json.loads(path.read_text())
    game = Game(load_mission(sample_mission(data["mission"])), data["options"] or None)
    for pos in data["positions"]:
        s = game.new_state(data["seed"])
        for a in pos["actions"]:
            s.apply(a)
        assert s.current_player() == pos["player"]
        assert [str(a) for a in s.legal_actions()] == pos["legal"]
        assert perft(s, 1) == pos["perft1"]
        assert perft(s, 2) == pos["perft2"]
