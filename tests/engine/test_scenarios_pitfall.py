"""The Pitfall mission's worked examples (seed 002) and its special features, with scripted dice."""

from __future__ import annotations

from engine.rules.testing import play, scenario, where

UP = ["#######", "#aaaaa#", "#aaaaa#", "#######"]
DOWN = ["#######", "#bbbbb#", "#bbbbb#", "#######"]


def test_falling_example() -> None:
    # "Example of Falling Through a Pitfall": the Marine enters the pitfall, rolls 1 and falls; lands on a 3:
    # prone; spends 2 AP to stand, facing the nearby Stealer.
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)], marines=[("m1", 2, 1, "E")],
                 stealers=[("g1", 3, 2, "N", "lower")], dice=[1, 3])
    play(s, "move m1 E")
    assert where(s, "m1") == ("lower", 3, 1) and s.p["m1"].prone
    acts = [str(a) for a in s.legal_actions() if a.actor == "m1"]
    assert acts == ["stand m1 N", "stand m1 E", "stand m1 S", "stand m1 W"]
    play(s, "stand m1 S")
    assert not s.p["m1"].prone and s.p["m1"].ap == 1


def test_no_fall_on_2_to_6_and_declared_jump() -> None:
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)], marines=[("m1", 2, 1, "E")], dice=[2, 6])
    play(s, "move m1 E")
    assert where(s, "m1") == ("upper", 3, 1)
    play(s, "jump m1")  # 1 AP once already in the square; the landing roll 6: upright, any facing
    assert s.current_player() == "marines" and next(str(a) for a in s.legal_actions()) == "face m1 N"
    play(s, "face m1 W")
    assert where(s, "m1") == ("lower", 3, 1) and not s.p["m1"].prone and s.p["m1"].ap == 2


def test_landing_on_stealer_and_on_marine() -> None:
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)], marines=[("m1", 2, 1, "E"), ("m2", 3, 1, "N", "marine",
                 "storm_bolter", "power_glove", False, "lower")], dice=[2])
    play(s, "move m1 E jump")  # declared on entering: 0 AP; lands on a Marine, roll 2: the one below dies
    assert "m2" not in s.p and where(s, "m1") == ("lower", 3, 1) and s.p["m1"].prone and s.p["m1"].ap == 3
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)], marines=[("m1", 2, 1, "E")],
                 stealers=[("g1", 3, 1, "N", "lower")], dice=[4, 6])
    play(s, "move m1 E jump")  # the Stealer rolls 4: scuttles (its player picks the square)
    assert s.current_player() == "genestealers"
    play(s, "scuttle g1 lower:4,1")
    assert s.current_player() == "marines"  # landing on the now empty square: 6, upright, any facing
    play(s, "face m1 E")
    assert where(s, "g1") == ("lower", 4, 1) and where(s, "m1") == ("lower", 3, 1)


def test_overwatch_and_close_assault_through_pitfall_sequence() -> None:
    # "Examples of LOS and Fire Arcs Through Pitfalls": two Marines on overwatch guard the pitfall; the
    # Stealer beneath attacks the Marine above (1 AP), loses but cannot be harmed; the Marine steps out of the
    # pitfall square, which gives the Marine behind LOS: overwatch, miss. The Stealer climbs up (3 AP here,
    # RULES.md), facing the firing Marine: overwatch again, miss. It attacks and wins (1 AP), then drops down
    # the hole with its last AP.
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)],
                 marines=[("m1", 3, 1, "E"), ("m2", 2, 1, "E")], stealers=[("g1", 3, 1, "N", "lower")],
                 phase="stealers", dice=[5, 1, 2, 3, 1, 2, 3, 4, 2, 5, 1, 1])
    s.p["m1"].ow = s.p["m2"].ow = True
    assert "assault g1 m1" in [str(a) for a in s.legal_actions()]
    play(s, "assault g1 m1")
    assert "g1" in s.p and "m1" in s.p and not s.p["m1"].ow
    assert [str(a) for a in s.legal_actions()] == ["retreat m1 upper:4,1", "pass"]
    play(s, "retreat m1 upper:4,1")
    assert [str(a) for a in s.legal_actions()] == ["fire m2", "hold m2"]
    play(s, "fire m2")
    assert "g1" in s.p
    play(s, "climb g1", "face g1 W")
    assert where(s, "g1") == ("upper", 3, 1)
    assert [str(a) for a in s.legal_actions()] == ["fire m2", "hold m2"]
    play(s, "fire m2")  # sustained (5+), but 3 and 4 miss
    assert "sustained" in s.log[-1].effects
    play(s, "assault g1 m2")
    assert "m2" not in s.p
    play(s, "jump g1", "face g1 E")
    assert where(s, "g1") == ("lower", 3, 1) and s.p["g1"].ap == 0


def test_marine_cannot_climb_up_a_pitfall_but_stealer_can() -> None:
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)], marines=[("m1", 3, 1, "N", "marine", "storm_bolter",
                 "power_glove", False, "lower")])
    assert "climb m1" not in [str(a) for a in s.legal_actions()]
    assert "assault m1 g1" not in [str(a) for a in s.legal_actions()]


def test_ladder_pitfall_rule_two_ap_and_facing() -> None:
    s = scenario(UP, lower=DOWN, ladders=[(1, 1)], marines=[("m1", 1, 1, "E")],
                 game_options={"ladder_rule": "pitfall"})
    play(s, "climb m1", "face m1 S")
    assert where(s, "m1") == ("lower", 1, 1) and s.p["m1"].ap == 2 and s.p["m1"].facing == 2


def test_ladder_4e_rule_fall_on_one_kills_model_below() -> None:
    s = scenario(UP, lower=DOWN, ladders=[(2, 1)], marines=[("m1", 1, 1, "E")],
                 stealers=[("g1", 2, 1, "N", "lower")], dice=[1], game_options={"ladder_rule": "4e"})
    play(s, "move m1 E")
    assert "g1" not in s.p and where(s, "m1") == ("lower", 2, 1) and s.p["m1"].ap == 0


def test_chute_escape_and_rubble_cost() -> None:
    s = scenario(UP, chutes=[(4, 1)], rubble=[(3, 1)], marines=[("m1", 2, 1, "E")],
                 victory=[{"kind": "escape", "via": ["chute"], "win_at": 1}])
    play(s, "move m1 E")
    assert s.p["m1"].ap == 2  # rubble: +1
    play(s, "move m1 E")
    assert s.is_terminal() and s.result().winner == "marines" and s.escaped == ["m1"]


def test_rubble_deflects_bolter_kill() -> None:
    s = scenario(UP, rubble=[(3, 1)], marines=[("m1", 1, 1, "E")], stealers=[("g1", 5, 1, "W")], dice=[6, 1, 5])
    play(s, "shoot m1 g1")
    assert "g1" in s.p  # a kill, deflected by the rubble pile on the line (5)


def test_blip_conversion_across_a_hole() -> None:
    # The square above/below a hole counts as adjacent when placing converted Genestealers.
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)], marines=[("m1", 1, 2, "E", "marine", "storm_bolter",
                 "power_glove", False, "lower")], blips=[("b1", 3, 1, 2, "lower")])
    s.p["m1"].facing = 1
    play(s, "turn m1 N", "turn m1 E")
    puts = [str(a) for a in s.legal_actions()]
    if s.current_player() == "genestealers":
        gid = next(pid for pid, pc in s.p.items() if pc.kind == "stealer")
        play(s, f"face {gid} W")
        puts = [str(a) for a in s.legal_actions()]
    assert "put upper:3,1" in puts


def test_los_through_hole_rules() -> None:
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)],
                 marines=[("m1", 3, 1, "N", "marine", "storm_bolter", "power_glove", False, "lower"),
                          ("m2", 2, 1, "E")],
                 stealers=[("g1", 3, 1, "S"), ("g2", 4, 2, "N", "lower")])
    b = s.game.board
    # m1 at the bottom of the hole sees the Genestealer standing on the pitfall square above (its own square
    # does not block), whatever his facing.
    assert s.sees(s.p["m1"], b.sq_of("upper", 3, 1))
    # m2 next to the pitfall, facing it: g1 on the upper square blocks the view down the hole.
    assert not s.sees(s.p["m2"], b.sq_of("lower", 3, 1))
    del s.occ[s.p["g1"].sq]
    del s.p["g1"]
    # with the hole clear: the bottom square and the square opposite him beyond it, (4, 1) below (a model at
    # the bottom, m1, does not block)
    assert s.sees(s.p["m2"], b.sq_of("lower", 3, 1)) and s.sees(s.p["m2"], b.sq_of("lower", 4, 1))
    assert not s.sees(s.p["m2"], b.sq_of("lower", 4, 2))
    # a Marine diagonally next to the hole sees the square diagonally opposite
    s.p["m2"].facing = 1
    s.occ.pop(s.p["m2"].sq)
    s.p["m2"].sq = b.sq_of("upper", 2, 2)
    s.occ[s.p["m2"].sq] = "m2"
    assert s.sees(s.p["m2"], b.sq_of("lower", 3, 1))


def test_4e_ladder_ends_are_adjacent_for_shooting_and_assault() -> None:
    s = scenario(UP, lower=DOWN, ladders=[(2, 1)], game_options={"ladder_rule": "4e"},
                 marines=[("m1", 2, 1, "N")], stealers=[("g1", 2, 1, "E", "lower")])
    acts = [str(a) for a in s.legal_actions()]
    assert "shoot m1 g1" in acts and "assault m1 g1" in acts  # whatever his facing
    s = scenario(UP, lower=DOWN, ladders=[(2, 1)], game_options={"ladder_rule": "4e"},
                 marines=[("m1", 2, 1, "N")], stealers=[("g1", 2, 1, "E", "lower")], phase="stealers",
                 dice=[5, 1, 2, 3])
    play(s, "assault g1 m1")  # face to face: the Marine wins (5 against 3) and kills it
    assert "g1" not in s.p


def test_flamer_fires_down_a_pitfall_and_blips_jump_through() -> None:
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 1)], marines=[("m1", 2, 1, "E", "marine", "heavy_flamer")],
                 stealers=[("g1", 3, 1, "N", "lower")], dice=[5])
    assert "flame m1 lower:3,1" in [str(a) for a in s.legal_actions()]
    play(s, "flame m1 lower:3,1")
    assert "g1" not in s.p
    assert all(sq // s.game.board.plane == 1 for sq in s.flames)  # only the section targeted, below
    s = scenario(UP, lower=DOWN, pitfalls=[("A", 3, 2)], marines=[("m1", 5, 1, "N", "marine", "storm_bolter",
                 "power_glove", False, "lower")], blips=[("b1", 2, 2, 1)], phase="stealers")
    play(s, "move b1 E jump")
    assert where(s, "b1") == ("lower", 3, 2) and s.p["b1"].ap == 5
