"""Derelict import: export then import gives back the squares, doors, entry areas and squad of every sample level;
a mission in Derelict's own style reads with its rotations and warnings; a malformed file is one line naming the
file and the line, exit 2, and nothing written."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from engine.cli import main
from engine.export.derelict import derelict_texts, export_derelict
from engine.export.derelict_import import import_derelict
from engine.export.derelict_read import parse_library, parse_mission
from engine.mission import Mission, MissionFileError, load_mission
from engine.mission.model import WALL
from engine.resources import sample_missions

HERE = Path(__file__).resolve().parent / "derelict"
FIXTURE = HERE / "cross_deck.mission.txt"
# Every sample level a Marine starts on (Derelict, like a mission file, needs one; see test_no_marine_is_refused).
CASES = [(p, lv.id) for p in sample_missions() for lv in load_mission(p).levels
         if any(s.level == lv.id for s in load_mission(p).marines.squad)]


def _shape(m: Mission, level_id: str) -> dict[str, set[tuple[object, ...]]]:
    """The sets a round trip keeps, moved so the level's floor starts at (0, 0)."""
    level = m.level(level_id)
    assert level is not None
    floor = {(x, y) for y, row in enumerate(level.rows) for x, c in enumerate(row) if c != WALL}
    ox, oy = min(x for x, _ in floor), min(y for _, y in floor)

    def kind(rank: str, ranged: str) -> str:
        return "marine_sarge" if rank == "sergeant" else "marine_flame" if ranged == "heavy_flamer" else "marine"

    return {
        "floor": {(x - ox, y - oy) for x, y in floor},
        "doors": {(d.x - ox, d.y - oy, d.state) for d in m.doors if d.level == level_id},
        "entry areas": {(e.x - ox, e.y - oy, e.side) for e in m.entry_areas if e.level == level_id},
        "squad": {(s.x - ox, s.y - oy, s.facing, kind(s.rank, s.ranged)) for s in m.marines.squad
                  if s.level == level_id},
    }


@pytest.mark.parametrize(("sample", "level"), CASES, ids=[f"{p.stem}-{lv}" for p, lv in CASES])
def test_export_then_import_gives_back_squares_doors_entry_areas_and_squad(
    sample: Path, level: str, tmp_path: Path
) -> None:
    mission = load_mission(sample)
    target = tmp_path / f"{sample.stem}.mission.txt"
    export_derelict(mission, level, target)
    back, _issues = import_derelict(target)  # the library beside it, named on its segments: line
    assert _shape(back, back.levels[0].id) == _shape(mission, level)


def test_no_marine_is_refused(tmp_path: Path) -> None:
    mission = load_mission(next(p for p in sample_missions() if p.stem == "pitfall"))
    export_derelict(mission, "lower", tmp_path / "lower.mission.txt")
    with pytest.raises(MissionFileError, match="has no Marine token"):
        import_derelict(tmp_path / "lower.mission.txt")


def test_a_level_drawn_with_a_wall_border_comes_back_at_the_same_squares(tmp_path: Path) -> None:
    mission = load_mission(next(p for p in sample_missions() if p.stem == "tutorial"))
    export_derelict(mission, "deck", tmp_path / "t.mission.txt")
    back, _ = import_derelict(tmp_path / "t.mission.txt")
    def mask(rows: list[str]) -> list[str]:
        return ["".join(WALL if c == WALL else "." for c in row) for row in rows]

    assert mask(back.levels[0].rows) == mask(mission.levels[0].rows)
    assert {(d.x, d.y) for d in back.doors} == {(d.x, d.y) for d in mission.doors}
    assert {(s.x, s.y, s.facing) for s in back.marines.squad} == {(s.x, s.y, s.facing) for s in mission.marines.squad}


def test_each_segment_instance_is_a_section_so_the_flamer_burns_what_derelict_burns() -> None:
    mission, issues = import_derelict(FIXTURE)
    level = mission.levels[0]
    codes = {c for row in level.rows for c in row} - {WALL}
    assert len(codes) == 6 == len(level.sections)  # six instances, each with floor
    assert level.sections["b"].kind == "room" and level.sections["a"].kind == "corridor"
    assert "seg-1764230000002 (X_room_3x3)" in level.sections["b"].name
    # corridor_4 turned 270 runs down from the room; the L corner turned 90 hooks up to the north
    assert [level.cell(7, y) for y in range(6, 10)] == ["d"] * 4
    assert {(x, y) for y, row in enumerate(level.rows) for x, c in enumerate(row) if c == "f"} == {(18, 3), (19, 3),
                                                                                               (19, 2)}
    assert not [i for i in issues if i.severity == "error"]


def test_tokens_come_across_with_their_facing_and_the_rest_is_named() -> None:
    warnings: list[str] = []
    mission, _ = import_derelict(FIXTURE, warnings=warnings)
    squad = {(s.x, s.y, s.facing, s.rank, s.ranged) for s in mission.marines.squad}
    assert squad == {(1, 3, "E", "marine", "heavy_flamer"), (2, 3, "E", "sergeant", "storm_bolter"),
                     (3, 3, "E", "marine", "storm_bolter")}
    assert {(d.x, d.y, d.state) for d in mission.doors} == {(5, 3, "closed"), (7, 6, "open")}
    assert {(e.x, e.y, e.side) for e in mission.entry_areas} == {(7, 9, "S"), (19, 2, "N")}
    assert [(o.x, o.y) for o in mission.objectives] == [(7, 3)]
    assert {"kind": "objective_flamed", "objective": "O1", "result": "marines"} in mission.victory
    rows = mission.genestealers.reinforcements
    assert [(r.from_turn, r.to_turn, r.per_turn) for r in rows] == [(1, 1, 4), (2, None, 2)]
    text = "\n".join(warnings)
    for word in ("drop_marine", "start_marine", "blip_2", "attrs", "flamer Marine dies"):
        assert word in text
    assert "line 34" in text  # the blip token's line


def test_control_characters_in_ids_do_not_reach_the_mission(tmp_path: Path) -> None:
    shutil.copy(HERE / "lib_segments.txt", tmp_path / "lib_segments.txt")
    (tmp_path / "m.txt").write_text("board: 20\nsegments: lib_segments.txt\ninstances:\n  S\x1b1: corridor_4 pos=(1,1) "
                                    "rot=0\ntokens:\n  \x1bX: objective pos=(2,2) rot=0\n  M: marine_flame pos=(1,2) "
                                    "rot=270\n")
    mission, _ = import_derelict(tmp_path / "m.txt")
    assert mission.objectives[0].name == "Objective X" and mission.levels[0].sections["a"].name == "S1 (corridor_4)"


def test_the_segment_library_can_be_given(tmp_path: Path) -> None:
    mission = tmp_path / "m.mission.txt"
    mission.write_text(FIXTURE.read_text().replace("segments: lib_segments.txt\n", ""))
    with pytest.raises(MissionFileError, match=r"line 8: segment 'corridor_4' .* has no segment library beside"):
        import_derelict(mission)
    shutil.copy(HERE / "lib_segments.txt", tmp_path / "elsewhere.txt")
    back, _ = import_derelict(mission, [tmp_path / "elsewhere.txt"])
    assert len(back.levels[0].sections) == 6


def test_a_closed_door_cutting_a_segment_is_named(tmp_path: Path) -> None:
    (tmp_path / "lib.txt").write_text("segment hall 3x5\n0 0 0 0 0\n1 1 1 1 1\n0 0 0 0 0\nendsegment\n")
    (tmp_path / "m.txt").write_text("board: 10\ninstances:\n  S1: hall pos=(1,1) rot=0\ntokens:\n"
                                    "  D: door pos=(3,2) rot=0\n  M: marine pos=(1,2) rot=270\n")
    warnings: list[str] = []
    import_derelict(tmp_path / "m.txt", [tmp_path / "lib.txt"], warnings)
    assert any("D1 at (3,1) cut instance 'S1'" in w for w in warnings)


BAD = {
    "no-board": ("mission: x\ninstances:\n", "no 'board: N' line"),
    "stray": ("board: 20\nhello there\n", "line 2: 'hello there' is not a line of a Derelict mission"),
    "bad-instance": ("board: 20\ninstances:\n  S1: corridor_4 pos=(1,x) rot=0\n", "line 3: .* is not an instance"),
    "bad-rot": ("board: 20\ninstances:\n  S1: corridor_4 pos=(1,1) rot=45\n", "line 3: rotation 45"),
    "huge-board": ("board: 99999999999\n", "line 1: board size"),
    "off-board": ("board: 5\ninstances:\n  S1: corridor_4 pos=(3,1) rot=0\n", r"line 3: .* off the 5x5 board"),
    "overlap": ("board: 20\ninstances:\n  S1: corridor_4 pos=(1,1) rot=0\n  S2: corridor_4 pos=(2,2) rot=0\n",
                "line 4: instance 'S2' overlaps instance 'S1'"),
    "unknown-segment": ("board: 20\ninstances:\n  S1: nothing pos=(1,1) rot=0\n", "line 3: segment 'nothing'"),
    "no-floor": ("board: 20\ninstances:\n", "no floor square"),
    "version": ("version: 7\nboard: 20\n", "line 1: version '7'"),
    "not-utf8": (b"board: 20\n\xff\xfe\n", "line 2: not UTF-8"),
    "bad-token": ("board: 20\ntokens:\n  T1: door pos=(1,1)\n", "line 3: .* is not an token line"),
    "odd-library-name": ("board: 20\nsegments: " + "a" * 5000 + "\ninstances:\n  S1: hall pos=(1,1) rot=0\n",
                         "line 4: segment 'hall'"),
    "too-wide": ("board: 500\ninstances:\n  S1: corridor_4 pos=(0,0) rot=0\n  S2: corridor_4 pos=(300,0) rot=0\n",
                 "floor spans"),
}
BAD_LIBRARY = {
    "ragged": ("segment a 2x2\n0 1\n1\nendsegment\n", "line 3: row 2 of segment 'a'"),
    "no-end": ("segment a 1x1\n1\n", "line 2: segment 'a' has no 'endsegment'"),
    "twice": ("segment a 1x1\n1\nendsegment\nsegment a 1x1\n1\nendsegment\n", "line 4: segment id 'a' appears twice"),
    "header": ("segmnt a 1x1\n", "line 1: 'segmnt a 1x1' is not part"),
    "huge": ("segment a 9000x9000\n", "line 1: segment 'a' is 9000x9000"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_malformed_mission_is_one_line_naming_the_file_and_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = BAD[name]
    src = tmp_path / "bad.mission.txt"
    src.write_bytes(text if isinstance(text, bytes) else text.encode())
    shutil.copy(HERE / "lib_segments.txt", tmp_path / "lib.txt")
    out = tmp_path / "out.json"
    given = [] if name == "odd-library-name" else ["--segments", str(tmp_path / "lib.txt")]
    code = main(["import", str(src), *given, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"hulkforge import: {src}: ") and re.search(expected, err), err


@pytest.mark.parametrize("name", sorted(BAD_LIBRARY))
def test_a_malformed_segment_library_names_its_file_and_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = BAD_LIBRARY[name]
    lib = tmp_path / "lib.txt"
    lib.write_text(text)
    out = tmp_path / "out.json"
    assert main(["import", str(FIXTURE), "--segments", str(lib), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"hulkforge import: {lib}: {expected}"), err
    assert not out.exists()


def test_cli_imports_derelict_where_it_once_said_not_valid_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cross.json"
    assert main(["import", str(FIXTURE), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "not valid JSON" not in captured.err and "warning: 1 blip_2 token(s) left out" in captured.err
    assert load_mission(out).meta.title == "Cross Deck"
    assert main(["validate", str(out)]) == 0


def test_segments_option_is_refused_for_a_tiled_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path / "map.tmj"), "--segments", "x.txt", "-o", str(tmp_path / "o.json")]) == 2
    assert "--segments is for a Derelict mission" in capsys.readouterr().err


def test_the_text_export_writes_is_the_text_import_reads() -> None:
    # The exporter's module documents the format; every instance and token line it writes parses.
    mission = load_mission(next(p for p in sample_missions() if p.stem == "pitfall"))
    text, library, _ = derelict_texts(mission, "upper")
    parsed = parse_mission(text, "x")
    lines = text.splitlines()
    assert len(parsed.instances) == sum(ln.startswith("  seg-") for ln in lines) > 0
    assert len(parsed.tokens) == sum(ln.startswith("  tok-") for ln in lines) > 0
    assert set(parse_library(library, "y")) == {i.type for i in parsed.instances}


def test_a_pipe_or_a_device_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from engine.mission import bounded_read

    monkeypatch.setattr(bounded_read, "PIPE_TIMEOUT_S", 0.3)
    fifo = tmp_path / "nobody.mission.txt"
    os.mkfifo(fifo)
    out = tmp_path / "out.json"
    assert main(["import", str(fifo), "-o", str(out)]) == 2
    assert main(["import", str(FIXTURE), "--segments", "/dev/zero", "-o", str(out)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0].startswith(f"hulkforge import: {fifo}: nothing to read within")
    assert lines[1] == "hulkforge import: /dev/zero: is a device, not a Derelict segment library"
    assert not out.exists()
