"""The turbo-lift's rules (docs/RULES.md, 15): a ride costs 2 AP for every piece, keeps the facing, needs the far
entrance free, carries objects, lets sight and shots through but no close assault; the moves API offers it with
its cost."""

from __future__ import annotations

from engine.rules.moves import RIDE_COST, piece_moves
from engine.rules.testing import play, scenario, where

UP = ["#######", "#aaaaa#", "#######"]
DOWN = ["#######", "#bbbbb#", "#######"]
LIFT = [[("upper", 1, 1), ("lower", 5, 1)]]


def test_marine_rides_for_two_ap_keeping_his_facing() -> None:
    s = scenario(UP, lower=DOWN, lifts=LIFT, marines=[("m1", 1, 1, "E")])
    assert "ride m1 lower" in {str(a) for a in s.legal_actions()}
    play(s, "ride m1 lower")
    m1 = s.piece("m1")
    assert where(s, "m1") == ("lower", 5, 1)
    assert m1.ap == 4 - RIDE_COST and m1.facing == 1  # E


def test_stealer_and_blip_pay_the_same() -> None:
    s = scenario(UP, lower=DOWN, lifts=LIFT, marines=[("m1", 5, 1, "W")], stealers=[("g1", 5, 1, "W", "lower")],
                 blips=[("b1", 2, 1, 1)], phase="stealers")
    moves = {m.action.text(): m for m in piece_moves(s, "g1")}
    assert moves["ride g1 upper"].cost == RIDE_COST == 2
    play(s, "ride g1 upper")
    assert where(s, "g1") == ("upper", 1, 1) and s.piece("g1").ap == 6 - RIDE_COST


def test_no_ride_onto_an_occupied_entrance() -> None:
    s = scenario(UP, lower=DOWN, lifts=LIFT, marines=[("m1", 1, 1, "E")], stealers=[("g1", 5, 1, "W", "lower")])
    assert not [a for a in s.legal_actions() if a.verb == "ride"]


def test_no_ride_without_the_ap() -> None:
    s = scenario(UP, lower=DOWN, lifts=LIFT, marines=[("m1", 1, 1, "E")])
    s.k.p["m1"].ap = 1
    s.touch()
    assert not [a for a in s.legal_actions() if a.verb == "ride"]


def test_a_carried_object_rides_along() -> None:
    s = scenario(UP, lower=DOWN, lifts=[[("upper", 2, 1), ("lower", 5, 1)]], objectives=[("O1", 2, 1)],
                 marines=[("m1", 1, 1, "E")])
    play(s, "move m1 E", "ride m1 lower")
    assert where(s, "m1") == ("lower", 5, 1)
    assert s.marines()[0].carrying == "O1"


def test_a_marine_on_an_entrance_sees_and_shoots_the_far_entrance() -> None:
    s = scenario(UP, lower=DOWN, lifts=LIFT, marines=[("m1", 1, 1, "N")], stealers=[("g1", 5, 1, "W", "lower")])
    far = s.game.board.sq_of("lower", 5, 1)
    assert s.observation("marines").sees(s.piece("m1"), far)
    assert "shoot m1 g1" in {str(a) for a in s.legal_actions()}


def test_no_close_assault_through_a_lift() -> None:
    s = scenario(UP, lower=DOWN, lifts=LIFT, marines=[("m1", 1, 1, "E")], stealers=[("g1", 5, 1, "W", "lower")],
                 phase="stealers")
    assert not [a for a in s.legal_actions() if a.verb == "assault"]
