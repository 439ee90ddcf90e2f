"""Precomputed tables of the AI players: distance maps and goals read from the victory conditions."""

from __future__ import annotations

from engine.ai.tables import INF, dijkstra, tables
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game


def test_dijkstra_small_costs_and_limit() -> None:
    # 0 -1- 1 -3- 2 -1- 3 ; 0 -5- 3
    radj = [((1, 1), (3, 5)), ((0, 1), (2, 3)), ((1, 3), (3, 1)), ((2, 1), (0, 5))]
    radj_t = [tuple(r) for r in radj]
    assert dijkstra(radj_t, [(0, 0)], 4) == [0, 1, 4, 5]
    assert dijkstra(radj_t, [(0, 0), (3, 1)], 4) == [0, 1, 2, 1]
    assert dijkstra(radj_t, [(0, 0)], 4, limit=2) == [0, 1, INF, INF]


def test_goals_from_victory_conditions() -> None:
    goals = {name: tables(Game(load_mission(str(sample_mission(name))))).goal
             for name in ("pitfall", "recover_the_relic", "the_long_drop", "tutorial")}
    assert goals["pitfall"].kind == "escape" and goals["pitfall"].via == ("chute",)
    assert goals["tutorial"].kind == "escape" and goals["tutorial"].exit_squares
    assert goals["recover_the_relic"].kind == "carry" and goals["recover_the_relic"].objective == "relic"
    assert goals["recover_the_relic"].turn_limit == 16
    g = goals["the_long_drop"]
    assert g.kind == "flame" and g.flame_key is not None and g.flame_key[1] == "r" and g.flame_squares


def test_goal_map_reaches_the_chute_from_the_deployment() -> None:
    game = Game(load_mission(str(sample_mission("pitfall"))))
    state = game.new_state(5)
    gt = tables(game).for_state(state)
    D = gt.marine_goal_map("escape", list(state.feat.chutes))
    for pc in state.p.values():
        if pc.kind == "marine":
            assert 10 < D[pc.sq] < 60
    assert all(D[c] == 0 for c in state.feat.chutes)
    # Copies of a state share the game's tables (they are keyed on its features).
    assert tables(game).for_state(state.copy()) is gt
