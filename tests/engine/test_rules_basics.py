"""Options, action text, LOS geometry, movement, doors, CP, reinforcements and victory."""

from __future__ import annotations

import pytest

from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.actions import PASS, Action, PassAction, parse_action
from engine.rules.decisions import LurkDecision, SetupDecision
from engine.rules.game import Game, IllegalActionError
from engine.rules.options import DEFAULTS, resolve_options
from engine.rules.testing import build_mission, play, scenario, where

ROOM = ["#######", "#aaaaa#", "#aaaaa#", "#aaaaa#", "#######"]


# -- options -------------------------------------------------------------------------------------------
def test_options_defaults_ruleset_mission_overrides() -> None:
    m = build_mission(ROOM)
    o = resolve_options(m)
    assert o["command_points"] == "chits" and o["overkill"] is False and o["ladder_rule"] == "4e"
    m.ruleset = "classic"
    o = resolve_options(m, {"overwatch_range": 8})
    assert o["command_points"] == "d6" and o["overkill"] is True and o["overwatch_compulsory"] is True
    assert o["overwatch_range"] == 8
    m.options = {"overkill": False}
    assert resolve_options(m)["overkill"] is False
    assert resolve_options(load_mission(sample_mission("pitfall")))["ladder_rule"] == "pitfall"
    assert set(DEFAULTS) >= {"ladder_rule", "falling_table", "hole_los", "fire_module", "command_points",
                             "marine_activation_cap", "overwatch_range", "flamer_range", "flamer_shots",
                             "assault_cannon_shots", "lurk_radius", "max_lurking", "overkill",
                             "overwatch_compulsory", "sustained_fire"}


@pytest.mark.parametrize("bad", [{"nope": 1}, {"overwatch_range": 0}, {"overkill": "yes"},
                                 {"command_points": "d8"}, {"marine_activation_cap": True}])
def test_bad_options_name_the_option(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(bad))):
        resolve_options(build_mission(ROOM), bad)


def test_option_values_are_the_mission_schemas() -> None:
    """A batch override and a mission's options block are held to the same description: the schema's."""
    from engine.resources import load_schema

    spec = load_schema("mission.schema.json")["properties"]["options"]["properties"]
    assert set(spec) == set(DEFAULTS)
    m = build_mission(ROOM)
    for name, desc in spec.items():
        if "minimum" in desc:
            lo, hi = desc["minimum"], desc["maximum"]
            assert resolve_options(m, {name: lo})[name] == lo and resolve_options(m, {name: hi})[name] == hi
            for bad in (lo - 1, hi + 1):
                with pytest.raises(ValueError, match=f"{name!r}: {bad} is not"):
                    resolve_options(m, {name: bad})
        for value in desc.get("enum", ()):
            assert resolve_options(m, {name: value})[name] == value


def test_rule_options_type_every_option() -> None:
    game = Game(build_mission(ROOM), {"marine_activation_cap": 2, "flamer_range": 7})
    assert game.opts.marine_activation_cap == 2 and game.opts.flamer_range == 7
    assert {name: getattr(game.opts, name) for name in DEFAULTS} == game.options


# -- actions -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["pass", "end", "move m1 E", "move g2 NW S", "move m1 E jump", "shoot sgt g3",
                                  "flame m2 upper:3,4", "psi storm upper:2,2", "cp redraw", "lurk L-W",
                                  "put lower:1,2", "face g1 N", "parry 2", "retreat m1 upper:4,1"])
def test_action_text_round_trip(text: str) -> None:
    a = parse_action(text)
    assert str(a) == text and parse_action(a.text()) == a and hash(a) == hash(parse_action(text))


@pytest.mark.parametrize("text", ["", "fly m1", "move m1", "move m1 Q", "turn m1 NE", "pass now"])
def test_bad_action_text(text: str) -> None:
    with pytest.raises(ValueError):
        parse_action(text)


def test_pass_action_and_equality() -> None:
    assert PassAction() == PASS and Action("move", ("m1", "E")) == parse_action("move m1 E")
    assert parse_action("move m1 E").actor == "m1" and PASS.actor is None


# -- LOS ----------------------------------------------------------------------------------------------
def _sees(rows: list[str], m: tuple[int, int, str], t: tuple[int, int], stealers=()) -> bool:  # type: ignore[no-untyped-def]
    s = scenario(rows, marines=[("m1", *m)], stealers=list(stealers))
    b = s.game.board
    return s.sees(s.p["m1"], b.sq_of("upper", *t))


def test_front_arc_widens_3_5_7() -> None:
    rows = ["#########", "#aaaaaaa#", "#aaaaaaa#", "#aaaaaaa#", "#aaaaaaa#", "#########"]
    m = (4, 4, "N")
    assert _sees(rows, m, (3, 3)) and _sees(rows, m, (5, 3)) and _sees(rows, m, (2, 2)) and _sees(rows, m, (1, 1))
    assert not _sees(rows, m, (2, 3)) and not _sees(rows, m, (5, 4)) and not _sees(rows, m, (1, 2))


def test_models_block_los_but_not_in_own_squares() -> None:
    rows = ["########", "#aaaaaa#", "########"]
    assert _sees(rows, (1, 1, "E"), (6, 1), stealers=[("g1", 6, 1, "W")])
    assert not _sees(rows, (1, 1, "E"), (6, 1), stealers=[("g1", 6, 1, "W"), ("g2", 4, 1, "W")])


def test_corner_rule_blocked_only_if_both_squares_obstructed() -> None:
    rows = ["#####", "#aaa#", "#aaa#", "#####"]
    # (1,1) to (2,2): the line passes exactly through the corner between (2,1) and (1,2).
    assert _sees(rows, (1, 1, "S"), (2, 2))
    assert _sees(rows, (1, 1, "S"), (2, 2), stealers=[("g1", 2, 1, "N")])
    assert not _sees(rows, (1, 1, "S"), (2, 2), stealers=[("g1", 2, 1, "N"), ("g2", 1, 2, "N")])
    walls = ["#####", "#a#a#", "##aa#", "#####"]
    assert not _sees(walls, (1, 1, "S"), (2, 2))


# -- movement --------------------------------------------------------------------------------------------
def test_marine_move_costs_and_no_sideways() -> None:
    s = scenario(ROOM, marines=[("m1", 3, 2, "E")])
    moves = sorted(str(a) for a in s.legal_actions() if a.verb == "move")
    assert moves == ["move m1 E", "move m1 NE", "move m1 NW", "move m1 SE", "move m1 SW", "move m1 W"]
    play(s, "move m1 W")
    assert s.p["m1"].ap == 2 and s.p["m1"].facing == 1


def test_diagonal_blocked_between_two_obstructions() -> None:
    rows = ["#####", "#aaa#", "#aaa#", "#####"]
    s = scenario(rows, marines=[("m1", 1, 2, "E")], stealers=[("g1", 1, 1, "S"), ("g2", 2, 2, "W")])
    assert "move m1 NE" not in [str(a) for a in s.legal_actions()]
    s = scenario(rows, marines=[("m1", 1, 2, "E")], stealers=[("g1", 1, 1, "S")])
    assert "move m1 NE" in [str(a) for a in s.legal_actions()]


def test_stealer_moves_sideways_and_back() -> None:
    s = scenario(ROOM, marines=[("m1", 1, 1, "N")], stealers=[("g1", 3, 2, "E")], phase="stealers")
    play(s, "move g1 N")
    assert s.p["g1"].ap == 5
    play(s, "move g1 W")
    assert s.p["g1"].ap == 3
    with pytest.raises(IllegalActionError):
        s.apply("move g1 W S")  # a free turn is 90° only


def test_doors_open_close_rules() -> None:
    rows = ["#######", "#aaDbb#", "#######"]
    s = scenario(rows, marines=[("m1", 2, 1, "E")], doors=[("D1", 3, 1)])
    assert "move m1 E" not in [str(a) for a in s.legal_actions()]
    play(s, "open m1 D1", "move m1 E")
    assert "close m1 D1" not in [str(a) for a in s.legal_actions()]  # occupied
    play(s, "move m1 E")
    assert "close m1 D1" not in [str(a) for a in s.legal_actions()]  # behind him: not in his front squares
    with pytest.raises(IllegalActionError):
        s.apply("close m1 D1")


def test_activation_ends_when_another_marine_acts_and_cp_pays_extra() -> None:
    s = scenario(ROOM, marines=[("m1", 1, 1, "E"), ("m2", 1, 3, "E")], cp=2)
    play(s, "move m1 E", "move m2 E")
    assert s.p["m1"].st == 2 and s.active == "m2"
    play(s, "move m1 E")  # an already activated Marine acts on CP only
    assert s.cp == 1 and s.p["m1"].ap == 3 and s.active == "m2"


def test_cp_reaction_in_genestealer_turn() -> None:
    rows = ["#########", "#aaaaaaa#", "#########"]
    s = scenario(rows, marines=[("m1", 1, 1, "E")], stealers=[("g1", 6, 1, "W")], phase="stealers", cp=1,
                 dice=[6, 1])
    play(s, "move g1 W")
    assert s.current_player() == "marines" and PASS in s.legal_actions()
    play(s, "shoot m1 g1")
    assert "g1" not in s.p and s.cp == 0 and s.current_player() == "genestealers"


def test_command_phase_sergeant_redraw() -> None:
    game = Game(load_mission(sample_mission("tutorial")))
    s = game.new_state(1)
    while s.current_player() == "genestealers":
        s.apply(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["cp keep", "cp redraw"]
    first = s.cp
    s.apply("cp redraw")
    assert s.log[-1].dice == (s.cp,) and 1 <= first <= 6


# -- reinforcements ----------------------------------------------------------------------------------
def test_lurking_cap_and_six_square_rule() -> None:
    rows = ["###############", "#aaaaaaaaaaaaa#", "###############"]
    m = build_mission(rows, marines=[("m1", 3, 1, "W")], entry_areas=[("W", 1, 1, "W"), ("E", 13, 1, "E")])
    m.genestealers.reinforcements = []
    from engine.mission.model import Reinforcement

    m.genestealers.reinforcements = [Reinforcement(1, 5, ["W", "E"], None, "unlimited")]
    game = Game(m)
    s = game.new_state(2)
    s.apply("cp keep") if s.current_player() == "marines" and s.stack else None
    s.apply("pass")
    placed = 0
    while s.current_player() == "genestealers" and isinstance(s.decision(), LurkDecision):
        acts = [str(a) for a in s.legal_actions()]
        if placed >= 3:
            assert acts == ["lurk E"]  # three already lurk at W
        s.apply("lurk W" if "lurk W" in acts else acts[0])
        placed += 1
    lurking_w = [pc for pc in s.p.values() if pc.kind == "blip" and pc.entry == "W"]
    assert len(lurking_w) == 3 and all(pc.lock for pc in lurking_w)  # the Marine is within 6 of W
    assert all(str(a) != f"enter {pc.id}" for pc in lurking_w for a in s.legal_actions())
    east = [pc for pc in s.p.values() if pc.kind == "blip" and pc.entry == "E"]
    assert east and not any(pc.lock for pc in east)


# -- victory --------------------------------------------------------------------------------------------
def test_escape_draw_with_one_and_elimination() -> None:
    rows = ["#######", "#aaaaa#", "#######"]
    s = scenario(rows, marines=[("m1", 5, 1, "E"), ("m2", 1, 1, "W")], stealers=[("g1", 2, 1, "W")],
                 exits=[("X", 5, 1, "E")], phase="marines", dice=[1, 6, 6, 6],
                 victory=[{"kind": "escape", "via": ["exit"], "win_at": 2, "draw_at": 1},
                          {"kind": "marines_eliminated"}])
    play(s, "exit m1")
    assert not s.is_terminal() and s.escaped == ["m1"]
    play(s, "pass")
    s.p["g1"].facing = 3
    play(s, "assault g1 m2")
    assert s.is_terminal() and s.result().winner == "draw"


def test_turn_cap_ends_every_game() -> None:
    game = Game(load_mission(sample_mission("pitfall")), {"turn_cap": 2})
    s = game.new_state(0)
    while not s.is_terminal():
        s.apply(PASS if PASS in s.legal_actions() else s.legal_actions()[0])
    assert s.result().winner == "draw" and s.result().turns == 2


def test_objects_picked_up_and_dropped_on_death() -> None:
    rows = ["#######", "#aaaaa#", "#######"]
    s = scenario(rows, marines=[("m1", 1, 1, "E")], stealers=[("g1", 4, 1, "W")], dice=[1, 6, 1, 1])
    s.obj_at[s.game.board.sq_of("upper", 2, 1)] = "relic"
    play(s, "move m1 E")
    assert s.p["m1"].carry == "relic"
    play(s, "pass")
    play(s, "move g1 W", "assault g1 m1")
    assert "m1" not in s.p and s.obj_at == {s.game.board.sq_of("upper", 2, 1): "relic"}
    assert where(s, "g1") == ("upper", 3, 1)


def test_pitfall_players_setup_is_a_decision_per_counter() -> None:
    game = Game(load_mission(sample_mission("pitfall")), {"random_setup": "players"})
    s = game.new_state(4)
    players = []
    zones = set()
    b = game.board
    while isinstance(s.decision(), SetupDecision):
        players.append(s.current_player())
        acts = s.legal_actions()
        for a in acts:
            assert (b.parse_sq(a.args[0]) // b.plane, b.section[b.parse_sq(a.args[0])]) not in zones
        s.apply(acts[len(acts) // 2])
        sq = b.parse_sq(s.log[-1].action.split()[1])
        zones.add((sq // b.plane, b.section[sq]))
    assert players == ["marines", "genestealers"] * 5
    f = s.features()
    assert len(f["pitfalls"]) == 6 and len(f["ladder_tops"]) == 2 and len(f["rubble"]) == 2


def test_piece_copy_copies_every_slot() -> None:
    from engine.rules.pieces import Piece

    p = Piece("x", "marine")
    for i, name in enumerate(Piece.__slots__):
        setattr(p, name, f"v{i}")
    q = p.copy()
    assert all(getattr(q, n) == getattr(p, n) for n in Piece.__slots__) and q is not p
