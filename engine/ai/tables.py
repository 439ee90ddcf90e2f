"""Tables the AI players precompute once per mission and once per game: walking graphs and distance maps.

Everything here is plain lists of ints indexed by the rules engine's square numbers (engine.rules.board), so
a policy reads a distance with one list index. Graphs are built once per Game (static floor and doors) and
once per game's features (Pitfall draws its holes and ladders per game); distance maps come from a bucket
Dijkstra over small integer costs, which is several times cheaper than heapq on these boards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from engine.mission.diagonal import diagonal_step_allowed
from engine.rules.board import DIR_VEC, FACE_VEC, Board
from engine.rules.moves import JUMP_COST, PIT_CLIMB_COST, ladder_cost, link_steps

INF = 9999
# Extra cost of a square a Marine would rather not cross: a pitfall he may fall through (1 in 6).
PIT_RISK = 2
_MAX_CACHED = 16
# Whole-board lists the caches below may hold at once, in squares: each game's tables copy six of the board's
# graph lists and keep up to 24 distance maps. On the sample missions (1,500 squares at most) the usual cache
# sizes fit many times over; on the largest map (326,000 squares) the caches shrink instead of keeping a
# gigabyte of maps for games long over.
_CACHE_SQUARES = 4_000_000


Row = tuple[tuple[int, int], ...]


class Graph:
    """Adjacency `radj[s] = ((t, cost), ...)` split by cost for dijkstra's inner loop.

    `unit[s]`: the squares at cost 1 (nearly every step); `heavy[s]`: the other (t, cost) pairs, or None.
    """

    __slots__ = ("heavy", "unit")

    def __init__(self, unit: list[tuple[int, ...]], heavy: list[Row | None]) -> None:
        self.unit = unit
        self.heavy = heavy

    @staticmethod
    def split(row: Row) -> tuple[tuple[int, ...], Row | None]:
        """(unit, heavy) of one row."""
        unit = tuple([t for t, c in row if c == 1])
        return unit, None if len(unit) == len(row) else tuple([(t, c) for t, c in row if c != 1])

    @classmethod
    def of(cls, rows: list[Row]) -> Graph:
        """The Graph of plain rows."""
        parts = [cls.split(r) for r in rows]
        return cls([u for u, _ in parts], [h for _, h in parts])

    @classmethod
    def of_split(cls, parts: list[tuple[tuple[int, ...], Row | None]]) -> Graph:
        """The Graph of rows already split (unit, heavy)."""
        return cls([u for u, _ in parts], [h for _, h in parts])


def dijkstra(
    radj: Graph | list[Row],
    seeds: Iterable[tuple[int, int]],
    size: int,
    limit: int = INF,
    base: list[int] | None = None,
) -> list[int]:
    """Least cost from any seed (square, initial cost) to every square over `radj[t] = ((s, cost), ...)`.

    `radj` is a Graph, or plain rows (split on each call).

    Squares farther than `limit` keep INF (a threat map only needs the neighbourhood of the squad).
    `base`, a finished map over the same graph (and limit), adds its seeds: the result is the least of
    the two, and only the squares the new seeds improve are visited.
    """
    # Hot: ~25 maps a game. A finished map is a valid start: it already satisfies every edge, so only
    # improvements propagate.
    g = radj if isinstance(radj, Graph) else Graph.of(radj)
    m = LazyMap(g, seeds, size, limit, base)
    m.expand(INF)
    return m.dist


class LazyMap:
    """`dijkstra(g, seeds, size, limit, base)` worked out level by level, only as far as it is read.

    A bucket Dijkstra: the least costs are unique, so any exact shortest-path order gives the same map;
    cost-1 edges (nearly all) are relaxed in a tight loop into the next bucket, the rest generally. Exact at
    every stop: after the levels up to d are expanded, every square whose true cost is at most d + 1 holds
    it, and any other square holds more than d + 1 (a tentative cost is never below the true one).
    `value`, `within` and `toward` expand only the levels their answer needs.
    """

    __slots__ = ("_buckets", "_heavy", "_limit", "_next", "_top", "_unit", "dist")

    def __init__(
        self,
        g: Graph,
        seeds: Iterable[tuple[int, int]],
        size: int,
        limit: int = INF,
        base: list[int] | None = None,
    ) -> None:
        self._unit = g.unit
        self._heavy = g.heavy
        self._limit = limit
        dist = self.dist = list(base) if base is not None else [INF] * size
        # A few levels are often all that is asked for: the buckets grow 8 at a time.
        buckets: list[list[int]] = [[] for _ in range(8)]
        top = 0
        for s, c in seeds:
            if c < dist[s]:
                dist[s] = c
                while c >= len(buckets):
                    buckets.extend([] for _ in range(8))
                buckets[c].append(s)
                if c > top:
                    top = c
        # Every edge costs at least 1, so a square at `limit` pushes nothing: levels from `limit` on are idle.
        self._top = min(top, limit - 1)
        self._buckets = buckets
        self._next = 0  # the first level not expanded yet

    def expand(self, upto: int) -> None:
        """Expand the levels up to `upto` (INF: the whole map), resuming where the last call stopped."""
        d = self._next
        top = self._top
        if d > upto or d > top:
            return
        unit = self._unit
        heavy = self._heavy
        dist = self.dist
        buckets = self._buckets
        nb = len(buckets)
        limit = self._limit
        while d <= top and d <= upto:
            here = buckets[d]
            if here:
                n1 = d + 1
                if n1 >= nb:
                    buckets.extend([] for _ in range(8))
                    nb += 8
                nxt = buckets[n1]
                # An entry is stale when s was reached cheaper after it was queued here (only a dear edge queues
                # a square beyond the next level). It is expanded again rather than skipped: it was expanded at
                # its least cost already, so nothing relaxes now, and the rare redo costs less than testing
                # every square.
                for s in here:
                    for t in unit[s]:
                        if n1 < dist[t]:
                            dist[t] = n1
                            nxt.append(t)
                    h = heavy[s]
                    if h is not None:  # rare (doors, holes, rubble): out of the tight loop
                        top = self._relax_heavy(d, h, top)
                        nb = len(buckets)
                buckets[d] = []  # expanded for good: let the list go
                if nxt and n1 > top:
                    top = n1
                if top >= limit:
                    top = limit - 1
            d += 1
        self._next = d
        self._top = top

    def _relax_heavy(self, d: int, edges: Sequence[tuple[int, int]], top: int) -> int:
        """Queue what the dear edges out of a square at level `d` reach cheaper; returns the new top level."""
        dist = self.dist
        buckets = self._buckets
        for t, c in edges:
            nd = d + c
            if nd < dist[t] and nd <= self._limit:
                dist[t] = nd
                while nd >= len(buckets):
                    buckets.extend([] for _ in range(8))
                buckets[nd].append(t)
                if nd > top:
                    top = nd
        return top

    def value(self, s: int) -> int:
        """The cost at s (INF beyond the limit); afterwards every square cheaper than that holds its cost too."""
        dist = self.dist
        v = dist[s]
        if v > self._next and self._next <= self._top:
            # Once the levels up to v - 1 are expanded, every square of cost <= v holds it: so does s, whose
            # cost is at most v (or the map is complete).
            self.expand(v - 1)
            v = dist[s]
        return v

    @property
    def complete(self) -> bool:
        """Every level is expanded: each square holds its final cost (INF where no seed can be reached)."""
        return self._next > self._top

    def within(self, s: int, r: float) -> bool:
        """value(s) <= r, expanding only the levels below r."""
        v = self.dist[s]
        if v <= r:
            return True  # a tentative cost is never below the true one
        if r >= INF:
            return self.value(s) <= r
        if not r >= 0:
            return False  # no cost is negative (nor below NaN)
        k = math.floor(r)
        if k - 1 >= self._next:
            self.expand(k - 1)
            v = self.dist[s]
        return v <= r

    def toward(self, s: int, steps: Sequence[int]) -> int:
        """The first of the squares `steps` with the least cost below s's (-1 when none is cheaper)."""
        best_t, best_v = -1, self.value(s)
        dist = self.dist  # every square cheaper than s holds its cost now; the others are not picked
        for t in steps:
            v = dist[t]
            if v < best_v:
                best_t, best_v = t, v
        return best_t


def downhill(dist: Sequence[float], steps: Sequence[int], s: int) -> int:
    """The first of the squares `steps` (s's neighbours) with the least cost below s's on the map `dist`; -1
    when none is cheaper. A step down a distance map, the walk every greedy path here takes."""
    best_t, best_v = -1, dist[s]
    for t in steps:
        v = dist[t]
        if v < best_v:
            best_t, best_v = t, v
    return best_t


def _static_steps(b: Board) -> list[tuple[int, ...]]:
    """For each floor square, the squares one step away (a diagonal needs one of its two sides open)."""
    out: list[tuple[int, ...]] = [()] * b.size
    for s in range(b.size):
        if not b.floor[s]:
            continue
        # (Any: compiled code then stores the Board's own int objects in the rows, not new ones; board.SharedInts)
        nb: tuple[Any, ...] = b.nbr[s]
        row = []
        for d in range(8):
            t = nb[d]
            if t < 0:
                continue
            if d % 2 and not diagonal_step_allowed(nb[d - 1] < 0, nb[(d + 1) % 8] < 0):
                continue
            row.append(t)
        # A square with floor all round (most of an open level's) steps to its 8 neighbours in direction order:
        # the Board's own row then serves, rather than a copy per square (tens of MB on the largest map).
        out[s] = nb if len(row) == 8 else tuple(row)
    return out


def cache_caps(size: int) -> tuple[int, int]:
    """(games' tables, Genestealer maps per game) kept at once on a board of `size` squares: 16 and 24, fewer
    on a big board. A game's tables hold about 14 whole-board lists (six graph copies, its maps)."""
    games = max(2, min(_MAX_CACHED, _CACHE_SQUARES // (14 * max(1, size))))
    return games, max(4, min(24, _CACHE_SQUARES // (4 * max(1, size))))


class _SquareRows(dict[int, Any]):
    """Rows by square, each worked out the first time it is read: the players read those of the squares their
    pieces stand on and next to, a small part of a big board. Reads of a known row cost a plain dict lookup."""

    def __init__(self, make: Any) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, s: int) -> Any:
        row = self[s] = self._make(s)
        return row


class MissionTables:
    """Per-Game data: the static step graph, same-level distances (lazy), and the mission's goal."""

    def __init__(self, game: Any) -> None:
        self.game = game
        b: Board = game.board
        self.board = b
        self.size = b.size
        self.steps = _static_steps(b)
        steps = self.steps
        # `steps` with each step's direction index (N NE E SE S SW W NW): (t, d) pairs in the same order.
        dir_of = {v: i for i, v in enumerate(DIR_VEC)}
        self.step_dirs: dict[int, tuple[tuple[int, int], ...]] = _SquareRows(
            lambda s: tuple((t, dir_of[direction(b, s, t)]) for t in steps[s]))
        self.door_squares = frozenset(b.door_at)
        # b.doors_near(s, -1): the doors a blip on s may open.
        self.blip_doors: dict[int, tuple[tuple[str, int], ...]] = _SquareRows(lambda s: b.doors_near(s, -1))
        self.goal = _read_goal(game)
        doors = self.door_squares
        # The graphs' rows: entering a door costs 2, any other square 1. Steps are symmetric (same level, same
        # diagonal rule), so entering t from each neighbour costs t's price. A row with no door in it is the
        # steps tuple itself (most rows), shared rather than copied.
        self.base_fwd = Graph.of_split([_priced(steps[s], doors) for s in range(self.size)])
        self.base_rev = Graph.of_split([_same_price(steps[t], 2 if t in doors else 1) for t in range(self.size)])
        self._by_feat: dict[int, tuple[Any, GameTables]] = {}
        self._cached, self.maps_cached = cache_caps(self.size)

    @property
    def rev_rows(self) -> list[Row]:
        """Row t: (s, cost) of each step into t (built on demand; the graph is base_rev)."""
        doors = self.door_squares
        return [tuple((s, 2 if t in doors else 1) for s in self.steps[t]) for t in range(self.size)]

    def for_state(self, state: Any) -> GameTables:
        """The tables of the game `state` belongs to (cached on its features object, shared by copies)."""
        feat = state.feat
        hit = self._by_feat.get(id(feat))
        if hit is not None and hit[0] is feat:
            return hit[1]
        if len(self._by_feat) >= self._cached:
            self._by_feat.clear()
        gt = GameTables(self, feat)
        self._by_feat[id(feat)] = (feat, gt)
        return gt


# A graph split into its unit-cost rows and its dearer steps (Graph.split).
_Split = tuple[list[tuple[int, ...]], list[Row | None]]


class GameTables:
    """Per-game graphs (this game's holes and ladders) and the Marines' distance-to-goal maps."""

    def __init__(self, mt: MissionTables, feat: Any) -> None:
        self.mt = mt
        self.feat = feat
        pf = bool(mt.game.pf_ladders)
        steps = mt.steps
        doors = mt.door_squares
        rubble = feat.rubble
        pits = feat.pit_down

        # Start from the mission's graph and patch only the rows this game's counters change, split into
        # (unit, heavy) directly. Rubble makes a square dearer to enter for everyone, a pitfall for a Marine
        # only; a row into square t (rev) costs t's price throughout, a row out of s (fwd) each step's own.
        fu, fh = mt.base_fwd.unit.copy(), mt.base_fwd.heavy.copy()
        ru, rh = mt.base_rev.unit.copy(), mt.base_rev.heavy.copy()
        mu, mh = mt.base_rev.unit.copy(), mt.base_rev.heavy.copy()
        for t in rubble:
            ru[t], rh[t] = _same_price(steps[t], 2 + (t in doors))
        for t in set(rubble) | set(pits):
            mu[t], mh[t] = _same_price(steps[t], 1 + (t in rubble) + (t in doors) + (PIT_RISK if t in pits else 0))
        for s in {s for t in rubble for s in steps[t]}:
            unit: list[int] = []
            heavy: list[tuple[int, int]] = []
            for u in steps[s]:
                c = 1 + (u in rubble) + (u in doors)
                if c == 1:
                    unit.append(u)
                else:
                    heavy.append((u, c))
            fu[s], fh[s] = tuple(unit), tuple(heavy) if heavy else None
        self.link_dest = _link_levels((fu, fh), (ru, rh), (mu, mh), feat, pf)
        # Where a climb or jump from s leads: up or down a ladder, else up or down a hole (-1: a bottomless one).
        self.hole_dest: dict[int, int] = {**pits, **feat.pit_up, **feat.ladder}
        # Where a jump from s lands, for the squares the rules may offer one from (Movement.hole_moves): down
        # a pitfall that has a floor below, or (pf_ladders) down a ladder from its top. Any other jump is never legal.
        jump = {s: t for s, t in pits.items() if t >= 0}
        if pf:
            for s in feat.ladder_top:
                if s not in pits and feat.ladder[s] >= 0:
                    jump[s] = feat.ladder[s]
        self.jump_dest = jump
        self.fwd = Graph(fu, fh)
        self.rev = Graph(ru, rh)
        self.marine_rev = Graph(mu, mh)
        self._goal_maps: dict[Any, list[int]] = {}
        self._dyn: dict[Any, list[int]] = {}

    def marine_goal_map(self, key: Any, squares: Iterable[int]) -> list[int]:
        """Marine walking cost from every square to the nearest of `squares` (cached under `key`)."""
        m = self._goal_maps.get(key)
        if m is None:
            m = dijkstra(self.marine_rev, ((s, 0) for s in squares), self.mt.size)
            self._goal_maps[key] = m
        return m

    def cached_goal_map(self, key: Any) -> list[int] | None:
        """The goal map already built under `key`, or None."""
        return self._goal_maps.get(key)

    def _keep(self, key: Any, m: list[int]) -> list[int]:
        """File map m under `key` in the small cache of Genestealer maps (emptied past mt.maps_cached: 24 but on
        the biggest boards)."""
        if len(self._dyn) > self.mt.maps_cached:
            self._dyn.clear()
        self._dyn[key] = m
        return m

    def to_seeds(self, key: Any, seeds: list[tuple[int, int]]) -> list[int]:
        """Genestealer cost from every square to reach one of the seeds (cached under `key`, small LRU)."""
        m = self._dyn.get(key)
        return m if m is not None else self._keep(key, dijkstra(self.rev, seeds, self.mt.size))

    def to_seeds_lazy(self, key: Any, seeds: list[tuple[int, int]]) -> LazyMap:
        """to_seeds(key, seeds) as a LazyMap (complete already when that map is cached); finish_map files it."""
        m = self._dyn.get(key)
        if m is not None:
            return LazyMap(self.rev, (), self.mt.size, base=m)  # nothing to expand: the finished map's copy
        return LazyMap(self.rev, seeds, self.mt.size)

    def finish_map(self, key: Any, lazy: LazyMap) -> list[int]:
        """to_seeds(key, seeds) given `lazy` = to_seeds_lazy(key, seeds), partly expanded or not."""
        m = self._dyn.get(key)
        if m is None:
            lazy.expand(INF)
            m = self._keep(key, lazy.dist)
        return m

    def to_seeds_over(self, key: Any, base: list[int], seeds: list[tuple[int, int]]) -> list[int]:
        """Like to_seeds for `base`'s seeds plus `seeds`, given `base` = to_seeds of the former."""
        m = self._dyn.get(key)
        return m if m is not None else self._keep(key, dijkstra(self.rev, seeds, self.mt.size, base=base))


def _priced(dests: tuple[int, ...], doors: frozenset[int]) -> tuple[tuple[int, ...], Row | None]:
    """Graph.split of the row ((t, 2 if t is a door else 1) for t in dests)."""
    if not any(t in doors for t in dests):
        return dests, None
    return Graph.split(tuple((t, 2 if t in doors else 1) for t in dests))


def _same_price(srcs: tuple[int, ...], c: int) -> tuple[tuple[int, ...], Row | None]:
    """Graph.split of the row ((s, c) for s in srcs)."""
    if c == 1 or not srcs:
        return srcs, None
    return (), tuple([(s, c) for s in srcs])


def _link_levels(fwd: _Split, rev: _Split, marine_rev: _Split, feat: Any, pf: bool) -> dict[int, tuple[int, ...]]:
    """Add the steps between levels, after each row's own steps: ladders, links (turbo-lifts) and holes, at the
    rules' own costs (a Genestealer's climb and drop; a Marine's climb, plus the turn he usually needs on landing).
    Returns where a link (a lift's ride) from each of its squares leads."""
    fu, fh = fwd
    ru, rh = rev
    mu, mh = marine_rev
    lc = ladder_cost("stealer", pf)
    mlc = ladder_cost("marine", pf) + 1
    for s, t in feat.ladder.items():
        _add_step(fu, fh, s, t, lc)
        _add_step(ru, rh, t, s, lc)
        _add_step(mu, mh, t, s, mlc)
    # Links (turbo-lifts): from each square of the feature to each other one, the same cost for every piece.
    link_dest: dict[int, tuple[int, ...]] = {}
    for s, ends in link_steps(feat).items():
        for t, c in ends:
            _add_step(fu, fh, s, t, c)
            _add_step(ru, rh, t, s, c)
            _add_step(mu, mh, t, s, c)
        link_dest[s] = tuple(t for t, _c in ends)
    for top, below in feat.pit_down.items():
        if below >= 0:
            _add_step(fu, fh, top, below, JUMP_COST)
            _add_step(fu, fh, below, top, PIT_CLIMB_COST)
            _add_step(ru, rh, below, top, JUMP_COST)
            _add_step(ru, rh, top, below, PIT_CLIMB_COST)
    return link_dest


def _add_step(unit: list[tuple[int, ...]], heavy: list[Row | None], s: int, t: int, c: int) -> None:
    """Append the step (t, c) to row s of a split graph (as Graph.split of the longer row would have it)."""
    if c == 1:
        unit[s] += (t,)
    else:
        heavy[s] = (heavy[s] or ()) + ((t, c),)


class Goal:
    """What the Marines must do, read from the mission's victory conditions."""

    def __init__(self) -> None:
        self.kind = "survive"  # escape | carry | flame | survive
        self.via: tuple[str, ...] = ()
        self.escapes = 1  # escape: how many Marines must get out to win
        self.objective = ""
        self.exit_squares: list[int] = []
        self.flame_key: tuple[int, str] | None = None
        self.flame_squares: list[int] = []
        self.turn_limit: int | None = None


def _escapes_to_win(cond: dict[str, Any]) -> int:
    """How many Marines an escape condition needs out to win (at least one)."""
    return max(1, int(cond.get("win_at") or 1))


def _read_goal(game: Any) -> Goal:
    b: Board = game.board
    m = game.mission
    g = Goal()
    for cond in game.victory:
        kind = cond.get("kind")
        if kind == "turn_limit" and cond.get("result", "genestealers") == "genestealers":
            g.turn_limit = int(cond["turn"])
    for cond in game.victory:
        kind = cond.get("kind")
        if kind == "escape":
            g.kind = "escape"
            g.via = tuple(cond.get("via") or ("exit", "chute"))
            g.escapes = _escapes_to_win(cond)
            break
        if kind == "objective_carried":
            g.kind = "carry"
            g.objective = str(cond["objective"])
            to = cond.get("to")
            if isinstance(to, dict) and "exit" in to:
                g.exit_squares = [sq for sq, eid in b.exit_at.items() if eid == to["exit"]]
            elif isinstance(to, dict):
                g.exit_squares = [b.sq_of(str(to["level"]), int(to["x"]), int(to["y"]))]
            else:
                g.exit_squares = list(b.exit_at)
            break
        if kind in ("section_flamed", "objective_flamed"):
            g.kind = "flame"
            if kind == "section_flamed":
                li = b.level_index.get(str(cond["level"]), -1)
                key = (li, str(cond["section"]))
            else:
                o = next((o for o in m.objectives if o.id == cond["objective"]), None)
                if o is None:
                    continue
                s = b.sq_of(o.level, o.x, o.y)
                key = (s // b.plane, str(b.section[s]))
            g.flame_key = key
            g.flame_squares = list(b.sections.get(key, ()))
            break
    if g.kind == "escape" and "exit" in g.via:
        g.exit_squares = list(b.exit_at)
    return g


_MISSIONS: dict[int, tuple[Any, MissionTables]] = {}


def tables(game: Any) -> MissionTables:
    """The MissionTables of `game`, built on first use and kept for the life of the process."""
    hit = _MISSIONS.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    if len(_MISSIONS) >= _MAX_CACHED:
        _MISSIONS.clear()
    mt = MissionTables(game)
    _MISSIONS[id(game)] = (game, mt)
    return mt


def direction(b: Board, s: int, t: int) -> tuple[int, int]:
    """Unit step (dx, dy) from s toward t on one level (signs only)."""
    w = b.W
    dx = t % w - s % w
    dy = (t % b.plane) // w - (s % b.plane) // w
    return (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)


def facing_toward(b: Board, s: int, t: int, prefer: int = -1) -> int:
    """The facing (0 N, 1 E, 2 S, 3 W) that best points from s at t; ties go to `prefer`, then the longer axis."""
    w = b.W
    dx = t % w - s % w
    dy = (t % b.plane) // w - (s % b.plane) // w
    best, score = 0, -(10**9)
    for f in range(4):
        fx, fy = FACE_VEC[f]
        v = (dx * fx + dy * fy) * 4 + (1 if f == prefer else 0)
        if v > score:
            best, score = f, v
    return best
