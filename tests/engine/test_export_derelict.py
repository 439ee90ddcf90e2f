"""Derelict export: golden texts, and every file read back with Derelict's own grammar and board rules.

The parser below follows JohnTwenty/Projects Derelict/BoardState/src/io/{mission,segmentLib}.parse.ts and
core/{boardState,indices}.ts: the same line patterns, the same errors (ragged row, unknown glyph, missing
endsegment, duplicate segment id, overlap, out of bounds, unknown token type); a flamer burns the floor cells of
the segment instance it hits, closed doors excepted (Rules getFlamerTargets/getSegmentInfo and its shoot action).
Regenerate the golden files after a deliberate change with HULKFORGE_REGEN_GOLDEN=1.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.export.derelict import MARGIN, TOKEN_TYPES, derelict_texts, export_derelict
from engine.export.derelict_library import merge_library, segment_library
from engine.export.derelict_segments import Piece, cut_level
from engine.export.outputs import OutputRefused
from engine.mission import load_mission
from engine.mission.model import EntryArea
from engine.resources import sample_mission, sample_missions
from engine.rules.game import Game

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


def build_board(
    mission: str, library: str
) -> tuple[int, dict[tuple[int, int], int], list[tuple[str, int, int, int]], dict[tuple[int, int], str]]:
    """Derelict's parseMission then placeSegment/placeToken: (size, cell types, tokens, segment instance per cell)."""
    size, mode, segs, toks = 0, None, [], []
    for line in _lines(mission):
        if line.startswith("board:"):
            size = int(line[6:].strip())
        elif line.startswith("instances:"):
            mode = "i"
        elif line.startswith("tokens:"):
            mode = "t"
        elif mode == "i" and (m := INSTANCE.search(line)):
            segs.append((m[1], m[2], _coord(m[3]), int(m[4])))
        elif mode == "t" and (m := TOKEN.search(line)):
            toks.append((m[2], *_coord(m[3]), int(m[4])))
    defs = parse_segments(library)
    cells: dict[tuple[int, int], int] = {}
    owner: dict[tuple[int, int], str] = {}
    for inst, seg, (ox, oy), rot in segs:
        assert rot == 0
        assert seg in defs, f"Unknown segment type {seg}"
        for y, row in enumerate(defs[seg]):
            for x, v in enumerate(row):
                c = (ox + x, oy + y)
                assert 0 <= c[0] < size and 0 <= c[1] < size, "Coord out of bounds"
                assert c not in cells, "segment overlap"
                cells[c] = v
                owner[c] = inst
    for kind, x, y, rot in toks:
        assert kind in TOKEN_TYPES, f"Unknown token type {kind}"
        assert 0 <= x < size and 0 <= y < size, "Coord out of bounds"
        assert rot in (0, 90, 180, 270)
    return size, cells, toks, owner


def derelict_burn(board: tuple[Any, ...], x: int, y: int) -> set[tuple[int, int]]:
    """The cells Derelict sets on fire when its flamer targets board cell (x, y)."""
    _, cells, toks, owner = board
    doors = {(tx, ty) for kind, tx, ty, _ in toks if kind == "door"}
    inst = owner[(x, y)]
    return {c for c, i in owner.items() if i == inst and cells[c] == 1 and c not in doors}


# Derelict's Rules forwardCell: rot 0 -> y+1, 90 -> x-1, 180 -> y-1, 270 -> x+1.
FORWARD = {0: (0, 1), 90: (-1, 0), 180: (0, -1), 270: (1, 0)}


def derelict_entry_target(toks: list[tuple[str, int, int, int]], x: int, y: int) -> tuple[int, int]:
    """Rules getEntryMoveTarget: the nearest alien_entry square (Chebyshev), a tie to the smaller (y, x)."""
    entries = [(ex, ey) for kind, ex, ey, _ in toks if kind == "alien_entry"]
    return min(entries, key=lambda e: (max(abs(e[0] - x), abs(e[1] - y)), e[1], e[0]))


@pytest.mark.parametrize(("sample", "level"), CASES, ids=[f"{p.stem}-{lv}" for p, lv in CASES])
def test_lurk_squares_lead_to_their_own_entry_area(sample: Path, level: str) -> None:
    text, library, _ = derelict_texts(load_mission(sample), level)
    _, _, toks, _ = build_board(text, library)
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
    _, _, toks, _ = build_board(text, library)
    assert sum(kind == "alien_entry" for kind, *_ in toks) == 3
    assert sum(kind == "lurk" for kind, *_ in toks) == 6  # N's and S's rows only
    assert any("entry area N2 has no lurk square" in w for w in warnings)
    assert any("Derelict would send its blips to entry area N" in w for w in warnings)
    for kind, x, y, _ in toks:
        if kind == "lurk":
            assert derelict_entry_target(toks, x, y) != (8 + 2, 2 + 2)  # never routed to N2


def _objective_squares(text: str) -> list[tuple[int, int]]:
    """The level squares of the mission text's objective tokens."""
    return [(int(m[1]) - MARGIN, int(m[2]) - MARGIN) for m in re.finditer(r"objective pos=\((\d+),(\d+)\)", text)]


def test_objectives_without_a_flamer_are_left_out_and_say_marines_cannot_win() -> None:
    m = load_mission(sample_mission("recover_the_relic"))
    text, _, warnings = derelict_texts(m, "deck")
    assert _objective_squares(text) == [(23, 6)]  # the relic: carrying it becomes flaming it
    assert not any("cannot win" in w for w in warnings)
    m.marines.squad[:] = [dataclasses.replace(x, ranged="storm_bolter") for x in m.marines.squad]
    text, _, warnings = derelict_texts(m, "deck")
    # Derelict's victory check: objective tokens and no marine_flame = alien win at once; so no token at all.
    assert "marine_flame" not in text and "objective pos=" not in text
    assert any(w.startswith("Marines cannot win this mission in Derelict") for w in warnings)
    assert any("objective relic is left out" in w for w in warnings)


def test_a_carry_the_mission_cannot_be_won_by_gets_no_token_and_marines_cannot_win() -> None:
    # Validation's analysis (engine.mission.victory): a location cannot be carried, so flaming it in Derelict
    # would give a win the mission never gives.
    m = load_mission(sample_mission("recover_the_relic"))
    m.objectives[:] = [dataclasses.replace(o, kind="location") for o in m.objectives]
    text, _, warnings = derelict_texts(m, "deck")
    assert "objective pos=" not in text
    assert any("is left out: the Marines cannot meet it in the mission itself" in w for w in warnings)
    assert sum(w.startswith("Marines cannot win this mission in Derelict") for w in warnings) == 1


@pytest.mark.parametrize(
    ("sample", "level"), [("tutorial", "deck"), ("the_long_drop", "top"), ("the_long_drop", "bottom")]
)
def test_marines_cannot_win_is_said_in_those_words(sample: str, level: str) -> None:
    text, _, warnings = derelict_texts(load_mission(sample_mission(sample)), level)
    assert "objective pos=" not in text
    assert sum(w.startswith("Marines cannot win this mission in Derelict") for w in warnings) == 1


def test_escape_by_the_chute_becomes_flaming_the_chute_square() -> None:
    m = load_mission(sample_mission("pitfall"))
    text, _, warnings = derelict_texts(m, "upper")
    chute = next(c for c in m.chutes if c.level == "upper")
    assert _objective_squares(text) == [(chute.x, chute.y)]
    assert any("becomes: flame the square of chute-up instead" in w for w in warnings)
    assert not any("cannot win" in w for w in warnings)


def test_section_flamed_puts_an_objective_in_every_piece_of_the_section() -> None:
    m = load_mission(sample_mission("the_long_drop"))
    m.victory[0] = {"kind": "section_flamed", "level": "top", "section": "b", "result": "marines"}
    text, library, warnings = derelict_texts(m, "top")
    (ox, oy), = _objective_squares(text)
    assert m.levels[0].cell(ox, oy) == "b"
    assert not any("becomes" in w and "section b" in w for w in warnings)  # exact: no change to announce
    board = build_board(text, library)
    burnt = derelict_burn(board, ox + MARGIN, oy + MARGIN)
    assert {(x - MARGIN, y - MARGIN) for x, y in burnt} == {
        (x, y) for y, row in enumerate(m.levels[0].rows) for x, c in enumerate(row) if c == "b"
    }


@pytest.mark.parametrize(("sample", "level"), CASES, ids=[f"{p.stem}-{lv}" for p, lv in CASES])
def test_a_flamer_burns_in_derelict_what_it_burns_here(sample: Path, level: str) -> None:
    """Every square a Derelict flamer can target burns the same squares as our flamer's section fire."""
    m = load_mission(sample)
    text, library, warnings = derelict_texts(m, level)
    board = build_board(text, library)
    game = Game(m)
    state, b = game.new_state(0), game.board
    cut = {c for w in warnings if " is cut into " in w for c in re.findall(r"^section (\w)", w)}
    same = differ = 0
    for (bx, by), kind in board[1].items():
        if kind != 1 or any(k == "door" and (x, y) == (bx, by) for k, x, y, _ in board[2]):
            continue  # Derelict's flamer never targets a closed door's cell
        x, y = bx - MARGIN, by - MARGIN
        ours = {b.lxy(t)[1:] for t in state.fire.flame_area(b.sq_of(level, x, y))}
        theirs = {(cx - MARGIN, cy - MARGIN) for cx, cy in derelict_burn(board, bx, by)}
        if ours == theirs:
            same += 1
        else:
            assert m.level(level).cell(x, y) in cut, f"{x},{y}: Derelict burns {sorted(theirs)}, we {sorted(ours)}"
            differ += 1
    assert same > 0 and (differ == 0) == (not cut)


def test_an_l_shaped_section_is_cut_and_the_export_says_so() -> None:
    m = load_mission(sample_mission("recover_the_relic"))
    text, _, warnings = derelict_texts(m, "deck")
    (w,) = [w for w in warnings if " is cut into " in w]
    assert w.startswith("section g (North-east gallery) is cut into 2 Derelict segments")
    assert len(re.findall(r"seg-\d+:", text)) == 12  # 11 flame regions, g in two


def _pieces(m: Any, level: str) -> list[Piece]:
    closed = frozenset((d.x, d.y) for d in m.doors if d.level == level and d.state == "closed")
    return cut_level(m.level(level), closed)


def test_segment_ids_name_their_cells_so_libraries_merge_without_clashes() -> None:
    """Every sample's segments merged into Derelict's own library: parseable, every mission builds on the result,
    and merging again adds nothing (appending a library twice is what made Derelict refuse every mission)."""
    own = "legend: 0=wall, 1=corridor\nsegment corridor_5 3x5\n0 0 0 0 0\n1 1 1 1 1\n0 0 0 0 0\nendsegment\n"
    merged, texts = own, []
    for sample, level in CASES:
        m = load_mission(sample)
        texts.append(derelict_texts(m, level)[0])
        merged, _ = merge_library(merged, _pieces(m, level), "segments.txt")
    assert merged.startswith(own)
    defs = parse_segments(merged)  # no duplicate id, every row well formed
    for text in texts:
        build_board(text, merged)
    assert all(re.fullmatch(r"hf-\d+x\d+-[0-9a-f]{10}", k) for k in defs if k != "corridor_5")
    again, added = merge_library(merged, _pieces(load_mission(sample_mission("pitfall")), "upper"), "segments.txt")
    assert (again, added) == (merged, [])


def test_merge_refuses_a_library_holding_an_id_twice_or_with_other_cells() -> None:
    pieces = _pieces(load_mission(sample_mission("tutorial")), "deck")
    lib = segment_library(pieces)
    with pytest.raises(OutputRefused, match="appears twice"):
        merge_library(lib + lib, pieces, "segments.txt")
    p = pieces[0]
    rows = [" ".join(r) for r in p.rows]
    rows[0] = rows[0][:-1] + ("0" if rows[0].endswith("1") else "1")
    forged = f"segment {p.segment_id} {p.height}x{p.width}\n" + "\n".join(rows) + "\nendsegment\n"
    with pytest.raises(OutputRefused, match="with other cells"):
        merge_library(lib.replace(p.definition(), forged), pieces, "segments.txt")


def test_cli_merge_into_derelicts_library_is_idempotent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lib = tmp_path / "segments.txt"
    lib.write_text("legend: 0=wall, 1=corridor\nsegment endcap 2x2\n0 0\n0 1\nendsegment\n")
    args = ["export", "recover_the_relic", "--to", "derelict", "-o", str(tmp_path / "relic.txt")]
    assert main([*args, "--merge-into", str(lib)]) == 0
    assert "added 9 segment(s)" in capsys.readouterr().err
    once = lib.read_text()
    assert main([*args, "--merge-into", str(lib)]) == 0
    assert "already holds every segment" in capsys.readouterr().err
    assert lib.read_text() == once
    build_board((tmp_path / "relic.txt").read_text(), once)
    assert main([*args, "--merge-into", str(tmp_path / "missing.txt")]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.parametrize(("sample", "level"), CASES, ids=[f"{p.stem}-{lv}" for p, lv in CASES])
def test_golden_and_readable_by_derelict(sample: Path, level: str) -> None:
    m = load_mission(sample)
    gold_text, gold_lib = GOLDEN / f"{sample.stem}-{level}.txt", GOLDEN / f"{sample.stem}-{level}.segments.txt"
    text, library, _ = derelict_texts(m, level, gold_lib.name)
    if os.environ.get("HULKFORGE_REGEN_GOLDEN"):
        gold_text.write_text(text)
        gold_lib.write_text(library)
    assert text == gold_text.read_text()
    assert library == gold_lib.read_text()
    size, cells, toks, _ = build_board(text, library)
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
    assert "left out: level 'Gantry deck'" in text and "2 ladders left out" in text
    assert "bulkhead B1 becomes an ordinary door" in text
    assert "no marine starts on level 'Brood deck'" in text
    _, _, warnings = derelict_texts(load_mission(sample_mission("pitfall")), "upper")
    assert any("disposal chutes" in w for w in warnings) and any("random set-up" in w for w in warnings)


def test_unknown_level_is_an_error() -> None:
    with pytest.raises(ValueError, match="no level 'attic'"):
        derelict_texts(load_mission(sample_mission("tutorial")), "attic")


def test_cli_export_derelict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "the_long_drop-top.txt"
    assert main(["export", str(sample_mission("the_long_drop")), "--to", "derelict", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "warning: only level 'Gantry deck' is exported" in captured.err
    assert "warning: Marines cannot win this mission in Derelict" in captured.err
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["the_long_drop-top.segments.txt", "the_long_drop-top.txt"]
    assert out.read_text() == (GOLDEN / "the_long_drop-top.txt").read_text()
    report = export_derelict(load_mission(sample_mission("tutorial")), None, tmp_path / "t.txt")
    assert [p.name for p in report.files] == ["t.txt", "t.segments.txt"]


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
