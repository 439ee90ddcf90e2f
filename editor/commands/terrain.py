"""Painting squares: a whole brush stroke merges into one undo step (Tiled's PaintTileLayer)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QRect
from PySide6.QtGui import QUndoCommand

from editor.commands.base import CompoundCommand, keep_child
from editor.document import MissionDocument

PAINT_ID = 1001
Run = tuple[int, int, int, str]  # row y, first column, end column (exclusive), character


class PaintTerrainCommand(QUndoCommand):
    """Set the character of squares on one level ('#' wall, '.' floor, a letter for a section's floor).

    It keeps the rows it touches before and after (strings are immutable, so that is two references a row):
    undo and redo swap those rows back in and repaint only the changed rectangle, whatever the map's size.
    """

    def __init__(self, doc: MissionDocument, level: str, cells: dict[tuple[int, int], str],
                 stroke: int | None = None, text: str = "Paint", parent: CompoundCommand | None = None,
                 runs: Iterable[Run] = ()) -> None:
        super().__init__(text)
        keep_child(parent, self)
        self.doc, self.level, self.stroke = doc, level, stroke
        spans: dict[int, list[tuple[int, int, str]]] = {}
        for (x, y), ch in cells.items():
            spans.setdefault(y, []).append((x, x + 1, ch))
        for y, a, b, ch in runs:
            spans.setdefault(y, []).append((a, b, ch))
        rows = doc.level(level).rows
        self.old_rows: dict[int, str] = {}
        self.new_rows: dict[int, str] = {}
        self.region = QRect()
        for y, row_spans in spans.items():
            if not 0 <= y < len(rows):
                continue  # edits never go out of the grid
            old = rows[y]
            new = old
            for a, b, ch in sorted(row_spans):
                a, b = max(a, 0), min(b, len(old))
                if a < b:
                    new = new[:a] + ch * (b - a) + new[b:]
                    self.region = self.region.united(QRect(a, y, b - a, 1))
            if new != old:
                self.old_rows[y], self.new_rows[y] = old, new

    def redo(self) -> None:
        self.doc.apply_rows(self.level, self.new_rows, self.region)

    def undo(self) -> None:
        self.doc.apply_rows(self.level, self.old_rows, self.region)

    def id(self) -> int:
        # Only commands that belong to a stroke merge; a lone paint (rectangle, fill) stays its own step.
        return PAINT_ID if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, PaintTerrainCommand) or other.stroke != self.stroke or other.level != self.level:
            return False
        for y, row in other.old_rows.items():
            self.old_rows.setdefault(y, row)  # the first old value of a row is the one undo restores
        self.new_rows.update(other.new_rows)
        self.region = self.region.united(other.region)
        return True

    def changes_anything(self) -> bool:
        return bool(self.new_rows)
