"""The map colours: the one table that printing, the Tiled tileset and the editor's palette all read.

engine/ may not import editor/, so the table lives here and editor/palette.py takes its map colours from it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class Colours:
    """Hex colours by feature (editor/palette.py re-exports them under the same names)."""

    WALL: str = "#2b2d31"
    FLOOR: str = "#c9c4b8"
    GRID_LINE: str = "#8d887c"
    SECTION_EDGE: str = "#4a4740"
    DOOR_CLOSED: str = "#b5651d"
    DOOR_OPEN: str = "#e3b27a"
    BULKHEAD: str = "#6b7b8c"
    ENTRY: str = "#8e2c8e"
    EXIT: str = "#2e8b57"
    DEPLOY: str = "#1f4fa3"
    OBJECTIVE: str = "#d4a017"
    PITFALL: str = "#111111"
    PITFALL_BOTTOM: str = "#555555"
    LADDER: str = "#7a5230"
    RUBBLE: str = "#8a7f6d"
    CHUTE: str = "#3c1010"
    LIFT: str = "#2f6f8f"
    DEPLOY_AREA: str = "#9fb8e0"
    TORPEDO: str = "#8c3b1f"
    RANDOM_ZONE: str = "#6fa8dc"
    SECTION_TINTS: tuple[str, ...] = (
        "#d8cfb8", "#c3cfc4", "#cfc3cf", "#c4cbd8", "#d8c7bd", "#cdd3b9", "#bfd2d2", "#d6c3c9",
    )  # fmt: skip
    LEGEND: tuple[tuple[str, str], ...] = (
        ("Floor", "#c9c4b8"),
        ("Wall", "#2b2d31"),
        ("Door (closed)", "#b5651d"),
        ("Door (open)", "#e3b27a"),
        ("Bulkhead", "#6b7b8c"),
        ("Entry area", "#8e2c8e"),
        ("Exit", "#2e8b57"),
        ("Deployment", "#1f4fa3"),
        ("Deployment area", "#9fb8e0"),
        ("Objective", "#d4a017"),
        ("Pitfall", "#111111"),
        ("Pitfall bottom", "#555555"),
        ("Ladder", "#7a5230"),
        ("Rubble", "#8a7f6d"),
        ("Disposal chute", "#3c1010"),
        ("Turbo-lift entrance", "#2f6f8f"),
        ("Boarding torpedo", "#8c3b1f"),
        ("Random-counter zone", "#6fa8dc"),
    )

    @classmethod
    def from_palette(cls, palette: object) -> Colours:
        """These colours with every field the palette module (or object) also defines taken from it."""
        found = {f.name: getattr(palette, f.name) for f in fields(cls) if hasattr(palette, f.name)}
        return replace(cls(), **found)


DEFAULT = Colours()
