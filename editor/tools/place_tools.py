"""Tools that place one feature per click: doors, bulkheads, deployment, objectives, pitfalls, chutes, and each
simple kind of the editor's kind table (kind_table.py: entry areas, exits, boarding torpedoes, rubble). Left click
places (or edits the one already there), right click removes."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt

from editor.commands import AddFeatureCommand, MoveFeatureCommand, RemoveFeatureCommand, ReplaceFeatureCommand
from editor.docks.schema_info import feature_enum
from editor.features import features_at, next_id, next_pitfall_letter
from editor.tools.base import Tool
from editor.tools.kind_table import KindToolRow
from engine.mission.kinds import BY_KEY
from engine.mission.model import FACINGS, WALL, Chute, Door, Level, Marine, Objective, Pitfall

if TYPE_CHECKING:
    from editor.scene.level_scene import LevelScene

NEXT_FACING = {f: FACINGS[(i + 1) % 4] for i, f in enumerate(FACINGS)}


def auto_side(lv: Level, x: int, y: int) -> str:
    """The side facing a wall or the board edge, preferring the nearest edge: where models come in or leave."""
    order = sorted(FACINGS, key=lambda s: {"N": y, "S": lv.height - 1 - y, "W": x, "E": lv.width - 1 - x}[s])
    step = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    for s in order:
        dx, dy = step[s]
        if lv.cell(x + dx, y + dy) == WALL:
            return s
    return order[0]


class PlaceTool(Tool):
    """Base for one-click features; subclasses say what to build and how to edit an existing one."""

    def make(self, level: str, x: int, y: int) -> Any:
        raise NotImplementedError

    def edit(self, obj: Any) -> Any | None:
        """A changed copy for a click on an existing feature, or None to leave it."""
        return None

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        here = features_at(self.doc.mission, scene.level_id, x, y, self.kind)
        if button == Qt.MouseButton.RightButton:
            for kind, obj in here:
                self.ctx.push(RemoveFeatureCommand(self.doc, kind, obj))
            return
        if button != Qt.MouseButton.LeftButton or not self.on_map(scene.level_id, x, y):
            return
        if here:
            new = self.edit(here[0][1])
            if new is not None:
                self.ctx.push(ReplaceFeatureCommand(self.doc, self.kind, here[0][1], new))
            return
        obj = self.make(scene.level_id, x, y)
        if obj is not None:
            self.ctx.push(AddFeatureCommand(self.doc, self.kind, obj))
        self.hover(scene, x, y)

    def hover(self, scene: LevelScene, x: int, y: int) -> None:
        if features_at(self.doc.mission, scene.level_id, x, y, self.kind):
            scene.set_preview([(x, y)], True)
            return
        if not self.inside(scene.level_id, x, y):
            scene.set_preview([(x, y)], False, "outside the map")
            return
        obj = self.make(scene.level_id, x, y)
        broken = self.ctx.new_issues_if_added(self.kind, obj) if obj is not None else []
        scene.set_preview([(x, y)], not broken, "; ".join(f"{i.rule}: {i.message}" for i in broken))
        if broken:
            self.ctx.message(f"would break {broken[0].rule}: {broken[0].message}")


class DoorTool(PlaceTool):
    name = "Door"
    shortcut = "D"
    tip = ("Click a corridor square between two walls to place a door; click a door to open/close it; "
           "right click removes.")
    kind = "doors"
    door_kind = "door"

    def make(self, level: str, x: int, y: int) -> Any:
        prefix = "D" if self.door_kind == "door" else "BH"
        state = "closed" if self.door_kind == "door" else "open"
        return Door(next_id(self.doc.mission, "doors", prefix), level, x, y, self.door_kind, state)  # type: ignore[arg-type]

    def edit(self, obj: Any) -> Any | None:
        return dataclasses.replace(obj, state="open" if obj.state == "closed" else "closed")


class BulkheadTool(DoorTool):
    name = "Bulkhead"
    shortcut = "K"
    tip = "Click to place a bulkhead (starts open); click one to toggle open/closed; right click removes."
    door_kind = "bulkhead"


class KindPlaceTool(PlaceTool):
    """A simple kind's tool (kind_table.py), building its feature from the registry's declaration: the ident from
    the kind's prefix, the side from the options (auto = nearest wall), any other field its model's default or
    the first value the schema allows. A click on one with a side turns it."""

    def make(self, level: str, x: int, y: int) -> Any:
        kind = BY_KEY[self.kind]
        values: dict[str, Any] = {"level": level, "x": x, "y": y}
        for f in dataclasses.fields(kind.model):
            if f.name in values or f.default is not dataclasses.MISSING:
                continue
            if f.name == kind.ident:
                values[f.name] = next_id(self.doc.mission, self.kind, kind.prefix)
            elif f.name == "side":
                side = self.ctx.options.side
                values[f.name] = auto_side(self.doc.level(level), x, y) if side == "auto" else side
            else:
                values[f.name] = feature_enum(self.kind, f.name)[0]
        return kind.model(**values)

    def edit(self, obj: Any) -> Any | None:
        return dataclasses.replace(obj, side=NEXT_FACING[obj.side]) if hasattr(obj, "side") else None


def kind_tool(row: KindToolRow) -> type[KindPlaceTool]:
    """The place tool of one row of the editor's kind table."""
    attrs = {"name": row.name, "shortcut": row.shortcut, "tip": row.tip, "kind": row.key}
    return type(f"{row.name.title().replace(' ', '').replace('-', '')}Tool", (KindPlaceTool,), attrs)


class DeployTool(PlaceTool):
    name = "Deployment"
    shortcut = "M"
    tip = ("Click to deploy a Marine facing the chosen way; choose 'new' or an existing Marine in the options "
           "(an existing one moves). Click a Marine to turn it; right click removes it from the squad.")
    kind = "squad"

    def make(self, level: str, x: int, y: int) -> Any:
        opts = self.ctx.options
        return Marine(next_id(self.doc.mission, "squad", "M"), opts.rank, level, x, y, opts.facing)  # type: ignore[arg-type]

    def edit(self, obj: Any) -> Any | None:
        return dataclasses.replace(obj, facing=NEXT_FACING[obj.facing])

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        chosen = self.ctx.options.marine
        here = features_at(self.doc.mission, scene.level_id, x, y, "squad")
        if button == Qt.MouseButton.LeftButton and not self.on_map(scene.level_id, x, y):
            return
        if button == Qt.MouseButton.LeftButton and chosen and not here:
            for mm in self.doc.mission.marines.squad:
                if mm.id == chosen:
                    new = dataclasses.replace(mm, level=scene.level_id, x=x, y=y, facing=self.ctx.options.facing)  # type: ignore[arg-type]
                    self.ctx.push(MoveFeatureCommand(self.doc, "squad", mm, new))
                    return
        super().press(scene, x, y, button, mods)


class ObjectiveTool(PlaceTool):
    name = "Objective"
    shortcut = "O"
    tip = "Click to place an objective (an object that can be carried); right click removes."
    kind = "objectives"

    def make(self, level: str, x: int, y: int) -> Any:
        return Objective(next_id(self.doc.mission, "objectives", "OBJ"), level, x, y)

    def edit(self, obj: Any) -> Any | None:
        return dataclasses.replace(obj, kind="location" if obj.kind == "object" else "object")


class PitfallTool(PlaceTool):
    name = "Pitfall"
    shortcut = "P"
    tip = ("Click to place the next free pitfall letter; its bottom is drawn on the level below. "
           "Red preview = the placement would break a rule. Right click removes.")
    kind = "pitfalls"

    def make(self, level: str, x: int, y: int) -> Any:
        return Pitfall(next_pitfall_letter(self.doc.mission), level, x, y)


class ChuteTool(PlaceTool):
    name = "Chute"
    shortcut = "C"
    tip = "Click to place a disposal chute / bottomless pit; right click removes."
    kind = "chutes"

    def make(self, level: str, x: int, y: int) -> Any:
        return Chute(next_id(self.doc.mission, "chutes", "chute-"), level, x, y)
