"""Reading Derelict's text files as its BoardState parsers do (io/mission.parse.ts, io/segmentLib.parse.ts), but
strictly: where Derelict skips a line it cannot read, this names the file and the line.

A mission: `mission:`, `profile:`, `version:`, `board: N`, `segments:`/`tokenlib:` (provenance), then
`instances:` lines `ID: SEGMENT pos=(x,y) rot=R` and `tokens:` lines `ID: TYPE pos=(x,y) rot=R [attrs={...}]`.
A segment library: `legend: 0=wall, 1=corridor`, then `segment ID HxW`, H rows of W numbers and `endsegment`.
Blank lines and lines starting with `#` are skipped (Derelict's trimLines).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from engine.mission.io import MissionFileError, read_limited

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_BOARD = 500  # Derelict's own missions use 40; our levels hold at most 200 squares a side
MAX_SEGMENT_SIDE = 200
ROTATIONS = (0, 90, 180, 270)

_INSTANCE = re.compile(r"^(\S+):\s+(\S+)\s+pos=\((-?\d{1,6}),(-?\d{1,6})\)\s+rot=(\d{1,3})$")
_TOKEN = re.compile(r"^(\S+):\s+(\S+)\s+pos=\((-?\d{1,6}),(-?\d{1,6})\)\s+rot=(\d{1,3})(?:\s+attrs=(.+))?$")
_SEGMENT = re.compile(r"^segment\s+(\S+)\s+(\d{1,6})x(\d{1,6})$")


@dataclass(frozen=True)
class Placed:
    """A segment instance or a token: its id, its type, where it stands, its rotation and its file line."""

    id: str
    type: str
    x: int
    y: int
    rot: int
    line: int


@dataclass
class DerelictMission:
    name: str
    board: int
    segments_file: str  # the `segments:` line, or ""
    instances: list[Placed]
    tokens: list[Placed]
    attrs_lines: list[int]  # lines whose tokens carry attrs={...}, which have no counterpart


@dataclass(frozen=True)
class SegmentDef:
    id: str
    rows: tuple[tuple[int, ...], ...]  # rows[y][x]: 0 wall, anything else floor
    source: str
    line: int

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)


def read_text(path: str | os.PathLike[str], what: str) -> str:
    """A Derelict text file's text, read within the size and time limits (it may be any path)."""
    data = read_limited(path, what=what, max_bytes=MAX_FILE_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise MissionFileError(path, f"line {line}: not UTF-8 text") from None


def _lines(text: str) -> list[tuple[int, str]]:
    out = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            out.append((n, line))
    return out


def parse_mission(text: str, source: str) -> DerelictMission:
    """The mission's header, segment instances and tokens; raises MissionFileError naming the line."""

    def fail(n: int, message: str) -> MissionFileError:
        return MissionFileError(source, f"line {n}: {message}")

    name, board, segments_file = "", 0, ""
    seen_board = False
    mode: str | None = None
    instances: list[Placed] = []
    tokens: list[Placed] = []
    attrs: list[int] = []
    for n, line in _lines(text):
        key = line.split(":", 1)[0] if ":" in line else ""
        if key == "mission":
            name = line[8:].strip()
        elif key in ("profile", "tokenlib"):
            pass
        elif key == "version":
            if line[8:].strip() != "1":
                raise fail(n, f"version {line[8:].strip()[:20]!r}: Derelict missions of version 1 only are read")
        elif key == "board":
            value = line[6:].strip()
            if not value.isdigit() or not 1 <= int(value) <= MAX_BOARD:
                raise fail(n, f"board size {value[:20]!r} is not a whole number from 1 to {MAX_BOARD}")
            board, seen_board = int(value), True
        elif key == "segments":
            segments_file = line[9:].strip()
        elif line in ("instances:", "tokens:"):
            mode = line[:-1]
        elif mode is None:
            raise fail(n, f"{_short(line)} is not a line of a Derelict mission (expected a header such as "
                          "'board: 40', 'instances:' or 'tokens:')")
        else:
            m = (_INSTANCE if mode == "instances" else _TOKEN).match(line)
            if m is None:
                shape = "ID: SEGMENT pos=(x,y) rot=R" if mode == "instances" else "ID: TYPE pos=(x,y) rot=R"
                raise fail(n, f"{_short(line)} is not an {mode[:-1]} line ({shape})")
            rot = int(m[5])
            if rot not in ROTATIONS:
                raise fail(n, f"rotation {rot} is not one of 0, 90, 180, 270")
            item = Placed(m[1], m[2], int(m[3]), int(m[4]), rot, n)
            if mode == "instances":
                instances.append(item)
            else:
                tokens.append(item)
                if m[6]:
                    attrs.append(n)
    if not seen_board:
        raise MissionFileError(source, "no 'board: N' line: this is not a Derelict mission")
    return DerelictMission(name, board, segments_file, instances, tokens, attrs)


def parse_library(text: str, source: str) -> dict[str, SegmentDef]:
    """Segment id -> definition; raises MissionFileError naming the line (Derelict refuses the same faults)."""

    def fail(n: int, message: str) -> MissionFileError:
        return MissionFileError(source, f"line {n}: {message}")

    lines = _lines(text)
    out: dict[str, SegmentDef] = {}
    i = 0
    while i < len(lines):
        n, line = lines[i]
        if line.startswith("legend:"):
            i += 1
            continue
        m = _SEGMENT.match(line)
        if m is None:
            raise fail(n, f"{_short(line)} is not part of a Derelict segment library ('segment ID HxW')")
        sid, h, w = m[1], int(m[2]), int(m[3])
        if not (1 <= h <= MAX_SEGMENT_SIDE and 1 <= w <= MAX_SEGMENT_SIDE):
            raise fail(n, f"segment {_short(sid)} is {h}x{w}: each side is from 1 to {MAX_SEGMENT_SIDE}")
        if sid in out:
            raise fail(n, f"segment id {_short(sid)} appears twice (Derelict refuses every mission so)")
        rows = []
        for r in range(h):
            if i + 1 + r >= len(lines):
                raise fail(n, f"segment {_short(sid)} ends before its {h} rows")
            rn, row = lines[i + 1 + r]
            cells = row.split()
            if len(cells) != w or not all(c.isdigit() and len(c) < 4 for c in cells):
                raise fail(rn, f"row {r + 1} of segment {_short(sid)} is not {w} numbers")
            rows.append(tuple(int(c) for c in cells))
        end = i + 1 + h
        if end >= len(lines) or lines[end][1] != "endsegment":
            where = lines[end][0] if end < len(lines) else lines[-1][0]
            raise fail(where, f"segment {_short(sid)} has no 'endsegment' after its {h} rows")
        out[sid] = SegmentDef(sid, tuple(rows), source, n)
        i = end + 1
    return out


def rotate(x: int, y: int, rot: int, seg: SegmentDef) -> tuple[int, int]:
    """Where a segment's cell (x, y) lands for a rotation, as Derelict's BoardState indices.rotate."""
    w, h = seg.width, seg.height
    if rot == 90:
        return h - 1 - y, x
    if rot == 180:
        return w - 1 - x, h - 1 - y
    if rot == 270:
        return y, w - 1 - x
    return x, y


def _short(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
