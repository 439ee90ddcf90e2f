"""Crafted positions in which the heuristic Marines blundered before their moves were scored from the rules'
offer, and the playbook habits they lacked after (docs/ai.md, Marines): each test fails on the player before the
fix it holds."""

from __future__ import annotations

import random
from itertools import pairwise

from engine.ai.marines import MarinePlayer
from engine.ai.situation import Situation, observe
from engine.rules.game import GameState
from engine.rules.testing import scenario

ESCAPE = [{"kind": "escape", "via": ["exit"], "win_at": 1, "draw_at": None},
          {"kind": "turn_limit", "turn": 20, "result": "genestealers"}]
CARRY = [{"kind": "objective_carried", "objective": "relic", "to": {"exit": "X1"}, "result": "marines"},
         {"kind": "turn_limit", "turn": 20, "result": "genestealers"}]
HOLD = [{"kind": "turn_limit", "turn": 20, "result": "genestealers"}]


def marine_turn(state: GameState, limit: int = 40, params: dict[str, float] | None = None) -> list[str]:
    """The Marine player's actions until it passes."""
    player = MarinePlayer(params)
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


def _goal_distance(s: GameState, pid: str) -> int:
    D = Situation(observe(s, "marines"), s.legal_view()).marine_goal_map()
    assert D is not None
    return D[s.p[pid].sq]


# A room crossed west to east; a corridor leaves it southward (through door D1 when there is one), where two
# Genestealers come up.
ROOM = ["##############", "#............#", "#............#", "#............#", "######.#######", "######.#######",
        "######.#######", "######.#######", "######.#######", "##############"]


def test_the_flamer_does_not_overtake_the_front_marine() -> None:
    # (#3: the old squad let the flamer, in the middle, walk past the leader to the front.)
    s = scenario(ROOM, victory=ESCAPE, exits=[("X1", 12, 2, "E")], dice=[1] * 30,
                 marines=[("m1", 3, 2, "E"), ("m2", 2, 2, "E", "marine", "heavy_flamer", "power_glove"),
                          ("m3", 1, 2, "E", "sergeant", "storm_bolter", "thunder_hammer")],
                 stealers=[("g1", 6, 7, "N"), ("g2", 6, 6, "N")])
    marine_turn(s)
    assert _goal_distance(s, "m2") >= _goal_distance(s, "m1")


def test_a_marine_crossing_beside_a_side_door_keeps_the_ap_of_overwatch() -> None:
    # (#12: the old squad put only its leader and rear guard on overwatch; the middle Marine walked on past the
    # door the Genestealers come through.)
    rows = [*ROOM[:4], "######d#######", *ROOM[5:]]
    s = scenario(rows, victory=ESCAPE, exits=[("X1", 12, 2, "E")], doors=[("D1", 6, 4)], dice=[1] * 30,
                 marines=[("m1", 3, 2, "E"), ("m2", 2, 2, "E"), ("m3", 1, 2, "E")],
                 stealers=[("g1", 6, 6, "N"), ("g2", 6, 5, "N")])
    marine_turn(s)
    assert s.p["m2"].ow


def test_the_last_marine_walks_when_watching_would_miss_the_turn_limit() -> None:
    # (A passive last Marine while the clock runs: 11 squares to the exit in 5 turns; watching, he walks 2 a turn.)
    limit = [ESCAPE[0], {"kind": "turn_limit", "turn": 5, "result": "genestealers"}]
    rows = ["################", "#..............#", "########.#######", "########.#######", "########.#######",
            "################"]
    s = scenario(rows, victory=limit, exits=[("X1", 14, 1, "E")], marines=[("m1", 3, 1, "E")],
                 stealers=[("g1", 8, 3, "N"), ("g2", 8, 4, "N")], dice=[1] * 30)
    assert _goal_distance(s, "m1") == 11
    marine_turn(s)
    assert _goal_distance(s, "m1") == 7  # every AP on the way


def test_the_last_marine_backs_into_a_dead_end() -> None:
    # (#11: with nothing to reach, the old player stood where he was, open on both sides.)
    s = scenario(["##########", "#........#", "#####.####", "#####.####", "##########"], victory=HOLD,
                 marines=[("m1", 2, 1, "E")], stealers=[("g1", 6, 3, "N"), ("g2", 5, 3, "N")], dice=[1] * 30)
    assert marine_turn(s) == ["move m1 W", "overwatch m1", "pass"]
    m1 = s.p["m1"]
    assert (m1.sq, m1.facing) == (s.game.board.sq_of("upper", 1, 1), 1)  # in the dead end, facing out (E)


def test_a_squad_with_nothing_to_reach_holds_the_corridor_by_an_entry_area() -> None:
    # (#9: the old squad stood where it was deployed, in the room.)
    rows = ["################", "#.....#####....#", "#..............#", "#.....#####....#", "################"]
    s = scenario(rows, victory=HOLD, marines=[("m1", 3, 2, "E"), ("m2", 2, 2, "E")], entry_areas=[("E1", 14, 2, "E")])
    for _ in range(2):
        marine_turn(s)
        for pc in s.p.values():
            pc.ap, pc.st = 4, 0
        s.touch()
    b = s.game.board
    front = s.p["m1"].sq
    assert b.rng(front, b.entries["E1"]) <= 6 and b.nbr[front][0] < 0 and b.nbr[front][4] < 0
