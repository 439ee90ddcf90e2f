"""Printable SVG of each level: title, coordinates, terrain, counters, legend and squad list (no Qt).

One user unit is one millimetre; the page size is in the root element's width/height, so the PNG and PDF
renderers derive pixel and page sizes from it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from engine.export.colours import DEFAULT, Colours
from engine.export.svg_counters import Canvas, draw_counters, features_present
from engine.mission.io import atomic_write_text
from engine.mission.model import UNSECTIONED, WALL, Level, Mission

CELL = 8.0
MARGIN = 10.0
LABEL = 6.0
TITLE_H = 20.0
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


@dataclass(frozen=True)
class SvgPage:
    """One level drawn as SVG text, with its page size in millimetres."""

    level: str
    svg: str
    width_mm: float
    height_mm: float


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


def _legend(m: Mission, level: Level, top: float, width: float, pal: Colours) -> tuple[list[str], float]:
    """Legend swatches in columns, then the squad list; returns SVG elements and the height used."""
    present = features_present(m, level)
    items = [(name, colour) for name, colour in pal.LEGEND if name in present]
    col_w, row_h = 48.0, 6.0
    cols = max(1, int(width // col_w))
    out = [_t(MARGIN, top + 4, "Legend", 4.2, bold=True)]
    y0 = top + 7
    for i, (name, colour) in enumerate(items):
        x, y = MARGIN + (i % cols) * col_w, y0 + (i // cols) * row_h
        out.append(
            f'<rect x="{x:.2f}" y="{y:.2f}" width="4.5" height="4.5" fill="{colour}" stroke="#000" stroke-width="0.2"/>'
        )
        out.append(_t(x + 6, y + 3.6, name, 3.2))
    y = y0 + ((len(items) + cols - 1) // cols) * row_h + 4
    squad = [mar for mar in m.marines.squad if mar.level == level.id]
    if squad:
        out.append(_t(MARGIN, y + 4, "Squad on this level", 4.2, bold=True))
        y += 7
        for mar in squad:
            gun = "no gun" if mar.ranged == "none" else mar.ranged.replace("_", " ")
            gear = f"{gun}, {mar.melee.replace('_', ' ')}"
            shield = ", storm shield" if mar.storm_shield else ""
            where = f"at {mar.x},{mar.y} facing {mar.facing}"
            who = f"{mar.id}: {mar.name or mar.rank} ({mar.rank}; {gear}{shield}) {where}"
            out.append(_t(MARGIN, y + 3.6, who, 3.2))
            y += 5
    names = [f"{o.id}: {o.name}" for o in m.objectives if o.level == level.id and o.name]
    if names:
        out.append(_t(MARGIN, y + 3.6, "Objectives: " + "; ".join(names), 3.2))
        y += 5
    return out, y - top + 4


def _t(x: float, y: float, s: str, size: float, bold: bool = False, anchor: str = "start") -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.2f}" y="{y:.2f}" font-family="{FONT}" font-size="{size:.2f}"{weight} '
        f'text-anchor="{anchor}" fill="#111111">{escape(s)}</text>'
    )


def level_page(m: Mission, level_id: str, pal: Colours = DEFAULT) -> SvgPage:
    """The printable page of one level."""
    level = m.level(level_id)
    if level is None:
        raise ValueError(f"no level {level_id!r} in the mission")
    grid_w, grid_h = level.width * CELL, level.height * CELL
    width = max(2 * MARGIN + LABEL + grid_w, 150.0)
    ox, oy = MARGIN + LABEL, MARGIN + TITLE_H + LABEL
    cv = Canvas(ox, oy, CELL, FONT)
    _terrain(cv, m, level, pal)
    _coordinates(cv, level)
    draw_counters(cv, m, level, pal)
    legend, legend_h = _legend(m, level, oy + grid_h + 4, width - 2 * MARGIN, pal)
    height = oy + grid_h + 4 + legend_h + MARGIN
    subtitle = f"Level {level.id}" + (f" - {level.name}" if level.name else "") + f" (depth {level.depth})"
    subtitle += f"  |  {level.width} x {level.height} squares, x across from 0, y down from 0"
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{width:.2f}mm" height="{height:.2f}mm" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
        f"<title>{escape(m.meta.title)} - {escape(level.id)}</title>",
        f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="#ffffff"/>',
        _t(MARGIN, MARGIN + 7, m.meta.title, 7.0, bold=True),
        _t(MARGIN, MARGIN + 14, subtitle, 3.6),
        *cv.elements,
        *legend,
        "</svg>",
    ]
    return SvgPage(level.id, "\n".join(parts) + "\n", width, height)


def level_paths(path: str | os.PathLike[str], level_ids: list[str], multi: bool) -> list[Path]:
    """Output files: path itself for one level, else stem-LEVEL.ext beside it for each level."""
    p = Path(path)
    if not multi:
        return [p]
    return [p.with_name(f"{p.stem}-{lid}{p.suffix}") for lid in level_ids]


def pick_levels(m: Mission, levels: list[str] | None) -> list[str]:
    """The requested level ids (all, top first, when None); ValueError naming an unknown one."""
    known = [lv.id for lv in m.levels_top_down()]
    if not levels:
        return known
    for lid in levels:
        if lid not in known:
            raise ValueError(f"no level {lid!r} in the mission (levels: {', '.join(known)})")
    return list(levels)


def export_svg(
    m: Mission, path: str | os.PathLike[str], levels: list[str] | None = None, pal: Colours = DEFAULT
) -> list[Path]:
    """Write one SVG per level (stem-LEVEL.svg when the mission has several) and return the paths."""
    ids = pick_levels(m, levels)
    out = level_paths(path, ids, len(m.levels) > 1)
    for lid, target in zip(ids, out, strict=True):
        atomic_write_text(target, level_page(m, lid, pal).svg)
    return out
