"""Import a Derelict mission (engine/export/derelict.py writes them; Derelict ships its own) as a one-level mission.

Each segment instance becomes a section (Derelict's flamer burns the instance it hits, ours the section), its
floor cells the section's squares; doors, alien entries (entry areas facing where the token points), Marines and
objective tokens come across; what has no counterpart is named in a warning. Segments are looked up in the
libraries given, else in the one the mission's `segments:` line names beside it, else STEM.segments.txt (what
an export writes). The level keeps one wall square around the floor, so an export of a level drawn with a
wall border imports at the same coordinates.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from engine.export.derelict import _derelict_entry_for
from engine.export.derelict_read import (
    DerelictMission,
    Placed,
    SegmentDef,
    parse_library,
    parse_mission,
    read_text,
    rotate,
)
from engine.export.safe_text import one_line
from engine.mission import Issue, Mission, MissionFileError, mission_from_dict, mission_to_dict, validate_document
from engine.mission.io import check_mission_text
from engine.mission.issues import json_path
from engine.mission.model import (
    WALL,
    Door,
    EntryArea,
    Facing,
    Genestealers,
    Level,
    Marine,
    Marines,
    Meta,
    Objective,
    Reinforcement,
    Section,
)
from engine.mission.schema_check import schema_errors
from engine.mission.strict_json import JSONContentError

FACING_OF_ROT: dict[int, Facing] = {0: "S", 90: "W", 180: "N", 270: "E"}
CODES = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
MAX_LEVEL = 200  # squares a side (the schema's limit)
LEVEL_ID = "deck"
_AROUND = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
# Tokens that mark the state of a game in progress or a set-up aid, with no counterpart in a mission file.
_NO_COUNTERPART = {
    "alien": "Genestealers on the board at the start",
    "blip": "blips on the board at the start",
    "blip_2": "blips on the board at the start",
    "blip_3": "blips on the board at the start",
    "drop_marine": "drop points for Marines (the Marines' own tokens give their squares)",
    "start_marine": "start squares for Marines (the Marines' own tokens give their squares)",
    "deactivated": "game-state markers",
    "guard": "game-state markers",
    "jam": "game-state markers",
    "flame": "game-state markers",
    "overwatch": "game-state markers",
}
Square = tuple[int, int]


class SegmentsMissing(MissionFileError):
    """A segment instance names a segment no library read holds: the caller may ask for a library and retry."""


def libraries_for(path: str | os.PathLike[str], mission: DerelictMission) -> list[Path]:
    """The segment libraries to read when none is given: the one named on the `segments:` line, beside the
    mission (a plain file name only), else the export's STEM.segments.txt; whichever exists."""
    here = Path(path)
    named = mission.segments_file
    candidates = [here.with_name(named)] if named and Path(named).name == named and named not in (".", "..") else []
    candidates.append(here.with_name(f"{here.stem}.segments.txt"))
    return [p for p in candidates if _is_file(p)][:1]


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, or one holding a NUL
        return False


def import_derelict(
    path: str | os.PathLike[str],
    segments: Sequence[str | os.PathLike[str]] = (),
    warnings: list[str] | None = None,
) -> tuple[Mission, list[Issue]]:
    """Read a Derelict mission into a mission and its validation issues; raises MissionFileError (naming the
    file and the line) when it cannot. warnings, when given, receives what has no counterpart."""
    source = str(path)
    dm = parse_mission(read_text(path, "Derelict mission"), source)
    libs = [Path(p) for p in segments] or libraries_for(path, dm)
    library: dict[str, SegmentDef] = {}
    for lib in libs:
        for sid, seg in parse_library(read_text(lib, "Derelict segment library"), str(lib)).items():
            library.setdefault(sid, seg)
    notes: list[str] = []
    doc = _Builder(source, dm, library, [str(p) for p in libs], notes).document(Path(path).name)
    try:
        check_mission_text(doc)
    except JSONContentError as exc:
        raise MissionFileError(source, f"the mission's {exc.path}: {exc.message}") from None
    for parts, text in schema_errors(doc):
        raise MissionFileError(source, f"does not make a valid mission: {json_path(parts)}: {text}")
    if warnings is not None:
        warnings += notes
    return mission_from_dict(doc), validate_document(doc)


class _Builder:
    def __init__(self, source: str, dm: DerelictMission, library: dict[str, SegmentDef], libs: list[str],
                 warnings: list[str]) -> None:
        self.source, self.dm, self.library, self.libs, self.warnings = source, dm, library, libs, warnings

    def fail(self, item: Placed, message: str) -> MissionFileError:
        return MissionFileError(self.source, f"line {item.line}: {message}")

    def cells(self) -> tuple[dict[Square, int], dict[int, list[Square]]]:
        """Floor square -> instance index, and each instance's floor squares, on Derelict's board."""
        owner: dict[Square, int] = {}  # every cell an instance covers, walls included: Derelict refuses overlaps
        floor: dict[int, list[Square]] = {}
        size = self.dm.board
        for i, inst in enumerate(self.dm.instances):
            seg = self.library.get(inst.type)
            if seg is None:
                where = f"is not in {', '.join(self.libs)}" if self.libs else "has no segment library beside it"
                raise SegmentsMissing(self.source, f"line {inst.line}: segment {inst.type!r} of instance "
                                      f"{inst.id!r} {where}: give --segments "
                                      "path/to/Derelict/public/assets/segments.txt")
            mine: list[Square] = []
            for y, row in enumerate(seg.rows):
                for x, value in enumerate(row):
                    dx, dy = rotate(x, y, inst.rot, seg)
                    sq = (inst.x + dx, inst.y + dy)
                    if not (0 <= sq[0] < size and 0 <= sq[1] < size):
                        raise self.fail(inst, f"instance {inst.id!r} reaches {sq}, off the {size}x{size} board")
                    other = owner.get(sq)
                    if other is not None:
                        raise self.fail(inst, f"instance {inst.id!r} overlaps instance "
                                              f"{self.dm.instances[other].id!r} at {sq} (Derelict refuses it)")
                    owner[sq] = i
                    if value:
                        mine.append(sq)
            floor[i] = mine
        return {sq: i for i, squares in floor.items() for sq in squares}, floor

    def document(self, file_name: str) -> dict[str, object]:
        dm = self.dm
        where, floor = self.cells()
        if not where:
            raise MissionFileError(self.source, "has no floor square (no segment instance with a corridor cell)")
        xs, ys = [s[0] for s in where], [s[1] for s in where]
        ox, oy = min(xs) - 1, min(ys) - 1  # one wall square around the floor
        width, height = max(xs) - ox + 2, max(ys) - oy + 2
        if width > MAX_LEVEL or height > MAX_LEVEL:
            raise MissionFileError(self.source, f"its floor spans {width - 2}x{height - 2} squares; a level holds "
                                                f"at most {MAX_LEVEL - 2}x{MAX_LEVEL - 2} with its wall border")
        codes = self.section_codes(where, floor)
        grid = [[WALL] * width for _ in range(height)]
        for (x, y), i in where.items():
            grid[y - oy][x - ox] = codes[i]
        sections: dict[str, Section] = {}
        for i, inst in enumerate(dm.instances):
            if not floor[i]:
                continue
            sec = sections.setdefault(codes[i], Section("", "room" if "room" in inst.type.lower() else "corridor"))
            label = f"{inst.id} ({inst.type})"
            sec.name = one_line(f"{sec.name}, {label}" if sec.name else label)[:80]
        level = Level(LEVEL_ID, 0, ["".join(r) for r in grid], "Deck", sections)

        def local(t: Placed) -> Square | None:
            sq = (t.x - ox, t.y - oy)
            if 0 <= sq[0] < width and 0 <= sq[1] < height:
                return sq
            self.warnings.append(f"line {t.line}: {t.type} {t.id} at ({t.x},{t.y}) lies outside the floor's "
                                 "extent: left out")
            return None

        doors: list[Door] = []
        entries: list[EntryArea] = []
        squad: list[Marine] = []
        objectives: list[Objective] = []
        lurks: list[Placed] = []
        missing: dict[str, list[int]] = {}
        for t in dm.tokens:
            if t.type in ("door", "dooropen"):
                sq = local(t)
                if sq:
                    doors.append(Door(f"D{len(doors) + 1}", LEVEL_ID, *sq,
                                      state="open" if t.type == "dooropen" else "closed"))
            elif t.type == "alien_entry":
                sq = local(t)
                if sq:
                    entries.append(EntryArea(f"E{len(entries) + 1}", LEVEL_ID, *sq, FACING_OF_ROT[t.rot]))
            elif t.type in ("marine", "marine_flame", "marine_sarge"):
                sq = local(t)
                if sq:
                    squad.append(self.marine(t, sq, len(squad)))
            elif t.type == "objective":
                sq = local(t)
                if sq:
                    name = one_line(f"Objective {t.id}")[:80]
                    objectives.append(Objective(f"O{len(objectives) + 1}", LEVEL_ID, *sq, name, "location"))
            elif t.type == "lurk":
                lurks.append(t)
            else:
                missing.setdefault(t.type, []).append(t.line)
        for kind, lines in missing.items():
            what = _NO_COUNTERPART.get(kind, "an unknown token type (Derelict's board refuses it too)")
            self.warnings.append(f"{len(lines)} {kind} token(s) left out (line {lines[0]}"
                                 f"{' and more' if len(lines) > 1 else ''}): a mission file has no {what}")
        if dm.attrs_lines:
            self.warnings.append(f"attrs={{...}} of {len(dm.attrs_lines)} token(s) left out (line "
                                 f"{dm.attrs_lines[0]}): a mission has nothing to hold them")
        if not squad:
            raise MissionFileError(self.source, "has no Marine token (marine, marine_sarge or marine_flame): a "
                                                "mission needs one, and Derelict will not start a game without one")
        self.burn_notes(floor, doors, ox, oy)
        genestealers = self.genestealers(entries, lurks, ox, oy)
        victory = self.victory(objectives, squad)
        mission = Mission(
            meta=Meta(one_line(dm.name)[:120] or Path(file_name).stem[:120] or "Derelict mission",
                      source=one_line(f"imported from the Derelict mission {file_name}")[:400]),
            levels=[level], marines=Marines(squad), genestealers=genestealers, victory=victory,
            doors=doors, entry_areas=entries, objectives=objectives,
        )
        return mission_to_dict(mission)

    def section_codes(self, where: dict[Square, int], floor: dict[int, list[Square]]) -> dict[int, str]:
        """A section code per instance: a code of its own while they last, then one no touching instance has,
        so no two instances ever join into one section (ours burns a section's connected squares)."""
        touching: dict[int, set[int]] = {i: set() for i in floor}
        for (x, y), i in where.items():
            for dx, dy in _AROUND:
                j = where.get((x + dx, y + dy))
                if j is not None and j != i:
                    touching[i].add(j)
        codes: dict[int, str] = {}
        fresh = iter(CODES)
        for i in floor:
            if not floor[i]:
                continue
            code = next(fresh, None)
            if code is None:
                near = {codes[j] for j in touching[i] if j in codes}
                code = next(c for c in CODES if c not in near)
            codes[i] = code
        return codes

    def marine(self, t: Placed, sq: Square, n: int) -> Marine:
        facing = FACING_OF_ROT[t.rot]
        if t.type == "marine_sarge":
            return Marine(f"M{n + 1}", "sergeant", LEVEL_ID, *sq, facing, "Sergeant", melee="power_sword")
        if t.type == "marine_flame":
            return Marine(f"M{n + 1}", "marine", LEVEL_ID, *sq, facing, "Flamer", ranged="heavy_flamer")
        return Marine(f"M{n + 1}", "marine", LEVEL_ID, *sq, facing, "Brother")

    def burn_notes(self, floor: dict[int, list[Square]], doors: list[Door], ox: int, oy: int) -> None:
        """Where our flamer will burn other squares than Derelict's: an instance whose floor falls apart, or that
        a closed door cuts in two (Derelict burns the whole instance, ours stops at a closed door)."""
        closed = {(d.x + ox, d.y + oy): d for d in doors if d.state == "closed"}
        for i, inst in enumerate(self.dm.instances):
            squares = set(floor[i])
            if not squares:
                continue
            parts = _parts(squares)
            if parts > 1:
                self.warnings.append(f"line {inst.line}: the floor of instance {inst.id!r} falls into {parts} "
                                     "pieces: Derelict's flamer burns them all, ours only the piece it hits")
                continue
            inside = sorted((sq for sq in closed if sq in squares), key=lambda s: (s[1], s[0]))
            if inside and _parts(squares - set(inside)) > 1:
                names = ", ".join(f"{closed[sq].id} at ({sq[0] - ox},{sq[1] - oy})" for sq in inside)
                self.warnings.append(
                    f"line {inst.line}: closed door(s) {names} cut instance {inst.id!r}: while closed, our "
                    "flamer burns one side, Derelict's the whole instance")

    def genestealers(self, entries: list[EntryArea], lurks: list[Placed], ox: int, oy: int) -> Genestealers:
        """Derelict's reinforcements (4 blips on turn 1, then 2 a turn, on lurk tokens that walk to the nearest
        alien entry) as rows through the entry areas some lurk token feeds."""
        fed: list[str] = []
        if entries:
            for t in lurks:
                target = _derelict_entry_for(entries, (t.x - ox, t.y - oy))
                if target.id not in fed:
                    fed.append(target.id)
        unfed = [e.id for e in entries if e.id not in fed]
        if unfed and fed:
            self.warnings.append(f"entry area(s) {', '.join(unfed)} get no reinforcement: no lurk token leads to "
                                 "them in Derelict")
        if not fed:
            if entries:
                self.warnings.append("no lurk token: Derelict brings no reinforcement; the entry areas get "
                                     "Derelict's schedule here all the same")
            fed = [e.id for e in entries]
        rows = [] if not fed else [
            Reinforcement(from_turn=1, to_turn=1, per_turn=4, entry_areas=fed, pool="unlimited"),
            Reinforcement(from_turn=2, per_turn=2, entry_areas=fed, pool="unlimited"),
        ]
        self.warnings.append("reinforcements follow Derelict's: 4 blips on turn 1, then 2 a turn, from a pool "
                             "without limit; blip values are drawn from hulkforge's box")
        return Genestealers(reinforcements=rows)

    def victory(self, objectives: list[Objective], squad: list[Marine]) -> list[dict[str, object]]:
        """Derelict's victory: Marines win by setting an objective token on fire, Genestealers when no Marine
        is left (or the flamer Marine dies or runs dry, which has no counterpart)."""
        out: list[dict[str, object]] = [
            {"kind": "objective_flamed", "objective": o.id, "result": "marines"} for o in objectives
        ]
        out.append({"kind": "marines_eliminated"})
        if not objectives:
            self.warnings.append("no objective token: the Marines cannot win, as in Derelict")
        elif not any(m.ranged == "heavy_flamer" for m in squad):
            self.warnings.append("objective tokens and no flamer Marine: Derelict gives the Genestealers the win at "
                                 "once; here no Marine can set an objective on fire either")
        else:
            self.warnings.append("Derelict's Genestealer win when the flamer Marine dies or runs out of fuel is "
                                 "left out: a mission has no such condition")
        return out


def _parts(squares: set[Square]) -> int:
    """How many pieces the squares make, joined through their eight neighbours (as our flamer spreads)."""
    left, parts = set(squares), 0
    while left:
        parts += 1
        todo = [left.pop()]
        while todo:
            x, y = todo.pop()
            for dx, dy in _AROUND:
                n = (x + dx, y + dy)
                if n in left:
                    left.remove(n)
                    todo.append(n)
    return parts
