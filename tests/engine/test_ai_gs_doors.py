"""Playbook Genestealers #5: a Genestealer out of sight shuts an open door that a Marine on overwatch sees."""

from __future__ import annotations

import random

import pytest

from engine.ai.base import make_policy
from engine.rules.testing import scenario

# A corridor watched from its west end; the door at its east end opens onto a room; the Genestealer stands
# in the room beside the doorway, out of the Marine's sight.
ROWS = ["#############",
        "#########bbb#",
        "#aaaaaaaabbb#",
        "#########bbb#",
        "#############"]


def _choice(g: tuple[str, int, int, str], *, overwatch: bool, params: dict[str, float] | None = None) -> str:
    s = scenario(ROWS, phase="stealers", marines=[("m1", 1, 2, "E")], doors=[("D", 8, 2)], stealers=[g])
    s.k.set_door("D", "open")
    s.p["m1"].ow = overwatch
    s.touch()
    assert not s.sees(s.p["m1"], s.p["g1"].sq)
    player = make_policy("heuristic-genestealers", params or {})
    return player.choose(s, s.legal_view(), random.Random(1)).text()


@pytest.mark.parametrize("g", [("g1", 9, 1, "S"), ("g1", 9, 3, "N")])
def test_genestealer_closes_the_door_in_front_of_overwatch(g: tuple[str, int, int, str]) -> None:
    assert _choice(g, overwatch=True) == "close g1 D"


def test_the_door_stays_open_when_nobody_watches_it_or_the_switch_is_off() -> None:
    assert _choice(("g1", 9, 1, "S"), overwatch=False) != "close g1 D"
    assert _choice(("g1", 9, 1, "S"), overwatch=True, params={"close_doors": 0.0}) != "close g1 D"


def test_novice_genestealers_never_close_doors() -> None:
    s = scenario(ROWS, phase="stealers", marines=[("m1", 1, 2, "E")], doors=[("D", 8, 2)],
                 stealers=[("g1", 9, 1, "S")])
    s.k.set_door("D", "open")
    s.p["m1"].ow = True
    s.touch()
    player = make_policy("novice-genestealers")
    assert player.choose(s, s.legal_view(), random.Random(1)).verb != "close"
