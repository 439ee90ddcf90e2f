"""Painting squares: a whole brush stroke merges into one undo step (Tiled's PaintTileLayer)."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from editor.commands.base import CompoundCommand, keep_child
from editor.document import MissionDocument

PAINT_ID = 1001


class PaintTerrainCommand(QUndoCommand):
    """Set the character of squares on one level ('#' wall, '.' floor, a letter for a section's floor)."""

    def __init__(self, doc: MissionDocument, level: str, cells: dict[tuple[int, int], str],
                 stroke: int | None = None, text: str = "Paint", parent: CompoundCommand | None = None) -> None:
        super().__init__(text)
        keep_child(parent, self)
        self.doc, self.level, self.stroke = doc, level, stroke
        lv = doc.level(level)
        self.new = {xy: ch for xy, ch in cells.items() if 0 <= xy[1] < lv.height and 0 <= xy[0] < lv.width}
        self.old = {(x, y): lv.cell(x, y) for (x, y) in self.new}

    def redo(self) -> None:
        self.doc.apply_cells(self.level, self.new)

    def undo(self) -> None:
        self.doc.apply_cells(self.level, self.old)

    def id(self) -> int:
        # Only commands that belong to a stroke merge; a lone paint (rectangle, fill) stays its own step.
        return PAINT_ID if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, PaintTerrainCommand) or other.stroke != self.stroke or other.level != self.level:
            return False
        for xy, ch in other.old.items():
            self.old.setdefault(xy, ch)  # the first old value of a square is the one undo restores
        self.new.update(other.new)
        return True

    def changes_anything(self) -> bool:
        return any(self.old[xy] != ch for xy, ch in self.new.items())
