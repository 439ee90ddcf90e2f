"""The printable SVG: well-formed, one page per level, with title, coordinates, counters and legend; no Qt."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.export.svg import CELL, export_svg, level_page, pages
from engine.mission import load_mission
from engine.resources import sample_mission, sample_missions

NS = "{http://www.w3.org/2000/svg}"


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


@pytest.mark.parametrize("sample", sample_missions(), ids=lambda p: p.stem)
def test_every_level_page_parses_and_shows_its_parts(sample: Path) -> None:
    m = load_mission(sample)
    for lv in m.levels:
        page = level_page(m, lv.id)
        root = ET.fromstring(page.svg)
        assert root.get("width") == f"{page.width_mm:.2f}mm"
        assert page.width_mm >= lv.width * CELL and page.height_mm >= lv.height * CELL
        texts = _texts(root)
        assert m.meta.title in texts and "Legend" in texts
        assert all(str(i) in texts for i in range(max(lv.width, lv.height)))  # square coordinates
        for mar in (x for x in m.marines.squad if x.level == lv.id):
            assert mar.id[:4] in texts  # the counter's label on the map
            assert any(t.startswith(f"{mar.id}: ") for t in texts)  # and its line in the squad list


def test_counters_are_drawn_where_they_stand() -> None:
    m = load_mission(sample_mission("recover_the_relic"))
    root = ET.fromstring(level_page(m, "deck").svg)
    labels: dict[str | None, float] = {}
    for t in root.iter(f"{NS}text"):
        labels.setdefault(t.text, float(t.get("x", "0")))  # column numbers come before row numbers
    # Labels are centred in their square: x = left of grid + (column + 0.5) * CELL.
    left = labels["0"] - 0.5 * CELL
    sgt = next(x for x in m.marines.squad if x.id == "sgt")
    assert labels["sgt"] == pytest.approx(left + (sgt.x + 0.5) * CELL, abs=0.01)


def test_multi_level_mission_writes_one_file_per_level(tmp_path: Path) -> None:
    m = load_mission(sample_mission("the_long_drop"))
    files = export_svg(m, tmp_path / "drop.svg")
    assert [f.name for f in files] == ["drop-gantry-deck.svg", "drop-brood-deck.svg"]
    assert export_svg(m, tmp_path / "only.svg", ["bottom"]) == [tmp_path / "only-brood-deck.svg"]
    single = export_svg(load_mission(sample_mission("tutorial")), tmp_path / "tut.svg")
    assert single == [tmp_path / "tut.svg"]
    for f in [*files, *single]:
        ET.parse(f)


def test_cli_render_svg_and_bad_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.svg"
    assert main(["render", str(sample_mission("pitfall")), "-o", str(out), "--level", "lower"]) == 0
    assert (tmp_path / "r-lower-level.svg").exists()
    assert main(["render", str(sample_mission("pitfall")), "-o", str(out), "--level", "attic"]) == 2
    err = capsys.readouterr().err.strip()
    assert "no level 'attic'" in err and "\n" not in err


def test_engine_export_never_imports_qt() -> None:
    code = (
        "import sys, engine.export.svg, engine.export.tiled, engine.export.tiled_import, engine.export.derelict, "
        "engine.commands.render, engine.commands.export, engine.commands.import_\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'editor')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


@pytest.mark.parametrize(("paper", "size"), [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4))])
@pytest.mark.parametrize("sample", sample_missions(), ids=lambda p: p.stem)
def test_paper_pages_have_the_standard_size_and_hold_the_map(sample: Path, paper: str, size: Any) -> None:
    m = load_mission(sample)
    for page in pages(m, None, paper=paper):  # type: ignore[arg-type]
        assert sorted((page.width_mm, page.height_mm)) == sorted(size)
        root = ET.fromstring(page.svg)
        group = next(g for g in root.iter(f"{NS}g") if "scale(" in (g.get("transform") or ""))
        scale = float(group.get("transform", "").split("scale(")[1].rstrip(")"))
        lv = m.level(page.level)
        assert lv is not None and 0.3 < scale <= 1.0
        assert (lv.width * CELL + 6) * scale <= page.width_mm - 20 + 1e-6  # inside the 10 mm margins


def test_open_and_closed_bulkheads_have_their_own_legend_entries() -> None:
    m = load_mission(sample_mission("the_long_drop"))
    texts = _texts(ET.fromstring(level_page(m, "bottom").svg))
    assert "Bulkhead (open)" in texts and "Bulkhead (closed)" not in texts
    m.doors[-1] = dataclasses.replace(m.doors[-1], state="closed")
    texts = _texts(ET.fromstring(level_page(m, "bottom").svg))
    assert "Bulkhead (closed)" in texts and "Bulkhead (open)" not in texts


def test_sections_are_lettered_on_the_map_and_named_below() -> None:
    m = load_mission(sample_mission("tutorial"))
    texts = _texts(ET.fromstring(level_page(m, "deck").svg))
    assert {"a", "b", "c", "d", "e"} <= set(texts)
    assert "b Junction room (room)" in " ".join(texts)


def test_first_sheet_briefs_the_mission_and_the_others_point_to_it() -> None:
    m = load_mission(sample_mission("the_long_drop"))
    first, second = pages(m, None)
    one = " ".join(_texts(ET.fromstring(first.svg)))
    assert "the Marines win when section r (Brood nest) of level 'Brood deck' is flamed" in one
    assert "reinforcements from turn 1: 2 blips a turn at entry areas T-E, T-N, B-S, B-W" in one
    two = " ".join(_texts(ET.fromstring(second.svg)))
    assert "see the first sheet" in two and "reinforcements" not in two
    [only] = pages(m, ["bottom"])  # printed alone, a level's sheet is the first one
    assert "Victory" in _texts(ET.fromstring(only.svg))


def test_a_long_description_is_cut_on_paper_but_not_on_a_fit_page() -> None:
    m = load_mission(sample_mission("tutorial"))
    m.meta = dataclasses.replace(m.meta, description="A very long briefing. " * 800)
    [a4] = pages(m, None, paper="a4")
    assert "... (the rest is in the mission file)" in _texts(ET.fromstring(a4.svg))
    [fit] = pages(m, None, paper="fit")
    assert "... (the rest is in the mission file)" not in _texts(ET.fromstring(fit.svg))


def test_svg_writer_drops_what_xml_cannot_hold() -> None:
    m = load_mission(sample_mission("tutorial"))
    m.meta = dataclasses.replace(m.meta, title="deck\x1b\x00\uffff\ud800!", author="a\x0bb")
    m.marines.squad[0].name = "Sgt\x1b"
    m.levels[0].sections["a"] = dataclasses.replace(m.levels[0].sections["a"], name="West\x00 corridor")
    root = ET.fromstring(level_page(m, "deck").svg)  # raises if the XML does not parse
    assert "deck!" in _texts(root)


def test_svg_export_writes_every_page_or_none(tmp_path: Path) -> None:
    m = load_mission(sample_mission("the_long_drop"))
    (tmp_path / "d-brood-deck.svg").mkdir()
    with pytest.raises(ValueError, match="is a folder"):
        export_svg(m, tmp_path / "d.svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d-brood-deck.svg"]
