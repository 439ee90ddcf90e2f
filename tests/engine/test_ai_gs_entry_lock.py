"""Playbook Genestealers #3 and #6: a new blip goes to an entry held shut by a Marine when the wait costs it no walk.

A held entry keeps its blip off the board for one turn. When that entry already lies at the stand-off line
(the Marines' target room, the passage they must take), the blip would have stood there anyway: the wait
loses nothing, while a free entry farther off (another deck, behind a lift the Marines hold) brings it in late.
"""

from __future__ import annotations

import random

from engine.ai.base import make_policy
from engine.rules.decisions import LurkDecision
from engine.rules.game import GameState
from engine.rules.testing import scenario

# One corridor: the Marine at its west end facing east; entry N five squares from him (held shut: within 6),
# entry E nine squares away (free). To an attack square (his front square costs `flank`, 1) N costs 5, E 9.
ONE_DECK = ["############",
            "#aaaaaaaaaa#",
            "############"]

def _one_deck(north_x: int, lurk_radius: int = 6) -> GameState:
    return scenario(ONE_DECK, phase="stealers", marines=[("m1", 1, 1, "E")],
                    entry_areas=[("N", north_x, 1, "N"), ("E", 10, 1, "E")],
                    game_options={"lurk_radius": lurk_radius})


def _entry(s: GameState, policy: str = "heuristic-genestealers") -> str:
    """The entry a new blip lurks at; N is held shut (a Marine within the lurk radius), E is free."""
    s.k.stack.append(LurkDecision(1, ("N", "E"), "main", ("N",)))
    s.touch()
    player = make_policy(policy)
    return player.choose(s, s.legal_view(), random.Random(1)).text()


def test_a_held_entry_at_the_stand_off_line_beats_a_free_one_farther_off() -> None:
    assert _entry(_one_deck(6)) == "lurk N"


def test_a_held_entry_still_loses_to_a_free_one_when_the_wait_costs_a_walk() -> None:
    # N eight squares from an attack square, held by a Marine within 8 (E, one square farther, is not): waiting
    # there loses the four squares the blip would have walked toward the stand-off line.
    assert _entry(_one_deck(9, lurk_radius=8)) == "lurk E"


def test_novices_take_the_nearest_entry_held_or_not() -> None:
    assert _entry(_one_deck(6), "novice-genestealers") == "lurk N"
    assert _entry(_one_deck(9, lurk_radius=8), "novice-genestealers") == "lurk N"
