"""The conversion check's shortcuts convert exactly the blip the full computation converts.

After every action the first blip on the board (in p's order) that some Marine sees is converted. The check
(Blips.run_conv) takes shortcuts: in the Genestealer turn it works from the Marines' kept sight (made afresh
there when a Marine moved) and the occupied squares in view; in the Marine turn from the Marines whose view holds a
blip's square. Here every check of seeded games is compared with the full computation: every seeing Marine's eye,
every blip on the board.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.ai.base import make_policy
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.blips import Blips
from engine.rules.game import Game
from engine.rules.testing import played_states
from engine.sim.play import play_out


def _first_seen(rules: Blips) -> str | None:
    """The blip the check must convert, worked out in full (None: none is seen)."""
    sight = rules.sight
    eyes = tuple(sight.pose_eye(mid, sq, f) for mid, sq, f, prone in sight.poses_now() if not prone)
    for pc in rules.k.p.values():
        if pc.kind == "blip" and pc.sq >= 0 and sight.seen_now(pc.sq, eyes):
            return str(pc.id)
    return None


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Wrap the check (called directly after most actions, as a frame's handler after the others): each call is
    compared with _first_seen."""
    counts = {"checks": 0, "conversions": 0, "stealers": 0, "moved": 0}
    real = Blips.run_conv

    def check(rules: Blips, frame: tuple[Any, ...]) -> None:
        k = rules.k
        if k.phase == "stealers" and k.sight_rev != k.pose_rev:
            counts["moved"] += 1  # a Marine moved in the Genestealer turn: his sight is made afresh
        want = _first_seen(rules)
        before = {pid for pid, pc in k.p.items() if pc.kind == "blip"}
        real(rules, frame)
        gone = before - {pid for pid, pc in k.p.items() if pc.kind == "blip"}
        assert gone == ({want} if want else set()), (want, gone)
        counts["checks"] += 1
        counts["conversions"] += len(gone)
        counts["stealers"] += k.phase == "stealers"

    monkeypatch.setattr(Blips, "run_conv", check)  # (before the games: their states take it when wired)
    return counts


@pytest.mark.parametrize("sample", ["pitfall", "the_long_drop", "recover_the_relic", "tutorial"])
def test_random_games(sample: str, checked: dict[str, int]) -> None:
    game = Game(load_mission(str(sample_mission(sample))))
    for seed in range(4):
        played_states(game, seed, 400)  # random legal actions; the checks run inside apply
    assert checked["checks"] > 300


@pytest.mark.parametrize("sample", ["pitfall", "the_long_drop"])
def test_heuristic_games(sample: str, checked: dict[str, int]) -> None:
    game = Game(load_mission(str(sample_mission(sample))))
    policies = {"marines": make_policy("heuristic-marines"), "genestealers": make_policy("heuristic-genestealers")}
    for seed in range(4):
        play_out(game, seed, policies)
    assert checked["checks"] > 500 and checked["stealers"] > 200 and checked["moved"] > 10
    assert checked["conversions"] > 0
