"""The print sheet of each level as SVG: title, map with coordinates and counters, legend, the level's squad and
sections, and on the first page the mission's briefing (description, rules in force, victory conditions,
Genestealer forces, random counters). No Qt.

One user unit is one millimetre; the page size is in the root element's width/height, so the PNG and PDF
renderers derive pixel and page sizes from it. Paper: A4 or US Letter (the map scaled down to fit, the page
turned to landscape when that gives a bigger map), or "fit" for a page as large as the map at full size.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.export.briefing import (
    describe_forces,
    describe_random_setup,
    describe_rules,
    describe_victory,
    describe_ways,
)
from engine.export.colours import DEFAULT, Colours
from engine.export.files import level_file_names
from engine.export.outputs import check_targets
from engine.export.safe_text import one_line, xml_text
from engine.export.staging import staged_files
from engine.export.svg_counters import WEAPON_MARKS, features_present, weapons_marked
from engine.export.svg_map import CELL, draw_map
from engine.export.svg_text import Column, text_element
from engine.mission.model import Level, Mission

__all__ = ["CELL", "PAPERS", "SvgPage", "export_svg", "level_page", "level_paths", "pick_levels"]

Paper = Literal["a4", "letter", "fit"]
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait, mm
MARGIN = 10.0
TITLE_H = 10.0
GAP = 4.0
GUTTER = 6.0  # between the two text columns under the map
FIT_MIN_WIDTH = 180.0  # a "fit" page is at least this wide, so its text wraps at a readable measure
RULES_SIZE = 2.7  # the options in force, a reference list: smaller than the body text so the briefing fits
TEXT_SHARE = 0.66  # of the page below the title, the most the text may take; the map keeps the rest


@dataclass(frozen=True)
class SvgPage:
    """One level drawn as SVG text, with its page size in millimetres."""

    level: str
    svg: str
    width_mm: float
    height_mm: float


def _legend_items(m: Mission, level: Level, pal: Colours) -> list[tuple[str, str, bool]]:
    present = features_present(m, level)
    out: list[tuple[str, str, bool]] = []
    for name, colour in pal.LEGEND:
        if name == "Bulkhead":  # printed filled when closed, as an outline when open: two entries
            out += [(n, colour, n.endswith("(open)")) for n in ("Bulkhead (closed)", "Bulkhead (open)") if n in present]
        elif name in present:
            out.append((name, colour, False))
    return out


def _level_text(col: Column, m: Mission, level: Level, pal: Colours) -> None:
    """Legend, then the level's squad, sections and objectives."""
    col.heading("Legend")
    col.swatches(_legend_items(m, level, pal))
    squad = [mar for mar in m.marines.squad if mar.level == level.id]
    marked = {k for mar in squad for k in weapons_marked(mar)}
    if marked:
        marks = ", ".join(f"{mark} {words}" for k, (mark, words) in WEAPON_MARKS.items() if k in marked)
        col.paragraph(f"Under a Marine's id: {marks} (no mark: storm bolter, power glove or the rank's own weapon).")
    if squad:
        col.heading("Squad on this level")
        lines = []
        for mar in squad:
            gun = "no gun" if mar.ranged == "none" else mar.ranged.replace("_", " ")
            shield = ", storm shield" if mar.storm_shield else ""
            lines.append(
                f"{mar.id}: {mar.name or mar.rank} ({mar.rank}; {gun}, {mar.melee.replace('_', ' ')}{shield}) "
                f"at {mar.x},{mar.y} facing {mar.facing}"
            )
        col.bullets(lines)
    used = {c for row in level.rows for c in row}
    sections = [(code, s) for code, s in sorted(level.sections.items()) if code in used]
    if sections:
        col.heading("Sections (letter on the map)")
        col.paragraph("; ".join(f"{code} {s.name or '(no name)'} ({s.kind})" for code, s in sections))
    objectives = [o for o in m.objectives if o.level == level.id]
    if objectives:
        col.heading("Objectives")
        col.bullets([f"{o.id}: {o.name or o.id} ({o.kind}) at {o.x},{o.y}" for o in objectives])


def _briefing(col: Column, m: Mission) -> None:
    """What every level's sheet would otherwise repeat: victory, Genestealer forces, random counters."""
    col.heading("Victory")
    col.bullets([describe_victory(m, v) for v in m.victory])
    col.heading("Genestealers")
    col.bullets(describe_forces(m))
    ways = describe_ways(m)
    if ways:
        col.heading("Set-up, torpedoes and lifts")
        col.bullets(ways)
    random_setup = describe_random_setup(m)
    if random_setup:
        col.heading("Random counters")
        col.bullets(random_setup)


class Text:
    """The sheet's text: above the map the level line, the description and (first sheet) the rules in force; two
    columns below it (the level's key on the left, the mission's briefing on the right)."""

    def __init__(self, m: Mission, level: Level, pal: Colours, width: float, briefing: bool) -> None:
        self.top = Column(width)
        subtitle = f"L{m.level_words(level.id)[1:]} (depth {level.depth})"
        subtitle += f"  |  {level.width} x {level.height} squares, x across from 0, y down from 0"
        if m.meta.author:
            subtitle += f"  |  by {m.meta.author}"
        self.top.paragraph(one_line(subtitle), 3.6)
        if briefing and m.meta.description.strip():
            self.top.gap(1.5)
            self.top.paragraph(m.meta.description.strip())
        # The rules in force run the full width under the description (a reference list that would double in
        # height in a column), never cut: a long description gives way first.
        self.rules = Column(width)
        if briefing:
            self.rules.gap(1.0)
            self.rules.paragraph("Rules: " + describe_rules(m), RULES_SIZE)
        half = (width - GUTTER) / 2
        self.left, self.right = Column(half), Column(half)
        _level_text(self.left, m, level, pal)
        if briefing:
            _briefing(self.right, m)
        else:
            self.right.heading("Mission")
            self.right.paragraph("Rules in force, victory conditions and Genestealer forces: see the first sheet.")
        self.right_x = half + GUTTER

    @property
    def below(self) -> float:
        return max(self.left.y, self.right.y)

    @property
    def height(self) -> float:
        return self.above + self.below

    @property
    def above(self) -> float:
        """The text above the map: level line, description, rules."""
        return self.top.y + self.rules.y

    def fit_to(self, room: float) -> None:
        """Cut the text to room millimetres, the description first, then the longer column below."""
        if self.height <= room:
            return
        self.top.fit_to(max(room / 4, room - self.below - self.rules.y))
        for col in (self.left, self.right):
            col.fit_to(room - self.above)

    def place_below(self, x: float, y: float) -> list[str]:
        return [self.left.place(x, y), self.right.place(x + self.right_x, y)]


def _layout(
    m: Mission, level: Level, pal: Colours, paper: Paper, briefing: bool, map_w: float, map_h: float
) -> tuple[float, float, float, Text]:
    """(page width, page height, map scale, text) for the paper."""
    if paper == "fit":
        width = max(2 * MARGIN + map_w, FIT_MIN_WIDTH)
        text = Text(m, level, pal, width - 2 * MARGIN, briefing)
        return width, 2 * MARGIN + TITLE_H + text.height + 2 * GAP + map_h, 1.0, text
    short, long = PAPERS[paper]
    best: tuple[float, float, float, Text] | None = None
    for width, height in ((short, long), (long, short)):
        inner_w = width - 2 * MARGIN
        text = Text(m, level, pal, inner_w, briefing)
        room = height - 2 * MARGIN - TITLE_H - 2 * GAP
        text.fit_to(room * TEXT_SHARE)  # a briefing too long for the page is cut
        scale = min(1.0, inner_w / map_w, (room - text.height) / map_h)
        if best is None or scale > best[2] + 1e-9:
            best = (width, height, scale, text)
    assert best is not None
    return best


def level_page(
    m: Mission, level_id: str, pal: Colours = DEFAULT, paper: Paper = "fit", briefing: bool = True
) -> SvgPage:
    """The printed sheet of one level; briefing adds the mission-wide text (the first page of a set carries it)."""
    level = m.level(level_id)
    if level is None:
        raise ValueError(f"no level {level_id!r} in the mission")
    if paper != "fit" and paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: use {', '.join([*PAPERS, 'fit'])}")
    elements, map_w, map_h = draw_map(m, level, pal)
    width, height, scale, text = _layout(m, level, pal, paper, briefing, map_w, map_h)
    scale = math.floor(scale * 1e5) / 1e5  # written with five decimals: round down, so the map stays inside
    y = MARGIN + TITLE_H
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{width:.2f}mm" height="{height:.2f}mm" viewBox="0 0 {width:.2f} {height:.2f}">',
        f"<title>{xml_text(one_line(m.meta.title))} - {xml_text(level.id)}</title>",
        f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="#ffffff"/>',
        text_element(MARGIN, MARGIN + 7, one_line(m.meta.title), 7.0, bold=True),
        text.top.place(MARGIN, y),
        text.rules.place(MARGIN, y + text.top.y),
    ]
    y += text.above + GAP
    parts.append(f'<g transform="translate({MARGIN:.2f},{y:.2f}) scale({scale:.5f})">{"".join(elements)}</g>')
    y += map_h * scale + GAP
    parts += [*text.place_below(MARGIN, y), "</svg>"]
    return SvgPage(level.id, "\n".join(parts) + "\n", width, height)


def level_paths(path: str | os.PathLike[str], m: Mission, level_ids: list[str]) -> list[Path]:
    """Output files: path itself for a mission of one level, else stem-LEVEL.ext beside it for each level, LEVEL
    being the level's name (level_file_names)."""
    p = Path(path)
    if len(m.levels) <= 1:
        return [p]
    names = level_file_names(m)
    return [p.with_name(f"{p.stem}-{names[lid]}{p.suffix}") for lid in level_ids]


def pick_levels(m: Mission, levels: list[str] | None) -> list[str]:
    """The requested level ids (all, top first, when None); ValueError naming an unknown one."""
    known = [lv.id for lv in m.levels_top_down()]
    if not levels:
        return known
    for lid in levels:
        if lid not in known:
            raise ValueError(f"no level {lid!r} in the mission (levels: {', '.join(known)})")
    return list(levels)


def pages(m: Mission, levels: list[str] | None, pal: Colours = DEFAULT, paper: Paper = "a4") -> list[SvgPage]:
    """The sheets of the requested levels; the first carries the mission's briefing."""
    return [level_page(m, lid, pal, paper, briefing=i == 0) for i, lid in enumerate(pick_levels(m, levels))]


def export_svg(
    m: Mission,
    path: str | os.PathLike[str],
    levels: list[str] | None = None,
    pal: Colours = DEFAULT,
    paper: Paper = "a4",
) -> list[Path]:
    """Write one SVG per level (stem-LEVEL.svg when the mission has several), all or none; return the paths."""
    ids = pick_levels(m, levels)
    out = level_paths(path, m, ids)
    check_targets(out)
    sheets = pages(m, ids, pal, paper)
    with staged_files() as staged:
        for page, target in zip(sheets, out, strict=True):
            staged.write_text(target, page.svg)
    return staged.files
