"""What every tool shares: the context it works in and the mouse protocol the map view calls."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QRegion, QUndoCommand

from editor.document import MissionDocument
from editor.features import feature_list, level_name
from engine.mission import Issue
from engine.mission.model import Section
from engine.mission.placement import placement_issues

if TYPE_CHECKING:
    from editor.scene.level_scene import LevelScene


@dataclass
class ToolOptions:
    """Choices shown in the tool options panel; tools read them when they build a command."""

    section: str = "."  # what the floor brush paints: '.' or a section code
    facing: str = "N"
    side: str = "auto"  # entry/exit side, 'auto' = towards the nearest wall
    marine: str = ""  # '' = add a new Marine, else move this one
    rank: str = "marine"
    brush_size: int = 1


@dataclass
class Clipboard:
    """A copied region: terrain characters and features, relative to the region's top-left square."""

    width: int
    height: int
    cells: dict[tuple[int, int], str]
    features: list[tuple[str, Any]] = field(default_factory=list)
    level: str = ""
    x: int = 0  # where the region was copied from (Paste in Place puts it back there)
    y: int = 0
    sections: dict[str, Section] = field(default_factory=dict)  # the copied level's, for the codes it holds


class ToolContext:
    """The document plus the window services tools need (switch level, status line, selection)."""

    def __init__(self, doc: MissionDocument) -> None:
        self.doc = doc
        self.options = ToolOptions()
        self.selection: tuple[str, QRegion] | None = None  # a level and its selected squares
        self.clipboard: Clipboard | None = None
        self.show_level: Callable[[str], None] = lambda level: None
        self.message: Callable[[str], None] = lambda text: None
        self.selection_changed: Callable[[], None] = lambda: None
        self.scene_of: Callable[[str], LevelScene | None] = lambda level: None
        self.context_menu: Callable[[str, int, int], None] = lambda level, x, y: None  # right click, Select tool
        self.locked: set[str] = set()  # levels locked in the Levels panel: no tool edits them
        self._base_rev = -1
        self._base: set[Issue] = set()
        self._hypo: dict[tuple[str, str], list[Issue]] = {}

    def push(self, cmd: QUndoCommand) -> None:
        self.doc.undo_stack.push(cmd)

    def editable(self, level: str) -> bool:
        """Whether tools may change this level; if it is locked, say so."""
        if level in self.locked:
            self.message(f"level {level_name(self.doc.mission, level)} is locked (Levels panel): unlock it to edit")
            return False
        return True

    def set_selection(self, level: str | None, area: QRect | QRegion | None) -> None:
        region = QRegion(area.normalized()) if isinstance(area, QRect) else area
        self.selection = None if level is None or region is None or region.isEmpty() else (level, region)
        self.selection_changed()

    def selected_on(self, level: str) -> QRegion | None:
        """The selected squares when the selection is on this level."""
        return self.selection[1] if self.selection is not None and self.selection[0] == level else None

    def new_issues_if_added(self, kind: str, obj: Any) -> list[Issue]:
        """Placement issues that adding `obj` would create: validates a shallow hypothetical copy (~1 ms)."""
        m = self.doc.mission
        if self._base_rev != self.doc.revision:
            self._base = set(placement_issues(m))
            self._base_rev = self.doc.revision
            self._hypo.clear()
        # The mouse reports every pixel; the answer only changes with the square (and the document).
        key = (kind, repr(obj))
        if key in self._hypo:
            return self._hypo[key]
        hypo = copy.copy(m)
        if kind == "squad":
            hypo.marines = copy.copy(m.marines)
            hypo.marines.squad = [*m.marines.squad, obj]
        else:
            setattr(hypo, kind, [*feature_list(m, kind), obj])
        found = [i for i in placement_issues(hypo) if i not in self._base and i.severity == "error"]
        self._hypo[key] = found
        return found


class Tool:
    """Translates mouse events on a level into commands on the document; draws only via the scene preview."""

    name = "tool"
    kind = ""  # the feature kind it places (engine/mission/kinds.py), "" for a tool that places none
    edits = True  # False for a tool that only selects (it may work on a locked level)
    shortcut = ""
    tip = ""
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx

    @property
    def doc(self) -> MissionDocument:
        return self.ctx.doc

    def inside(self, level: str, x: int, y: int) -> bool:
        """Whether (x, y) is a square of the level's grid."""
        lv = self.doc.mission.level(level)
        return lv is not None and 0 <= y < lv.height and 0 <= x < len(lv.rows[y])

    def on_map(self, level: str, x: int, y: int) -> bool:
        """Whether (x, y) is a square of the level; if not, say so (a click beside the map places nothing)."""
        if self.inside(level, x, y):
            return True
        self.ctx.message(f"{x},{y} is outside the map: nothing placed")
        return False

    def preview_added(self, scene: LevelScene, x: int, y: int, obj: Any, allowed: tuple[str, ...] = ()) -> None:
        """Mark square (x, y) as a place for `obj`, of this tool's kind, or not, saying the first rule it would
        break; `allowed`: rules a half-made feature breaks only because it is half-made."""
        broken = [i for i in self.ctx.new_issues_if_added(self.kind, obj) if i.rule not in allowed]
        scene.set_preview([(x, y)], not broken)
        if broken:
            self.ctx.message(f"would break {broken[0].rule}: {broken[0].message}")

    def tooltip(self) -> str:
        return f"{self.name} ({self.shortcut})\n{self.tip}" if self.shortcut else f"{self.name}\n{self.tip}"

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        pass

    def move(self, scene: LevelScene, x: int, y: int, buttons: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        self.hover(scene, x, y)

    def release(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        pass

    def hover(self, scene: LevelScene, x: int, y: int) -> None:
        scene.set_preview([(x, y)], True)

    def leave(self, scene: LevelScene) -> None:
        scene.set_preview([], True)

    def activate(self) -> None:
        pass

    def deactivate(self) -> None:
        pass

    def cancel(self) -> None:
        """Escape pressed: drop any half-made edit."""
