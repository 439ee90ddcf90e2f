"""Reachability on runs of squares gives the issues a graph of single squares gives, on random maps."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.mission import Mission, mission_from_dict
from engine.mission.issues import Issue
from engine.mission.reach import movement_graph, reach_issues

STEPS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _square_reach(m: Mission) -> Iterator[Issue]:
    """The former implementation, one node per square: the reference the run graph must agree with."""
    chutes = {(c.level, c.x, c.y) for c in m.chutes}
    g: nx.Graph = nx.Graph()
    for lv in m.levels:
        floor = lv.is_floor
        for y, row in enumerate(lv.rows):
            for x, ch in enumerate(row):
                if ch == "#" or (lv.id, x, y) in chutes:
                    continue
                g.add_node((lv.id, x, y))
                for dx, dy in STEPS:
                    nx_, ny = x + dx, y + dy
                    if not floor(nx_, ny) or (lv.id, nx_, ny) in chutes:
                        continue
                    if dx and dy and not floor(x + dx, y) and not floor(x, y + dy):
                        continue
                    g.add_edge((lv.id, x, y), (lv.id, nx_, ny))
    for la in m.ladders:
        a, b = (la.top.level, la.top.x, la.top.y), (la.bottom.level, la.bottom.x, la.bottom.y)
        if a in g and b in g:
            g.add_edge(a, b)
    for p in m.pitfalls:
        below = m.level_below(p.level)
        if below is not None and (p.level, p.x, p.y) in g and (below.id, p.x, p.y) in g:
            g.add_edge((p.level, p.x, p.y), (below.id, p.x, p.y))
    rs = m.random_setup
    if rs is not None and any(c.kind in ("pitfall", "ladder") for c in rs.counters):
        zones = set(rs.zones)
        for lv in m.levels:
            below = m.level_below(lv.id)
            if below is None:
                continue
            for y, row in enumerate(lv.rows):
                for x, ch in enumerate(row):
                    if (lv.id, ch) in zones and (lv.id, x, y) in g and (below.id, x, y) in g:
                        g.add_edge((lv.id, x, y), (below.id, x, y))
    starts = [(mm.level, mm.x, mm.y) for mm in m.marines.squad if (mm.level, mm.x, mm.y) in g]
    if not starts:
        return
    reached: set[Any] = set()
    for s in starts:
        reached |= nx.node_connected_component(g, s)
    targets = [(f"$.entry_areas[{i}]", (e.level, e.x, e.y), False) for i, e in enumerate(m.entry_areas)]
    targets += [(f"$.chutes[{i}]", (c.level, c.x, c.y), True) for i, c in enumerate(m.chutes)]
    for path, (lv_id, x, y), is_chute in targets:
        lv = m.level(lv_id)
        if lv is None or not lv.is_floor(x, y):
            continue
        # A chute is reached by a step into it: a diagonal one only past a gap in the walls (RULES.md §4).
        near = any((lv_id, x + dx, y + dy) in reached and not (dx and dy and not lv.is_floor(x + dx, y)
                                                               and not lv.is_floor(x, y + dy))
                   for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        if not (near if is_chute else (lv_id, x, y) in reached):
            yield Issue("REACH", path, "", lv_id, ((x, y),))


def _random_mission(seed: int) -> Mission:
    rng = random.Random(seed)
    w, h, n = rng.randint(1, 9), rng.randint(1, 9), rng.randint(1, 3)
    density = rng.choice([0.2, 0.45, 0.7])
    levels = []
    for i in range(n):
        rows = ["".join("#" if rng.random() < density else rng.choice("ab.") for _ in range(w)) for _ in range(h)]
        if rng.random() < 0.2:  # a ragged row now and then
            rows[rng.randrange(h)] = rows[0][: rng.randint(0, w)]
        levels.append({"id": f"L{i}", "depth": i, "rows": rows})

    def square() -> dict[str, Any]:
        return {"level": f"L{rng.randrange(n)}", "x": rng.randrange(w), "y": rng.randrange(h)}

    chutes = [{"id": f"C{i}", **square()} for i in range(rng.randint(0, 4))]
    entries = [{"id": f"E{i}", "side": "N", **square()} for i in range(rng.randint(1, 8))]
    squad = [{"id": f"m{i}", "rank": "marine", "facing": "N", **square()} for i in range(rng.randint(1, 3))]
    ladders = []
    for i in range(rng.randint(0, 3)):
        top = square()
        ladders.append({"id": f"Ld{i}", "top": top, "bottom": {**top, "level": f"L{rng.randrange(n)}"}})
    pitfalls = [{"letter": "A", **square()} for _ in range(rng.randint(0, 3))]
    doc: dict[str, Any] = {
        "meta": {"title": "t"}, "levels": levels, "chutes": chutes, "entry_areas": entries, "ladders": ladders,
        "pitfalls": pitfalls, "marines": {"squad": squad},
        "genestealers": {"reinforcements": []}, "victory": [],
    }
    if rng.random() < 0.3:
        doc["random_setup"] = {"zones": [{"level": f"L{rng.randrange(n)}", "section": rng.choice("ab")}],
                               "counters": [{"kind": "pitfall", "letter": "A"}]}
    return mission_from_dict(doc)


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_runs_reach_what_squares_reach(seed: int) -> None:
    m = _random_mission(seed)
    expected = [(i.path, i.squares) for i in _square_reach(m)]
    got = [(i.path, i.squares) for i in reach_issues(m) if i.rule in ("REACH-ENTRY", "REACH-CHUTE")]
    assert got == expected


def test_an_open_level_is_one_run_per_row() -> None:
    m = mission_from_dict({"meta": {"title": "t"}, "levels": [{"id": "a", "depth": 0, "rows": ["...."] * 3}],
                           "marines": {"squad": []}, "genestealers": {"reinforcements": []}, "victory": []})
    g = movement_graph(m)
    assert sorted(g.nodes) == [("a", y, 0, 3) for y in range(3)]
    assert g.number_of_edges() == 2


def test_the_largest_legal_mission_validates() -> None:
    """tools/largest_mission.py makes the mission the memory figures are measured on: it must stay legal."""
    import importlib.util
    from pathlib import Path

    from engine.mission import validate_document

    path = Path(__file__).resolve().parents[2] / "tools" / "largest_mission.py"
    spec = importlib.util.spec_from_file_location("largest_mission", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for hall in (False, True):
        doc = tool.largest_mission(hall)
        assert len(doc["levels"]) == 8 and all(len(lv["rows"]) == len(lv["rows"][0]) == 200 for lv in doc["levels"])
        assert [i for i in validate_document(doc) if i.severity == "error"] == []
