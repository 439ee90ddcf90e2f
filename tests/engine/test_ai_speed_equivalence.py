"""The AI players' shortcuts (warm-started maps, lazy legal sets, per-piece actions, memos) answer exactly
what the plain computations answer; the golden games pin the decisions, these pin the pieces."""

from __future__ import annotations

import random
from typing import Any

from engine.ai.genestealers import GenestealerPlayer
from engine.ai.situation import LegalSet, Situation
from engine.ai.tables import INF, dijkstra, tables
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.actions import Action
from engine.rules.game import Game
from engine.rules.testing import played_states


def _played(seed: int, plies: int) -> tuple[Game, list[Any]]:
    """Some states of a random Pitfall game (fixed seeds: deterministic)."""
    game = Game(load_mission(str(sample_mission("pitfall"))))
    return game, played_states(game, seed, plies)


def test_warm_started_map_is_the_map_of_all_seeds() -> None:
    game, states = _played(3, 1)
    gt = tables(game).for_state(states[0])
    rng = random.Random(1)
    floor = [s for s in range(gt.mt.size) if gt.mt.steps[s]]
    for _ in range(20):
        a = [(rng.choice(floor), rng.randrange(4)) for _ in range(rng.randrange(1, 8))]
        b = [(rng.choice(floor), rng.randrange(4)) for _ in range(rng.randrange(1, 8))]
        base = dijkstra(gt.rev, a, gt.mt.size)
        both = dijkstra(gt.rev, a + b, gt.mt.size)
        assert dijkstra(gt.rev, b, gt.mt.size, base=base) == both
        limited = dijkstra(gt.fwd, a, gt.mt.size, limit=12)
        assert dijkstra(gt.fwd, b, gt.mt.size, limit=12, base=limited) == dijkstra(gt.fwd, a + b, gt.mt.size, 12)
    assert INF in dijkstra(gt.fwd, [(floor[0], 0)], gt.mt.size, limit=3)


def test_legal_set_answers_like_a_frozenset() -> None:
    _game, states = _played(11, 40)
    for st in states:
        actions = st.legal_actions()
        legal = LegalSet(actions)
        ref = frozenset(actions)
        probes = list(actions) + [Action(a.verb, a.args) for a in actions[:5]]  # equal, not identical
        probes += [Action("move", ("nobody", "N")), Action("pass"), Action("end")]
        for a in probes:
            assert (a in legal) == (a in ref)


def test_actions_of_matches_grouping_by_actor() -> None:
    _game, states = _played(7, 60)
    for st in states:
        sit = Situation(st.observation("genestealers"), st.legal_actions())
        by = sit.by_actor
        for pid in [*st.p, "nobody"]:
            assert sit.actions_of(pid) == by.get(pid, [])


def test_genestealer_maps_follow_the_marines() -> None:
    """The memoised attack map is rebuilt when a Marine moves or turns, and equals a fresh player's."""
    _game, states = _played(5, 120)
    memo = GenestealerPlayer()
    changes = 0
    last: list[int] | None = None
    for st in states:
        sit = Situation(st.observation("genestealers"), st.legal_actions())
        if not sit.marines:
            continue
        dm = memo._attack_map(sit)
        assert dm == GenestealerPlayer()._attack_map(sit)
        assert memo._route_map(sit, dm) == GenestealerPlayer()._route_map(sit, dm)
        if last is not None and dm != last:
            changes += 1
        last = dm
    assert changes > 0  # the Marines did move in this game, so the memo was invalidated at least once


def _heap_dijkstra(
    rows: list[tuple[tuple[int, int], ...]],
    seeds: list[tuple[int, int]],
    size: int,
    limit: int,
    base: list[int] | None = None,
) -> list[int]:
    """The textbook heap Dijkstra: the reference the bucket version (unit edges apart) must match."""
    import heapq

    dist = list(base) if base is not None else [INF] * size
    heap = []
    for s, c in seeds:
        if c < dist[s]:
            dist[s] = c
            heapq.heappush(heap, (c, s))
    while heap:
        d, s = heapq.heappop(heap)
        if d != dist[s] or d >= limit:
            continue
        for t, c in rows[s]:
            if d + c < dist[t] and d + c <= limit:
                dist[t] = d + c
                heapq.heappush(heap, (d + c, t))
    return dist


def test_bucket_dijkstra_matches_a_heap_dijkstra_with_dear_edges_and_limits() -> None:
    game, _states = _played(5, 1)
    mt = tables(game)
    rng = random.Random(4)
    rows = [tuple((t, rng.choice([1, 1, 1, 2, 3, 4])) for t in mt.steps[q]) for q in range(mt.size)]
    floor = [q for q in range(mt.size) if mt.steps[q]]
    for limit in (1, 2, 3, 7, 40, INF):
        for _ in range(25):
            seeds = [(rng.choice(floor), rng.choice([0, 0, 1, 3])) for _ in range(rng.randrange(1, 10))]
            got = dijkstra(rows, seeds, mt.size, limit)
            assert got == _heap_dijkstra(rows, seeds, mt.size, limit)
            more = [(rng.choice(floor), rng.choice([0, 2])) for _ in range(3)]
            assert dijkstra(rows, more, mt.size, limit, base=got) == _heap_dijkstra(rows, more, mt.size, limit, got)
