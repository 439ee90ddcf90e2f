"""The printable SVG: well-formed, one page per level, with title, coordinates, counters and legend; no Qt."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine.cli import main
from engine.export.svg import CELL, export_svg, level_page
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
    assert [f.name for f in files] == ["drop-top.svg", "drop-bottom.svg"]
    assert export_svg(m, tmp_path / "only.svg", ["bottom"]) == [tmp_path / "only-bottom.svg"]
    single = export_svg(load_mission(sample_mission("tutorial")), tmp_path / "tut.svg")
    assert single == [tmp_path / "tut.svg"]
    for f in [*files, *single]:
        ET.parse(f)


def test_cli_render_svg_and_bad_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.svg"
    assert main(["render", str(sample_mission("pitfall")), "-o", str(out), "--level", "lower"]) == 0
    assert (tmp_path / "r-lower.svg").exists()
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
