"""The Board's caches of lines of sight stay within their memory budgets and the games do not notice; square
numbers are shared objects."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

import engine.rules.board as board_module
from engine.ai.base import make_policy
from engine.ai.tables import tables
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.board import Board
from engine.rules.game import Game
from engine.sim.play import play_game
from engine.sim.spec import game_seed

HEURISTIC = {"marines": "heuristic-marines", "genestealers": "heuristic-genestealers"}


def _games(name: str, n: int) -> tuple[list[dict[str, Any]], Board]:
    game = Game(load_mission(str(sample_mission(name))))
    policies = {side: make_policy(p) for side, p in HEURISTIC.items()}
    rows = [play_game(game, game_seed(5, i), policies, index=i).to_json() for i in range(n)]
    return rows, game.board


@pytest.mark.parametrize("name", ["pitfall", "the_long_drop"])
def test_games_are_the_same_when_the_caches_must_start_again_all_the_time(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    expected, roomy = _games(name, 3)
    monkeypatch.setattr(board_module, "VIEW_CACHE_SQUARES", 300)
    monkeypatch.setattr(board_module, "LINE_CACHE_SQUARES", 15)
    monkeypatch.setattr(board_module, "PATTERN_CACHE_SQUARES", 30)
    got, tight = _games(name, 3)
    assert got == expected
    # The roomy board kept everything; the tight one far less (views its games' sight still held stay).
    assert len(roomy._views) > 20 and sum(map(len, roomy._patterns.values())) > 200
    assert len(tight._views) < len(roomy._views) * 0.8
    assert tight._view_held == sum(tight._view_sizes.values()) < roomy._view_held * 0.8
    assert tight._held <= 15 + board_module.LINE_ENTRY_COST + max(roomy.W, roomy.H)
    assert sum(map(len, tight._patterns.values())) < 30 + max(roomy.W, roomy.H) * 2


def test_lines_views_and_shapes_match_a_board_that_keeps_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    mission = load_mission(str(sample_mission("pitfall")))
    keep_all = Board(mission)
    monkeypatch.setattr(board_module, "VIEW_CACHE_SQUARES", 100)
    monkeypatch.setattr(board_module, "LINE_CACHE_SQUARES", 25)
    monkeypatch.setattr(board_module, "PATTERN_CACHE_SQUARES", 10)
    tight = Board(mission)
    floor = [s for s in range(keep_all.size) if keep_all.floor[s]]
    for s in floor[::7]:
        for facing in range(4):
            assert tight.static_view(s, facing) == keep_all.static_view(s, facing)
            assert tight.wide_view(s, facing) == keep_all.wide_view(s, facing)
        for t in floor[::5]:
            assert tight.line(s, t) == keep_all.line(s, t)


def test_square_numbers_are_shared_objects() -> None:
    # Every table of squares holds the Board's one int object per square number (and per line offset), not an
    # object of its own per entry: on a big map they hold millions. Compiled code too (CI runs this test on the
    # compiled engine), where an int read from a list and stored again is a new object unless typed otherwise.
    game = Game(load_mission(str(sample_mission("pitfall"))))
    b = game.board
    ints = b._ints

    def shared(checks: Iterable[int | tuple[int, int]]) -> bool:
        squares = [c for c in checks if isinstance(c, int)] + [q for c in checks if isinstance(c, tuple) for q in c]
        return len(squares) > 0 and all(t is ints[t] for t in squares if t >= 0)

    big = [s for s in range(b.size) if b.floor[s] and s > 300]  # (ints up to 256 are shared objects anyway)
    s = big[0]
    assert shared(b.nbr[s]) and shared(b.section_squares(s))
    # The tables built from the Board's: the rules' steps, the players' step graph.
    assert shared([t for _d, t, _cost in game.steps(s, 0, "marine")])
    rows = [r for r in tables(game).steps if r and len(r) < 8 and max(r) > 300]
    assert rows and all(shared(r) for r in rows)
    lines = [ln for t in big if (ln := b.line(s, t)) is not None and len(ln) > 1]
    assert any(isinstance(c, tuple) for ln in lines for c in ln)  # corners' pairs too
    assert all(shared(ln) for ln in lines)
    for facing in range(4):
        for view in (b.static_view(s, facing), b.wide_view(s, facing)):
            assert isinstance(view, dict)
            assert not view or (shared(view) and all(shared(ln) for ln in view.values() if ln))
    offs = b._offs
    assert all(o is offs[b._offs_zero + o] for shape in b._patterns.values() for step in shape
               for o in (step if isinstance(step, tuple) else (step,)))


def test_views_go_oldest_first_but_not_while_someone_else_holds_them(monkeypatch: pytest.MonkeyPatch) -> None:
    b = Board(load_mission(str(sample_mission("pitfall"))))
    floor = [s for s in range(b.size) if b.floor[s]]
    seen = [s for s in floor if b.static_view(s, 1)][:30]
    budget = sum(b._view_sizes[s * 4 + 1] for s in seen[:3])
    monkeypatch.setattr(board_module, "VIEW_CACHE_SQUARES", budget)
    b = Board(b.mission)
    held = b.static_view(seen[0], 1)  # as the rules' sight keeps a Marine's view
    b.static_view(seen[1], 1)
    for s in seen[2:]:
        b.static_view(s, 1)
    assert b._views[seen[0] * 4 + 1] is held  # still kept: dropping it would free nothing
    assert seen[1] * 4 + 1 not in b._views  # the oldest nobody holds went
    assert b._view_held - b._view_sizes[seen[0] * 4 + 1] <= budget


def test_the_eyes_remembered_for_marine_poses_stay_within_their_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each remembered eye keeps its view alive (the Board may not drop it): on an open 200 x 200 level every pose
    # a Marine took kept megabytes to the end of the game.
    import engine.rules.features as features_module

    def play() -> tuple[list[dict[str, Any]], dict[Any, Any], Board]:
        game = Game(load_mission(str(sample_mission("the_long_drop"))))
        policies = {side: make_policy(p) for side, p in HEURISTIC.items()}
        rows = [play_game(game, game_seed(5, i), policies, index=i).to_json() for i in range(3)]
        assert game._static_features is not None
        return rows, game._static_features.eye_memo, game.board

    expected, roomy, _ = play()
    monkeypatch.setattr(features_module, "EYE_MEMO_SQUARES", 400)
    got, tight, board = play()
    assert got == expected
    held = sum(len(eye[2]) for eye in tight.values())
    assert len(roomy) > 2 * len(tight) > 0
    assert held <= 400 + max(len(v) for v in board._views.values())
