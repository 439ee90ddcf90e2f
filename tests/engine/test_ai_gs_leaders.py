"""Playbook Genestealers #3/#8 in an escape mission: strike the Marines about to win it, not the nearest one."""

from __future__ import annotations

import random

from engine.ai.base import make_policy
from engine.rules.testing import scenario


def _first_move(params: dict[str, float], escaped: int = 0) -> str:
    # m2 is two squares from the exit; g1 stands nearer m1 (whose front square is one step away).
    s = scenario(["###############", "#aaaaaaaaaaaaa#", "###############"], phase="stealers",
                 marines=[("m1", 4, 1, "E"), ("m2", 10, 1, "E")], exits=[("X", 13, 1, "E")],
                 stealers=[("g1", 6, 1, "N")],
                 victory=[{"kind": "escape", "via": ["exit"], "win_at": 1 + escaped}, {"kind": "marines_eliminated"}])
    for i in range(escaped):
        s.k.escaped.append(f"gone{i}")  # Marines already out count toward the win
    s.touch()
    player = make_policy("heuristic-genestealers", params)
    return player.choose(s, s.legal_view(), random.Random(1)).text()


def test_genestealers_go_for_the_marine_about_to_escape() -> None:
    assert _first_move({}).startswith("move g1 E")  # after m2, the one about to win it
    assert _first_move({"lead_target": 0.0}).startswith("move g1 W")  # the nearest Marine without the priority
    assert _first_move({}, escaped=1).startswith("move g1 E")  # one more out wins: still m2


def test_novice_genestealers_go_for_the_nearest_marine() -> None:
    s = scenario(["###############", "#aaaaaaaaaaaaa#", "###############"], phase="stealers",
                 marines=[("m1", 4, 1, "E"), ("m2", 10, 1, "E")], exits=[("X", 13, 1, "E")],
                 stealers=[("g1", 6, 1, "N")],
                 victory=[{"kind": "escape", "via": ["exit"], "win_at": 1}, {"kind": "marines_eliminated"}])
    player = make_policy("novice-genestealers")
    assert player.choose(s, s.legal_view(), random.Random(1)).text().startswith("move g1 W")
