"""PNG and PDF printing through QSvgRenderer: valid files of the size the DPI asks for."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from editor.render import render_mission
from editor.render.raster import pixel_size
from engine.cli import main
from engine.export.png import png_size
from engine.export.svg import level_page
from engine.mission import load_mission
from engine.resources import sample_mission


def _png_dpi(data: bytes) -> float:
    at = data.find(b"pHYs")
    assert at > 0, "no pHYs chunk"
    x, _y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1  # metres
    return x * 0.0254


@pytest.mark.parametrize("dpi", [50, 150])
def test_png_per_level_at_the_asked_dpi(tmp_path: Path, dpi: int) -> None:
    m = load_mission(sample_mission("the_long_drop"))
    files = render_mission(m, tmp_path / "drop.png", "png", dpi=dpi)
    assert [f.name for f in files] == ["drop-top.png", "drop-bottom.png"]
    for f, lid in zip(files, ["top", "bottom"], strict=True):
        data = f.read_bytes()
        page = level_page(m, lid)
        assert png_size(data) == pixel_size(page, dpi)
        assert png_size(data)[0] == round(page.width_mm / 25.4 * dpi)
        assert _png_dpi(data) == pytest.approx(dpi, abs=0.5)


def test_png_is_not_blank(tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    [f] = render_mission(load_mission(sample_mission("tutorial")), tmp_path / "t.png", "png", dpi=60)
    img = QImage(str(f))
    colours = {img.pixel(x, y) for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)}
    assert len(colours) > 10  # walls, floor, counters and text, not an empty page


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) is not installed")
def test_pdf_has_one_page_per_level_readable_by_poppler(tmp_path: Path) -> None:
    m = load_mission(sample_mission("pitfall"))
    [pdf] = render_mission(m, tmp_path / "pitfall.pdf", "pdf")
    assert pdf.read_bytes().startswith(b"%PDF-")
    subprocess.run(["pdftoppm", "-r", "10", "-png", str(pdf), str(tmp_path / "page")], check=True, timeout=60)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == 2
    for png, lid in zip(pages, ["upper", "lower"], strict=True):  # each page has its own level's size
        w, h = png_size(png.read_bytes())
        page = level_page(m, lid)
        assert abs(w - page.width_mm / 25.4 * 10) <= 1 and abs(h - page.height_mm / 25.4 * 10) <= 1


def test_levels_filter_and_bad_arguments(tmp_path: Path) -> None:
    m = load_mission(sample_mission("the_long_drop"))
    assert render_mission(m, tmp_path / "b.png", "png", dpi=30, levels=["bottom"]) == [tmp_path / "b-bottom.png"]
    with pytest.raises(ValueError, match="no level"):
        render_mission(m, tmp_path / "x.png", "png", levels=["attic"])
    with pytest.raises(ValueError, match="unknown format"):
        render_mission(m, tmp_path / "x.gif", "gif")  # type: ignore[arg-type]
    assert not (tmp_path / "x.png").exists()


def test_cli_render_png_and_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = str(sample_mission("recover_the_relic"))
    assert main(["render", src, "--format", "png", "-o", str(tmp_path / "r.png"), "--dpi", "40"]) == 0
    assert png_size((tmp_path / "r.png").read_bytes()) == pixel_size(level_page(load_mission(src), "deck"), 40)
    assert main(["render", src, "-o", str(tmp_path / "r.pdf")]) == 0
    assert (tmp_path / "r.pdf").read_bytes()[:5] == b"%PDF-"
    assert main(["render", src, "-o", str(tmp_path / "r.gif")]) == 2
    assert main(["render", src, "-o", str(tmp_path / "nope" / "r.png")]) == 2
    assert "does not exist" in capsys.readouterr().err

