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
        # The changed rectangle as plain ints, made a QRect once: a flood fill of the largest map has thousands
        # of runs, and a QRect.united() for each cost more than the fill itself.
        left = top = 1 << 30
        right = bottom = -1
        for y, row_spans in spans.items():
            if not 0 <= y < len(rows):
                continue  # edits never go out of the grid
            old = rows[y]
            width = len(old)
            chars = list(old)
            for a, b, ch in sorted(row_spans):  # in order, so a later span overwrites an earlier one
                a, b = max(a, 0), min(b, width)
                if a < b:
                    chars[a:b] = ch * (b - a)
                    left, right = min(left, a), max(right, b)
                    top, bottom = min(top, y), max(bottom, y + 1)
            new = "".join(chars)
            if new != old:
                self.old_rows[y], self.new_rows[y] = old, new
        self.region = QRect(left, top, right - left, bottom - top) if right >= 0 else QRect()

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
