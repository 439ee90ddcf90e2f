"""Nothing in a Tiled map is dropped unseen: a layer the import does not read is named in a warning, with a
"did you mean" for a misspelt one, as a misspelt custom property is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.export.tiled import build_tmj
from engine.export.tiled_import import import_tiled
from engine.mission import load_mission
from engine.resources import sample_mission


def _tutorial(tmp_path: Path, change: Any) -> tuple[Path, int]:
    """The tutorial exported, changed, written; and how many doors the export holds."""
    doc = build_tmj(load_mission(sample_mission("tutorial")), "t.png")
    doors = sum(len(lay["objects"]) for lay in doc["layers"][0]["layers"] if lay["name"] == "doors")
    change(doc)
    path = tmp_path / "t.tmj"
    path.write_text(json.dumps(doc))
    return path, doors


def _layer(doc: dict[str, Any], name: str) -> dict[str, Any]:
    layer: dict[str, Any] = next(lay for lay in doc["layers"][0]["layers"] if lay["name"] == name)
    return layer


def test_a_misspelt_object_layer_is_named_with_a_guess_and_its_objects_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, doors = _tutorial(tmp_path, lambda d: _layer(d, "doors").update(name="door"))
    assert doors == 1
    warnings: list[str] = []
    m, _ = import_tiled(path, warnings)
    assert m.doors == []
    assert warnings == [
        "object layer 'deck/door' is not one hulkforge reads (did you mean 'doors'?): its 1 object is not imported"
    ]
    assert main(["import", str(path), "-o", str(tmp_path / "t.json")]) in (0, 1)
    assert "warning: object layer 'deck/door' is not one hulkforge reads (did you mean 'doors'?)" in (
        capsys.readouterr().err
    )


def test_layers_of_notes_and_stray_tile_layers_are_reported_too(tmp_path: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        level = doc["layers"][0]["layers"]
        terrain = _layer(doc, "terrain")
        level.append({"id": 900, "name": "notes", "type": "objectgroup", "objects": []})
        level.append({**terrain, "id": 901, "name": "decals"})
        doc["layers"].append({**terrain, "id": 902, "name": "background"})  # outside every level group

    path, _ = _tutorial(tmp_path, change)
    warnings: list[str] = []
    import_tiled(path, warnings)
    assert sorted(warnings) == [
        "object layer 'deck/notes' is not one hulkforge reads: it is empty",
        "tile layer 'background' is not read by hulkforge",
        "tile layer 'deck/decals' is not read: the level's terrain is layer 'deck/terrain'",
    ]


def test_a_misspelt_property_gets_a_guess_too(tmp_path: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        _layer(doc, "doors")["objects"][0]["properties"].append({"name": "stat", "type": "string", "value": "open"})

    path, _ = _tutorial(tmp_path, change)
    warnings: list[str] = []
    import_tiled(path, warnings)
    assert warnings == [
        "objects in layer 'deck/doors': custom property 'stat' is not used by hulkforge (did you mean 'state'?)"
    ]
