"""Crafted positions in which the heuristic Marines blundered before their moves were scored from the rules'
offer (docs/ai.md, Marines): each test fails on that player."""

from __future__ import annotations

import random
from itertools import pairwise

from engine.ai.marines import MarinePlayer
from engine.rules.game import GameState
from engine.rules.testing import scenario

ESCAPE = [{"kind": "escape", "via": ["exit"], "win_at": 1, "draw_at": None},
          {"kind": "turn_limit", "turn": 20, "result": "genestealers"}]
CARRY = [{"kind": "objective_carried", "objective": "relic", "to": {"exit": "X1"}, "result": "marines"},
         {"kind": "turn_limit", "turn": 20, "result": "genestealers"}]
HOLD = [{"kind": "turn_limit", "turn": 20, "result": "genestealers"}]


def marine_turn(state: GameState, limit: int = 40) -> list[str]:
    """The Marine player's actions until it passes."""
    player = MarinePlayer()
    done: list[str] = []
    while state.current_player() == "marines" and state.phase == "marines" and len(done) < limit:
        a = player.choose(state, state.legal_view(), random.Random(1))
        done.append(str(a))
        if a.verb == "pass":
            break
        state.apply(a)
    return done


def done_already(state: GameState, *pids: str) -> None:
    for pid in pids:
        state.p[pid].st = 2
    state.touch()


def test_a_marine_never_turns_twice_in_a_row() -> None:
    # (The old player turned the sergeant S for his route, then E at the Genestealer: 2 AP for a net 90°.)
    s = scenario(["############", "#..........#", "#..........#", "#....##....#", "#..........#", "############"],
                 victory=ESCAPE, exits=[("X1", 10, 1, "E")], dice=[1] * 30,
                 marines=[("m0", 3, 3, "N", "sergeant", "storm_bolter", "thunder_hammer"),
                          ("m1", 8, 2, "S", "marine", "heavy_flamer", "power_glove")],
                 stealers=[("g0", 1, 3, "N"), ("g1", 6, 4, "W")])
    done_already(s, "m1")
    acts = marine_turn(s)
    assert not any(a.startswith("turn") and b.startswith("turn") for a, b in pairwise(acts)), acts


def test_no_overwatch_facing_a_wall() -> None:
    s = scenario(["##########", "#aaaaaaaa#", "##########"], victory=HOLD, marines=[("m1", 1, 1, "W")],
                 stealers=[("g1", 7, 1, "W")], dice=[1] * 30)
    s.p["m1"].ap = 2
    s.touch()
    marine_turn(s)
    m1 = s.p["m1"]
    assert not (m1.ow and s.game.board.nbr[m1.sq][m1.facing * 2] < 0)


def test_the_carrier_stays_with_the_squad_and_command_points_are_kept() -> None:
    s = scenario(["######################", "#....................#", "######################"], victory=CARRY,
                 marines=[("sgt", 10, 1, "E", "sergeant"), ("m1", 3, 1, "E")], exits=[("X1", 20, 1, "E")], cp=3)
    s.p["sgt"].carry = "relic"
    s.touch()
    marine_turn(s)
    b = s.game.board
    assert s.cp == 3
    assert b.xs[s.p["sgt"].sq] - b.xs[s.p["m1"].sq] <= 4


def test_the_flamer_does_not_burn_a_section_holding_a_marine() -> None:
    s = scenario(["##########", "#aaabbbbb#", "#aaabbbbb#", "##########"], victory=HOLD,
                 marines=[("m1", 1, 1, "E", "marine", "heavy_flamer", "power_glove"), ("m2", 8, 2, "W")],
                 stealers=[("g1", 4, 1, "E"), ("g2", 5, 1, "E"), ("g3", 6, 1, "E"), ("g4", 7, 1, "E"),
                           ("g5", 8, 1, "E"), ("g6", 4, 2, "E"), ("g7", 5, 2, "E")], dice=[1] * 30)
    done_already(s, "m2")
    assert not any(a.startswith("flame") for a in marine_turn(s))


def test_a_flamer_on_his_own_burns_the_genestealer_coming_at_him() -> None:
    s = scenario(["##########", "#aaabbbbb#", "##########"], victory=HOLD, dice=[1] * 30,
                 marines=[("m1", 2, 1, "E", "marine", "heavy_flamer", "power_glove")], stealers=[("g1", 6, 1, "W")])
    assert marine_turn(s)[0] == "flame m1 upper:4,1"


def test_an_escort_does_not_leave_by_the_exit_while_the_carrier_is_far() -> None:
    s = scenario(["##########", "#........#", "##########"], victory=CARRY,
                 marines=[("sgt", 1, 1, "E", "sergeant"), ("m1", 8, 1, "E")], exits=[("X1", 8, 1, "E")])
    s.p["sgt"].carry = "relic"
    s.touch()
    assert "exit m1" not in marine_turn(s)


def test_the_marines_hunt_a_genestealer_holding_the_objective() -> None:
    s = scenario(["#########", "#.......#", "#######.#", "#######.#", "#########"], victory=CARRY,
                 marines=[("m1", 1, 1, "E")], stealers=[("g1", 7, 3, "N")], exits=[("X1", 1, 1, "W")])
    s.p["g1"].carry = "relic"
    s.touch()
    acts = marine_turn(s)
    assert acts[0].startswith("move m1"), acts


def test_marines_close_a_flank_door() -> None:
    s = scenario(["##########", "#........#", "###d######", "###bbbbbb#", "##########"], victory=ESCAPE,
                 marines=[("m1", 2, 1, "E")], doors=[("D1", 3, 2)], exits=[("X1", 8, 1, "E")],
                 blips=[("b1", 8, 3, 1)])
    s.k.set_door("D1", "open")
    s.touch()
    assert "close m1 D1" in marine_turn(s)
