"""Set-up in a deployment area and the boarding torpedo (docs/RULES.md, 15): the Marine player (or the AI) sets up
each Marine listed in an area on a free square of it; Marines listed on a torpedo's ramp start aboard and come out
one at a time over the ramp."""

from __future__ import annotations

import random
from typing import Any

from engine.ai.base import make_policy
from engine.mission.model import DeploymentArea, Torpedo
from engine.rules.game import Game
from engine.rules.pieces import Piece
from engine.rules.testing import build_mission, play, where


def _area_game(marine_at: tuple[int, int] = (1, 1)) -> Any:
    m = build_mission(["#######", "#aaaaa#", "#aaaaa#", "#######"],
                      marines=[("m1", *marine_at, "E"), ("m2", 5, 2, "W")])
    m.deployment_areas = [DeploymentArea("A1", "upper", [(1, 1), (2, 1), (1, 2), (2, 2)])]
    return Game(m)


def test_a_marine_in_a_deployment_area_is_set_up_by_the_player() -> None:
    """The Marine listed in an area chooses any free square of it, then his facing; one outside it does not."""
    game = _area_game()
    s = game.new_state(1)
    assert [str(a) for a in s.legal_actions()] == ["deploy m1 upper:1,1", "deploy m1 upper:2,1",
                                                   "deploy m1 upper:1,2", "deploy m1 upper:2,2"]
    play(s, "deploy m1 upper:2,2", "face m1 S")
    assert where(s, "m1") == ("upper", 2, 2) and s.piece("m1").facing == 2
    assert where(s, "m2") == ("upper", 5, 2)
    assert s.decision() is None or "deploy" not in {a.verb for a in s.legal_actions()}


def test_the_marines_ai_sets_up_in_its_area() -> None:
    game = _area_game()
    s = game.new_state(1)
    policy = make_policy("heuristic-marines")
    a = policy.choose(s, s.legal_actions(), random.Random(1))
    assert a.verb == "deploy"


def _torpedo_state() -> Any:
    m = build_mission(["#######", "#aaaaa#", "#######"], marines=[("m1", 1, 1, "E"), ("m2", 1, 1, "E"),
                                                                  ("m3", 4, 1, "W")])
    m.torpedoes = [Torpedo("T1", "upper", 1, 1, "W")]
    s = Game(m).new_state(1)
    while s.k.phase != "marines" or (s.decision() is not None and s.current_player() != "marines"):
        s.apply(s.legal_actions()[0])
    return s


def test_marines_on_a_ramp_start_aboard_and_come_out_one_at_a_time() -> None:
    s = _torpedo_state()
    assert where(s, "m1") is None and where(s, "m2") is None and where(s, "m3") == ("upper", 4, 1)
    assert {str(a) for a in s.legal_actions() if a.verb == "enter"} == {"enter m1", "enter m2"}
    play(s, "enter m1")
    assert where(s, "m1") == ("upper", 1, 1) and s.piece("m1").facing == 1  # away from the torpedo (W): E
    assert not [a for a in s.legal_actions() if a.verb == "enter"]  # the ramp is taken
    play(s, "move m1 E")
    assert "enter m2" in {str(a) for a in s.legal_actions()}


def test_the_marines_ai_comes_out_of_the_torpedo() -> None:
    s = _torpedo_state()
    a = make_policy("heuristic-marines").choose(s, s.legal_actions(), random.Random(1))
    assert a.verb == "enter"


def test_no_genestealer_onto_the_ramp_while_a_marine_is_aboard() -> None:
    s = _torpedo_state()
    play(s, "enter m1", "move m1 E", "move m1 E")  # m2 still aboard, the ramp free
    g = Piece("g1", "stealer")
    g.facing, g.ap, g.st = 3, 6, 0  # facing W, toward the ramp
    s.k.add(g)
    s.k.place(g, s.game.board.sq_of("upper", 2, 1))
    s.k.phase = "stealers"
    s.touch()
    assert "move g1 W" not in {str(a) for a in s.legal_actions()}
