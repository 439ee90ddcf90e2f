"""Adding, removing, moving and replacing board features (doors, counters, deployment, ...)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from editor.commands.base import CompoundCommand, keep_child
from editor.document import MissionDocument
from editor.features import describe, feature_list
from engine.mission.model import RandomSetup


class AddFeatureCommand(QUndoCommand):
    """Append a feature to its list (kind: 'doors', 'pitfalls', 'squad', ...)."""

    def __init__(self, doc: MissionDocument, kind: str, obj: Any, parent: CompoundCommand | None = None) -> None:
        super().__init__(f"Add {describe(kind, obj)}")
        keep_child(parent, self)
        self.doc, self.kind, self.obj = doc, kind, obj
        self.index = len(feature_list(doc.mission, kind))

    def redo(self) -> None:
        self.doc.apply_insert_feature(self.kind, self.index, self.obj)

    def undo(self) -> None:
        self.doc.apply_remove_feature(self.kind, self.obj)


class RemoveFeatureCommand(QUndoCommand):
    """Remove one feature; undo puts it back at its old index so the file diff stays clean."""

    def __init__(self, doc: MissionDocument, kind: str, obj: Any, parent: CompoundCommand | None = None) -> None:
        super().__init__(f"Remove {describe(kind, obj)}")
        keep_child(parent, self)
        self.doc, self.kind, self.obj = doc, kind, obj
        self.index = next(i for i, o in enumerate(feature_list(doc.mission, kind)) if o is obj)

    def redo(self) -> None:
        self.index = self.doc.apply_remove_feature(self.kind, self.obj)

    def undo(self) -> None:
        self.doc.apply_insert_feature(self.kind, self.index, self.obj)


class ReplaceFeatureCommand(QUndoCommand):
    """Swap a feature for an edited copy (facing, door state, side, ...)."""

    def __init__(self, doc: MissionDocument, kind: str, old: Any, new: Any, text: str | None = None,
                 parent: CompoundCommand | None = None) -> None:
        super().__init__(text or f"Edit {describe(kind, old)}")
        keep_child(parent, self)
        self.doc, self.kind, self.old, self.new = doc, kind, old, new

    def redo(self) -> None:
        self.doc.apply_replace_feature(self.kind, self.old, self.new)

    def undo(self) -> None:
        self.doc.apply_replace_feature(self.kind, self.new, self.old)

    def changes_anything(self) -> bool:
        return bool(self.old != self.new)


class MoveFeatureCommand(ReplaceFeatureCommand):
    """Move a feature to another square (the new position is a moved copy)."""

    def __init__(self, doc: MissionDocument, kind: str, old: Any, new: Any,
                 parent: CompoundCommand | None = None) -> None:
        super().__init__(doc, kind, old, new, f"Move {describe(kind, old)}", parent)


class SetRandomSetupCommand(QUndoCommand):
    """Replace the random set-up (zones and counters) as a whole."""

    def __init__(self, doc: MissionDocument, setup: RandomSetup | None, text: str = "Edit random set-up",
                 parent: CompoundCommand | None = None) -> None:
        super().__init__(text)
        keep_child(parent, self)
        self.doc = doc
        self.old = doc.mission.random_setup
        self.new = setup

    def redo(self) -> None:
        self.doc.apply_random_setup(self.new)

    def undo(self) -> None:
        self.doc.apply_random_setup(self.old)

    def changes_anything(self) -> bool:
        return bool(self.old != self.new)
