"""Derelict segment libraries: the one an export writes, and merging it into Derelict's own public/assets/segments.txt.

Derelict's Game reads segments only from that file and refuses every mission when an id appears twice in it
(BoardState segmentLib.parse.ts), so a library must be added once, and only the segments not there yet. Our ids
name a piece's cells (engine/export/derelict_segments.py), so an id already there is the same segment.
"""

from __future__ import annotations

import re

from engine.export.derelict_segments import Piece
from engine.export.outputs import OutputRefused


def segment_library(pieces: list[Piece]) -> str:
    """The segment library text holding each distinct piece once (1 = floor, 0 = wall)."""
    seen: dict[str, str] = {}
    for p in pieces:
        seen.setdefault(p.segment_id, p.definition())
    return "legend: 0=wall, 1=corridor\n" + "\n".join(seen.values())


_HEADER = re.compile(r"^segment\s+(\S+)\s+(\d+)x(\d+)$")


def _library_segments(text: str, source: str) -> dict[str, tuple[str, ...]]:
    """id -> rows of a Derelict segment library, read as Derelict reads it (BoardState segmentLib.parse.ts)."""
    lines = [ln.strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    out: dict[str, tuple[str, ...]] = {}
    i = 0
    while i < len(lines):
        if lines[i].startswith("legend:"):
            i += 1
            continue
        m = _HEADER.match(lines[i])
        if m is None or i + int(m[2]) + 1 >= len(lines) or lines[i + int(m[2]) + 1] != "endsegment":
            raise OutputRefused(f"{source}: line {lines[i]!r} is not part of a Derelict segment library")
        h = int(m[2])
        rows = tuple("".join(lines[i + 1 + r].split()) for r in range(h))
        if m[1] in out:
            raise OutputRefused(f"{source}: segment id {m[1]} appears twice (Derelict refuses every mission so)")
        out[m[1]] = rows
        i += h + 2
    return out


def merge_library(existing: str, pieces: list[Piece], source: str) -> tuple[str, list[str]]:
    """Derelict's library text with the pieces' segments it lacks appended, and the ids added."""
    have = _library_segments(existing, source)
    added: dict[str, str] = {}
    for p in pieces:
        sid = p.segment_id
        if sid in have:
            if have[sid] != p.rows:
                raise OutputRefused(f"{source}: segment {sid} is there with other cells; remove it and export again")
            continue
        added.setdefault(sid, p.definition())
    if not added:
        return existing, []
    glue = "" if not existing or existing.endswith("\n\n") else "\n" if existing.endswith("\n") else "\n\n"
    return existing + glue + "\n".join(added.values()), list(added)
