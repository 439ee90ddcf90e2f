"""The generic property edit (Tiled's ChangeValue) and a container for compound edits."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from editor.commands.base import CompoundCommand, keep_child
from editor.document import DELETE, MissionDocument

VALUE_ID = 1002


class ChangeValueCommand(QUndoCommand):
    """Set `target.key` (an attribute, or a key of a dict target) to a new value; typing in one field merges."""

    def __init__(self, doc: MissionDocument, target: Any, key: str, value: Any, what: str = "properties",
                 text: str | None = None, parent: CompoundCommand | None = None) -> None:
        super().__init__(text or f"Change {key}")
        keep_child(parent, self)
        self.doc, self.target, self.key, self.what = doc, target, key, what
        # The value is replaced, never mutated in place, so keeping the old object is safe.
        self.old = target.get(key, DELETE) if isinstance(target, dict) else getattr(target, key)
        self.new = value

    def redo(self) -> None:
        self.doc.apply_value(self.target, self.key, self.new, self.what)

    def undo(self) -> None:
        self.doc.apply_value(self.target, self.key, self.old, self.what)

    def id(self) -> int:
        return VALUE_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        # Successive keystrokes in one text field become one undo step.
        if (isinstance(other, ChangeValueCommand) and other.target is self.target and other.key == self.key
                and isinstance(self.new, str) and isinstance(other.new, str)):
            self.new = other.new
            self.setObsolete(not self.changes_anything())  # typed back to the old text: no step left
            return True
        return False

    def changes_anything(self) -> bool:
        return bool(self.old != self.new)
