"""Derelict export: golden texts, and every file read back with Derelict's own grammar and board rules.

The parser below follows JohnTwenty/Projects Derelict/BoardState/src/io/{mission,segmentLib}.parse.ts and
core/{boardState,indices}.ts: the same line patterns, the same errors (ragged row, unknown glyph, missing
endsegment, overlap, out of bounds, unknown token type).
Regenerate the golden files after a deliberate change with HULKFORGE_REGEN_GOLDEN=1.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from engine.cli import main
from engine.export.derelict import TOKEN_TYPES, derelict_texts, export_derelict
from engine.mission import load_mission
from engine.mission.model import EntryArea
from engine.resources import sample_mission, sample_missions

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "derelict"
CASES = [(p, lv.id) for p in sample_missions() for lv in load_mission(p).levels]
INSTANCE = re.compile(r"(\S+):\s+(\S+)\s+pos=(\([^\)]+\))\s+rot=(\d+)")
TOKEN = re.compile(r"(\S+):\s+(\S+)\s+pos=(\([^\)]+\))\s+rot=(\d+)(?:\s+attrs=(.+))?")


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def _coord(s: str) -> tuple[int, int]:
    m = re.match(r"\(([-\d]+),([-\d]+)\)", s)
    assert m, s
    return int(m[1]), int(m[2])


def parse_segments(text: str) -> dict[str, list[list[int]]]:
    lines, legend, out, i = _lines(text), {0, 1}, {}, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("legend:"):
            legend |= {int(m) for m in re.findall(r"(\d+)=", line)}
            i += 1
            continue
        m = re.match(r"^segment\s+(\S+)\s+(\d+)x(\d+)$", line)
        assert m, f"bad segment header: {line}"
        h, w = int(m[2]), int(m[3])
        grid = []
        for _ in range(h):
            i += 1
            row = [int(n) for n in lines[i].split()]
            assert len(row) == w, "ragged row"
            assert set(row) <= legend, "unknown glyph"
            grid.append(row)
        i += 1
        assert lines[i] == "endsegment", "missing endsegment"
        assert m[1] not in out, "duplicate segment id"
        out[m[1]] = grid
        i += 1
    return out


def build_board(mission: str, library: str) -> tuple[int, dict[tuple[int, int], int], list[tuple[str, int, int, int]]]:
    """Derelict's parseMission then placeSegment/placeToken: (size, cell types, tokens)."""
    size, mode, segs, toks = 0, None, [], []
    for line in _lines(mission):
        if line.startswith("board:"):
            size = int(line[6:].strip())
        elif line.startswith("instances:"):
            mode = "i"
        elif line.startswith("tokens:"):
            mode = "t"
        elif mode == "i" and (m := INSTANCE.search(line)):
            segs.append((m[2], _coord(m[3]), int(m[4])))
        elif mode == "t" and (m := TOKEN.search(line)):
            toks.append((m[2], *_coord(m[3]), int(m[4])))
    defs = parse_segments(library)
    cells: dict[tuple[int, int], int] = {}
    for seg, (ox, oy), rot in segs:
        assert rot == 0
        for y, row in enumerate(defs[seg]):
            for x, v in enumerate(row):
                c = (ox + x, oy + y)
                assert 0 <= c[0] < size and 0 <= c[1] < size, "Coord out of bounds"
                assert c not in cells, "segment overlap"
                cells[c] = v
    for kind, x, y, rot in toks:
        assert kind in TOKEN_TYPES, f"Unknown token type {kind}"
        assert 0 <= x < size and 0 <= y < size, "Coord out of bounds"
        assert rot in (0, 90, 180, 270)
    return size, cells, toks


# Derelict's Rules forwardCell: rot 0 -> y+1, 90 -> x-1, 180 -> y-1, 270 -> x+1.
FORWARD = {0: (0, 1), 90: (-1, 0), 180: (0, -1), 270: (1, 0)}


def derelict_entry_target(toks: list[tuple[str, int, int, int]], x: int, y: int) -> tuple[int, int]:
    """Rules getEntryMoveTarget: the nearest alien_entry square (Chebyshev), a tie to the smaller (y, x)."""
    entries = [(ex, ey) for kind, ex, ey, _ in toks if kind == "alien_entry"]
    return min(entries, key=lambda e: (max(abs(e[0] - x), abs(e[1] - y)), e[1], e[0]))


@pytest.mark.parametrize(("sample", "level"), CASES, ids=[f"{p.stem}-{lv}" for p, lv in CASES])
def test_lurk_squares_lead_to_their_own_entry_area(sample: Path, level: str) -> None:
    text, library, _ = derelict_texts(load_mission(sample), level)
    _, _, toks = build_board(text, library)
    # lurk square -> the entry whose row of three, two squares out, it belongs to
    rows: dict[tuple[int, int], tuple[int, int]] = {}
    for kind, x, y, rot in toks:
        if kind == "alien_entry":
            fx, fy = FORWARD[rot]
            for k in (-1, 0, 1):
                rows.setdefault((x + 2 * fx + k * fy * fy, y + 2 * fy + k * fx * fx), (x, y))
    lurks = [(x, y) for kind, x, y, _ in toks if kind == "lurk"]
    assert lurks
    for x, y in lurks:
        assert derelict_entry_target(toks, x, y) == rows[(x, y)], f"lurk {x},{y}"


def test_lurk_squares_nearer_another_entry_are_left_out() -> None:
    m = load_mission(sample_mission("tutorial"))
    # A second entry area one square from N: its lurk row would feed Derelict's blips into N instead.
    m.entry_areas.append(EntryArea(id="N2", level="deck", x=8, y=2, side="N"))
    text, library, warnings = derelict_texts(m, "deck")
    _, _, toks = build_board(text, library)
    assert sum(kind == "alien_entry" for kind, *_ in toks) == 3
    assert sum(kind == "lurk" for kind, *_ in toks) == 6  # N's and S's rows only
    assert any("entry area N2 has no lurk square" in w for w in warnings)
    assert any("Derelict would send its blips to entry area N" in w for w in warnings)
    for kind, x, y, _ in toks:
        if kind == "lurk":
            assert derelict_entry_target(toks, x, y) != (8 + 2, 2 + 2)  # never routed to N2


def test_objectives_without_a_flamer_warn_of_derelicts_instant_alien_win() -> None:
    m = load_mission(sample_mission("recover_the_relic"))
    _, _, warnings = derelict_texts(m, "deck")
    assert not any("no heavy flamer" in w for w in warnings)
    m.marines.squad[:] = [dataclasses.replace(x, ranged="storm_bolter") for x in m.marines.squad]
    text, _, warnings = derelict_texts(m, "deck")
    assert "marine_flame" not in text and "objective pos=" in text
    assert any("no heavy flamer Marine on level 'deck'" in w for w in warnings)


@pytest.mark.parametrize(("sample", "level"), CASES, ids=[f"{p.stem}-{lv}" for p, lv in CASES])
def test_golden_and_readable_by_derelict(sample: Path, level: str) -> None:
    m = load_mission(sample)
    text, library, _ = derelict_texts(m, level)
    gold_text, gold_lib = GOLDEN / f"{sample.stem}-{level}.txt", GOLDEN / f"{sample.stem}-{level}.segments.txt"
    if os.environ.get("HULKFORGE_REGEN_GOLDEN"):
        gold_text.write_text(text)
        gold_lib.write_text(library)
    assert text == gold_text.read_text()
    assert library == gold_lib.read_text()
    size, cells, toks = build_board(text, library)
    lv = m.level(level)
    assert lv is not None and size >= max(lv.width, lv.height)
    floor = {c for c, v in cells.items() if v == 1}
    assert len(floor) == sum(ch != "#" for row in lv.rows for ch in row)
    for kind, x, y, _ in toks:
        if kind != "lurk":  # lurk squares are where blips wait off the map, as in Derelict's own missions
            assert (x, y) in floor, f"{kind} at {x},{y} is not on a corridor cell"


def test_tokens_face_the_way_derelict_reads_rot() -> None:
    # Derelict's Rules forwardCell: rot 0 -> y+1, 90 -> x-1, 180 -> y-1, 270 -> x+1.
    m = load_mission(sample_mission("the_long_drop"))
    text, _, _ = derelict_texts(m, "top")
    marines = [ln for ln in text.splitlines() if " marine" in ln]
    assert marines[0].endswith("marine_sarge pos=(8,7) rot=270")  # sergeant at 6,5 facing E, board margin 2
    assert marines[-1].endswith("marine pos=(4,7) rot=90")  # m3 at 2,5 facing W
    doors = [ln for ln in text.splitlines() if ": door " in ln]
    assert all(ln.endswith("rot=0") for ln in doors)  # both doors stand in an east-west corridor


def test_warnings_name_what_derelict_cannot_show() -> None:
    m = load_mission(sample_mission("the_long_drop"))
    _, _, warnings = derelict_texts(m, "bottom")
    text = "\n".join(warnings)
    assert "left out: top" in text and "2 ladders left out" in text
    assert "bulkhead B1 becomes an ordinary door" in text
    assert "no marine starts on level 'bottom'" in text
    _, _, warnings = derelict_texts(load_mission(sample_mission("pitfall")), "upper")
    assert any("disposal chutes" in w for w in warnings) and any("random set-up" in w for w in warnings)


def test_unknown_level_is_an_error() -> None:
    with pytest.raises(ValueError, match="no level 'attic'"):
        derelict_texts(load_mission(sample_mission("tutorial")), "attic")


def test_cli_export_derelict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "drop.txt"
    assert main(["export", str(sample_mission("the_long_drop")), "--to", "derelict", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "warning: only level 'top' is exported" in captured.err
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["drop.txt", "hulkforge_the_long_drop_top.segments.txt"]
    assert out.read_text() == (GOLDEN / "the_long_drop-top.txt").read_text()
    report = export_derelict(load_mission(sample_mission("tutorial")), None, tmp_path / "t.txt")
    assert [p.name for p in report.files] == ["t.txt", "hulkforge_tutorial_first_contact_deck.segments.txt"]


def test_cli_export_broken_mission_warns_or_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = sample_mission("tutorial").read_text().replace('"x": 3, "y": 3, "facing"', '"x": 0, "y": 0, "facing"', 1)
    src = tmp_path / "broken.json"
    src.write_text(text)
    assert text != sample_mission("tutorial").read_text()
    out = tmp_path / "b.tmj"
    assert main(["export", str(src), "--to", "tiled", "-o", str(out), "--strict"]) == 1
    assert "refusing to export" in capsys.readouterr().err and not out.exists()
    assert main(["export", str(src), "--to", "tiled", "-o", str(out)]) == 0
    assert "exporting anyway" in capsys.readouterr().err and out.exists()
