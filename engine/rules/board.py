"""Per-mission precomputed tables: square indices, neighbours, sections, features and LOS lines."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator
from typing import Any

from engine.mission.model import Mission
from engine.rules.views import Line, OpenView, View

__all__ = ["DIR_INDEX", "DIR_NAMES", "DIR_VEC", "FACE_INDEX", "FACE_NAMES", "FACE_VEC", "Board", "Line", "View"]

# Directions in actions.DIRS order: N NE E SE S SW W NW.
DIR_VEC: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIR_INDEX = {n: i for i, n in enumerate(DIR_NAMES)}
FACE_NAMES = ("N", "E", "S", "W")
FACE_INDEX = {n: i for i, n in enumerate(FACE_NAMES)}
FACE_VEC: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))

# What a Board keeps of the lines of sight it works out, counted in pointers (each square of a line is one, a
# line's key and slot in its dict a few more): views (every line from one square across its front arc), single
# lines, and line shapes. The sample missions stay far below every budget (Pitfall, 100 games: about 17,000,
# 2,500 and 16,000), so nothing changes there. On the largest map a view of an open 200x200 level holds about
# a million squares (about 9 MB), and keeping every view ever drawn grew a batch worker past 8 GB. Past its
# budget, the oldest views go first; the single lines start again; new shapes are walked, not kept. Five views
# of such a level fit (about 50 MB), the single lines about 20 MB, the shapes about 10 MB: a batch worker on
# that map stays under 300 MB, and every sample mission still keeps all it ever draws.
VIEW_CACHE_SQUARES = 5_000_000
VIEW_ENTRY_COST = 4
LINE_CACHE_SQUARES = 2_000_000
LINE_ENTRY_COST = 10
PATTERN_CACHE_SQUARES = 1_000_000
# Views of arcs up to this many squares are drawn whole (a dict: every sample mission's are, at most
# ~700); larger ones are OpenViews, answered square by square. What the Board keeps of an OpenView, in pointers.
DRAWN_ARC_SQUARES = 1_024
OPEN_VIEW_COST = 12
# The shared int objects the tables take their square numbers (and line offsets) from: typed Any because compiled
# code (mypyc) keeps an `int` it reads from a list unboxed and boxes it anew where it stores it, one object per
# entry of every table; an Any is handed on as the object it is.
SharedInts = list[Any]

class Board:
    """Square index tables for one mission; squares are ints: level_index * W * H + y * W + x."""

    def __init__(self, mission: Mission) -> None:
        self.mission = mission
        self._arc_cache: dict[tuple[int, int, int], tuple[int, ...]] = {}
        self.level_ids = [lv.id for lv in mission.levels]
        self.level_index = {lid: i for i, lid in enumerate(self.level_ids)}
        self.W = max((lv.width for lv in mission.levels), default=1) + 2
        self.H = max((lv.height for lv in mission.levels), default=1) + 2
        self.plane = self.W * self.H
        n = self.plane * len(mission.levels)
        self.size = n
        # One int object per square number, shared by every table that holds squares: on a big map the tables
        # hold millions of square numbers, and each computed one would otherwise be an object of its own.
        ints: SharedInts = list(range(n))
        self._ints = ints
        # Likewise for the offsets of the line shapes: from -(plane + W) to plane + W.
        self._offs_zero = self.plane + self.W
        self._offs: SharedInts = list(range(-self._offs_zero, self._offs_zero + 1))
        self.floor = bytearray(n)
        self.section: list[str | None] = [None] * n
        self.sections: dict[tuple[int, str], tuple[int, ...]] = {}
        sec_lists: dict[tuple[int, str], list[int]] = {}
        for li, lv in enumerate(mission.levels):
            for y in range(lv.height):
                for x in range(lv.width):
                    if lv.is_floor(x, y):
                        s = self.sq(li, x, y)
                        self.floor[s] = 1
                        code = lv.section_of(x, y)
                        # Unsectioned floor squares are each their own one-square section.
                        key = code if code is not None else f".{x},{y}"
                        self.section[s] = key
                        sec_lists.setdefault((li, key), []).append(ints[s])
        self.sections = {k: tuple(v) for k, v in sec_lists.items()}
        self.xs = [(s % self.plane) % self.W for s in range(n)]
        self.ys = [(s % self.plane) // self.W for s in range(n)]
        self.nbr: list[tuple[int, ...]] = [(-1,) * 8] * n
        for s in range(n):
            if not self.floor[s]:
                continue
            li, x, y = self.lxy(s)
            row = []
            for dx, dy in DIR_VEC:
                t = self.sq_or_none(li, x + dx, y + dy)
                row.append(ints[t] if t is not None and self.floor[t] else -1)
            self.nbr[s] = tuple(row)
        self.doors = {d.id: self.sq_of(d.level, d.x, d.y) for d in mission.doors}
        self.door_at = {sq: did for did, sq in self.doors.items()}
        self.door_kind = {d.id: d.kind for d in mission.doors}
        self.entries = {e.id: self.sq_of(e.level, e.x, e.y) for e in mission.entry_areas}
        # A Genestealer stepping in from an entry area faces away from the board edge it came from.
        self.entry_facing = {e.id: (FACE_INDEX[e.side] + 2) % 4 for e in mission.entry_areas}
        self.exit_at = {self.sq_of(e.level, e.x, e.y): e.id for e in mission.exits}
        # Boarding torpedoes: each ramp's square, and the facing of a Marine coming out (away from the torpedo).
        self.ramps = {t.id: self.sq_of(t.level, t.x, t.y) for t in mission.torpedoes}
        self.ramp_facing = {t.id: (FACE_INDEX[t.side] + 2) % 4 for t in mission.torpedoes}
        self.ramp_at = {sq: tid for tid, sq in self.ramps.items()}
        self.deploy = {self.sq_of(m.level, m.x, m.y) for m in mission.marines.squad}
        self._lines: dict[int, Line] = {}
        self._held = 0  # what the single lines hold (LINE_CACHE_SQUARES), since the cache last started again
        self._patterns: dict[tuple[int, int], tuple[int | tuple[int, int], ...]] = {}
        self._pattern_held = 0
        # Views and wide views by s * 4 + facing; the pointers each holds by the same key (~key for a wide one),
        # oldest first. (The rules' sight reads _views and _wide directly.)
        self._views: dict[int, View] = {}
        self._wide: dict[int, View] = {}
        self.drawn_arc_squares = DRAWN_ARC_SQUARES  # (a test may set it to 0: every view then an OpenView)
        self._view_sizes: dict[int, int] = {}
        self._view_held = 0
        self._door_near: dict[int, tuple[tuple[str, int], ...]] = {}
        self.below_memo: dict[int, int] = {}  # square -> the square directly below it (-1: none); features.py
        self.psi_memo: dict[int, Any] = {}  # square -> what the Archivist's powers may target from it (psychic.py)
        # Pitfall random set-up: the squares each zone section offers before this game's counters (features.py)
        self.setup_candidates: dict[tuple[int, str], tuple[tuple[int, int, tuple[int, ...]], ...]] | None = None
        self._square_keys: tuple[dict[int, tuple[str, int, int]], array[int]] | None = None  # square_keys()

    # -- squares ------------------------------------------------------------------------------------
    def sq(self, li: int, x: int, y: int) -> int:
        return li * self.plane + (y + 1) * self.W + (x + 1)

    def sq_or_none(self, li: int, x: int, y: int) -> int | None:
        if -1 <= x < self.W - 1 and -1 <= y < self.H - 1:
            return self.sq(li, x, y)
        return None

    def sq_of(self, level: str, x: int, y: int) -> int:
        return self.sq(self.level_index[level], x, y)

    def lxy(self, s: int) -> tuple[int, int, int]:
        li, r = divmod(s, self.plane)
        yy, xx = divmod(r, self.W)
        return li, xx - 1, yy - 1

    def square_keys(self) -> tuple[dict[int, tuple[str, int, int]], array[int]]:
        """(level id, x, y) of each square (lxy with the level's id, worked out when first read), and a number per
        square that sorts the squares as those keys do (levels in id order, then x, then y), by square number:
        every game's statistics read them for the squares its Genestealers entered. The sort numbers are one
        compact array per Board, the keys only those read (on the largest map a tuple per square is 23 MB)."""
        keys = self._square_keys
        if keys is None:
            by_id = sorted(range(len(self.level_ids)), key=self.level_ids.__getitem__)
            w, h, plane = self.W, self.H, self.plane
            order = array("i", bytes(4 * self.size))
            for pos, li in enumerate(by_id):
                # Square li * plane + yy * W + xx sorts as (pos, xx, yy): xx * H + yy within the level's block.
                block = pos * plane
                for yy in range(h):
                    row = li * plane + yy * w
                    order[row:row + w] = array("i", range(block + yy, block + yy + w * h, h))
            keys = self._square_keys = (_SquareNames(self), order)
        return keys

    def name(self, s: int) -> str:
        li, x, y = self.lxy(s)
        return f"{self.level_ids[li]}:{x},{y}"

    def parse_sq(self, text: str) -> int:
        try:
            level, xy = text.split(":")
            xs, ys = xy.split(",")
            s = self.sq_of(level, int(xs), int(ys))
        except (ValueError, KeyError) as exc:
            raise ValueError(f"bad square {text!r}") from exc
        if not self.floor[s]:
            raise ValueError(f"square {text!r} is not floor")
        return s

    def section_squares(self, s: int) -> tuple[int, ...]:
        code = self.section[s]
        return self.sections[(s // self.plane, code)] if code is not None else ()

    @staticmethod
    def dist(a: int, b: int, w: int) -> int:
        ay, ax = divmod(a, w)
        by, bx = divmod(b, w)
        return max(abs(ax - bx), abs(ay - by))

    def rng(self, a: int, b: int) -> int:
        """Range in squares on one level (Chebyshev: count the target square, not the viewer's)."""
        xs, ys = self.xs, self.ys  # (a % plane) % W and (a % plane) // W, tabulated
        return max(abs(xs[a] - xs[b]), abs(ys[a] - ys[b]))

    def in_arc(self, viewer: int, facing: int, target: int) -> bool:
        """Target within the viewer's front 90° arc on the same level."""
        if viewer // self.plane != target // self.plane or viewer == target:
            return False
        w = self.W
        dx = target % w - viewer % w
        dy = (target % self.plane) // w - (viewer % self.plane) // w
        if facing == 0:
            return dy < 0 and abs(dx) <= -dy
        if facing == 1:
            return dx > 0 and abs(dy) <= dx
        if facing == 2:
            return dy > 0 and abs(dx) <= dy
        return dx < 0 and abs(dy) <= -dx

    def static_view(self, s: int, facing: int) -> View:
        """Squares in s's front arc (facing) whose line of sight is not blocked by walls alone -> that line: drawn
        whole for a small arc, answered square by square for a large one (views.py)."""
        key = s * 4 + facing
        out = self._views.get(key)
        if out is None:
            if self.plane <= self.drawn_arc_squares or self.arc_area(s, facing) <= self.drawn_arc_squares:
                # (a level no larger than that has no larger arc: its arcs are not even measured)
                out, held = self._arc_view(s, facing)
            else:
                out, held = OpenView(self, s, facing, wide=False), OPEN_VIEW_COST
            self._keep_view(key, out, held)
        return out

    def arc_area(self, s: int, facing: int) -> int:
        """Squares of the board (floor or not) in s's front arc (facing) on its level."""
        return sum([past - first for first, past in self._arc_runs(s, facing)])

    def _arc_runs(self, s: int, facing: int) -> list[tuple[int, int]]:
        """The arc's squares row by row, as ranges (first, past the last) of square numbers, rows in order:
        in_arc's test for each facing as a run of columns of each row (dy rows from s: |dx| <= |dy| to the
        front, or |dy| <= dx to the sides)."""
        w, h = self.W, self.H
        base = s - s % self.plane
        sy, sx = divmod(s - base, w)
        rows = range(base, base + h * w, w)  # each row's first square
        if facing == 0:
            return [(row + max(sx - sy + y, 0), row + min(sx + sy - y, w - 1) + 1) for y, row in enumerate(rows[:sy])]
        if facing == 2:
            return [(row + max(sx - y + sy, 0), row + min(sx + y - sy, w - 1) + 1)
                    for y, row in enumerate(rows[sy + 1:], sy + 1)]
        if facing == 1:
            return [(row + lo, row + w) for y, row in enumerate(rows) if (lo := sx + (abs(y - sy) or 1)) < w]
        return [(row, row + hi + 1) for y, row in enumerate(rows) if (hi := sx - (abs(y - sy) or 1)) >= 0]

    def arc_within(self, s: int, facing: int, rng: int) -> tuple[int, ...]:
        """The squares of s's walls-only view (static_view) within rng squares of s, nearest first (then in
        square order): a drawn view's squares are filtered, an open view's arc is visited within range only."""
        view = self.static_view(s, facing)
        w, plane = self.W, self.plane
        base = s - s % plane
        sy, sx = divmod(s - base, w)
        if isinstance(view, OpenView):
            x0, x1 = max(sx - rng, 0), min(sx + rng, w - 1)
            get = view.get
            squares: Iterable[int] = [t for y in range(max(sy - rng, 0), min(sy + rng, self.H - 1) + 1)
                                      for t in range(base + y * w + x0, base + y * w + x1 + 1) if get(t) is not None]
        else:
            squares = view
        xs, ys = self.xs, self.ys
        found = [(d, t) for t in squares if (d := max(abs(xs[t] - sx), abs(ys[t] - sy))) <= rng]
        found.sort()
        return tuple(t for _d, t in found)

    def _keep_view(self, key: int, view: View, held: int) -> None:
        """Keep a view (a wide one under ~key) that holds `held` pointers, dropping the oldest views (static and
        wide alike) that nobody else holds while the budget would be passed."""
        sizes = self._view_sizes
        if self._view_held + held > VIEW_CACHE_SQUARES:
            for old in list(sizes):
                table, k = (self._views, old) if old >= 0 else (self._wide, ~old)
                # A view the rules hold too (the sight of a Marine's pose, for the rest of the game) would only
                # be worked out again if dropped here: it frees nothing until they let it go.
                if _refcount(table[k]) > 2:
                    continue
                del table[k]
                self._view_held -= sizes.pop(old)
                if self._view_held + held <= VIEW_CACHE_SQUARES:
                    break
        if key >= 0:
            self._views[key] = view
        else:
            self._wide[~key] = view
        sizes[key] = held
        self._view_held += held

    def _arc_view(self, s: int, facing: int) -> tuple[dict[int, Line], int]:
        """static_view's table drawn whole: the floor squares t with in_arc(s, facing, t) and a line, in square
        order, and the pointers it holds. Only the arc is visited (a run of columns per row). Its lines are kept
        with the view, not in the single-line cache."""
        floor = self.floor
        lines, compute, key0, ints = self._lines, self._compute_line, s * self.size, self._ints
        held = 0
        out: dict[int, Line] = {}
        for first, past in self._arc_runs(s, facing):
            for t in range(first, past):
                if floor[t]:
                    ln = lines.get(key0 + t, _UNSET)  # line(s, t), inlined
                    if ln is _UNSET:
                        ln = compute(s, t)
                    if ln is not None:
                        out[ints[t]] = ln  # type: ignore[assignment]
                        held += VIEW_ENTRY_COST + len(ln)  # type: ignore[arg-type]
        return out, held

    def doors_near(self, s: int, facing: int) -> tuple[tuple[str, int], ...]:
        """(door id, square) a piece on s may open or close: among its three front squares, or for a blip
        (facing -1) any adjacent square."""
        key = s * 5 + facing + 1
        out = self._door_near.get(key)
        if out is None:
            nb = self.nbr[s]
            f = facing * 2
            dirs = range(8) if facing < 0 else ((f - 1) % 8, f, (f + 1) % 8)
            out = tuple((self.door_at[nb[d]], nb[d]) for d in dirs if nb[d] >= 0 and nb[d] in self.door_at)
            self._door_near[key] = out
        return out

    def wide_view(self, s: int, facing: int) -> View:
        """[2e] static_view widened to the sides (everything but the rear arc): how Marines spot blips."""
        key = s * 4 + facing
        out = self._wide.get(key)
        if out is None:
            base = s - s % self.plane
            back = (facing + 2) % 4
            front = self.static_view(s, facing)
            limit = self.drawn_arc_squares  # (a level no larger has no larger view: its views are not measured)
            if isinstance(front, OpenView) or (self.plane > limit and self.plane - self.arc_area(s, back) > limit):
                out = OpenView(self, s, facing, wide=True)
                self._keep_view(~key, out, OPEN_VIEW_COST)
                return out
            drawn = dict(front)
            for t in range(base, base + self.plane):
                if self.floor[t] and t != s and t not in drawn and not self.in_arc(s, back, t):
                    line = self.line(s, t)
                    if line is not None:
                        drawn[self._ints[t]] = line
            out = drawn
            self._keep_view(~key, out, sum(VIEW_ENTRY_COST + len(ln) for ln in drawn.values() if ln is not None))
        return out

    # -- lines of sight -------------------------------------------------------------------------------
    def line(self, a: int, b: int) -> Line:
        key = a * self.size + b
        out = self._lines.get(key, _UNSET)
        if out is _UNSET:
            if self._held > LINE_CACHE_SQUARES:  # the budget is spent: start again
                self._lines.clear()
                self._held = 0
            out = self._lines[key] = self._compute_line(a, b)
            self._held += LINE_ENTRY_COST + (len(out) if out is not None else 0)
        return out  # type: ignore[return-value]

    def _compute_line(self, a: int, b: int) -> Line:
        if a // self.plane != b // self.plane:
            return None
        w = self.W
        dx, dy = b % w - a % w, (b % self.plane) // w - (a % self.plane) // w
        pattern: Iterable[int | tuple[int, int]] | None = self._patterns.get((dx, dy))
        if pattern is None:
            steps = _line_steps(dx, dy, w, self._offs, self._offs_zero)
            if self._pattern_held < PATTERN_CACHE_SQUARES:
                pattern = self._patterns[(dx, dy)] = tuple(steps)
                self._pattern_held += len(pattern)
            else:  # budget spent: walk this line's shape as far as its first wall, keep nothing
                pattern = steps
        # The pattern's squares are offsets from a; which of them are walls decides the line (as _line_checks).
        floor, ints = self.floor, self._ints
        checks: list[int | tuple[int, int]] = []
        for step in pattern:
            if type(step) is int:
                c = a + step
                if not floor[c]:
                    return None
                checks.append(ints[c])
            else:
                p, q = a + step[0], a + step[1]  # type: ignore[index]
                pw, qw = not floor[p], not floor[q]
                if pw and qw:
                    return None
                if pw:
                    checks.append(ints[q])
                elif qw:
                    checks.append(ints[p])
                else:
                    checks.append((ints[p], ints[q]))
        return tuple(checks)


class _SquareNames(dict[int, tuple[str, int, int]]):
    """Square -> (level id, x, y), each worked out the first time it is read (Board.square_keys)."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self._board = board

    def __missing__(self, s: int) -> tuple[str, int, int]:
        b = self._board
        li, x, y = b.lxy(s)
        key = self[s] = (b.level_ids[li], x, y)
        return key


_UNSET: object = object()
# References to an object, counting the call's own (CPython); elsewhere every view counts as unshared.
_refcount: Any = getattr(sys, "getrefcount", lambda _obj: 2)


def _line_steps(dx: int, dy: int, w: int, offs: SharedInts, zero: int) -> Iterator[int | tuple[int, int]]:
    """The squares a line from a square to one dx columns and dy rows away passes through, as offsets from its
    start on a board w squares wide, in order: an int is a square, a pair the two squares beside a corner the line
    passes exactly through (the end square itself is left out). The same for every start square, so a Board keeps
    them per (dx, dy) while its budget lasts; the walls are checked per line (Board._compute_line). Offset v is
    the shared int object offs[zero + v]."""
    nx, ny = abs(dx), abs(dy)
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    x = y = 0
    ix = iy = 0
    while ix < nx or iy < ny:
        lhs = (1 + 2 * ix) * ny
        rhs = (1 + 2 * iy) * nx
        if lhs == rhs:
            # Exactly through a corner: the two squares beside it form a pair, then step diagonally.
            yield (offs[zero + y * w + x + sx], offs[zero + (y + sy) * w + x])
            x += sx
            y += sy
            ix += 1
            iy += 1
        elif lhs < rhs:
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        if x == dx and y == dy:
            break
        yield offs[zero + y * w + x]
