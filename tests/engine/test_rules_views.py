"""Walls-only views (engine/rules/views.py): a view answered square by square (OpenView) and one drawn whole
(a dict) give exactly the sight of the implementation that drew every line of the arc, on the samples and on
random open and walled maps, and whole games do not notice which kind the rules use; on an open 200 x 200 level a
view costs the squares asked about, not the arc's."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine.rules.board as board_module
from benchmarks.open_levels import open_level_doc
from engine.ai.base import make_policy
from engine.mission import load_mission, mission_from_dict
from engine.resources import sample_mission, sample_missions
from engine.rules.board import Board, Line
from engine.rules.game import Game
from engine.rules.testing import build_mission
from engine.rules.views import OpenView, among, meets
from engine.sim.play import play_game, play_out
from engine.sim.spec import game_seed

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "games"
_spec = importlib.util.spec_from_file_location("make_goldens", GOLDEN / "make_goldens.py")
assert _spec is not None and _spec.loader is not None
GEN = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(GEN)


def _reference_view(b: Board, s: int, facing: int) -> dict[int, Line]:
    """The first implementation of Board.static_view (f32a4ed's _arc_view): a line to every square of the arc."""
    w = b.W
    base = s - s % b.plane
    sy, sx = divmod(s - base, w)
    out: dict[int, Line] = {}
    for y in range(b.H):
        dy = y - sy
        ady = dy if dy >= 0 else -dy
        if facing == 0:
            if dy >= 0:
                break
            lo, hi = sx - ady, sx + ady
        elif facing == 2:
            if dy <= 0:
                continue
            lo, hi = sx - ady, sx + ady
        elif facing == 1:
            lo, hi = sx + (ady or 1), w - 1
        else:
            lo, hi = 0, sx - (ady or 1)
        row = base + y * w
        for t in range(row + max(lo, 0), row + min(hi, w - 1) + 1):
            if b.floor[t]:
                ln = b._compute_line(s, t)
                if ln is not None:
                    out[t] = ln
    return out


def _reference_wide(b: Board, s: int, facing: int) -> dict[int, Line]:
    """The first implementation of Board.wide_view: the front view, then every square of the level off the rear."""
    out = dict(_reference_view(b, s, facing))
    base = s - s % b.plane
    back = (facing + 2) % 4
    for t in range(base, base + b.plane):
        if b.floor[t] and t != s and t not in out and not b.in_arc(s, back, t):
            line = b._compute_line(s, t)
            if line is not None:
                out[t] = line
    return out


def _reference_within(view: dict[int, Line], b: Board, s: int, rng: int) -> tuple[int, ...]:
    """The first implementation of Features.arc_squares: the whole view filtered by range, nearest first."""
    return tuple(t for _d, t in sorted((b.rng(s, t), t) for t in view if b.rng(s, t) <= rng))


def _boards(mission: Any) -> tuple[Board, Board]:
    """Two Boards of the mission: every view drawn whole, and every view answered square by square."""
    drawn, open_ = Board(mission), Board(mission)
    drawn.drawn_arc_squares = 10**9
    open_.drawn_arc_squares = 0
    return drawn, open_


def _check_pose(drawn: Board, open_: Board, s: int, facing: int, rnd: random.Random) -> None:
    ref = _reference_view(drawn, s, facing)
    wide_ref = _reference_wide(drawn, s, facing)
    for b in (drawn, open_):
        for view, expected in ((b.static_view(s, facing), ref), (b.wide_view(s, facing), wide_ref)):
            assert type(view) is (dict if b is drawn else OpenView)
            assert [view.get(t) for t in range(b.size)] == [expected.get(t) for t in range(b.size)]
            assert [t in view for t in range(b.size)] == [t in expected for t in range(b.size)]
            # (drawn: the first implementation's order; open: square order)
            assert list(view) == (list(expected) if b is drawn else sorted(expected))
            some = set(rnd.sample(range(b.size), 12))
            assert among(view, some) == expected.keys() & some
            assert meets(view, some) == bool(expected.keys() & some)
        for rng in (1, 3, 12):
            assert b.arc_within(s, facing, rng) == _reference_within(ref, b, s, rng)


def _random_rows(rnd: random.Random, w: int, h: int, walls: float) -> list[str]:
    rows = []
    for _y in range(h):
        rows.append("".join("#" if rnd.random() < walls else "a" for _x in range(w)))
    return rows


def _room_rows(rnd: random.Random, w: int, h: int) -> list[str]:
    """Rooms and corridors: a grid of walls every few squares, with a gap (a doorway) in each wall run."""
    step = rnd.randint(4, 7)
    grid = [["a"] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            if (x % step == 0 or y % step == 0) and rnd.random() < 0.85:
                grid[y][x] = "#"
    return ["".join(r) for r in grid]


@pytest.mark.parametrize("kind", ["open", "sparse", "walled", "rooms"])
def test_views_equal_the_line_to_every_square_on_random_maps(kind: str) -> None:
    rnd = random.Random(f"views-{kind}")
    poses = 0
    for _map in range(4):
        w, h = rnd.randint(5, 26), rnd.randint(3, 19)
        if kind == "open":
            rows = ["a" * w] * h
        elif kind == "rooms":
            rows = _room_rows(rnd, w, h)
        else:
            rows = _random_rows(rnd, w, h, 0.08 if kind == "sparse" else 0.3)
        lower = _random_rows(rnd, w, h, 0.2) if rnd.random() < 0.5 else None
        drawn, open_ = _boards(build_mission(rows, lower=lower))
        floor = [s for s in range(drawn.size) if drawn.floor[s]]
        for s in rnd.sample(floor, min(len(floor), 12)):
            for facing in range(4):
                _check_pose(drawn, open_, s, facing, rnd)
                poses += 1
    assert poses >= 100


@pytest.mark.parametrize("name", sorted(p.stem for p in sample_missions()))
def test_views_equal_the_line_to_every_square_on_the_samples(name: str) -> None:
    rnd = random.Random(name)
    drawn, open_ = _boards(load_mission(str(sample_mission(name))))
    floor = [s for s in range(drawn.size) if drawn.floor[s]]
    for s in floor[::9]:
        for facing in range(4):
            _check_pose(drawn, open_, s, facing, rnd)


def test_the_samples_views_are_drawn_whole() -> None:
    # Their arcs are small: the C-level lookups and set operations of a dict serve every pose, as before.
    for path in sample_missions():
        b = Board(load_mission(path))
        assert max(b.arc_area(s, f) for s in range(b.size) if b.floor[s] for f in range(4)) <= b.drawn_arc_squares


def _open_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board_module, "DRAWN_ARC_SQUARES", 0)


@pytest.mark.parametrize("variant", ["random", "classic", "4e_ladders"])
def test_golden_games_are_the_same_with_every_view_open(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _open_everywhere(monkeypatch)
    for name in ("pitfall", "recover_the_relic"):
        path = sample_mission(name)
        game = Game(load_mission(path)) if variant == "random" else GEN.variant_game(path, variant)
        assert isinstance(game.board.static_view(game.board.sq_of(*_first_floor(game.board)), 1), OpenView)
        gold = json.loads((GOLDEN / f"{name}.json").read_text())
        records = gold["random"][:6] if variant == "random" else gold["variants"][variant]
        for rec in records:
            pols = {side: make_policy(p) for side, p in rec["policies"].items()}
            state, applied, _capped = play_out(game, rec["seed"], pols)
            assert len(applied) == rec["actions"], (name, rec["seed"])
            assert hashlib.sha256(GEN.log_text(state).encode()).hexdigest() == rec["log_sha256"], (name, rec["seed"])


def _first_floor(b: Board) -> tuple[str, int, int]:
    s = next(s for s in range(b.size) if b.floor[s])
    li, x, y = b.lxy(s)
    return b.level_ids[li], x, y


@pytest.mark.parametrize("name", ["pitfall", "the_long_drop"])
def test_heuristic_games_are_the_same_with_every_view_open(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def games() -> list[dict[str, Any]]:
        game = Game(load_mission(str(sample_mission(name))))
        policies = {side: make_policy(f"heuristic-{side}") for side in ("marines", "genestealers")}
        return [play_game(game, game_seed(3, i), policies, index=i).to_json() for i in range(4)]

    expected = games()
    _open_everywhere(monkeypatch)
    assert games() == expected


def test_sight_on_an_open_200_level_costs_what_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two turns of Pitfall's forces on one open 200 x 200 level: the rules and players draw a few thousand lines,
    where drawing each Marine's arc (as f32a4ed did) took a line to each of ~10,000-20,000 squares per view."""
    game = Game(mission_from_dict(open_level_doc(200)))
    b = game.board
    drawn = {"lines": 0, "steps": 0}
    compute = Board._compute_line

    def counted(self: Board, a: int, t: int) -> Line:
        line = compute(self, a, t)
        drawn["lines"] += 1
        drawn["steps"] += len(line) if line is not None else 0
        return line

    monkeypatch.setattr(Board, "_compute_line", counted)
    state = game.new_state(1)
    policies = {side: make_policy(f"heuristic-{side}") for side in ("marines", "genestealers")}
    rngs = {side: random.Random(side) for side in policies}
    views: set[tuple[int, int]] = set()
    while not state.is_terminal() and state.turn <= 2:
        player = state.current_player()
        state.apply(policies[player].choose(state, state.legal_view(), rngs[player]))
        views |= {(pc.sq, pc.facing) for pc in state.p.values() if pc.kind == "marine" and pc.sq >= 0}
    arcs = sorted(b.arc_area(s, f) for s, f in views)
    assert len(views) >= 10 and arcs[len(arcs) // 2] > 5_000
    # Drawing each view (as f32a4ed did) takes a line to every square of its arc (about 520,000 lines here); asked
    # square by square, all of them together draw about 1,000 lines of 12 squares on average.
    assert drawn["lines"] < arcs[len(arcs) // 2] // 10
    assert drawn["steps"] < arcs[len(arcs) // 2]
