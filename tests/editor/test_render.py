"""PNG and PDF printing through QSvgRenderer: valid files of the size the DPI asks for."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from editor.render import render_mission
from editor.render.raster import pixel_size
from engine.cli import main
from engine.export.png import png_size
from engine.export.svg import pages
from engine.mission import load_mission
from engine.resources import sample_mission


def _png_dpi(data: bytes) -> float:
    at = data.find(b"pHYs")
    assert at > 0, "no pHYs chunk"
    x, _y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1  # metres
    return x * 0.0254


A4 = (210.0, 297.0)


def _a4_pixels(dpi: int) -> tuple[int, int]:
    return round(A4[0] / 25.4 * dpi), round(A4[1] / 25.4 * dpi)


@pytest.mark.parametrize("dpi", [50, 150])
def test_png_per_level_is_an_a4_page_at_the_asked_dpi(tmp_path: Path, dpi: int) -> None:
    m = load_mission(sample_mission("the_long_drop"))
    files = render_mission(m, tmp_path / "drop.png", "png", dpi=dpi)
    assert [f.name for f in files] == ["drop-gantry-deck.png", "drop-brood-deck.png"]
    for f, page in zip(files, pages(m, None), strict=True):
        data = f.read_bytes()
        assert png_size(data) == pixel_size(page, dpi)
        assert sorted(png_size(data)) == sorted(_a4_pixels(dpi))  # portrait or landscape
        assert _png_dpi(data) == pytest.approx(dpi, abs=0.5)


def test_png_is_not_blank(tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    [f] = render_mission(load_mission(sample_mission("tutorial")), tmp_path / "t.png", "png", dpi=60)
    img = QImage(str(f))
    colours = {img.pixel(x, y) for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)}
    assert len(colours) > 10  # walls, floor, counters and text, not an empty page


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler-utils (pdfinfo) is not installed")
@pytest.mark.parametrize(("paper", "points"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_pdf_pages_are_standard_paper_and_titled_with_the_mission(tmp_path: Path, paper: str, points: Any) -> None:
    m = load_mission(sample_mission("pitfall"))
    [pdf] = render_mission(m, tmp_path / "pitfall.pdf", "pdf", paper=paper)  # type: ignore[arg-type]
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "9", str(pdf)], capture_output=True, text=True, check=True)
    assert "Title:           Pitfall\n" in info.stdout
    assert "Pages:           2\n" in info.stdout
    sizes = re.findall(r"Page +\d+ size: +([\d.]+) x ([\d.]+) pts", info.stdout)
    assert len(sizes) == 2
    for w, h in sizes:
        assert sorted((round(float(w)), round(float(h)))) == sorted(points)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_the_first_sheet_carries_the_briefing(tmp_path: Path) -> None:
    m = load_mission(sample_mission("pitfall"))
    [pdf] = render_mission(m, tmp_path / "p.pdf", "pdf")
    subprocess.run(["pdftotext", str(pdf), str(tmp_path / "p.txt")], check=True, timeout=60)
    first, second = (tmp_path / "p.txt").read_text().split("\f")[:2]
    for text in ("Victory", "Marines leave by the disposal chute", "Genestealers", "reinforcements turns 1-10",
                 "Random counters", "6 pitfalls", "from the landing area",
                 "Sections (letter on the map)", "Chute room (room)"):
        assert text in " ".join(first.split()), text
    assert "Genestealer forces: see the" in " ".join(second.split()) and "reinforcements" not in second


def test_levels_filter_and_bad_arguments(tmp_path: Path) -> None:
    m = load_mission(sample_mission("the_long_drop"))
    assert render_mission(m, tmp_path / "b.png", "png", dpi=30, levels=["bottom"]) == [tmp_path / "b-brood-deck.png"]
    with pytest.raises(ValueError, match="no level"):
        render_mission(m, tmp_path / "x.png", "png", levels=["attic"])
    with pytest.raises(ValueError, match="unknown format"):
        render_mission(m, tmp_path / "x.gif", "gif")  # type: ignore[arg-type]
    assert not (tmp_path / "x.png").exists()


def test_cli_render_png_and_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = str(sample_mission("recover_the_relic"))
    assert main(["render", src, "--format", "png", "-o", str(tmp_path / "r.png"), "--dpi", "40"]) == 0
    assert png_size((tmp_path / "r.png").read_bytes()) == pixel_size(pages(load_mission(src), None)[0], 40)
    assert main(["render", src, "-o", str(tmp_path / "r.pdf"), "--paper", "fit"]) == 0
    assert (tmp_path / "r.pdf").read_bytes()[:5] == b"%PDF-"
    assert main(["render", src, "-o", str(tmp_path / "r.gif")]) == 2
    assert main(["render", src, "-o", str(tmp_path / "nope" / "r.png")]) == 2
    assert "does not exist" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "pdf", "-o", "out.png"], "ends in '.png', but this writes a PDF: name it out.pdf"),
        (["-o", "newdir/"], "ends with a slash"),
        (["--format", "png", "-o", "existing"], "is a folder"),
    ],
)
def test_cli_render_refuses_output_paths_before_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing").mkdir()
    assert main(["render", "pitfall", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing"]
    assert not any((tmp_path / "existing").iterdir())


def test_a_failed_render_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second page failing must not leave the first page's PNG (nor any temporary) behind."""
    import editor.render.raster as raster

    real = raster.png_bytes
    calls: list[str] = []

    def second_fails(page: Any, dpi: int) -> bytes:
        calls.append(page.level)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(page, dpi)

    monkeypatch.setattr(raster, "png_bytes", second_fails)
    m = load_mission(sample_mission("pitfall"))
    with pytest.raises(OSError):
        render_mission(m, tmp_path / "p.png", "png", dpi=20)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "p-lower-level.png").mkdir()  # a page's file name taken by a folder: refused before anything is drawn
    with pytest.raises(ValueError, match="is a folder"):
        render_mission(m, tmp_path / "p.png", "png", dpi=20)
    assert [p.name for p in tmp_path.iterdir()] == ["p-lower-level.png"]


def test_control_characters_in_names_neither_crash_qt_nor_break_the_svg(tmp_path: Path) -> None:
    """A title or name with NUL, ESC or U+FFFF (a programmatic mission, an imported map): PNG used to crash Qt
    (exit 139) and the SVG did not parse. Run in a child process so a crash fails this test, not the run."""
    code = f"""
import dataclasses, os, sys, xml.etree.ElementTree as ET
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from editor.render import render_mission
from engine.mission import load_mission
from engine.resources import sample_mission
m = load_mission(sample_mission("the_long_drop"))
m.meta = dataclasses.replace(m.meta, title="deck\\x1b[31m\\x00\\uffff\\ud800 end", description="a\\x00b")
m.levels[0].name = "top\\x07"
m.marines.squad[0].name = "Sergeant\\x1b"
out = {str(tmp_path)!r}
render_mission(m, out + "/c.png", "png", dpi=20)
render_mission(m, out + "/c.pdf", "pdf", dpi=20)
for f in render_mission(m, out + "/c.svg", "svg"):
    title = ET.parse(f).getroot().find("{{http://www.w3.org/2000/svg}}title").text
    assert title.startswith("deck[31m end"), title
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
