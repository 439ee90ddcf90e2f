"""The conversion check's shortcuts convert exactly the blip the full computation converts.

After every action the first blip on the board (in p's order) that some Marine sees is converted. The check
(BlipRules._run_conv) takes shortcuts: in the Genestealer turn it works from the Marines' kept sight (made afresh
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
from engine.rules.blips import BlipRules
from engine.rules.game import Game, GameState
from engine.rules.testing import played_states
from engine.sim.play import play_out


def _first_seen(state: Any) -> str | None:
    """The blip the check must convert, worked out in full (None: none is seen)."""
    eyes = tuple(state._pose_eye(mid, sq, f) for mid, sq, f, prone in state._poses_now() if not prone)
    for pc in state.p.values():
        if pc.kind == "blip" and pc.sq >= 0 and state._seen_by_marine_now(pc.sq, eyes):
            return str(pc.id)
    return None


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Wrap the check (called directly after most actions, as a frame's handler after the others): each call is
    compared with _first_seen."""
    counts = {"checks": 0, "conversions": 0, "stealers": 0, "moved": 0}
    real = BlipRules._run_conv

    def check(state: Any, frame: tuple[Any, ...]) -> None:
        if state.phase == "stealers" and state.k.sight_rev != state.k.pose_rev:
            counts["moved"] += 1  # a Marine moved in the Genestealer turn: his sight is made afresh
        want = _first_seen(state)
        before = {pid for pid, pc in state.p.items() if pc.kind == "blip"}
        real(state, frame)
        gone = before - {pid for pid, pc in state.p.items() if pc.kind == "blip"}
        assert gone == ({want} if want else set()), (want, gone)
        counts["checks"] += 1
        counts["conversions"] += len(gone)
        counts["stealers"] += state.phase == "stealers"

    monkeypatch.setattr(BlipRules, "_run_conv", check)
    monkeypatch.setitem(GameState._run_fns, "conv", check)
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
