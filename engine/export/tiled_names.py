"""Layer, object and property names shared by the Tiled exporter and importer (docs/tiled-convention.md)."""

from __future__ import annotations

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
# Layers of kinds added since: written only on a map whose mission holds one (a map without stays as it was).
LIFTS = "lifts"
DEPLOYMENT_AREAS = "deployment_areas"
TORPEDOES = "torpedoes"
LATER_LAYERS = (LIFTS, DEPLOYMENT_AREAS, TORPEDOES)

# Map properties holding what has no place on the map itself, as JSON text where it is structured.
META_KEYS = ("title", "author", "description", "source")
JSON_PROPS = ("options", "genestealers", "victory", "random_setup")
