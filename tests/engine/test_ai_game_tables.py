"""The per-game graphs GameTables patches into the mission's graph equal graphs built from scratch: every step
priced by the square it enters (doors and rubble dearer, pitfalls dearer for a Marine), plus ladders and holes."""

from __future__ import annotations

from engine.ai.tables import PIT_RISK, Graph, Row, tables
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game


def _plain(game: Game, feat: object) -> tuple[Graph, Graph, Graph]:
    mt = tables(game)
    steps = mt.steps
    doors = mt.door_squares
    rubble = feat.rubble  # type: ignore[attr-defined]
    pits = feat.pit_down  # type: ignore[attr-defined]

    def price(t: int, marine: bool) -> int:
        return 1 + (t in rubble) + (t in doors) + (PIT_RISK if marine and t in pits else 0)

    fwd: list[list[tuple[int, int]]] = [[(t, price(t, False)) for t in steps[s]] for s in range(mt.size)]
    rev: list[list[tuple[int, int]]] = [[(s, price(t, False)) for s in steps[t]] for t in range(mt.size)]
    mrev: list[list[tuple[int, int]]] = [[(s, price(t, True)) for s in steps[t]] for t in range(mt.size)]
    lc = 2 if game.pf_ladders else 1
    for s, t in feat.ladder.items():  # type: ignore[attr-defined]
        fwd[s].append((t, lc))
        rev[t].append((s, lc))
        mrev[t].append((s, 3))
    for top, below in pits.items():
        if below >= 0:
            fwd[top].append((below, 1))
            fwd[below].append((top, 3))
            rev[below].append((top, 1))
            rev[top].append((below, 3))

    def graph(rows: list[list[tuple[int, int]]]) -> Graph:
        plain: list[Row] = [tuple(r) for r in rows]
        return Graph.of(plain)

    return graph(fwd), graph(rev), graph(mrev)


def test_patched_game_graphs_equal_graphs_built_from_scratch() -> None:
    for name in ("pitfall", "the_long_drop"):
        game = Game(load_mission(str(sample_mission(name))))
        for seed in range(12):
            state = game.new_state(seed)
            gt = tables(game).for_state(state)
            for got, want in zip((gt.fwd, gt.rev, gt.marine_rev), _plain(game, state.feat), strict=True):
                assert got.unit == want.unit
                assert got.heavy == want.heavy
