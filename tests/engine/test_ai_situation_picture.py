"""Situation.enemy_picture, kept across decisions while the kernel's blip_rev has not moved, is the picture of
the enemies' positions read afresh at every decision (whole games between the heuristic players, on the live
state, so the memo is carried from decision to decision as in a batch)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.ai.base import make_policy
from engine.ai.situation import Situation
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.rules.testing import played_states


def _fresh_key(state: Any) -> tuple[int, ...]:
    """The EnemyPicture key by its definition: on-board enemies as 2 * square + (1 for a blip), lurking ones
    as -1 - their entry's square, in state.p order."""
    entries = state.game.board.entries
    out = []
    for pc in state.p.values():
        if pc.kind == "marine":
            continue
        if pc.sq >= 0:
            out.append(2 * pc.sq + (1 if pc.kind == "blip" else 0))
        elif pc.entry:
            out.append(-1 - entries[pc.entry])
    return tuple(out)


@pytest.mark.parametrize(("mission", "seeds"), [("pitfall", (1, 2, 3)), ("the_long_drop", (1,))])
def test_enemy_picture_memo_matches_a_fresh_read(mission: str, seeds: tuple[int, ...]) -> None:
    game = Game(load_mission(str(sample_mission(mission))))
    players = {"marines": make_policy("heuristic-marines"), "genestealers": make_policy("heuristic-genestealers")}
    checked = 0

    def check_then_choose(state: Any, rng: random.Random) -> Any:
        nonlocal checked
        legal = state.legal_view()
        # Asked at every decision of either side (the Genestealer turn moves the enemies between two asks).
        pic = Situation(state.observation("marines"), legal).enemy_picture()
        assert pic.key == _fresh_key(state)
        assert pic.stealer_squares == {pc.sq for pc in state.p.values() if pc.kind == "stealer" and pc.sq >= 0}
        checked += 1
        return players[state.current_player()].choose(state, legal, rng)

    for seed in seeds:
        played_states(game, seed, 3000, check_then_choose)
    assert checked > 200
