"""A Marine's facing in Tiled is its object's rotation: written so, read back so, and a stray 'facing' property
that disagrees with the rotation is reported."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

from engine.export.tiled import build_tmj
from engine.export.tiled_import import import_tiled
from engine.mission import load_mission
from engine.mission.model import FACINGS, Mission
from engine.resources import sample_mission

TILE = 32


def _mission_facing_every_way() -> Mission:
    m = load_mission(sample_mission("pitfall"))
    squad = [dataclasses.replace(mar, facing=FACINGS[i % 4]) for i, mar in enumerate(m.marines.squad)]
    return dataclasses.replace(m, marines=dataclasses.replace(m.marines, squad=squad))


def _marine_objects(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for g in doc["layers"] for lay in g.get("layers", []) if lay["name"] == "deployment"
            for o in lay["objects"]]  # fmt: skip


def _centre(o: dict[str, Any]) -> tuple[float, float]:
    turn = math.radians(o["rotation"])
    h = TILE / 2
    return o["x"] + h * math.cos(turn) - h * math.sin(turn), o["y"] + h * math.sin(turn) + h * math.cos(turn)


def _turn_about_centre(o: dict[str, Any], degrees: float) -> None:
    """What Tiled's rotate tool does: the object turns about its centre, so its x, y move."""
    cx, cy = _centre(o)
    turn, h = math.radians(degrees), TILE / 2
    o["rotation"] = degrees
    o["x"], o["y"] = cx - (h * math.cos(turn) - h * math.sin(turn)), cy - (h * math.sin(turn) + h * math.cos(turn))


def _import(tmp_path: Path, doc: dict[str, Any], warnings: list[str] | None = None) -> Mission:
    path = tmp_path / "m.tmj"
    path.write_text(json.dumps(doc))
    m, _ = import_tiled(path, warnings)
    return m


def test_exported_marines_are_turned_the_way_they_face_on_their_own_square() -> None:
    m = _mission_facing_every_way()
    objects = _marine_objects(build_tmj(m, "t.png"))
    assert len(objects) == len(m.marines.squad) >= 4
    for mar, o in zip(m.marines.squad, objects, strict=True):
        assert o["rotation"] == {"N": 0, "E": 90, "S": 180, "W": 270}[mar.facing], mar.id
        assert "facing" not in {p["name"] for p in o.get("properties", [])}  # one fact: the rotation
        cx, cy = _centre(o)
        assert (math.floor(cx / TILE), math.floor(cy / TILE)) == (mar.x, mar.y), mar.id


def test_round_trip_keeps_every_facing(tmp_path: Path) -> None:
    m = _mission_facing_every_way()
    back = _import(tmp_path, build_tmj(m, "t.png"))
    assert [(x.id, x.x, x.y, x.facing) for x in back.marines.squad] == [
        (x.id, x.x, x.y, x.facing) for x in m.marines.squad
    ]


def test_a_marine_rotated_in_tiled_faces_the_new_way(tmp_path: Path) -> None:
    m = load_mission(sample_mission("pitfall"))
    doc = build_tmj(m, "t.png")
    objects = _marine_objects(doc)
    _turn_about_centre(objects[0], 180)
    _turn_about_centre(objects[1], -90)  # Tiled keeps what the tool leaves: -90 is W
    warnings: list[str] = []
    back = _import(tmp_path, doc, warnings)
    first, second = back.marines.squad[0], back.marines.squad[1]
    assert (first.x, first.y, first.facing) == (m.marines.squad[0].x, m.marines.squad[0].y, "S")
    assert (second.x, second.y, second.facing) == (m.marines.squad[1].x, m.marines.squad[1].y, "W")
    assert warnings == []


def test_a_facing_property_wins_over_a_rotation_that_disagrees_and_is_reported(tmp_path: Path) -> None:
    doc = build_tmj(load_mission(sample_mission("pitfall")), "t.png")
    objects = _marine_objects(doc)
    _turn_about_centre(objects[0], 90)
    objects[0]["properties"].append({"name": "facing", "type": "string", "value": "S"})
    unturned = len(objects) - 1
    _turn_about_centre(objects[unturned], 0)
    objects[unturned]["properties"].append({"name": "facing", "type": "string", "value": "W"})  # no quarrel
    warnings: list[str] = []
    back = _import(tmp_path, doc, warnings)
    assert (back.marines.squad[0].facing, back.marines.squad[unturned].facing) == ("S", "W")
    assert len(warnings) == 1
    assert f"object {objects[0]['id']} {objects[0]['name']!r} in layer" in warnings[0]
    assert "rotation 90 faces E but its 'facing' property says 'S'; the property wins" in warnings[0]
