"""Tiled import in Tiled's own terms: objects where Tiled draws them (rotation about x, y), unused custom
properties reported, errors naming the Tiled layer and object.

tests/golden/tiled/rotated.tmx holds five objects rotated as Tiled's rotate tool leaves them (about their
centre, so x, y moves); rotated.tmj is that map converted by real Tiled 1.8 (`tiled --export-map json`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.export.tiled import build_tmj
from engine.export.tiled_import import import_tiled
from engine.export.tiled_read import TiledImportError
from engine.mission import load_mission
from engine.resources import sample_mission

HERE = Path(__file__).resolve().parent.parent / "golden" / "tiled"
# Where each object of rotated.tmx stands: the squares tmxrasterizer paints them on.
ROTATED = {"m1": (2, 2, "E"), "m2": (4, 2, "S"), "m3": (2, 5, "W"), "m4": (5, 5, "E"), "sgt": (6, 3, "N")}
TILED, RASTERIZER = shutil.which("tiled"), shutil.which("tmxrasterizer")


def _env(home: Path) -> dict[str, str]:
    return {"QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": "/tmp", "HOME": str(home), "PATH": "/usr/bin:/bin"}


def _squad(path: Path) -> dict[str, tuple[int, int, str]]:
    m, _ = import_tiled(path)
    return {x.id: (x.x, x.y, x.facing) for x in m.marines.squad}


def test_rotated_objects_land_where_tiled_draws_them() -> None:
    assert _squad(HERE / "rotated.tmj") == ROTATED


@pytest.mark.skipif(TILED is None or RASTERIZER is None, reason="the Debian package `tiled` is not installed")
def test_real_tiled_converts_and_draws_the_rotated_objects_on_those_squares(tmp_path: Path) -> None:
    for name in ("rotated.tmx", "tiles.png"):
        shutil.copy(HERE / name, tmp_path / name)
    for args in (["tiled", "--export-map", "json", "rotated.tmx", "out.tmj"], ["tmxrasterizer", "-t", "32",
                                                                               "rotated.tmx", "out.png"]):
        done = subprocess.run(args, cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    assert _squad(tmp_path / "out.tmj") == ROTATED
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QImage

    image = QImage(str(tmp_path / "out.png"))
    floor = image.pixel(1 * 32 + 16, 1 * 32 + 16)
    drawn = {(sx, sy) for sx in range(8) for sy in range(8) if 0 < sx < 7 and 0 < sy < 7
             and image.pixel(sx * 32 + 16, sy * 32 + 16) != floor}  # fmt: skip
    assert drawn == {(x, y) for x, y, _ in ROTATED.values()}


def _tutorial_tmj(tmp_path: Path, change: Any) -> Path:
    doc = build_tmj(load_mission(sample_mission("tutorial")), "t.png")
    change(doc)
    path = tmp_path / "t.tmj"
    path.write_text(json.dumps(doc))
    return path


def _deployment(doc: dict[str, Any]) -> list[dict[str, Any]]:
    layer = next(lay for lay in doc["layers"][0]["layers"] if lay["name"] == "deployment")
    objects: list[dict[str, Any]] = layer["objects"]
    return objects


def test_unused_custom_properties_are_reported_by_where_they_stand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["properties"].append({"name": "difficulty", "type": "string", "value": "hard"})
        doc["layers"][0]["properties"].append({"name": "lighting", "type": "string", "value": "dim"})
        for o in _deployment(doc):
            o["properties"].append({"name": "colour", "type": "color", "value": "#ff0000ff"})

    path = _tutorial_tmj(tmp_path, change)
    unused: list[str] = []
    import_tiled(path, unused)
    assert unused == [
        "group layer 'deck': custom property 'lighting' is not used by hulkforge",
        "objects in layer 'deck/deployment': custom property 'colour' is not used by hulkforge (2 times)",
        "map properties: custom property 'difficulty' is not used by hulkforge",
    ]
    assert main(["import", str(path), "-o", str(tmp_path / "t.json")]) == 0
    err = capsys.readouterr().err
    assert f"{path}: warning: map properties: custom property 'difficulty' is not used by hulkforge" in err
    unused.clear()
    import_tiled(_tutorial_tmj(tmp_path, lambda d: None), unused)
    assert unused == []  # our own exports use every property they write


def test_a_schema_error_names_the_tiled_object_and_its_property(tmp_path: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        sgt = _deployment(doc)[0]
        sgt["properties"].append({"name": "facing", "type": "string", "value": "up"})

    with pytest.raises(TiledImportError) as caught:
        import_tiled(_tutorial_tmj(tmp_path, change))
    message = str(caught.value)
    assert "object " in message and "'sgt' in layer 'deck/deployment'" in message
    assert "the map does not make a valid mission: facing: 'up' is not one of" in message
    assert "$.marines" not in message  # the mission's own paths mean nothing to someone in Tiled


def test_a_schema_error_in_a_map_property_names_the_property(tmp_path: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        next(p for p in doc["properties"] if p["name"] == "victory")["value"] = '[{"kind": "glory"}]'

    with pytest.raises(TiledImportError, match=r"map property 'victory' \(\$\.properties\.victory\): the map"):
        import_tiled(_tutorial_tmj(tmp_path, change))


def test_control_characters_the_mission_reader_refuses_are_refused_at_import(tmp_path: Path) -> None:
    # The importer used to write such a mission, which `validate` and the editor then could not open.
    def change(doc: dict[str, Any]) -> None:
        next(p for p in doc["properties"] if p["name"] == "title")["value"] = "Tutorial\x1b[2J"

    tmj = _tutorial_tmj(tmp_path, change)
    with pytest.raises(TiledImportError, match=r"map property 'title' \(\$\.properties\.title\): .*control"):
        import_tiled(tmj)
    out = tmp_path / "out.json"
    assert main(["import", str(tmj), "-o", str(out)]) == 2
    assert not out.exists()
