"""The Alpha played by its strength: an overwatch shot kills it only with two killing dice, so it charges down a
watched corridor where a Genestealer waits on the stand-off line."""

from __future__ import annotations

import random

from engine.ai.base import make_policy
from engine.rules.testing import scenario


def _choice(alpha: bool) -> str:
    s = scenario(["################", "#..............#", "################"], phase="stealers",
                 marines=[("m1", 1, 1, "E")], stealers=[("g1", 5, 1, "W", "upper", alpha)])
    s.p["m1"].ow = True
    s.touch()
    assert s.sees(s.p["m1"], s.p["g1"].sq)
    return make_policy("heuristic-genestealers").choose(s, s.legal_view(), random.Random(1)).text()


def test_a_genestealer_waits_where_the_alpha_charges() -> None:
    assert _choice(False) == "pass"
    assert _choice(True).startswith("move g1 W")
