"""A level cut into Derelict segments: one rectangle per section where it fits, so a flamer burns what ours burns.

Derelict's flamer burns every floor cell of the segment instance it hits (Rules getFlamerTargets/getSegmentInfo),
and its board refuses instances whose rectangles share a cell, walls included (BoardState placeSegment). Our
flamer burns the target's section: its squares of the same section code connected to it (engine/rules/fire.py
_flame_area: eight neighbours, never through a closed door). So each such region becomes one segment: its
bounding rectangle, floor 1 and the rest 0, when that rectangle holds no other region's floor and meets no
rectangle already taken; otherwise (an L-shaped corridor round a room) the region is cut into rectangles of its
own floor, and the export says so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engine.mission.model import WALL, Level

Square = tuple[int, int]
_AROUND = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


@dataclass(frozen=True)
class Piece:
    """One segment instance: a rectangle of the level (x, y, width, height) and its cells as rows of 0/1."""

    code: str  # the section code of its floor ('.' for floor outside any section)
    region: int  # which flame region of the level it belongs to
    x: int
    y: int
    rows: tuple[str, ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def segment_id(self) -> str:
        """The segment's id in Derelict's library: its size and a hash of its cells, so the same id is the
        same segment and ids from different exports never clash."""
        digest = hashlib.sha256("\n".join(self.rows).encode("ascii")).hexdigest()[:10]
        return f"hf-{self.height}x{self.width}-{digest}"

    def floor(self) -> list[Square]:
        """The level squares this piece burns, top row first."""
        return [(self.x + i, self.y + j) for j, row in enumerate(self.rows) for i, c in enumerate(row) if c == "1"]

    def definition(self) -> str:
        """The segment as Derelict's library writes it."""
        body = "\n".join(" ".join(row) for row in self.rows)
        return f"segment {self.segment_id} {self.height}x{self.width}\n{body}\nendsegment\n"


def flame_regions(level: Level, closed: frozenset[Square] = frozenset()) -> list[list[Square]]:
    """The level's floor grouped as our flamer burns it: same section code, connected through eight neighbours,
    not through the closed door squares in closed (each of those joins a neighbouring region of its section)."""
    seen: set[Square] = set()
    regions: list[list[Square]] = []
    for y in range(level.height):
        for x in range(level.width):
            code = level.cell(x, y)
            if code == WALL or (x, y) in seen or (x, y) in closed:
                continue
            seen.add((x, y))
            todo, region = [(x, y)], []
            while todo:
                sx, sy = todo.pop()
                region.append((sx, sy))
                for dx, dy in _AROUND:
                    n = (sx + dx, sy + dy)
                    if n not in seen and n not in closed and level.cell(*n) == code:
                        seen.add(n)
                        todo.append(n)
            regions.append(region)
    for door in sorted(closed, key=lambda s: (s[1], s[0])):
        code = level.cell(*door)
        if code == WALL:
            continue
        near = [r for r in regions if level.cell(*r[0]) == code and any(_touch(door, sq) for sq in r)]
        if near:
            near[0].append(door)
        else:
            regions.append([door])
    return [sorted(r, key=lambda s: (s[1], s[0])) for r in regions]


def _touch(a: Square, b: Square) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def _bbox(squares: list[Square]) -> tuple[int, int, int, int]:
    xs, ys = [s[0] for s in squares], [s[1] for s in squares]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def _meets(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _rectangles(squares: list[Square], across_first: bool) -> list[tuple[int, int, int, int]]:
    """Cover the squares with rectangles of those squares only, greedily from the top-left."""
    left, out = set(squares), []
    for x, y in squares:
        if (x, y) not in left:
            continue
        w, h = 1, 1
        if across_first:
            while (x + w, y) in left:
                w += 1
            while all((i, y + h) in left for i in range(x, x + w)):
                h += 1
        else:
            while (x, y + h) in left:
                h += 1
            while all((x + w, j) in left for j in range(y, y + h)):
                w += 1
        left -= {(i, j) for i in range(x, x + w) for j in range(y, y + h)}
        out.append((x, y, x + w, y + h))
    return out


def cut_level(level: Level, closed: frozenset[Square] = frozenset()) -> list[Piece]:
    """The level's segment pieces, each a rectangle no other piece meets; the largest regions are kept whole first.

    closed: the squares of the doors that start closed, where our flamer stops."""
    regions = flame_regions(level, closed)
    owner = {sq: i for i, region in enumerate(regions) for sq in region}
    taken: list[tuple[int, int, int, int]] = []
    pieces: list[Piece] = []
    for i in sorted(range(len(regions)), key=lambda k: (-len(regions[k]), regions[k][0][1], regions[k][0][0])):
        region = regions[i]
        box = _bbox(region)
        foreign = any(owner.get((x, y), i) != i for x in range(box[0], box[2]) for y in range(box[1], box[3]))
        if not foreign and not any(_meets(box, t) for t in taken):
            boxes = [box]
        else:
            a, b = _rectangles(region, True), _rectangles(region, False)
            boxes = a if len(a) <= len(b) else b
        mine = set(region)
        code = level.cell(*region[0])
        for x0, y0, x1, y1 in boxes:
            rows = tuple("".join("1" if (x, y) in mine else "0" for x in range(x0, x1)) for y in range(y0, y1))
            pieces.append(Piece(code, i, x0, y0, rows))
            taken.append((x0, y0, x1, y1))
    return sorted(pieces, key=lambda p: (p.y, p.x))
