"""Export a mission as a Tiled 1.8 JSON map (.tmj) with its terrain tileset PNG beside it."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.export import tiled_names as N
from engine.export.colours import DEFAULT
from engine.export.files import ExportReport
from engine.export.outputs import check_targets
from engine.export.staging import staged_files
from engine.export.tileset import TILE, terrain_chars, tileset_png
from engine.mission import mission_to_dict
from engine.mission.kinds import KINDS, CannotExpress, Kind, items
from engine.mission.model import (
    FACINGS,
    DeploymentArea,
    Door,
    Ladder,
    Lift,
    Marine,
    Mission,
    Objective,
    Pitfall,
)

Json = dict[str, Any]
# Tiled draws each object layer's rectangles in its colour: the same colours as the printed legend.
_LAYER_COLOURS = {
    N.DOORS: DEFAULT.DOOR_CLOSED,
    N.ENTRY_AREAS: DEFAULT.ENTRY,
    N.EXITS: DEFAULT.EXIT,
    N.OBJECTIVES: DEFAULT.OBJECTIVE,
    N.PITFALLS: DEFAULT.PITFALL,
    N.LADDERS: DEFAULT.LADDER,
    N.RUBBLE: DEFAULT.RUBBLE,
    N.CHUTES: DEFAULT.CHUTE,
    N.DEPLOYMENT: DEFAULT.DEPLOY,
}
_LEGEND_COLOURS = dict(DEFAULT.LEGEND)


def _layer_colour(name: str) -> str:
    """A first nine layer's colour, else the printed legend's colour of the layer's kind."""
    if name in _LAYER_COLOURS:
        return _LAYER_COLOURS[name]
    kind = next(k for k in KINDS if N.layer_of(k) == name)
    return _LEGEND_COLOURS[kind.legend(None)]


def _prop(name: str, value: object) -> Json:
    kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "string"
    return {"name": name, "type": kind, "value": value}


def _json_prop(name: str, value: object) -> Json:
    return {"name": name, "type": "string", "value": json.dumps(value, ensure_ascii=False, sort_keys=False)}


class _Ids:
    """Map-unique layer and object ids; object ids also carry each feature list's order to the importer."""

    def __init__(self) -> None:
        self.layer = 0
        self.obj = 0

    def next_layer(self) -> int:
        self.layer += 1
        return self.layer

    def next_obj(self) -> int:
        self.obj += 1
        return self.obj


# Where a square's object stands when turned by a quarter turns: Tiled turns an object clockwise about its x, y
# (the top-left corner), so a turned square is moved back by one tile across or down to cover its own square.
_TURNED_CORNER = {0: (0, 0), 1: (1, 0), 2: (1, 1), 3: (0, 1)}


def _obj(oid: int, name: str, kind: str, x: int, y: int, props: list[Json] | None = None, quarters: int = 0) -> Json:
    dx, dy = _TURNED_CORNER[quarters]
    out: Json = {
        "id": oid,
        "name": name,
        "type": kind,
        "x": (x + dx) * TILE,
        "y": (y + dy) * TILE,
        "width": TILE,
        "height": TILE,
        "rotation": 90 * quarters,
        "visible": True,
    }
    if props:
        out["properties"] = props
    return out


Placed = list[tuple[str, Json]]  # (level id, Tiled object) for each square a feature stands on


def _door(d: Door, ids: _Ids) -> Placed:
    return [(d.level, _obj(ids.next_obj(), d.id, d.kind, d.x, d.y, [_prop("state", d.state)]))]


def _generic(kind: Kind) -> Callable[[Any, _Ids], Placed]:
    """A one-square kind as one object: named by its ident field, of its declared type, every other field of
    its model (but level, x, y) a custom property of the same name (docs/tiled-convention.md)."""
    assert isinstance(kind.tiled, str)
    tiled = kind.tiled
    fields = N.object_fields(kind)

    def write(obj: Any, ids: _Ids) -> Placed:
        name = getattr(obj, kind.ident) if kind.ident else ""
        props = [_prop(f, getattr(obj, f)) for f in fields]
        return [(obj.level, _obj(ids.next_obj(), name, tiled, obj.x, obj.y, props))]

    return write


def _objective(o: Objective, ids: _Ids) -> Placed:
    props = [_prop("title", o.name), _prop("kind", o.kind)]
    return [(o.level, _obj(ids.next_obj(), o.id, "objective", o.x, o.y, props))]


def _pitfall(p: Pitfall, ids: _Ids) -> Placed:
    return [(p.level, _obj(ids.next_obj(), p.letter, "pitfall", p.x, p.y))]


def _ladder(lad: Ladder, ids: _Ids) -> Placed:
    top_id, bottom_id = ids.next_obj(), ids.next_obj()
    out: Placed = []
    for end, sq, me, partner in (("top", lad.top, top_id, bottom_id), ("bottom", lad.bottom, bottom_id, top_id)):
        props = [_prop("end", end), {"name": "partner", "type": "object", "value": partner}]
        out.append((sq.level, _obj(me, lad.id, "ladder", sq.x, sq.y, props)))
    return out


def _lift(lift: Lift, ids: _Ids) -> Placed:
    """One object per entrance, all named after the lift (the importer gathers them by name)."""
    return [(e.level, _obj(ids.next_obj(), lift.id, "lift", e.x, e.y)) for e in lift.entrances]


def _area(area: DeploymentArea, ids: _Ids) -> Placed:
    """One object per square, all named after the area (the importer gathers them by name)."""
    return [(area.level, _obj(ids.next_obj(), area.id, "deployment_area", x, y)) for x, y in area.squares]


def _marine(mar: Marine, ids: _Ids) -> Placed:
    props = [
        _prop("rank", mar.rank),
        _prop("title", mar.name),
        _prop("ranged", mar.ranged),
        _prop("melee", mar.melee),
        _prop("storm_shield", mar.storm_shield),
    ]
    # The facing is the object's rotation (0 N, 90 E, 180 S, 270 W), the one thing Tiled turns: a facing
    # property beside it would go stale the moment the object is rotated in Tiled.
    quarters = FACINGS.index(mar.facing)
    return [(mar.level, _obj(ids.next_obj(), mar.id, "marine", mar.x, mar.y, props, quarters))]


# The kinds written otherwise than by _generic; every other kind Tiled can hold is written from its declaration.
_WRITTEN_OTHERWISE: dict[str, Callable[[Any, _Ids], Placed]] = {
    "doors": _door,
    "objectives": _objective,
    "pitfalls": _pitfall,
    "ladders": _ladder,
    "lifts": _lift,
    "deployment_areas": _area,
    "squad": _marine,
}
# Each kind's writer (engine/mission/kinds.py) and the object layer it writes to, in the order of the ids.
WRITERS: dict[str, tuple[str, Callable[[Any, _Ids], Placed]]] = {
    k.key: (N.layer_of(k), _WRITTEN_OTHERWISE.get(k.key) or _generic(k)) for k in KINDS if isinstance(k.tiled, str)
}


def _objects(m: Mission, ids: _Ids) -> dict[tuple[str, str], list[Json]]:
    """Objects keyed by (level id, layer name); ids follow each feature list's order."""
    out: dict[tuple[str, str], list[Json]] = {}
    for key, (layer, write) in WRITERS.items():
        for obj in items(m, key):
            for level, o in write(obj, ids):
                out.setdefault((level, layer), []).append(o)
    return out


def unexpressed(m: Mission) -> list[str]:
    """One warning per feature whose kind Tiled cannot hold (engine/mission/kinds.py), naming it."""
    return [
        f"{kind.name_of(obj)} left out of the Tiled map: {kind.tiled.reason}"
        for kind in KINDS
        if isinstance(kind.tiled, CannotExpress)
        for obj in items(m, kind)
    ]


def build_tmj(m: Mission, image_name: str) -> Json:
    """The Tiled JSON map object for a mission whose tileset image is image_name (relative to the map)."""
    chars = terrain_chars(m)
    gid = {c: i + 1 for i, c in enumerate(chars)}
    width = max(lv.width for lv in m.levels)
    height = max(lv.height for lv in m.levels)
    ids = _Ids()
    objects = _objects(m, ids)
    doc = mission_to_dict(m)
    groups: list[Json] = []
    for lv in m.levels:
        # Cells past a short row, or of a level smaller than the map, stay empty (gid 0).
        data = [
            gid[lv.rows[y][x]] if y < lv.height and x < len(lv.rows[y]) else 0
            for y in range(height)
            for x in range(width)
        ]
        layers: list[Json] = [
            {
                "id": ids.next_layer(),
                "name": N.TERRAIN_LAYER,
                "type": "tilelayer",
                "x": 0,
                "y": 0,
                "width": width,
                "height": height,
                "opacity": 1,
                "visible": True,
                "data": data,
            }
        ]
        later = tuple(name for name in N.LATER_LAYERS if any(layer == name for _lv, layer in objects))
        for name in N.OBJECT_LAYERS + later:
            layers.append(
                {
                    "color": _layer_colour(name),
                    "id": ids.next_layer(),
                    "name": name,
                    "type": "objectgroup",
                    "draworder": "index",
                    "x": 0,
                    "y": 0,
                    "opacity": 1,
                    "visible": True,
                    "objects": objects.get((lv.id, name), []),
                }
            )
        sections = {k: {"name": s.name, "kind": s.kind} for k, s in sorted(lv.sections.items())}
        groups.append(
            {
                "id": ids.next_layer(),
                "name": lv.id,
                "type": "group",
                "x": 0,
                "y": 0,
                "opacity": 1,
                "visible": lv is m.levels[0],
                "layers": layers,
                "properties": [
                    _prop("depth", lv.depth),
                    _prop("level_name", lv.name),
                    _json_prop("sections", sections),
                ],
            }
        )
    props = [_prop("format", N.FORMAT_TAG)]
    props += [_prop(k, doc["meta"].get(k, "")) for k in N.META_KEYS]
    props += [_prop("ruleset", m.ruleset), _prop("psi_points", m.marines.psi_points)]
    props += [_json_prop(k, doc[k]) for k in N.JSON_PROPS if k in doc]
    tiles = [{"id": i, "properties": [_prop("char", c)]} for i, c in enumerate(chars)]
    return {
        "type": "map",
        "version": N.TILED_VERSION,
        "tiledversion": "1.8.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": width,
        "height": height,
        "tilewidth": TILE,
        "tileheight": TILE,
        "compressionlevel": -1,
        "nextlayerid": ids.layer + 1,
        "nextobjectid": ids.obj + 1,
        "properties": sorted(props, key=lambda p: str(p["name"])),
        "tilesets": [
            {
                "firstgid": 1,
                "name": "hulkforge-terrain",
                "image": image_name,
                "imagewidth": TILE * len(chars),
                "imageheight": TILE,
                "tilewidth": TILE,
                "tileheight": TILE,
                "tilecount": len(chars),
                "columns": len(chars),
                "margin": 0,
                "spacing": 0,
                "tiles": tiles,
            }
        ],
        "layers": groups,
    }


def tmj_bytes(tmj: Json) -> bytes:
    """The map as UTF-8 JSON text; a lone surrogate in some name (a programmatic mission) becomes '?'."""
    return (json.dumps(tmj, ensure_ascii=False, indent=1) + "\n").encode("utf-8", "replace")


def export_tiled(mission: Mission, path: str | os.PathLike[str]) -> ExportReport:
    """Write mission as a Tiled map at path (.tmj) and its tileset as <stem>-terrain.png beside it, both or none."""
    target = Path(path)
    image = target.with_name(f"{target.stem}-terrain.png")
    check_targets([target, image])
    tmj = build_tmj(mission, image.name)
    with staged_files() as out:
        out.write_bytes(target, tmj_bytes(tmj))
        out.write_bytes(image, tileset_png(terrain_chars(mission)))
    return ExportReport(files=out.files, warnings=unexpressed(mission))
