"""Export one level as a Derelict mission (JohnTwenty/Projects, a browser Space Hulk) and its segment library.

Derelict's formats, read from its sources (BoardState/src/io/*.parse.ts, Rules/src/index.ts):
- segment library: `legend: 0=wall, 1=corridor`, then `segment ID HxW`, H rows of W space-separated
  0/1 and `endsegment`;
- mission: `mission:`, `profile: mission`, `version: 1`, `board: N` (an N x N board), `instances:` lines
  `ID: SEGMENT pos=(x,y) rot=R` and `tokens:` lines `ID: TYPE pos=(x,y) rot=R`;
- a token's rot is where it faces: 0 south (+y), 90 west, 180 north, 270 east (Rules forwardCell);
- an `alien_entry` points outwards and reinforcement blips appear on `lurk` tokens two squares beyond it; a blip
  on a lurk square moves (1 AP) to the nearest free `alien_entry` square (Chebyshev distance, ties by y then x);
- its flamer burns the whole segment instance it hits, so a level is cut into one segment per section
  (engine/export/derelict_segments.py), and its only Marine victory is an objective token in flames
  (engine/export/derelict_victory.py).
Checked by running Derelict's own BoardState loader and Rules functions under node on every sample export.
Derelict's Game and Editor read segments only from their own public/assets/segments.txt (the mission's
`segments:` line is provenance, ignored by its parser), and refuse every mission when an id appears twice there:
segment ids are hashes of their cells, and merge_library adds only the segments the file does not have yet.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.export.derelict_library import merge_library, segment_library
from engine.export.derelict_segments import Piece, cut_level, flame_regions
from engine.export.derelict_victory import objective_tokens
from engine.export.files import ExportReport
from engine.export.outputs import OutputRefused, check_targets
from engine.export.safe_text import one_line
from engine.export.staging import staged_files
from engine.mission.io import read_limited
from engine.mission.kinds import KINDS, CannotExpress, items
from engine.mission.model import EntryArea, Level, Mission

# Room around the level for the lurk tokens beyond the entry areas on its edge.
MARGIN = 2
MAX_LIBRARY_BYTES = 64 * 1024 * 1024  # Derelict's own segments.txt is far smaller
ROT_OF_FACING = {"S": 0, "W": 90, "N": 180, "E": 270}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
# The token types Derelict's public/assets/tokens.txt declares; any other type is refused by its board.
TOKEN_TYPES = frozenset(
    {
        "door",
        "dooropen",
        "marine",
        "marine_flame",
        "marine_sarge",
        "alien",
        "blip",
        "blip_2",
        "blip_3",
        "objective",
        "drop_marine",
        "start_marine",
        "lurk",
        "alien_entry",
        "deactivated",
        "guard",
        "jam",
        "flame",
        "overwatch",
    }
)


def _door_rot(level: Level, x: int, y: int) -> int:
    # Derelict draws a door with rot 0 across an east-west passage and rot 90 across a north-south one.
    return 0 if level.is_floor(x - 1, y) and level.is_floor(x + 1, y) else 90


def _tokens(m: Mission, level: Level, warnings: list[str]) -> list[tuple[str, int, int, int]]:
    """(type, x, y, rot) of every token, in board coordinates."""
    out: list[tuple[str, int, int, int]] = []
    lid = level.id
    for d in (d for d in m.doors if d.level == lid):
        out.append(("dooropen" if d.state == "open" else "door", d.x, d.y, _door_rot(level, d.x, d.y)))
        if d.kind == "bulkhead":
            warnings.append(f"bulkhead {d.id} becomes an ordinary door (Derelict has no bulkheads)")
    for mar in (x for x in m.marines.squad if x.level == lid):
        kind = (
            "marine_sarge" if mar.rank == "sergeant" else "marine_flame" if mar.ranged == "heavy_flamer" else "marine"
        )
        lost = _lost_kit(mar.rank, mar.ranged, mar.melee, mar.storm_shield)
        if lost:
            warnings.append(f"marine {mar.id} becomes a {kind}: Derelict has no {', '.join(lost)}")
        out.append((kind, mar.x, mar.y, ROT_OF_FACING[mar.facing]))
    entries = [e for e in m.entry_areas if e.level == lid]
    taken: set[tuple[int, int]] = set()
    for e in entries:
        out.append(("alien_entry", e.x, e.y, ROT_OF_FACING[e.side]))
        dx, dy = STEP[e.side]
        cx, cy = e.x + 2 * dx, e.y + 2 * dy
        kept = 0
        for k in (-1, 0, 1):
            sq = (cx + k * dy * dy, cy + k * dx * dx)  # the row of three across the direction of entry
            if sq in taken:
                continue
            if level.is_floor(*sq):
                taken.add(sq)
                warnings.append(f"lurk square {sq} of entry area {e.id} is a floor square: left out")
                continue
            nearest = _derelict_entry_for(entries, sq)
            if nearest is not e:  # left for the nearer entry area, which takes it if the square is in its row
                warnings.append(
                    f"lurk square {sq} of entry area {e.id} is left out: Derelict would send its blips to "
                    f"entry area {nearest.id}, the nearer one"
                )
                continue
            taken.add(sq)
            out.append(("lurk", sq[0], sq[1], 0))
            kept += 1
        if not kept:
            warnings.append(f"entry area {e.id} has no lurk square: Derelict brings no reinforcement through it")
    return out


def _derelict_entry_for(entries: list[EntryArea], sq: tuple[int, int]) -> EntryArea:
    """The entry area a blip on lurk square sq moves to in Derelict (Rules getEntryMoveTarget)."""
    # Nearest by Chebyshev distance, a tie going to the entry first in (y, x) order, as Derelict's compareCoords.
    return min(entries, key=lambda e: (max(abs(e.x - sq[0]), abs(e.y - sq[1])), e.y, e.x))


_MELEE_LOST = {
    "thunder_hammer": "thunder hammers",
    "lightning_claws": "lightning claws",
    "chain_fist": "chain fists",
    "force_axe": "force axes",
}


def _lost_kit(rank: str, ranged: str, melee: str, shield: bool) -> list[str]:
    """What of a Marine's rank and wargear Derelict's three marine tokens cannot show."""
    lost = []
    if rank == "archivist":
        lost.append("archivists")
    if ranged == "assault_cannon":
        lost.append("assault cannons")
    elif ranged == "none":
        lost.append("Marines without a gun")
    elif ranged == "heavy_flamer" and rank == "sergeant":
        lost.append("flamer sergeants")
    if melee in _MELEE_LOST:
        lost.append(_MELEE_LOST[melee])
    if shield:
        lost.append("storm shields")
    return lost


def _lost_features(m: Mission, level: Level) -> list[str]:
    """One warning per kind of content Derelict cannot hold."""
    lid = level.id
    out: list[str] = []
    others = [m.level_words(lv.id) for lv in m.levels if lv.id != lid]
    if others:
        out.append(f"only {m.level_words(lid)} is exported; Derelict has one board, left out: {', '.join(others)}")
    for kind in KINDS:
        if isinstance(kind.derelict, CannotExpress):
            n = sum(1 for obj in items(m, kind) if any(sq.level == lid for _r, sq in kind.ends(obj)))
            if n:
                out.append(f"{n} {kind.derelict.what} left out: {kind.derelict.reason}")
    if m.random_setup is not None:
        out.append("the random set-up (counters placed each game) is left out")
    out.append(
        "blip pool and reinforcement schedule are not carried: Derelict gives 4 blips on turn 1, then 2 a turn, "
        "placed on lurk tokens"
    )
    elsewhere = [x.id for x in m.marines.squad if x.level != lid]
    if elsewhere:
        out.append(f"marines on other levels left out: {', '.join(elsewhere)}")
    if not any(x.level == lid for x in m.marines.squad):
        out.append(f"no marine starts on {m.level_words(lid)}: Derelict refuses to start a game without one")
    return out


def derelict_texts(
    mission: Mission, level_id: str | None = None, library_name: str = "mission.segments.txt"
) -> tuple[str, str, list[str]]:
    """(mission text, segment library text, warnings) for one level (default: the top one)."""
    text, pieces, warnings = _mission_text(mission, level_id, library_name)
    return text, segment_library(pieces), warnings


def _mission_text(mission: Mission, level_id: str | None, library_name: str) -> tuple[str, list[Piece], list[str]]:
    level = mission.level(level_id) if level_id else mission.levels_top_down()[0]
    if level is None:
        known = ", ".join(lv.id for lv in mission.levels)
        raise ValueError(f"no level {level_id!r} in the mission (levels: {known})")
    warnings = _lost_features(mission, level)
    closed = frozenset((d.x, d.y) for d in mission.doors if d.level == level.id and d.state == "closed")
    pieces = cut_level(level, closed)
    warnings += _split_sections(level, pieces)
    warnings += _door_splits(mission, level, pieces)
    tokens = _tokens(mission, level, warnings)
    tokens += [("objective", x, y, 0) for x, y in objective_tokens(mission, level, pieces, warnings)]
    size = max(level.width, level.height) + 2 * MARGIN
    title = one_line(mission.meta.title) or "hulkforge mission"
    if len(mission.levels) > 1:
        title = f"{title} - {one_line(level.name or level.id)}"
    lines = [
        f"mission: {title}",
        "profile: mission",
        "version: 1",
        f"board: {size}",
        f"segments: {one_line(library_name)}",
        "",
        "instances:",
    ]
    # Zero-padded ids keep Derelict's own sort (by instance id) in the order written here.
    for n, p in enumerate(pieces, start=1):
        lines.append(f"  seg-{n:03d}: {p.segment_id} pos=({p.x + MARGIN},{p.y + MARGIN}) rot=0")
    lines += ["", "tokens:"]
    for n, (kind, x, y, rot) in enumerate(tokens, start=1):
        bx, by = x + MARGIN, y + MARGIN
        if not (0 <= bx < size and 0 <= by < size):
            warnings.append(f"{kind} at ({x},{y}) falls off Derelict's board and is left out")
            continue
        lines.append(f"  tok-{n:03d}: {kind} pos=({bx},{by}) rot={rot}")
    return "\n".join(lines) + "\n", pieces, warnings


def _split_sections(level: Level, pieces: list[Piece]) -> list[str]:
    """A warning for each flame region the export had to cut into several segments."""
    out = []
    counts: dict[int, list[Piece]] = {}
    for p in pieces:
        counts.setdefault(p.region, []).append(p)
    for parts in counts.values():
        if len(parts) < 2:
            continue
        what = _section_words(level, parts[0].code, parts[0].floor()[0])
        out.append(
            f"{what} is cut into {len(parts)} Derelict segments (no rectangle holds it without another "
            "section's floor): a Derelict flamer burns only the part it hits"
        )
    return out


def _section_words(level: Level, code: str, square: tuple[int, int]) -> str:
    if code == ".":
        return f"the floor outside any section at {square}"
    sec = level.sections.get(code)
    return f"section {code}" + (f" ({sec.name})" if sec is not None and sec.name else "")


def _door_splits(m: Mission, level: Level, pieces: list[Piece]) -> list[str]:
    """A warning for each section a closed door cuts into several segments: Derelict's segments are fixed, so
    once the door opens our flamer burns the whole section and Derelict's only the segment it hits."""
    part_of = {sq: p.region for p in pieces for sq in p.floor()}
    closed = {(d.x, d.y): d.id for d in m.doors if d.level == level.id and d.state == "closed"}
    out = []
    for whole in flame_regions(level):  # as our flamer burns with every door open
        inside = set(whole)
        parts = {part_of[sq] for sq in whole if sq in part_of}
        if len(parts) < 2:
            continue
        cutting = [
            f"{closed[(x, y)]} at ({x},{y})"
            for x, y in whole
            if (x, y) in closed
            and len({part_of[n] for n in _around(x, y) if n in inside and n in part_of} | {part_of[(x, y)]}) > 1
        ]
        if not cutting:
            continue
        sizes = sorted({sum(1 for sq in whole if part_of.get(sq) == r) for r in parts}, reverse=True)
        out.append(
            f"{_section_words(level, level.cell(*whole[0]), whole[0])}: closed door {', '.join(cutting)} cuts it "
            f"into {len(parts)} Derelict segments; while the door is closed both flamers burn the same squares, but "
            f"once it opens ours burns the whole section ({len(whole)} squares) and Derelict's only the segment it "
            f"hits ({' or '.join(str(n) for n in sizes)} squares)"
        )
    return out


def _around(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def export_derelict(
    mission: Mission,
    level_id: str | None,
    path: str | os.PathLike[str],
    merge_into: str | os.PathLike[str] | None = None,
) -> ExportReport:
    """Write one level as a Derelict mission at path and its segment library beside it (STEM.segments.txt), all
    or nothing; with merge_into, also add the segments Derelict's library file lacks to that file."""
    target = Path(path)
    lib_path = target.with_name(f"{target.stem}.segments.txt")
    library = Path(merge_into) if merge_into is not None else None
    text, pieces, warnings = _mission_text(mission, level_id, lib_path.name)
    check_targets([target, lib_path, *([library] if library else [])])
    added: list[str] = []
    with staged_files() as out:
        out.write_text(target, text)
        out.write_text(lib_path, segment_library(pieces))
        if library is not None:
            existing = _read_library(library)
            merged, added = merge_library(existing, pieces, str(library))
            if added:
                out.write_text(library, merged)
    if library is None:
        note = (
            f"Derelict reads segments only from its public/assets/segments.txt: add to it the segments of "
            f"{lib_path.name} it does not have yet (an id names one shape, so an id already there is the same "
            "segment; an id written twice makes Derelict refuse every mission), or export with --merge-into "
            "that file to do it safely"
        )
    elif added:
        note = f"{library}: added {len(added)} segment(s) Derelict did not have: {', '.join(added)}"
    else:
        note = f"{library}: already holds every segment this mission needs; left unchanged"
    return ExportReport(files=out.files, warnings=[note, *warnings])


def _read_library(library: Path) -> str:
    """The text of the segment library to merge into, read within a size and time limit (it may be any path)."""
    def refused(where: str | os.PathLike[str], message: str) -> OutputRefused:
        return OutputRefused(f"{where}: cannot be read: {message}")

    data = read_limited(library, what="Derelict segment library", error=refused, max_bytes=MAX_LIBRARY_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise OutputRefused(f"{library}: cannot be read: not UTF-8 text (byte {exc.start})") from None
