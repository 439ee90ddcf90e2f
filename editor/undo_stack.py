"""The document's undo stack: an edit that changes nothing is no step (and wipes no redo step)."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from PySide6.QtGui import QUndoCommand, QUndoStack


def changes_anything(cmd: QUndoCommand) -> bool:
    """Whether pushing cmd would change the mission (commands that can be empty say so by `changes_anything`)."""
    check = getattr(cmd, "changes_anything", None)
    return bool(check()) if callable(check) else True


class EditStack(QUndoStack):
    """A QUndoStack whose push drops a command that changes nothing: Qt's own push would clear the redo steps
    and mark the file changed first."""

    def push(self, cmd: QUndoCommand) -> None:
        if changes_anything(cmd):
            super().push(cmd)

    def undo(self) -> None:
        with self._batched():
            super().undo()

    def redo(self) -> None:
        with self._batched():
            super().redo()

    def _batched(self) -> AbstractContextManager[None]:
        """Undoing a macro (an eraser stroke through 20 doors) refreshes the views once, through the document's
        batched(), when the stack belongs to a document."""
        batched = getattr(self.parent(), "batched", None)
        return batched() if callable(batched) else nullcontext()
