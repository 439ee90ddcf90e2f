"""File › Export from the editor writes every kind of export (print, Tiled, Derelict) of the open mission."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def test_every_export_of_the_open_mission(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    w = window
    assert w.export_render("png", str(tmp_path / "p.png"))
    assert w.export_render("svg", str(tmp_path / "p.svg"))
    assert w.export_render("pdf", str(tmp_path / "p.pdf"))
    assert w.export_tiled(str(tmp_path / "p.tmj"))
    assert w.export_derelict(str(tmp_path / "p.txt"), level="upper")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "p-lower-level.png", "p-lower-level.svg", "p-terrain.png", "p-upper-level.png", "p-upper-level.svg",
        "p.pdf", "p.segments.txt", "p.tmj", "p.txt",
    ]  # fmt: skip
    assert json.loads((tmp_path / "p.tmj").read_text())["type"] == "map"
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF-")


def test_a_failed_export_says_so_and_writes_nothing(window, reply, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "p-terrain.png").mkdir()  # the tileset's name is taken by a folder
    shown = reply("critical", None)
    assert not window.export_tiled(str(tmp_path / "p.tmj"))
    assert shown and "is a folder" in shown[0]
    assert [p.name for p in tmp_path.iterdir()] == ["p-terrain.png"]
