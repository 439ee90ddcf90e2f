"""Level list edits, sections, and whole-mission snapshots for map-wide transforms."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from editor.commands.base import CompoundCommand, keep_child
from editor.document import MissionDocument
from editor.features import iter_features, places
from engine.mission.model import Level, Mission, Section


class AddLevelCommand(QUndoCommand):
    """Add a level at the end of the list."""

    def __init__(self, doc: MissionDocument, level: Level, parent: CompoundCommand | None = None) -> None:
        super().__init__(f"Add level {level.id}")
        keep_child(parent, self)
        self.doc, self.lv = doc, level
        self.index = len(doc.mission.levels)

    def redo(self) -> None:
        self.doc.apply_insert_level(self.index, self.lv)

    def undo(self) -> None:
        self.doc.apply_remove_level(self.lv)


class _RemoveLevelOnly(QUndoCommand):
    def __init__(self, doc: MissionDocument, level: Level, parent: CompoundCommand | None = None) -> None:
        super().__init__(f"Remove level {level.id}")
        keep_child(parent, self)
        self.doc, self.lv = doc, level
        self.index = doc.mission.levels.index(level)

    def redo(self) -> None:
        self.index = self.doc.apply_remove_level(self.lv)

    def undo(self) -> None:
        self.doc.apply_insert_level(self.index, self.lv)


def RemoveLevelCommand(doc: MissionDocument, level: Level) -> QUndoCommand:
    """Remove a level and, as child commands, every feature standing on it."""
    from editor.commands.features import RemoveFeatureCommand

    parent = CompoundCommand(f"Remove level {level.id}")
    for kind, obj in list(iter_features(doc.mission)):
        if any(lv == level.id for lv, _, _ in places(kind, obj)):
            RemoveFeatureCommand(doc, kind, obj, parent)
    _RemoveLevelOnly(doc, level, parent)
    return parent


class SetSectionCommand(QUndoCommand):
    """Create, rename or delete (section=None) a section of a level."""

    def __init__(self, doc: MissionDocument, level: str, code: str, section: Section | None,
                 parent: CompoundCommand | None = None) -> None:
        super().__init__(f"Edit section {code}")
        keep_child(parent, self)
        self.doc, self.level, self.code = doc, level, code
        # Objects, not copies: later commands may hold this very Section (renaming it).
        self.old = doc.level(level).sections.get(code)
        self.new = section

    def redo(self) -> None:
        self.doc.apply_section(self.level, self.code, self.new)

    def undo(self) -> None:
        self.doc.apply_section(self.level, self.code, self.old)


class ReplaceMissionCommand(QUndoCommand):
    """Swap in a transformed copy of the whole mission (rotate the map); keeps both snapshots."""

    def __init__(self, doc: MissionDocument, new: Mission, text: str, parent: CompoundCommand | None = None) -> None:
        super().__init__(text)
        keep_child(parent, self)
        self.doc = doc
        # The very objects, not copies: commands below and above on the stack refer to them by identity.
        self.old = doc.mission
        self.new = new

    def redo(self) -> None:
        self.doc.apply_mission(self.new)

    def undo(self) -> None:
        self.doc.apply_mission(self.old)
