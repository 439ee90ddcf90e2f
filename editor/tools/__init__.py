"""Mouse tools: each translates clicks and drags on a level into commands on the document."""

from editor.tools.base import Tool, ToolContext, ToolOptions
from editor.tools.kind_table import KIND_TOOLS
from editor.tools.place_tools import (
    BulkheadTool,
    ChuteTool,
    DeployTool,
    DoorTool,
    ObjectiveTool,
    PitfallTool,
    kind_tool,
)
from editor.tools.special_tools import DeploymentAreaTool, LadderTool, LiftTool, SelectTool, ZoneTool
from editor.tools.terrain_tools import BrushTool, EraserTool, FillTool, RectTool, SectionTool

# The tools of their own, in toolbar order; each simple kind's tool (kind_table.py) goes after the one its row names.
_OWN: tuple[type[Tool], ...] = (
    SelectTool, BrushTool, RectTool, FillTool, EraserTool, SectionTool,
    DoorTool, BulkheadTool, DeployTool, DeploymentAreaTool, ObjectiveTool,
    PitfallTool, LadderTool, LiftTool, ChuteTool, ZoneTool,
)


def _toolbar() -> tuple[type[Tool], ...]:
    out = list(_OWN)
    for row in KIND_TOOLS:
        at = next(i for i, cls in enumerate(out) if cls.name == row.after)
        out.insert(at + 1, kind_tool(row))
    return tuple(out)


# In toolbar order.
TOOL_CLASSES: tuple[type[Tool], ...] = _toolbar()

__all__ = ["TOOL_CLASSES", "Tool", "ToolContext", "ToolOptions"]
