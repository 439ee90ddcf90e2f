"""Tools with more than one click or a region: ladder, turbo-lift, random-counter zone, select/move/copy/paste."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QRegion

from editor.commands import AddFeatureCommand, RemoveFeatureCommand, ReplaceFeatureCommand, SetRandomSetupCommand
from editor.commands.region import (
    area_squares,
    bounds,
    copy_region,
    delete_region,
    move_region,
    paste_region,
    region_of,
    rotate_region,
)
from editor.features import feature_list, features_at, next_id, places
from editor.tools.base import Clipboard, Tool
from engine.mission.model import WALL, DeploymentArea, Ladder, Lift, RandomSetup, Square

if TYPE_CHECKING:
    from editor.scene.level_scene import LevelScene


class _EndsTool(Tool):
    """A tool placing a feature whose ends are on different levels (ladder, turbo-lift): the first end clicked
    waits in `pending`; a right click removes the tool's features on the square."""

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.pending: Square | None = None

    def remove_here(self, level: str, x: int, y: int) -> None:
        for kind, obj in features_at(self.doc.mission, level, x, y, self.kind):
            self.ctx.push(RemoveFeatureCommand(self.doc, kind, obj))


class LadderTool(_EndsTool):
    name = "Ladder"
    kind = "ladders"
    shortcut = "L"
    tip = ("Click the top end, then the bottom end on the level below (the view switches there). "
           "Shift+click places both ends at once, the bottom directly under the top. Right click removes; Esc cancels.")

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        m = self.doc.mission
        if button == Qt.MouseButton.RightButton:
            self.remove_here(scene.level_id, x, y)
            return
        if button != Qt.MouseButton.LeftButton or not self.on_map(scene.level_id, x, y):
            return
        below = m.level_below(scene.level_id)
        if self.pending is not None and scene.level_id != self.pending.level:
            above = m.level_above(scene.level_id)
            if above is not None and above.id == self.pending.level:
                ladder = Ladder(next_id(m, "ladders", "LAD"), self.pending, Square(scene.level_id, x, y))
                self._set_pending(None)
                self.ctx.push(AddFeatureCommand(self.doc, "ladders", ladder))
                self.ctx.show_level(ladder.top.level)
                self.ctx.message(f"ladder {ladder.id} placed")
                return
        if below is None:
            self.ctx.message("a ladder's top needs a level below it")
            return
        top = Square(scene.level_id, x, y)
        if mods & Qt.KeyboardModifier.ShiftModifier:
            if not self.on_map(below.id, x, y):
                return
            self.ctx.push(AddFeatureCommand(self.doc, "ladders", Ladder(next_id(m, "ladders", "LAD"), top,
                                                                         Square(below.id, x, y))))
            return
        self._set_pending(top)
        self.ctx.message(f"ladder top at {x},{y}: now click the bottom end on {below.name or below.id} (Esc cancels)")
        self.ctx.show_level(below.id)

    def _set_pending(self, top: Square | None) -> None:
        """Remember the top end, and mark it on the level below where the bottom end is to be clicked."""
        old = self.pending
        self.pending = top
        if old is not None:
            below = self.doc.mission.level_below(old.level)
            scene = self.ctx.scene_of(below.id) if below is not None else None
            if scene is not None:
                scene.set_anchor(None)
        if top is not None:
            below = self.doc.mission.level_below(top.level)
            scene = self.ctx.scene_of(below.id) if below is not None else None
            if scene is not None:
                scene.set_anchor((top.x, top.y), "top")

    def hover(self, scene: LevelScene, x: int, y: int) -> None:
        m = self.doc.mission
        if not self.inside(scene.level_id, x, y):
            scene.set_preview([(x, y)], False, "outside the map")
            return
        if self.pending is not None and scene.level_id != self.pending.level:
            obj = Ladder("?", self.pending, Square(scene.level_id, x, y))
        elif m.level_below(scene.level_id) is not None:
            obj = Ladder("?", Square(scene.level_id, x, y), Square(m.level_below(scene.level_id).id, x, y))  # type: ignore[union-attr]
        else:
            scene.set_preview([(x, y)], False, "no level below")
            return
        self.preview_added(scene, x, y, obj, ("REF-DUPLICATE-ID",))

    def cancel(self) -> None:
        if self.pending is not None:  # New, Open and Esc with nothing half-made say nothing
            self._set_pending(None)
            self.ctx.message("ladder cancelled")

    def deactivate(self) -> None:
        self._set_pending(None)


class LiftTool(_EndsTool):
    name = "Turbo-lift"
    kind = "lifts"
    shortcut = "T"
    tip = ("Click an entrance, then the entrance on another level (switch levels with the level list): the lift is "
           "placed. Shift+click on a further level adds an entrance there to the last lift placed. Right click "
           "removes the lift; Esc cancels.")

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        m = self.doc.mission
        if button == Qt.MouseButton.RightButton:
            self.remove_here(scene.level_id, x, y)
            return
        if button != Qt.MouseButton.LeftButton or not self.on_map(scene.level_id, x, y):
            return
        here = Square(scene.level_id, x, y)
        if mods & Qt.KeyboardModifier.ShiftModifier and m.lifts:
            last = m.lifts[-1]
            if any(e.level == here.level for e in last.entrances):
                self.ctx.message(f"turbo-lift {last.id} already stops on this level")
                return
            self.ctx.push(ReplaceFeatureCommand(self.doc, "lifts", last,
                                                dataclasses.replace(last, entrances=[*last.entrances, here])))
            self.ctx.message(f"turbo-lift {last.id}: entrance added at {x},{y}")
            return
        if self.pending is not None and here.level != self.pending.level:
            lift = Lift(next_id(m, "lifts", "T"), [self.pending, here])
            self.pending = None
            self.ctx.push(AddFeatureCommand(self.doc, "lifts", lift))
            self.ctx.message(f"turbo-lift {lift.id} placed")
            return
        self.pending = here
        self.ctx.message(f"turbo-lift entrance at {x},{y}: now click its entrance on another level (Esc cancels)")

    def hover(self, scene: LevelScene, x: int, y: int) -> None:
        if not self.inside(scene.level_id, x, y):
            scene.set_preview([(x, y)], False, "outside the map")
            return
        here = Square(scene.level_id, x, y)
        other = self.pending if self.pending is not None and self.pending.level != here.level else None
        obj = Lift("?", [here, other] if other is not None else [here, here])
        self.preview_added(scene, x, y, obj, ("REF-DUPLICATE-ID", "LIFT-LEVELS"))

    def cancel(self) -> None:
        if self.pending is not None:
            self.pending = None
            self.ctx.message("turbo-lift cancelled")

    def deactivate(self) -> None:
        self.pending = None


class DeploymentAreaTool(Tool):
    name = "Deployment area"
    kind = "deployment_areas"
    shortcut = "A"
    tip = ("Click squares to add them to the level's last deployment area (the Marines listed on its squares are "
           "set up anywhere in it); Shift+click starts a new area. Right click takes a square out.")

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        m = self.doc.mission
        level = scene.level_id
        here = features_at(m, level, x, y, "deployment_areas")
        if button == Qt.MouseButton.RightButton:
            for kind, area in here:
                rest = [xy for xy in area.squares if xy != (x, y)]
                if rest:
                    self.ctx.push(ReplaceFeatureCommand(self.doc, kind, area, dataclasses.replace(area, squares=rest)))
                else:
                    self.ctx.push(RemoveFeatureCommand(self.doc, kind, area))
            return
        if button != Qt.MouseButton.LeftButton or not self.on_map(level, x, y) or here:
            return
        mine = [a for a in m.deployment_areas if a.level == level]
        if mine and not mods & Qt.KeyboardModifier.ShiftModifier:
            area = mine[-1]
            self.ctx.push(ReplaceFeatureCommand(self.doc, "deployment_areas", area,
                                                dataclasses.replace(area, squares=[*area.squares, (x, y)])))
            return
        area = DeploymentArea(next_id(m, "deployment_areas", "A"), level, [(x, y)])
        self.ctx.push(AddFeatureCommand(self.doc, "deployment_areas", area))
        self.ctx.message(f"deployment area {area.id} started: click more squares to add them")

    def hover(self, scene: LevelScene, x: int, y: int) -> None:
        if not self.inside(scene.level_id, x, y):
            scene.set_preview([(x, y)], False, "outside the map")
            return
        obj = DeploymentArea("?", scene.level_id, [(x, y)])
        self.preview_added(scene, x, y, obj, ("REF-DUPLICATE-ID", "AREA-EMPTY", "AREA-OVERLAP"))


class ZoneTool(Tool):
    name = "Random zone"
    shortcut = "Z"
    tip = "Click a section to add it to (or remove it from) the zones where random counters are set up."

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        lv = self.doc.level(scene.level_id)
        code = lv.section_of(x, y)
        if code is None:
            self.ctx.message("random-counter zones are whole sections: paint a section here first")
            return
        old = self.doc.mission.random_setup
        zones = list(old.zones) if old else []
        key = (scene.level_id, code)
        zones = [z for z in zones if z != key] if key in zones else [*zones, key]
        new = dataclasses.replace(old, zones=zones) if old else RandomSetup(zones=zones)
        text = f"Toggle random zone {code}"
        self.ctx.push(SetRandomSetupCommand(self.doc, new if (new.zones or new.counters) else None, text))

    def hover(self, scene: LevelScene, x: int, y: int) -> None:
        lv = self.doc.level(scene.level_id)
        code = lv.section_of(x, y)
        if code is None:
            scene.set_preview([(x, y)], lv.cell(x, y) != WALL)
            return
        squares = [(i, j) for j, row in enumerate(lv.rows) for i, c in enumerate(row) if c == code]
        scene.set_preview(squares, True)


class SelectTool(Tool):
    name = "Select"
    shortcut = "V"
    tip = ("Drag to select a region; Shift+drag adds to it, Ctrl+drag takes away from it; drag inside the "
           "selection to move it. Ctrl+C/Ctrl+V copy and paste (onto any level, at the mouse; Ctrl+Shift+V in "
           "place), Del deletes, Ctrl+R rotates the selection.")
    cursor = Qt.CursorShape.ArrowCursor
    edits = False  # selecting is fine on a locked level; moving the selection asks (see release)

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._start: tuple[int, int] | None = None
        self._moving = False
        self._base: QRegion | None = None  # the selection a Shift/Ctrl drag adds to or cuts from
        self._subtract = False
        self.hover_square: tuple[str, int, int] | None = None

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        if button == Qt.MouseButton.RightButton:
            self.ctx.context_menu(scene.level_id, x, y)
            return
        if button != Qt.MouseButton.LeftButton:
            return
        area = self.ctx.selected_on(scene.level_id)
        self._start = (x, y)
        add = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        self._subtract = bool(mods & Qt.KeyboardModifier.ControlModifier) and not add
        # As in Tiled: Shift adds to the selection, Ctrl takes away from it; a plain drag starts afresh.
        self._base = area if (add or self._subtract) else None
        self._moving = self._base is None and area is not None and area.contains(QPoint(x, y)) and not (
            add or self._subtract)
        if not self._moving:
            self._drag_to(scene.level_id, x, y)

    def _drag_to(self, level: str, x: int, y: int) -> None:
        assert self._start is not None
        sx, sy = self._start
        rect = QRect(min(sx, x), min(sy, y), abs(x - sx) + 1, abs(y - sy) + 1)
        if self._base is None:
            self.ctx.set_selection(level, rect if not self._subtract else None)
        elif self._subtract:
            self.ctx.set_selection(level, self._base.subtracted(QRegion(rect)))
        else:
            self.ctx.set_selection(level, self._base.united(rect))

    def move(self, scene: LevelScene, x: int, y: int, buttons: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        self.hover_square = (scene.level_id, x, y)
        if self._start is None:
            scene.set_preview([], True)
            return
        sx, sy = self._start
        if self._moving:
            area = self.ctx.selected_on(scene.level_id)
            if area is not None:
                scene.set_preview([(i + x - sx, j + y - sy) for i, j in area_squares(area)], True)
            return
        self._drag_to(scene.level_id, x, y)

    def release(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        if self._start is None:
            return
        sx, sy = self._start
        self._start = None
        self._base = None
        area = self.ctx.selected_on(scene.level_id)
        if self._moving and area is not None and (x, y) != (sx, sy) and self.ctx.editable(scene.level_id):
            self.ctx.push(move_region(self.doc, scene.level_id, area, x - sx, y - sy))
            self.ctx.set_selection(scene.level_id, area.translated(x - sx, y - sy))
        scene.set_preview([], True)

    def leave(self, scene: LevelScene) -> None:
        scene.set_preview([], True)


def copy_selection(ctx) -> bool:  # type: ignore[no-untyped-def]
    """Put the selected region on the tool clipboard, with the sections its squares belong to."""
    if ctx.selection is None:
        return False
    level, area = ctx.selection
    cells, feats = copy_region(ctx.doc, level, area)
    rect = bounds(area)
    declared = ctx.doc.level(level).sections
    sections = {c: declared[c] for c in set(cells.values()) if c in declared}
    ctx.clipboard = Clipboard(rect.width(), rect.height(), cells, feats, level, rect.left(), rect.top(), sections)
    return True


def paste_clipboard(ctx, level: str, x: int, y: int) -> bool:  # type: ignore[no-untyped-def]
    """Paste the clipboard with its top-left on (x, y) of any level, and select what was pasted."""
    clip = ctx.clipboard
    if clip is None or not ctx.editable(level):
        return False
    ctx.push(paste_region(ctx.doc, level, x, y, clip.cells, clip.features, sections=clip.sections))
    ctx.set_selection(level, region_of({(x + dx, y + dy) for dx, dy in clip.cells}))
    return True


def paste_in_place(ctx, level: str) -> bool:  # type: ignore[no-untyped-def]
    """Paste the clipboard where it was copied from, on the level shown."""
    clip = ctx.clipboard
    return clip is not None and paste_clipboard(ctx, level, clip.x, clip.y)


def delete_selection(ctx) -> bool:  # type: ignore[no-untyped-def]
    if ctx.selection is None or not ctx.editable(ctx.selection[0]):
        return False
    level, area = ctx.selection
    ctx.push(delete_region(ctx.doc, level, area))
    return True


def rotate_selection(ctx) -> bool:  # type: ignore[no-untyped-def]
    if ctx.selection is None or not ctx.editable(ctx.selection[0]):
        return False
    level, area = ctx.selection
    rect = bounds(area)
    ctx.push(rotate_region(ctx.doc, level, area))
    h = rect.height()
    turned = {(rect.left() + h - 1 - (y - rect.top()), rect.top() + (x - rect.left())) for x, y in area_squares(area)}
    ctx.set_selection(level, region_of(turned))
    return True


def select_kind(ctx, level: str, kind: str) -> int:  # type: ignore[no-untyped-def]
    """Select the squares of every feature of one kind on a level; the number of features found."""
    squares = {(x, y) for obj in feature_list(ctx.doc.mission, kind) for lv, x, y in places(kind, obj) if lv == level}
    ctx.set_selection(level, region_of(squares) if squares else None)
    return len({id(obj) for obj in feature_list(ctx.doc.mission, kind)
                if any(lv == level for lv, _, _ in places(kind, obj))})
