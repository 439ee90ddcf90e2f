"""A simple feature kind (one square, a few properties) needs no code of its own in the Tiled writer and reader
nor the print: a kind declared only in a test goes through both from its declaration."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from engine.export import svg_counters, tiled
from engine.export.colours import DEFAULT
from engine.export.tiled_features import Features, LevelLayers, TiledObject
from engine.export.tiled_read import Reader, TiledImportError
from engine.mission.kinds import KINDS, CannotExpress, Kind, _flat
from engine.resources import load_schema


@dataclass
class Beacon:
    id: str
    level: str
    x: int
    y: int
    side: str
    strength: str = "low"


BEACONS = _flat("beacons", "beacon", Beacon, "id", "Exit", "beacon", CannotExpress("beacons", "none"), "BC")
ROWS = ["#####", "#...#", "#...#", "#####"]


def _features(*objects: TiledObject) -> Features:
    level = LevelLayers("up", 0, "$.layers[0]", {}, ROWS, {"beacons": list(objects)})
    return Features(Reader("m.tmj"), [level], 5, 4)


def test_a_simple_kind_is_written_to_tiled_from_its_declaration() -> None:
    [(level, obj)] = tiled._generic(BEACONS)(Beacon("B7", "up", 2, 1, "N", "high"), tiled._Ids())
    assert level == "up"
    assert (obj["name"], obj["type"], obj["x"], obj["y"]) == ("B7", "beacon", 64, 32)
    assert obj["properties"] == [{"name": "side", "type": "string", "value": "N"},
                                 {"name": "strength", "type": "string", "value": "high"}]


def test_a_simple_kind_is_read_from_tiled_from_its_declaration() -> None:
    named = TiledObject(3, "B7", "beacon", 2, 1, 0.0, {"side": "N", "strength": "high"}, "$.o[0]")
    bare = TiledObject(4, "", "beacon", 3, 2, 0.0, {"side": ""}, "$.o[1]")
    read = _features(named, bare)._generic(BEACONS)
    assert read == [
        {"id": "B7", "level": "up", "x": 2, "y": 1, "side": "N", "strength": "high"},
        # no name: the kind's prefix and the object id; a blank side: the nearest edge; no strength: the model's default
        {"id": "BC4", "level": "up", "x": 3, "y": 2, "side": "E", "strength": "low"},
    ]


def test_a_missing_property_without_a_default_is_named() -> None:
    @dataclass
    class Marker:
        id: str
        level: str
        x: int
        y: int
        colour: str

    markers = _flat("beacons", "marker", Marker, "id", "Exit", "marker", CannotExpress("markers", "none"))
    with pytest.raises(TiledImportError, match="marker needs the custom property 'colour'"):
        _features(TiledObject(1, "M1", "marker", 1, 1, 0.0, {}, "$.o[0]"))._generic(markers)


def test_a_simple_kind_is_printed_in_its_legend_colour_with_its_id() -> None:
    m = SimpleNamespace(beacons=[Beacon("B7", "up", 2, 1, "N"), Beacon("B8", "down", 1, 1, "S")])
    cv = svg_counters.Canvas(0, 0, 10, "sans")
    svg_counters._generic(BEACONS)(cv, m, SimpleNamespace(id="up"), DEFAULT)  # type: ignore[arg-type]
    text = "".join(cv.elements)
    assert f'fill="{dict(DEFAULT.LEGEND)["Exit"]}"' in text
    assert "B7" in text and "B8" not in text


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_the_schema_holds_each_kind_as_its_model_does(kind: Kind) -> None:
    """The schema's item of a kind has exactly its model's fields, those without a default required: a field
    added to the model and not to the schema (or the other way) fails here, not in a designer's file."""
    root = load_schema("mission.schema.json")
    lists = root["properties"]["marines"]["properties"] if kind.key == "squad" else root["properties"]
    item = lists[kind.key]["items"]
    fields = dataclasses.fields(kind.model)
    assert sorted(item["properties"]) == sorted(f.name for f in fields)
    required = [f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    assert sorted(item["required"]) == sorted(required)
