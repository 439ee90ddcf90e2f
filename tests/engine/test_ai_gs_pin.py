"""Playbook Genestealers #2: go round a Marine who wins fights (hammer or claws) to strike a weaker one."""

from __future__ import annotations

import random

from engine.ai.base import make_policy
from engine.rules.testing import scenario


def _first_move(policy: str, params: dict[str, float] | None = None) -> str:
    # g1 stands one square nearer the sergeant's side square (west) than the bolter Marine's (east).
    s = scenario(["##############", "#............#", "##############"], phase="stealers",
                 marines=[("m1", 3, 1, "N", "sergeant", "storm_bolter", "thunder_hammer"), ("m2", 10, 1, "N")],
                 stealers=[("g1", 6, 1, "N")])
    player = make_policy(policy, params or {})
    return player.choose(s, s.legal_view(), random.Random(1)).text()


def test_genestealers_go_round_the_hammer_to_the_weaker_marine() -> None:
    assert _first_move("heuristic-genestealers").startswith("move g1 E")
    assert _first_move("heuristic-genestealers", {"melee_target": 0.0}).startswith("move g1 W")


def test_novice_genestealers_go_for_the_nearest_marine() -> None:
    assert _first_move("novice-genestealers").startswith("move g1 W")
