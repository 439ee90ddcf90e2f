"""The AI's per-mission tables: rows built when first read equal rows built for every square, rows without a
door are shared, and a big board keeps fewer games' tables and maps."""

from __future__ import annotations

from engine.ai.tables import DIR_VEC, Graph, MissionTables, cache_caps, direction, tables
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game


def test_rows_built_on_first_read_equal_rows_built_for_every_square() -> None:
    game = Game(load_mission(str(sample_mission("pitfall"))))
    mt: MissionTables = tables(game)
    b = game.board
    dir_of = {v: i for i, v in enumerate(DIR_VEC)}
    for s in range(mt.size):
        assert mt.step_dirs[s] == tuple((t, dir_of[direction(b, s, t)]) for t in mt.steps[s])
        assert mt.blip_doors[s] == b.doors_near(s, -1)
    doors = mt.door_squares
    fwd = [tuple((t, 2 if t in doors else 1) for t in mt.steps[s]) for s in range(mt.size)]
    assert [(mt.base_fwd.unit[s], mt.base_fwd.heavy[s]) for s in range(mt.size)] == [Graph.split(r) for r in fwd]
    # Rows with no door are the steps tuples themselves, not copies.
    plain = [s for s in range(mt.size) if mt.steps[s] and not any(t in doors for t in mt.steps[s])]
    assert plain and all(mt.base_fwd.unit[s] is mt.steps[s] for s in plain)


def test_a_big_board_keeps_fewer_games_tables_and_maps() -> None:
    small = tables(Game(load_mission(str(sample_mission("pitfall")))))
    assert (small._cached, small.maps_cached) == (16, 24) == cache_caps(1408)
    assert cache_caps(8 * 202 * 202) == (2, 4)  # the largest legal map


def test_a_square_with_floor_all_round_steps_along_the_boards_own_row() -> None:
    # On an open level nearly every square has 8 steps: a copy of each row was 31 MB on the largest map.
    from engine.rules.testing import build_mission

    game = Game(build_mission(["a" * 12] * 9))
    mt = tables(game)
    b = game.board
    floor = [s for s in range(b.size) if b.floor[s]]
    inner = [s for s in floor if all(t >= 0 for t in b.nbr[s])]
    assert len(inner) == 10 * 7
    assert all(mt.steps[s] is b.nbr[s] for s in inner)
    assert all(len(mt.steps[s]) < 8 and mt.steps[s] == tuple(t for t in b.nbr[s] if t >= 0)
               for s in floor if s not in inner)
