"""The rules' kept answers that only change counters invalidate match a fresh look at the state.

apply and the conversion check keep a few answers while a counter has not moved (engine/rules/README.md,
"Speed"); a rule that moved a piece without moving its counter would leave a stale answer that the replays of
whole games might not notice for a long time.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.ai.base import make_policy
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.sim.play import play_out


@pytest.mark.parametrize("sample", ["pitfall", "the_long_drop"])
def test_kept_blip_squares_match_the_blips_on_the_board(sample: str) -> None:
    game = Game(load_mission(str(sample_mission(sample))))
    policies = {"marines": make_policy("heuristic-marines"), "genestealers": make_policy("heuristic-genestealers")}
    checked = 0

    def check(_player: str, _action: Any, state: Any) -> None:
        nonlocal checked
        known = state.k.blip_squares
        if known is not None and known[0] == state.k.blip_rev:
            fresh = {pc.sq for pc in state.p.values() if pc.kind == "blip" and pc.sq >= 0}
            assert known[1] == fresh
            for key, hit in known[2].items():  # by Marine pose: whether his view or hole targets hold a blip
                _mid, _lvl, view, through = state.sight.pose_eye("m", key // 4, key % 4)
                assert hit == bool(fresh & (view.keys() | through))
            checked += 1

    for seed in range(3):
        play_out(game, seed, policies, on_step=check)
    assert checked > 100
