"""Colours shared by the editor's map view, the legend and the print/export renderers.

The map colours live in engine/export/colours.py (the SVG and Tiled exporters need them and engine/ may not
import editor/); this module adds what only the editor draws: selections, previews, tokens, heatmaps.
Plain hex strings, so the same table serves QPainter, SVG text and Tiled tilesets.
"""

from __future__ import annotations

from engine.export.colours import DEFAULT as _MAP

WALL = _MAP.WALL
FLOOR = _MAP.FLOOR
GRID_LINE = _MAP.GRID_LINE
SECTION_EDGE = _MAP.SECTION_EDGE
DOOR_CLOSED = _MAP.DOOR_CLOSED
DOOR_OPEN = _MAP.DOOR_OPEN
BULKHEAD = _MAP.BULKHEAD
ENTRY = _MAP.ENTRY
EXIT = _MAP.EXIT
DEPLOY = _MAP.DEPLOY
OBJECTIVE = _MAP.OBJECTIVE
PITFALL = _MAP.PITFALL
PITFALL_BOTTOM = _MAP.PITFALL_BOTTOM
LADDER = _MAP.LADDER
RUBBLE = _MAP.RUBBLE
CHUTE = _MAP.CHUTE
LIFT = _MAP.LIFT
DEPLOY_AREA = _MAP.DEPLOY_AREA
TORPEDO = _MAP.TORPEDO
RANDOM_ZONE = _MAP.RANDOM_ZONE
LEGEND = _MAP.LEGEND
SECTION_TINTS = _MAP.SECTION_TINTS

ERROR = "#e02424"
WARNING = "#f59e0b"
GENESTEALER = "#6a1b9a"
BLIP = "#ab47bc"
MARINE = "#1565c0"
SECTION_LABEL = "#3b3831"
SELECTION = "#1e88e5"
PREVIEW_OK = "#2e7d32"
GHOST_BELOW = "#5b8fd6"
TOKEN_OUTLINE = "#101010"
HEAT_LOW = "#fff3b0"
HEAT_HIGH = "#c62828"
