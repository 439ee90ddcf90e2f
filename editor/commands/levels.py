"""Level list edits, sections, and whole-mission snapshots for map-wide transforms."""

from __future__ import annotations

import dataclasses
from collections import Counter

from PySide6.QtGui import QUndoCommand

from editor.commands.base import CompoundCommand, keep_child
from editor.commands.values import ChangeValueCommand
from editor.document import MissionDocument
from editor.features import KINDS, iter_features, map_ends, places
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


def remove_level(doc: MissionDocument, level: Level) -> tuple[QUndoCommand, list[str]]:
    """One undo step removing a level, every feature standing on it and every reference to them (blips' entry
    areas, victory conditions, random zones); and what goes with it, in words, for the dialog that asks first."""
    from editor.commands.features import RemoveFeatureCommand
    from editor.commands.references import Gone, drop_references

    parent = CompoundCommand(f"Remove level {level.id}")
    gone = Gone(levels={level.id})
    counts: Counter[str] = Counter()
    for kind, obj in list(iter_features(doc.mission)):
        if any(lv == level.id for lv, _, _ in places(kind, obj)):
            RemoveFeatureCommand(doc, kind, obj, parent)
            counts[KINDS[kind]] += 1
            if kind in ("entry_areas", "exits", "objectives"):
                getattr(gone, kind).add(obj.id)
    said = [f"{n} {what if n == 1 or what == 'rubble' else what + 's'}" for what, n in sorted(counts.items())]
    said += drop_references(doc, gone, parent)
    _RemoveLevelOnly(doc, level, parent)
    return parent, said


def RemoveLevelCommand(doc: MissionDocument, level: Level) -> QUndoCommand:
    """Remove a level with every feature on it and every reference to them, as one undo step."""
    return remove_level(doc, level)[0]


def change_level_id(doc: MissionDocument, level: Level, new_id: str) -> QUndoCommand:
    """One undo step giving a level another id, and every feature, random zone and victory condition on it too.
    When another level shares the old id (a file being repaired) the features stay: which level they meant is
    not known."""
    from editor.commands.features import ReplaceFeatureCommand
    from editor.commands.references import rename_references

    old = level.id
    parent = CompoundCommand(f"Change level id {old} to {new_id}")
    ChangeValueCommand(doc, level, "id", new_id, "levels", parent=parent)
    if sum(1 for lv in doc.mission.levels if lv.id == old) == 1:
        for kind, obj in list(iter_features(doc.mission)):
            if any(lv == old for lv, _, _ in places(kind, obj)):
                ReplaceFeatureCommand(doc, kind, obj, relevelled(kind, obj, old, new_id), parent=parent)
        rename_references(doc, "levels", old, new_id, parent)
    return parent


def relevelled(kind: str, obj: object, old: str, new: str) -> object:
    """A copy of a feature with every end on level `old` put on level `new`."""
    return map_ends(kind, obj, lambda sq: dataclasses.replace(sq, level=new) if sq.level == old else sq)


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

    def changes_anything(self) -> bool:
        return bool(self.old != self.new)


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
