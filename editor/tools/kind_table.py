"""The editor's side of a simple feature kind (one square, a few properties): the tool that places it, declared
as data. Each row becomes a place tool (place_tools.KindPlaceTool), its toolbar icon (tool_icons: the row's shape
in the colour of the kind's legend entry) and its fields in the feature panel (the model's fields): adding such a
kind to the registry (engine/mission/kinds.py) takes one row here and nothing else in the editor's tools.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Shape = Literal["arrow", "disc", "bar", "square"]


@dataclass(frozen=True)
class KindToolRow:
    """key: the registry kind; name: the tool's (and its icon's) name; shortcut: its key; tip: what a click
    does; shape: its icon; after: the toolbar tool it follows."""

    key: str
    name: str
    shortcut: str
    tip: str
    shape: Shape
    after: str


KIND_TOOLS: tuple[KindToolRow, ...] = (
    KindToolRow("entry_areas", "Entry area", "N",
                "Click the first square of a Genestealer entry area; its side comes from the options "
                "(auto = nearest wall). Click one to turn its side; right click removes.", "arrow", "Bulkhead"),
    KindToolRow("exits", "Exit", "X",
                "Click the square Marines leave from; the side comes from the options (auto = nearest wall). "
                "Click one to turn it; right click removes.", "arrow", "Entry area"),
    KindToolRow("torpedoes", "Boarding torpedo", "H",
                "Click the ramp square of a boarding torpedo; the torpedo lies beyond the side from the options "
                "(auto = nearest wall). Marines deployed on the ramp start aboard. Click one to turn it; right "
                "click removes.", "arrow", "Exit"),
    KindToolRow("rubble", "Rubble", "U", "Click to place rubble (+1 AP to enter); right click removes.", "square",
                "Turbo-lift"),
)
