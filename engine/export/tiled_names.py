"""Layer, object and property names shared by the Tiled exporter and importer (docs/tiled-convention.md)."""

from __future__ import annotations

from engine.mission.kinds import KINDS, Kind, properties

TILED_VERSION = "1.8"
FORMAT_TAG = "hulkforge-mission/1"

TERRAIN_LAYER = "terrain"
# Object layers of a level group, in the order the exporter writes them.
DOORS = "doors"
ENTRY_AREAS = "entry_areas"
EXITS = "exits"
OBJECTIVES = "objectives"
PITFALLS = "pitfalls"
LADDERS = "ladders"
RUBBLE = "rubble"
CHUTES = "chutes"
DEPLOYMENT = "deployment"
OBJECT_LAYERS = (DOORS, ENTRY_AREAS, EXITS, OBJECTIVES, PITFALLS, LADDERS, RUBBLE, CHUTES, DEPLOYMENT)


def layer_of(kind: Kind) -> str:
    """The object layer a kind's objects go on: named after its document list (the squad's is 'deployment')."""
    return DEPLOYMENT if kind.key == "squad" else kind.key


def object_fields(kind: Kind) -> tuple[str, ...]:
    """The custom properties of a kind written from its declaration: its model's fields but the ident (the
    object's name) and the square (the object's place)."""
    return properties(kind)


# Layers of kinds added since, in the registry's order: written only on a map whose mission holds one (a map
# without stays as it was).
LATER_LAYERS = tuple(layer_of(k) for k in KINDS if layer_of(k) not in OBJECT_LAYERS)
LIFTS = "lifts"
DEPLOYMENT_AREAS = "deployment_areas"

# Map properties holding what has no place on the map itself, as JSON text where it is structured.
META_KEYS = ("title", "author", "description", "source")
JSON_PROPS = ("options", "genestealers", "victory", "random_setup")
