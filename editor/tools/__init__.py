"""Mouse tools: each translates clicks and drags on a level into commands on the document."""

from editor.tools.base import Tool, ToolContext, ToolOptions
from editor.tools.place_tools import (
    BulkheadTool,
    ChuteTool,
    DeployTool,
    DoorTool,
    EntryTool,
    ExitTool,
    ObjectiveTool,
    PitfallTool,
    RubbleTool,
    TorpedoTool,
)
from editor.tools.special_tools import DeploymentAreaTool, LadderTool, LiftTool, SelectTool, ZoneTool
from editor.tools.terrain_tools import BrushTool, EraserTool, FillTool, RectTool, SectionTool

# In toolbar order.
TOOL_CLASSES: tuple[type[Tool], ...] = (
    SelectTool, BrushTool, RectTool, FillTool, EraserTool, SectionTool,
    DoorTool, BulkheadTool, EntryTool, ExitTool, TorpedoTool, DeployTool, DeploymentAreaTool, ObjectiveTool,
    PitfallTool, LadderTool, LiftTool, RubbleTool, ChuteTool, ZoneTool,
)

__all__ = ["TOOL_CLASSES", "Tool", "ToolContext", "ToolOptions"]
