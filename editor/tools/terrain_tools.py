"""Terrain tools: floor/wall brush, rectangle, flood fill, eraser, section painter."""

from __future__ import annotations

import bisect
import itertools
import re
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt

from editor.commands import PaintTerrainCommand, RemoveFeatureCommand
from editor.features import features_by_square
from editor.tools.base import Tool
from engine.mission.model import WALL

if TYPE_CHECKING:
    from editor.scene.level_scene import LevelScene

_strokes = itertools.count(1)


def line_squares(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    """Squares on a line between two squares, so a fast drag leaves no gaps (Bresenham)."""
    out = []
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    while True:
        out.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return out
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def flood(level_rows: list[str], x: int, y: int) -> set[tuple[int, int]]:
    """Orthogonally connected squares holding the same character as (x, y)."""
    return {(sx, ry) for ry, a, b in flood_runs(level_rows, x, y) for sx in range(a, b)}


def flood_runs(level_rows: list[str], x: int, y: int) -> list[tuple[int, int, int]]:
    """The area `flood` finds, as (row, first column, end column) runs.

    Searches whole runs of the character along each row (found by the regex engine), not single squares, so
    filling most of a 200x200 map visits a few hundred runs instead of 40,000 squares.
    """
    h = len(level_rows)
    if not (0 <= y < h and 0 <= x < len(level_rows[y])):
        return []
    target = level_rows[y][x]
    pattern = re.compile(re.escape(target) + "+")
    found: dict[int, tuple[list[tuple[int, int]], list[int]]] = {}  # row: its runs and their end columns

    def row_runs(ry: int) -> tuple[list[tuple[int, int]], list[int]]:
        got = found.get(ry)
        if got is None:
            spans = [m.span() for m in pattern.finditer(level_rows[ry])]
            got = found[ry] = (spans, [e for _, e in spans])
        return got

    spans, _ = row_runs(y)
    first = next(i for i, r in enumerate(spans) if r[0] <= x < r[1])
    seen = {(y, first)}
    todo = [(y, first)]
    while todo:
        ry, i = todo.pop()
        a, b = found[ry][0][i]
        for ny in (ry - 1, ry + 1):
            if not 0 <= ny < h:
                continue
            spans, ends = row_runs(ny)
            # The runs sharing at least one column: from the first that ends after column a, while they start
            # before b (runs of a row are in order and apart).
            j = bisect.bisect_right(ends, a)
            while j < len(spans) and spans[j][0] < b:
                if (ny, j) not in seen:
                    seen.add((ny, j))
                    todo.append((ny, j))
                j += 1
    return [(ry, *found[ry][0][i]) for ry, i in seen]


class BrushTool(Tool):
    name = "Brush"
    shortcut = "B"
    tip = ("Left drag paints floor (of the chosen section), right drag paints wall. "
           "A stroke is one undo step.")

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._stroke: int | None = None
        self._last: tuple[int, int] | None = None
        self._char = "."

    def footprint(self, x: int, y: int) -> list[tuple[int, int]]:
        n = max(1, self.ctx.options.brush_size)
        off = (n - 1) // 2
        return [(x - off + i, y - off + j) for i in range(n) for j in range(n)]

    def char_for(self, button: Qt.MouseButton) -> str:
        return WALL if button == Qt.MouseButton.RightButton else self.ctx.options.section

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        if button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            return
        self._stroke = next(_strokes)
        self._char = self.char_for(button)
        self._last = (x, y)
        self._paint(scene, [(x, y)])

    def move(self, scene: LevelScene, x: int, y: int, buttons: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        self.hover(scene, x, y)
        if self._stroke is None or self._last is None or (x, y) == self._last:
            return
        path = line_squares(*self._last, x, y)[1:]
        self._last = (x, y)
        self._paint(scene, path)

    def release(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        self._stroke = None
        self._last = None

    def _paint(self, scene: LevelScene, path: list[tuple[int, int]]) -> None:
        cells = {sq: self._char for p in path for sq in self.footprint(*p)}
        cmd = PaintTerrainCommand(self.doc, scene.level_id, cells, self._stroke, text=f"{self.name} stroke")
        if cmd.changes_anything():
            self.ctx.push(cmd)

    def hover(self, scene: LevelScene, x: int, y: int) -> None:
        scene.set_preview(self.footprint(x, y), True)


class EraserTool(BrushTool):
    name = "Eraser"
    shortcut = "E"
    tip = "Drag to remove every feature and turn squares to wall. A stroke is one undo step."
    _macro = False  # the stroke's undo macro is open
    # The level's features by square, with the document's features_revision and the level it was made for: one
    # look at every feature per change of them, not one per square the stroke crosses.
    _index: tuple[int, str, dict[tuple[int, int], list[tuple[str, Any]]]] | None = None

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        if button != Qt.MouseButton.LeftButton:
            return
        self._macro = False
        self._index = None
        self._stroke = next(_strokes)
        self._char = WALL
        self._last = (x, y)
        self._paint(scene, [(x, y)])

    def release(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        if self._stroke is not None and self._macro:
            self.doc.undo_stack.endMacro()
            self._macro = False
        super().release(scene, x, y, button, mods)

    def _paint(self, scene: LevelScene, path: list[tuple[int, int]]) -> None:
        squares = {sq for p in path for sq in self.footprint(*p)}
        key = (self.doc.features_revision, scene.level_id)
        if self._index is None or self._index[:2] != key:
            self._index = (*key, features_by_square(self.doc.mission, scene.level_id))
        index = self._index[2]
        found = list({id(f[1]): f for sq in sorted(squares) for f in index.get(sq, ())}.values())
        paint = PaintTerrainCommand(self.doc, scene.level_id, dict.fromkeys(squares, WALL), self._stroke,
                                    text=f"{self.name} stroke")
        if not found and not paint.changes_anything():
            return  # erasing wall: no step, so the redo steps stay
        if not self._macro:
            # A macro, because one stroke mixes feature removals and terrain paint; opened at the first change,
            # as opening one clears the redo steps.
            self.doc.undo_stack.beginMacro("Erase")
            self._macro = True
        for kind, obj in found:
            self.ctx.push(RemoveFeatureCommand(self.doc, kind, obj))
        super()._paint(scene, path)


class RectTool(Tool):
    name = "Rectangle"
    shortcut = "R"
    tip = "Drag a rectangle: left button fills floor (of the chosen section), right button fills wall."

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._start: tuple[int, int] | None = None
        self._char = "."

    def _rect(self, x: int, y: int) -> list[tuple[int, int]]:
        assert self._start is not None
        x0, y0 = self._start
        return [(i, j) for i in range(min(x0, x), max(x0, x) + 1) for j in range(min(y0, y), max(y0, y) + 1)]

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        if button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self._start = (x, y)
            self._char = WALL if button == Qt.MouseButton.RightButton else self.ctx.options.section
            scene.set_preview(self._rect(x, y), True)

    def move(self, scene: LevelScene, x: int, y: int, buttons: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        scene.set_preview(self._rect(x, y) if self._start else [(x, y)], True)

    def release(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        if self._start is None:
            return
        cells = {sq: self._char for sq in self._rect(x, y)}
        self._start = None
        cmd = PaintTerrainCommand(self.doc, scene.level_id, cells, text="Rectangle")
        if cmd.changes_anything():
            self.ctx.push(cmd)
        scene.set_preview([(x, y)], True)

    def cancel(self) -> None:
        self._start = None


class FillTool(Tool):
    name = "Flood fill"
    shortcut = "F"
    tip = "Click: fill the connected area of the same kind with floor (chosen section); right click fills wall."

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        char = WALL if button == Qt.MouseButton.RightButton else self.ctx.options.section
        runs = [(ry, a, b, char) for ry, a, b in flood_runs(self.doc.level(scene.level_id).rows, x, y)]
        cmd = PaintTerrainCommand(self.doc, scene.level_id, {}, runs=runs, text="Flood fill")
        if cmd.changes_anything():
            self.ctx.push(cmd)


class SectionTool(BrushTool):
    name = "Section"
    shortcut = "S"
    tip = ("Drag over floor to assign squares to the chosen section; Ctrl+click assigns a whole connected area. "
           "Walls are left alone. Create and name sections in the tool options.")

    def char_for(self, button: Qt.MouseButton) -> str:
        return "." if button == Qt.MouseButton.RightButton else self.ctx.options.section

    def press(self, scene: LevelScene, x: int, y: int, button: Qt.MouseButton, mods: Qt.KeyboardModifier) -> None:
        if mods & Qt.KeyboardModifier.ControlModifier:
            lv = self.doc.level(scene.level_id)
            if lv.cell(x, y) == WALL:
                return
            char = self.char_for(button)
            runs = [(ry, a, b, char) for ry, a, b in flood_runs(lv.rows, x, y)]
            cmd = PaintTerrainCommand(self.doc, scene.level_id, {}, runs=runs, text="Assign section")
            if cmd.changes_anything():
                self.ctx.push(cmd)
            return
        super().press(scene, x, y, button, mods)

    def _paint(self, scene: LevelScene, path: list[tuple[int, int]]) -> None:
        lv = self.doc.level(scene.level_id)
        cells = {sq: self._char for p in path for sq in self.footprint(*p) if lv.cell(*sq) != WALL}
        cmd = PaintTerrainCommand(self.doc, scene.level_id, cells, self._stroke, text="Assign section")
        if cmd.changes_anything():
            self.ctx.push(cmd)

