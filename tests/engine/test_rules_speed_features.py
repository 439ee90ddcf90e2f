"""Tables the rules derive from a game's features for speed hold what they stand for."""

from __future__ import annotations

import random

import pytest

from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.features import draw_features
from engine.rules.game import Game


@pytest.mark.parametrize("sample", ["pitfall", "the_long_drop", "recover_the_relic"])
def test_on_enter_is_every_chute_pitfall_and_ladder_top(sample: str) -> None:
    game = Game(load_mission(str(sample_mission(sample))))
    for seed in range(5):
        feat = draw_features(game, random.Random(seed))
        assert feat.on_enter == set(feat.chutes) | set(feat.pit_down) | set(feat.ladder_top)


def test_square_keys_are_lxy_with_level_ids_and_their_ranks_sort_them() -> None:
    board = Game(load_mission(str(sample_mission("the_long_drop")))).board
    keys, rank = board.square_keys()
    # Compact: the sort numbers are 4-byte ints; a key is made only when read (a tuple a square on a big map).
    assert rank.itemsize == 4 and len(rank) == board.size and not keys
    for s in range(board.size):
        li, x, y = board.lxy(s)
        assert keys[s] == (board.level_ids[li], x, y)
    assert sorted(range(board.size), key=rank.__getitem__) == sorted(range(board.size), key=keys.__getitem__)
