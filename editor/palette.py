"""Colours and glyphs shared by the editor's map view, the legend and the print/export renderers.

Plain hex strings so the same table serves QPainter, SVG text and Tiled tilesets.
"""

from __future__ import annotations

WALL = "#2b2d31"
FLOOR = "#c9c4b8"
FLOOR_ALT = "#bdb7aa"  # alternate sections get a slightly different floor so rooms read apart
GRID_LINE = "#8d887c"
SECTION_EDGE = "#4a4740"
DOOR_CLOSED = "#b5651d"
DOOR_OPEN = "#e3b27a"
BULKHEAD = "#6b7b8c"
ENTRY = "#8e2c8e"
EXIT = "#2e8b57"
DEPLOY = "#1f4fa3"
OBJECTIVE = "#d4a017"
PITFALL = "#111111"
PITFALL_BOTTOM = "#555555"
LADDER = "#7a5230"
RUBBLE = "#8a7f6d"
CHUTE = "#3c1010"
RANDOM_ZONE = "#6fa8dc"
ERROR = "#e02424"
WARNING = "#f59e0b"
GENESTEALER = "#6a1b9a"
BLIP = "#ab47bc"
MARINE = "#1565c0"

# What each feature is called in legends, in drawing order.
LEGEND: tuple[tuple[str, str], ...] = (
    ("Floor", FLOOR),
    ("Wall", WALL),
    ("Door (closed)", DOOR_CLOSED),
    ("Door (open)", DOOR_OPEN),
    ("Bulkhead", BULKHEAD),
    ("Entry area", ENTRY),
    ("Exit", EXIT),
    ("Deployment", DEPLOY),
    ("Objective", OBJECTIVE),
    ("Pitfall", PITFALL),
    ("Pitfall bottom", PITFALL_BOTTOM),
    ("Ladder", LADDER),
    ("Rubble", RUBBLE),
    ("Disposal chute", CHUTE),
    ("Random-counter zone", RANDOM_ZONE),
)

# Added by the editor: soft tints that tell neighbouring sections apart (cycled by section code order).
SECTION_TINTS: tuple[str, ...] = (
    "#d8cfb8", "#c3cfc4", "#cfc3cf", "#c4cbd8", "#d8c7bd", "#cdd3b9", "#bfd2d2", "#d6c3c9",
)
SECTION_LABEL = "#3b3831"
SELECTION = "#1e88e5"
PREVIEW_OK = "#2e7d32"
GHOST_BELOW = "#5b8fd6"
TOKEN_OUTLINE = "#101010"
HEAT_LOW = "#fff3b0"
HEAT_HIGH = "#c62828"
