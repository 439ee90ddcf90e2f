"""Compound edits: a command that runs its child commands itself.

PySide6 does not hand a child QUndoCommand's ownership to its Qt parent, so Qt-parented children are
either collected too early (a crash on redo) or deleted twice (a crash at exit). A compound therefore
keeps its children as plain Python objects and runs them: redo in order, undo in reverse.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from PySide6.QtGui import QUndoCommand

from editor.undo_stack import changes_anything


class CompoundCommand(QUndoCommand):
    """A named group of child commands that undo and redo together, as one step."""

    def __init__(self, text: str, parent: CompoundCommand | None = None) -> None:
        super().__init__(text)
        self.children_: list[QUndoCommand] = []
        keep_child(parent, self)

    def add(self, child: QUndoCommand) -> None:
        self.children_.append(child)

    def redo(self) -> None:
        with self._batched():
            for child in self.children_:
                child.redo()

    def undo(self) -> None:
        with self._batched():
            for child in reversed(self.children_):
                child.undo()

    def _batched(self) -> AbstractContextManager[None]:
        """The document's batched() (its views refresh once after all the children), when a child knows it."""
        for child in self.children_:
            batched = getattr(getattr(child, "doc", None), "batched", None)
            if callable(batched):
                return batched()  # type: ignore[no-any-return]
        return nullcontext()

    def changes_anything(self) -> bool:
        return any(changes_anything(c) for c in self.children_)


def keep_child(parent: CompoundCommand | None, child: QUndoCommand) -> None:
    """Make `child` part of `parent` (when there is one)."""
    if parent is not None:
        parent.add(child)
