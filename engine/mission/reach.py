"""Reachability across levels with networkx: entry areas, exits, objectives and chutes from the deployment."""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx

from engine.mission.issues import Issue
from engine.mission.model import Mission

Node = tuple[str, int, int]
STEPS = ((1, 0), (0, 1), (1, 1), (1, -1))


def movement_graph(m: Mission) -> nx.Graph:
    """Floor squares joined as models move, doors counted as passable; ladders and holes join levels.

    Chute squares are left out: a model entering one leaves play, so a chute is reached but never crossed.
    Holes join both ways because Genestealers climb up through pitfalls.
    """
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
                    # A diagonal step is barred only when both squares it squeezes between are walls.
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
        # The counters fall at random each game: any zone square over floor may become a hole.
        zones = set(rs.zones)
        for lv in m.levels:
            below = m.level_below(lv.id)
            if below is None:
                continue
            for y, row in enumerate(lv.rows):
                for x, ch in enumerate(row):
                    if (lv.id, ch) in zones and (lv.id, x, y) in g and (below.id, x, y) in g:
                        g.add_edge((lv.id, x, y), (below.id, x, y))
    return g


def reach_issues(m: Mission) -> Iterator[Issue]:
    """Every entry area, exit, objective and chute must be reachable from some Marine's deployment square."""
    g = movement_graph(m)
    starts = [(mm.level, mm.x, mm.y) for mm in m.marines.squad if (mm.level, mm.x, mm.y) in g]
    if not starts:
        return
    reached: set[Node] = set()
    for s in starts:
        if s not in reached:
            reached |= nx.node_connected_component(g, s)

    def near(node: Node) -> bool:
        lv, x, y = node
        return any((lv, x + dx, y + dy) in reached for dx in (-1, 0, 1) for dy in (-1, 0, 1))

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
        ok = near(node) if is_chute else node in reached
        if not ok:
            yield Issue(
                rule,
                path,
                f"{name} cannot be reached from the Marine deployment, even with every door open",
                node[0],
                ((node[1], node[2]),),
            )
