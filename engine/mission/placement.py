"""The placement rules of RULES.md §1 and reference integrity, checked on the mission model.

Each check yields Issues naming the rule, the JSON path, the level and the squares, so the editor can
highlight them exactly as it highlights schema errors.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator

from engine.mission.issues import Issue
from engine.mission.kinds import KINDS, end_path, items, path_of
from engine.mission.model import WALL, Level, Mission
from engine.mission.objects import within
from engine.mission.victory import faults

ORTHO = ((0, -1), (1, 0), (0, 1), (-1, 0))
SIDE_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
Place = tuple[str, int, int]


class _Ctx:
    """Lookups shared by the checks, built once per validation, and which objects the schema found broken."""

    def __init__(self, m: Mission, broken: frozenset[str] = frozenset()) -> None:
        self.m = m
        self.broken = broken
        self.levels = {lv.id: lv for lv in m.levels}
        self.doors = {(d.level, d.x, d.y) for d in m.doors}
        self.objectives = {(o.level, o.x, o.y) for o in m.objectives}
        self.deploy = {(mm.level, mm.x, mm.y) for mm in m.marines.squad}
        self.rubble = {(r.level, r.x, r.y) for r in m.rubble}
        self.pitfalls = {(p.level, p.x, p.y) for p in m.pitfalls}
        self.ladder_ends = {(e.level, e.x, e.y) for la in m.ladders for e in (la.top, la.bottom)}
        self.chutes = {(c.level, c.x, c.y) for c in m.chutes}

    def ok(self, path: str) -> bool:
        """False for an object the schema found broken (`$.doors[3]`) and anything inside it: its own checks
        are skipped, as its fields may be anything; others still see it where it stands."""
        return not (self.broken and within(path, self.broken))

    def floor(self, level: str, x: int, y: int) -> bool:
        lv = self.levels.get(level)
        return lv is not None and lv.is_floor(x, y)


def _features(m: Mission) -> Iterator[tuple[str, str, str, int, int]]:
    """(kind, json path, level, x, y) of every square a feature stands on, for every kind of the registry."""
    for kind in KINDS:
        for i, obj in enumerate(items(m, kind)):
            ends = kind.ends(obj)
            for n, (role, sq) in enumerate(ends):
                label = "deployment" if kind.key == "squad" else f"{kind.label} {role}".rstrip()
                yield (label, end_path(kind, i, role, n, len(ends)), sq.level, sq.x, sq.y)


def check_levels(c: _Ctx) -> Iterator[Issue]:
    ids = Counter(lv.id for lv in c.m.levels)
    depths = Counter(lv.depth for lv in c.m.levels)
    for i, lv in enumerate(c.m.levels):
        path = f"$.levels[{i}]"
        if not c.ok(path):
            continue
        if ids[lv.id] > 1:
            yield Issue("REF-DUPLICATE-ID", f"{path}.id", f"level id {lv.id!r} is used more than once", lv.id)
        if depths[lv.depth] > 1:
            others = [c.m.level_words(o.id) for o in c.m.levels if o.depth == lv.depth and o is not lv]
            yield Issue("LEVEL-DEPTH", f"{path}.depth",
                        f"{c.m.level_words(lv.id)} shares depth {lv.depth} with {', '.join(others)}", lv.id)
        width = len(lv.rows[0]) if lv.rows else 0
        for y, row in enumerate(lv.rows):
            if len(row) != width:
                yield Issue(
                    "GRID-RAGGED",
                    f"{path}.rows[{y}]",
                    f"row {y} has {len(row)} squares, row 0 has {width}: every row of a level has the same length",
                    lv.id,
                    ((min(len(row), width), y),),
                )
        yield from _check_sections(c, lv, path)


def _check_sections(c: _Ctx, lv: Level, path: str) -> Iterator[Issue]:
    used: dict[str, list[tuple[int, int]]] = defaultdict(list)
    loose: list[tuple[int, int]] = []
    for y, row in enumerate(lv.rows):
        for x, ch in enumerate(row):
            if ch == ".":
                loose.append((x, y))
            elif ch != WALL:
                used[ch].append((x, y))
    for code, squares in sorted(used.items()):
        if code not in lv.sections:
            yield Issue(
                "SECTION-UNDECLARED",
                f"{path}.sections",
                f"section {code!r} is painted on the map but not declared in the level's sections",
                lv.id,
                tuple(squares),
                "warning",
            )
    for code in sorted(set(lv.sections) - set(used)):
        if not c.ok(f"{path}.sections.{code}"):
            continue
        yield Issue(
            "SECTION-UNUSED", f"{path}.sections.{code}", f"section {code!r} has no squares", lv.id, (), "warning"
        )
    if loose:
        yield Issue(
            "SECTION-UNASSIGNED",
            f"{path}.rows",
            f"{len(loose)} floor square(s) belong to no room or corridor section (the flamer hits a whole section)",
            lv.id,
            tuple(loose),
            "warning",
        )


def check_ids(c: _Ctx) -> Iterator[Issue]:
    m = c.m
    groups: list[tuple[str, str, list[str]]] = [
        ("Marine" if k.key == "squad" else k.label, path_of(k, 0)[2:-3], [o.id for o in items(m, k)])
        for k in KINDS
        if k.ident == "id"
    ]
    for what, key, ids in groups:
        seen: set[str] = set()
        for i, ident in enumerate(ids):
            if ident in seen and c.ok(f"$.{key}[{i}]"):
                yield Issue("REF-DUPLICATE-ID", f"$.{key}[{i}].id", f"{what} id {ident!r} is used more than once")
            seen.add(ident)
    letters: set[str] = set()
    for i, p in enumerate(m.pitfalls):
        if p.letter in letters and c.ok(f"$.pitfalls[{i}]"):
            yield Issue(
                "REF-DUPLICATE-ID",
                f"$.pitfalls[{i}].letter",
                f"pitfall letter {p.letter} is used twice",
                p.level,
                ((p.x, p.y),),
            )
        letters.add(p.letter)


def check_squares(c: _Ctx) -> Iterator[Issue]:
    """Every feature names a known level, lies inside its grid and stands on floor."""
    for kind, path, level, x, y in _features(c.m):
        if not c.ok(path):
            continue
        lv = c.levels.get(level)
        if lv is None:
            yield Issue("REF-LEVEL", f"{path}.level", f"{kind} is on level {level!r}, which does not exist")
        elif not (0 <= y < lv.height and 0 <= x < len(lv.rows[y])):
            yield Issue(
                "OUT-OF-GRID",
                path,
                f"{kind} at {x},{y} is outside the {lv.width}x{lv.height} grid",
                level,
                ((x, y),),
            )
        elif not lv.is_floor(x, y):
            yield Issue(
                "ON-FLOOR", path, f"{kind} at {x},{y} stands on a wall; it must be on a floor square", level, ((x, y),)
            )


def check_doors(c: _Ctx) -> Iterator[Issue]:
    for i, d in enumerate(c.m.doors):
        lv = c.levels.get(d.level)
        if lv is None or not lv.is_floor(d.x, d.y) or not c.ok(f"$.doors[{i}]"):
            continue
        ns = not lv.is_floor(d.x, d.y - 1) and not lv.is_floor(d.x, d.y + 1)
        ew = not lv.is_floor(d.x - 1, d.y) and not lv.is_floor(d.x + 1, d.y)
        if not (ns or ew):
            yield Issue(
                "DOOR-WALLS",
                f"$.doors[{i}]",
                f"{d.kind} {d.id} at {d.x},{d.y} needs walls on two opposite sides (it closes a corridor or opening)",
                d.level,
                ((d.x, d.y),),
            )


def check_pitfalls(c: _Ctx) -> Iterator[Issue]:
    """AE-P placement rules and the Pitfall bottom rule."""
    for i, p in enumerate(c.m.pitfalls):
        here = (p.level, p.x, p.y)
        path = f"$.pitfalls[{i}]"
        if not c.ok(path):
            continue
        sq = ((p.x, p.y),)
        name = f"pitfall {p.letter}"
        if here in c.doors:
            yield Issue("PIT-DOOR", path, f"{name} is on a door square", p.level, sq)
        if here in c.objectives:
            yield Issue("PIT-OBJECTIVE", path, f"{name} is on an objective square", p.level, sq)
        if here in c.deploy:
            yield Issue("PIT-UNIT", path, f"{name} is on a square where a Marine deploys", p.level, sq)
        if (
            here in c.rubble
            or here in c.ladder_ends
            or here in c.chutes
            or sum(1 for q in c.m.pitfalls if (q.level, q.x, q.y) == here) > 1
        ):
            yield Issue(
                "PIT-STACKED",
                path,
                f"{name} shares its square with rubble, a ladder, a chute or a pitfall",
                p.level,
                sq,
            )
        for dx, dy in ORTHO:
            n = (p.level, p.x + dx, p.y + dy)
            if n in c.pitfalls or n in c.rubble:
                what = "another pitfall" if n in c.pitfalls else "rubble"
                yield Issue(
                    "PIT-ADJACENT",
                    path,
                    f"{name} is orthogonally next to {what} at {n[1]},{n[2]}",
                    p.level,
                    (*sq, (n[1], n[2])),
                )
        below = c.m.level_below(p.level)
        if below is None:
            yield Issue(
                "HOLE-NO-BOTTOM",
                path,
                f"{name} has no level below: a Marine who falls in dies",
                p.level,
                sq,
                "warning",
            )
        elif not below.is_floor(p.x, p.y):
            yield Issue(
                "HOLE-BOTTOM",
                path,
                f"{name} needs a floor square directly below it on {c.m.level_words(below.id)}",
                p.level,
                sq,
            )


def check_ladders(c: _Ctx) -> Iterator[Issue]:
    pitfall_rule = c.m.options.get("ladder_rule", "pitfall" if c.m.uses_pitfall_features() else "4e") == "pitfall"
    for i, la in enumerate(c.m.ladders):
        top, bottom = c.levels.get(la.top.level), c.levels.get(la.bottom.level)
        path = f"$.ladders[{i}]"
        if top is None or bottom is None or not c.ok(path):
            continue
        if bottom.depth != top.depth + 1:
            yield Issue(
                "LADDER-LEVELS",
                path,
                f"ladder {la.id}: the bottom must be on the level directly below the top "
                f"({top.id} is at depth {top.depth}, {bottom.id} at {bottom.depth})",
                top.id,
                ((la.top.x, la.top.y),),
            )
        elif pitfall_rule and (la.top.x, la.top.y) != (la.bottom.x, la.bottom.y):
            yield Issue(
                "LADDER-ALIGN",
                path,
                f"ladder {la.id}: under the Pitfall ladder rule the bottom lies directly under the top",
                top.id,
                ((la.top.x, la.top.y),),
                "warning",
            )
        here = (la.top.level, la.top.x, la.top.y)
        if here in c.doors or here in c.chutes or here in c.rubble:
            yield Issue(
                "LADDER-STACKED",
                path,
                f"ladder {la.id} top shares its square with a door, chute or rubble",
                top.id,
                ((la.top.x, la.top.y),),
            )


def check_lifts(c: _Ctx) -> Iterator[Issue]:
    """A turbo-lift stops once on each level it serves, two levels at least, on a square holding nothing else
    that moves a model (docs/RULES.md, 'Turbo-lift')."""
    blocked = c.doors | c.pitfalls | c.ladder_ends | c.chutes | c.rubble
    for i, lift in enumerate(c.m.lifts):
        path = f"$.lifts[{i}]"
        if not c.ok(path):
            continue
        levels = Counter(e.level for e in lift.entrances)
        first = lift.entrances[0]
        if len(levels) < 2:
            yield Issue("LIFT-LEVELS", path, f"turbo-lift {lift.id} needs entrances on two levels at least",
                        first.level, ((first.x, first.y),))
        for level, n in sorted(levels.items()):
            if n > 1:
                squares = tuple((e.x, e.y) for e in lift.entrances if e.level == level)
                yield Issue("LIFT-LEVELS", path, f"turbo-lift {lift.id} has {n} entrances on level {level!r}: "
                            "one per level", level, squares)
        for n, e in enumerate(lift.entrances):
            if (e.level, e.x, e.y) in blocked:
                yield Issue("LIFT-STACKED", f"{path}.entrances[{n}]", f"turbo-lift {lift.id} entrance at {e.x},{e.y} "
                            "shares its square with a door, pitfall, ladder, chute or rubble", e.level, ((e.x, e.y),))


def check_deployment_areas(c: _Ctx) -> Iterator[Issue]:
    """An area lies on floor squares where a Marine may stand (no closed door, chute or pitfall), shares none with
    another area, and holds a Marine of the squad (else it sets up no one)."""
    closed = {(d.level, d.x, d.y) for d in c.m.doors if d.state == "closed"}
    owner: dict[Place, str] = {}
    for i, area in enumerate(c.m.deployment_areas):
        path = f"$.deployment_areas[{i}]"
        if not c.ok(path):
            continue
        for n, (x, y) in enumerate(area.squares):
            here = (area.level, x, y)
            if here in closed or here in c.chutes or here in c.pitfalls:
                yield Issue("AREA-BLOCKED", f"{path}.squares[{n}]", f"deployment area {area.id}: {x},{y} holds a "
                            "closed door, a chute or a pitfall, where no Marine sets up", area.level, ((x, y),))
            if here in owner and owner[here] != area.id:
                yield Issue("AREA-OVERLAP", f"{path}.squares[{n}]", f"deployment areas {owner[here]} and {area.id} "
                            f"share {x},{y}", area.level, ((x, y),))
            owner.setdefault(here, area.id)
        inside = {(area.level, x, y) for x, y in area.squares}
        if not any((mm.level, mm.x, mm.y) in inside for mm in c.m.marines.squad):
            yield Issue("AREA-EMPTY", path, f"deployment area {area.id} holds no Marine of the squad: it sets up no "
                        "one (place a Marine on one of its squares)", area.level, tuple(area.squares), "warning")


def check_deployment(c: _Ctx) -> Iterator[Issue]:
    seen: dict[Place, str] = {}
    closed = {(d.level, d.x, d.y) for d in c.m.doors if d.state == "closed"}
    ramps = {(t.level, t.x, t.y) for t in c.m.torpedoes}  # the Marines listed on a ramp start aboard: many may
    for i, mm in enumerate(c.m.marines.squad):
        here = (mm.level, mm.x, mm.y)
        path = f"$.marines.squad[{i}]"
        if not c.ok(path):
            continue
        if here in seen and here not in ramps:
            yield Issue(
                "DEPLOY-OVERLAP",
                path,
                f"Marines {seen[here]} and {mm.id} deploy on the same square",
                mm.level,
                ((mm.x, mm.y),),
            )
        seen[here] = mm.id
        if here in closed or here in c.chutes:
            yield Issue(
                "DEPLOY-BLOCKED", path, f"Marine {mm.id} deploys on a closed door or a chute", mm.level, ((mm.x, mm.y),)
            )


def check_squad(c: _Ctx) -> Iterator[Issue]:
    squad = c.m.marines.squad
    ranks = Counter(mm.rank for mm in squad)
    if ranks["sergeant"] > 1:
        yield Issue("SQUAD-SERGEANT", "$.marines.squad", "a squad has at most one sergeant")
    if ranks["archivist"] > 1:
        yield Issue("SQUAD-ARCHIVIST", "$.marines.squad", "a squad has at most one Archivist")
    for i, mm in enumerate(squad):
        path = f"$.marines.squad[{i}]"
        if not c.ok(path):
            continue
        if mm.melee in ("lightning_claws",) and mm.ranged != "none":
            yield Issue(
                "SQUAD-WEAPON",
                path,
                f"{mm.id}: lightning claws leave no hand for a ranged weapon",
                mm.level,
                ((mm.x, mm.y),),
            )
        if mm.storm_shield and (mm.ranged != "none" or mm.melee != "thunder_hammer"):
            yield Issue(
                "SQUAD-WEAPON",
                path,
                f"{mm.id}: the storm shield goes with a thunder hammer and no ranged weapon",
                mm.level,
                ((mm.x, mm.y),),
            )
        if mm.melee == "force_axe" and mm.rank != "archivist":
            yield Issue(
                "SQUAD-WEAPON", path, f"{mm.id}: only the Archivist carries a force axe", mm.level, ((mm.x, mm.y),)
            )


def _edge(c: _Ctx, kind: str, rule: str, items: list[tuple[str, str, int, int, str, str]]) -> Iterator[Issue]:
    for path, level, x, y, side, ident in items:
        lv = c.levels.get(level)
        if lv is None or not lv.is_floor(x, y) or not c.ok(path) or side not in SIDE_STEP:
            continue
        dx, dy = SIDE_STEP[side]
        if lv.is_floor(x + dx, y + dy):
            yield Issue(
                rule,
                path,
                f"{kind} {ident} opens {side} of {x},{y} onto floor; it must face the board edge or a wall",
                level,
                ((x, y),),
            )


def check_edges(c: _Ctx) -> Iterator[Issue]:
    yield from _edge(
        c,
        "entry area",
        "ENTRY-EDGE",
        [(f"$.entry_areas[{i}]", e.level, e.x, e.y, e.side, e.id) for i, e in enumerate(c.m.entry_areas)],
    )
    yield from _edge(
        c, "exit", "EXIT-EDGE", [(f"$.exits[{i}]", e.level, e.x, e.y, e.side, e.id) for i, e in enumerate(c.m.exits)]
    )
    yield from _edge(
        c,
        "boarding torpedo",
        "TORPEDO-EDGE",
        [(f"$.torpedoes[{i}]", t.level, t.x, t.y, t.side, t.id) for i, t in enumerate(c.m.torpedoes)],
    )


def check_forces(c: _Ctx) -> Iterator[Issue]:
    gs = c.m.genestealers
    entries = {e.id for e in c.m.entry_areas}
    starting_ok = c.ok("$.genestealers.starting")
    for j, name in enumerate(gs.starting.entry_areas if starting_ok else ()):
        if name not in entries:
            yield Issue(
                "REF-ENTRY",
                f"$.genestealers.starting.entry_areas[{j}]",
                f"starting blips name entry area {name!r}, which does not exist",
            )
    if starting_ok and gs.starting.blips and not gs.starting.entry_areas:
        yield Issue("REF-ENTRY", "$.genestealers.starting", "starting blips need at least one entry area")
    for i, r in enumerate(gs.reinforcements):
        path = f"$.genestealers.reinforcements[{i}]"
        if not c.ok(path):
            continue
        for j, name in enumerate(r.entry_areas):
            if name not in entries:
                yield Issue(
                    "REF-ENTRY",
                    f"{path}.entry_areas[{j}]",
                    f"reinforcements name entry area {name!r}, which does not exist",
                )
        if r.to_turn is not None and r.to_turn < r.from_turn:
            yield Issue("REINF-TURNS", path, f"turns {r.from_turn}-{r.to_turn}: the range ends before it starts")
        if r.pool == "limited" and gs.limited is None and c.ok("$.genestealers.limited"):
            # The rules draw such a row from no limit at all: the designer meant a limit and wrote none.
            yield Issue(
                "POOL-NO-LIMIT",
                f"{path}.pool",
                f"reinforcements from turn {r.from_turn} draw from the limited pool, but the mission sets no limit "
                "(genestealers.limited), so the game would give them without end: add the limit, or make the "
                "row's pool unlimited",
            )
    capacity = sum(v * n for v, n in gs.pool.items())
    if gs.limited is not None and c.ok("$.genestealers.limited"):
        have = capacity if gs.limited.unit == "stealers" else sum(gs.pool.values())
        if gs.limited.total > have:
            yield Issue(
                "POOL-LIMIT",
                "$.genestealers.limited",
                f"the limited pool asks for {gs.limited.total} {gs.limited.unit}; the box holds {have}",
            )
    if sum(gs.pool.values()) == 0 and (gs.starting.blips or any(r.per_turn for r in gs.reinforcements)):
        yield Issue("POOL-EMPTY", "$.genestealers.pool", "blips arrive but the blip pool is empty")
    if gs.alpha and gs.pool.get(3, 0) == 0:
        yield Issue(
            "POOL-ALPHA",
            "$.genestealers.alpha",
            "the Alpha comes from a '3' blip, and the pool has none",
            severity="warning",
        )


def check_random_setup(c: _Ctx) -> Iterator[Issue]:
    rs = c.m.random_setup
    if rs is None:
        return
    seen: set[tuple[str, str]] = set()
    for i, (level, code) in enumerate(rs.zones):
        path = f"$.random_setup.zones[{i}]"
        if not c.ok(path):
            seen.add((level, code))  # still a zone, for the counts below
            continue
        lv = c.levels.get(level)
        if lv is None:
            yield Issue("REF-LEVEL", f"{path}.level", f"random set-up zone is on level {level!r}, which does not exist")
            continue
        if not any(code in row for row in lv.rows):
            where = c.m.level_words(level)
            yield Issue("REF-SECTION", f"{path}.section", f"section {code!r} has no squares on {where}", level)
        if (level, code) in seen:
            yield Issue("RANDOM-ZONE-TWICE", path, f"section {code!r} is listed twice", level, (), "warning")
        seen.add((level, code))
    if len(rs.counters) > len(seen):
        yield Issue(
            "RANDOM-PER-SECTION",
            "$.random_setup.counters",
            f"{len(rs.counters)} random counters but {len(seen)} zone sections: at most one counter per section",
        )
    holes = sum(1 for x in rs.counters if x.kind in ("pitfall", "ladder"))
    if holes:
        usable = 0
        for level, code in seen:
            lv = c.levels.get(level)
            below = c.m.level_below(level) if lv is not None else None
            if lv is None or below is None:
                continue
            if any(ch == code and below.is_floor(x, y) for y, row in enumerate(lv.rows) for x, ch in enumerate(row)):
                usable += 1
        if usable < holes:
            yield Issue(
                "RANDOM-NO-BOTTOM",
                "$.random_setup.zones",
                f"{holes} pitfall/ladder counters but only {usable} zone sections have floor below them",
            )
    letters = Counter(x.letter for x in rs.counters if x.kind == "pitfall" and x.letter)
    fixed = {p.letter for p in c.m.pitfalls}
    for letter, n in sorted(letters.items()):
        if n > 1 or letter in fixed:
            yield Issue("REF-DUPLICATE-ID", "$.random_setup.counters", f"pitfall letter {letter} is used twice")


def check_declared(c: _Ctx) -> Iterator[Issue]:
    """Each kind's own rule declared with it (engine/mission/kinds.py, Kind.check), on its items the schema found
    whole."""
    for kind in KINDS:
        if kind.check is not None:
            paths = ((path_of(kind, i), obj) for i, obj in enumerate(items(c.m, kind)))
            yield from kind.check([(path, obj) for path, obj in paths if c.ok(path)])


def check_victory(c: _Ctx) -> Iterator[Issue]:
    # The conditions are read by engine.mission.victory, which the Derelict export shares.
    for i, v in enumerate(c.m.victory):
        path = f"$.victory[{i}]"
        if c.ok(path):
            for f in faults(c.m, v):
                yield Issue(f.rule, path + f.where, f.message, f.level, f.squares)


CHECKS = (
    check_levels,
    check_ids,
    check_squares,
    check_doors,
    check_pitfalls,
    check_ladders,
    check_lifts,
    check_deployment_areas,
    check_deployment,
    check_squad,
    check_edges,
    check_forces,
    check_random_setup,
    check_victory,
    check_declared,
)


# Each kind's own checks among CHECKS (every kind also gets check_squares and check_ids through the registry);
# a kind not named has no rule of its own beyond those (rubble, chutes).
_OWN_CHECKS: dict[str, tuple[Callable[[_Ctx], Iterator[Issue]], ...]] = {
    "doors": (check_doors,),
    "entry_areas": (check_edges, check_forces),
    "exits": (check_edges,),
    "objectives": (check_victory,),
    "pitfalls": (check_pitfalls,),
    "ladders": (check_ladders,),
    "lifts": (check_lifts,),
    "deployment_areas": (check_deployment_areas,),
    "torpedoes": (check_edges,),
    "squad": (check_deployment, check_squad),
}
KIND_CHECKS: dict[str, tuple[Callable[[_Ctx], Iterator[Issue]], ...]] = {
    k.key: _OWN_CHECKS.get(k.key, ()) + ((check_declared,) if k.check is not None else ()) for k in KINDS
}


def placement_issues(m: Mission, broken: frozenset[str] = frozenset()) -> list[Issue]:
    """Every placement-rule and reference finding for a well-typed mission; the checks of each object in
    `broken` (paths of objects the schema rejects, see schema_check.SchemaReport) are skipped."""
    c = _Ctx(m, broken)
    return [issue for check in CHECKS for issue in check(c)]
