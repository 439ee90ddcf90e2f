"""Drawing the counters of a level (doors, entry areas, marines...) into SVG elements in grid coordinates."""

from __future__ import annotations

from collections.abc import Callable

from engine.export.colours import Colours
from engine.export.safe_text import xml_text
from engine.mission.kinds import KINDS, Kind, items
from engine.mission.model import UNSECTIONED, WALL, Level, Marine, Mission

_ARROW = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
# The mark a Marine's counter carries for each weapon out of the ordinary, and its words in the legend; the
# storm bolter, the power glove and the ranks' own melee weapons (power sword, force axe) go unmarked.
WEAPON_MARKS = {
    "heavy_flamer": ("F", "heavy flamer"),
    "assault_cannon": ("AC", "assault cannon"),
    "lightning_claws": ("LC", "lightning claws"),
    "thunder_hammer": ("TH", "thunder hammer"),
    "chain_fist": ("CF", "chain fist"),
    "storm_shield": ("S", "storm shield"),
}
WEAPON_MARK_COLOUR = "#ffd84a"


def weapons_marked(mar: Marine) -> list[str]:
    """The keys of WEAPON_MARKS a Marine's counter shows, gun first."""
    keys = [mar.ranged, mar.melee] + (["storm_shield"] if mar.storm_shield else [])
    return [k for k in keys if k in WEAPON_MARKS]


def weapon_mark(mar: Marine) -> str:
    """The text under a Marine's id on its counter: 'F', 'AC', 'TH+S'... or '' for the usual arms."""
    return "+".join(WEAPON_MARKS[k][0] for k in weapons_marked(mar))


class Canvas:
    """Collects SVG elements; coordinates are in squares from the grid's top-left corner."""

    def __init__(self, ox: float, oy: float, cell: float, font: str) -> None:
        self.ox, self.oy, self.cell, self.font = ox, oy, cell, font
        self.elements: list[str] = []

    def _x(self, x: float) -> str:
        return f"{self.ox + x * self.cell:.2f}"

    def _y(self, y: float) -> str:
        return f"{self.oy + y * self.cell:.2f}"

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "none", sw: float = 0) -> None:
        self.elements.append(
            f'<rect x="{self._x(x)}" y="{self._y(y)}" '
            f'width="{w * self.cell:.2f}" height="{h * self.cell:.2f}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{sw:.2f}"/>'
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str, width: float) -> None:
        self.elements.append(
            f'<line x1="{self._x(x1)}" y1="{self._y(y1)}" x2="{self._x(x2)}" y2="{self._y(y2)}" '
            f'stroke="{colour}" stroke-width="{width:.2f}"/>'
        )

    def circle(self, cx: float, cy: float, r: float, fill: str, stroke: str = "none", sw: float = 0) -> None:
        self.elements.append(
            f'<circle cx="{self._x(cx)}" cy="{self._y(cy)}" r="{r * self.cell:.2f}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{sw:.2f}"/>'
        )

    def polygon(self, points: list[tuple[float, float]], fill: str, stroke: str = "none", sw: float = 0) -> None:
        pts = " ".join(f"{self._x(x)},{self._y(y)}" for x, y in points)
        self.elements.append(f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{sw:.2f}"/>')

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float,
        anchor: str = "middle",
        colour: str = "#111111",
        bold: bool = False,
    ) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.elements.append(
            f'<text x="{self._x(x)}" y="{self._y(y)}" font-family="{self.font}" '
            f'font-size="{size:.2f}"{weight} '
            f'text-anchor="{anchor}" fill="{colour}">{xml_text(s)}</text>'
        )

    def label(self, x: float, y: float, s: str, colour: str = "#ffffff", size: float = 2.2, shift: str = "") -> None:
        """Short text centred in square (x, y), nudged away from side `shift`; size in millimetres."""
        dx, dy = _ARROW.get(shift, (0.0, 0.0))
        cx, cy = x + 0.5 - dx * 0.2, y + 0.5 - dy * 0.2
        self.text(cx, cy + size / self.cell / 2.8, s, size, colour=colour, bold=True)

    def arrow(self, x: int, y: int, side: str, colour: str) -> None:
        """A small triangle inside square (x, y) pointing towards side."""
        dx, dy = _ARROW[side]
        cx, cy = x + 0.5 + dx * 0.3, y + 0.5 + dy * 0.3
        px, py = -dy, dx
        tip = (cx + dx * 0.15, cy + dy * 0.15)
        self.polygon(
            [
                tip,
                (cx - dx * 0.1 + px * 0.15, cy - dy * 0.1 + py * 0.15),
                (cx - dx * 0.1 - px * 0.15, cy - dy * 0.1 - py * 0.15),
            ],
            colour,
        )


def _passage_east_west(level: Level, x: int, y: int) -> bool:
    return level.is_floor(x - 1, y) and level.is_floor(x + 1, y)


def _pitfalls_below(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    above = m.level_above(level.id)
    for p in m.pitfalls:
        if above is not None and p.level == above.id and level.is_floor(p.x, p.y):
            cv.circle(p.x + 0.5, p.y + 0.5, 0.4, "none", pal.PITFALL_BOTTOM, 0.8)
            cv.label(p.x, p.y, p.letter, pal.PITFALL_BOTTOM)


def _deployment_areas(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    """A deployment area: its squares tinted under every counter, the area's id in its first square."""
    for area in (a for a in m.deployment_areas if a.level == level.id):
        for x, y in area.squares:
            cv.rect(x + 0.04, y + 0.04, 0.92, 0.92, pal.DEPLOY_AREA, pal.DEPLOY, 0.2)
        if area.squares:
            x, y = area.squares[0]
            cv.text(x + 0.5, y + 0.3, area.id[:4], 1.5, bold=True, colour=pal.DEPLOY)


def _rubble(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for r in (r for r in m.rubble if r.level == level.id):
        cv.rect(r.x + 0.1, r.y + 0.1, 0.8, 0.8, pal.RUBBLE, "#4d463b", 0.3)
        for k in (0.3, 0.5, 0.7):
            cv.line(r.x + 0.1, r.y + k + 0.2, r.x + k + 0.2, r.y + 0.1, "#4d463b", 0.3)


def _entry_areas(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for e in (e for e in m.entry_areas if e.level == level.id):
        cv.rect(e.x + 0.06, e.y + 0.06, 0.88, 0.88, pal.ENTRY)
        cv.arrow(e.x, e.y, e.side, "#ffffff")
        cv.label(e.x, e.y, e.id[:5], size=2.1, shift=e.side)


def _exits(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for x in (x for x in m.exits if x.level == level.id):
        cv.rect(x.x + 0.06, x.y + 0.06, 0.88, 0.88, pal.EXIT)
        cv.arrow(x.x, x.y, x.side, "#ffffff")
        cv.label(x.x, x.y, x.id[:5], size=2.1, shift=x.side)


def _torpedoes(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    """A boarding torpedo's ramp: an arrow from the torpedo's side into the board, with its id."""
    for t in (t for t in m.torpedoes if t.level == level.id):
        cv.rect(t.x + 0.06, t.y + 0.06, 0.88, 0.88, pal.TORPEDO, "#ffffff", 0.3)
        cv.arrow(t.x, t.y, {"N": "S", "S": "N", "E": "W", "W": "E"}[t.side], "#ffffff")
        cv.label(t.x, t.y, t.id[:5], size=2.1, shift=t.side)


def _chutes(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for c in (c for c in m.chutes if c.level == level.id):
        cv.circle(c.x + 0.5, c.y + 0.5, 0.44, pal.CHUTE, "#ffffff", 0.4)
        cv.label(c.x, c.y, c.id[:5], size=2.0)


def _pitfalls(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for p in (p for p in m.pitfalls if p.level == level.id):
        cv.circle(p.x + 0.5, p.y + 0.5, 0.42, pal.PITFALL)
        cv.label(p.x, p.y, p.letter, size=3.0)


def _ladders(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for lad in m.ladders:
        for sq, mark in ((lad.top, "\u2193"), (lad.bottom, "\u2191")):
            if sq.level == level.id:
                cv.rect(sq.x + 0.08, sq.y + 0.08, 0.84, 0.84, pal.LADDER)
                for k in (0.2, 0.8):
                    cv.line(sq.x + 0.15, sq.y + k, sq.x + 0.85, sq.y + k, "#e8d9c0", 0.4)
                cv.label(sq.x, sq.y, f"{lad.id[:3]}{mark}", size=2.5)


def _lifts(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    """A lift entrance: a framed square with the lift's id and the levels it serves ("T1 0-2" by depth)."""
    for lift in m.lifts:
        depths = sorted({lv.depth for e in lift.entrances if (lv := m.level(e.level)) is not None})
        served = f"{depths[0]}-{depths[-1]}" if depths else ""
        for e in (e for e in lift.entrances if e.level == level.id):
            cv.rect(e.x + 0.06, e.y + 0.06, 0.88, 0.88, pal.LIFT, "#ffffff", 0.4)
            cv.rect(e.x + 0.22, e.y + 0.22, 0.56, 0.56, "none", "#ffffff", 0.3)
            cv.text(e.x + 0.5, e.y + 0.45, lift.id[:4], 2.0, bold=True, colour="#ffffff")
            cv.text(e.x + 0.5, e.y + 0.8, served, 1.6, bold=True, colour="#ffffff")


def _objectives(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for o in (o for o in m.objectives if o.level == level.id):
        cx, cy = o.x + 0.5, o.y + 0.5
        cv.polygon([(cx, cy - 0.45), (cx + 0.45, cy), (cx, cy + 0.45), (cx - 0.45, cy)], pal.OBJECTIVE, "#000", 0.25)
        cv.label(o.x, o.y, o.id[:5], "#000000", size=2.0)


def _doors(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for d in (d for d in m.doors if d.level == level.id):
        colour = pal.BULKHEAD if d.kind == "bulkhead" else pal.DOOR_OPEN if d.state == "open" else pal.DOOR_CLOSED
        thick = 0.3 if d.kind == "bulkhead" else 0.2
        # An open bulkhead keeps its colour as an outline only, so open and closed read apart in print too.
        fill, edge = ("#ffffff", colour) if d.kind == "bulkhead" and d.state == "open" else (colour, "#000")
        if _passage_east_west(level, d.x, d.y):
            cv.rect(d.x + 0.5 - thick / 2, d.y + 0.04, thick, 0.92, fill, edge, 0.35)
        else:
            cv.rect(d.x + 0.04, d.y + 0.5 - thick / 2, 0.92, thick, fill, edge, 0.35)


def _squad(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    for mar in (x for x in m.marines.squad if x.level == level.id):
        cv.circle(mar.x + 0.5, mar.y + 0.5, 0.4, pal.DEPLOY, "#ffffff", 0.3)
        dx, dy = _ARROW[mar.facing]
        cx, cy = mar.x + 0.5 + dx * 0.42, mar.y + 0.5 + dy * 0.42
        cv.polygon(
            [
                (cx + dx * 0.14, cy + dy * 0.14),
                (cx - dy * 0.16, cy + dx * 0.16),
                (cx + dy * 0.16, cy - dx * 0.16),
            ],
            pal.DEPLOY,
            "#ffffff",
            0.2,
        )
        mark = weapon_mark(mar)
        if mark:  # the id moves up to make room for the weapon, in another colour so it reads as no name
            cv.text(mar.x + 0.5, mar.y + 0.47, mar.id[:4], 2.0, bold=True, colour="#ffffff")
            size = 2.1 if len(mark) <= 2 else 1.6  # 'TH+S' stays inside the counter
            cv.text(mar.x + 0.5, mar.y + 0.8, mark, size, bold=True, colour=WEAPON_MARK_COLOUR)
        else:
            cv.label(mar.x, mar.y, mar.id[:4], size=2.3)


def _generic(kind: Kind) -> Callable[[Canvas, Mission, Level, Colours], None]:
    """A kind with no symbol of its own: on each of its squares a counter in its legend entry's colour (the one
    line colours.py gives a new kind), with its ident and, when it has a side, an arrow into the board."""

    def draw(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
        colours = dict(pal.LEGEND)
        for obj in items(m, kind):
            ident = str(getattr(obj, kind.ident, "")) if kind.ident else ""
            side = getattr(obj, "side", "")
            for _role, sq in kind.ends(obj):
                if sq.level != level.id:
                    continue
                cv.rect(sq.x + 0.08, sq.y + 0.08, 0.84, 0.84, colours[kind.legend(obj)], "#ffffff", 0.3)
                if side in _ARROW:
                    cv.arrow(sq.x, sq.y, {"N": "S", "S": "N", "E": "W", "W": "E"}[side], "#ffffff")
                if ident:
                    cv.label(sq.x, sq.y, ident[:5], size=2.0, shift=side)

    return draw


# The kinds with a symbol of their own, in drawing order: those under the other counters, then those on top (so
# Marines stay on top); a kind of the registry in neither is drawn by _generic between the two.
_UNDER: dict[str, Callable[[Canvas, Mission, Level, Colours], None]] = {
    "deployment_areas": _deployment_areas,
    "rubble": _rubble,
    "entry_areas": _entry_areas,
    "exits": _exits,
    "torpedoes": _torpedoes,
    "chutes": _chutes,
    "pitfalls": _pitfalls,
    "ladders": _ladders,
    "lifts": _lifts,
}
_ON_TOP: dict[str, Callable[[Canvas, Mission, Level, Colours], None]] = {
    "objectives": _objectives,
    "doors": _doors,
    "squad": _squad,
}
# Each kind's symbol (engine/mission/kinds.py), in drawing order.
SYMBOLS: dict[str, Callable[[Canvas, Mission, Level, Colours], None]] = {
    **_UNDER,
    **{k.key: _generic(k) for k in KINDS if k.key not in _UNDER and k.key not in _ON_TOP},
    **_ON_TOP,
}


def draw_counters(cv: Canvas, m: Mission, level: Level, pal: Colours) -> None:
    """Every counter of the level, the lower ones first so marines stay on top."""
    _pitfalls_below(cv, m, level, pal)
    for draw in SYMBOLS.values():
        draw(cv, m, level, pal)


def features_present(m: Mission, level: Level) -> set[str]:
    """The legend entries that this level's page shows (palette.LEGEND names, the bulkhead split by state)."""
    lid = level.id
    chars = {c for row in level.rows for c in row}
    found = {"Wall"} if WALL in chars else set()
    if chars - {WALL}:
        found.add("Floor")
    checks = {
        kind.legend(obj): True
        for kind in KINDS
        for obj in items(m, kind)
        if any(sq.level == lid for _role, sq in kind.ends(obj))
    }
    above = m.level_above(lid)
    checks["Pitfall bottom"] = above is not None and any(p.level == above.id for p in m.pitfalls)
    zones = m.random_setup.zones if m.random_setup else []
    checks["Random-counter zone"] = any(lv == lid and s in chars - {WALL, UNSECTIONED} for lv, s in zones)
    return found | {name for name, present in checks.items() if present}
