"""The map part of the print sheet: terrain, square coordinates, section labels and counters, at CELL mm a square.

The page scales the whole group to fit its paper, so every size here is for the natural scale.
"""

from __future__ import annotations

from engine.export.colours import Colours
from engine.export.svg_counters import Canvas, draw_counters
from engine.export.svg_text import FONT
from engine.mission.kinds import KINDS, items
from engine.mission.model import UNSECTIONED, WALL, Level, Mission

CELL = 8.0
LABEL = 6.0  # room left of and above the grid for the coordinates


def _mix(a: str, b: str, t: float) -> str:
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb, strict=True))


def _cell_fill(level: Level, x: int, y: int, order: dict[str, int], zones: set[str], pal: Colours) -> str:
    c = level.cell(x, y)
    if c == WALL:
        return pal.WALL
    base = pal.FLOOR if c == UNSECTIONED else pal.SECTION_TINTS[order.get(c, 0) % len(pal.SECTION_TINTS)]
    return _mix(base, pal.RANDOM_ZONE, 0.35) if c in zones else base


def _terrain(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    """Cells as horizontal runs of one colour, grid lines, then heavier lines between sections."""
    codes = sorted({c for row in level.rows for c in row} - {WALL, UNSECTIONED})
    order = {c: i for i, c in enumerate(codes)}
    zones = {s for lv, s in (m.random_setup.zones if m.random_setup else []) if lv == level.id}
    w, h = level.width, level.height
    for y in range(h):
        x = 0
        while x < w:
            fill = _cell_fill(level, x, y, order, zones, pal)
            end = x + 1
            while end < w and _cell_fill(level, end, y, order, zones, pal) == fill:
                end += 1
            cv.rect(x, y, end - x, 1, fill=fill)
            x = end
    for x in range(w + 1):
        cv.line(x, 0, x, h, pal.GRID_LINE, 0.15)
    for y in range(h + 1):
        cv.line(0, y, w, y, pal.GRID_LINE, 0.15)
    for y in range(h):
        for x in range(w):
            c = level.cell(x, y)
            if c == WALL:
                continue
            right, below = level.cell(x + 1, y), level.cell(x, y + 1)
            if right not in (WALL, c):
                cv.line(x + 1, y, x + 1, y + 1, pal.SECTION_EDGE, 0.6)
            if below not in (WALL, c):
                cv.line(x, y + 1, x + 1, y + 1, pal.SECTION_EDGE, 0.6)


def _coordinates(cv: Canvas, level: Level) -> None:
    size = 2.6
    for x in range(level.width):
        cv.text(x + 0.5, -0.25, str(x), size, anchor="middle", colour="#333333")
    for y in range(level.height):
        cv.text(-0.2, y + 0.5 + size / CELL / 2.8, str(y), size, anchor="end", colour="#333333")


def _occupied(m: Mission, level: Level) -> set[tuple[int, int]]:
    """The squares of the level that hold a counter (their labels would collide with a section label)."""
    lid = level.id
    out = {(sq.x, sq.y) for kind in KINDS for obj in items(m, kind) for _r, sq in kind.ends(obj) if sq.level == lid}
    above = m.level_above(lid)
    out |= {(p.x, p.y) for p in m.pitfalls if above is not None and p.level == above.id}
    return out


def _section_labels(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    """Each section's code in a free square near its middle, so the sheet's section list can be read on the map;
    a section whose every square holds a counter gets a small code in the corner of its middle square."""
    squares: dict[str, list[tuple[int, int]]] = {}
    for y, row in enumerate(level.rows):
        for x, c in enumerate(row):
            if c not in (WALL, UNSECTIONED):
                squares.setdefault(c, []).append((x, y))
    busy = _occupied(m, level)
    for code, sqs in sorted(squares.items()):
        free = [s for s in sqs if s not in busy]
        cx = sum(x for x, _ in sqs) / len(sqs)
        cy = sum(y for _, y in sqs) / len(sqs)
        x, y = min(free or sqs, key=lambda s: ((s[0] - cx) ** 2 + (s[1] - cy) ** 2, s[1], s[0]))
        if free:
            cv.text(x + 0.5, y + 0.62, code, 3.4, colour=pal.SECTION_EDGE, bold=True)
        else:
            cv.text(x + 0.14, y + 0.26, code, 1.8, anchor="start", colour=pal.SECTION_EDGE, bold=True)


def draw_map(m: Mission, level: Level, pal: Colours) -> tuple[list[str], float, float]:
    """The level drawn with its top-left coordinate label at (0, 0): (SVG elements, width, height) in mm."""
    cv = Canvas(LABEL, LABEL, CELL, FONT)
    _terrain(cv, m, level, pal)
    _coordinates(cv, level)
    _section_labels(cv, m, level, pal)
    draw_counters(cv, m, level, pal)
    return cv.elements, LABEL + level.width * CELL, LABEL + level.height * CELL
