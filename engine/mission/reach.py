"""Reachability across levels with networkx: entry areas, exits, objectives and chutes from the deployment.

The graph's nodes are runs of floor squares along a row (level, y, first x, last x), not single squares: a
model moves freely along a run, and two runs on neighbouring rows join where a model can step from one to the
other. An 8-level map of 200x200 open squares makes a few thousand runs, where a node per square made 320,000
nodes and 1.2 million edges (430 MB and 7 s to validate; now a few MB and a fraction of a second).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

import networkx as nx

from engine.mission.diagonal import diagonal_step_allowed
from engine.mission.issues import Issue
from engine.mission.kinds import KINDS, items
from engine.mission.model import WALL, Mission

Node = tuple[str, int, int]
Run = tuple[str, int, int, int]  # level id, row, first x, last x
_OPEN = re.compile(f"[^{re.escape(WALL)}]+")


class Runs:
    """The runs of each row of each level: squares a model may stand on (floor, not a chute)."""

    def __init__(self, m: Mission) -> None:
        chutes: dict[tuple[str, int], set[int]] = {}
        for c in m.chutes:
            chutes.setdefault((c.level, c.y), set()).add(c.x)
        self.rows: dict[str, list[list[tuple[int, int]]]] = {}
        self.starts: dict[str, list[list[int]]] = {}
        self.cells: dict[str, list[str]] = {}
        for lv in m.levels:
            per_row: list[list[tuple[int, int]]] = []
            for y, row in enumerate(lv.rows):
                out = chutes.get((lv.id, y))
                if out:  # a chute square is floor (for squeezing past corners) but no model stands on it
                    row = "".join(WALL if x in out else ch for x, ch in enumerate(row))
                per_row.append([(mt.start(), mt.end() - 1) for mt in _OPEN.finditer(row)])
            self.rows[lv.id] = per_row
            self.starts[lv.id] = [[x0 for x0, _ in runs] for runs in per_row]
            self.cells[lv.id] = lv.rows

    def run_of(self, level: str, x: int, y: int) -> Run | None:
        """The run holding square (x, y), or None (a wall, a chute, outside the map)."""
        rows = self.rows.get(level)
        if rows is None or not 0 <= y < len(rows):
            return None
        i = bisect_right(self.starts[level][y], x) - 1
        if i < 0:
            return None
        x0, x1 = rows[y][i]
        return (level, y, x0, x1) if x <= x1 else None

    def floor(self, level: str, x: int, y: int) -> bool:
        rows = self.cells[level]
        return 0 <= y < len(rows) and 0 <= x < len(rows[y]) and rows[y][x] != WALL

    def diagonal(self, level: str, x: int, y: int, dx: int, dy: int) -> bool:
        """A diagonal step from (x, y) to (x + dx, y + dy) is allowed by the walls beside it."""
        return diagonal_step_allowed(not self.floor(level, x + dx, y), not self.floor(level, x, y + dy))


def _join_rows(g: nx.Graph, runs: Runs, level: str, y: int) -> None:
    """Edges between the runs of rows y and y + 1: where they overlap, or touch at a corner a model may cross
    (the rules' diagonal rule, with walls as the only blocked squares: a chute is not a wall)."""
    upper, lower = runs.rows[level][y], runs.rows[level][y + 1]
    j = 0
    for a0, a1 in upper:
        while j < len(lower) and lower[j][1] < a0 - 1:
            j += 1
        k = j
        while k < len(lower) and lower[k][0] <= a1 + 1:
            b0, b1 = lower[k]
            if max(a0, b0) <= min(a1, b1):
                ok = True
            elif b0 == a1 + 1:  # lower run starts just right of the upper one's end
                ok = runs.diagonal(level, a1, y, 1, 1)
            else:  # b1 == a0 - 1: it ends just left of the upper one's start
                ok = runs.diagonal(level, a0, y, -1, 1)
            if ok:
                g.add_edge((level, y, a0, a1), (level, y + 1, b0, b1))
            k += 1


def movement_graph(m: Mission, runs: Runs | None = None) -> nx.Graph:
    """Runs of floor joined as models move, doors counted as passable; ladders and holes join levels.

    Chute squares are left out: a model entering one leaves play, so a chute is reached but never crossed.
    Holes join both ways because Genestealers climb up through pitfalls.
    """
    runs = runs if runs is not None else Runs(m)
    g: nx.Graph = nx.Graph()
    for lv in m.levels:
        rows = runs.rows[lv.id]
        for y, row_runs in enumerate(rows):
            g.add_nodes_from((lv.id, y, x0, x1) for x0, x1 in row_runs)
            if y + 1 < len(rows):
                _join_rows(g, runs, lv.id, y)

    def join(a: Node, b: Node) -> None:
        ra, rb = runs.run_of(*a), runs.run_of(*b)
        if ra is not None and rb is not None:
            g.add_edge(ra, rb)

    for kind in KINDS:  # ladders, turbo-lifts: every end joined to the first
        if kind.joins:
            for obj in items(m, kind):
                (_r, a), *rest = kind.ends(obj)
                for _r2, b in rest:
                    join((a.level, a.x, a.y), (b.level, b.x, b.y))
    for p in m.pitfalls:
        below = m.level_below(p.level)
        if below is not None:
            join((p.level, p.x, p.y), (below.id, p.x, p.y))
    rs = m.random_setup
    if rs is not None and any(c.kind in ("pitfall", "ladder") for c in rs.counters):
        # The counters fall at random each game: any zone square over floor may become a hole.
        zones = set(rs.zones)
        for lv in m.levels:
            below = m.level_below(lv.id)
            if below is None:
                continue
            for y, row in enumerate(lv.rows):
                for x, ch in enumerate(row):
                    if (lv.id, ch) in zones:
                        join((lv.id, x, y), (below.id, x, y))
    return g


def reach_issues(m: Mission) -> Iterator[Issue]:
    """Every entry area, exit, objective and chute must be reachable from some Marine's deployment square."""
    runs = Runs(m)
    g = movement_graph(m, runs)
    starts = [r for r in (runs.run_of(mm.level, mm.x, mm.y) for mm in m.marines.squad) if r is not None]
    if not starts:
        return
    reached: set[Run] = set()
    for s in starts:
        if s not in reached:
            reached |= nx.node_connected_component(g, s)

    def on_reached(lv: str, x: int, y: int) -> bool:
        return runs.run_of(lv, x, y) in reached

    def near(node: Node) -> bool:
        """A reached square is one step from a chute square: beside it, or diagonally past a gap in the walls."""
        lv, x, y = node
        return any(
            on_reached(lv, x + dx, y + dy) and (not (dx and dy) or runs.diagonal(lv, x, y, dx, dy))
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        )

    targets: list[tuple[str, str, str, Node, bool]] = []
    targets += [
        ("REACH-ENTRY", f"$.entry_areas[{i}]", f"entry area {e.id}", (e.level, e.x, e.y), False)
        for i, e in enumerate(m.entry_areas)
    ]
    targets += [
        ("REACH-EXIT", f"$.exits[{i}]", f"exit {e.id}", (e.level, e.x, e.y), False) for i, e in enumerate(m.exits)
    ]
    targets += [
        ("REACH-OBJECTIVE", f"$.objectives[{i}]", f"objective {o.id}", (o.level, o.x, o.y), False)
        for i, o in enumerate(m.objectives)
    ]
    targets += [
        ("REACH-CHUTE", f"$.chutes[{i}]", f"chute {c.id}", (c.level, c.x, c.y), True) for i, c in enumerate(m.chutes)
    ]
    for rule, path, name, node, is_chute in targets:
        lv = m.level(node[0])
        if lv is None or not lv.is_floor(node[1], node[2]):
            continue  # already reported as a misplaced feature
        ok = near(node) if is_chute else on_reached(*node)
        if not ok:
            yield Issue(
                rule,
                path,
                f"{name} cannot be reached from the Marine deployment, even with every door open",
                node[0],
                ((node[1], node[2]),),
            )
